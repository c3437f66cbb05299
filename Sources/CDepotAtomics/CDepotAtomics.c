// For glibc's statically initialised error-checking and recursive mutexes.
#define _GNU_SOURCE
#include "CDepotAtomics.h"
#include <pthread.h>

// The operations are inline functions in the header; these are the variables they read.
_Thread_local void *_Nullable depot_thread_frame = 0;

// Set once, by the first clone of the singleton scope.
uint64_t depot_singleton_clones = 0;

// Set once, by the first async resolution that binds a task-local.
uint64_t depot_async_resolutions = 0;

// Set by the first use of each built-in scope.
uint64_t depot_builtin_scopes[8] = {0};

// Blocks of lock generations: the shared counter, and the calling thread's block.
uint64_t depot_generation_source = 0;
_Thread_local uint64_t depot_generation_next = 0;
_Thread_local uint64_t depot_generation_end = 0;

void depot_mutex_init(void *_Nonnull mutex, int recursive) {
    pthread_mutex_t *m = (pthread_mutex_t *)mutex;
#if defined(PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP) && defined(PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP)
    // What pthread_mutex_init makes from attributes of these types, copied from the
    // initialisers: no attributes object to make, set and destroy for every mutex.
    static const pthread_mutex_t errorChecking = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;
    static const pthread_mutex_t recursiveMutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
    *m = recursive ? recursiveMutex : errorChecking;
#else
    pthread_mutexattr_t attributes;
    pthread_mutexattr_init(&attributes);
    pthread_mutexattr_settype(&attributes,
                              recursive ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(m, &attributes);
    pthread_mutexattr_destroy(&attributes);
#endif
}
