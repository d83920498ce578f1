#include "compiler/mlir/LapackCalls.h"

#include <optional>
#include <string>

#include "compiler/ir/Diagnostic.h"
#include "compiler/mlir/FunctionExpansion.h"
#include "compiler/mlir/LapackFactorizations.h"
#include "compiler/mlir/MlirParser.h"

namespace shardgen::mlir {

namespace {

enum class Factorization { Lu, Cholesky };

/// The factorization and element type a LAPACK target names
/// (`lapack_<s|d|c|z><getrf|potrf>_ffi`), if it is one.
struct LapackTarget {
  Factorization factorization;
  ElementType element;
};

std::optional<LapackTarget> lapackTargetOf(const Operation &op) {
  if (op.name != "stablehlo.custom_call")
    return std::nullopt;
  const Attribute *target = op.find("call_target_name");
  if (!target ||
      (target->kind != Attribute::Kind::Symbol && target->kind != Attribute::Kind::String))
    return std::nullopt;
  const std::string &name = target->text;
  if (name.size() != std::string("lapack_sgetrf_ffi").size() || !name.starts_with("lapack_") ||
      !name.ends_with("_ffi"))
    return std::nullopt;
  const std::string routine = name.substr(8, 5);
  std::optional<Factorization> factorization;
  if (routine == "getrf")
    factorization = Factorization::Lu;
  else if (routine == "potrf")
    factorization = Factorization::Cholesky;
  else
    return std::nullopt;
  switch (name[7]) {
  case 's':
    return LapackTarget{*factorization, ElementType::F32};
  case 'd':
    return LapackTarget{*factorization, ElementType::F64};
  case 'c':
    return LapackTarget{*factorization, ElementType::C64};
  case 'z':
    return LapackTarget{*factorization, ElementType::C128};
  default:
    return std::nullopt;
  }
}

/// One LAPACK call's checked operand and attributes, and the text of the
/// function it becomes. Every value of the function is a full-size tensor
/// (the batch, then m x n), the step's row and column picked out by masks
/// of iotas, so a batch of matrices pivots independently.
class LapackCall {
public:
  LapackCall(const Operation &op, const LapackTarget &target, std::string name)
      : target_(target), name_(std::move(name)), where_(op.loc.str()) {
    routine_ = op.find("call_target_name")->text;
    check(op.operands.size() == 1 && op.regions.empty(), "takes one operand, the matrices");
    const size_t results = target.factorization == Factorization::Lu ? 3 : 2;
    check(op.results.size() == results && op.operandTypes.size() == 1 &&
              op.resultTypes.size() == results,
          "needs its types (`: (matrices) -> (" +
              std::string(results == 3 ? "factors, pivots, info" : "factor, info") + ")`)");
    a_ = statedType(op.operandTypes[0], op.operandTypes[0].loc.str(), routine_ + ": ");
    check(a_.elementType == target.element, "takes " +
                                                std::string(elementTypeName(target.element)) +
                                                " matrices, got " + printType(a_));
    check(a_.rank() >= 2, "takes matrices (rank 2 or more), got " + printType(a_));
    m_ = a_.shape[a_.rank() - 2];
    n_ = a_.shape[a_.rank() - 1];
    batch_ = Shape(a_.shape.begin(), a_.shape.end() - 2);
    if (target.factorization == Factorization::Cholesky)
      check(m_ == n_, "takes square matrices, got " + printType(a_));
    std::vector<TensorType> expected = {a_};
    if (target.factorization == Factorization::Lu)
      expected.push_back(TensorType{ElementType::I32, withLast(std::min(m_, n_))});
    expected.push_back(TensorType{ElementType::I32, batch_});
    for (size_t i = 0; i < results; ++i) {
      const TensorType stated =
          statedType(op.resultTypes[i], op.resultTypes[i].loc.str(), routine_ + ": ");
      check(stated == expected[i], "result " + std::to_string(i) + " must be " +
                                       printType(expected[i]) + ", got " + printType(stated));
    }
    for (const NamedAttribute &attr : op.attrs)
      checkAttribute(attr);
  }

  std::string functionText() const {
    return target_.factorization == Factorization::Lu ? luFunctionText(name_, a_)
                                                      : choleskyFunctionText(name_, a_, lower_);
  }

private:
  void check(bool holds, const std::string &what) const {
    if (!holds)
      fail(where_, "custom_call @" + routine_ + " " + what);
  }

  void checkAttribute(const NamedAttribute &attr) {
    const std::string &name = attr.name;
    if (name == "call_target_name" || name == "operand_layouts" || name == "result_layouts" ||
        name == "output_operand_aliases" || name.starts_with("sdy.") ||
        name.starts_with("shardgen.") || name == "mhlo.frontend_attributes" ||
        name == "mhlo.sharding")
      return; // layouts: how LAPACK sees the buffers, not the values
    if (name == "api_version") {
      check(attr.value.kind == Attribute::Kind::Integer && attr.value.integer == 4,
            "takes api_version 4 (the typed FFI)");
      return;
    }
    if (name == "has_side_effect") {
      check(attr.value.kind == Attribute::Kind::Word && attr.value.text == "false",
            "has no side effect");
      return;
    }
    if (name == "mhlo.backend_config" || name == "backend_config") {
      if (attr.value.kind == Attribute::Kind::String && attr.value.text.empty())
        return;
      check(attr.value.kind == Attribute::Kind::Dict, "expects a dictionary as its backend_config");
      for (const NamedAttribute &field : attr.value.fields) {
        check(field.name == "uplo" && target_.factorization == Factorization::Cholesky,
              "has no backend_config field '" + field.name + "'");
        check(field.value.kind == Attribute::Kind::Integer &&
                  (field.value.integer == 'L' || field.value.integer == 'U'),
              "takes uplo = 76 ('L') or 85 ('U')");
        lower_ = field.value.integer == 'L';
      }
      return;
    }
    check(false, "has no attribute '" + name + "'");
  }

  /// The batch dims followed by `dim`.
  Shape withLast(int64_t dim) const {
    Shape shape = batch_;
    shape.push_back(dim);
    return shape;
  }

  LapackTarget target_;
  std::string name_, where_, routine_;
  TensorType a_;
  Shape batch_;
  int64_t m_ = 0, n_ = 0;
  bool lower_ = true;
};

} // namespace

void expandLapackCalls(Module &module) {
  expandEachMatching(
      module, [](const Operation &op) { return lapackTargetOf(op).has_value(); },
      [](const Operation &op) { return op.find("call_target_name")->text; },
      [](const Operation &op, const std::string &name) {
        return LapackCall(op, *lapackTargetOf(op), name).functionText();
      });
}

} // namespace shardgen::mlir
