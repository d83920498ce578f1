// LAPACK's gesdd / gesvd as StableHLO ops (LapackFactorizations.h): the
// one-sided Jacobi method (Hestenes), which orthogonalizes the columns of
// a by plane rotations; their norms are the singular values, the rotations
// multiplied up the right singular vectors. All disjoint pairs of columns
// are rotated at once, in a round-robin order (Brent and Luk): the columns
// kept as two halves, pair i the i-th of each, and the halves moved to the
// tournament's next order between rounds (MatrixText::roundRobinNextHalves,
// eigh's order), so that every pair meets once per sweep.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "compiler/mlir/FunctionExpansion.h"
#include "compiler/mlir/LapackFactorizations.h"
#include "compiler/mlir/MatrixText.h"

namespace shardgen::mlir {

namespace {

class SvdText {
public:
  SvdText(const std::string &name, const TensorType &a, bool vectors, bool full)
      : t_(a.elementType, Shape(a.shape.begin(), a.shape.end() - 2)), name_(name), a_(a),
        m_(a.shape[a.rank() - 2]), n_(a.shape[a.rank() - 1]), rows_(std::max(m_, n_)),
        cols_(std::min(m_, n_)), paired_(cols_ + cols_ % 2), half_(paired_ / 2),
        completed_(full ? rows_ : cols_), vectors_(vectors), full_(full) {}

  std::string function() {
    const std::string A = printType(a_), S = realType(t_.vector(cols_)),
                      U = t_.type(t_.matrix(m_, full_ ? m_ : cols_)),
                      VT = t_.type(t_.matrix(full_ ? n_ : cols_, n_)),
                      info = t_.type(ElementType::I32, t_.batch());
    t_.emit("func.func private @" + name_ + "(%a: " + A + ") -> (" + A + ", " + S + ", " + U +
            ", " + VT + ", " + info + ") {");
    t_.constant("%zero", "0", "tensor<i64>");
    t_.constant("%one", "1", "tensor<i64>");
    t_.constant("%zeroR", "0.0", realType({}));
    scaled();
    // B = a, or a^H for a wide a: rows_ x cols_, then a zero column for an
    // odd count (it never rotates: every pair needs a partner).
    std::string b = "%scaled";
    if (m_ < n_) {
      t_.adjoint("%bt", b, a_.shape);
      b = "%bt";
    }
    if (paired_ > cols_) {
      t_.padWithZeros("%bp", b, t_.matrix(rows_, cols_), t_.matrix(rows_, paired_));
      b = "%bp";
    }
    jacobi(b);
    sortedColumns();
    std::string u = "%uzero", vt = "%vtzero";
    if (!vectors_) { // mode N: LAPACK leaves them alone, JAX drops them
      t_.constant(u, t_.zero(), U);
      t_.constant(vt, t_.zero(), VT);
    } else if (m_ >= n_) {
      completedColumns();
      u = "%completed";
      t_.adjoint("%vt", "%vk", t_.matrix(cols_, cols_));
      vt = "%vt";
    } else { // a^H = W S V^H, so a = V S W^H
      completedColumns();
      u = "%vk";
      t_.adjoint("%vt", "%completed", t_.matrix(rows_, completed_));
      vt = "%vt";
    }
    t_.constant("%info", "0", info);
    t_.emit("return %a, %sigma, " + u + ", " + vt + ", %info : " + A + ", " + S + ", " + U + ", " +
            VT + ", " + info);
    t_.emit("}");
    std::string text = t_.text();
    if (vectors_) {
      const TensorType square{a_.elementType, t_.matrix(rows_, completed_)};
      text += qrFunctionText(name_ + ".geqrf", square);
      text += householderProductText(name_ + ".orgqr", square,
                                     TensorType{a_.elementType, t_.vector(completed_)});
    }
    return text;
  }

private:
  std::string realType(const Shape &shape) const { return t_.type(t_.real(), shape); }

  /// `%name`: |x|^2 of `x` (of `shape`), real.
  void squared(const std::string &name, const std::string &x, const Shape &shape) {
    const std::string R = realType(shape);
    if (!isComplex(a_.elementType)) {
      t_.binary(name, "multiply", x, x, R);
      return;
    }
    const std::string C = t_.type(shape);
    t_.emit(name + "re = stablehlo.real " + x + " : (" + C + ") -> " + R);
    t_.emit(name + "im = stablehlo.imag " + x + " : (" + C + ") -> " + R);
    t_.binary(name + "re2", "multiply", name + "re", name + "re", R);
    t_.binary(name + "im2", "multiply", name + "im", name + "im", R);
    t_.binary(name, "add", name + "re2", name + "im2", R);
  }

  /// `%scaled`: a over the largest |a_ij| of its matrix (`%scale`, 1 for a
  /// zero matrix), so that no sum of squares overflows or underflows.
  void scaled() {
    const Shape &s = a_.shape;
    const std::string AR = realType(s), R = realType(t_.batch()), A = printType(a_);
    if (isComplex(a_.elementType))
      t_.emit("%mag = stablehlo.abs %a : (" + A + ") -> " + AR);
    else
      t_.unary("%mag", "abs", "%a", AR);
    t_.reduceDims("%amax", "%mag", "%zeroR", "maximum", t_.real(), s,
                  {t_.rank() - 2, t_.rank() - 1});
    t_.constant("%zeroB", "0.0", R);
    t_.constant("%oneB", "1.0", R);
    t_.compare("%iszero", "EQ", "%amax", "%zeroB", R, t_.batch());
    t_.select("%scale", "%iszero", "%oneB", "%amax", t_.batch(), R);
    t_.broadcast("%scaleA", "%scale", R, upTo(t_.rank() - 2), AR);
    t_.scaleByReal("%scaled", "%a", "%scaleA", s, "divide");
  }

  /// The Jacobi sweeps over `b` (rows_ x paired_), its columns kept as
  /// the round-robin's two halves (pair i the i-th of each): `%sweep#1`/`#2`
  /// the halves of W = B V, `#3`/`#4` of V, `#5`/`#6` which column of B
  /// each is.
  void jacobi(const std::string &b) {
    const ElementType e = a_.elementType;
    const Shape all = t_.matrix(rows_, paired_), square = t_.matrix(paired_, paired_),
                half = t_.matrix(rows_, half_), vhalf = t_.matrix(paired_, half_), idHalf = {half_};
    const std::string H = t_.type(half), VH = t_.type(vhalf),
                      IH = "tensor<" + std::to_string(half_) + "xi64>", flag = "tensor<i1>";
    const int64_t last = t_.rank() - 1;
    t_.sliceAlong("%top0", b, e, all, last, 0, half_);
    t_.sliceAlong("%bot0", b, e, all, last, half_, paired_);
    t_.identity("%v0", square);
    t_.sliceAlong("%vtop0", "%v0", e, square, last, 0, half_);
    t_.sliceAlong("%vbot0", "%v0", e, square, last, half_, paired_);
    const std::string ids = "tensor<" + std::to_string(paired_) + "xi64>";
    t_.emit("%ids = stablehlo.iota dim = 0 : " + ids);
    t_.sliceAlong("%idtop0", "%ids", ElementType::I64, {paired_}, 0, 0, half_);
    t_.sliceAlong("%idbot0", "%ids", ElementType::I64, {paired_}, 0, half_, paired_);
    t_.constant("%falseS", "false", flag);
    t_.constant("%maxsweeps", std::to_string(kJacobiMaxSweeps), "tensor<i64>");
    t_.constant("%rounds", std::to_string(paired_ - 1), "tensor<i64>");
    // Pairs closer to orthogonal than LAPACK's gesvj asks (sqrt(rows) eps)
    // are left as they are; a sweep that rotates none ends the loop.
    const bool single = t_.real() == ElementType::F32;
    const double epsilon = single ? 1.1920928955078125e-07 : 2.220446049250313e-16;
    char tolerance[32];
    std::snprintf(tolerance, sizeof tolerance, "%.9e", epsilon * std::sqrt(double(rows_)));
    t_.constant("%tol", tolerance, realType(t_.vector(half_)));
    const std::vector<std::string> types = {"tensor<i64>", H, H, VH, VH, IH, IH, flag};
    t_.loopHeadUntil("%sweep", "%sw",
                     {{"%st", "%top0", H},
                      {"%sb", "%bot0", H},
                      {"%svt", "%vtop0", VH},
                      {"%svb", "%vbot0", VH},
                      {"%sit", "%idtop0", IH},
                      {"%sib", "%idbot0", IH},
                      {"%sdone", "%falseS", flag}},
                     "%maxsweeps", "%sdone");
    t_.loopHead("%round", "%rd",
                {{"%rt", "%st", H},
                 {"%rb", "%sb", H},
                 {"%rvt", "%svt", VH},
                 {"%rvb", "%svb", VH},
                 {"%rit", "%sit", IH},
                 {"%rib", "%sib", IH},
                 {"%rrot", "%falseS", flag}},
                "%rounds");
    rotatePairs(half, vhalf);
    t_.binary("%rrot1", "or", "%rrot", "%rotany", flag);
    const auto w = t_.roundRobinNextHalves("%pw", "%nt", "%nb", e, half, last);
    const auto v = t_.roundRobinNextHalves("%pv", "%nvt", "%nvb", e, vhalf, last);
    const auto next = t_.roundRobinNextHalves("%pi", "%rit", "%rib", ElementType::I64, idHalf, 0);
    t_.binary("%rd1", "add", "%rd", "%one", "tensor<i64>");
    t_.loopEnd({"%rd1", w.first, w.second, v.first, v.second, next.first, next.second, "%rrot1"},
               types);
    t_.unary("%done", "not", "%round#7", flag);
    t_.binary("%sw1", "add", "%sw", "%one", "tensor<i64>");
    t_.loopEnd(
        {"%sw1", "%round#1", "%round#2", "%round#3", "%round#4", "%round#5", "%round#6", "%done"},
        types);
  }

  /// The round's rotations: `%nt`, `%nb` (W's halves, `half`) and `%nvt`,
  /// `%nvb` (V's, `vhalf`) from `%rt`, `%rb`, `%rvt`, `%rvb`; `%rotany`
  /// whether any pair of any matrix rotated.
  void rotatePairs(const Shape &half, const Shape &vhalf) {
    const ElementType e = a_.elementType, re = t_.real();
    const Shape pairs = t_.vector(half_);
    const std::string P = realType(pairs), H = t_.type(half), VH = t_.type(vhalf);
    // The 2 x 2 Gram matrix of each pair: alpha, beta on the diagonal,
    // gamma = top^H bot beside it.
    squared("%tsq", "%rt", half);
    squared("%bsq", "%rb", half);
    t_.reduceRows("%alpha", "%tsq", "%zeroR", "add", re, half);
    t_.reduceRows("%beta", "%bsq", "%zeroR", "add", re, half);
    std::string top = "%rt";
    if (isComplex(e)) {
      t_.conjugate("%ct", "%rt", half);
      top = "%ct";
    }
    t_.binary("%tb", "multiply", top, "%rb", H);
    t_.constant("%zeroE", t_.zero(), t_.type(e, {}));
    t_.reduceRows("%gamma", "%tb", "%zeroE", "add", e, half);
    if (isComplex(e))
      t_.emit("%g = stablehlo.abs %gamma : (" + t_.type(pairs) + ") -> " + P);
    else
      t_.unary("%g", "abs", "%gamma", P);
    angles(pairs);
    // On complex numbers, bot times conj(gamma / |gamma|) first: then
    // top^H bot is real, |gamma|.
    std::string bot = "%rb", vbot = "%rvb";
    if (isComplex(e)) {
      t_.emit("%gre = stablehlo.real %gamma : (" + t_.type(pairs) + ") -> " + P);
      t_.emit("%gim = stablehlo.imag %gamma : (" + t_.type(pairs) + ") -> " + P);
      t_.binary("%phre0", "divide", "%gre", "%safeg", P);
      t_.binary("%phim0", "divide", "%gim", "%safeg", P);
      t_.unary("%phimn", "negate", "%phim0", P);
      t_.select("%phre", "%rot", "%phre0", "%onesP", pairs, P);
      t_.select("%phim", "%rot", "%phimn", "%zerosP", pairs, P);
      t_.binary("%phase", "complex", "%phre", "%phim", t_.type(pairs));
      t_.broadcast("%phaseH", "%phase", t_.type(pairs), t_.batchAnd(t_.rank() - 1), H);
      t_.broadcast("%phaseV", "%phase", t_.type(pairs), t_.batchAnd(t_.rank() - 1), VH);
      t_.binary("%be", "multiply", "%rb", "%phaseH", H);
      t_.binary("%vbe", "multiply", "%rvb", "%phaseV", VH);
      bot = "%be";
      vbot = "%vbe";
    }
    rotate("%n", "%rt", bot, half);
    rotate("%nv", "%rvt", vbot, vhalf);
  }

  /// From the pairs' `%alpha`, `%beta`, `%gamma` and `%g` = |gamma|:
  /// `%rot` (the pairs rotated: gamma above the tolerance), `%rotany`, and
  /// the rotations' `%cos`, `%sin` and `%tau` = s / (1 + c). The rotation
  /// zeroes gamma: zeta = (beta - alpha) / 2 gamma, t the smaller root of
  /// t^2 + 2 zeta t - 1 (sign(zeta) / (|zeta| + sqrt(1 + zeta^2)): an
  /// infinite root gives t = 0), c = 1 / sqrt(1 + t^2), s = t c; a pair left
  /// alone gets c = 1, s = 0.
  void angles(const Shape &pairs) {
    const std::string P = realType(pairs);
    t_.unary("%sqa", "sqrt", "%alpha", P);
    t_.unary("%sqb", "sqrt", "%beta", P);
    t_.binary("%lim0", "multiply", "%sqa", "%sqb", P);
    t_.binary("%lim", "multiply", "%lim0", "%tol", P);
    t_.compare("%rot", "GT", "%g", "%lim", P, pairs);
    t_.reduceDims("%rotany", "%rot", "%falseS", "or", ElementType::I1, pairs, upTo(t_.rank() - 1));
    t_.constant("%onesP", "1.0", P);
    t_.constant("%zerosP", "0.0", P);
    t_.constant("%twosP", "2.0", P);
    // gamma itself on reals; on complex numbers |gamma|, once bot is turned
    // by gamma's phase.
    t_.select("%safeg", "%rot", isComplex(a_.elementType) ? "%g" : "%gamma", "%onesP", pairs, P);
    t_.binary("%diff", "subtract", "%beta", "%alpha", P);
    t_.binary("%twog", "multiply", "%safeg", "%twosP", P);
    t_.binary("%zeta", "divide", "%diff", "%twog", P);
    t_.unary("%azeta", "abs", "%zeta", P);
    t_.binary("%zeta2", "multiply", "%zeta", "%zeta", P);
    t_.binary("%zeta21", "add", "%zeta2", "%onesP", P);
    t_.unary("%zroot", "sqrt", "%zeta21", P);
    t_.binary("%tden", "add", "%azeta", "%zroot", P);
    t_.binary("%tabs", "divide", "%onesP", "%tden", P);
    t_.unary("%tneg", "negate", "%tabs", P);
    t_.compare("%zpos", "GE", "%zeta", "%zerosP", P, pairs);
    t_.select("%tan", "%zpos", "%tabs", "%tneg", pairs, P);
    t_.binary("%tan2", "multiply", "%tan", "%tan", P);
    t_.binary("%tan21", "add", "%tan2", "%onesP", P);
    t_.unary("%troot", "sqrt", "%tan21", P);
    t_.binary("%c0", "divide", "%onesP", "%troot", P);
    t_.binary("%s0", "multiply", "%tan", "%c0", P);
    t_.select("%cos", "%rot", "%c0", "%onesP", pairs, P);
    t_.select("%sin", "%rot", "%s0", "%zerosP", pairs, P);
    t_.binary("%cos1", "add", "%cos", "%onesP", P);
    t_.binary("%tau", "divide", "%sin", "%cos1", P);
  }

  /// `<name>t` = c top - s bot, `<name>b` = s top + c bot, of `shape`, in
  /// Rutishauser's form: top - s (bot + tau top) and bot + s (top - tau
  /// bot), tau = s / (1 + c), whose rounding errors are small against the
  /// change (the plain form lost about n eps of V's orthogonality over the
  /// sweeps of an n-column matrix, this one a few eps).
  void rotate(const std::string &name, const std::string &top, const std::string &bot,
              const Shape &shape) {
    const std::string X = t_.type(shape), XR = realType(shape), P = realType(t_.vector(half_));
    t_.broadcast(name + "tau", "%tau", P, t_.batchAnd(t_.rank() - 1), XR);
    t_.broadcast(name + "sin", "%sin", P, t_.batchAnd(t_.rank() - 1), XR);
    t_.scaleByReal(name + "taut", top, name + "tau", shape);
    t_.binary(name + "sum", "add", bot, name + "taut", X);
    t_.scaleByReal(name + "ssum", name + "sum", name + "sin", shape);
    t_.binary(name + "t", "subtract", top, name + "ssum", X);
    t_.scaleByReal(name + "taub", bot, name + "tau", shape);
    t_.binary(name + "dif", "subtract", top, name + "taub", X);
    t_.scaleByReal(name + "sdif", name + "dif", name + "sin", shape);
    t_.binary(name + "b", "add", bot, name + "sdif", X);
  }

  /// `%sorted_<name>#1`: the columns of `x` (of `shape`) in descending
  /// order of `key0` (a vector of paired_), ties kept in order.
  void sortColumns(const std::string &name, const std::string &key0, const std::string &x,
                   const Shape &shape, ElementType element) {
    const std::string R = realType({}), E = t_.type(element, {}), X = t_.type(element, shape),
                      K = realType(shape);
    std::string key = key0;
    if (shape.size() > t_.batch().size() + 1) {
      t_.broadcast("%key_" + name, key0, realType(t_.vector(paired_)), t_.batchAnd(t_.rank() - 1),
                   K);
      key = "%key_" + name;
    }
    const std::string s = "%sorted_" + name;
    t_.emit(s + ":2 = \"stablehlo.sort\"(" + key + ", " + x + ") <{dimension = " +
            std::to_string(shape.size() - 1) + " : i64, is_stable = true}> ({");
    t_.emit("^bb0(" + s + "a: " + R + ", " + s + "b: " + R + ", " + s + "c: " + E + ", " + s +
            "d: " + E + "):");
    t_.emit("  " + s + "gt = stablehlo.compare GT, " + s + "a, " + s + "b, TOTALORDER : (" + R +
            ", " + R + ") -> tensor<i1>");
    t_.emit("  stablehlo.return " + s + "gt : tensor<i1>");
    t_.emit("}) : (" + K + ", " + X + ") -> (" + K + ", " + X + ")");
  }

  /// `%sigma` (scaled back), `%wk` (rows_ x cols_) and `%vk` (cols_ x
  /// cols_): the singular values in descending order, W's and V's columns
  /// in the same order, the padding column dropped.
  void sortedColumns() {
    const ElementType e = a_.elementType;
    const Shape all = t_.matrix(rows_, paired_), square = t_.matrix(paired_, paired_),
                sigmas = t_.vector(paired_);
    const Shape half = t_.matrix(rows_, half_), vhalf = t_.matrix(paired_, half_);
    const int64_t last = t_.rank() - 1;
    t_.concatenate("%w", {{"%sweep#1", half}, {"%sweep#2", half}}, e, last);
    t_.concatenate("%v", {{"%sweep#3", vhalf}, {"%sweep#4", vhalf}}, e, last);
    squared("%wsq", "%w", all);
    t_.reduceRows("%sig2", "%wsq", "%zeroR", "add", t_.real(), all);
    t_.unary("%sig", "sqrt", "%sig2", realType(sigmas));
    std::string key = "%sig";
    if (paired_ > cols_) { // the padding column sorts last
      const std::string ids = t_.type(ElementType::I64, sigmas);
      t_.concatenate("%idsout", {{"%sweep#5", {half_}}, {"%sweep#6", {half_}}}, ElementType::I64,
                     0);
      t_.broadcast("%idsB", "%idsout", "tensor<" + std::to_string(paired_) + "xi64>",
                   {t_.rank() - 2}, ids);
      t_.constant("%padid", std::to_string(cols_), ids);
      t_.compare("%ispad", "EQ", "%idsB", "%padid", ids, sigmas);
      t_.constant("%minusones", "-1.0", realType(sigmas));
      t_.select("%key", "%ispad", "%minusones", "%sig", sigmas, realType(sigmas));
      key = "%key";
    }
    sortColumns("s", key, "%sig", sigmas, t_.real());
    sortColumns("w", key, "%w", all, e);
    sortColumns("v", key, "%v", square, e);
    t_.sliceAlong("%sigk", "%sorted_s#1", t_.real(), sigmas, t_.rank() - 2, 0, cols_);
    const std::string S = realType(t_.vector(cols_));
    t_.broadcast("%scaleS", "%scale", realType(t_.batch()), upTo(t_.rank() - 2), S);
    t_.binary("%sigma", "multiply", "%sigk", "%scaleS", S);
    t_.sliceCorner("%wk", "%sorted_w#1", all, t_.matrix(rows_, cols_));
    t_.sliceCorner("%vk", "%sorted_v#1", square, t_.matrix(cols_, cols_));
  }

  /// `%completed` (rows_ x completed_): W's columns over their norms, and
  /// where a norm is 0, or beyond W's columns, orthonormal columns
  /// completing them: Q of the Householder QR of those columns (zeros
  /// after them), whose first columns are the W's up to sign.
  void completedColumns() {
    const Shape wk = t_.matrix(rows_, cols_), out = t_.matrix(rows_, completed_);
    const std::string WR = realType(wk), W = t_.type(wk), O = t_.type(out),
                      taus = t_.type(t_.vector(completed_));
    t_.broadcast("%sigW", "%sigk", realType(t_.vector(cols_)), t_.batchAnd(t_.rank() - 1), WR);
    t_.constant("%zerosW", "0.0", WR);
    t_.constant("%onesW", "1.0", WR);
    t_.compare("%posW", "GT", "%sigW", "%zerosW", WR, wk);
    t_.select("%safesig", "%posW", "%sigW", "%onesW", wk, WR);
    t_.scaleByReal("%unit", "%wk", "%safesig", wk, "divide");
    t_.constant("%zerosE", t_.zero(), W);
    t_.select("%units", "%posW", "%unit", "%zerosE", wk, W);
    std::string x = "%units", valid = "%posW";
    if (completed_ > cols_) {
      const std::string SC = realType(t_.vector(completed_)), OR = realType(out);
      t_.padWithZeros("%unitsp", "%units", wk, out);
      t_.padWithZeros("%sigc", "%sigk", t_.real(), t_.vector(cols_), t_.vector(completed_));
      t_.broadcast("%sigO", "%sigc", SC, t_.batchAnd(t_.rank() - 1), OR);
      t_.constant("%zerosO", "0.0", OR);
      t_.compare("%posO", "GT", "%sigO", "%zerosO", OR, out);
      x = "%unitsp";
      valid = "%posO";
    }
    t_.emit("%qr:2 = call @" + name_ + ".geqrf(" + x + ") : (" + O + ") -> (" + O + ", " + taus +
            ")");
    t_.emit("%q = call @" + name_ + ".orgqr(%qr#0, %qr#1) : (" + O + ", " + taus + ") -> " + O);
    t_.select("%completed", valid, x, "%q", out, O);
  }

  MatrixText t_;
  std::string name_;
  TensorType a_;
  int64_t m_, n_, rows_, cols_, paired_, half_, completed_;
  bool vectors_, full_;
};

} // namespace

std::string svdFunctionText(const std::string &name, const TensorType &a, bool vectors, bool full) {
  return SvdText(name, a, vectors, full).function();
}

} // namespace shardgen::mlir
