// LAPACK's potrf as StableHLO ops (LapackFactorizations.h).
#include "compiler/mlir/FunctionExpansion.h"
#include "compiler/mlir/LapackFactorizations.h"
#include "compiler/mlir/MatrixText.h"

namespace shardgen::mlir {

std::string choleskyFunctionText(const std::string &name, const TensorType &a, bool lower) {
  const int64_t n = a.shape[a.rank() - 1];
  MatrixText t(a.elementType, Shape(a.shape.begin(), a.shape.end() - 2));
  const ElementType re = t.real();
  const Shape s = a.shape, column = t.matrix(n, 1), row = t.matrix(1, n), d = t.matrix(1, 1);
  const std::string A = printType(a), SI = t.type(ElementType::I64, s), C = t.type(column),
                    R = t.type(row), D = t.type(d), DR = t.type(re, d),
                    info = t.type(ElementType::I32, t.batch()),
                    flags = t.type(ElementType::I1, t.batch()), mask = t.type(ElementType::I1, s);
  t.emit("func.func private @" + name + "(%a: " + A + ") -> (" + A + ", " + info + ") {");
  t.constant("%zero", "0", "tensor<i64>");
  t.constant("%one", "1", "tensor<i64>");
  t.constant("%info0", "0", info);
  t.constant("%izero", "0", info);
  t.constant("%size", std::to_string(n), "tensor<i64>");
  t.constant("%zeroDR", "0.0", DR);
  t.constant("%oneDR", "1.0", DR);
  t.iota("%rowi", true, s);
  t.iota("%coli", false, s);
  // An upper factor U of a is the conjugate transpose of the lower factor
  // of a's conjugate transpose (whose lower triangle is a's upper one).
  std::string matrix = "%a";
  if (!lower) {
    t.adjoint("%at", "%a", s);
    matrix = "%at";
  }
  t.loopHead("%loop", "%k", {{"%x", matrix, A}, {"%info", "%info0", info}}, "%size");
  t.broadcast("%kS", "%k", "tensor<i64>", {}, SI);
  t.compare("%rowk", "EQ", "%rowi", "%kS", SI, s);
  t.compare("%rowgt", "GT", "%rowi", "%kS", SI, s);
  t.compare("%colk", "EQ", "%coli", "%kS", SI, s);
  t.compare("%colgt", "GT", "%coli", "%kS", SI, s);
  t.binary("%trailing", "and", "%rowgt", "%colgt", mask);
  t.binary("%below", "and", "%rowgt", "%colk", mask);
  t.binary("%diag", "and", "%rowk", "%colk", mask);
  // d = x_kk (its real part) must be > 0 (not NaN), else info = k + 1
  // and the factorization stops there.
  t.slice("%d", "%x", s, "%k", "%k", 1, 1);
  std::string pivot = "%d";
  if (isComplex(a.elementType)) {
    t.emit("%dre = stablehlo.real %d : (" + D + ") -> " + DR);
    pivot = "%dre";
  }
  t.compare("%positive", "GT", pivot, "%zeroDR", DR, d);
  t.reshape("%positiveB", "%positive", t.type(ElementType::I1, d), flags);
  t.unary("%failed", "not", "%positiveB", flags);
  t.compare("%ok", "EQ", "%info", "%izero", info, t.batch());
  t.binary("%first", "and", "%failed", "%ok", flags);
  t.binary("%k1", "add", "%k", "%one", "tensor<i64>");
  t.convert("%k1i", "%k1", "tensor<i64>", "tensor<i32>");
  t.broadcast("%k1b", "%k1i", "tensor<i32>", {}, info);
  t.select("%infonext", "%first", "%k1b", "%info", t.batch(), info);
  t.compare("%go", "EQ", "%infonext", "%izero", info, t.batch());
  t.unary("%root", "sqrt", pivot, DR);
  t.binary("%inv", "divide", "%oneDR", "%root", DR);
  // l = column k below the diagonal times 1/root (as LAPACK scales); the
  // trailing block less l l^H.
  t.slice("%col", "%x", s, "%zero", "%k", n, 1);
  t.broadcast("%invC", "%inv", DR, upTo(t.rank()), t.type(re, column));
  t.scaleByReal("%l", "%col", "%invC", column);
  t.broadcast("%lS", "%l", C, upTo(t.rank()), A);
  t.reshape("%lrow", "%l", C, R);
  std::string conjugated = "%lrow";
  if (isComplex(a.elementType)) {
    t.conjugate("%lrowc", "%lrow", row);
    conjugated = "%lrowc";
  }
  t.broadcast("%lT", conjugated, R, upTo(t.rank()), A);
  t.binary("%outer", "multiply", "%lS", "%lT", A);
  t.binary("%updated", "subtract", "%x", "%outer", A);
  std::string root = "%root";
  if (isComplex(a.elementType)) {
    t.constant("%zeroim", "0.0", DR);
    t.binary("%rootc", "complex", "%root", "%zeroim", D);
    root = "%rootc";
  }
  t.broadcast("%rootS", root, D, upTo(t.rank()), A);
  t.select("%next1", "%trailing", "%updated", "%x", s, A);
  t.select("%next2", "%below", "%lS", "%next1", s, A);
  t.select("%next3", "%diag", "%rootS", "%next2", s, A);
  t.broadcast("%goS", "%go", flags, upTo(t.rank() - 2), mask);
  t.select("%next", "%goS", "%next3", "%x", s, A);
  t.loopEnd({"%k1", "%next", "%infonext"}, {"tensor<i64>", A, info});
  // The other triangle keeps a's values.
  std::string factor = "%loop#1";
  if (!lower) {
    t.adjoint("%factor", "%loop#1", s);
    factor = "%factor";
  }
  t.compare("%mine", lower ? "GE" : "LE", "%rowi", "%coli", SI, s);
  t.select("%out", "%mine", factor, "%a", s, A);
  t.emit("return %out, %loop#2 : " + A + ", " + info);
  t.emit("}");
  return t.text();
}

} // namespace shardgen::mlir
