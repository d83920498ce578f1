#include "compiler/mlir/TriangularSolve.h"

#include <string>

#include "compiler/ir/Diagnostic.h"
#include "compiler/mlir/FunctionExpansion.h"
#include "compiler/mlir/MatrixText.h"
#include "compiler/mlir/MlirParser.h"

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
    t_ = MatrixText(a_.elementType, Shape(a_.shape.begin(), a_.shape.end() - 2));
  }

  std::string functionText() {
    const int64_t r = a_.rank();
    const bool conjugate = transpose_ == "ADJOINT" && isComplex(a_.elementType);
    // The matrix M and right side C of M y = C: a's transposes (TRANSPOSE,
    // ADJOINT, a right-side solve) flip which triangle M keeps.
    const bool transposed = (transpose_ != "NO_TRANSPOSE") != !leftSide_;
    const bool lower = lower_ != transposed;
    const Shape c = leftSide_ ? b_.shape : transposedShape(b_.shape);
    const int64_t m = c[r - 1];
    const std::string A = printType(a_), B = printType(b_);
    t_.emit("func.func private @" + name_ + "(%a: " + A + ", %b: " + B + ") -> " + B + " {");
    if (n_ == 0) { // no rows to solve: x is b, empty
      t_.emit("return %b : " + B);
      t_.emit("}");
      return t_.text();
    }
    std::string matrix = "%a";
    if (conjugate) {
      t_.conjugate("%conj", matrix, a_.shape);
      matrix = "%conj";
    }
    if (transposed) {
      t_.transpose("%mt", matrix, a_.shape);
      matrix = "%mt";
    }
    std::string rhs = "%b";
    if (!leftSide_) {
      t_.transpose("%c", "%b", b_.shape);
      rhs = "%c";
    }
    // Keep M's triangle (strictly, for a unit diagonal): the other entries
    // multiply rows of x not yet solved, which must stay 0 even where a
    // holds inf or NaN there.
    t_.iota("%row", true, a_.shape);
    t_.iota("%col", false, a_.shape);
    const char *direction = lower ? (unitDiagonal_ ? "GT" : "GE") : (unitDiagonal_ ? "LT" : "LE");
    t_.compare("%keep", direction, "%row", "%col", t_.type(ElementType::I64, a_.shape), a_.shape);
    t_.constant("%zeros", t_.zero(), A);
    t_.select("%tri", "%keep", matrix, "%zeros", a_.shape, A);
    t_.constant("%one", "1", "tensor<i64>");
    t_.constant("%zero", "0", "tensor<i64>");
    std::string solved;
    if (n_ <= kBlock) {
      rowLoop("", "%tri", rhs, n_, m, lower);
      solved = "%loop#1";
    } else {
      blockedLoop(rhs, m, lower);
      solved = "%solved";
    }
    if (!leftSide_) {
      t_.transpose("%out", solved, c);
      solved = "%out";
    }
    t_.emit("return " + solved + " : " + B);
    t_.emit("}");
    return t_.text();
  }

private:
  void check(bool holds, const std::string &what) const {
    if (!holds)
      fail(where_, "stablehlo.triangular_solve " + what);
  }

  static TensorType typeOf(const TypeRef &ref) {
    return statedType(ref, ref.loc.str(), "stablehlo.triangular_solve: ");
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

  static Shape transposedShape(Shape shape) {
    std::swap(shape[shape.size() - 1], shape[shape.size() - 2]);
    return shape;
  }

  /// The rows a blocked solve takes at a time: larger systems are solved a
  /// block of rows per step, the rows before it subtracted with one product
  /// of the block's rows and x, the block itself row by row.
  static constexpr int64_t kBlock = 64;

  /// `%<p>loop:2`, a while loop solving `matrix` (size x size, its triangle
  /// kept) y = `rhs` (size x m) a row per step: row i = k going forward
  /// (lower), size - 1 - k backward; y's rows not yet solved are 0.
  void rowLoop(const std::string &p, const std::string &matrix, const std::string &rhs,
               int64_t size, int64_t m, bool lower) {
    const Shape square = t_.matrix(size, size), c = t_.matrix(size, m), rhsRow = t_.matrix(1, m),
                pivot = t_.matrix(1, 1);
    const std::string k = "%" + p + "k", y = "%" + p + "y", i = "%" + p + "i", C = t_.type(c),
                      R = t_.type(rhsRow);
    t_.constant("%" + p + "y0", t_.zero(), C);
    t_.constant("%" + p + "size", std::to_string(size), "tensor<i64>");
    t_.constant("%" + p + "last", std::to_string(size - 1), "tensor<i64>");
    t_.loopHead("%" + p + "loop", k, {{y, "%" + p + "y0", C}}, "%" + p + "size");
    if (lower)
      t_.binary(i, "add", k, "%zero", "tensor<i64>");
    else
      t_.binary(i, "subtract", "%" + p + "last", k, "tensor<i64>");
    t_.slice("%" + p + "arow", matrix, square, i, "%zero", 1, size);
    t_.product("%" + p + "dot", "%" + p + "arow", t_.matrix(1, size), y, c);
    t_.slice("%" + p + "crow", rhs, c, i, "%zero", 1, m);
    t_.binary("%" + p + "rest", "subtract", "%" + p + "crow", "%" + p + "dot", R);
    std::string solved = "%" + p + "rest";
    if (!unitDiagonal_) {
      t_.slice("%" + p + "piv", matrix, square, i, i, 1, 1);
      t_.broadcast("%" + p + "pivb", "%" + p + "piv", t_.type(pivot), upTo(a_.rank()), R);
      t_.binary("%" + p + "yi", "divide", "%" + p + "rest", "%" + p + "pivb", R);
      solved = "%" + p + "yi";
    }
    t_.update("%" + p + "next", y, C, solved, R, i, "%zero");
    t_.binary("%" + p + "k1", "add", k, "%one", "tensor<i64>");
    t_.loopEnd({"%" + p + "k1", "%" + p + "next"}, {"tensor<i64>", C});
  }

  /// The system padded to `padded` rows with zeros: `%cp` the right side
  /// and `%trip` the matrix, its padded diagonal 1 (unless a unit diagonal
  /// is implied anyway).
  void paddedSystem(const std::string &rhs, int64_t m, int64_t padded) {
    const Shape square = t_.matrix(padded, padded);
    t_.padWithZeros("%cp", rhs, t_.matrix(n_, m), t_.matrix(padded, m));
    if (unitDiagonal_)
      t_.padWithZeros("%trip", "%tri", a_.shape, square);
    else
      t_.padWithIdentity("%trip", "%tri", a_.shape, square, "%prow", "%pcol");
  }

  /// `%solved`: the system padded to whole blocks (the padded diagonal 1,
  /// the padded right side 0, so the padded rows solve to 0), a block of
  /// kBlock rows per step of an outer loop.
  void blockedLoop(const std::string &rhs, int64_t m, bool lower) {
    const int64_t blocks = (n_ + kBlock - 1) / kBlock, padded = blocks * kBlock;
    const Shape square = t_.matrix(padded, padded), c = t_.matrix(padded, m),
                blockRhs = t_.matrix(kBlock, m);
    const std::string C = t_.type(c), R = t_.type(blockRhs);
    paddedSystem(rhs, m, padded);
    const std::string matrix = "%trip";
    t_.constant("%x0", t_.zero(), C);
    t_.constant("%blocks", std::to_string(blocks), "tensor<i64>");
    t_.constant("%lastblock", std::to_string(blocks - 1), "tensor<i64>");
    t_.constant("%width", std::to_string(kBlock), "tensor<i64>");
    t_.loopHead("%outer", "%kb", {{"%x", "%x0", C}}, "%blocks");
    if (lower)
      t_.binary("%bi", "add", "%kb", "%zero", "tensor<i64>");
    else
      t_.binary("%bi", "subtract", "%lastblock", "%kb", "tensor<i64>");
    t_.binary("%start", "multiply", "%bi", "%width", "tensor<i64>");
    t_.slice("%brows", matrix, square, "%start", "%zero", kBlock, padded);
    t_.product("%bdot", "%brows", t_.matrix(kBlock, padded), "%x", c);
    t_.slice("%bc", "%cp", c, "%start", "%zero", kBlock, m);
    t_.binary("%brhs", "subtract", "%bc", "%bdot", R);
    t_.slice("%bdiag", matrix, square, "%start", "%start", kBlock, kBlock);
    rowLoop("in_", "%bdiag", "%brhs", kBlock, m, lower);
    t_.update("%xnext", "%x", C, "%in_loop#1", R, "%start", "%zero");
    t_.binary("%kb1", "add", "%kb", "%one", "tensor<i64>");
    t_.loopEnd({"%kb1", "%xnext"}, {"tensor<i64>", C});
    t_.sliceCorner("%solved", "%outer#1", c, t_.matrix(n_, m));
  }

  std::string name_, where_, transpose_;
  TensorType a_, b_;
  MatrixText t_{ElementType::F32, {}};
  bool leftSide_ = true, lower_ = true, unitDiagonal_ = false;
  int64_t n_ = 0;
};

} // namespace

void expandTriangularSolves(Module &module) {
  expandEach(module, "stablehlo.triangular_solve",
             [](const Operation &op, const std::string &name) {
               return TriangularSolve(op, name).functionText();
             });
}

} // namespace shardgen::mlir
