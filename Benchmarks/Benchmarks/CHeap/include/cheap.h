#ifndef HERALD_BENCH_CHEAP_H
#define HERALD_BENCH_CHEAP_H
#include <stddef.h>
/// Bytes the C heap currently has handed out (glibc mallinfo2), 0 elsewhere.
size_t herald_heap_in_use(void);
#endif
