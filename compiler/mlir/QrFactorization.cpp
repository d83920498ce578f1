// LAPACK's geqrf and orgqr/ungqr as StableHLO ops (LapackFactorizations.h):
// Householder reflectors H = I - tau v v^H (v = 1 at the step's row, 0
// above), a column per step over a panel under masks; above the panel
// width, the panel's reflectors applied to the rest at once as
// I - V T V^H (LAPACK's compact WY form, dlarft / dlarfb).
#include <algorithm>

#include "compiler/mlir/FunctionExpansion.h"
#include "compiler/mlir/LapackFactorizations.h"
#include "compiler/mlir/MatrixText.h"

namespace shardgen::mlir {

namespace {

class QrText {
public:
  QrText(const std::string &name, const TensorType &a, int64_t reflectors)
      : t_(a.elementType, Shape(a.shape.begin(), a.shape.end() - 2)), name_(name), a_(a),
        m_(a.shape[a.rank() - 2]), n_(a.shape[a.rank() - 1]), k_(reflectors),
        width_(lapackPanelWidth(reflectors)), panels_((k_ + width_ - 1) / width_),
        np_(std::max(n_, panels_ * width_)) {}

  /// geqrf: R on and above the diagonal, the reflectors' v below it, tau.
  std::string factorization() {
    const std::string A = printType(a_), taus = t_.type(t_.vector(k_));
    t_.emit("func.func private @" + name_ + "(%a: " + A + ") -> (" + A + ", " + taus + ") {");
    common();
    if (k_ <= width_) {
      t_.constant("%taus0", t_.zero(), taus);
      t_.constant("%steps", std::to_string(k_), "tensor<i64>");
      factorPanel("%a", n_, "%zero", "%steps", "%taus0", k_);
      t_.emit("return %panel#1, %panel#2 : " + A + ", " + taus);
    } else {
      const Shape full = t_.matrix(m_, np_), panel = t_.matrix(m_, width_);
      const std::string F = t_.type(full), paddedTaus = t_.type(t_.vector(panels_ * width_));
      t_.padWithZeros("%padded", "%a", a_.shape, full);
      t_.constant("%taus0", t_.zero(), paddedTaus);
      t_.constant("%steps", std::to_string(k_), "tensor<i64>");
      t_.constant("%panels", std::to_string(panels_), "tensor<i64>");
      t_.constant("%width", std::to_string(width_), "tensor<i64>");
      t_.loopHead("%outer", "%ob", {{"%o_a", "%padded", F}, {"%o_taus", "%taus0", paddedTaus}},
                  "%panels");
      t_.binary("%j0", "multiply", "%ob", "%width", "tensor<i64>");
      t_.binary("%left", "subtract", "%steps", "%j0", "tensor<i64>");
      t_.binary("%limit", "minimum", "%left", "%width", "tensor<i64>");
      t_.slice("%panel0", "%o_a", full, "%zero", "%j0", m_, width_);
      factorPanel("%panel0", width_, "%j0", "%limit", "%o_taus", panels_ * width_);
      t_.update("%withpanel", "%o_a", F, "%panel#1", t_.type(panel), "%zero", "%j0");
      t_.sliceVector("%blocktaus", "%panel#2", t_.element(), panels_ * width_, "%j0", width_);
      blockReflector("%panel#1", "%blocktaus", "%limit");
      // Q^H = I - V T^H V^H on the columns right of the panel.
      applyBlock("%withpanel", full, true, "%j0", "%width", "%o_next");
      t_.binary("%ob1", "add", "%ob", "%one", "tensor<i64>");
      t_.loopEnd({"%ob1", "%o_next", "%panel#2"}, {"tensor<i64>", F, paddedTaus});
      t_.sliceCorner("%factored", "%outer#1", full, a_.shape);
      t_.sliceVector("%tausout", "%outer#2", t_.element(), panels_ * width_, "%zero", k_);
      t_.emit("return %factored, %tausout : " + A + ", " + taus);
    }
    t_.emit("}");
    return t_.text();
  }

  /// orgqr/ungqr: Q = H(0) ... H(k - 1), its first n columns, from the
  /// reflectors below a's diagonal: applied backwards to the identity's
  /// columns, column i becoming H(i)'s.
  std::string product(const TensorType &taus) {
    const std::string A = printType(a_), T = printType(taus);
    t_.emit("func.func private @" + name_ + "(%a: " + A + ", %t: " + T + ") -> " + A + " {");
    common();
    // The columns from k on start as the identity's.
    const std::string SI = t_.type(ElementType::I64, a_.shape);
    t_.identity("%eye", a_.shape);
    t_.constant("%kS", std::to_string(k_), SI);
    t_.compare("%beyond", "GE", "%eyecol", "%kS", SI, a_.shape);
    t_.select("%start", "%beyond", "%eye", "%a", a_.shape, A);
    if (k_ <= width_) {
      t_.constant("%count", std::to_string(k_), "tensor<i64>");
      productPanel("%start", n_, "%zero", "%count", "", "%t", k_);
      t_.emit("return %panel#1 : " + A);
    } else {
      // The blocks last to first: the block's reflectors applied at once to
      // the columns right of its own (I - V T V^H), then its own columns
      // made a column per step.
      const Shape full = t_.matrix(m_, np_), panel = t_.matrix(m_, width_);
      const std::string F = t_.type(full);
      t_.padWithZeros("%padded", "%start", a_.shape, full);
      t_.padWithZeros("%tp", "%t", taus.shape, t_.vector(panels_ * width_));
      t_.constant("%reflectors", std::to_string(k_), "tensor<i64>");
      t_.constant("%panels", std::to_string(panels_), "tensor<i64>");
      t_.constant("%lastpanel", std::to_string(panels_ - 1), "tensor<i64>");
      t_.constant("%width", std::to_string(width_), "tensor<i64>");
      t_.loopHead("%outer", "%ob", {{"%o_a", "%padded", F}}, "%panels");
      t_.binary("%b", "subtract", "%lastpanel", "%ob", "tensor<i64>");
      t_.binary("%j0", "multiply", "%b", "%width", "tensor<i64>");
      t_.binary("%left", "subtract", "%reflectors", "%j0", "tensor<i64>");
      t_.binary("%limit", "minimum", "%left", "%width", "tensor<i64>");
      t_.slice("%vpanel", "%o_a", full, "%zero", "%j0", m_, width_);
      t_.sliceVector("%blocktaus", "%tp", t_.element(), panels_ * width_, "%j0", width_);
      blockReflector("%vpanel", "%blocktaus", "%limit");
      applyBlock("%o_a", full, false, "%j0", "%limit", "%applied");
      t_.slice("%panel0", "%applied", full, "%zero", "%j0", m_, width_);
      productPanel("%panel0", width_, "%j0", "%limit", "%limit", "%tp", panels_ * width_);
      t_.update("%o_next", "%applied", F, "%panel#1", t_.type(panel), "%zero", "%j0");
      t_.binary("%ob1", "add", "%ob", "%one", "tensor<i64>");
      t_.loopEnd({"%ob1", "%o_next"}, {"tensor<i64>", F});
      t_.sliceCorner("%q", "%outer#1", full, a_.shape);
      t_.emit("return %q : " + A);
    }
    t_.emit("}");
    return t_.text();
  }

private:
  void common() {
    t_.constant("%zero", "0", "tensor<i64>");
    t_.constant("%one", "1", "tensor<i64>");
  }

  /// The masks of step i (global row; `%j` the panel's column) over a panel
  /// of `s`: column j below / on the diagonal, the rows from i on, the
  /// columns right of j (up to `columnLimit`, if given).
  void stepMasks(const Shape &s, const std::string &columnLimit) {
    const std::string SI = t_.type(ElementType::I64, s), mask = t_.type(ElementType::I1, s);
    t_.panelMasks(s, "%i", "%j");
    t_.compare("%rowge", "GE", "%prow", "%rowS", SI, s);
    t_.compare("%rowlt", "LT", "%prow", "%rowS", SI, s);
    t_.binary("%above", "and", "%rowlt", "%colat", mask);
    std::string right = "%colgt";
    if (!columnLimit.empty()) {
      t_.broadcast("%limitS", columnLimit, "tensor<i64>", {}, SI);
      t_.compare("%collt", "LT", "%pcol", "%limitS", SI, s);
      t_.binary("%colright", "and", "%colgt", "%collt", mask);
      right = "%colright";
    }
    t_.binary("%reflected_cols", "and", "%rowge", right, mask);
    // The rows of a column below i.
    const Shape column = t_.matrix(m_, 1);
    const std::string CI = t_.type(ElementType::I64, column);
    t_.broadcast("%iC", "%i", "tensor<i64>", {}, CI);
    t_.compare("%cbelow", "GT", "%crow", "%iC", CI, column);
    t_.compare("%cati", "EQ", "%crow", "%iC", CI, column);
  }

  /// The iotas of a panel of `width` columns.
  void panelIotas(int64_t width) {
    t_.iota("%prow", true, t_.matrix(m_, width));
    t_.iota("%pcol", false, t_.matrix(m_, width));
    t_.iota("%crow", true, t_.matrix(m_, 1));
  }

  /// `%panel`: geqr2 on `panel` (m x width, its columns from `offset` on;
  /// `limit` steps): dlarfg's reflector of each column, H^H applied to the
  /// panel's columns right of it; carries the taus (`length` of them).
  void factorPanel(const std::string &panel, int64_t width, const std::string &offset,
                   const std::string &limit, const std::string &taus0, int64_t length) {
    const Shape s = t_.matrix(m_, width), column = t_.matrix(m_, 1), d = t_.matrix(1, 1);
    const std::string S = t_.type(s), C = t_.type(column), D = t_.type(d),
                      DR = t_.type(t_.real(), d), taus = t_.type(t_.vector(length));
    panelIotas(width);
    t_.constant("%zeroC", t_.zero(), C);
    t_.constant("%zeroDR", "0.0", DR);
    t_.constant("%oneD", t_.one(), D);
    t_.constant("%zeroD", t_.zero(), D);
    t_.loopHead("%panel", "%j", {{"%x", panel, S}, {"%taus", taus0, taus}}, limit);
    t_.binary("%i", "add", offset, "%j", "tensor<i64>");
    stepMasks(s, "");
    // dlarfg: alpha = x_ij, the column below it x; beta = -sign(re alpha)
    // |(alpha, |x|)|, tau = (beta - alpha) / beta (on complex: ((beta -
    // re) / beta, -im / beta)), v = x / (alpha - beta); H = I where x = 0
    // and alpha is real.
    t_.slice("%col", "%x", s, "%zero", "%j", m_, 1);
    t_.slice("%alpha", "%x", s, "%i", "%j", 1, 1);
    t_.select("%xbelow", "%cbelow", "%col", "%zeroC", column, C);
    norm("%xnorm", "%xbelow");
    std::string alphaRe = "%alpha", alphaIm;
    if (isComplex(t_.element())) {
      t_.emit("%alphare = stablehlo.real %alpha : (" + D + ") -> " + DR);
      t_.emit("%alphaim = stablehlo.imag %alpha : (" + D + ") -> " + DR);
      alphaRe = "%alphare";
      alphaIm = "%alphaim";
      hypot("%size", {"%alphare", "%alphaim", "%xnorm"});
    } else {
      hypot("%size", {"%alpha", "%xnorm"});
    }
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
    t_.binary("%scale", "divide", "%oneD", "%apb", D);
    t_.broadcast("%scaleC", "%scale", D, upTo(t_.rank()), C);
    t_.binary("%vbelow0", "multiply", "%xbelow", "%scaleC", C);
    t_.select("%tauk", identity, "%zeroD", tau, d, D);
    t_.select("%newdiag", identity, "%alpha", betaE, d, D);
    t_.broadcast("%identityC", identity, t_.type(ElementType::I1, d), upTo(t_.rank()),
                 t_.type(ElementType::I1, column));
    t_.select("%vbelow", "%identityC", "%xbelow", "%vbelow0", column, C);
    // H^H (conj(tau)) applied to the columns right of j.
    std::string applied = "%tauk";
    if (isComplex(t_.element())) {
      t_.conjugate("%taukc", "%tauk", d);
      applied = "%taukc";
    }
    reflect(s, "%vbelow", applied, "%refl");
    // Column j: beta on the diagonal, v below it.
    t_.broadcast("%vbelowS", "%vbelow", C, upTo(t_.rank()), S);
    t_.broadcast("%diagS", "%newdiag", D, upTo(t_.rank()), S);
    t_.select("%next1", "%below", "%vbelowS", "%refl", s, S);
    t_.select("%next", "%diag", "%diagS", "%next1", s, S);
    t_.reshape("%tauv", "%tauk", D, t_.type(t_.vector(1)));
    t_.updateVector("%tausnext", "%taus", t_.element(), length, "%tauv", 1, "%i");
    t_.binary("%j1", "add", "%j", "%one", "tensor<i64>");
    t_.loopEnd({"%j1", "%next", "%tausnext"}, {"tensor<i64>", S, taus});
  }

  /// `%panel`: org2r on `panel` (m x width, its columns from `offset` on):
  /// its first `limit` columns' reflectors applied last to first, each to
  /// the columns right of its own (up to `columnLimit`, if given), its
  /// column then H(i)'s.
  void productPanel(const std::string &panel, int64_t width, const std::string &offset,
                    const std::string &limit, const std::string &columnLimit,
                    const std::string &taus, int64_t length) {
    const Shape s = t_.matrix(m_, width), column = t_.matrix(m_, 1), d = t_.matrix(1, 1);
    const std::string S = t_.type(s), C = t_.type(column), D = t_.type(d);
    panelIotas(width);
    t_.constant("%zeroC", t_.zero(), C);
    t_.constant("%oneD", t_.one(), D);
    t_.constant("%pzeros", t_.zero(), S);
    t_.binary("%lastj", "subtract", limit, "%one", "tensor<i64>");
    t_.loopHead("%panel", "%c", {{"%x", panel, S}}, limit);
    t_.binary("%j", "subtract", "%lastj", "%c", "tensor<i64>");
    t_.binary("%i", "add", offset, "%j", "tensor<i64>");
    stepMasks(s, columnLimit);
    t_.slice("%col", "%x", s, "%zero", "%j", m_, 1);
    t_.select("%vbelow", "%cbelow", "%col", "%zeroC", column, C);
    t_.sliceVector("%tau", taus, t_.element(), length, "%i", 1);
    t_.reshape("%taud", "%tau", t_.type(t_.vector(1)), D);
    reflect(s, "%vbelow", "%taud", "%refl");
    // Column j: -tau v below the diagonal, 1 - tau on it, 0 above.
    t_.broadcast("%tauC", "%taud", D, upTo(t_.rank()), C);
    t_.binary("%taudv", "multiply", "%vbelow", "%tauC", C);
    t_.unary("%ntv", "negate", "%taudv", C);
    t_.broadcast("%ntvS", "%ntv", C, upTo(t_.rank()), S);
    t_.binary("%omt", "subtract", "%oneD", "%taud", D);
    t_.broadcast("%omtS", "%omt", D, upTo(t_.rank()), S);
    t_.select("%next1", "%below", "%ntvS", "%refl", s, S);
    t_.select("%next2", "%diag", "%omtS", "%next1", s, S);
    t_.select("%next", "%above", "%pzeros", "%next2", s, S);
    t_.binary("%c1", "add", "%c", "%one", "tensor<i64>");
    t_.loopEnd({"%c1", "%next"}, {"tensor<i64>", S});
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

  /// `name` = |parts| of real batch x 1 x 1 values, scaled by the largest
  /// (LAPACK's dlapy2 / dlapy3).
  void hypot(const std::string &name, const std::vector<std::string> &parts) {
    const Shape d = t_.matrix(1, 1);
    const std::string DR = t_.type(t_.real(), d);
    std::string largest;
    for (size_t p = 0; p < parts.size(); ++p) {
      const std::string abs = name + "abs" + std::to_string(p);
      t_.unary(abs, "abs", parts[p], DR);
      if (p == 0) {
        largest = abs;
        continue;
      }
      t_.binary(name + "max" + std::to_string(p), "maximum", largest, abs, DR);
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

  /// `result`: the panel `%x` (of `s`) with I - tau v v^H applied to its
  /// rows from i on, in the `%reflected_cols` columns (v: 1 at row i, `vbelow`
  /// below it, 0 above): C - tau v (C^H v)^H.
  void reflect(const Shape &s, const std::string &vbelow, const std::string &tau,
               const std::string &result) {
    const Shape column = t_.matrix(m_, 1), d = t_.matrix(1, 1);
    const int64_t width = s.back();
    const std::string S = t_.type(s), C = t_.type(column), D = t_.type(d);
    t_.constant("%onesC", t_.one(), C);
    t_.select("%v", "%cati", "%onesC", vbelow, column, C);
    t_.broadcast("%vS", "%v", C, upTo(t_.rank()), S);
    std::string conjugated = "%x";
    if (isComplex(t_.element())) {
      t_.conjugate("%xc", "%x", s);
      conjugated = "%xc";
    }
    t_.binary("%xv", "multiply", conjugated, "%vS", S);
    t_.constant("%zerosS", t_.zero(), S);
    t_.select("%xvlive", "%rowge", "%xv", "%zerosS", s, S);
    t_.constant("%zeros", t_.zero(), t_.type(t_.element(), {}));
    t_.reduceRows("%w", "%xvlive", "%zeros", "add", t_.element(), s);
    const std::string W = t_.type(t_.vector(width));
    std::string w = "%w";
    if (isComplex(t_.element())) {
      t_.conjugate("%wc", "%w", t_.vector(width));
      w = "%wc";
    }
    t_.broadcast("%wS", w, W, t_.batchAnd(t_.rank() - 1), S);
    t_.broadcast("%tauS", tau, D, upTo(t_.rank()), S);
    t_.binary("%tv", "multiply", "%vS", "%tauS", S);
    t_.binary("%tvw", "multiply", "%tv", "%wS", S);
    t_.binary("%reflected", "subtract", "%x", "%tvw", S);
    t_.select(result, "%reflected_cols", "%reflected", "%x", s, S);
  }

  /// `%blockV` (m x width: the panel's first `limit` vectors, 1 on their
  /// diagonal, 0 above and in the columns from `limit` on) and `%tloop#1`,
  /// T (width x width, upper): H(j0) ... H(j0 + limit - 1) = I - V T V^H
  /// (dlarft: T_jj = tau_j, T[:j, j] = -tau_j T[:j, :j] (V^H V)[:j, j]).
  void blockReflector(const std::string &panel, const std::string &taus, const std::string &limit) {
    const Shape s = t_.matrix(m_, width_), square = t_.matrix(width_, width_),
                column = t_.matrix(width_, 1);
    const std::string S = t_.type(s), SI = t_.type(ElementType::I64, s), Q = t_.type(square),
                      C = t_.type(column), CI = t_.type(ElementType::I64, column);
    t_.iota("%vrow", true, s);
    t_.iota("%vcol", false, s);
    t_.broadcast("%j0S", "%j0", "tensor<i64>", {}, SI);
    t_.binary("%vdiag", "add", "%vcol", "%j0S", SI);
    t_.compare("%vunder", "GT", "%vrow", "%vdiag", SI, s);
    t_.compare("%von", "EQ", "%vrow", "%vdiag", SI, s);
    t_.broadcast("%limitV", limit, "tensor<i64>", {}, SI);
    t_.compare("%vlive", "LT", "%vcol", "%limitV", SI, s);
    t_.constant("%vzeros", t_.zero(), S);
    t_.constant("%vones", t_.one(), S);
    t_.select("%v1", "%von", "%vones", "%vzeros", s, S);
    t_.select("%v2", "%vunder", panel, "%v1", s, S);
    t_.select("%blockV", "%vlive", "%v2", "%vzeros", s, S);
    t_.adjoint("%blockVH", "%blockV", s);
    t_.product("%gram", "%blockVH", t_.matrix(width_, m_), "%blockV", s);
    t_.constant("%t0", t_.zero(), Q);
    t_.constant("%tcount", std::to_string(width_), "tensor<i64>");
    t_.iota("%tcrow", true, column);
    t_.constant("%tzerosC", t_.zero(), C);
    t_.loopHead("%tloop", "%tc", {{"%tm", "%t0", Q}}, "%tcount");
    t_.slice("%g", "%gram", square, "%zero", "%tc", width_, 1);
    t_.broadcast("%tcC", "%tc", "tensor<i64>", {}, CI);
    t_.compare("%gabove", "LT", "%tcrow", "%tcC", CI, column);
    t_.compare("%gon", "EQ", "%tcrow", "%tcC", CI, column);
    t_.select("%gmasked", "%gabove", "%g", "%tzerosC", column, C);
    t_.product("%tg", "%tm", square, "%gmasked", column);
    t_.sliceVector("%tauc", taus, t_.element(), width_, "%tc", 1);
    t_.broadcast("%taucC", "%tauc", t_.type(t_.vector(1)), t_.batchAnd(t_.rank() - 1), C);
    t_.binary("%ttg", "multiply", "%taucC", "%tg", C);
    t_.unary("%nttg", "negate", "%ttg", C);
    t_.select("%tcol", "%gon", "%taucC", "%nttg", column, C);
    t_.update("%tnext", "%tm", Q, "%tcol", C, "%zero", "%tc");
    t_.binary("%tc1", "add", "%tc", "%one", "tensor<i64>");
    t_.loopEnd({"%tc1", "%tnext"}, {"tensor<i64>", Q});
  }

  /// `result`: `x` (of `full`) with I - V T V^H (or, `adjoint`, its
  /// conjugate transpose I - V T^H V^H) applied to its columns from
  /// j0 + `columns` on.
  void applyBlock(const std::string &x, const Shape &full, bool adjoint, const std::string &j0,
                  const std::string &columns, const std::string &result) {
    const Shape top = t_.matrix(width_, full.back()), square = t_.matrix(width_, width_);
    const std::string F = t_.type(full), FI = t_.type(ElementType::I64, full);
    t_.product("%vhx", "%blockVH", t_.matrix(width_, m_), x, full);
    std::string tm = "%tloop#1";
    if (adjoint) {
      t_.adjoint("%blockTH", tm, square);
      tm = "%blockTH";
    }
    t_.product("%tvhx", tm, square, "%vhx", top);
    t_.product("%vtvhx", "%blockV", t_.matrix(m_, width_), "%tvhx", top);
    t_.binary("%xless", "subtract", x, "%vtvhx", F);
    t_.iota("%xcol", false, full);
    t_.binary("%firstright", "add", j0, columns, "tensor<i64>");
    t_.broadcast("%firstrightF", "%firstright", "tensor<i64>", {}, FI);
    t_.compare("%right", "GE", "%xcol", "%firstrightF", FI, full);
    t_.select(result, "%right", "%xless", x, full, F);
  }

  MatrixText t_;
  std::string name_;
  TensorType a_;
  int64_t m_, n_, k_, width_, panels_, np_;
};

} // namespace

std::string qrFunctionText(const std::string &name, const TensorType &a) {
  return QrText(name, a, std::min(a.shape[a.rank() - 2], a.shape[a.rank() - 1])).factorization();
}

std::string householderProductText(const std::string &name, const TensorType &a,
                                   const TensorType &taus) {
  return QrText(name, a, taus.shape.back()).product(taus);
}

} // namespace shardgen::mlir
