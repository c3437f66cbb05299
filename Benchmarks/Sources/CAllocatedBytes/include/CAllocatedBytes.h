#include <stddef.h>

/// The bytes the process has allocated with malloc and not freed (0 where unknown).
size_t benchmark_allocated_bytes(void);
