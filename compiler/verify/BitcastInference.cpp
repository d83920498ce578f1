// bitcast_convert's type rule (StableHLO's C1): the bits of the operand are
// the result's, so the element widths decide the shapes.

#include <algorithm>

#include "compiler/verify/InferenceRules.h"

namespace shardgen::verify {

namespace {

/// The spec's num_bits: i1 is 1 bit (a byte in buffers, packed by the kernels).
int64_t bitWidth(ElementType type) {
  return type == ElementType::I1 ? 1 : static_cast<int64_t>(elementByteWidth(type)) * 8;
}

} // namespace

ResultTypes inferBitcastConvert(const InferenceContext &context) {
  const TensorType &operand = context.operand(0);
  const TensorType &result = context.requireDeclared(0);
  for (const TensorType *type : {&operand, &result})
    if (subByteBits(type->elementType) != 0 ||
        (isMiniFloat(type->elementType) && miniFloatBits(type->elementType) < 8))
      context.failOp("bitcast_convert of " + printType(*type) +
                     " is not supported (sub-byte integers and floats)");
  const int64_t from = bitWidth(operand.elementType), to = bitWidth(result.elementType);
  const auto mismatch = [&](const std::string &rule) {
    context.failOp("cannot reinterpret " + printType(operand) + " as " + printType(result) + ": " +
                   rule);
  };
  if (from == to) {
    if (operand.shape != result.shape)
      mismatch("with element types of one width the shapes must be equal");
    return {result};
  }
  // The narrower side has one more dim, of wide / narrow elements.
  const TensorType &wide = from > to ? operand : result;
  const TensorType &narrow = from > to ? result : operand;
  const int64_t ratio = std::max(from, to) / std::min(from, to);
  if (narrow.rank() != wide.rank() + 1)
    mismatch("the narrower side needs one dim more than the wider one");
  for (int64_t d = 0; d < wide.rank(); ++d)
    if (narrow.shape[d] != wide.shape[d])
      mismatch("dim " + std::to_string(d) + " differs");
  if (narrow.shape.back() != ratio)
    mismatch("the last dim of the narrower side must be " + std::to_string(ratio));
  return {result};
}

} // namespace shardgen::verify
