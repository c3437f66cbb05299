#include "CAllocatedBytes.h"

#if defined(__linux__)
#include <malloc.h>
size_t benchmark_allocated_bytes(void) { return mallinfo2().uordblks; }
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
