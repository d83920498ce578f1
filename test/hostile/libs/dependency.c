/* A library the hostile custom-call library depends on: its function has the
 * custom-call signature, but it is not defined by the library handed to
 * --custom-calls, so shardgen must refuse it. */
#include "shardgen/custom_call.h"

void dependency_kernel(shardgen_buffer *results, int64_t num_results,
                       const shardgen_buffer *operands, int64_t num_operands) {
  (void)results, (void)num_results, (void)operands, (void)num_operands;
}
