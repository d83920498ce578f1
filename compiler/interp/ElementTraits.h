#pragma once
// How the interpreter stores and computes each element type: a storage type
// (what the Literal holds), a compute type (what arithmetic runs in) and the
// conversions between them. f16/bf16 compute in float and round on store; i1
// computes in uint8_t and stores `x != 0`. Kernels dispatch on the element
// type once per op and then run a loop templated on these traits.

#include <cstdint>
#include <type_traits>
#include <utility>

#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/TensorType.h"
#include "runtime/include/shardgen/element_types.h"

namespace shardgen::interp {

// The element types of the runtime and generated code: one copy of how each
// type is stored and rounded.
using F32Traits = runtime::elements::F32;
using F64Traits = runtime::elements::F64;
using F16Traits = runtime::elements::F16;
using BF16Traits = runtime::elements::BF16;
using I1Traits = runtime::elements::I1;
using I8Traits = runtime::elements::I8;
using I32Traits = runtime::elements::I32;
using I64Traits = runtime::elements::I64;
using UI8Traits = runtime::elements::UI8;
using UI32Traits = runtime::elements::UI32;
using I16Traits = runtime::elements::I16;
using UI16Traits = runtime::elements::UI16;
using UI64Traits = runtime::elements::UI64;
using C64Traits = runtime::elements::C64;
using C128Traits = runtime::elements::C128;
using I2Traits = runtime::elements::I2;
using I4Traits = runtime::elements::I4;
using UI2Traits = runtime::elements::UI2;
using UI4Traits = runtime::elements::UI4;

template <typename Traits>
constexpr bool isFloatTraits = std::is_floating_point_v<typename Traits::Compute>;
template <typename Traits> constexpr bool isBoolTraits = std::is_same_v<Traits, I1Traits>;
/// i2 i4 ui2 ui4: a byte wrapped to fewer bits on store.
template <typename Traits> constexpr bool isSubByteTraits = requires { Traits::kBits; };
/// The 8-, 6- and 4-bit floats: float compute, the format's code stored.
template <typename Traits>
constexpr bool isMiniFloatTraits = runtime::elements::isMiniFloat<Traits>;
template <typename Traits>
constexpr bool isComplexTraits =
    std::is_same_v<Traits, C64Traits> || std::is_same_v<Traits, C128Traits>;

/// Calls `fn(Traits{})` with the traits of `type`.
template <typename Fn> decltype(auto) dispatchElementType(ElementType type, Fn &&fn) {
  switch (type) {
  case ElementType::F32:
    return fn(F32Traits{});
  case ElementType::F64:
    return fn(F64Traits{});
  case ElementType::F16:
    return fn(F16Traits{});
  case ElementType::BF16:
    return fn(BF16Traits{});
  case ElementType::I1:
    return fn(I1Traits{});
  case ElementType::I8:
    return fn(I8Traits{});
  case ElementType::I32:
    return fn(I32Traits{});
  case ElementType::I64:
    return fn(I64Traits{});
  case ElementType::UI8:
    return fn(UI8Traits{});
  case ElementType::UI32:
    return fn(UI32Traits{});
  case ElementType::I16:
    return fn(I16Traits{});
  case ElementType::UI16:
    return fn(UI16Traits{});
  case ElementType::UI64:
    return fn(UI64Traits{});
  case ElementType::C64:
    return fn(C64Traits{});
  case ElementType::C128:
    return fn(C128Traits{});
  case ElementType::I2:
    return fn(I2Traits{});
  case ElementType::I4:
    return fn(I4Traits{});
  case ElementType::UI2:
    return fn(UI2Traits{});
  case ElementType::UI4:
    return fn(UI4Traits{});
  case ElementType::Token: // the verifier keeps tokens from element-wise kernels
    break;
#define SHARDGEN_MINI_FLOAT_DISPATCH(Name, mlirName)                                               \
  case ElementType::Name:                                                                          \
    return fn(runtime::elements::Name{});
    SHARDGEN_FOR_EACH_MINI_FLOAT(SHARDGEN_MINI_FLOAT_DISPATCH)
#undef SHARDGEN_MINI_FLOAT_DISPATCH
  }
  fail("", "a !stablehlo.token holds no elements");
}

/// Kernels report unsupported operands with an empty pointer; the interpreter
/// fills in the op's pointer.
[[noreturn]] inline void unsupported(const std::string &message) { fail("", message); }

} // namespace shardgen::interp
