/* The --custom-calls library of the hostile-graph tests. It defines one data
 * symbol and no function a hostile graph names: remove, mkdir, system, free
 * and exit reach it only through its dependency on libc, dependency_kernel
 * only through libhostile_dependency.so. */
#include <stdlib.h>

#include "shardgen/custom_call.h"

void dependency_kernel(shardgen_buffer *, int64_t, const shardgen_buffer *, int64_t);

const int lookup_table[4] = {1, 2, 3, 4};

/* Uses both dependencies, so the linker keeps them as DT_NEEDED. */
void *hostile_uses_dependencies(void) {
  return (void *)&dependency_kernel == (void *)&free ? 0 : (void *)&dependency_kernel;
}
