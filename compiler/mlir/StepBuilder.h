#pragma once
// Builds the StableHLO operations an MLIR op is read as, when the importer
// decomposes it (chlo ops, dots with an algorithm): the same syntax tree the
// parser builds, generic form, at the op's place, which the importer then
// reads as if the text had held them.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/Attributes.h"
#include "compiler/ir/Literal.h"
#include "compiler/ir/TensorType.h"
#include "compiler/mlir/MlirSyntax.h"

namespace shardgen::mlir {

/// A value of the decomposition: its SSA name, element type and shape (the
/// builder's own shape where none is given).
struct Val {
  std::string name;
  ElementType type;
  std::optional<Shape> shape = std::nullopt;
};

class StepBuilder {
public:
  /// Operations at `source`'s place; values without a shape of their own
  /// have `shape`.
  StepBuilder(const Operation &source, Shape shape) : source_(source), shape_(std::move(shape)) {}

  /// `stablehlo.<name>` (or `name` where it names its dialect, as
  /// `shardgen.axis_index`) of `operands`, its result of the builder's shape.
  Val op(const std::string &name, const std::vector<Val> &operands, ElementType resultType,
         std::vector<NamedAttribute> attrs = {});
  /// The same, its result of `resultType`.
  Val op(const std::string &name, const std::vector<Val> &operands, const TensorType &resultType,
         std::vector<NamedAttribute> attrs = {});

  Val constant(double value, ElementType type);
  /// A constant of `like`'s type.
  Val c(double value, const Val &like) { return constant(value, like.type); }
  /// An integer constant of `like`'s type, any 64-bit value.
  Val ci(int64_t value, const Val &like) { return integer(value, like.type); }
  /// An integer constant of `type`, any 64-bit value.
  Val integer(int64_t value, ElementType type);
  /// A constant holding `value` (its type is the constant's).
  Val literal(Literal value);

  Val unary(const char *name, const Val &x) { return op(name, {x}, typeOf(x)); }
  Val binary(const char *name, const Val &a, const Val &b) { return op(name, {a, b}, typeOf(a)); }
  Val compare(const char *direction, const Val &a, const Val &b);
  Val select(const Val &pred, const Val &onTrue, const Val &onFalse) {
    return op("select", {pred, onTrue, onFalse}, typeOf(onTrue));
  }
  Val convert(const Val &x, ElementType type) {
    return op("convert", {x}, TensorType{type, shapeOf(x)});
  }

  // The arithmetic the formulas read as.
  Val add(const Val &a, const Val &b) { return binary("add", a, b); }
  Val sub(const Val &a, const Val &b) { return binary("subtract", a, b); }
  Val mul(const Val &a, const Val &b) { return binary("multiply", a, b); }
  Val div(const Val &a, const Val &b) { return binary("divide", a, b); }
  Val neg(const Val &x) { return unary("negate", x); }
  Val abs(const Val &x) { return unary("abs", x); }
  Val exp(const Val &x) { return unary("exponential", x); }
  Val expm1(const Val &x) { return unary("exponential_minus_one", x); }
  Val log(const Val &x) { return unary("log", x); }
  Val log1p(const Val &x) { return unary("log_plus_one", x); }
  Val sqrt(const Val &x) { return unary("sqrt", x); }
  Val floor(const Val &x) { return unary("floor", x); }
  Val sin(const Val &x) { return unary("sine", x); }
  Val cos(const Val &x) { return unary("cosine", x); }
  Val atan2(const Val &a, const Val &b) { return binary("atan2", a, b); }
  Val isFinite(const Val &x) {
    return op("is_finite", {x}, TensorType{ElementType::I1, shapeOf(x)});
  }

  /// The operations, the last renamed to define the source op's result with
  /// its declared type and those of its attributes `keep` accepts
  /// (shardings, metadata).
  std::vector<Operation> finish(
      const Val &result, const std::function<bool(const std::string &)> &keep =
                             [](const std::string &) { return true; });

  const Shape &shapeOf(const Val &x) const { return x.shape ? *x.shape : shape_; }
  TensorType typeOf(const Val &x) const { return TensorType{x.type, shapeOf(x)}; }

private:
  /// A constant of the builder's shape, every element `element` (rank 0).
  Val splat(Literal element);
  Val constantOf(const ConstantAttrs &constant, const TensorType &type);
  TypeRef typeRef(const TensorType &type) const;

  const Operation &source_;
  Shape shape_;
  std::vector<Operation> ops_;
};

} // namespace shardgen::mlir
