#include "compiler/mlir/StepBuilder.h"

#include "compiler/ir/Attributes.h"
#include "compiler/ir/Literal.h"
#include "compiler/mlir/DenseElements.h"

namespace shardgen::mlir {

Val StepBuilder::op(const std::string &name, const std::vector<Val> &operands,
                    ElementType resultType, std::vector<NamedAttribute> attrs) {
  Val result = op(name, operands, TensorType{resultType, shape_}, std::move(attrs));
  result.shape.reset();
  return result;
}

Val StepBuilder::op(const std::string &name, const std::vector<Val> &operands,
                    const TensorType &resultType, std::vector<NamedAttribute> attrs) {
  Operation step;
  step.name = name.find('.') == std::string::npos ? "stablehlo." + name : name;
  step.loc = source_.loc;
  step.locText = source_.locText;
  step.generic = true;
  for (const Val &operand : operands) {
    step.operands.push_back(ValueUse{operand.name, source_.loc});
    step.operandTypes.push_back(typeRef(typeOf(operand)));
  }
  step.resultTypes.push_back(typeRef(resultType));
  step.attrs = std::move(attrs);
  Val result{source_.results.at(0) + "#" + std::to_string(ops_.size()), resultType.elementType,
             resultType.shape};
  step.results.push_back(result.name);
  ops_.push_back(std::move(step));
  return result;
}

Val StepBuilder::constant(double value, ElementType type) {
  Literal element(TensorType{type, {}});
  element.setFloat(0, value);
  return splat(std::move(element));
}

Val StepBuilder::integer(int64_t value, ElementType type) {
  Literal element(TensorType{type, {}});
  element.setInt(0, value);
  return splat(std::move(element));
}

Val StepBuilder::splat(Literal element) {
  const TensorType type{element.type().elementType, shape_};
  return constantOf(ConstantAttrs::splatOf(type, std::move(element)), type);
}

Val StepBuilder::literal(Literal value) {
  const TensorType type = value.type();
  return constantOf(ConstantAttrs::dense(std::move(value)), type);
}

Val StepBuilder::constantOf(const ConstantAttrs &constant, const TensorType &type) {
  Attribute dense = makeAttribute(Attribute::Kind::Dense, source_.loc, "dense");
  dense.body = printDenseBody(constant);
  dense.typeText = typeRef(type).text;
  return op("constant", {}, type, {{"value", dense}});
}

Val StepBuilder::compare(const char *direction, const Val &a, const Val &b) {
  Attribute attr =
      makeAttribute(Attribute::Kind::Dialect, source_.loc, "stablehlo.comparison_direction");
  attr.body = std::string("comparison_direction ") + direction;
  return op("compare", {a, b}, TensorType{ElementType::I1, shapeOf(a)},
            {{"comparison_direction", attr}});
}

std::vector<Operation> StepBuilder::finish(const Val &result,
                                           const std::function<bool(const std::string &)> &keep) {
  if (ops_.empty() || ops_.back().results[0] != result.name)
    convert(result, result.type); // an identity, to define the result
  Operation &last = ops_.back();
  last.results[0] = source_.results.at(0);
  last.resultTypes = source_.resultTypes;
  // The steps state every operand's type: the source's short type form
  // (`_short_types`) describes no step.
  for (const NamedAttribute &attr : source_.attrs)
    if (attr.name != "_short_types" && keep(attr.name))
      last.attrs.push_back(attr);
  return std::move(ops_);
}

TypeRef StepBuilder::typeRef(const TensorType &type) const {
  return TypeRef{printType(type), source_.loc};
}

} // namespace shardgen::mlir
