// The kernel call of one per-element op on local pieces (the sharded path's
// elementwise kernels, templates/kernels/elementwise.h): the unary and
// binary families call `unary`/`binary` with the op's functor, the other
// per-element ops their own kernel. Chosen per row at compile time, so a
// per-element row without its call fails to build.

#include <string>

#include "compiler/codegen/CodeWriter.h"
#include "compiler/codegen/CppNames.h"
#include "compiler/codegen/EmitterContext.h"
#include "compiler/ir/InternalError.h"
#include "compiler/ops/KindTable.h"

namespace shardgen::codegen {
namespace {

/// The pieces every call's text is made of.
struct CallText {
  const ElementwiseCall &call;
  std::string n = str(call.count);
  std::string inTag = std::string(elementTag(call.inTypes[0]));
  std::string outTag = std::string(elementTag(call.outType));

  std::string in(size_t i) const { return typed(call.inTypes[i], call.ins[i]); }
  /// Operand i read as the result's type (select's and clamp's data).
  std::string inAsOut(size_t i) const { return typed(call.outType, call.ins[i]); }
  std::string out() const { return typed(call.outType, call.out); }
  const char *stride(size_t i) const { return call.broadcast[i] ? "0" : "1"; }
  std::string functor() const {
    return std::string(elementwiseFunctor(call.op->kind, call.inTypes[0]));
  }
  static std::string typed(ElementType type, const std::string &buffer) {
    return "as<" + std::string(storageType(type)) + ">(" + buffer + ")";
  }
};

std::string unaryCall(const CallText &c) {
  if (c.call.op->kind == OpKind::Abs && isComplex(c.call.inTypes[0])) // the modulus: a real result
    return "complexAbs<" + c.inTag + ", " + c.n + ">(" + c.in(0) + ", " + c.out() + ");";
  return "unary<" + c.inTag + ", " + c.functor() + ", " + c.n + ">(" + c.in(0) + ", " +
         CallText::typed(c.call.inTypes[0], c.call.out) + ");";
}

std::string binaryCall(const CallText &c) {
  return "binary<" + c.inTag + ", " + c.functor() + ", " + c.n + ">(" + c.in(0) + ", " +
         CallText::typed(c.call.inTypes[0], c.call.ins[1]) + ", " +
         CallText::typed(c.call.inTypes[0], c.call.out) + ");";
}

/// The call of each per-element op outside the two families.
template <OpKind K> std::string otherCall(const CallText &c) = delete;

template <> std::string otherCall<OpKind::Compare>(const CallText &c) {
  const auto &attrs = c.call.op->attr<CompareAttrs>();
  return std::string(attrs.totalOrder() ? "compareTotalOrder<" : "compare<") + c.inTag + ", " +
         compareFunctor(attrs.direction) + ", " + c.n + ">(" + c.in(0) + ", " + c.in(1) +
         ", as<uint8_t>(" + c.call.out + "));";
}

template <> std::string otherCall<OpKind::Select>(const CallText &c) {
  return "select<" + c.outTag + ", " + c.n + ", " + c.stride(0) + ">(as<uint8_t>(" + c.call.ins[0] +
         "), " + c.inAsOut(1) + ", " + c.inAsOut(2) + ", " + c.out() + ");";
}

template <> std::string otherCall<OpKind::Clamp>(const CallText &c) {
  return "clamp<" + c.outTag + ", " + c.n + ", " + c.stride(0) + ", " + c.stride(2) + ">(" +
         c.inAsOut(0) + ", " + c.inAsOut(1) + ", " + c.inAsOut(2) + ", " + c.out() + ");";
}

template <> std::string otherCall<OpKind::Convert>(const CallText &c) {
  return "convert<" + c.inTag + ", " + c.outTag + ", " + c.n + ">(" + c.in(0) + ", " + c.out() +
         ");";
}

template <> std::string otherCall<OpKind::IsFinite>(const CallText &c) {
  return "isFinite<" + c.inTag + ", " + c.n + ">(" + c.in(0) + ", as<uint8_t>(" + c.call.out +
         "));";
}

template <> std::string otherCall<OpKind::ReducePrecision>(const CallText &c) {
  const auto &attrs = c.call.op->attr<ReducePrecisionAttrs>();
  return "reducePrecision<" + c.inTag + ", " + str(attrs.exponentBits) + ", " +
         str(attrs.mantissaBits) + ", " + c.n + ">(" + c.in(0) + ", " + c.out() + ");";
}

/// real and imag: the part of a complex operand (of a float one: itself, 0).
std::string complexPartCall(const CallText &c, bool imaginary) {
  return "complexPart<" + c.inTag + ", " + (imaginary ? "true" : "false") + ", " + c.n + ">(" +
         c.in(0) + ", " + c.out() + ");";
}
template <> std::string otherCall<OpKind::Real>(const CallText &c) {
  return complexPartCall(c, false);
}
template <> std::string otherCall<OpKind::Imag>(const CallText &c) {
  return complexPartCall(c, true);
}
template <> std::string otherCall<OpKind::Complex>(const CallText &c) {
  return "makeComplex<" + c.outTag + ", " + c.n + ">(" + c.in(0) + ", " + c.in(1) + ", " + c.out() +
         ");";
}

using CallFn = std::string (*)(const CallText &);
constexpr auto kCalls = tableByKind([](auto kind) -> CallFn {
  constexpr OpCategory category = opCategory(decltype(kind)::value);
  if constexpr (category == OpCategory::ElementwiseUnary)
    return &unaryCall;
  else if constexpr (category == OpCategory::ElementwiseBinary)
    return &binaryCall;
  else if constexpr (category == OpCategory::ElementwiseOther)
    return &otherCall<decltype(kind)::value>;
  else
    return nullptr; // not per element: its row's Emit column emits it
});

} // namespace

std::string elementwiseKernelCall(const ElementwiseCall &call) {
  const CallFn fn = entryFor(kCalls, call.op->kind);
  SHARDGEN_CHECK(fn != nullptr, std::string(call.op->name()) + " has no elementwise kernel");
  return fn(CallText{call});
}

} // namespace shardgen::codegen
