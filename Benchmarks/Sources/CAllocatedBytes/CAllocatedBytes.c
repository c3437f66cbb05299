#include "CAllocatedBytes.h"

#if defined(__linux__)
#include <malloc.h>
// In use from the heap, plus the blocks glibc maps on their own: a large dictionary's storage
// is mapped while it is above the (dynamic) mmap threshold, and `uordblks` alone misses it.
size_t benchmark_allocated_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
#elif defined(__APPLE__)
#include <malloc/malloc.h>
size_t benchmark_allocated_bytes(void) {
    malloc_statistics_t statistics;
    malloc_zone_statistics(NULL, &statistics);
    return statistics.size_in_use;
}
#else
size_t benchmark_allocated_bytes(void) { return 0; }
#endif
