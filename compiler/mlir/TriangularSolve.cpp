#include "compiler/mlir/TriangularSolve.h"

#include <string>

#include "compiler/ir/Diagnostic.h"
#include "compiler/mlir/FunctionExpansion.h"

namespace shardgen::mlir {

namespace {

/// One triangular_solve's checked operands and attributes, and the text of
/// the function it becomes.
class TriangularSolve {
public:
  TriangularSolve(const Operation &op, std::string name) : name_(std::move(name)) {
    where_ = op.loc.str();
    check(op.operands.size() == 2 && op.results.size() == 1 && op.regions.empty(),
          "takes a and b and has one result");
    check(op.operandTypes.size() == 2 && op.resultTypes.size() == 1,
          "needs its types (`: (a, b) -> result`)");
    a_ = typeOf(op.operandTypes[0]);
    b_ = typeOf(op.operandTypes[1]);
    const TensorType result = typeOf(op.resultTypes[0]);
    leftSide_ = flag(op, "left_side");
    lower_ = flag(op, "lower");
    unitDiagonal_ = flag(op, "unit_diagonal");
    transpose_ = transposeOf(op);
    for (const NamedAttribute &attr : op.attrs)
      check(attr.name == "left_side" || attr.name == "lower" || attr.name == "unit_diagonal" ||
                attr.name == "transpose_a" || attr.name.starts_with("mhlo.") ||
                attr.name.starts_with("sdy.") || attr.name.starts_with("shardgen."),
            "has no attribute '" + attr.name + "'");
    // C1-C4.
    check(isFloat(a_.elementType) || isComplex(a_.elementType),
          "takes floating-point or complex operands, got " + printType(a_));
    check(a_.elementType == b_.elementType,
          "needs a and b of one element type, got " + printType(a_) + " and " + printType(b_));
    check(a_.rank() >= 2 && a_.rank() == b_.rank(),
          "needs a and b of one rank of at least 2, got " + printType(a_) + " and " +
              printType(b_));
    const int64_t r = a_.rank();
    n_ = a_.shape[r - 1];
    check(a_.shape[r - 2] == n_, "needs square matrices a, got " + printType(a_));
    for (int64_t d = 0; d + 2 < r; ++d)
      check(a_.shape[d] == b_.shape[d],
            "needs a and b of the same batch dims, got " + printType(a_) + " and " + printType(b_));
    check(b_.shape[leftSide_ ? r - 2 : r - 1] == n_,
          std::string("needs b's ") + (leftSide_ ? "rows" : "columns") + " to match a's " +
              std::to_string(n_) + ", got " + printType(b_));
    check(result == b_, "gives b's type " + printType(b_) + ", got " + printType(result));
  }

  std::string functionText() const {
    const int64_t r = a_.rank();
    const bool conjugate = transpose_ == "ADJOINT" && isComplex(a_.elementType);
    // The matrix M and right side C of M y = C: a's transposes (TRANSPOSE,
    // ADJOINT, a right-side solve) flip which triangle M keeps.
    const bool transposed = (transpose_ != "NO_TRANSPOSE") != !leftSide_;
    const bool lower = lower_ != transposed;
    const TensorType c = leftSide_ ? b_ : transposedType(b_);
    const int64_t m = c.shape[r - 1];
    std::string text = "func.func private @" + name_ + "(%a: " + printType(a_) +
                       ", %b: " + printType(b_) + ") -> " + printType(b_) + " {\n";
    std::string matrix = "%a";
    if (conjugate) {
      const TensorType part{complexPartType(a_.elementType), a_.shape};
      text += line("%re = stablehlo.real %a : (" + printType(a_) + ") -> " + printType(part));
      text += line("%im = stablehlo.imag %a : (" + printType(a_) + ") -> " + printType(part));
      text += line("%negim = stablehlo.negate %im : " + printType(part));
      text += line("%conj = stablehlo.complex %re, %negim : " + printType(a_));
      matrix = "%conj";
    }
    if (transposed) {
      text += line("%mt = stablehlo.transpose " + matrix + ", dims = " + swapLast(r) + " : (" +
                   printType(a_) + ") -> " + printType(a_));
      matrix = "%mt";
    }
    std::string rhs = "%b";
    if (!leftSide_) {
      text += line("%c = stablehlo.transpose %b, dims = " + swapLast(r) + " : (" + printType(b_) +
                   ") -> " + printType(c));
      rhs = "%c";
    }
    // Keep M's triangle (strictly, for a unit diagonal): the other entries
    // multiply rows of x not yet solved, which must stay 0 even where a
    // holds inf or NaN there.
    const TensorType index{ElementType::I64, a_.shape};
    const TensorType mask{ElementType::I1, a_.shape};
    text += line("%row = stablehlo.iota dim = " + std::to_string(r - 2) + " : " + printType(index));
    text += line("%col = stablehlo.iota dim = " + std::to_string(r - 1) + " : " + printType(index));
    const std::string compared =
        " : (" + printType(index) + ", " + printType(index) + ") -> " + printType(mask);
    const char *direction = lower ? (unitDiagonal_ ? "GT" : "GE") : (unitDiagonal_ ? "LT" : "LE");
    text += line(std::string("%keep = stablehlo.compare ") + direction + ", %row, %col, SIGNED" +
                 compared);
    text += line("%zeros = stablehlo.constant dense<" + zeroOf(a_.elementType) +
                 "> : " + printType(a_));
    text += line("%tri = stablehlo.select %keep, " + matrix + ", %zeros : " + printType(mask) +
                 ", " + printType(a_));
    text += line("%x0 = stablehlo.constant dense<" + zeroOf(c.elementType) + "> : " + printType(c));
    text += line("%k0 = stablehlo.constant dense<0> : tensor<i64>");
    text += line("%n = stablehlo.constant dense<" + std::to_string(n_) + "> : tensor<i64>");
    text += line("%last = stablehlo.constant dense<" + std::to_string(n_ - 1) + "> : tensor<i64>");
    text += line("%one = stablehlo.constant dense<1> : tensor<i64>");
    text += line("%zero = stablehlo.constant dense<0> : tensor<i64>");
    text += line("%loop:2 = stablehlo.while(%k = %k0, %x = %x0) : tensor<i64>, " + printType(c));
    text += line("cond {");
    text += line("  %more = stablehlo.compare LT, %k, %n, SIGNED : (tensor<i64>, tensor<i64>) -> "
                 "tensor<i1>");
    text += line("  stablehlo.return %more : tensor<i1>");
    text += line("} do {");
    text += bodyText(rhs, lower, c, m);
    text += line("}");
    std::string out = "%loop#1";
    if (!leftSide_) {
      text += line("%out = stablehlo.transpose %loop#1, dims = " + swapLast(r) + " : (" +
                   printType(c) + ") -> " + printType(b_));
      out = "%out";
    }
    return text + line("return " + out + " : " + printType(b_)) + "}\n";
  }

private:
  static std::string line(const std::string &text) { return "  " + text + "\n"; }

  void check(bool holds, const std::string &what) const {
    if (!holds)
      fail(where_, "stablehlo.triangular_solve " + what);
  }

  TensorType typeOf(const TypeRef &ref) const {
    std::string error;
    std::optional<TensorType> type = parseType(ref.text, &error);
    if (!type)
      fail(ref.loc.str(), "stablehlo.triangular_solve: " + error);
    return *type;
  }

  bool flag(const Operation &op, const char *name) const {
    const Attribute *attr = op.find(name);
    check(attr != nullptr, std::string("needs '") + name + "'");
    check(attr->kind == Attribute::Kind::Word && (attr->text == "true" || attr->text == "false"),
          std::string("'") + name + "' must be true or false");
    return attr->text == "true";
  }

  std::string transposeOf(const Operation &op) const {
    const Attribute *attr = op.find("transpose_a");
    check(attr != nullptr, "needs 'transpose_a'");
    std::string word = attr->kind == Attribute::Kind::Word ? attr->text : attr->body;
    if (attr->kind == Attribute::Kind::Dialect && word.starts_with("transpose "))
      word = word.substr(std::string("transpose ").size());
    check(word == "NO_TRANSPOSE" || word == "TRANSPOSE" || word == "ADJOINT",
          "'transpose_a' must be NO_TRANSPOSE, TRANSPOSE or ADJOINT, got '" + word + "'");
    return word;
  }

  static std::string swapLast(int64_t rank) {
    std::vector<int64_t> dims = upTo(rank);
    std::swap(dims[rank - 1], dims[rank - 2]);
    return integerList(dims);
  }

  static TensorType transposedType(TensorType type) {
    std::swap(type.shape[type.rank() - 1], type.shape[type.rank() - 2]);
    return type;
  }

  /// One row i of y: i = k going forward (lower), n - 1 - k backward.
  std::string bodyText(const std::string &rhs, bool lower, const TensorType &c, int64_t m) const {
    const int64_t r = a_.rank();
    std::string zeros;
    for (int64_t d = 0; d + 2 < r; ++d)
      zeros += "%zero, ";
    Shape rowShape(a_.shape.begin(), a_.shape.end() - 2);
    Shape rhsRowShape = rowShape, pivotShape = rowShape;
    rowShape.insert(rowShape.end(), {1, n_});
    rhsRowShape.insert(rhsRowShape.end(), {1, m});
    pivotShape.insert(pivotShape.end(), {1, 1});
    const TensorType row{a_.elementType, rowShape}, rhsRow{c.elementType, rhsRowShape},
        pivot{a_.elementType, pivotShape};
    const std::string batch = integerList(upTo(r - 2));
    std::string text;
    text += line(lower ? "  %i = stablehlo.add %k, %zero : tensor<i64>"
                       : "  %i = stablehlo.subtract %last, %k : tensor<i64>");
    std::string indexTypes;
    for (int64_t d = 0; d < r; ++d)
      indexTypes += ", tensor<i64>";
    text += line("  %arow = stablehlo.dynamic_slice %tri, " + zeros +
                 "%i, %zero, sizes = " + integerList(rowShape) + " : (" + printType(a_) +
                 indexTypes + ") -> " + printType(row));
    text += line("  %dot = stablehlo.dot_general %arow, %x, " +
                 (r > 2 ? "batching_dims = " + batch + " x " + batch + ", " : std::string()) +
                 "contracting_dims = [" + std::to_string(r - 1) + "] x [" + std::to_string(r - 2) +
                 "] : (" + printType(row) + ", " + printType(c) + ") -> " + printType(rhsRow));
    text += line("  %crow = stablehlo.dynamic_slice " + rhs + ", " + zeros +
                 "%i, %zero, sizes = " + integerList(rhsRowShape) + " : (" + printType(c) +
                 indexTypes + ") -> " + printType(rhsRow));
    text += line("  %rest = stablehlo.subtract %crow, %dot : " + printType(rhsRow));
    std::string solved = "%rest";
    if (!unitDiagonal_) {
      text += line("  %piv = stablehlo.dynamic_slice %tri, " + zeros +
                   "%i, %i, sizes = " + integerList(pivotShape) + " : (" + printType(a_) +
                   indexTypes + ") -> " + printType(pivot));
      text += line("  %pivb = stablehlo.broadcast_in_dim %piv, dims = " + integerList(upTo(r)) +
                   " : (" + printType(pivot) + ") -> " + printType(rhsRow));
      text += line("  %xi = stablehlo.divide %rest, %pivb : " + printType(rhsRow));
      solved = "%xi";
    }
    text += line("  %next = stablehlo.dynamic_update_slice %x, " + solved + ", " + zeros +
                 "%i, %zero : (" + printType(c) + ", " + printType(rhsRow) + indexTypes + ") -> " +
                 printType(c));
    text += line("  %k1 = stablehlo.add %k, %one : tensor<i64>");
    text += line("  stablehlo.return %k1, %next : tensor<i64>, " + printType(c));
    return text;
  }

  std::string name_, where_, transpose_;
  TensorType a_, b_;
  bool leftSide_ = true, lower_ = true, unitDiagonal_ = false;
  int64_t n_ = 0;
};

} // namespace

void expandTriangularSolves(Module &module) {
  std::vector<Function> added;
  int64_t count = 0;
  for (Function &fn : module.functions)
    forEachOp(fn.body, [&](Operation &op) {
      if (op.name != "stablehlo.triangular_solve")
        return;
      const std::string name = "stablehlo.triangular_solve." + std::to_string(++count);
      replaceWithCall(op, name, TriangularSolve(op, name).functionText(), added);
    });
  for (Function &function : added)
    module.functions.push_back(std::move(function));
}

} // namespace shardgen::mlir
