#include "compiler/mlir/LapackCalls.h"

#include <optional>
#include <string>

#include "compiler/ir/Diagnostic.h"
#include "compiler/mlir/FunctionExpansion.h"
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

  std::string functionText() {
    std::string results = printType(a_);
    if (target_.factorization == Factorization::Lu)
      results += ", " + printType(TensorType{ElementType::I32, withLast(std::min(m_, n_))});
    results += ", " + printType(TensorType{ElementType::I32, batch_});
    text_ = "func.func private @" + name_ + "(%a: " + printType(a_) + ") -> (" + results + ") {\n";
    common();
    if (target_.factorization == Factorization::Lu)
      lu();
    else
      cholesky();
    return text_ + "}\n";
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

  /// The batch dims followed by `dims`.
  Shape withLast(int64_t dim) const { return withLast(std::vector<int64_t>{dim}); }
  Shape withLast(const std::vector<int64_t> &dims) const {
    Shape shape = batch_;
    shape.insert(shape.end(), dims.begin(), dims.end());
    return shape;
  }
  int64_t rank() const { return a_.rank(); }

  std::string type(ElementType element, const Shape &shape) const {
    return printType(TensorType{element, shape});
  }
  ElementType real() const {
    return isComplex(a_.elementType) ? complexPartType(a_.elementType) : a_.elementType;
  }

  void emit(const std::string &line) { text_ += indent_ + line + "\n"; }

  /// `%name = stablehlo.constant dense<body> : type`.
  void constant(const std::string &name, const std::string &body, const std::string &type) {
    emit(name + " = stablehlo.constant dense<" + body + "> : " + type);
  }

  void binary(const std::string &name, const char *op, const std::string &a, const std::string &b,
              const std::string &type) {
    emit(name + " = stablehlo." + op + " " + a + ", " + b + " : " + type);
  }

  void compare(const std::string &name, const char *direction, const std::string &a,
               const std::string &b, const std::string &operandType, const Shape &shape) {
    emit(name + " = stablehlo.compare " + direction + ", " + a + ", " + b + " : (" + operandType +
         ", " + operandType + ") -> " + type(ElementType::I1, shape));
  }

  void select(const std::string &name, const std::string &pred, const std::string &onTrue,
              const std::string &onFalse, const Shape &shape, const std::string &valueType) {
    emit(name + " = stablehlo.select " + pred + ", " + onTrue + ", " + onFalse + " : " +
         type(ElementType::I1, shape) + ", " + valueType);
  }

  /// `%name = broadcast_in_dim x, dims` from `from` to `to`.
  void broadcast(const std::string &name, const std::string &x, const std::string &from,
                 const std::vector<int64_t> &dims, const std::string &to) {
    emit(name + " = stablehlo.broadcast_in_dim " + x + ", dims = " + integerList(dims) + " : (" +
         from + ") -> " + to);
  }

  /// The batch dims and the last: how a per-row value (batch x 1) or a
  /// reduced row (batch x n) lines up with the matrices.
  std::vector<int64_t> batchAndLast() const {
    std::vector<int64_t> dims = upTo(rank() - 2);
    dims.push_back(rank() - 1);
    return dims;
  }

  /// `%name = dynamic_slice x` at (batch 0s, row, column), `sizes` the last
  /// two dims of the slice.
  void slice(const std::string &name, const std::string &x, const std::string &row,
             const std::string &column, int64_t rows, int64_t columns) {
    std::string starts, indexTypes;
    for (int64_t d = 0; d + 2 < rank(); ++d) {
      starts += "%zero, ";
      indexTypes += ", tensor<i64>";
    }
    emit(name + " = stablehlo.dynamic_slice " + x + ", " + starts + row + ", " + column +
         ", sizes = " + integerList(withLast({rows, columns})) + " : (" + printType(a_) +
         indexTypes + ", tensor<i64>, tensor<i64>) -> " +
         type(a_.elementType, withLast({rows, columns})));
  }

  /// `%name = reduce(x init: init) applies op across the row dim`.
  void reduceRows(const std::string &name, const std::string &x, const std::string &init,
                  const char *op, ElementType element, const Shape &from, const Shape &to) {
    emit(name + " = stablehlo.reduce(" + x + " init: " + init + ") applies stablehlo." + op +
         " across dimensions = [" + std::to_string(rank() - 2) + "] : (" + type(element, from) +
         ", " + type(element, {}) + ") -> " + type(element, to));
  }

  /// The while loop over the columns: `%loop` carries the column k, the
  /// matrices and info (and, for LU, the pivots).
  void loopHead(const std::vector<std::pair<std::string, std::string>> &carried, int64_t count) {
    std::string text =
        "%loop:" + std::to_string(carried.size() + 1) + " = stablehlo.while(%k = %zero";
    std::string types;
    for (size_t i = 0; i < carried.size(); ++i) {
      text += ", %" + carriedNames_[i] + " = " + carried[i].first;
      types += ", " + carried[i].second;
    }
    emit(text + ") : tensor<i64>" + types);
    emit("cond {");
    constant("  %count", std::to_string(count), "tensor<i64>");
    emit("  %more = stablehlo.compare LT, %k, %count, SIGNED : (tensor<i64>, tensor<i64>) -> "
         "tensor<i1>");
    emit("  stablehlo.return %more : tensor<i1>");
    emit("} do {");
    indent_ = "    ";
  }

  /// What both factorizations use: iotas of the rows and columns, 0 and 1.
  void common() {
    indent_ = "  ";
    const std::string index = type(ElementType::I64, a_.shape);
    constant("%zero", "0", "tensor<i64>");
    constant("%one", "1", "tensor<i64>");
    emit("%rowi = stablehlo.iota dim = " + std::to_string(rank() - 2) + " : " + index);
    emit("%coli = stablehlo.iota dim = " + std::to_string(rank() - 1) + " : " + index);
    constant("%info0", "0", type(ElementType::I32, batch_));
  }

  /// The masks of step k: rows and columns after k, equal to k.
  void stepMasks() {
    const std::string index = type(ElementType::I64, a_.shape);
    const std::string mask = type(ElementType::I1, a_.shape);
    broadcast("%kA", "%k", "tensor<i64>", {}, index);
    compare("%rowk", "EQ", "%rowi", "%kA", index, a_.shape);
    compare("%rowgt", "GT", "%rowi", "%kA", index, a_.shape);
    compare("%colatk", "EQ", "%coli", "%kA", index, a_.shape);
    compare("%colgt", "GT", "%coli", "%kA", index, a_.shape);
    binary("%trailing", "and", "%rowgt", "%colgt", mask);
    binary("%below", "and", "%rowgt", "%colatk", mask);
  }

  /// info: k + 1 where `failed` (batch, i1) and no earlier step failed.
  void updateInfo(const std::string &failed) {
    const std::string info = type(ElementType::I32, batch_);
    constant("%izero", "0", info);
    compare("%ok", "EQ", "%info", "%izero", info, batch_);
    binary("%first", "and", failed, "%ok", type(ElementType::I1, batch_));
    emit("%k1 = stablehlo.add %k, %one : tensor<i64>");
    emit("%k1i = stablehlo.convert %k1 : (tensor<i64>) -> tensor<i32>");
    broadcast("%k1b", "%k1i", "tensor<i32>", {}, info);
    select("%infonext", "%first", "%k1b", "%info", batch_, info);
  }

  void lu() {
    const int64_t steps = std::min(m_, n_);
    const ElementType e = a_.elementType, re = real();
    const std::string A = printType(a_), C = type(e, withLast({m_, 1})),
                      CR = type(re, withLast({m_, 1})),
                      CI = type(ElementType::I64, withLast({m_, 1})),
                      P = type(ElementType::I64, withLast(1)), PR = type(re, withLast(1)),
                      R = type(e, withLast({1, n_})), D = type(e, withLast({1, 1})),
                      pivots = type(ElementType::I32, withLast(steps));
    const Shape columnShape = withLast({m_, 1});
    constant("%pivots0", "0", pivots);
    constant("%minus1", "-1.0", CR);
    constant("%minus1s", "-1.0", type(re, {}));
    constant("%mC", std::to_string(m_), CI);
    constant("%mP", std::to_string(m_), P);
    constant("%ms", std::to_string(m_), "tensor<i64>");
    constant("%negzero", negativeZero(), A);
    constant("%negzeros", negativeZero(), type(e, {}));
    constant("%zeroC", zeroOf(e), C);
    constant("%zeroD", zeroOf(e), D);
    constant("%oneC", isComplex(e) ? "(1.0, 0.0)" : "1.0", C);
    // LAPACK scales by the reciprocal unless it would overflow.
    constant("%sfmin", re == ElementType::F32 ? "1.17549435E-38" : "2.2250738585072014E-308", CR);
    emit("%crow = stablehlo.iota dim = " + std::to_string(rank() - 2) + " : " + CI);
    carriedNames_ = {"lu", "pivots", "info"};
    loopHead({{"%a", A}, {"%pivots0", pivots}, {"%info0", type(ElementType::I32, batch_)}}, steps);
    stepMasks();
    // The pivot: the first row at or below k of largest magnitude (|re| +
    // |im| on complex); with NaN in the column, none is largest: k.
    slice("%col", "%lu", "%zero", "%k", m_, 1);
    magnitude("%mag", "%col", CR);
    broadcast("%kC", "%k", "tensor<i64>", {}, CI);
    compare("%atorbelow", "GE", "%crow", "%kC", CI, columnShape);
    select("%cand", "%atorbelow", "%mag", "%minus1", columnShape, CR);
    reduceRows("%largest", "%cand", "%minus1s", "maximum", re, columnShape, withLast(1));
    broadcast("%largestC", "%largest", PR, batchAndLast(), CR);
    compare("%hit", "EQ", "%cand", "%largestC", CR, columnShape);
    select("%hitrow", "%hit", "%crow", "%mC", columnShape, CI);
    reduceRows("%firsthit", "%hitrow", "%ms", "minimum", ElementType::I64, columnShape,
               withLast(1));
    broadcast("%kP", "%k", "tensor<i64>", {}, P);
    compare("%nohit", "EQ", "%firsthit", "%mP", P, withLast(1));
    select("%p", "%nohit", "%kP", "%firsthit", withLast(1), P);
    // Swap rows k and p: row p summed out of a mask (-0 adds exactly).
    const std::string index = type(ElementType::I64, a_.shape);
    broadcast("%pA", "%p", P, batchAndLast(), index);
    compare("%rowp", "EQ", "%rowi", "%pA", index, a_.shape);
    select("%onlyp", "%rowp", "%lu", "%negzero", a_.shape, A);
    reduceRows("%pivotrow", "%onlyp", "%negzeros", "add", e, a_.shape, withLast(n_));
    broadcast("%pivotrowA", "%pivotrow", type(e, withLast(n_)), batchAndLast(), A);
    slice("%kthrow", "%lu", "%k", "%zero", 1, n_);
    broadcast("%kthrowA", "%kthrow", R, upTo(rank()), A);
    select("%swapped1", "%rowp", "%kthrowA", "%lu", a_.shape, A);
    select("%swapped", "%rowk", "%pivotrowA", "%swapped1", a_.shape, A);
    // info: the first zero pivot (LAPACK goes on past it, leaving its
    // column unscaled).
    slice("%d", "%swapped", "%k", "%k", 1, 1);
    broadcast("%dC", "%d", D, upTo(rank()), C);
    compare("%dzero", "EQ", "%d", "%zeroD", D, withLast({1, 1}));
    emit("%dzeroB = stablehlo.reshape %dzero : (" + type(ElementType::I1, withLast({1, 1})) +
         ") -> " + type(ElementType::I1, batch_));
    updateInfo("%dzeroB");
    // The column below the pivot, scaled.
    slice("%colk", "%swapped", "%zero", "%k", m_, 1);
    binary("%recip", "divide", "%oneC", "%dC", C);
    binary("%byrecip", "multiply", "%colk", "%recip", C);
    binary("%bydivide", "divide", "%colk", "%dC", C);
    emit("%absd = stablehlo.abs %dC : (" + C + ") -> " + CR);
    compare("%safe", "GE", "%absd", "%sfmin", CR, columnShape);
    select("%scaled", "%safe", "%byrecip", "%bydivide", columnShape, C);
    compare("%nonzero", "NE", "%dC", "%zeroC", C, columnShape);
    select("%l", "%nonzero", "%scaled", "%colk", columnShape, C);
    broadcast("%lA", "%l", C, upTo(rank()), A);
    // The trailing block less the outer product of l and row k.
    slice("%u", "%swapped", "%k", "%zero", 1, n_);
    broadcast("%uA", "%u", R, upTo(rank()), A);
    binary("%outer", "multiply", "%lA", "%uA", A);
    binary("%updated", "subtract", "%swapped", "%outer", A);
    select("%next1", "%trailing", "%updated", "%swapped", a_.shape, A);
    select("%next", "%below", "%lA", "%next1", a_.shape, A);
    // Pivot k: p + 1, as LAPACK counts.
    emit("%onep = stablehlo.constant dense<1> : " + P);
    binary("%p1", "add", "%p", "%onep", P);
    emit("%p1i = stablehlo.convert %p1 : (" + P + ") -> " + type(ElementType::I32, withLast(1)));
    std::string starts, indexTypes;
    for (int64_t d = 0; d + 2 < rank(); ++d) {
      starts += "%zero, ";
      indexTypes += ", tensor<i64>";
    }
    emit("%pivotsnext = stablehlo.dynamic_update_slice %pivots, %p1i, " + starts + "%k : (" +
         pivots + ", " + type(ElementType::I32, withLast(1)) + indexTypes + ", tensor<i64>) -> " +
         pivots);
    emit("stablehlo.return %k1, %next, %pivotsnext, %infonext : tensor<i64>, " + A + ", " + pivots +
         ", " + type(ElementType::I32, batch_));
    indent_ = "  ";
    emit("}");
    emit("return %loop#1, %loop#2, %loop#3 : " + A + ", " + pivots + ", " +
         type(ElementType::I32, batch_));
  }

  void cholesky() {
    const ElementType e = a_.elementType, re = real();
    const std::string A = printType(a_), C = type(e, withLast({n_, 1})),
                      R = type(e, withLast({1, n_})), D = type(e, withLast({1, 1})),
                      DR = type(re, withLast({1, 1}));
    // An upper factor U of a is the conjugate transpose of the lower factor
    // of a's conjugate transpose (whose lower triangle is a's upper one).
    std::string matrix = "%a";
    if (!lower_) {
      conjugateTranspose("%at", "%a");
      matrix = "%at";
    }
    constant("%zeroDR", "0.0", DR);
    constant("%oneDR", "1.0", DR);
    carriedNames_ = {"x", "info"};
    loopHead({{matrix, A}, {"%info0", type(ElementType::I32, batch_)}}, n_);
    stepMasks();
    // d = x_kk (its real part) must be > 0, else info = k + 1 and the
    // factorization stops.
    slice("%d", "%x", "%k", "%k", 1, 1);
    std::string d = "%d";
    if (isComplex(e)) {
      emit("%dre = stablehlo.real %d : (" + D + ") -> " + DR);
      d = "%dre";
    }
    compare("%positive", "GT", d, "%zeroDR", DR, withLast({1, 1}));
    emit("%positiveB = stablehlo.reshape %positive : (" + type(ElementType::I1, withLast({1, 1})) +
         ") -> " + type(ElementType::I1, batch_));
    emit("%failed = stablehlo.not %positiveB : " + type(ElementType::I1, batch_));
    updateInfo("%failed");
    const std::string info = type(ElementType::I32, batch_);
    compare("%go", "EQ", "%infonext", "%izero", info, batch_);
    emit("%s = stablehlo.sqrt " + d + " : " + DR);
    binary("%inv", "divide", "%oneDR", "%s", DR);
    // l = column k below the diagonal / s (times 1/s, as LAPACK scales).
    slice("%col", "%x", "%zero", "%k", n_, 1);
    scaleByReal("%l", "%col", "%inv", C, withLast({n_, 1}));
    broadcast("%lA", "%l", C, upTo(rank()), A);
    emit("%lrow = stablehlo.reshape %l : (" + C + ") -> " + R);
    std::string conjugated = "%lrow";
    if (isComplex(e)) {
      conjugate("%lrowc", "%lrow", withLast({1, n_}));
      conjugated = "%lrowc";
    }
    broadcast("%lT", conjugated, R, upTo(rank()), A);
    binary("%outer", "multiply", "%lA", "%lT", A);
    binary("%updated", "subtract", "%x", "%outer", A);
    std::string root = "%s";
    if (isComplex(e)) {
      constant("%zeroim", "0.0", DR);
      emit("%sc = stablehlo.complex %s, %zeroim : " + D);
      root = "%sc";
    }
    broadcast("%sA", root, D, upTo(rank()), A);
    const std::string mask = type(ElementType::I1, a_.shape);
    binary("%diag", "and", "%rowk", "%colatk", mask);
    select("%next1", "%trailing", "%updated", "%x", a_.shape, A);
    select("%next2", "%below", "%lA", "%next1", a_.shape, A);
    select("%next3", "%diag", "%sA", "%next2", a_.shape, A);
    broadcast("%goA", "%go", type(ElementType::I1, batch_), upTo(rank() - 2), mask);
    select("%next", "%goA", "%next3", "%x", a_.shape, A);
    emit("stablehlo.return %k1, %next, %infonext : tensor<i64>, " + A + ", " + info);
    indent_ = "  ";
    emit("}");
    // The other triangle keeps a's values.
    std::string factor = "%loop#1";
    if (!lower_) {
      conjugateTranspose("%factor", "%loop#1");
      factor = "%factor";
    }
    const std::string index = type(ElementType::I64, a_.shape);
    compare("%mine", lower_ ? "GE" : "LE", "%rowi", "%coli", index, a_.shape);
    select("%out", "%mine", factor, "%a", a_.shape, A);
    emit("return %out, %loop#2 : " + A + ", " + info);
  }

  /// |re| + |im| on complex (LAPACK's cabs1), |x| otherwise.
  void magnitude(const std::string &name, const std::string &x, const std::string &realType) {
    if (!isComplex(a_.elementType)) {
      emit(name + " = stablehlo.abs " + x + " : " + realType);
      return;
    }
    const std::string complexType = type(a_.elementType, withLast({m_, 1}));
    emit(name + "re = stablehlo.real " + x + " : (" + complexType + ") -> " + realType);
    emit(name + "im = stablehlo.imag " + x + " : (" + complexType + ") -> " + realType);
    emit(name + "are = stablehlo.abs " + name + "re : " + realType);
    emit(name + "aim = stablehlo.abs " + name + "im : " + realType);
    binary(name, "add", name + "are", name + "aim", realType);
  }

  /// `x` (complex or real, `xType` of `shape`) times the real `factor`
  /// (batch x 1 x 1), part by part on complex.
  void scaleByReal(const std::string &name, const std::string &x, const std::string &factor,
                   const std::string &xType, const Shape &shape) {
    const std::string realType = type(real(), shape);
    broadcast(name + "f", factor, type(real(), withLast({1, 1})), upTo(rank()), realType);
    if (!isComplex(a_.elementType)) {
      binary(name, "multiply", x, name + "f", xType);
      return;
    }
    emit(name + "re = stablehlo.real " + x + " : (" + xType + ") -> " + realType);
    emit(name + "im = stablehlo.imag " + x + " : (" + xType + ") -> " + realType);
    binary(name + "re2", "multiply", name + "re", name + "f", realType);
    binary(name + "im2", "multiply", name + "im", name + "f", realType);
    emit(name + " = stablehlo.complex " + name + "re2, " + name + "im2 : " + xType);
  }

  /// `%name`: the conjugate of the complex `x` of `shape`.
  void conjugate(const std::string &name, const std::string &x, const Shape &shape) {
    const std::string xType = type(a_.elementType, shape), realType = type(real(), shape);
    emit(name + "re = stablehlo.real " + x + " : (" + xType + ") -> " + realType);
    emit(name + "im = stablehlo.imag " + x + " : (" + xType + ") -> " + realType);
    emit(name + "neg = stablehlo.negate " + name + "im : " + realType);
    emit(name + " = stablehlo.complex " + name + "re, " + name + "neg : " + xType);
  }

  void conjugateTranspose(const std::string &name, const std::string &x) {
    std::vector<int64_t> dims = upTo(rank());
    std::swap(dims[rank() - 1], dims[rank() - 2]);
    const std::string A = printType(a_);
    std::string source = x;
    if (isComplex(a_.elementType)) {
      conjugate(name + "c", x, a_.shape);
      source = name + "c";
    }
    emit(name + " = stablehlo.transpose " + source + ", dims = " + integerList(dims) + " : (" + A +
         ") -> " + A);
  }

  std::string negativeZero() const { return isComplex(a_.elementType) ? "(-0.0, -0.0)" : "-0.0"; }

  LapackTarget target_;
  std::string name_, where_, routine_;
  TensorType a_;
  Shape batch_;
  int64_t m_ = 0, n_ = 0;
  bool lower_ = true;
  std::vector<std::string> carriedNames_;
  std::string text_, indent_;
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
