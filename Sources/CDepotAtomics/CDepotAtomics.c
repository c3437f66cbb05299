#include "CDepotAtomics.h"

// The operations are inline functions in the header; this is the thread-local they read.
_Thread_local void *_Nullable depot_thread_frame = 0;
