// convert between any two element types, with XLA's rules: float to integer
// truncates toward zero and saturates (NaN gives 0), anything to i1 is
// `x != 0`, integer to integer wraps, f16/bf16 round to nearest even.

#include "compiler/interp/ElementFunctions.h"
#include "compiler/interp/Kernels.h"

namespace shardgen::interp {
namespace {

template <typename FromTraits, typename ToTraits>
void convertAll(const Literal &operand, Literal &out) {
  using FromStorage = typename FromTraits::Storage;
  using ToStorage = typename ToTraits::Storage;
  const FromStorage *in = operand.as<FromStorage>();
  ToStorage *result = out.as<ToStorage>();
  for (int64_t i = 0, n = out.numElements(); i < n; ++i)
    result[i] = ToTraits::store(convertElement<FromTraits, ToTraits>(FromTraits::load(in[i])));
}

} // namespace

Literal evalConvert(const Literal &operand, ElementType resultType) {
  Literal out(TensorType{resultType, operand.shape()});
  dispatchElementType(operand.elementType(), [&](auto from) {
    dispatchElementType(resultType,
                        [&](auto to) { convertAll<decltype(from), decltype(to)>(operand, out); });
  });
  return out;
}

} // namespace shardgen::interp
