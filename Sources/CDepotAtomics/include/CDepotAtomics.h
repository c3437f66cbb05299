#ifndef CDEPOT_ATOMICS_H
#define CDEPOT_ATOMICS_H

#include <stdint.h>

// The atomic operations Depot needs on every platform it supports (the standard library's
// Synchronization module needs macOS 15 / iOS 18): plain words read with acquire and written
// with release ordering.

/// Reads `*word` with acquire ordering.
static inline uint64_t depot_atomic_load(const uint64_t *_Nonnull word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

/// Writes `value` to `*word` with release ordering.
static inline void depot_atomic_store(uint64_t *_Nonnull word, uint64_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

/// Adds `value` to `*word` and returns the sum.
static inline uint64_t depot_atomic_add(uint64_t *_Nonnull word, uint64_t value) {
    return __atomic_add_fetch(word, value, __ATOMIC_ACQ_REL);
}

/// Writes `value` to `*word` and then reads `*other`, both sequentially consistent: one side of
/// a handshake in which two threads each announce themselves and then look for the other, so at
/// least one of them sees the other.
static inline uint64_t depot_announce_and_check(uint64_t *_Nonnull word, uint64_t value,
                                                const uint64_t *_Nonnull other) {
    __atomic_store_n(word, value, __ATOMIC_SEQ_CST);
    return __atomic_load_n(other, __ATOMIC_SEQ_CST);
}

/// Makes a native Swift object immortal, as the compiler makes the objects it lays out
/// statically: its reference count becomes the runtime's immortal pattern, so retains and
/// releases of it no longer write to it (the word stays in every core's cache) and it is never
/// freed. Only if the count is exactly what the runtime's 64-bit inline layout looks like for a
/// live object nobody refers to weakly (no side table, not being deinitialised, one unowned
/// reference); otherwise, and on other layouts, it does nothing and returns 0. For objects
/// that must live for the rest of the process anyway.
static inline int depot_make_immortal(void *_Nonnull object) {
#if defined(__LP64__) && (defined(__x86_64__) || defined(__aarch64__) || defined(__arm64__))
    uint64_t *word = (uint64_t *)((char *)object + sizeof(void *));
    // The runtime's immortal count: slow-RC and every low bit set (`RefCountBits(Immortal)`).
    uint64_t immortal = (1ULL << 63) | (2ULL << 33) | 0xFFFFFFFFULL;
    uint64_t bits = __atomic_load_n(word, __ATOMIC_RELAXED);
    // Again while retains and releases change the strong count meanwhile (the compiler may
    // move the caller's retain of the object after the load above).
    for (;;) {
        int usesSideTable = (int)(bits >> 63);
        int isDeiniting = (int)((bits >> 32) & 1);
        uint64_t unowned = (bits >> 1) & 0x7FFFFFFF;
        if (usesSideTable || isDeiniting || unowned != 1) {
            return 0;
        }
        if (__atomic_compare_exchange_n(word, &bits, immortal, 1, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
            return 1;
        }
    }
#else
    (void)object;
    return 0;
#endif
}

/// The calling thread's resolution frame (an unretained `ResolutionFrame`), or NULL before its
/// first resolve: a plain thread-local read, with no lookup of a key.
extern _Thread_local void *_Nullable depot_thread_frame;

static inline void *_Nullable depot_current_frame(void) {
    return depot_thread_frame;
}

static inline void depot_set_current_frame(void *_Nullable frame) {
    depot_thread_frame = frame;
}

/// 1 once any clone of the singleton scope was made (`Scope.Singleton.clone()`): until then
/// making a container need not read the singleton scope's task-local.
extern uint64_t depot_singleton_clones;

static inline uint64_t depot_has_singleton_clones(void) {
    return __atomic_load_n(&depot_singleton_clones, __ATOMIC_ACQUIRE);
}

static inline void depot_note_singleton_clone(void) {
    __atomic_store_n(&depot_singleton_clones, 1, __ATOMIC_RELEASE);
}

/// The source of lock generations: a number never handed out twice in the process. Each thread
/// takes a block of them at a time from one shared counter, so taking one writes only the
/// thread's own words nearly always, not a line every core shares.
extern uint64_t depot_generation_source;
extern _Thread_local uint64_t depot_generation_next;
extern _Thread_local uint64_t depot_generation_end;

static inline uint64_t depot_next_generation(void) {
    if (depot_generation_next == depot_generation_end) {
        uint64_t end = __atomic_add_fetch(&depot_generation_source, 4096, __ATOMIC_RELAXED);
        depot_generation_next = end - 4096 + 1;
        depot_generation_end = end + 1;
    }
    return depot_generation_next++;
}

/// The Swift runtime's running task (declared as the runtime declares it), NULL outside a
/// task: a thread-local read.
extern void *_Nullable swift_task_getCurrent(void) __attribute__((swiftcall));

static inline void *_Nullable depot_current_task(void) {
    return swift_task_getCurrent();
}

/// 1 once any async factory resolved past the hit path: until then a synchronous resolution
/// need not look for an async one it runs inside.
extern uint64_t depot_async_resolutions;

static inline uint64_t depot_has_async_resolutions(void) {
    return __atomic_load_n(&depot_async_resolutions, __ATOMIC_ACQUIRE);
}

static inline void depot_note_async_resolution(void) {
    if (__atomic_load_n(&depot_async_resolutions, __ATOMIC_RELAXED) == 0) {
        __atomic_store_n(&depot_async_resolutions, 1, __ATOMIC_RELEASE);
    }
}

/// The addresses of the built-in scopes (`Scope.builtIn`), by kind, once stored (0 before): a
/// factory declared with `.cached` or `.singleton` reads one on every resolve, as a load instead
/// of the once-check of a `static let`'s accessor.
extern uint64_t depot_builtin_scopes[8];

static inline uint64_t depot_builtin_scope(int32_t kind) {
    return __atomic_load_n(&depot_builtin_scopes[kind], __ATOMIC_ACQUIRE);
}

static inline void depot_set_builtin_scope(int32_t kind, uint64_t address) {
    __atomic_store_n(&depot_builtin_scopes[kind], address, __ATOMIC_RELEASE);
}

/// Initialises the pthread mutex at `mutex`: error-checking (a thread that locks it again gets
/// an error instead of hanging), or recursive.
void depot_mutex_init(void *_Nonnull mutex, int recursive);

#endif
