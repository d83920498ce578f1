/* The ABI of a custom_call target (the contract: docs/custom-calls.md).
 *
 *   void my_kernel(shardgen_buffer *results, int64_t num_results,
 *                  const shardgen_buffer *operands, int64_t num_operands);
 *
 * - One function with C linkage per call_target_name, defined by the
 *   application (AOT) or by the library given to `--custom-calls LIB.so`
 *   (eval, run); never looked up anywhere else.
 * - Called once per device on that device's local shards (the op's
 *   sharding_rule partitions it; without a rule, on whole tensors), from the
 *   device's thread: calls run concurrently, so it must be thread-safe.
 * - Operands and results in the op's order; buffers dense, row-major, of the
 *   graph's element types. Result buffers are allocated by the caller with
 *   the result's local shape and must be filled entirely; operands are read
 *   only; no pointer outlives the call. */
#ifndef SHARDGEN_CUSTOM_CALL_H
#define SHARDGEN_CUSTOM_CALL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum shardgen_element_type {
  SHARDGEN_F32 = 0,
  SHARDGEN_F64 = 1,
  SHARDGEN_F16 = 2,
  SHARDGEN_BF16 = 3,
  SHARDGEN_I1 = 4,
  SHARDGEN_I8 = 5,
  SHARDGEN_I32 = 6,
  SHARDGEN_I64 = 7,
  SHARDGEN_UI8 = 8,
  SHARDGEN_UI32 = 9,
  SHARDGEN_I16 = 10,
  SHARDGEN_UI16 = 11,
  SHARDGEN_UI64 = 12,
  SHARDGEN_C64 = 13,  /* complex<f32>: (real, imaginary) float pairs */
  SHARDGEN_C128 = 14, /* complex<f64>: (real, imaginary) double pairs */
  SHARDGEN_I2 = 15,   /* sub-byte integers: one byte per element, in range */
  SHARDGEN_I4 = 16,
  SHARDGEN_UI2 = 17,
  SHARDGEN_UI4 = 18,
  SHARDGEN_F8E3M4 = 19, /* 8-, 6- and 4-bit floats: one byte per element holding the code */
  SHARDGEN_F8E4M3 = 20,
  SHARDGEN_F8E4M3FN = 21,
  SHARDGEN_F8E4M3FNUZ = 22,
  SHARDGEN_F8E4M3B11FNUZ = 23,
  SHARDGEN_F8E5M2 = 24,
  SHARDGEN_F8E5M2FNUZ = 25,
  SHARDGEN_F8E8M0FNU = 26,
  SHARDGEN_F6E2M3FN = 27,
  SHARDGEN_F6E3M2FN = 28,
  SHARDGEN_F4E2M1FN = 29
} shardgen_element_type;

typedef struct shardgen_buffer {
  void *data;           /* row-major, densely packed */
  const int64_t *shape; /* rank entries */
  int64_t rank;
  shardgen_element_type element_type;
} shardgen_buffer;

typedef void (*shardgen_custom_call_fn)(shardgen_buffer *results, int64_t num_results,
                                        const shardgen_buffer *operands, int64_t num_operands);

#ifdef __cplusplus
}
#endif

#endif /* SHARDGEN_CUSTOM_CALL_H */
