// LAPACK's potrf as StableHLO ops (LapackFactorizations.h).
#include "compiler/mlir/FunctionExpansion.h"
#include "compiler/mlir/LapackFactorizations.h"
#include "compiler/mlir/MatrixText.h"

namespace shardgen::mlir {

namespace {

class CholeskyText {
public:
  CholeskyText(const std::string &name, const TensorType &a, bool lower)
      : t_(a.elementType, Shape(a.shape.begin(), a.shape.end() - 2)), name_(name), a_(a),
        n_(a.shape[a.rank() - 1]), width_(lapackPanelWidth(n_)), lower_(lower) {}

  std::string function() {
    const std::string A = printType(a_), info = t_.type(ElementType::I32, t_.batch());
    t_.emit("func.func private @" + name_ + "(%a: " + A + ") -> (" + A + ", " + info + ") {");
    t_.constant("%zero", "0", "tensor<i64>");
    t_.constant("%one", "1", "tensor<i64>");
    t_.constant("%info0", "0", info);
    // An upper factor U of a is the conjugate transpose of the lower factor
    // of a's conjugate transpose (whose lower triangle is a's upper one).
    std::string matrix = "%a";
    if (!lower_) {
      t_.adjoint("%at", "%a", a_.shape);
      matrix = "%at";
    }
    std::string factor, infoOut;
    if (n_ <= width_) {
      t_.constant("%size", std::to_string(n_), "tensor<i64>");
      panelLoop(matrix, n_, n_, "%zero", "%size", "%info0");
      factor = "%panel#1";
      infoOut = "%panel#2";
    } else {
      blocked(matrix);
      factor = "%factored";
      infoOut = "%outer#2";
    }
    // The other triangle keeps a's values.
    if (!lower_) {
      t_.adjoint("%factor", factor, a_.shape);
      factor = "%factor";
    }
    const std::string SI = t_.type(ElementType::I64, a_.shape);
    t_.iota("%rowa", true, a_.shape);
    t_.iota("%cola", false, a_.shape);
    t_.compare("%mine", lower_ ? "GE" : "LE", "%rowa", "%cola", SI, a_.shape);
    t_.select("%out", "%mine", factor, "%a", a_.shape, A);
    t_.emit("return %out, " + infoOut + " : " + A + ", " + info);
    t_.emit("}");
    return t_.text();
  }

private:
  /// `%panel`: the loop factoring the columns of `panel` (rows x width,
  /// its columns from `offset` on; `limit` steps) a column per step,
  /// right-looking within the panel. Carries the panel and info.
  void panelLoop(const std::string &panel, int64_t rows, int64_t width, const std::string &offset,
                 const std::string &limit, const std::string &info0) {
    const ElementType re = t_.real();
    const Shape s = t_.matrix(rows, width), column = t_.matrix(rows, 1), d = t_.matrix(1, 1),
                own = t_.matrix(width, 1), ownRow = t_.matrix(1, width);
    const std::string S = t_.type(s), C = t_.type(column), D = t_.type(d), DR = t_.type(re, d),
                      info = t_.type(ElementType::I32, t_.batch()),
                      flags = t_.type(ElementType::I1, t_.batch()),
                      mask = t_.type(ElementType::I1, s);
    t_.constant("%zeroDR", "0.0", DR);
    t_.constant("%oneDR", "1.0", DR);
    t_.iota("%prow", true, s);
    t_.iota("%pcol", false, s);
    t_.loopHead("%panel", "%j", {{"%x", panel, S}, {"%info", info0, info}}, limit);
    t_.binary("%k", "add", offset, "%j", "tensor<i64>");
    t_.panelMasks(s, "%k", "%j");
    // d = x_kk (its real part) must be > 0 (not NaN), else info = k + 1
    // and the factorization stops there.
    t_.slice("%d", "%x", s, "%k", "%j", 1, 1);
    std::string pivot = "%d";
    if (isComplex(a_.elementType)) {
      t_.emit("%dre = stablehlo.real %d : (" + D + ") -> " + DR);
      pivot = "%dre";
    }
    t_.compare("%positive", "GT", pivot, "%zeroDR", DR, d);
    t_.reshape("%positiveB", "%positive", t_.type(ElementType::I1, d), flags);
    t_.unary("%failed", "not", "%positiveB", flags);
    t_.compare("%ok", "EQ", "%info", "%info0", info, t_.batch());
    t_.binary("%first", "and", "%failed", "%ok", flags);
    t_.binary("%k1", "add", "%k", "%one", "tensor<i64>");
    t_.convert("%k1i", "%k1", "tensor<i64>", "tensor<i32>");
    t_.broadcast("%k1b", "%k1i", "tensor<i32>", {}, info);
    t_.select("%infonext", "%first", "%k1b", "%info", t_.batch(), info);
    t_.compare("%go", "EQ", "%infonext", "%info0", info, t_.batch());
    t_.unary("%root", "sqrt", pivot, DR);
    t_.binary("%inv", "divide", "%oneDR", "%root", DR);
    // l = column j below the diagonal times 1/root (as LAPACK scales); the
    // panel's columns right of j less l times the conjugates of l's rows
    // at those columns.
    t_.slice("%col", "%x", s, "%zero", "%j", rows, 1);
    t_.broadcast("%invC", "%inv", DR, upTo(t_.rank()), t_.type(re, column));
    t_.scaleByReal("%l", "%col", "%invC", column);
    t_.broadcast("%lS", "%l", C, upTo(t_.rank()), S);
    t_.slice("%lown", "%l", column, offset, "%zero", width, 1);
    t_.reshape("%lrow", "%lown", t_.type(own), t_.type(ownRow));
    std::string conjugated = "%lrow";
    if (isComplex(a_.elementType)) {
      t_.conjugate("%lrowc", "%lrow", ownRow);
      conjugated = "%lrowc";
    }
    t_.broadcast("%lT", conjugated, t_.type(ownRow), upTo(t_.rank()), S);
    t_.binary("%outer", "multiply", "%lS", "%lT", S);
    t_.binary("%updated", "subtract", "%x", "%outer", S);
    std::string root = "%root";
    if (isComplex(a_.elementType)) {
      t_.constant("%zeroim", "0.0", DR);
      t_.binary("%rootc", "complex", "%root", "%zeroim", D);
      root = "%rootc";
    }
    t_.broadcast("%rootS", root, D, upTo(t_.rank()), S);
    t_.select("%next1", "%trailing", "%updated", "%x", s, S);
    t_.select("%next2", "%below", "%lS", "%next1", s, S);
    t_.select("%next3", "%diag", "%rootS", "%next2", s, S);
    t_.broadcast("%goS", "%go", flags, upTo(t_.rank() - 2), mask);
    t_.select("%next", "%goS", "%next3", "%x", s, S);
    t_.binary("%j1", "add", "%j", "%one", "tensor<i64>");
    t_.loopEnd({"%j1", "%next", "%infonext"}, {"tensor<i64>", S, info});
  }

  /// `%factored`: a panel of width_ columns per step of an outer loop, on
  /// `matrix` padded to whole panels (the padded diagonal 1, so its pivots
  /// are positive): the panel factored, then the trailing block less
  /// L21 L21^H (one product). A matrix whose factorization stopped is left
  /// as it is.
  void blocked(const std::string &matrix) {
    const ElementType e = t_.element();
    const int64_t panels = (n_ + width_ - 1) / width_, np = panels * width_;
    const Shape full = t_.matrix(np, np), panel = t_.matrix(np, width_),
                panelT = t_.matrix(width_, np);
    const std::string F = t_.type(full), FI = t_.type(ElementType::I64, full),
                      FM = t_.type(ElementType::I1, full),
                      info = t_.type(ElementType::I32, t_.batch());
    t_.padWithIdentity("%padded", matrix, a_.shape, full, "%frow", "%fcol");
    t_.constant("%panels", std::to_string(panels), "tensor<i64>");
    t_.constant("%width", std::to_string(width_), "tensor<i64>");
    t_.iota("%lrow", true, panel);
    t_.constant("%zerospanel", t_.zero(), t_.type(panel));
    t_.loopHead("%outer", "%ob", {{"%o_a", "%padded", F}, {"%o_info", "%info0", info}}, "%panels");
    t_.binary("%j0", "multiply", "%ob", "%width", "tensor<i64>");
    t_.slice("%panel0", "%o_a", full, "%zero", "%j0", np, width_);
    panelLoop("%panel0", np, width_, "%j0", "%width", "%o_info");
    t_.update("%withpanel", "%o_a", F, "%panel#1", t_.type(panel), "%zero", "%j0");
    // The trailing block less L21 L21^H, L21 the panel's rows below it.
    t_.binary("%j1", "add", "%j0", "%width", "tensor<i64>");
    const std::string LI = t_.type(ElementType::I64, panel);
    t_.broadcast("%j1L", "%j1", "tensor<i64>", {}, LI);
    t_.compare("%under", "GE", "%lrow", "%j1L", LI, panel);
    t_.select("%l21", "%under", "%panel#1", "%zerospanel", panel, t_.type(panel));
    std::vector<int64_t> swap = upTo(t_.rank());
    std::swap(swap[t_.rank() - 1], swap[t_.rank() - 2]);
    std::string l21 = "%l21";
    if (isComplex(e)) {
      t_.conjugate("%l21c", "%l21", panel);
      l21 = "%l21c";
    }
    t_.emit("%l21h = stablehlo.transpose " + l21 + ", dims = " + integerList(swap) + " : (" +
            t_.type(panel) + ") -> " + t_.type(panelT));
    t_.product("%l21l21h", "%l21", panel, "%l21h", panelT);
    t_.binary("%less", "subtract", "%withpanel", "%l21l21h", F);
    t_.broadcast("%j1F", "%j1", "tensor<i64>", {}, FI);
    t_.compare("%trow", "GE", "%frow", "%j1F", FI, full);
    t_.compare("%tcol", "GE", "%fcol", "%j1F", FI, full);
    t_.binary("%tmask", "and", "%trow", "%tcol", FM);
    const std::string flags = t_.type(ElementType::I1, t_.batch());
    t_.compare("%going", "EQ", "%panel#2", "%info0", info, t_.batch());
    t_.broadcast("%goingF", "%going", flags, upTo(t_.rank() - 2), FM);
    t_.binary("%update", "and", "%tmask", "%goingF", FM);
    t_.select("%o_next", "%update", "%less", "%withpanel", full, F);
    t_.binary("%ob1", "add", "%ob", "%one", "tensor<i64>");
    t_.loopEnd({"%ob1", "%o_next", "%panel#2"}, {"tensor<i64>", F, info});
    t_.sliceCorner("%factored", "%outer#1", full, a_.shape);
  }

  MatrixText t_;
  std::string name_;
  TensorType a_;
  int64_t n_, width_;
  bool lower_;
};

} // namespace

std::string choleskyFunctionText(const std::string &name, const TensorType &a, bool lower) {
  return CholeskyText(name, a, lower).function();
}

} // namespace shardgen::mlir
