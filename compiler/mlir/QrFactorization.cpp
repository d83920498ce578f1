// LAPACK's geqrf and orgqr/ungqr as StableHLO ops (LapackFactorizations.h):
// Householder reflectors H = I - tau v v^H, v_i = 1 at the step's row, one
// column per step of a while loop over the whole matrix under masks.
#include <algorithm>

#include "compiler/mlir/FunctionExpansion.h"
#include "compiler/mlir/LapackFactorizations.h"
#include "compiler/mlir/MatrixText.h"

namespace shardgen::mlir {

namespace {

class QrText {
public:
  QrText(const std::string &name, const TensorType &a)
      : t_(a.elementType, Shape(a.shape.begin(), a.shape.end() - 2)), name_(name), a_(a),
        m_(a.shape[a.rank() - 2]), n_(a.shape[a.rank() - 1]) {}

  /// geqrf: R on and above the diagonal, the reflectors' v below it, tau.
  std::string factorization() {
    const int64_t steps = std::min(m_, n_);
    const std::string A = printType(a_), taus = t_.type(t_.vector(steps));
    t_.emit("func.func private @" + name_ + "(%a: " + A + ") -> (" + A + ", " + taus + ") {");
    common();
    t_.constant("%taus0", t_.zero(), taus);
    t_.constant("%steps", std::to_string(steps), "tensor<i64>");
    t_.loopHead("%loop", "%i", {{"%x", "%a", A}, {"%taus", "%taus0", taus}}, "%steps");
    stepMasks();
    // dlarfg: alpha = x_ii, the column below it x; beta = -sign(alpha)
    // |(alpha, |x|)|, tau = (beta - alpha) / beta (on complex: ((beta -
    // re) / beta, -im / beta)), v = x / (alpha - beta); H = I where x = 0
    // (and alpha is real).
    const Shape column = t_.matrix(m_, 1), d = t_.matrix(1, 1);
    const std::string C = t_.type(column), D = t_.type(d), DR = t_.type(t_.real(), d),
                      CR = t_.type(t_.real(), column);
    t_.slice("%col", "%x", a_.shape, "%zero", "%i", m_, 1);
    t_.slice("%alpha", "%x", a_.shape, "%i", "%i", 1, 1);
    columnMasks();
    t_.constant("%zeroC", t_.zero(), C);
    t_.select("%below", "%cbelow", "%col", "%zeroC", column, C);
    norm("%xnorm", "%below");
    std::string alphaRe = "%alpha", alphaIm;
    if (isComplex(t_.element())) {
      t_.emit("%alphare = stablehlo.real %alpha : (" + D + ") -> " + DR);
      t_.emit("%alphaim = stablehlo.imag %alpha : (" + D + ") -> " + DR);
      alphaRe = "%alphare";
      alphaIm = "%alphaim";
      hypot3("%size", "%alphare", "%alphaim", "%xnorm");
    } else {
      hypot3("%size", "%alpha", "", "%xnorm");
    }
    t_.constant("%zeroDR", "0.0", DR);
    t_.compare("%negative", "LT", alphaRe, "%zeroDR", DR, d);
    t_.unary("%negsize", "negate", "%size", DR);
    t_.select("%beta", "%negative", "%size", "%negsize", d, DR);
    t_.binary("%betaminus", "subtract", "%beta", alphaRe, DR);
    t_.binary("%taure", "divide", "%betaminus", "%beta", DR);
    std::string betaE = "%beta", tau = "%taure";
    t_.compare("%xzero", "EQ", "%xnorm", "%zeroDR", DR, d);
    std::string identity = "%xzero";
    if (isComplex(t_.element())) {
      t_.unary("%negim", "negate", alphaIm, DR);
      t_.binary("%tauim", "divide", "%negim", "%beta", DR);
      t_.binary("%tau", "complex", "%taure", "%tauim", D);
      t_.binary("%betac", "complex", "%beta", "%zeroDR", D);
      t_.compare("%imzero", "EQ", alphaIm, "%zeroDR", DR, d);
      t_.binary("%identity", "and", "%xzero", "%imzero", t_.type(ElementType::I1, d));
      betaE = "%betac";
      tau = "%tau";
      identity = "%identity";
    }
    t_.binary("%apb", "subtract", "%alpha", betaE, D);
    t_.constant("%oneD", t_.one(), D);
    t_.binary("%scale", "divide", "%oneD", "%apb", D);
    t_.broadcast("%scaleC", "%scale", D, upTo(t_.rank()), C);
    t_.binary("%vbelow0", "multiply", "%below", "%scaleC", C);
    t_.constant("%zeroD", t_.zero(), D);
    t_.select("%tauk", identity, "%zeroD", tau, d, D);
    t_.select("%newdiag", identity, "%alpha", betaE, d, D);
    t_.broadcast("%identityC", identity, t_.type(ElementType::I1, d), upTo(t_.rank()),
                 t_.type(ElementType::I1, column));
    t_.select("%vbelow", "%identityC", "%below", "%vbelow0", column, C);
    // H^H (conj(tau)) applied to the columns right of i.
    std::string applied = "%tauk";
    if (isComplex(t_.element())) {
      t_.conjugate("%taukc", "%tauk", d);
      applied = "%taukc";
    }
    reflect("%vbelow", applied, "%refl");
    // Column i: beta on the diagonal, v below it.
    t_.broadcast("%vS", "%vbelow", C, upTo(t_.rank()), A);
    t_.broadcast("%diagS", "%newdiag", D, upTo(t_.rank()), A);
    t_.select("%next1", "%belowi", "%vS", "%refl", a_.shape, A);
    t_.select("%next", "%diagi", "%diagS", "%next1", a_.shape, A);
    t_.reshape("%tauv", "%tauk", D, t_.type(t_.vector(1)));
    updateVector("%tausnext", "%taus", taus, "%tauv", t_.type(t_.vector(1)), "%i");
    t_.binary("%i1", "add", "%i", "%one", "tensor<i64>");
    t_.loopEnd({"%i1", "%next", "%tausnext"}, {"tensor<i64>", A, taus});
    t_.emit("return %loop#1, %loop#2 : " + A + ", " + taus);
    t_.emit("}");
    return t_.text();
  }

  /// orgqr/ungqr: Q = H(0) ... H(k - 1), its first n columns, from the
  /// reflectors below a's diagonal: applied backwards to the identity's
  /// columns, column i becoming H(i)'s.
  std::string product(const TensorType &taus) {
    const int64_t k = taus.shape.back();
    const std::string A = printType(a_), T = printType(taus);
    t_.emit("func.func private @" + name_ + "(%a: " + A + ", %t: " + T + ") -> " + A + " {");
    common();
    t_.constant("%count", std::to_string(k), "tensor<i64>");
    t_.constant("%last", std::to_string(k - 1), "tensor<i64>");
    // The columns from k on start as the identity's.
    const std::string SI = t_.type(ElementType::I64, a_.shape),
                      mask = t_.type(ElementType::I1, a_.shape);
    t_.constant("%kS", std::to_string(k), SI);
    t_.compare("%beyond", "GE", "%coli", "%kS", SI, a_.shape);
    t_.compare("%ondiag", "EQ", "%rowi", "%coli", SI, a_.shape);
    t_.constant("%onesS", t_.one(), A);
    t_.constant("%zerosS", t_.zero(), A);
    t_.select("%eye", "%ondiag", "%onesS", "%zerosS", a_.shape, A);
    t_.select("%start", "%beyond", "%eye", "%a", a_.shape, A);
    t_.loopHead("%loop", "%c", {{"%x", "%start", A}}, "%count");
    t_.binary("%i", "subtract", "%last", "%c", "tensor<i64>");
    stepMasks();
    const Shape column = t_.matrix(m_, 1), d = t_.matrix(1, 1);
    const std::string C = t_.type(column), D = t_.type(d);
    t_.slice("%col", "%x", a_.shape, "%zero", "%i", m_, 1);
    columnMasks();
    t_.constant("%zeroC", t_.zero(), C);
    t_.select("%vbelow", "%cbelow", "%col", "%zeroC", column, C);
    emitSliceVector("%tau", "%t", taus, "%i");
    t_.reshape("%taud", "%tau", t_.type(t_.vector(1)), D);
    reflect("%vbelow", "%taud", "%refl");
    // Column i: -tau v below the diagonal, 1 - tau on it, 0 above.
    t_.broadcast("%tauC", "%taud", D, upTo(t_.rank()), C);
    t_.binary("%taudv", "multiply", "%vbelow", "%tauC", C);
    t_.unary("%ntv", "negate", "%taudv", C);
    t_.broadcast("%ntvS", "%ntv", C, upTo(t_.rank()), A);
    t_.constant("%oneD", t_.one(), D);
    t_.binary("%omt", "subtract", "%oneD", "%taud", D);
    t_.broadcast("%omtS", "%omt", D, upTo(t_.rank()), A);
    t_.compare("%abovei", "LT", "%rowi", "%iS", SI, a_.shape);
    t_.binary("%colabove", "and", "%abovei", "%coli_eq", mask);
    t_.select("%next1", "%belowi", "%ntvS", "%refl", a_.shape, A);
    t_.select("%next2", "%diagi", "%omtS", "%next1", a_.shape, A);
    t_.select("%next", "%colabove", "%zerosS", "%next2", a_.shape, A);
    t_.binary("%c1", "add", "%c", "%one", "tensor<i64>");
    t_.loopEnd({"%c1", "%next"}, {"tensor<i64>", A});
    t_.emit("return %loop#1 : " + A);
    t_.emit("}");
    return t_.text();
  }

private:
  void common() {
    t_.constant("%zero", "0", "tensor<i64>");
    t_.constant("%one", "1", "tensor<i64>");
    t_.iota("%rowi", true, a_.shape);
    t_.iota("%coli", false, a_.shape);
    t_.iota("%crow", true, t_.matrix(m_, 1));
  }

  /// The masks of step i over the matrix: column i below / on the
  /// diagonal, the rows from i on, the columns right of i.
  void stepMasks() {
    const std::string SI = t_.type(ElementType::I64, a_.shape),
                      mask = t_.type(ElementType::I1, a_.shape);
    t_.broadcast("%iS", "%i", "tensor<i64>", {}, SI);
    t_.compare("%rowgt", "GT", "%rowi", "%iS", SI, a_.shape);
    t_.compare("%rowge", "GE", "%rowi", "%iS", SI, a_.shape);
    t_.compare("%rowi_eq", "EQ", "%rowi", "%iS", SI, a_.shape);
    t_.compare("%coli_eq", "EQ", "%coli", "%iS", SI, a_.shape);
    t_.compare("%colgt", "GT", "%coli", "%iS", SI, a_.shape);
    t_.binary("%belowi", "and", "%rowgt", "%coli_eq", mask);
    t_.binary("%diagi", "and", "%rowi_eq", "%coli_eq", mask);
    t_.binary("%trailing", "and", "%rowge", "%colgt", mask);
  }

  /// `%cbelow`: the rows of a column below i.
  void columnMasks() {
    const Shape column = t_.matrix(m_, 1);
    const std::string CI = t_.type(ElementType::I64, column);
    t_.broadcast("%iC", "%i", "tensor<i64>", {}, CI);
    t_.compare("%cbelow", "GT", "%crow", "%iC", CI, column);
  }

  /// `name` (batch x 1 x 1, real): the 2-norm of the column `x`, scaled by
  /// its largest magnitude so no square overflows or underflows.
  void norm(const std::string &name, const std::string &x) {
    const Shape column = t_.matrix(m_, 1), d = t_.matrix(1, 1), one = t_.vector(1);
    const ElementType re = t_.real();
    const std::string CR = t_.type(re, column), DR = t_.type(re, d), PR = t_.type(re, one);
    t_.emit(name + "abs = stablehlo.abs " + x + " : (" + t_.type(column) + ") -> " + CR);
    t_.constant(name + "zero", "0.0", t_.type(re, {}));
    t_.reduceRows(name + "max", name + "abs", name + "zero", "maximum", re, column);
    t_.constant(name + "zeroP", "0.0", PR);
    t_.constant(name + "oneP", "1.0", PR);
    t_.compare(name + "none", "EQ", name + "max", name + "zeroP", PR, one);
    t_.select(name + "scale", name + "none", name + "oneP", name + "max", one, PR);
    t_.broadcast(name + "scaleC", name + "scale", PR, t_.batchAnd(t_.rank() - 1), CR);
    t_.binary(name + "scaled", "divide", name + "abs", name + "scaleC", CR);
    t_.binary(name + "sq", "multiply", name + "scaled", name + "scaled", CR);
    t_.reduceRows(name + "sum", name + "sq", name + "zero", "add", re, column);
    t_.unary(name + "root", "sqrt", name + "sum", PR);
    t_.binary(name + "norm", "multiply", name + "root", name + "scale", PR);
    t_.reshape(name, name + "norm", PR, DR);
  }

  /// `name` = |(a, b, c)| of real batch x 1 x 1 values (b may be absent),
  /// scaled by the largest (LAPACK's dlapy2 / dlapy3).
  void hypot3(const std::string &name, const std::string &a, const std::string &b,
              const std::string &c) {
    const Shape d = t_.matrix(1, 1);
    const std::string DR = t_.type(t_.real(), d);
    std::vector<std::string> parts = {a, c};
    if (!b.empty())
      parts.push_back(b);
    std::string largest;
    for (size_t p = 0; p < parts.size(); ++p) {
      t_.unary(name + "abs" + std::to_string(p), "abs", parts[p], DR);
      if (p == 0) {
        largest = name + "abs0";
        continue;
      }
      t_.binary(name + "max" + std::to_string(p), "maximum", largest,
                name + "abs" + std::to_string(p), DR);
      largest = name + "max" + std::to_string(p);
    }
    t_.constant(name + "zero", "0.0", DR);
    t_.constant(name + "one", "1.0", DR);
    t_.compare(name + "none", "EQ", largest, name + "zero", DR, d);
    t_.select(name + "w", name + "none", name + "one", largest, d, DR);
    std::string sum;
    for (size_t p = 0; p < parts.size(); ++p) {
      const std::string q = name + "q" + std::to_string(p);
      t_.binary(q, "divide", name + "abs" + std::to_string(p), name + "w", DR);
      t_.binary(q + "sq", "multiply", q, q, DR);
      if (p == 0) {
        sum = q + "sq";
        continue;
      }
      t_.binary(name + "sum" + std::to_string(p), "add", sum, q + "sq", DR);
      sum = name + "sum" + std::to_string(p);
    }
    t_.unary(name + "root", "sqrt", sum, DR);
    t_.binary(name + "scaled", "multiply", name + "w", name + "root", DR);
    t_.select(name, name + "none", name + "zero", name + "scaled", d, DR);
  }

  /// `result`: the matrix with (I - tau v v^H) applied to its rows from i
  /// on, in the columns right of i (v: 1 at row i, `vbelow` below it, 0
  /// above): C - tau v (C^H v)^H.
  void reflect(const std::string &vbelow, const std::string &tau, const std::string &result) {
    const Shape column = t_.matrix(m_, 1), d = t_.matrix(1, 1);
    const std::string A = printType(a_), C = t_.type(column), D = t_.type(d);
    const std::string CI = t_.type(ElementType::I64, column);
    t_.compare("%cati", "EQ", "%crow", "%iC", CI, column);
    t_.constant("%onesC", t_.one(), C);
    t_.select("%v", "%cati", "%onesC", vbelow, column, C);
    t_.broadcast("%vA", "%v", C, upTo(t_.rank()), A);
    std::string conjugated = "%x";
    if (isComplex(t_.element())) {
      t_.conjugate("%xc", "%x", a_.shape);
      conjugated = "%xc";
    }
    t_.binary("%xv", "multiply", conjugated, "%vA", A);
    t_.constant("%zerosA", t_.zero(), A);
    t_.select("%xvlive", "%rowge", "%xv", "%zerosA", a_.shape, A);
    t_.constant("%zeros", t_.zero(), t_.type(t_.element(), {}));
    t_.reduceRows("%w", "%xvlive", "%zeros", "add", t_.element(), a_.shape);
    const std::string W = t_.type(t_.vector(n_));
    std::string w = "%w";
    if (isComplex(t_.element())) {
      t_.conjugate("%wc", "%w", t_.vector(n_));
      w = "%wc";
    }
    t_.broadcast("%wA", w, W, t_.batchAnd(t_.rank() - 1), A);
    t_.broadcast("%tauA", tau, D, upTo(t_.rank()), A);
    t_.binary("%tv", "multiply", "%vA", "%tauA", A);
    t_.binary("%tvw", "multiply", "%tv", "%wA", A);
    t_.binary("%reflected", "subtract", "%x", "%tvw", A);
    t_.select(result, "%trailing", "%reflected", "%x", a_.shape, A);
  }

  /// `name` = taus[.., i] as a batch x 1 vector.
  void emitSliceVector(const std::string &name, const std::string &taus, const TensorType &type,
                       const std::string &index) {
    std::string starts, indexTypes;
    for (size_t dim = 0; dim < t_.batch().size(); ++dim) {
      starts += "%zero, ";
      indexTypes += ", tensor<i64>";
    }
    t_.emit(name + " = stablehlo.dynamic_slice " + taus + ", " + starts + index +
            ", sizes = " + integerList(t_.vector(1)) + " : (" + printType(type) + indexTypes +
            ", tensor<i64>) -> " + t_.type(t_.vector(1)));
  }

  /// `name` = `vector` with `update` (batch x 1) at [.., index].
  void updateVector(const std::string &name, const std::string &vector,
                    const std::string &vectorType, const std::string &update,
                    const std::string &updateType, const std::string &index) {
    std::string starts, indexTypes;
    for (size_t dim = 0; dim < t_.batch().size(); ++dim) {
      starts += "%zero, ";
      indexTypes += ", tensor<i64>";
    }
    t_.emit(name + " = stablehlo.dynamic_update_slice " + vector + ", " + update + ", " + starts +
            index + " : (" + vectorType + ", " + updateType + indexTypes + ", tensor<i64>) -> " +
            vectorType);
  }

  MatrixText t_;
  std::string name_;
  TensorType a_;
  int64_t m_, n_;
};

} // namespace

std::string qrFunctionText(const std::string &name, const TensorType &a) {
  return QrText(name, a).factorization();
}

std::string householderProductText(const std::string &name, const TensorType &a,
                                   const TensorType &taus) {
  return QrText(name, a).product(taus);
}

} // namespace shardgen::mlir
