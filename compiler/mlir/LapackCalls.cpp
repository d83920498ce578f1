#include "compiler/mlir/LapackCalls.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "compiler/ir/Diagnostic.h"
#include "compiler/mlir/FunctionExpansion.h"
#include "compiler/mlir/LapackFactorizations.h"
#include "compiler/mlir/MatrixText.h"
#include "compiler/mlir/MlirParser.h"

namespace shardgen::mlir {

namespace {

enum class Factorization { Lu, Cholesky, Qr, HouseholderProduct, PivotsToPermutation, Eigh, Svd };

/// What a target names: the factorization, and the element type its name
/// fixes (LAPACK's `s`, `d`, `c`, `z`; none for the GPU solvers', which
/// take any of the four).
struct LapackTarget {
  Factorization factorization;
  std::optional<ElementType> element;
};

/// `lapack_<s|d|c|z><getrf|potrf|geqrf|gesdd|gesvd>_ffi`, `lapack_<s|d>orgqr_ffi`,
/// `lapack_<c|z>ungqr_ffi` (CPU); `cusolver_` / `hipsolver_` +
/// `<getrf|potrf|geqrf|orgqr>_ffi` and `cu_` / `hip_` +
/// `lu_pivots_to_permutation` (GPU, as JAX prints them for CUDA and ROCm).
std::optional<LapackTarget> lapackTargetOf(const Operation &op) {
  if (op.name != "stablehlo.custom_call")
    return std::nullopt;
  const Attribute *target = op.find("call_target_name");
  if (!target ||
      (target->kind != Attribute::Kind::Symbol && target->kind != Attribute::Kind::String))
    return std::nullopt;
  const std::string &name = target->text;
  if (name == "cu_lu_pivots_to_permutation" || name == "hip_lu_pivots_to_permutation")
    return LapackTarget{Factorization::PivotsToPermutation, std::nullopt};
  static const std::map<std::string, Factorization> kRoutines = {
      {"getrf", Factorization::Lu},
      {"potrf", Factorization::Cholesky},
      {"geqrf", Factorization::Qr},
      {"orgqr", Factorization::HouseholderProduct},
      {"ungqr", Factorization::HouseholderProduct},
      {"syevd", Factorization::Eigh},
      {"heevd", Factorization::Eigh},
      {"gesdd", Factorization::Svd},
      {"gesvd", Factorization::Svd}};
  if (!name.ends_with("_ffi"))
    return std::nullopt;
  for (const char *solver : {"cusolver_", "hipsolver_"})
    if (name.starts_with(solver)) {
      const std::string routine =
          name.substr(std::string(solver).size(), name.size() - std::string(solver).size() - 4);
      const auto found = kRoutines.find(routine);
      // The GPU solvers' SVDs take other attributes (full_matrices, ...).
      if (found == kRoutines.end() || routine == "ungqr" || routine == "heevd" ||
          found->second == Factorization::Svd)
        return std::nullopt;
      return LapackTarget{found->second, std::nullopt};
    }
  if (name.size() != std::string("lapack_sgetrf_ffi").size() || !name.starts_with("lapack_"))
    return std::nullopt;
  static const std::map<char, ElementType> kLetters = {{'s', ElementType::F32},
                                                       {'d', ElementType::F64},
                                                       {'c', ElementType::C64},
                                                       {'z', ElementType::C128}};
  const auto letter = kLetters.find(name[7]);
  const auto found = kRoutines.find(name.substr(8, 5));
  if (letter == kLetters.end() || found == kRoutines.end())
    return std::nullopt;
  // orgqr and syevd on reals, ungqr and heevd on complex numbers.
  if (found->first == (isComplex(letter->second) ? "orgqr" : "ungqr") ||
      found->first == (isComplex(letter->second) ? "syevd" : "heevd"))
    return std::nullopt;
  return LapackTarget{found->second, letter->second};
}

/// One LAPACK call's checked operands, results and attributes, and the
/// text of the function it becomes (LapackFactorizations.h).
class LapackCall {
public:
  LapackCall(const Operation &op, const LapackTarget &target, std::string name)
      : target_(target), name_(std::move(name)), where_(op.loc.str()) {
    routine_ = op.find("call_target_name")->text;
    const Factorization kind = target.factorization;
    const size_t operands = kind == Factorization::HouseholderProduct ? 2 : 1;
    const size_t results =
        kind == Factorization::Svd                                 ? 5
        : kind == Factorization::Lu || kind == Factorization::Eigh ? 3
        : kind == Factorization::HouseholderProduct || kind == Factorization::PivotsToPermutation
            ? 1
            : 2;
    static const char *const kSignatures[] = {"(a) -> (factors, pivots, info)",
                                              "(a) -> (factor, info)",
                                              "(a) -> (a', taus)",
                                              "(a, taus) -> q",
                                              "(pivots) -> permutation",
                                              "(a) -> (vectors, eigenvalues, info)",
                                              "(a) -> (a', s, u, vt, info)"};
    check(op.operands.size() == operands && op.regions.empty() && op.results.size() == results &&
              op.operandTypes.size() == operands && op.resultTypes.size() == results,
          std::string("takes ") + kSignatures[static_cast<int>(kind)] + " and needs its types");
    a_ = statedType(op.operandTypes[0], op.operandTypes[0].loc.str(), routine_ + ": ");
    for (const NamedAttribute &attr : op.attrs)
      checkAttribute(attr);
    if (kind == Factorization::PivotsToPermutation) {
      checkPermutation(op);
      return;
    }
    if (target.element)
      check(a_.elementType == *target.element, "takes " +
                                                   std::string(elementTypeName(*target.element)) +
                                                   " matrices, got " + printType(a_));
    else
      check(isComplex(a_.elementType) || a_.elementType == ElementType::F32 ||
                a_.elementType == ElementType::F64,
            "takes f32, f64, complex<f32> or complex<f64> matrices, got " + printType(a_));
    check(a_.rank() >= 2, "takes matrices (rank 2 or more), got " + printType(a_));
    m_ = a_.shape[a_.rank() - 2];
    n_ = a_.shape[a_.rank() - 1];
    batch_ = Shape(a_.shape.begin(), a_.shape.end() - 2);
    if (kind == Factorization::Cholesky || kind == Factorization::Eigh)
      check(m_ == n_, "takes square matrices, got " + printType(a_));
    std::vector<TensorType> expected = {a_};
    if (kind == Factorization::Lu)
      expected.push_back(TensorType{ElementType::I32, withLast(std::min(m_, n_))});
    if (kind == Factorization::Eigh)
      expected.push_back(
          TensorType{isComplex(a_.elementType) ? complexPartType(a_.elementType) : a_.elementType,
                     withLast(n_)});
    if (kind == Factorization::Svd)
      expectSvdResults(op, expected);
    if (kind == Factorization::Lu || kind == Factorization::Cholesky ||
        kind == Factorization::Eigh || kind == Factorization::Svd)
      expected.push_back(TensorType{ElementType::I32, batch_});
    if (kind == Factorization::Qr)
      expected.push_back(TensorType{a_.elementType, withLast(std::min(m_, n_))});
    if (kind == Factorization::HouseholderProduct) {
      taus_ = statedType(op.operandTypes[1], op.operandTypes[1].loc.str(), routine_ + ": ");
      check(taus_.elementType == a_.elementType && taus_.rank() == a_.rank() - 1 &&
                Shape(taus_.shape.begin(), taus_.shape.end() - 1) == batch_ &&
                taus_.shape.back() <= n_ && n_ <= m_,
            "takes k taus of a's batch and type, k <= n <= m for m x n matrices, got " +
                printType(a_) + " and " + printType(taus_));
    }
    for (size_t i = 0; i < results; ++i) {
      const TensorType stated =
          statedType(op.resultTypes[i], op.resultTypes[i].loc.str(), routine_ + ": ");
      check(stated == expected[i], "result " + std::to_string(i) + " must be " +
                                       printType(expected[i]) + ", got " + printType(stated));
    }
  }

  std::string functionText() const {
    if (target_.factorization == Factorization::PivotsToPermutation)
      return pivotsToPermutationText(name_, a_, permutationSize_);
    // (Eigh's gather of its pairs' entries takes a batch of at least one;
    // an empty batch is nothing to do for Svd either.)
    const bool jacobi =
        target_.factorization == Factorization::Eigh || target_.factorization == Factorization::Svd;
    if (m_ == 0 || n_ == 0 ||
        (target_.factorization == Factorization::HouseholderProduct && taus_.shape.back() == 0) ||
        (jacobi && a_.numElements() == 0))
      return nothingToFactorText();
    switch (target_.factorization) {
    case Factorization::Lu:
      return luFunctionText(name_, a_);
    case Factorization::Cholesky:
      return choleskyFunctionText(name_, a_, lower_);
    case Factorization::Qr:
      return qrFunctionText(name_, a_);
    case Factorization::HouseholderProduct:
      return householderProductText(name_, a_, taus_);
    case Factorization::Eigh:
      return eighFunctionText(name_, a_, lower_, vectors_);
    case Factorization::Svd:
      return svdFunctionText(name_, a_, svdMode_ != 'N', fullMatrices_);
    case Factorization::PivotsToPermutation:
      break;
    }
    return "";
  }

private:
  /// An empty matrix (or eigh's empty batch), or no reflectors: nothing to
  /// do, as LAPACK does nothing. The matrices come back as they are (orgqr's as the
  /// identity's first columns), pivots and taus empty, info 0.
  std::string nothingToFactorText() const {
    MatrixText t(a_.elementType, batch_);
    const Factorization kind = target_.factorization;
    const std::string A = printType(a_), info = t.type(ElementType::I32, batch_);
    std::vector<std::string> results = {A}, values = {"%a"};
    if (kind == Factorization::Lu) {
      results.push_back(t.type(ElementType::I32, withLast(0)));
      t.constant("%pivots", "", results.back());
      values.push_back("%pivots");
    }
    if (kind == Factorization::Qr) {
      results.push_back(t.type(withLast(0)));
      t.constant("%taus", "", results.back());
      values.push_back("%taus");
    }
    if (kind == Factorization::Eigh) {
      results.push_back(t.type(t.real(), withLast(n_)));
      t.constant("%eigenvalues", "", results.back());
      values.push_back("%eigenvalues");
    }
    if (kind == Factorization::Svd) {
      results.push_back(t.type(t.real(), withLast(0)));
      t.constant("%s", "", results.back());
      values.push_back("%s");
      const int64_t k = std::min(m_, n_);
      t.identity("%u", t.matrix(m_, fullMatrices_ ? m_ : k));
      t.identity("%vt", t.matrix(fullMatrices_ ? n_ : k, n_));
      results.push_back(t.type(t.matrix(m_, fullMatrices_ ? m_ : k)));
      results.push_back(t.type(t.matrix(fullMatrices_ ? n_ : k, n_)));
      values.insert(values.end(), {"%u", "%vt"});
    }
    if (kind == Factorization::Lu || kind == Factorization::Cholesky ||
        kind == Factorization::Eigh || kind == Factorization::Svd) {
      results.push_back(info);
      t.constant("%info", "0", info);
      values.push_back("%info");
    }
    if (kind == Factorization::HouseholderProduct) {
      t.identity("%identity", a_.shape);
      values[0] = "%identity";
    }
    std::string types, names;
    for (size_t i = 0; i < results.size(); ++i) {
      types += (i ? ", " : "") + results[i];
      names += (i ? ", " : "") + values[i];
    }
    std::string header =
        "func.func private @" + name_ + "(%a: " + A +
        (kind == Factorization::HouseholderProduct ? ", %t: " + printType(taus_) : std::string()) +
        ") -> (" + types + ") {\n";
    return header + t.text() + "  return " + names + " : " + types + "\n}\n";
  }

  /// gesdd / gesvd: s, then u and vt as the mode says (A: m x m and n x n,
  /// S: m x k and k x n; N: either, as stated, JAX's placeholders).
  void expectSvdResults(const Operation &op, std::vector<TensorType> &expected) {
    check(svdMode_ == 'A' || svdMode_ == 'S' || svdMode_ == 'N',
          "needs backend_config mode = 65 ('A'), 83 ('S') or 78 ('N')");
    const int64_t k = std::min(m_, n_);
    fullMatrices_ = svdMode_ == 'A';
    if (svdMode_ == 'N') {
      const TensorType u = statedType(op.resultTypes[2], op.resultTypes[2].loc.str(), routine_);
      fullMatrices_ = u.rank() == a_.rank() && u.shape.back() == m_;
    }
    const ElementType e = a_.elementType;
    expected.push_back(TensorType{isComplex(e) ? complexPartType(e) : e, withLast(k)});
    Shape u = batch_, vt = batch_;
    u.insert(u.end(), {m_, fullMatrices_ ? m_ : k});
    vt.insert(vt.end(), {fullMatrices_ ? n_ : k, n_});
    expected.push_back(TensorType{e, u});
    expected.push_back(TensorType{e, vt});
  }

  /// lu_pivots_to_permutation: i32 pivots of rank 1 or more to an i32
  /// permutation of the same batch, at least as long.
  void checkPermutation(const Operation &op) {
    check(a_.elementType == ElementType::I32 && a_.rank() >= 1,
          "takes i32 pivots (rank 1 or more), got " + printType(a_));
    const TensorType stated =
        statedType(op.resultTypes[0], op.resultTypes[0].loc.str(), routine_ + ": ");
    check(stated.elementType == ElementType::I32 && stated.rank() == a_.rank() &&
              std::equal(a_.shape.begin(), a_.shape.end() - 1, stated.shape.begin()) &&
              stated.shape.back() >= a_.shape.back(),
          "gives an i32 permutation of the pivots' batch, at least as long as they are, got " +
              printType(stated) + " from " + printType(a_));
    permutationSize_ = stated.shape.back();
  }

  void check(bool holds, const std::string &what) const {
    if (!holds)
      fail(where_, "custom_call @" + routine_ + " " + what);
  }

  void checkAttribute(const NamedAttribute &attr) {
    const std::string &name = attr.name;
    // Layouts say how LAPACK sees the buffers, not the values; the results'
    // sdy.sharding stays on the call the op becomes, a Shardy rule has no
    // op left to apply to.
    if (name == "call_target_name" || name == "operand_layouts" || name == "result_layouts" ||
        name == "output_operand_aliases" || name == "sdy.sharding" || name == "sdy.sharding_rule" ||
        name.starts_with("shardgen.") || name == "mhlo.frontend_attributes")
      return;
    if (name == "mhlo.sharding") {
      check(false, "takes its results' shardings as sdy.sharding, not mhlo.sharding (constrain "
                   "the results with a sharding_constraint instead)");
    }
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
        const bool triangle = target_.factorization == Factorization::Cholesky ||
                              target_.factorization == Factorization::Eigh;
        if (field.name == "lower" && triangle && !target_.element) { // the GPU solvers'
          check(field.value.kind == Attribute::Kind::Word &&
                    (field.value.text == "true" || field.value.text == "false"),
                "takes lower = true or false");
          lower_ = field.value.text == "true";
          continue;
        }
        if (field.name == "mode" && target_.factorization == Factorization::Svd) {
          check(field.value.kind == Attribute::Kind::Integer &&
                    (field.value.integer == 'A' || field.value.integer == 'S' ||
                     field.value.integer == 'N'),
                "takes mode = 65 ('A'), 83 ('S') or 78 ('N')");
          svdMode_ = static_cast<char>(field.value.integer);
          continue;
        }
        if (target_.factorization == Factorization::Eigh && checkEighField(field))
          continue;
        check(field.name == "uplo" && triangle && target_.element,
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

  /// syevd's `mode` (86 'V': vectors too, 78 'N': eigenvalues only) and
  /// the GPU solvers' `algorithm` (0 default, 1 QR, 2 Jacobi: the same
  /// values up to rounding): whether `field` is one of them.
  bool checkEighField(const NamedAttribute &field) {
    if (field.name == "mode" && target_.element) {
      check(field.value.kind == Attribute::Kind::Integer &&
                (field.value.integer == 'V' || field.value.integer == 'N'),
            "takes mode = 86 ('V') or 78 ('N')");
      vectors_ = field.value.integer == 'V';
      return true;
    }
    if (field.name == "algorithm" && !target_.element) {
      check(field.value.kind == Attribute::Kind::Integer && field.value.integer >= 0 &&
                field.value.integer <= 2,
            "takes algorithm = 0, 1 or 2");
      return true;
    }
    return false;
  }

  /// The batch dims followed by `dim`.
  Shape withLast(int64_t dim) const {
    Shape shape = batch_;
    shape.push_back(dim);
    return shape;
  }

  LapackTarget target_;
  std::string name_, where_, routine_;
  TensorType a_, taus_;
  Shape batch_;
  int64_t m_ = 0, n_ = 0;
  bool lower_ = true, vectors_ = true;
  int64_t permutationSize_ = 0;
  char svdMode_ = 0;
  bool fullMatrices_ = true;
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
