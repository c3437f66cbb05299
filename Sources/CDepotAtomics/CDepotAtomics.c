#include "CDepotAtomics.h"

// The operations are inline functions in the header; these are the variables they read.
_Thread_local void *_Nullable depot_thread_frame = 0;

// Set once, by the first clone of the singleton scope.
uint64_t depot_singleton_clones = 0;

// Set once, by the first async resolution that binds a task-local.
uint64_t depot_async_resolutions = 0;

// Blocks of lock generations: the shared counter, and the calling thread's block.
uint64_t depot_generation_source = 0;
_Thread_local uint64_t depot_generation_next = 0;
_Thread_local uint64_t depot_generation_end = 0;
