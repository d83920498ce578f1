// LAPACK's syevd / heevd as StableHLO ops (LapackFactorizations.h): cyclic
// two-sided Jacobi, a round-robin tournament of all n/2 disjoint pairs
// rotated at once per step (as XLA's eigh expander does), the matrix kept in
// the tournament's order: the pairs are always (i, n/2 + i), and after each
// round rows and columns move one place round the circle (the first fixed),
// back to the matrix's own order after the n - 1 rounds of a sweep.
#include <iterator>
#include <set>

#include "compiler/mlir/FunctionExpansion.h"
#include "compiler/mlir/LapackFactorizations.h"
#include "compiler/mlir/MatrixText.h"

namespace shardgen::mlir {

namespace {

class EighText {
public:
  EighText(const std::string &name, const TensorType &a, bool lower, bool vectors)
      : t_(a.elementType, Shape(a.shape.begin(), a.shape.end() - 2)), name_(name), a_(a),
        n_(a.shape.back()), np_(n_ + n_ % 2), k_(np_ / 2), lower_(lower), vectors_(vectors) {}

  std::string function() {
    const ElementType re = t_.real();
    const std::string A = printType(a_), W = t_.type(re, t_.vector(n_)),
                      info = t_.type(ElementType::I32, t_.batch());
    const Shape sq = t_.matrix(np_, np_);
    const std::string S = t_.type(sq);
    t_.emit("func.func private @" + name_ + "(%a: " + A + ") -> (" + A + ", " + W + ", " + info +
            ") {");
    t_.constant("%zero", "0", "tensor<i64>");
    t_.constant("%one", "1", "tensor<i64>");
    hermitian();
    // An odd order gets a zero row and column: its pairs' rotations are the
    // identity, so it stays apart (a last eigenvalue 0 and vector e_n).
    std::string h = "%h";
    if (np_ != n_) {
      t_.padWithZeros("%hp", "%h", a_.shape, sq);
      h = "%hp";
    }
    masks();
    scaled(h);
    h = "%hs";
    t_.constant("%zerosS", t_.zero(), S);
    t_.constant("%onesS", t_.one(), S);
    t_.select("%eye", "%eyemask", "%onesS", "%zerosS", sq, S);
    converged("%conv0", h);
    all("%done0", "%conv0");
    t_.constant("%sweepcap", std::to_string(kJacobiMaxSweeps), "tensor<i64>");
    t_.constant("%rounds", std::to_string(np_ - 1), "tensor<i64>");
    // The pairs' entries in the next round's order (where the fix-up of a
    // round finds them; the diagonal stays the diagonal).
    permute("%nextpairs", "%pairmask", ElementType::I1, sq, t_.rank() - 2);
    permute("%nextpairmask", "%nextpairs", ElementType::I1, sq, t_.rank() - 1);
    // The diagonal (real) is carried along: a round sets it.
    const std::string FR = t_.type(wide(), t_.vector(np_));
    diagonalOf("%dg0n", h);
    widen("%dg0", "%dg0n", t_.vector(np_));
    std::vector<std::vector<std::string>> carried = {{"%sm", h, S}, {"%sdg", "%dg0", FR}};
    if (vectors_)
      carried.push_back({"%sv", "%eye", S});
    carried.push_back({"%sdone", "%done0", "tensor<i1>"});
    t_.loopHeadUntil("%sweep", "%sw", carried, "%sweepcap", "%sdone");
    std::vector<std::vector<std::string>> roundCarried = {{"%x", "%sm", S}, {"%dg", "%sdg", FR}};
    if (vectors_)
      roundCarried.push_back({"%v", "%sv", S});
    t_.loopHead("%round", "%r", roundCarried, "%rounds");
    round();
    t_.binary("%r1", "add", "%r", "%one", "tensor<i64>");
    std::vector<std::string> next = {"%r1", "%xnext", "%dgnext"}, types = {"tensor<i64>", S, FR};
    if (vectors_) {
      next.push_back("%vnext");
      types.push_back(S);
    }
    t_.loopEnd(next, types);
    converged("%conv", "%round#1");
    all("%done", "%conv");
    t_.binary("%sw1", "add", "%sw", "%one", "tensor<i64>");
    next = {"%sw1", "%round#1", "%round#2"};
    types = {"tensor<i64>", S, FR};
    if (vectors_) {
      next.push_back("%round#3");
      types.push_back(S);
    }
    next.push_back("%done");
    types.push_back("tensor<i1>");
    t_.loopEnd(next, types);
    results();
    t_.emit("}");
    return t_.text();
  }

private:
  /// `%h`: the Hermitian matrix a's `uplo` triangle stands for (the other
  /// triangle's values never read; a complex diagonal's imaginary part
  /// dropped, as LAPACK does).
  void hermitian() {
    const std::string A = printType(a_), AI = t_.type(ElementType::I64, a_.shape);
    t_.iota("%arow", true, a_.shape);
    t_.iota("%acol", false, a_.shape);
    t_.compare("%amine", lower_ ? "GT" : "LT", "%arow", "%acol", AI, a_.shape);
    t_.compare("%adiag", "EQ", "%arow", "%acol", AI, a_.shape);
    t_.adjoint("%aadj", "%a", a_.shape);
    std::string diagonal = "%a";
    if (isComplex(a_.elementType)) {
      const std::string AR = t_.type(t_.real(), a_.shape);
      t_.emit("%are = stablehlo.real %a : (" + A + ") -> " + AR);
      t_.constant("%azeros", "0.0", AR);
      t_.binary("%areal", "complex", "%are", "%azeros", A);
      diagonal = "%areal";
    }
    t_.select("%h0", "%adiag", diagonal, "%aadj", a_.shape, A);
    t_.select("%h", "%amine", "%a", "%h0", a_.shape, A);
  }

  /// The fixed masks of the padded matrix: `%eyemask` its diagonal,
  /// `%pairmask` the pairs' entries (i, k + i) and (k + i, i); and
  /// `%pairindices` the first of those, (i, k + i) for i < k.
  void masks() {
    const Shape sq = t_.matrix(np_, np_);
    const std::string SI = t_.type(ElementType::I64, sq), SM = t_.type(ElementType::I1, sq);
    t_.iota("%mrow", true, sq);
    t_.iota("%mcol", false, sq);
    t_.compare("%eyemask", "EQ", "%mrow", "%mcol", SI, sq);
    t_.constant("%kS", std::to_string(k_), SI);
    t_.binary("%mrowk", "add", "%mrow", "%kS", SI);
    t_.binary("%mcolk", "add", "%mcol", "%kS", SI);
    t_.compare("%upmask", "EQ", "%mcol", "%mrowk", SI, sq);
    t_.compare("%lowmask", "EQ", "%mrow", "%mcolk", SI, sq);
    t_.binary("%pairmask", "or", "%upmask", "%lowmask", SM);
    const Shape column = t_.matrix(k_, 1);
    const std::string CI = t_.type(ElementType::I64, column);
    t_.iota("%pairrows", true, column);
    t_.constant("%kC", std::to_string(k_), CI);
    t_.binary("%paircols", "add", "%pairrows", "%kC", CI);
    t_.concatenate("%pairindices", {{"%pairrows", column}, {"%paircols", column}}, ElementType::I64,
                   t_.rank() - 1);
  }

  /// `%hs`: `h` times `%scale`, the power of 2 that brings its largest
  /// magnitude into [1, 2) (exact; 1 for a zero matrix; near it, for a
  /// rounded log2 or a subnormal largest magnitude): neither the
  /// rotations' tau nor the norms' squares overflow or underflow. And
  /// `%limit`: eps^2 times the squared Frobenius norm of hs: the
  /// off-diagonal part of the rotated matrix (rotations keep the norm) is
  /// done at or below it. Per matrix of the batch.
  void scaled(const std::string &h) {
    const ElementType re = t_.real();
    const Shape sq = t_.matrix(np_, np_);
    const std::string SR = t_.type(re, sq), B = t_.type(re, t_.batch());
    t_.emit("%habs = stablehlo.abs " + h + " : (" + t_.type(sq) + ") -> " + SR);
    t_.constant("%zeroR", "0.0", t_.type(re, {}));
    t_.reduceDims("%hmax", "%habs", "%zeroR", "maximum", re, sq, matrixDims());
    t_.constant("%zerosB", "0.0", B);
    t_.constant("%onesB", "1.0", B);
    t_.constant("%twosB", "2.0", B);
    t_.constant("%log2eB", "1.4426950408889634", B);
    t_.compare("%hnone", "EQ", "%hmax", "%zerosB", B, t_.batch());
    t_.select("%hsafe", "%hnone", "%onesB", "%hmax", t_.batch(), B);
    // 2^-floor(log2 max), at most the largest finite power of 2 (a
    // subnormal max is brought up to [2^-23, 1) or [2^-52, 1)); an infinity
    // or NaN gives 0 or NaN: info 1.
    const bool single = re == ElementType::F32;
    t_.constant("%maxexpB", single ? "127.0" : "1023.0", B);
    t_.unary("%hlog", "log", "%hsafe", B);
    t_.binary("%hlog2", "multiply", "%hlog", "%log2eB", B);
    t_.unary("%hfloor", "floor", "%hlog2", B);
    t_.unary("%hneg", "negate", "%hfloor", B);
    t_.binary("%hexp", "minimum", "%hneg", "%maxexpB", B);
    t_.binary("%scale", "power", "%twosB", "%hexp", B);
    t_.broadcast("%scaleS", "%scale", B, upTo(t_.rank() - 2), SR);
    t_.scaleByReal("%hs", h, "%scaleS", sq);
    t_.binary("%habsS", "multiply", "%habs", "%scaleS", SR);
    squaredNorm("%fro2", "%habsS");
    // numpy's finfo eps, squared: 2^-46 and 2^-104.
    t_.constant("%tol2", single ? "1.42108547E-14" : "4.9303806576313238E-32", B);
    t_.binary("%limit", "multiply", "%fro2", "%tol2", B);
  }

  /// `name`: the sum of the squares of `magnitudes` (real, the padded
  /// matrices'), per matrix.
  void squaredNorm(const std::string &name, const std::string &magnitudes) {
    const ElementType re = t_.real();
    const Shape sq = t_.matrix(np_, np_);
    t_.binary(name + "sq", "multiply", magnitudes, magnitudes, t_.type(re, sq));
    t_.reduceDims(name, name + "sq", "%zeroR", "add", re, sq, matrixDims());
  }

  /// `name` (i1, per matrix): whether `m`'s off-diagonal part is within
  /// the limit (false on NaN).
  void converged(const std::string &name, const std::string &m) {
    const ElementType re = t_.real();
    const Shape sq = t_.matrix(np_, np_);
    const std::string SR = t_.type(re, sq), B = t_.type(re, t_.batch());
    t_.select(name + "off", "%eyemask", "%zerosS", m, sq, t_.type(sq));
    t_.emit(name + "abs = stablehlo.abs " + name + "off : (" + t_.type(sq) + ") -> " + SR);
    squaredNorm(name + "norm", name + "abs");
    t_.compare(name, "LE", name + "norm", "%limit", B, t_.batch());
  }

  /// `name` (tensor<i1>): `flags` (per matrix) all true.
  void all(const std::string &name, const std::string &flags) {
    if (t_.batch().empty()) {
      t_.emit(name + " = stablehlo.and " + flags + ", " + flags + " : tensor<i1>");
      return;
    }
    t_.constant(name + "init", "true", "tensor<i1>");
    t_.reduceDims(name, flags, name + "init", "and", ElementType::I1, t_.batch(),
                  upTo(static_cast<int64_t>(t_.batch().size())));
  }

  std::vector<int64_t> matrixDims() const { return {t_.rank() - 2, t_.rank() - 1}; }

  /// `name` (the batch, then k): the pairs' entries (i, k + i) of the
  /// padded matrices `m` (`%pairindices` their places).
  void gatherPairs(const std::string &name, const std::string &m) {
    const std::string batchDims = integerList(upTo(t_.rank() - 2));
    const std::string matrixDims = integerList({t_.rank() - 2, t_.rank() - 1});
    std::string sizes;
    for (int64_t dim = 0; dim < t_.rank(); ++dim)
      sizes += dim ? ", 1" : "1";
    t_.emit(name + " = \"stablehlo.gather\"(" + m +
            ", %pairindices) {dimension_numbers = #stablehlo.gather<offset_dims = [], "
            "collapsed_slice_dims = " +
            matrixDims + ", operand_batching_dims = " + batchDims +
            ", start_indices_batching_dims = " + batchDims + ", start_index_map = " + matrixDims +
            ", index_vector_dim = " + std::to_string(t_.rank() - 1) +
            ">, indices_are_sorted = true, slice_sizes = array<i64: " + sizes + ">} : (" +
            t_.type(t_.matrix(np_, np_)) + ", " + t_.type(ElementType::I64, t_.matrix(k_, 2)) +
            ") -> " + t_.type(t_.vector(k_)));
  }

  /// The type the rotations are computed in and the diagonal carried in:
  /// f64 for f32 and complex<f32> (each element then rounded once when
  /// the matrix is rotated, the eigenvalues once at the end), else the
  /// real type.
  ElementType wide() const { return t_.real() == ElementType::F32 ? ElementType::F64 : t_.real(); }

  /// `name`: the real `x` (of `shape`) in the wide type, or `narrow` from
  /// it to the real type.
  void widen(const std::string &name, const std::string &x, const Shape &shape) {
    convertReal(name, x, shape, t_.real(), wide());
  }
  void narrow(const std::string &name, const std::string &x, const Shape &shape) {
    convertReal(name, x, shape, wide(), t_.real());
  }
  void convertReal(const std::string &name, const std::string &x, const Shape &shape,
                   ElementType from, ElementType to) {
    // (A convert to its own type, for f64: the same value.)
    t_.convert(name, x, t_.type(from, shape), t_.type(to, shape));
  }

  /// `name`: the real diagonal of the padded matrices `m`.
  void diagonalOf(const std::string &name, const std::string &m) {
    const ElementType e = t_.element();
    const Shape sq = t_.matrix(np_, np_), full = t_.vector(np_);
    t_.select(name + "only", "%eyemask", m, "%zerosS", sq, t_.type(sq));
    t_.constant(name + "zero", t_.zero(), t_.type(e, {}));
    if (!isComplex(e)) {
      t_.reduceRows(name, name + "only", name + "zero", "add", e, sq);
      return;
    }
    t_.reduceRows(name + "e", name + "only", name + "zero", "add", e, sq);
    t_.emit(name + " = stablehlo.real " + name + "e : (" + t_.type(full) + ") -> " +
            t_.type(t_.real(), full));
  }

  /// `%t`, `%c`, `%s` (of `HR`, the wide type over `half`): the rotation
  /// zeroing each pair's b from its diagonal entries a, d (`%a`, `%d`,
  /// `%absb` = |b|), and `%anew`, `%dnew`, the 2 x 2 eigenvalues.
  void angles(const std::string &HR, const Shape &half) {
    // tau = (d - a) / 2|b|, t = sign(tau) / (|tau| + hypot(1, tau)) (the
    // smaller root of t^2 + 2 tau t - 1, hypot without squaring |tau|),
    // 0 where b is; c = 1 / sqrt(1 + t^2), s = t c.
    t_.constant("%zerosH", "0.0", HR);
    t_.constant("%onesH", "1.0", HR);
    t_.binary("%diff", "subtract", "%d", "%a", HR);
    t_.binary("%twob", "add", "%absb", "%absb", HR);
    t_.binary("%tau", "divide", "%diff", "%twob", HR);
    t_.unary("%atau", "abs", "%tau", HR);
    t_.binary("%big", "maximum", "%atau", "%onesH", HR);
    t_.binary("%small", "minimum", "%atau", "%onesH", HR);
    t_.binary("%ratio", "divide", "%small", "%big", HR);
    t_.binary("%ratio2", "multiply", "%ratio", "%ratio", HR);
    t_.binary("%ratio21", "add", "%ratio2", "%onesH", HR);
    t_.unary("%ratioroot", "sqrt", "%ratio21", HR);
    t_.binary("%hyp", "multiply", "%big", "%ratioroot", HR);
    t_.binary("%tden", "add", "%atau", "%hyp", HR);
    t_.binary("%tpos", "divide", "%onesH", "%tden", HR);
    t_.unary("%tneg", "negate", "%tpos", HR);
    t_.compare("%taulow", "LT", "%tau", "%zerosH", HR, half);
    t_.select("%tsigned", "%taulow", "%tneg", "%tpos", half, HR);
    t_.compare("%bzero", "EQ", "%absb", "%zerosH", HR, half);
    t_.select("%t", "%bzero", "%zerosH", "%tsigned", half, HR);
    t_.binary("%t2", "multiply", "%t", "%t", HR);
    t_.binary("%t21", "add", "%t2", "%onesH", HR);
    t_.unary("%troot", "sqrt", "%t21", HR);
    t_.binary("%c0", "divide", "%onesH", "%troot", HR);
    t_.binary("%s0", "multiply", "%t", "%c0", HR);
    normalize(HR);
    t_.binary("%tb", "multiply", "%t", "%absb", HR);
    t_.binary("%anew", "subtract", "%a", "%tb", HR);
    t_.binary("%dnew", "add", "%d", "%tb", HR);
  }

  /// `%c`, `%s`: `%c0`, `%s0` times 1 - e/2, e = c0^2 + s0^2 - 1 taken
  /// exactly (Dekker's products, no fused multiply-add needed): the
  /// rotations stay orthogonal to half an ulp per entry instead of drifting
  /// by the few ulps of computing c and s.
  void normalize(const std::string &HR) {
    t_.constant("%splitter", "134217729.0", HR); // 2^27 + 1 (f64's split)
    t_.constant("%halves", "0.5", HR);
    auto square = [&](const std::string &x, const std::string &name) {
      // name + "hi" + name + "lo" = x * x exactly.
      t_.binary(name + "t", "multiply", x, "%splitter", HR);
      t_.binary(name + "tx", "subtract", name + "t", x, HR);
      t_.binary(name + "h", "subtract", name + "t", name + "tx", HR);
      t_.binary(name + "l", "subtract", x, name + "h", HR);
      t_.binary(name + "hi", "multiply", x, x, HR);
      t_.binary(name + "hh", "multiply", name + "h", name + "h", HR);
      t_.binary(name + "e1", "subtract", name + "hh", name + "hi", HR);
      t_.binary(name + "hl", "multiply", name + "h", name + "l", HR);
      t_.binary(name + "e2", "add", name + "e1", name + "hl", HR);
      t_.binary(name + "e3", "add", name + "e2", name + "hl", HR);
      t_.binary(name + "ll", "multiply", name + "l", name + "l", HR);
      t_.binary(name + "lo", "add", name + "e3", name + "ll", HR);
    };
    square("%c0", "%csq");
    square("%s0", "%ssq");
    t_.binary("%cm1", "subtract", "%csqhi", "%onesH", HR); // exact: c0^2 in [1/2, 1]
    t_.binary("%e1", "add", "%cm1", "%ssqhi", HR);
    t_.binary("%e2", "add", "%csqlo", "%ssqlo", HR);
    t_.binary("%e", "add", "%e1", "%e2", HR);
    t_.binary("%he", "multiply", "%e", "%halves", HR);
    t_.binary("%che", "multiply", "%c0", "%he", HR);
    t_.binary("%she", "multiply", "%s0", "%he", HR);
    t_.binary("%c", "subtract", "%c0", "%che", HR);
    t_.binary("%s", "subtract", "%s0", "%she", HR);
  }

  /// One round: the rotations of the pairs (i, k + i) of `%x` (its
  /// diagonal `%dg`) applied to rows and columns (J^H x J) and to `%v`'s
  /// columns (v J), each result put together in the tournament's next
  /// order; the pairs' entries then exactly 0 and the diagonal the 2 x 2
  /// problems' eigenvalues (`%dgnext`).
  void round() {
    const ElementType e = t_.element(), re = t_.real();
    const bool complex = isComplex(e);
    const Shape sq = t_.matrix(np_, np_), half = t_.vector(k_), full = t_.vector(np_);
    const ElementType w = wide();
    const std::string S = t_.type(sq), H = t_.type(half), HR = t_.type(w, half);
    const int64_t last = t_.rank() - 2; // of the vectors
    t_.sliceAlong("%a", "%dg", w, full, last, 0, k_);
    t_.sliceAlong("%d", "%dg", w, full, last, k_, np_);
    gatherPairs("%b", "%x");
    t_.emit("%absbn = stablehlo.abs %b : (" + H + ") -> " + t_.type(re, half));
    widen("%absb", "%absbn", half);
    angles(HR, half);
    // The rotation of pair i: [[c, sigma], [-conj(sigma), c]], sigma =
    // s b / |b| (b's sign times s on reals).
    // And quot = sigma / (1 + c), for Rutishauser's form of the rotation.
    std::string sigmaConj = "%sigma", quotConj = "%quot";
    t_.select("%bsafe", "%bzero", "%onesH", "%absb", half, HR);
    const std::string HN = t_.type(re, half);
    if (complex) {
      t_.emit("%bren = stablehlo.real %b : (" + H + ") -> " + HN);
      t_.emit("%bimn = stablehlo.imag %b : (" + H + ") -> " + HN);
      widen("%bre", "%bren", half);
      widen("%bim", "%bimn", half);
      t_.binary("%phre", "divide", "%bre", "%bsafe", HR);
      t_.binary("%phim", "divide", "%bim", "%bsafe", HR);
      t_.binary("%sre", "multiply", "%s", "%phre", HR);
      t_.binary("%sim", "multiply", "%s", "%phim", HR);
      t_.binary("%c1", "add", "%c", "%onesH", HR);
      t_.binary("%qre", "divide", "%sre", "%c1", HR);
      t_.binary("%qim", "divide", "%sim", "%c1", HR);
      narrow("%sren", "%sre", half);
      narrow("%simn", "%sim", half);
      narrow("%qren", "%qre", half);
      narrow("%qimn", "%qim", half);
      t_.unary("%simneg", "negate", "%simn", HN);
      t_.unary("%qimneg", "negate", "%qimn", HN);
      t_.binary("%sigma", "complex", "%sren", "%simn", H);
      t_.binary("%sigmac", "complex", "%sren", "%simneg", H);
      t_.binary("%quot", "complex", "%qren", "%qimn", H);
      t_.binary("%quotc", "complex", "%qren", "%qimneg", H);
      sigmaConj = "%sigmac";
      quotConj = "%quotc";
    } else {
      widen("%bw", "%b", half);
      t_.binary("%phase", "divide", "%bw", "%bsafe", HR);
      t_.binary("%sigmaw", "multiply", "%s", "%phase", HR);
      t_.binary("%c1", "add", "%c", "%onesH", HR);
      t_.binary("%quotw", "divide", "%sigmaw", "%c1", HR);
      narrow("%sigma", "%sigmaw", half);
      narrow("%quot", "%quotw", half);
    }
    // Rows: top' = c top - sigma bottom, bottom' = conj(sigma) top + c
    // bottom; columns: left' = left c - right conj(sigma), right' = left
    // sigma + right c.
    const int64_t rowDim = t_.rank() - 2, colDim = t_.rank() - 1;
    rotate("%xr", "%x", "%r", {"%sigma", sigmaConj, "%quot", quotConj}, rowDim);
    rotate("%xc", "%xr", "%k", {sigmaConj, "%sigma", quotConj, "%quot"}, colDim);
    // The pairs' entries exactly 0 (what rounding leaves there would hold
    // the off-diagonal norm above eps |A|), the diagonal the 2 x 2
    // eigenvalues: carried as `%dgnext`, the matrix's own diagonal never
    // read again (it only ever mixes into its pair's 2 x 2 block).
    t_.roundRobinNext("%dgnext", "%anew", "%dnew", w, half, last);
    t_.select("%xnext", "%nextpairmask", "%zerosS", "%xc", sq, S);
    if (vectors_)
      rotate("%vnext", "%v", "%k", {sigmaConj, "%sigma", quotConj, "%quot"}, colDim);
  }

  /// A rotation's vectors (the pairs'): f' = c f - sigma g, g' = conj f +
  /// c g, and sigma and conj over 1 + c.
  struct Rotation {
    std::string sigma, conj, sigmaQuot, conjQuot;
  };

  /// `name`: the rotations `r` applied along `dim` of `x`, its halves f and
  /// g becoming c f - sigma g and conj f + c g, in Rutishauser's form f -
  /// sigma (g + conj / (1 + c) f) and g + conj (f - sigma / (1 + c) g)
  /// (|sigma| = s: the same, with rounding errors small against the change;
  /// the plain form lost about n eps of V's orthogonality over the sweeps),
  /// put together in the tournament's next order. The vectors broadcast for
  /// it are named from `prefix`, once: a later call of the same prefix (V's
  /// columns after A's) reuses them.
  void rotate(const std::string &name, const std::string &x, const std::string &prefix,
              const Rotation &r, int64_t dim) {
    const ElementType e = t_.element();
    const Shape sq = t_.matrix(np_, np_), half = t_.vector(k_);
    Shape halfShape = sq;
    halfShape[static_cast<size_t>(dim)] = k_;
    const std::string HS = t_.type(halfShape), H = t_.type(half);
    // The vectors along the other dim of the halves.
    const std::vector<int64_t> dims = t_.batchAnd(dim);
    if (broadcasted_.insert(prefix).second) {
      t_.broadcast(prefix + "s", r.sigma, H, dims, HS);
      t_.broadcast(prefix + "sc", r.conj, H, dims, HS);
      t_.broadcast(prefix + "q", r.sigmaQuot, H, dims, HS);
      t_.broadcast(prefix + "qc", r.conjQuot, H, dims, HS);
    }
    t_.sliceAlong(name + "first", x, e, sq, dim, 0, k_);
    t_.sliceAlong(name + "second", x, e, sq, dim, k_, np_);
    t_.binary(name + "qf", "multiply", prefix + "qc", name + "first", HS);
    t_.binary(name + "gqf", "add", name + "second", name + "qf", HS);
    t_.binary(name + "sg", "multiply", prefix + "s", name + "gqf", HS);
    t_.binary(name + "first2", "subtract", name + "first", name + "sg", HS);
    t_.binary(name + "qg", "multiply", prefix + "q", name + "second", HS);
    t_.binary(name + "fqg", "subtract", name + "first", name + "qg", HS);
    t_.binary(name + "cf", "multiply", prefix + "sc", name + "fqg", HS);
    t_.binary(name + "second2", "add", name + "second", name + "cf", HS);
    t_.roundRobinNext(name, name + "first2", name + "second2", e, halfShape, dim);
  }

  /// `name`: `x` (of `element`, `shape`) in the tournament's next order
  /// along `dim`.
  void permute(const std::string &name, const std::string &x, ElementType element,
               const Shape &shape, int64_t dim) {
    Shape halfShape = shape;
    halfShape[static_cast<size_t>(dim)] = k_;
    t_.sliceAlong(name + "first", x, element, shape, dim, 0, k_);
    t_.sliceAlong(name + "second", x, element, shape, dim, k_, np_);
    t_.roundRobinNext(name, name + "first", name + "second", element, halfShape, dim);
  }

  /// The eigenvalues (the diagonal's real parts, the padding's dropped)
  /// ascending, the vectors' columns in the same order (a stable sort of
  /// each row of v by them), info 1 for a matrix not converged.
  void results() {
    const ElementType e = t_.element(), re = t_.real();
    const Shape sq = t_.matrix(np_, np_), full = t_.vector(np_), w = t_.vector(n_);
    const std::string W = t_.type(re, w), A = printType(a_),
                      info = t_.type(ElementType::I32, t_.batch());
    const std::string m = "%sweep#1";
    // The eigenvalues of a itself: the scaling undone (exactly).
    const std::string FR = t_.type(re, full), B = t_.type(re, t_.batch());
    t_.broadcast("%scaleF", "%scale", B, upTo(t_.rank() - 2), FR);
    narrow("%dgout", "%sweep#2", full);
    t_.binary("%unscaled", "divide", "%dgout", "%scaleF", FR);
    std::string diagonal = "%unscaled";
    const int64_t last = t_.rank() - 2;
    if (np_ != n_) {
      t_.sliceAlong("%wunsorted", diagonal, re, full, last, 0, n_);
      diagonal = "%wunsorted";
    }
    const std::string scalar = t_.type(re, {});
    auto comparator = [&](const std::string &extra) {
      t_.emit("^bb0(%lhs: " + scalar + ", %rhs: " + scalar + extra + "):");
      t_.emit("  %less = stablehlo.compare LT, %lhs, %rhs, TOTALORDER : (" + scalar + ", " +
              scalar + ") -> tensor<i1>");
      t_.emit("  stablehlo.return %less : tensor<i1>");
    };
    std::string vectorsOut = "%a";
    if (vectors_) {
      std::string v = "%sweep#3";
      if (np_ != n_) {
        t_.sliceCorner("%vcorner", v, sq, a_.shape);
        v = "%vcorner";
      }
      const std::string AR = t_.type(re, a_.shape), scalarE = t_.type(e, {});
      t_.broadcast("%keys", diagonal, W, t_.batchAnd(t_.rank() - 1), AR);
      t_.emit("%sorted:2 = \"stablehlo.sort\"(%keys, " + v +
              ") <{dimension = " + std::to_string(t_.rank() - 1) + " : i64, is_stable = true}> ({");
      comparator(", %lv: " + scalarE + ", %rv: " + scalarE);
      t_.emit("}) : (" + AR + ", " + A + ") -> (" + AR + ", " + A + ")");
      t_.sliceAlong("%wrow", "%sorted#0", re, a_.shape, t_.rank() - 2, 0, 1);
      t_.reshape("%w", "%wrow", t_.type(re, t_.matrix(1, n_)), W);
      vectorsOut = "%sorted#1";
    } else {
      t_.emit("%w = \"stablehlo.sort\"(" + diagonal + ") <{dimension = " + std::to_string(last) +
              " : i64, is_stable = true}> ({");
      comparator("");
      t_.emit("}) : (" + W + ") -> " + W);
    }
    converged("%fconv", m);
    t_.constant("%info0", "0", info);
    t_.constant("%info1", "1", info);
    t_.select("%info", "%fconv", "%info0", "%info1", t_.batch(), info);
    t_.emit("return " + vectorsOut + ", %w, %info : " + A + ", " + W + ", " + info);
  }

  MatrixText t_;
  std::string name_;
  TensorType a_;
  int64_t n_, np_, k_;
  bool lower_, vectors_;
  /// The prefixes of the rotation vectors broadcast so far.
  std::set<std::string> broadcasted_;
};

} // namespace

std::string eighFunctionText(const std::string &name, const TensorType &a, bool lower,
                             bool vectors) {
  return EighText(name, a, lower, vectors).function();
}

} // namespace shardgen::mlir
