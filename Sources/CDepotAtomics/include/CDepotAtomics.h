#ifndef CDEPOT_ATOMICS_H
#define CDEPOT_ATOMICS_H

#include <stdint.h>

// The atomic operations Depot needs on every platform it supports (the standard library's
// Synchronization module needs macOS 15 / iOS 18): plain words read with acquire and written
// with release ordering.

/// Reads `*word` with acquire ordering.
static inline uint64_t depot_atomic_load(const uint64_t *word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

/// Writes `value` to `*word` with release ordering.
static inline void depot_atomic_store(uint64_t *word, uint64_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

/// Adds `value` to `*word` and returns the sum.
static inline uint64_t depot_atomic_add(uint64_t *word, uint64_t value) {
    return __atomic_add_fetch(word, value, __ATOMIC_ACQ_REL);
}

#endif
