// LAPACK's getrf as StableHLO ops (LapackFactorizations.h).
#include <algorithm>

#include "compiler/mlir/FunctionExpansion.h"
#include "compiler/mlir/LapackFactorizations.h"
#include "compiler/mlir/MatrixText.h"

namespace shardgen::mlir {

namespace {

class LuText {
public:
  LuText(const std::string &name, const TensorType &a)
      : t_(a.elementType, Shape(a.shape.begin(), a.shape.end() - 2)), name_(name), a_(a),
        m_(a.shape[a.rank() - 2]), n_(a.shape[a.rank() - 1]), steps_(std::min(m_, n_)),
        width_(lapackPanelWidth(steps_)) {}

  std::string function() {
    const std::string pivots = t_.type(ElementType::I32, t_.vector(steps_)),
                      info = t_.type(ElementType::I32, t_.batch());
    t_.emit("func.func private @" + name_ + "(%a: " + printType(a_) + ") -> (" + printType(a_) +
            ", " + pivots + ", " + info + ") {");
    t_.constant("%zero", "0", "tensor<i64>");
    t_.constant("%one", "1", "tensor<i64>");
    t_.constant("%pivots0", "0", pivots);
    t_.constant("%info0", "0", info);
    t_.constant("%steps", std::to_string(steps_), "tensor<i64>");
    if (steps_ <= width_) {
      // One panel: the whole matrix, its swaps whole rows.
      panelLoop("%a", m_, n_, "%zero", "%steps", "%pivots0", "%info0", false);
      t_.emit("return %panel#1, %panel#2, %panel#3 : " + printType(a_) + ", " + pivots + ", " +
              info);
    } else {
      blocked();
    }
    t_.emit("}");
    return t_.text();
  }

private:
  /// The shapes and types of a panel of `rows` x `width`.
  struct Panel {
    int64_t rows = 0, width = 0;
    Shape s, column, one, d;
    std::string S, SI, C, CR, CI, P, D, pivots, info;
  };

  Panel panelOf(int64_t rows, int64_t width) const {
    Panel p;
    p.rows = rows;
    p.width = width;
    p.s = t_.matrix(rows, width);
    p.column = t_.matrix(rows, 1);
    p.one = t_.vector(1);
    p.d = t_.matrix(1, 1);
    p.S = t_.type(p.s);
    p.SI = t_.type(ElementType::I64, p.s);
    p.C = t_.type(p.column);
    p.CR = t_.type(t_.real(), p.column);
    p.CI = t_.type(ElementType::I64, p.column);
    p.P = t_.type(ElementType::I64, p.one);
    p.D = t_.type(p.d);
    p.pivots = t_.type(ElementType::I32, t_.vector(steps_));
    p.info = t_.type(ElementType::I32, t_.batch());
    return p;
  }

  /// `%panel`: the loop factoring `panel` (rows x width, its columns from
  /// global column `offset` on; `limit` steps), a column per step, its row
  /// swaps within the panel. Carries the pivots and info (and, with
  /// `permute`, the rows' permutation, `rows` x 1).
  void panelLoop(const std::string &panel, int64_t rows, int64_t width, const std::string &offset,
                 const std::string &limit, const std::string &pivots0, const std::string &info0,
                 bool permute) {
    const Panel p = panelOf(rows, width);
    panelConstants(p);
    std::vector<std::vector<std::string>> carried = {
        {"%p_a", panel, p.S}, {"%p_pivots", pivots0, p.pivots}, {"%p_info", info0, p.info}};
    if (permute)
      carried.push_back({"%p_perm", "%crow", p.CI});
    t_.loopHead("%panel", "%j", carried, limit);
    t_.binary("%k", "add", offset, "%j", "tensor<i64>");
    t_.panelMasks(p.s, "%k", "%j");
    pivotRow(p);
    swapRows(p);
    updateInfo(p);
    eliminate(p);
    // Pivot k: p + 1, as LAPACK counts.
    t_.binary("%p1", "add", "%p", "%oneP", p.P);
    t_.convert("%p1i", "%p1", p.P, t_.type(ElementType::I32, p.one));
    t_.updateVector("%pivotsnext", "%p_pivots", ElementType::I32, steps_, "%p1i", 1, "%k");
    std::vector<std::string> values = {"%j1", "%next", "%pivotsnext", "%infonext"},
                             types = {"tensor<i64>", p.S, p.pivots, p.info};
    t_.binary("%j1", "add", "%j", "%one", "tensor<i64>");
    if (permute) {
      permuteRows(p);
      values.push_back("%permnext");
      types.push_back(p.CI);
    }
    t_.loopEnd(values, types);
  }

  /// What a panel's steps read: iotas, and constants of its shapes.
  void panelConstants(const Panel &p) {
    const ElementType re = t_.real();
    t_.iota("%prow", true, p.s);
    t_.iota("%pcol", false, p.s);
    t_.iota("%crow", true, p.column);
    t_.constant("%minus1", "-1.0", p.CR);
    t_.constant("%minus1s", "-1.0", t_.type(re, {}));
    t_.constant("%rowsC", std::to_string(p.rows), p.CI);
    t_.constant("%rowsP", std::to_string(p.rows), p.P);
    t_.constant("%rowss", std::to_string(p.rows), "tensor<i64>");
    t_.constant("%negzero", t_.negativeZero(), p.S);
    t_.constant("%negzeros", t_.negativeZero(), t_.type(t_.element(), {}));
    t_.constant("%zeroC", t_.zero(), p.C);
    t_.constant("%zeroD", t_.zero(), p.D);
    t_.constant("%oneC", t_.one(), p.C);
    t_.constant("%oneP", "1", p.P);
    t_.constant("%izero", "0", p.info);
    t_.constant("%izeroC", "0", p.CI);
    t_.constant("%izeros", "0", "tensor<i64>");
    // LAPACK scales by the reciprocal unless it would overflow.
    t_.constant("%sfmin", re == ElementType::F32 ? "1.17549435E-38" : "2.2250738585072014E-308",
                p.CR);
  }

  /// `%p` (batch x 1): the first row at or below k of largest magnitude;
  /// with NaN in the column, none is largest: k.
  void pivotRow(const Panel &p) {
    const ElementType re = t_.real();
    t_.slice("%col", "%p_a", p.s, "%zero", "%j", p.rows, 1);
    t_.magnitude("%mag", "%col", p.column);
    t_.broadcast("%kC", "%k", "tensor<i64>", {}, p.CI);
    t_.compare("%atorbelow", "GE", "%crow", "%kC", p.CI, p.column);
    t_.select("%cand", "%atorbelow", "%mag", "%minus1", p.column, p.CR);
    t_.reduceRows("%largest", "%cand", "%minus1s", "maximum", re, p.column);
    t_.broadcast("%largestC", "%largest", t_.type(re, p.one), t_.batchAnd(t_.rank() - 1), p.CR);
    t_.compare("%hit", "EQ", "%cand", "%largestC", p.CR, p.column);
    t_.select("%hitrow", "%hit", "%crow", "%rowsC", p.column, p.CI);
    t_.reduceRows("%firsthit", "%hitrow", "%rowss", "minimum", ElementType::I64, p.column);
    t_.broadcast("%kP", "%k", "tensor<i64>", {}, p.P);
    t_.compare("%nohit", "EQ", "%firsthit", "%rowsP", p.P, p.one);
    t_.select("%p", "%nohit", "%kP", "%firsthit", p.one, p.P);
  }

  /// `%swapped`: rows k and p swapped, row p summed out of a mask (-0
  /// adds exactly).
  void swapRows(const Panel &p) {
    const std::string row = t_.type(t_.matrix(1, p.width));
    t_.broadcast("%pS", "%p", p.P, t_.batchAnd(t_.rank() - 1), p.SI);
    t_.compare("%rowp", "EQ", "%prow", "%pS", p.SI, p.s);
    t_.select("%onlyp", "%rowp", "%p_a", "%negzero", p.s, p.S);
    t_.reduceRows("%pivotrow", "%onlyp", "%negzeros", "add", t_.element(), p.s);
    t_.broadcast("%pivotrowS", "%pivotrow", t_.type(t_.vector(p.width)), t_.batchAnd(t_.rank() - 1),
                 p.S);
    t_.slice("%kthrow", "%p_a", p.s, "%k", "%zero", 1, p.width);
    t_.broadcast("%kthrowS", "%kthrow", row, upTo(t_.rank()), p.S);
    t_.select("%swapped1", "%rowp", "%kthrowS", "%p_a", p.s, p.S);
    t_.select("%swapped", "%rowat", "%pivotrowS", "%swapped1", p.s, p.S);
  }

  /// `%infonext`: k + 1 at the first zero pivot (LAPACK goes on past it,
  /// leaving its column unscaled); `%d` the pivot.
  void updateInfo(const Panel &p) {
    const std::string flags = t_.type(ElementType::I1, t_.batch());
    t_.slice("%d", "%swapped", p.s, "%k", "%j", 1, 1);
    t_.compare("%dzero", "EQ", "%d", "%zeroD", p.D, p.d);
    t_.reshape("%dzeroB", "%dzero", t_.type(ElementType::I1, p.d), flags);
    t_.compare("%ok", "EQ", "%p_info", "%izero", p.info, t_.batch());
    t_.binary("%first", "and", "%dzeroB", "%ok", flags);
    t_.binary("%k1", "add", "%k", "%one", "tensor<i64>");
    t_.convert("%k1i", "%k1", "tensor<i64>", "tensor<i32>");
    t_.broadcast("%k1b", "%k1i", "tensor<i32>", {}, p.info);
    t_.select("%infonext", "%first", "%k1b", "%p_info", t_.batch(), p.info);
  }

  /// `%next`: the column below the pivot scaled by its reciprocal (divided
  /// where that would overflow), the trailing block less the outer product
  /// of that column and row k.
  void eliminate(const Panel &p) {
    const std::string row = t_.type(t_.matrix(1, p.width));
    t_.broadcast("%dC", "%d", p.D, upTo(t_.rank()), p.C);
    t_.slice("%colk", "%swapped", p.s, "%zero", "%j", p.rows, 1);
    t_.binary("%recip", "divide", "%oneC", "%dC", p.C);
    t_.binary("%byrecip", "multiply", "%colk", "%recip", p.C);
    t_.binary("%bydivide", "divide", "%colk", "%dC", p.C);
    t_.emit("%absd = stablehlo.abs %dC : (" + p.C + ") -> " + p.CR);
    t_.compare("%safe", "GE", "%absd", "%sfmin", p.CR, p.column);
    t_.select("%scaled", "%safe", "%byrecip", "%bydivide", p.column, p.C);
    t_.compare("%nonzero", "NE", "%dC", "%zeroC", p.C, p.column);
    t_.select("%l", "%nonzero", "%scaled", "%colk", p.column, p.C);
    t_.broadcast("%lS", "%l", p.C, upTo(t_.rank()), p.S);
    t_.slice("%u", "%swapped", p.s, "%k", "%zero", 1, p.width);
    t_.broadcast("%uS", "%u", row, upTo(t_.rank()), p.S);
    t_.binary("%outer", "multiply", "%lS", "%uS", p.S);
    t_.binary("%updated", "subtract", "%swapped", "%outer", p.S);
    t_.select("%next1", "%trailing", "%updated", "%swapped", p.s, p.S);
    t_.select("%next", "%below", "%lS", "%next1", p.s, p.S);
  }

  /// `%permnext`: the rows' permutation with entries k and p swapped.
  void permuteRows(const Panel &p) {
    t_.broadcast("%pC", "%p", p.P, t_.batchAnd(t_.rank() - 1), p.CI);
    t_.compare("%permatp", "EQ", "%crow", "%pC", p.CI, p.column);
    t_.compare("%permatk", "EQ", "%crow", "%kC", p.CI, p.column);
    t_.select("%permponly", "%permatp", "%p_perm", "%izeroC", p.column, p.CI);
    t_.select("%permkonly", "%permatk", "%p_perm", "%izeroC", p.column, p.CI);
    t_.reduceRows("%permp", "%permponly", "%izeros", "add", ElementType::I64, p.column);
    t_.reduceRows("%permk", "%permkonly", "%izeros", "add", ElementType::I64, p.column);
    t_.broadcast("%permpC", "%permp", p.P, t_.batchAnd(t_.rank() - 1), p.CI);
    t_.broadcast("%permkC", "%permk", p.P, t_.batchAnd(t_.rank() - 1), p.CI);
    t_.select("%perm1", "%permatp", "%permkC", "%p_perm", p.column, p.CI);
    t_.select("%permnext", "%permatk", "%permpC", "%perm1", p.column, p.CI);
  }

  /// A panel of width_ columns per step of an outer loop, on the matrix
  /// padded with zero rows and columns to whole panels: the panel
  /// factored, its row swaps applied to the whole matrix (a gather), U's
  /// rows to its right solved (L11 U12 = A12), the trailing block less
  /// L21 U12. The padded rows stay 0 and are never a pivot (a column whose
  /// largest magnitude is 0 pivots on its own row k < m).
  void blocked() {
    const int64_t panels = (steps_ + width_ - 1) / width_, mp = std::max(m_, panels * width_),
                  np = std::max(n_, panels * width_);
    const Shape full = t_.matrix(mp, np), panel = t_.matrix(mp, width_),
                top = t_.matrix(width_, np), diagonal = t_.matrix(width_, width_);
    const std::string F = t_.type(full), FI = t_.type(ElementType::I64, full),
                      pivots = t_.type(ElementType::I32, t_.vector(steps_)),
                      info = t_.type(ElementType::I32, t_.batch()),
                      perm = t_.type(ElementType::I64, t_.matrix(mp, 1));
    t_.padWithZeros("%padded", "%a", a_.shape, full);
    t_.constant("%panels", std::to_string(panels), "tensor<i64>");
    t_.constant("%width", std::to_string(width_), "tensor<i64>");
    t_.iota("%frow", true, full);
    t_.iota("%fcol", false, full);
    t_.iota("%tcol", false, top);
    t_.iota("%lrow", true, panel);
    t_.constant("%zerostop", t_.zero(), t_.type(top));
    t_.constant("%zerospanel", t_.zero(), t_.type(panel));
    t_.loopHead(
        "%outer", "%ob",
        {{"%o_a", "%padded", F}, {"%o_pivots", "%pivots0", pivots}, {"%o_info", "%info0", info}},
        "%panels");
    t_.binary("%j0", "multiply", "%ob", "%width", "tensor<i64>");
    t_.binary("%left", "subtract", "%steps", "%j0", "tensor<i64>");
    t_.binary("%limit", "minimum", "%left", "%width", "tensor<i64>");
    t_.slice("%panel0", "%o_a", full, "%zero", "%j0", mp, width_);
    panelLoop("%panel0", mp, width_, "%j0", "%limit", "%o_pivots", "%o_info", true);
    gatherRows(F, perm, np);
    t_.update("%withpanel", "%gathered", F, "%panel#1", t_.type(panel), "%zero", "%j0");
    // U12: L11 (unit lower, the panel's rows j0..j0 + width_) \ A12.
    t_.binary("%j1", "add", "%j0", "%width", "tensor<i64>");
    t_.slice("%l11", "%withpanel", full, "%j0", "%j0", width_, width_);
    t_.slice("%a12", "%withpanel", full, "%j0", "%zero", width_, np);
    t_.emit("%x12 = \"stablehlo.triangular_solve\"(%l11, %a12) <{left_side = true, lower = true, "
            "transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = true}> : (" +
            t_.type(diagonal) + ", " + t_.type(top) + ") -> " + t_.type(top));
    const std::string TI = t_.type(ElementType::I64, top);
    t_.broadcast("%j1T", "%j1", "tensor<i64>", {}, TI);
    t_.compare("%right", "GE", "%tcol", "%j1T", TI, top);
    t_.select("%u12", "%right", "%x12", "%a12", top, t_.type(top));
    t_.update("%withu", "%withpanel", F, "%u12", t_.type(top), "%j0", "%zero");
    // The trailing block less L21 U12 (both 0 outside it).
    t_.select("%u12z", "%right", "%x12", "%zerostop", top, t_.type(top));
    const std::string LI = t_.type(ElementType::I64, panel);
    t_.broadcast("%j1L", "%j1", "tensor<i64>", {}, LI);
    t_.compare("%under", "GE", "%lrow", "%j1L", LI, panel);
    t_.select("%l21", "%under", "%panel#1", "%zerospanel", panel, t_.type(panel));
    t_.product("%l21u12", "%l21", panel, "%u12z", top);
    t_.binary("%less", "subtract", "%withu", "%l21u12", F);
    t_.broadcast("%j1F", "%j1", "tensor<i64>", {}, FI);
    t_.compare("%trow", "GE", "%frow", "%j1F", FI, full);
    t_.compare("%tcolm", "GE", "%fcol", "%j1F", FI, full);
    t_.binary("%tmask", "and", "%trow", "%tcolm", t_.type(ElementType::I1, full));
    t_.select("%o_next", "%tmask", "%less", "%withu", full, F);
    t_.binary("%ob1", "add", "%ob", "%one", "tensor<i64>");
    t_.loopEnd({"%ob1", "%o_next", "%panel#2", "%panel#3"}, {"tensor<i64>", F, pivots, info});
    t_.sliceCorner("%factors", "%outer#1", full, a_.shape);
    t_.emit("return %factors, %outer#2, %outer#3 : " + printType(a_) + ", " + pivots + ", " + info);
  }

  /// `%gathered`: the panel's row swaps on the whole matrix `%o_a` (of
  /// type `F`, `np` columns): row i of the result is row perm[i] of it.
  void gatherRows(const std::string &F, const std::string &perm, int64_t np) {
    const std::string batchDims = integerList(upTo(t_.rank() - 2));
    std::string sizes;
    for (int64_t dim = 0; dim + 1 < t_.rank(); ++dim)
      sizes += "1, ";
    t_.emit("%gathered = \"stablehlo.gather\"(%o_a, %panel#4) {dimension_numbers = "
            "#stablehlo.gather<offset_dims = [" +
            std::to_string(t_.rank() - 1) + "], collapsed_slice_dims = [" +
            std::to_string(t_.rank() - 2) + "], operand_batching_dims = " + batchDims +
            ", start_indices_batching_dims = " + batchDims + ", start_index_map = [" +
            std::to_string(t_.rank() - 2) +
            "], index_vector_dim = " + std::to_string(t_.rank() - 1) +
            ">, indices_are_sorted = false, slice_sizes = " + "array<i64: " + sizes +
            std::to_string(np) + ">} : (" + F + ", " + perm + ") -> " + F);
  }

  MatrixText t_;
  std::string name_;
  TensorType a_;
  int64_t m_, n_, steps_, width_;
};

} // namespace

std::string luFunctionText(const std::string &name, const TensorType &a) {
  return LuText(name, a).function();
}

std::string pivotsToPermutationText(const std::string &name, const TensorType &pivots,
                                    int64_t size) {
  const Shape batch(pivots.shape.begin(), pivots.shape.end() - 1);
  const int64_t k = pivots.shape.back(), b = static_cast<int64_t>(batch.size());
  MatrixText t(ElementType::I32, batch);
  const Shape perm = t.vector(size), one = t.vector(1);
  const std::string P = t.type(perm), PI = t.type(ElementType::I1, perm), O = t.type(one),
                    B = t.type(ElementType::I32, batch), V = printType(pivots);
  t.emit("func.func private @" + name + "(%pivots: " + V + ") -> " + P + " {");
  t.emit("%identity = stablehlo.iota dim = " + std::to_string(b) + " : " + P);
  if (k == 0 || size == 0) {
    t.emit("return %identity : " + P);
    t.emit("}");
    return t.text();
  }
  t.constant("%zero", "0", "tensor<i64>");
  t.constant("%one", "1", "tensor<i64>");
  t.constant("%count", std::to_string(k), "tensor<i64>");
  t.constant("%zeros", "0", P);
  t.constant("%zeroscalar", "0", "tensor<i32>");
  t.constant("%zeroO", "0", O);
  t.constant("%sizeO", std::to_string(size), O);
  t.loopHead("%loop", "%i", {{"%perm", "%identity", P}}, "%count");
  t.sliceVector("%p", "%pivots", ElementType::I32, k, "%i", 1);
  // A swap with a row out of range is skipped, as JAX's GPU kernel does.
  t.compare("%lowok", "GE", "%p", "%zeroO", O, one);
  t.compare("%highok", "LT", "%p", "%sizeO", O, one);
  t.binary("%valid", "and", "%lowok", "%highok", t.type(ElementType::I1, one));
  const std::vector<int64_t> dims = upTo(b + 1);
  t.broadcast("%validP", "%valid", t.type(ElementType::I1, one), dims, PI);
  t.broadcast("%pP", "%p", O, dims, P);
  t.convert("%ii", "%i", "tensor<i64>", "tensor<i32>");
  t.broadcast("%iP", "%ii", "tensor<i32>", {}, P);
  t.compare("%atp", "EQ", "%identity", "%pP", P, perm);
  t.compare("%ati", "EQ", "%identity", "%iP", P, perm);
  const std::string across =
      " across dimensions = [" + std::to_string(b) + "] : (" + P + ", tensor<i32>) -> " + B;
  t.select("%onlyp", "%atp", "%perm", "%zeros", perm, P);
  t.select("%onlyi", "%ati", "%perm", "%zeros", perm, P);
  t.emit("%permp = stablehlo.reduce(%onlyp init: %zeroscalar) applies stablehlo.add" + across);
  t.emit("%permi = stablehlo.reduce(%onlyi init: %zeroscalar) applies stablehlo.add" + across);
  t.broadcast("%permpP", "%permp", B, upTo(b), P);
  t.broadcast("%permiP", "%permi", B, upTo(b), P);
  t.select("%swapped1", "%atp", "%permiP", "%perm", perm, P);
  t.select("%swapped", "%ati", "%permpP", "%swapped1", perm, P);
  t.select("%next", "%validP", "%swapped", "%perm", perm, P);
  t.binary("%i1", "add", "%i", "%one", "tensor<i64>");
  t.loopEnd({"%i1", "%next"}, {"tensor<i64>", P});
  t.emit("return %loop#1 : " + P);
  t.emit("}");
  return t.text();
}

} // namespace shardgen::mlir
