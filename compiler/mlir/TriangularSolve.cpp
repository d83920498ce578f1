#include "compiler/mlir/TriangularSolve.h"

#include <string>

#include "compiler/ir/Diagnostic.h"
#include "compiler/mlir/FunctionExpansion.h"
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
    if (n_ == 0) // no rows to solve: x is b, empty
      return text + line("return %b : " + printType(b_)) + "}\n";
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
    text += line("%one = stablehlo.constant dense<1> : tensor<i64>");
    text += line("%zero = stablehlo.constant dense<0> : tensor<i64>");
    std::string solved;
    if (n_ <= kBlock) {
      text += rowLoop("", "%tri", rhs, n_, m, lower, "");
      solved = "%loop#1";
    } else {
      text += blockedLoop(rhs, m, lower);
      solved = "%solved";
    }
    std::string out = solved;
    if (!leftSide_) {
      text += line("%out = stablehlo.transpose " + solved + ", dims = " + swapLast(r) + " : (" +
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

  static std::string swapLast(int64_t rank) {
    std::vector<int64_t> dims = upTo(rank);
    std::swap(dims[rank - 1], dims[rank - 2]);
    return integerList(dims);
  }

  static TensorType transposedType(TensorType type) {
    std::swap(type.shape[type.rank() - 1], type.shape[type.rank() - 2]);
    return type;
  }

  /// The rows a blocked solve takes at a time: larger systems are solved a
  /// block of rows per step, the rows before it subtracted with one product
  /// of the block's rows and x, the block itself row by row.
  static constexpr int64_t kBlock = 64;

  /// `type` with its last two dims `rows` x `columns`.
  TensorType withMatrix(ElementType element, int64_t rows, int64_t columns) const {
    Shape shape(a_.shape.begin(), a_.shape.end() - 2);
    shape.insert(shape.end(), {rows, columns});
    return TensorType{element, shape};
  }

  /// ", tensor<i64>" once per dim: a dynamic slice's start index types.
  std::string indexTypes() const {
    std::string types;
    for (int64_t d = 0; d < a_.rank(); ++d)
      types += ", tensor<i64>";
    return types;
  }

  /// "%zero, " once per batch dim: a dynamic slice's first start indices.
  std::string batchStarts() const {
    std::string starts;
    for (int64_t d = 0; d + 2 < a_.rank(); ++d)
      starts += "%zero, ";
    return starts;
  }

  /// `%result = stablehlo.dynamic_slice` of `source` at (batch 0s, `row`,
  /// `column`), `type` its result.
  std::string sliceText(const std::string &result, const std::string &source,
                        const TensorType &sourceType, const std::string &row,
                        const std::string &column, const TensorType &type) const {
    return result + " = stablehlo.dynamic_slice " + source + ", " + batchStarts() + row + ", " +
           column + ", sizes = " + integerList(type.shape) + " : (" + printType(sourceType) +
           indexTypes() + ") -> " + printType(type);
  }

  /// `%result = stablehlo.dynamic_update_slice` of `x` with `update` at
  /// (batch 0s, `row`, 0).
  std::string updateText(const std::string &result, const std::string &x, const TensorType &xType,
                         const std::string &update, const TensorType &updateType,
                         const std::string &row) const {
    return result + " = stablehlo.dynamic_update_slice " + x + ", " + update + ", " +
           batchStarts() + row + ", %zero : (" + printType(xType) + ", " + printType(updateType) +
           indexTypes() + ") -> " + printType(xType);
  }

  /// `%result = rows . x` per batch: rows' columns contracted with x's rows.
  std::string productText(const std::string &result, const std::string &rows,
                          const TensorType &rowsType, const std::string &x, const TensorType &xType,
                          const TensorType &type) const {
    const int64_t r = a_.rank();
    const std::string batch = integerList(upTo(r - 2));
    return result + " = stablehlo.dot_general " + rows + ", " + x + ", " +
           (r > 2 ? "batching_dims = " + batch + " x " + batch + ", " : std::string()) +
           "contracting_dims = [" + std::to_string(r - 1) + "] x [" + std::to_string(r - 2) +
           "] : (" + printType(rowsType) + ", " + printType(xType) + ") -> " + printType(type);
  }

  /// The lines opening `%loop:2 = stablehlo.while(%counter = %zero, %carried
  /// = init)` while counter < limit, up to its `do {`.
  static std::string loopHeadText(const std::string &loop, const std::string &counter,
                                  const std::string &carried, const std::string &init,
                                  const TensorType &type, const std::string &limit,
                                  const std::string &indent) {
    return line(indent + loop + ":2 = stablehlo.while(" + counter + " = %zero, " + carried + " = " +
                init + ") : tensor<i64>, " + printType(type)) +
           line(indent + "cond {") +
           line(indent + "  " + loop + "_more = stablehlo.compare LT, " + counter + ", " + limit +
                ", SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>") +
           line(indent + "  stablehlo.return " + loop + "_more : tensor<i1>") +
           line(indent + "} do {");
  }

  /// `%<p>loop:2`, a while loop solving `matrix` (size x size, its triangle
  /// kept) y = `rhs` (size x m) a row per step: row i = k going forward
  /// (lower), size - 1 - k backward; y's rows not yet solved are 0.
  std::string rowLoop(const std::string &p, const std::string &matrix, const std::string &rhs,
                      int64_t size, int64_t m, bool lower, const std::string &indent) const {
    const TensorType square = withMatrix(a_.elementType, size, size),
                     c = withMatrix(a_.elementType, size, m),
                     row = withMatrix(a_.elementType, 1, size),
                     rhsRow = withMatrix(a_.elementType, 1, m),
                     pivot = withMatrix(a_.elementType, 1, 1);
    const std::string k = "%" + p + "k", y = "%" + p + "y", i = "%" + p + "i";
    auto at = [&](const std::string &text) { return line(indent + text); };
    std::string text;
    text += at("%" + p + "y0 = stablehlo.constant dense<" + zeroOf(a_.elementType) +
               "> : " + printType(c));
    text +=
        at("%" + p + "size = stablehlo.constant dense<" + std::to_string(size) + "> : tensor<i64>");
    text += at("%" + p + "last = stablehlo.constant dense<" + std::to_string(size - 1) +
               "> : tensor<i64>");
    text += loopHeadText("%" + p + "loop", k, y, "%" + p + "y0", c, "%" + p + "size", indent);
    text += at(lower ? "  " + i + " = stablehlo.add " + k + ", %zero : tensor<i64>"
                     : "  " + i + " = stablehlo.subtract %" + p + "last, " + k + " : tensor<i64>");
    text += at("  " + sliceText("%" + p + "arow", matrix, square, i, "%zero", row));
    text += at("  " + productText("%" + p + "dot", "%" + p + "arow", row, y, c, rhsRow));
    text += at("  " + sliceText("%" + p + "crow", rhs, c, i, "%zero", rhsRow));
    text += at("  %" + p + "rest = stablehlo.subtract %" + p + "crow, %" + p +
               "dot : " + printType(rhsRow));
    std::string solved = "%" + p + "rest";
    if (!unitDiagonal_) {
      text += at("  " + sliceText("%" + p + "piv", matrix, square, i, i, pivot));
      text += at("  %" + p + "pivb = stablehlo.broadcast_in_dim %" + p +
                 "piv, dims = " + integerList(upTo(a_.rank())) + " : (" + printType(pivot) +
                 ") -> " + printType(rhsRow));
      text += at("  %" + p + "yi = stablehlo.divide %" + p + "rest, %" + p +
                 "pivb : " + printType(rhsRow));
      solved = "%" + p + "yi";
    }
    text += at("  " + updateText("%" + p + "next", y, c, solved, rhsRow, i));
    text += at("  %" + p + "k1 = stablehlo.add " + k + ", %one : tensor<i64>");
    text += at("  stablehlo.return %" + p + "k1, %" + p + "next : tensor<i64>, " + printType(c));
    return text + at("}");
  }

  /// %trip (or %tripd, its padded diagonal 1) and %cp: the system padded to
  /// `padded` rows with zeros; `matrix` names the padded matrix.
  std::string paddedSystem(const std::string &rhs, int64_t m, int64_t padded,
                           std::string &matrix) const {
    const int64_t r = a_.rank();
    const ElementType element = a_.elementType;
    const TensorType square = withMatrix(element, padded, padded),
                     c = withMatrix(element, padded, m), original = withMatrix(element, n_, m);
    const TensorType index{ElementType::I64, square.shape}, mask{ElementType::I1, square.shape};
    std::vector<int64_t> low(static_cast<size_t>(r), 0), highA(low), highC(low), interior(low);
    highA[r - 2] = highA[r - 1] = highC[r - 2] = padded - n_;
    std::string text;
    text += line("%scalar0 = stablehlo.constant dense<" + zeroOf(element) +
                 "> : " + printType(TensorType{element, {}}));
    text += line("%trip = stablehlo.pad %tri, %scalar0, low = " + integerList(low) +
                 ", high = " + integerList(highA) + ", interior = " + integerList(interior) +
                 " : (" + printType(a_) + ", " + printType(TensorType{element, {}}) + ") -> " +
                 printType(square));
    matrix = "%trip";
    if (!unitDiagonal_) {
      const std::string compared =
          " : (" + printType(index) + ", " + printType(index) + ") -> " + printType(mask);
      text +=
          line("%prow = stablehlo.iota dim = " + std::to_string(r - 2) + " : " + printType(index));
      text +=
          line("%pcol = stablehlo.iota dim = " + std::to_string(r - 1) + " : " + printType(index));
      text +=
          line("%pn = stablehlo.constant dense<" + std::to_string(n_) + "> : " + printType(index));
      text += line("%pdiag = stablehlo.compare EQ, %prow, %pcol, SIGNED" + compared);
      text += line("%pbeyond = stablehlo.compare GE, %prow, %pn, SIGNED" + compared);
      text += line("%ppad = stablehlo.and %pdiag, %pbeyond : " + printType(mask));
      text +=
          line("%pones = stablehlo.constant dense<" + oneOf(element) + "> : " + printType(square));
      text += line("%tripd = stablehlo.select %ppad, %pones, %trip : " + printType(mask) + ", " +
                   printType(square));
      matrix = "%tripd";
    }
    text += line("%cp = stablehlo.pad " + rhs + ", %scalar0, low = " + integerList(low) +
                 ", high = " + integerList(highC) + ", interior = " + integerList(interior) +
                 " : (" + printType(original) + ", " + printType(TensorType{element, {}}) +
                 ") -> " + printType(c));
    return text;
  }

  /// `%solved`: the system padded to whole blocks (the padded diagonal 1,
  /// the padded right side 0, so the padded rows solve to 0), a block of
  /// kBlock rows per step of an outer loop.
  std::string blockedLoop(const std::string &rhs, int64_t m, bool lower) const {
    const int64_t r = a_.rank(), blocks = (n_ + kBlock - 1) / kBlock, padded = blocks * kBlock;
    const ElementType element = a_.elementType;
    const TensorType square = withMatrix(element, padded, padded),
                     c = withMatrix(element, padded, m), rows = withMatrix(element, kBlock, padded),
                     blockRhs = withMatrix(element, kBlock, m),
                     diagonal = withMatrix(element, kBlock, kBlock),
                     original = withMatrix(element, n_, m);
    std::string matrix;
    std::string text = paddedSystem(rhs, m, padded, matrix);
    text += line("%x0 = stablehlo.constant dense<" + zeroOf(element) + "> : " + printType(c));
    text +=
        line("%blocks = stablehlo.constant dense<" + std::to_string(blocks) + "> : tensor<i64>");
    text += line("%lastblock = stablehlo.constant dense<" + std::to_string(blocks - 1) +
                 "> : tensor<i64>");
    text += line("%width = stablehlo.constant dense<" + std::to_string(kBlock) + "> : tensor<i64>");
    text += loopHeadText("%outer", "%kb", "%x", "%x0", c, "%blocks", "");
    text += line(lower ? "  %bi = stablehlo.add %kb, %zero : tensor<i64>"
                       : "  %bi = stablehlo.subtract %lastblock, %kb : tensor<i64>");
    text += line("  %start = stablehlo.multiply %bi, %width : tensor<i64>");
    text += line("  " + sliceText("%brows", matrix, square, "%start", "%zero", rows));
    text += line("  " + productText("%bdot", "%brows", rows, "%x", c, blockRhs));
    text += line("  " + sliceText("%bc", "%cp", c, "%start", "%zero", blockRhs));
    text += line("  %brhs = stablehlo.subtract %bc, %bdot : " + printType(blockRhs));
    text += line("  " + sliceText("%bdiag", matrix, square, "%start", "%start", diagonal));
    text += rowLoop("in_", "%bdiag", "%brhs", kBlock, m, lower, "  ");
    text += line("  " + updateText("%xnext", "%x", c, "%in_loop#1", blockRhs, "%start"));
    text += line("  %kb1 = stablehlo.add %kb, %one : tensor<i64>");
    text += line("  stablehlo.return %kb1, %xnext : tensor<i64>, " + printType(c));
    text += line("}");
    std::string bounds;
    for (int64_t d = 0; d < r; ++d)
      bounds += (d ? ", " : "") + std::string("0:") + std::to_string(original.shape[d]);
    text += line("%solved = stablehlo.slice %outer#1 [" + bounds + "] : (" + printType(c) +
                 ") -> " + printType(original));
    return text;
  }

  /// The body of `dense<...>` for a one of `type`.
  static std::string oneOf(ElementType type) { return isComplex(type) ? "(1.0, 0.0)" : "1.0"; }

  std::string name_, where_, transpose_;
  TensorType a_, b_;
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
