// The shared-writes probe's interposer (Linux): loaded with LD_PRELOAD under
// `depot-benchmarks --probe-shared-writes` (see .ci/check-shared-writes), it counts, between
// depot_probe_begin() and depot_probe_end(), every reference-count operation on an object and
// every lock of a pthread mutex made by the threads that registered, per object or mutex and per
// thread. What both threads count on every request is memory both write: the probe names it.
//
// Counts are kept under a spin lock of their own (a pthread mutex would count itself) in a table
// of fixed size, so nothing here allocates or retains; the interposed functions then call the
// real ones.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SLOTS (1 << 16)

struct depot_probe_entry {
    void *address;
    // The object's type metadata (read while it was alive), or the caller of the first lock.
    void *detail;
    int isLock;
    // Whether every reference-count operation found the object immortal (one that does not
    // write its count).
    int isImmortal;
    long operations[2];
};

static struct depot_probe_entry entries[SLOTS];
static int overflowed;
static int active;
static int spin;
static __thread int threadIndex = -1;

void depot_probe_register_thread(int index) { threadIndex = index; }

void depot_probe_begin(void) {
    memset(entries, 0, sizeof entries);
    overflowed = 0;
    __atomic_store_n(&active, 1, __ATOMIC_SEQ_CST);
}

void depot_probe_end(void) { __atomic_store_n(&active, 0, __ATOMIC_SEQ_CST); }

int depot_probe_overflowed(void) { return overflowed; }

long depot_probe_slots(void) { return SLOTS; }

/// Reads the entry in `slot`: returns 0 if it is empty. `flags`: 1 for a mutex, 2 for an
/// object found immortal every time.
int depot_probe_read(long slot, void **address, void **detail, int *flags, long *first,
                     long *second) {
    const struct depot_probe_entry *entry = &entries[slot];
    if (!entry->address) return 0;
    *address = entry->address;
    *detail = entry->detail;
    *flags = entry->isLock | (entry->isImmortal << 1);
    *first = entry->operations[0];
    *second = entry->operations[1];
    return 1;
}

/// Where `code` is: its symbol, or its image and offset in it (a buffer of its own, overwritten
/// by the next call).
const char *depot_probe_describe(void *code) {
    static char buffer[512];
    Dl_info info;
    if (!dladdr(code, &info)) return "?";
    if (info.dli_sname) return info.dli_sname;
    snprintf(buffer, sizeof buffer, "%s+0x%lx", info.dli_fname ? info.dli_fname : "?",
             (unsigned long)((char *)code - (char *)info.dli_fbase));
    return buffer;
}

// The runtime's immortal count on 64-bit: slow-RC and the low 32 bits set.
static int isImmortal(void *object) {
    uint64_t *word = (uint64_t *)((char *)object + sizeof(void *));
    uint64_t bits = __atomic_load_n(word, __ATOMIC_RELAXED);
    return (bits >> 63) && (bits & 0xFFFFFFFFULL) == 0xFFFFFFFFULL;
}

static void note(void *address, int isLock, void *caller) {
    int index = threadIndex;
    if (index < 0 || !address || !__atomic_load_n(&active, __ATOMIC_ACQUIRE)) return;
    while (__atomic_exchange_n(&spin, 1, __ATOMIC_ACQUIRE)) {
    }
    uintptr_t slot = ((uintptr_t)address >> 4) % SLOTS;
    for (int probe = 0; probe < SLOTS; probe++, slot = (slot + 1) % SLOTS) {
        struct depot_probe_entry *entry = &entries[slot];
        if (entry->address == address || entry->address == NULL) {
            if (entry->address == NULL) {
                entry->address = address;
                entry->isLock = isLock;
                entry->detail = isLock ? caller : *(void **)address;
                entry->isImmortal = !isLock;
            }
            if (!isLock && !isImmortal(address)) entry->isImmortal = 0;
            entry->operations[index & 1] += 1;
            goto done;
        }
    }
    overflowed = 1;
done:
    __atomic_store_n(&spin, 0, __ATOMIC_RELEASE);
}

// The function that `name` interposes, looked up on first use.
#define REAL(name) \
    static __typeof__(&name) real; \
    if (!real) real = (__typeof__(&name))dlsym(RTLD_NEXT, #name)

void *swift_retain(void *object) {
    REAL(swift_retain);
    note(object, 0, 0);
    return real(object);
}

void swift_release(void *object) {
    REAL(swift_release);
    note(object, 0, 0);
    real(object);
}

void *swift_retain_n(void *object, uint32_t count) {
    REAL(swift_retain_n);
    note(object, 0, 0);
    return real(object, count);
}

void swift_release_n(void *object, uint32_t count) {
    REAL(swift_release_n);
    note(object, 0, 0);
    real(object, count);
}

// A bridge object (an array's or dictionary's storage) with its tag bits cleared.
static void *bridged(void *object) {
    return (void *)((uintptr_t)object & 0x00FFFFFFFFFFFFF8ULL);
}

void *swift_bridgeObjectRetain(void *object) {
    REAL(swift_bridgeObjectRetain);
    note(bridged(object), 0, 0);
    return real(object);
}

void swift_bridgeObjectRelease(void *object) {
    REAL(swift_bridgeObjectRelease);
    note(bridged(object), 0, 0);
    real(object);
}

int pthread_mutex_lock(pthread_mutex_t *mutex) {
    REAL(pthread_mutex_lock);
    note(mutex, 1, __builtin_return_address(0));
    return real(mutex);
}

int pthread_mutex_trylock(pthread_mutex_t *mutex) {
    REAL(pthread_mutex_trylock);
    note(mutex, 1, __builtin_return_address(0));
    return real(mutex);
}
