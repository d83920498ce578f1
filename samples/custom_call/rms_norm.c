/* The implementation of samples/custom_call/rms_norm_mlp.json's custom_call
 * "rms_norm", in the ABI of shardgen/custom_call.h (docs/custom-calls.md):
 * each row of the f32 operand divided by its root mean square.
 *
 *   cc -shared -fPIC -O2 -I runtime/include samples/custom_call/rms_norm.c -o librms_norm.so
 *   shardgen run samples/custom_call/rms_norm_mlp.json --custom-calls ./librms_norm.so --check
 *
 * It is called once per device, from that device's thread, on the device's
 * local rows; it keeps no state, so concurrent calls are safe. */
#include <math.h>

#include "shardgen/custom_call.h"

void rms_norm(shardgen_buffer *results, int64_t num_results, const shardgen_buffer *operands,
              int64_t num_operands) {
  /* The graph declares one f32 operand and one result of its shape. */
  if (num_results != 1 || num_operands != 1 || operands[0].rank != 2 ||
      operands[0].element_type != SHARDGEN_F32)
    return;
  const int64_t rows = operands[0].shape[0], columns = operands[0].shape[1];
  const float *in = (const float *)operands[0].data;
  float *out = (float *)results[0].data;
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (int64_t c = 0; c < columns; ++c)
      sum += (double)in[r * columns + c] * in[r * columns + c];
    const float scale = (float)(1.0 / sqrt(sum / (double)columns + 1e-6));
    for (int64_t c = 0; c < columns; ++c)
      out[r * columns + c] = in[r * columns + c] * scale;
  }
}
