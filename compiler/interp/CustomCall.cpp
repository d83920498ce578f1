// custom_call: hand whole tensors to a user-supplied extern "C" function
// (found by EvalOptions::customCallResolver, never in the process) through
// the ABI of runtime/include/shardgen/custom_call.h.

#include "compiler/interp/Interpreter.h"
#include "compiler/interp/LocalOps.h"

namespace shardgen {
namespace interp {
namespace {

shardgen_element_type abiElementType(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return SHARDGEN_F32;
  case ElementType::F64:
    return SHARDGEN_F64;
  case ElementType::F16:
    return SHARDGEN_F16;
  case ElementType::BF16:
    return SHARDGEN_BF16;
  case ElementType::I1:
    return SHARDGEN_I1;
  case ElementType::I8:
    return SHARDGEN_I8;
  case ElementType::I32:
    return SHARDGEN_I32;
  case ElementType::I64:
    return SHARDGEN_I64;
  case ElementType::UI8:
    return SHARDGEN_UI8;
  case ElementType::UI32:
    return SHARDGEN_UI32;
  case ElementType::I16:
    return SHARDGEN_I16;
  case ElementType::UI16:
    return SHARDGEN_UI16;
  case ElementType::UI64:
    return SHARDGEN_UI64;
  case ElementType::C64:
    return SHARDGEN_C64;
  case ElementType::C128:
    return SHARDGEN_C128;
  case ElementType::I2:
    return SHARDGEN_I2;
  case ElementType::I4:
    return SHARDGEN_I4;
  case ElementType::UI2:
    return SHARDGEN_UI2;
  case ElementType::UI4:
    return SHARDGEN_UI4;
  case ElementType::Token: // customCallKernel refuses tokens first
    break;
#define SHARDGEN_MINI_FLOAT_ABI(Name, mlirName)                                                    \
  case ElementType::Name:                                                                          \
    return SHARDGEN_##Name;
    SHARDGEN_FOR_EACH_MINI_FLOAT(SHARDGEN_MINI_FLOAT_ABI)
#undef SHARDGEN_MINI_FLOAT_ABI
  }
  return SHARDGEN_F32;
}

shardgen_buffer bufferOf(const Literal &literal) {
  // The ABI's data pointer is mutable for results; operands are not written.
  return shardgen_buffer{const_cast<std::byte *>(literal.data()), literal.shape().data(),
                         literal.type().rank(), abiElementType(literal.elementType())};
}

} // namespace

std::vector<Literal> callCustomCall(shardgen_custom_call_fn function,
                                    const std::vector<const Literal *> &operands,
                                    const std::vector<TensorType> &resultTypes) {
  std::vector<Literal> results;
  for (const TensorType &type : resultTypes)
    results.emplace_back(type);
  std::vector<shardgen_buffer> operandBuffers, resultBuffers;
  for (const Literal *operand : operands)
    operandBuffers.push_back(bufferOf(*operand));
  for (const Literal &result : results)
    resultBuffers.push_back(bufferOf(result));
  function(resultBuffers.data(), static_cast<int64_t>(resultBuffers.size()), operandBuffers.data(),
           static_cast<int64_t>(operandBuffers.size()));
  return results;
}

} // namespace interp
} // namespace shardgen
