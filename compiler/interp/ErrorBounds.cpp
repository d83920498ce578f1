#include "compiler/interp/ErrorBounds.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "compiler/interp/Collectives.h"
#include "compiler/interp/ElementFunctions.h"
#include "compiler/interp/Kernels.h"
#include "compiler/interp/LocalOps.h"
#include "compiler/ir/InternalError.h"
#include "compiler/ops/OpTable.h"

namespace shardgen::interp {
namespace {

// A complex value's bound is one number for both parts: neither part is
// further than it from the interpreter's. Complex arithmetic and functions
// are one copy in the interpreter and generated code (runtime's complex.h):
// exact operands give the same bits, except for sums in another order.

constexpr double kUnknown = std::numeric_limits<double>::infinity();

/// An 8-, 6- or 4-bit float's precision (the implicit bit counted), the
/// exponent of its smallest normal value and its largest finite value.
struct MiniFloatLimits {
  int precision = 0, minExponent = 0;
  double maxFinite = 0;
};
template <typename F> MiniFloatLimits miniFloatLimits() {
  using runtime::MiniFloatKind;
  return {F::kMantissaBits + 1, F::kKind == MiniFloatKind::ExponentOnly ? -F::kBias : 1 - F::kBias,
          runtime::miniFloatToFloat<F>(static_cast<uint8_t>(F::kMaxFinite))};
}
MiniFloatLimits miniFloatLimits(ElementType type) {
  switch (type) {
#define SHARDGEN_MINI_FLOAT_LIMITS(Name, mlirName)                                                 \
  case ElementType::Name:                                                                          \
    return miniFloatLimits<runtime::Format##Name>();
    SHARDGEN_FOR_EACH_MINI_FLOAT(SHARDGEN_MINI_FLOAT_LIMITS)
#undef SHARDGEN_MINI_FLOAT_LIMITS
  default:
    throw InternalError("miniFloatLimits of " + std::string(elementTypeName(type)));
  }
}

int precisionBits(ElementType type) {
  if (isMiniFloat(type))
    return miniFloatLimits(type).precision;
  switch (type) {
  case ElementType::F64:
    return 53;
  case ElementType::F16:
    return 11;
  case ElementType::BF16:
    return 8;
  default:
    return 24;
  }
}

int minExponent(ElementType type) {
  if (isMiniFloat(type))
    return miniFloatLimits(type).minExponent;
  switch (type) {
  case ElementType::F64:
    return -1022;
  case ElementType::F16:
    return -14;
  default:
    return -126;
  }
}

double maxFinite(ElementType type) {
  if (isMiniFloat(type))
    return miniFloatLimits(type).maxFinite;
  switch (type) {
  case ElementType::F64:
    return std::numeric_limits<double>::max();
  case ElementType::F16:
    return 65504.0;
  case ElementType::BF16:
    return 0x1.fep127;
  default:
    return std::numeric_limits<float>::max();
  }
}

/// f16, bf16 and the mini floats compute in f32 (interpreter and generated
/// code alike).
ElementType computeType(ElementType type) {
  return type == ElementType::F16 || type == ElementType::BF16 || isMiniFloat(type)
             ? ElementType::F32
             : type;
}

double unitRoundoff(ElementType type) { return std::ldexp(1.0, -precisionBits(type)); }

/// The spacing of `type`'s values at magnitude |x| (subnormals included).
double ulp(ElementType type, double x) {
  int exponent = minExponent(type);
  x = std::fabs(x);
  if (x != 0 && std::isfinite(x)) {
    int e = 0;
    std::frexp(x, &e);
    exponent = std::max(exponent, e - 1);
  }
  return std::ldexp(1.0, exponent - precisionBits(type) + 1);
}

/// Relative bound (times the sum of |terms|) of the difference between two
/// sums of the same n terms in different orders, both accumulated in the
/// compute type (n u each), the compiled one possibly rounding partial sums
/// to `type` on the way (sharded: partials stored, then all_reduce; u per
/// level, two levels allowed). The final roundings are finish()'s ulp.
double sumFactor(ElementType type, int64_t n) {
  return 2.0 * static_cast<double>(n) * unitRoundoff(computeType(type)) + 2.0 * unitRoundoff(type);
}

/// The bound of a result `r` whose exact value moves by at most `spread`
/// under the operands' errors, with `slack` for an approximation, plus the
/// two roundings to the element type (unless the op is exact).
double finish(ElementType type, double r, double spread, double slack = 0, bool exact = false) {
  if (std::isnan(spread))
    return kUnknown;
  if (spread == 0 && slack == 0)
    return 0;
  if (!std::isfinite(r))
    return spread == 0 ? 0 : kUnknown; // the same inf/NaN from the same operands
  double bound = spread + slack;
  if (!exact)
    bound += ulp(type, std::fabs(r) + bound);
  return std::fabs(r) + bound > maxFinite(type) ? kUnknown : bound;
}

bool allZero(const Literal &bounds) {
  const double *b = bounds.as<double>();
  return std::all_of(b, b + bounds.numElements(), [](double x) { return x == 0; });
}

bool allZero(const std::vector<const Literal *> &bounds) {
  return std::all_of(bounds.begin(), bounds.end(), [](const Literal *b) { return allZero(*b); });
}

Literal filled(const Shape &shape, double value) {
  Literal out(TensorType{ElementType::F64, shape});
  std::fill(out.as<double>(), out.as<double>() + out.numElements(), value);
  return out;
}

/// Integers and i1 are exact, unless an operand is not: then unknown.
Literal exactOrUnknown(const Shape &shape, const std::vector<const Literal *> &operandBounds) {
  return filled(shape, allZero(operandBounds) ? 0.0 : kUnknown);
}

/// |x_i|: a complex element's modulus.
double magnitudeAt(const Literal &x, int64_t i) {
  return isComplex(x.elementType()) ? std::hypot(x.getFloat(i), x.getImag(i))
                                    : std::fabs(x.getFloat(i));
}

/// Whether x's elements i and j are the same value (both parts).
bool sameElement(const Literal &x, int64_t i, const Literal &y, int64_t j) {
  return x.getInt(i) == y.getInt(j) && x.getFloat(i) == y.getFloat(j) &&
         x.getImag(i) == y.getImag(j);
}

void addInto(Literal &sum, const Literal &term) {
  double *s = sum.as<double>();
  const double *t = term.as<double>();
  for (int64_t i = 0; i < sum.numElements(); ++i)
    s[i] += t[i];
}

/// max(|f(x - e) - f(x)|, |f(x + e) - f(x)|): the spread of a monotone f.
template <typename Fn> double monotoneSpread(Fn f, double x, double e) {
  if (e == 0)
    return 0;
  const double fx = f(x);
  const double spread = std::max(std::fabs(f(x - e) - fx), std::fabs(f(x + e) - fx));
  return std::isnan(spread) ? kUnknown : spread;
}

/// |a^b - a'^b'| over the box of operands: a^b is monotone in each operand
/// for a > 0, so the extremes are at the corners.
double powerSpread(double a, double ea, double b, double eb) {
  if (ea + eb == 0)
    return 0;
  if (a - ea <= 0)
    return kUnknown;
  const double center = std::pow(a, b);
  double spread = 0;
  for (double x : {a - ea, a + ea})
    for (double y : {b - eb, b + eb})
      spread = std::max(spread, std::fabs(std::pow(x, y) - center));
  return std::isnan(spread) ? kUnknown : spread;
}

/// A comparison is exact unless its operands' intervals overlap.
Literal compareBounds(const Literal &lhs, const Literal &rhs, const Literal &lhsBound,
                      const Literal &rhsBound) {
  Literal out = exactBounds(lhs.shape());
  double *bound = out.as<double>();
  const double *ea = lhsBound.as<double>(), *eb = rhsBound.as<double>();
  const bool isFloatType = isFloat(lhs.elementType());
  for (int64_t i = 0; i < out.numElements(); ++i) {
    const double spread = ea[i] + eb[i];
    if (spread == 0)
      continue;
    if (isComplex(lhs.elementType())) { // an inexact part may flip any comparison
      bound[i] = kUnknown;
      continue;
    }
    const double gap =
        isFloatType
            ? std::fabs(lhs.getFloat(i) - rhs.getFloat(i))
            : std::fabs(static_cast<double>(lhs.getInt(i)) - static_cast<double>(rhs.getInt(i)));
    bound[i] = gap > spread ? 0 : kUnknown;
  }
  return out;
}

/// Element i of a scalar-or-full operand.
int64_t at(const Literal &x, int64_t i) { return x.shape().empty() ? 0 : i; }

Literal selectBounds(const Literal &pred, const Literal &onTrue, const Literal &onFalse,
                     const Literal &predBound, const Literal &trueBound,
                     const Literal &falseBound) {
  const bool isFloatType = isFloat(onTrue.elementType());
  Literal out = exactBounds(onTrue.shape());
  double *bound = out.as<double>();
  const double *ep = predBound.as<double>(), *et = trueBound.as<double>(),
               *ef = falseBound.as<double>();
  for (int64_t i = 0; i < out.numElements(); ++i) {
    const int64_t p = at(pred, i);
    if (ep[p] == 0) {
      bound[i] = pred.getInt(p) ? et[i] : ef[i];
    } else if (isFloatType) {
      const double gap = std::fabs(onTrue.getFloat(i) - onFalse.getFloat(i));
      bound[i] = std::isnan(gap) ? kUnknown : std::max(et[i], ef[i]) + gap;
    } else if (isComplex(onTrue.elementType())) {
      bound[i] = sameElement(onTrue, i, onFalse, i) ? std::max(et[i], ef[i]) : kUnknown;
    } else {
      bound[i] = onTrue.getInt(i) == onFalse.getInt(i) ? std::max(et[i], ef[i]) : kUnknown;
    }
  }
  return out;
}

Literal clampBounds(const Literal &min, const Literal &max, const Literal &minBound,
                    const Literal &xBound, const Literal &maxBound) {
  Literal out = exactBounds(xBound.shape());
  double *bound = out.as<double>();
  const double *elo = minBound.as<double>(), *ex = xBound.as<double>(),
               *ehi = maxBound.as<double>();
  for (int64_t i = 0; i < out.numElements(); ++i)
    bound[i] = std::max({elo[at(min, i)], ex[i], ehi[at(max, i)]});
  return out;
}

Literal convertBounds(const Literal &x, const Literal &xBound, const Literal &result) {
  const ElementType from = x.elementType(), to = result.elementType();
  Literal out = exactBounds(result.shape());
  double *bound = out.as<double>();
  const double *e = xBound.as<double>();
  for (int64_t i = 0; i < out.numElements(); ++i) {
    if (e[i] == 0)
      continue;
    if (to == ElementType::I1)
      bound[i] =
          (isFloat(from) || isComplex(from)) && std::fabs(x.getFloat(i)) > e[i] ? 0 : kUnknown;
    else if (isComplex(to)) // both parts: the real one moves, the imaginary one is 0 or moves
      bound[i] = finish(complexPartType(to), magnitudeAt(result, i), e[i]);
    else if (isComplex(from) && isFloat(to)) // the real part
      bound[i] = finish(to, result.getFloat(i), e[i]);
    else if (isComplex(from))
      bound[i] = std::floor(e[i]) + 1;
    else if (isFloat(to))
      bound[i] = finish(to, result.getFloat(i), e[i]);
    else if (isFloat(from))
      bound[i] = std::floor(e[i]) + 1; // truncation moves by at most one more
    else
      bound[i] = kUnknown; // integer conversions wrap
  }
  return out;
}

/// The smallest normal f32 (and bf16): vdpbf16ps reads smaller inputs as
/// zero and flushes smaller results to zero.
constexpr double kMinNormal = 0x1p-126;

/// Per element of an operand: the largest magnitude it may have in the
/// compiled code while being a denormal there (its value within its bound),
/// else 0.
Literal denormalMagnitudes(const Literal &x, const Literal &xBound, bool &any) {
  Literal out = exactBounds(x.shape());
  const double *e = xBound.as<double>();
  for (int64_t i = 0; i < x.numElements(); ++i) {
    const double magnitude = std::fabs(x.getFloat(i));
    if (magnitude + e[i] > 0 && magnitude - e[i] < kMinNormal) {
      out.as<double>()[i] = std::min(magnitude + e[i], kMinNormal);
      any = true;
    }
  }
  return out;
}

/// What a bf16 dot on vdpbf16ps may lose besides the order of its sum (Intel's
/// definition: two FMAs per lane and pair, denormal inputs read as zero,
/// denormal results flushed to zero, MXCSR ignored): each product with a
/// denormal factor, and below 2^-126 per FMA of the element's chain.
Literal flushedBf16Terms(const DotGeneralAttrs &attrs, const Literal &lhs, const Literal &rhs,
                         const Literal &lhsBound, const Literal &rhsBound, int64_t depth,
                         const Shape &shape) {
  bool any = false;
  const Literal lhsDenormal = denormalMagnitudes(lhs, lhsBound, any);
  const Literal rhsDenormal = denormalMagnitudes(rhs, rhsBound, any);
  Literal out = filled(shape, static_cast<double>(depth) * kMinNormal);
  if (any) {
    Literal lhsMax = magnitudes(lhs), rhsMax = magnitudes(rhs);
    addInto(lhsMax, lhsBound);
    addInto(rhsMax, rhsBound);
    addInto(out, evalDotGeneral(lhsDenormal, rhsMax, attrs));
    addInto(out, evalDotGeneral(lhsMax, rhsDenormal, attrs));
  }
  return out;
}

/// dot_general or convolution: each result element a sum of `depth`
/// products of an lhs and an rhs element; `product` is the op itself,
/// applied to f64 magnitudes and bounds.
struct ProductSum {
  std::function<Literal(const Literal &, const Literal &)> product;
  int64_t depth;
};

/// The bound's spread from the operands' own bounds: |a| eb + ea |b| + ea eb.
Literal operandSpread(const ProductSum &op, const Literal &a, const Literal &b, const Literal &ea,
                      const Literal &eb, const Shape &shape) {
  Literal spread = exactBounds(shape);
  if (!allZero(eb))
    addInto(spread, op.product(a, eb));
  if (!allZero(ea)) {
    addInto(spread, op.product(ea, b));
    if (!allZero(eb))
      addInto(spread, op.product(ea, eb));
  }
  return spread;
}

/// Complex: each part of an element is a sum of 2 depth real products, each
/// at most |a||b|; a bound of both parts moves a factor by at most sqrt(2)
/// times it.
Literal complexProductBounds(const ProductSum &op, const Literal &lhs, const Literal &rhs,
                             const Literal &lhsBound, const Literal &rhsBound,
                             const Literal &result) {
  const Literal a = magnitudes(lhs), b = magnitudes(rhs);
  Literal ea = lhsBound, eb = rhsBound;
  for (Literal *e : {&ea, &eb})
    for (int64_t i = 0; i < e->numElements(); ++i)
      e->as<double>()[i] *= std::sqrt(2.0);
  Literal spread = operandSpread(op, a, b, ea, eb, result.shape());
  Literal terms = op.product(a, b);
  for (int64_t i = 0; i < terms.numElements(); ++i)
    terms.as<double>()[i] *= 2;
  addSumBound(spread, terms, result, 2 * op.depth);
  return spread;
}

/// The bound of a sum of products: the operands' spread, and the sum's
/// rounding in any order (`extra`: what the kernel may lose besides).
Literal productBounds(const ProductSum &op, const Literal &lhs, const Literal &rhs,
                      const Literal &lhsBound, const Literal &rhsBound, const Literal &result,
                      const std::function<void(Literal &)> &extra = {}) {
  const ElementType type = result.elementType();
  if (isComplex(type))
    return complexProductBounds(op, lhs, rhs, lhsBound, rhsBound, result);
  if (!isFloat(type))
    return exactOrUnknown(result.shape(), {&lhsBound, &rhsBound});
  const Literal a = magnitudes(lhs), b = magnitudes(rhs);
  Literal spread = operandSpread(op, a, b, lhsBound, rhsBound, result.shape());
  const Literal terms = op.product(a, b);
  const double factor = sumFactor(type, op.depth);
  if (extra)
    extra(spread);
  double *bound = spread.as<double>();
  const double *magnitude = terms.as<double>();
  for (int64_t i = 0; i < spread.numElements(); ++i)
    bound[i] = finish(type, result.getFloat(i), bound[i] + factor * magnitude[i]);
  return spread;
}

Literal dotBounds(const DotGeneralAttrs &attrs, const Literal &lhs, const Literal &rhs,
                  const Literal &lhsBound, const Literal &rhsBound, const Literal &result) {
  int64_t depth = 1;
  for (int64_t d : attrs.lhsContractingDimensions)
    depth *= lhs.shape()[d];
  const ProductSum dot{
      [&](const Literal &x, const Literal &y) { return evalDotGeneral(x, y, attrs); }, depth};
  return productBounds(dot, lhs, rhs, lhsBound, rhsBound, result, [&](Literal &spread) {
    // The kernel's bf16 products (not bf16 operands widened first).
    if (result.elementType() == ElementType::BF16)
      addInto(spread, flushedBf16Terms(attrs, lhs, rhs, lhsBound, rhsBound, depth, result.shape()));
  });
}

Literal reduceBounds(const std::vector<int64_t> &dims, Reducer reducer, const Literal &operand,
                     const Literal &init, const Literal &operandBound, const Literal &initBound,
                     const Literal &result) {
  const ElementType type = result.elementType();
  if (!isFloat(type) && !isComplex(type))
    return exactOrUnknown(result.shape(), {&operandBound, &initBound});
  int64_t count = 1; // the init value too
  for (int64_t d : dims)
    count *= operand.shape()[d];
  if (isComplex(type) && reducer != Reducer::Add) {
    // Lexicographic selection is exact in any order, but not Lipschitz; a
    // product's rounding depends on the order.
    const bool exact = allZero(operandBound) && allZero(initBound) && reducer != Reducer::Mul;
    return filled(result.shape(), exact ? 0.0 : kUnknown);
  }
  if (reducer == Reducer::Max || reducer == Reducer::Min) {
    // Both are exact and 1-Lipschitz in every operand, in any order.
    return evalReduce(operandBound, initBound, dims, Reducer::Max);
  }
  if (reducer == Reducer::Mul) {
    if (!allZero(operandBound) || !allZero(initBound))
      return filled(result.shape(), kUnknown);
    Literal out = exactBounds(result.shape());
    for (int64_t i = 0; i < out.numElements(); ++i)
      out.as<double>()[i] =
          finish(type, result.getFloat(i), sumFactor(type, count) * std::fabs(result.getFloat(i)));
    return out;
  }
  Literal spread = evalReduce(operandBound, initBound, dims, reducer);
  addSumBound(spread, evalReduce(magnitudes(operand), magnitudes(init), dims, reducer), result,
              count);
  return spread;
}

/// The ops a scalar body may hold that give the same bits in any order of
/// application and grouping: they only select, compare and combine bits
/// (argmax, argmin; a complex max compares real and imag parts). Float
/// arithmetic rounds differently per order; an op not listed leaves the
/// bound undetermined, never too tight.
constexpr OpKind kReorderExactly[] = {
    OpKind::Constant, OpKind::Compare, OpKind::Select,  OpKind::Clamp, OpKind::Maximum,
    OpKind::Minimum,  OpKind::And,     OpKind::Or,      OpKind::Xor,   OpKind::Not,
    OpKind::Real,     OpKind::Imag,    OpKind::Complex,
};
/// Those that do on integers, which wrap (and associate).
constexpr OpKind kReorderExactlyOnIntegers[] = {OpKind::Add, OpKind::Multiply};

bool reordersExactly(const Graph &graph, const Region &body) {
  return std::all_of(body.ops.begin(), body.ops.end(), [&](const Op &op) {
    return std::ranges::count(kReorderExactly, op.kind) != 0 ||
           (std::ranges::count(kReorderExactlyOnIntegers, op.kind) != 0 &&
            !isFloat(graph.type(op.results[0]).elementType));
  });
}

/// A general-body reduce (ScalarRegion.h): exact when its operands are and
/// the body reorders exactly (a sharded reduce applies it in another
/// order); else undetermined.
std::vector<Literal> regionReduceBounds(const Graph &graph, const Op &op,
                                        const std::vector<const Literal *> &operandBounds,
                                        const std::vector<Literal> &results) {
  const bool exact = allZero(operandBounds) && reordersExactly(graph, *op.body());
  std::vector<Literal> out;
  for (const Literal &result : results)
    out.push_back(filled(result.shape(), exact ? 0.0 : kUnknown));
  return out;
}

} // namespace

Literal exactBounds(const Shape &shape) { return filled(shape, 0.0); }

Literal unknownBounds(const Shape &shape) { return filled(shape, kUnknown); }

Literal magnitudes(const Literal &x) {
  Literal out(TensorType{ElementType::F64, x.shape()});
  const bool isFloatType = isFloat(x.elementType()) || isComplex(x.elementType());
  for (int64_t i = 0; i < x.numElements(); ++i)
    out.as<double>()[i] =
        isFloatType ? magnitudeAt(x, i) : std::fabs(static_cast<double>(x.getInt(i)));
  return out;
}

void addSumBound(Literal &bounds, const Literal &magnitudes, const Literal &result, int64_t count) {
  const ElementType type = result.elementType();
  double *bound = bounds.as<double>();
  const double *magnitude = magnitudes.as<double>();
  // A complex sum is two real sums, each of parts at most the terms' moduli.
  const ElementType part = complexPartType(type);
  const double factor = sumFactor(part, count);
  for (int64_t i = 0; i < bounds.numElements(); ++i)
    bound[i] = finish(part, magnitudeAt(result, i), bound[i] + factor * magnitude[i]);
}

namespace {

/// What an op's bounds are computed from: one device's operands, their
/// bounds and results (an op run on each device), or every device's (a
/// collective: `grid` is set).
struct BoundsInputs {
  const Graph &graph;
  const Op &op;
  std::vector<const Literal *> operands, operandBounds;
  const std::vector<Literal> *results = nullptr;
  const DeviceGrid *grid = nullptr;
  std::vector<const PerDevice *> deviceOperands, deviceOperandBounds;
  const PerDevice *deviceResults = nullptr;

  bool collective() const { return grid != nullptr; }
  const Literal &x(size_t i) const { return *operands[i]; }
  const Literal &e(size_t i) const { return *operandBounds[i]; }
  const Literal &result(size_t i) const { return (*results)[i]; }
};

// The op table's Bounds column (compiler/ops/Ops.def): the bounds of an
// op's results, one per result (an op run on each device) or one per device
// (a collective, which has one result). A row naming a function this file
// does not define fails the build.
#define SHARDGEN_OP(Kind, Name, Category, Operands, Results, Attrs, Elements, Bound, Mlir, Infer,  \
                    Rule, Eval, Bounds, ...)                                                       \
  std::vector<Literal> Bounds(const BoundsInputs &in);
#include "compiler/ops/Ops.def"

/// Sources and axis_index: exact.
std::vector<Literal> zeroBound(const BoundsInputs &in) {
  std::vector<Literal> out;
  for (const Literal &result : in.collective() ? *in.deviceResults : *in.results)
    out.push_back(exactBounds(result.shape()));
  return out;
}

// The unary and binary elementwise ops' bound classes: how a float result
// moves under its operands' errors, plus the slack of the generated code's
// implementation. Integer results are exact from exact operands, else
// unknown, whatever the class.

/// One element of a float unary op's result r = f(v), v with bound e.
struct UnaryElement {
  ElementType type;
  UnaryAtF64 f;
  double v, e, r;
  double libmSlack;     // one ulp of r in the compute type: libm's error
  double approximation; // ulps of the f32 generated code's own exp, tanh, log
  double monotone() const { return monotoneSpread(f, v, e); }
};

/// abs of a complex value whose parts have bound e: |dz| <= sqrt(2) e.
Literal modulusBounds(const Literal &e, const Literal &result) {
  Literal out = exactBounds(result.shape());
  for (int64_t i = 0; i < result.numElements(); ++i)
    if (const double bound = e.as<double>()[i]; bound != 0)
      out.as<double>()[i] =
          finish(result.elementType(), result.getFloat(i), std::sqrt(2.0) * bound);
  return out;
}

template <typename PerElement>
std::vector<Literal> unaryBounds(const BoundsInputs &in, PerElement perElement) {
  const Literal &x = in.x(0), &result = in.result(0);
  const ElementType type = result.elementType();
  if (isComplex(x.elementType()) && isFloat(type)) // abs: |z| moves by at most |dz|
    return oneResult(modulusBounds(in.e(0), result));
  if (!isFloat(type))
    return oneResult(exactOrUnknown(result.shape(), {&in.e(0)}));
  const ElementType compute = computeType(type);
  // exp, tanh, logistic and log are approximations in f32 generated code.
  const double approximation = compute == ElementType::F32 ? 8 : 1;
  const UnaryAtF64 f = unaryAtF64(in.op.kind);
  Literal out = exactBounds(result.shape());
  double *bound = out.as<double>();
  const double *e = in.e(0).as<double>();
  for (int64_t i = 0; i < result.numElements(); ++i) {
    const double r = result.getFloat(i);
    bound[i] =
        perElement(UnaryElement{type, f, x.getFloat(i), e[i], r, ulp(compute, r), approximation});
  }
  return oneResult(std::move(out));
}

/// Exact, and moves by at most the operand's error (negate, abs).
std::vector<Literal> unitLipschitzBound(const BoundsInputs &in) {
  return unaryBounds(in, [](const UnaryElement &x) { return x.e; });
}

std::vector<Literal> signBound(const BoundsInputs &in) {
  return unaryBounds(
      in, [](const UnaryElement &x) { return x.e == 0 || std::fabs(x.v) > x.e ? 0 : 2; });
}

/// Monotone, with integer results: exact (floor, ceil, the roundings).
std::vector<Literal> integralBound(const BoundsInputs &in) {
  return unaryBounds(
      in, [](const UnaryElement &x) { return finish(x.type, x.r, x.monotone(), 0, true); });
}

/// Monotone and correctly rounded (sqrt, rsqrt).
std::vector<Literal> roundedBound(const BoundsInputs &in) {
  return unaryBounds(in, [](const UnaryElement &x) { return finish(x.type, x.r, x.monotone()); });
}

/// Monotone, libm's in generated code too: 1 ulp (expm1, log1p, cbrt).
std::vector<Literal> libmBound(const BoundsInputs &in) {
  return unaryBounds(
      in, [](const UnaryElement &x) { return finish(x.type, x.r, x.monotone(), x.libmSlack); });
}

/// Monotone, the generated code's own approximation in f32 (exp, tanh,
/// logistic, log).
std::vector<Literal> approximatedBound(const BoundsInputs &in) {
  return unaryBounds(in, [](const UnaryElement &x) {
    return finish(x.type, x.r, x.monotone(), x.approximation * x.libmSlack);
  });
}

/// 1-Lipschitz with values in [-1, 1], libm's (sine, cosine).
std::vector<Literal> periodicBound(const BoundsInputs &in) {
  return unaryBounds(in, [](const UnaryElement &x) {
    return finish(x.type, x.r, std::min(x.e, 2.0), x.libmSlack);
  });
}

/// Not monotone across its poles: only exact operands are bounded (tan).
std::vector<Literal> poleBound(const BoundsInputs &in) {
  return unaryBounds(in, [](const UnaryElement &x) {
    return x.e == 0 ? finish(x.type, x.r, 0, x.libmSlack) : kUnknown;
  });
}

/// One element of a float binary op's result r = f(a, b), with bounds ea, eb.
struct BinaryElement {
  ElementType type;
  double a, b, ea, eb, r;
};

template <typename PerElement>
std::vector<Literal> binaryBounds(const BoundsInputs &in, PerElement perElement) {
  const Literal &result = in.result(0);
  const ElementType type = result.elementType();
  if (!isFloat(type))
    return oneResult(exactOrUnknown(result.shape(), {&in.e(0), &in.e(1)}));
  Literal out = exactBounds(result.shape());
  double *bound = out.as<double>();
  const double *ea = in.e(0).as<double>(), *eb = in.e(1).as<double>();
  for (int64_t i = 0; i < result.numElements(); ++i)
    bound[i] = perElement(BinaryElement{type, in.x(0).getFloat(i), in.x(1).getFloat(i), ea[i],
                                        eb[i], result.getFloat(i)});
  return oneResult(std::move(out));
}

/// add, subtract.
std::vector<Literal> additiveBound(const BoundsInputs &in) {
  return binaryBounds(in, [](const BinaryElement &x) { return finish(x.type, x.r, x.ea + x.eb); });
}

std::vector<Literal> productBound(const BoundsInputs &in) {
  return binaryBounds(in, [](const BinaryElement &x) {
    return finish(x.type, x.r, std::fabs(x.a) * x.eb + std::fabs(x.b) * x.ea + x.ea * x.eb);
  });
}

std::vector<Literal> quotientBound(const BoundsInputs &in) {
  return binaryBounds(in, [](const BinaryElement &x) {
    const double a = std::fabs(x.a), b = std::fabs(x.b);
    return x.ea + x.eb == 0 ? 0
           : b > x.eb       ? finish(x.type, x.r, (b * x.ea + a * x.eb) / (b * (b - x.eb)))
                            : kUnknown;
  });
}

/// Exact, and one of its operands (maximum, minimum).
std::vector<Literal> selectionBound(const BoundsInputs &in) {
  return binaryBounds(in, [](const BinaryElement &x) { return std::max(x.ea, x.eb); });
}

std::vector<Literal> powerBound(const BoundsInputs &in) {
  return binaryBounds(in, [](const BinaryElement &x) {
    return finish(x.type, x.r, powerSpread(x.a, x.ea, x.b, x.eb), ulp(computeType(x.type), x.r));
  });
}

/// atan2(a, b): the angle of the point (b, a). Its gradient has length 1 /
/// |(a, b)|, so over the box of operands it moves by at most the box's
/// half-diagonal over the nearest distance to the origin, unless the box
/// reaches the origin or the branch cut (b < 0, a = 0: the angle jumps by
/// 2 pi there); plus libm's ulp.
std::vector<Literal> angleBound(const BoundsInputs &in) {
  return binaryBounds(in, [](const BinaryElement &x) {
    const double slack = ulp(computeType(x.type), x.r);
    if (x.ea + x.eb == 0)
      return finish(x.type, x.r, 0, slack);
    const double radius = std::hypot(x.a, x.b), reach = std::hypot(x.ea, x.eb);
    const bool nearCut = x.b - x.eb < 0 && std::fabs(x.a) <= x.ea;
    if (!(radius > reach) || nearCut)
      return kUnknown;
    return finish(x.type, x.r, reach / (radius - reach), slack);
  });
}

/// Exact from exact operands, else unknown (not, remainder, the bitwise
/// ops): no useful spread.
std::vector<Literal> exactOnlyBound(const BoundsInputs &in) {
  const Literal &result = in.result(0);
  if (!isFloat(result.elementType()))
    return oneResult(exactOrUnknown(result.shape(), in.operandBounds));
  Literal out = exactBounds(result.shape());
  double *bound = out.as<double>();
  for (int64_t i = 0; i < result.numElements(); ++i) {
    double sum = 0;
    for (const Literal *operandBound : in.operandBounds)
      sum += operandBound->as<double>()[i];
    bound[i] = sum == 0 ? 0 : kUnknown;
  }
  return oneResult(std::move(out));
}

std::vector<Literal> compareBound(const BoundsInputs &in) {
  return oneResult(compareBounds(in.x(0), in.x(1), in.e(0), in.e(1)));
}

std::vector<Literal> selectBound(const BoundsInputs &in) {
  return oneResult(selectBounds(in.x(0), in.x(1), in.x(2), in.e(0), in.e(1), in.e(2)));
}

std::vector<Literal> clampBound(const BoundsInputs &in) {
  return oneResult(clampBounds(in.x(0), in.x(2), in.e(0), in.e(1), in.e(2)));
}

/// Exact when the operand is, or when every value within its bound is
/// finite.
std::vector<Literal> isFiniteBound(const BoundsInputs &in) {
  const Literal &x = in.x(0);
  const double *e = in.e(0).as<double>();
  Literal out = exactBounds(x.shape());
  for (int64_t i = 0; i < x.numElements(); ++i)
    if (e[i] != 0 && !(std::fabs(x.getFloat(i)) + e[i] <= maxFinite(x.elementType())))
      out.as<double>()[i] = kUnknown;
  return oneResult(std::move(out));
}

/// Rounding to a coarser format is monotone: the spread of the rounded
/// values over the operand's interval (the op run at its ends), plus a step
/// of the coarse format there (the ends themselves are rounded to the
/// element type, maybe inward across a rounding boundary).
std::vector<Literal> reducePrecisionBound(const BoundsInputs &in) {
  const Literal &x = in.x(0), &result = in.result(0);
  const auto &attrs = in.op.attr<ReducePrecisionAttrs>();
  const double *e = in.e(0).as<double>();
  Literal low(x.type()), high(x.type());
  for (int64_t i = 0; i < x.numElements(); ++i) {
    low.setFloat(i, x.getFloat(i) - e[i]);
    high.setFloat(i, x.getFloat(i) + e[i]);
  }
  const Literal lowResult = evalReducePrecision(low, attrs.exponentBits, attrs.mantissaBits);
  const Literal highResult = evalReducePrecision(high, attrs.exponentBits, attrs.mantissaBits);
  Literal out = exactBounds(x.shape());
  for (int64_t i = 0; i < x.numElements(); ++i) {
    if (e[i] == 0)
      continue;
    const double r = result.getFloat(i), lo = lowResult.getFloat(i), hi = highResult.getFloat(i);
    const double largest = std::max({std::fabs(lo), std::fabs(hi), std::fabs(r)});
    const double step =
        largest > 0 && std::isfinite(largest)
            ? std::ldexp(1.0, std::ilogb(largest) -
                                  static_cast<int>(std::min<int64_t>(attrs.mantissaBits, 60)))
            : 0;
    const double spread = std::max(std::fabs(lo - r), std::fabs(hi - r)) + step;
    out.as<double>()[i] = std::isfinite(spread) ? spread : kUnknown;
  }
  return oneResult(std::move(out));
}

/// The bits under another type: exact from exact operands, else unknown.
std::vector<Literal> bitcastConvertBound(const BoundsInputs &in) {
  return oneResult(exactOrUnknown(in.result(0).shape(), in.operandBounds));
}

/// rng_bit_generator: exact bits from an exact state, else any bits.
std::vector<Literal> rngBitGeneratorBound(const BoundsInputs &in) {
  std::vector<Literal> out;
  for (size_t i = 0; i < 2; ++i)
    out.push_back(exactOrUnknown(in.result(i).shape(), in.operandBounds));
  return out;
}

std::vector<Literal> convertBound(const BoundsInputs &in) {
  return oneResult(convertBounds(in.x(0), in.e(0), in.result(0)));
}

std::vector<Literal> dotGeneralBound(const BoundsInputs &in) {
  return oneResult(
      dotBounds(in.op.attr<DotGeneralAttrs>(), in.x(0), in.x(1), in.e(0), in.e(1), in.result(0)));
}

std::vector<Literal> reduceBound(const BoundsInputs &in) {
  if (std::optional<Reducer> reducer = simpleReducer(in.op))
    return oneResult(reduceBounds(in.op.attr<ReduceAttrs>().dimensions, *reducer, in.x(0), in.x(1),
                                  in.e(0), in.e(1), in.result(0)));
  return regionReduceBounds(in.graph, in.op, in.operandBounds, *in.results);
}

/// scatter: on one device the generated code applies the updates in the
/// interpreter's order (the same bits from exact operands). A float
/// scatter-add (of every pair, for several inputs) may also be split across
/// devices (each scatters its updates, the pieces are summed): a sum of the
/// input and the updates landing on each place, in another order. Max and
/// min move errors as they move values. Other update computations: exact
/// from exact operands. Result i: input i, the indices, updates i.
std::vector<Literal> scatterBound(const BoundsInputs &in) {
  const size_t n = in.results->size(), indices = n;
  const std::optional<Reducer> reducer = pairwiseReducer(in.op);
  const bool summed = reducer == Reducer::Add || reducer == Reducer::Max || reducer == Reducer::Min;
  const auto &attrs = in.op.attr<ScatterAttrs>();
  std::vector<Literal> out;
  for (size_t i = 0; i < n; ++i) {
    const size_t updatesAt = n + 1 + i;
    const Literal &result = in.result(i);
    if (!isFloat(result.elementType()) || !summed || !allZero(in.e(indices))) {
      out.push_back(exactOrUnknown(result.shape(), in.operandBounds));
      continue;
    }
    Literal spread = in.e(i);
    double *s = spread.as<double>();
    const double *e = in.e(updatesAt).as<double>();
    const bool add = reducer == Reducer::Add;
    Literal magnitude = magnitudes(in.x(i));
    double *m = magnitude.as<double>();
    const Literal updates = magnitudes(in.x(updatesAt));
    const double *u = updates.as<double>();
    int64_t count = 1; // the input, then at most one update per batch position
    std::vector<int64_t> hits(static_cast<size_t>(result.numElements()), 1);
    forEachScatterPlace(result.shape(), in.x(indices), in.x(updatesAt).shape(), attrs,
                        [&](int64_t place, int64_t update) {
                          s[place] = add ? s[place] + e[update] : std::max(s[place], e[update]);
                          m[place] += u[update];
                          count = std::max(count, ++hits[place]);
                        });
    if (add)
      addSumBound(spread, magnitude, result, count);
    out.push_back(std::move(spread));
  }
  return out;
}

/// A custom call: exact from exact operands (the library is trusted to be
/// deterministic), else undetermined.
std::vector<Literal> customCallBound(const BoundsInputs &in) {
  std::vector<Literal> out;
  for (const Literal &result : *in.results)
    out.push_back(exactOrUnknown(result.shape(), in.operandBounds));
  return out;
}

/// sort and top_k move elements chosen by comparing them: a value within
/// its bound may land anywhere, so exact from exact operands only (as a
/// custom call's).
std::vector<Literal> comparedOrderBound(const BoundsInputs &in) { return customCallBound(in); }

/// Data movement (transpose, reshape, broadcast, slice, pad, the gathering
/// and permuting collectives, ...) moves the bounds as it moves the values.
std::vector<Literal> movedBound(const BoundsInputs &in) {
  if (in.collective())
    return evalCollective(in.op, *in.grid, in.deviceOperandBounds);
  // Index operands (start indices) choose which elements move: the op runs
  // on their values, and on the bounds of the data it moves. An inexact
  // index may move any element.
  std::vector<const Literal *> moved = in.operandBounds;
  const std::vector<OperandRole> roles = operandRoles(in.op.kind, moved.size());
  bool exactIndices = true;
  for (size_t i = 0; i < moved.size(); ++i) {
    if (roles[i] != OperandRole::Index)
      continue;
    moved[i] = in.operands[i];
    exactIndices &= allZero(in.e(i));
  }
  std::vector<Literal> out = evalLocalOp(in.graph, in.op, moved, nullptr);
  if (!exactIndices)
    for (Literal &bound : out)
      bound = filled(bound.shape(), kUnknown);
  return out;
}

/// The collectives that add (all_reduce, reduce_scatter): the sums of the
/// partial values' bounds plus the reorder bound of the sum.
std::vector<Literal> sumCollectiveBound(const BoundsInputs &in) {
  SHARDGEN_CHECK(in.collective(), "a summing collective outside a device grid");
  const Op &op = in.op;
  const DeviceGrid &grid = *in.grid;
  const PerDevice &results = *in.deviceResults;
  const Reducer reducer = op.kind == OpKind::AllReduce ? op.attr<AllReduceAttrs>().reducer
                                                       : op.attr<ReduceScatterAttrs>().reducer;
  const ElementType type = results.front().elementType();
  bool exact = true;
  for (const Literal &bound : *in.deviceOperandBounds[0])
    exact = exact && allZero(bound);
  PerDevice out;
  const bool rounds = isFloat(type) || isComplex(type);
  if (!rounds || reducer == Reducer::Mul || (isComplex(type) && reducer != Reducer::Add)) {
    const bool reorders = isComplex(type) && reducer != Reducer::Mul; // lexicographic selection
    for (const Literal &result : results)
      out.push_back(filled(result.shape(), exact && (!rounds || reorders) ? 0.0 : kUnknown));
    return out;
  }
  // The same collective on the bounds, their magnitudes and on ones (which
  // counts the terms of each sum).
  Op onBounds;
  onBounds.kind = op.kind;
  onBounds.pointer = op.pointer;
  onBounds.attrs = op.attrs;
  if (reducer == Reducer::Max || reducer == Reducer::Min) {
    if (op.kind == OpKind::AllReduce)
      onBounds.attr<AllReduceAttrs>().reducer = Reducer::Max;
    else
      onBounds.attr<ReduceScatterAttrs>().reducer = Reducer::Max;
    return evalCollective(onBounds, grid, in.deviceOperandBounds);
  }
  PerDevice absolute, ones;
  for (const Literal &value : *in.deviceOperands[0]) {
    absolute.push_back(magnitudes(value));
    ones.push_back(filled(value.shape(), 1.0));
  }
  out = evalCollective(onBounds, grid, in.deviceOperandBounds);
  const PerDevice sums = evalCollective(onBounds, grid, {&absolute});
  const PerDevice counts = evalCollective(onBounds, grid, {&ones});
  for (size_t device = 0; device < out.size(); ++device) {
    const int64_t count =
        counts[device].numElements() ? static_cast<int64_t>(counts[device].as<double>()[0]) : 1;
    addSumBound(out[device], sums[device], results[device], count);
  }
  return out;
}

/// real and imag: a part of a complex value is within its bound; imag of
/// a real value is 0.
std::vector<Literal> partBound(const BoundsInputs &in) {
  if (in.op.kind == OpKind::Imag && !isComplex(in.x(0).elementType()))
    return oneResult(exactBounds(in.result(0).shape()));
  return oneResult(in.e(0));
}

/// complex(re, im): its bound is the larger of its parts'.
std::vector<Literal> complexBound(const BoundsInputs &in) {
  Literal out = in.e(0);
  for (int64_t i = 0; i < out.numElements(); ++i)
    out.as<double>()[i] = std::max(out.as<double>()[i], in.e(1).as<double>()[i]);
  return oneResult(std::move(out));
}

/// manual_computation: its body's ops give the bounds (the interpreter's
/// region evaluation), never this column.
std::vector<Literal> regionBound(const BoundsInputs &in) {
  throw InternalError(std::string(in.op.name()) + "'s bounds come from its body's ops");
}

// ---- windows ----

/// reduce_window: the kernel folds each window in the interpreter's order
/// and the partitioner never splits a window, so exact operands give the
/// same bits. Inexact ones: max and min move by at most the largest bound
/// in the window, a float sum by the sum of the bounds and its rounding;
/// any other body leaves the bound undetermined.
std::vector<Literal> reduceWindowBound(const BoundsInputs &in) {
  const Literal &result = in.result(0);
  if (allZero(in.operandBounds)) {
    std::vector<Literal> out;
    for (const Literal &each : *in.results)
      out.push_back(exactBounds(each.shape()));
    return out;
  }
  const std::optional<Reducer> reducer = simpleReducer(in.op); // one input only
  if (in.results->size() != 1) {
    std::vector<Literal> out;
    for (const Literal &each : *in.results)
      out.push_back(filled(each.shape(), kUnknown));
    return out;
  }
  const bool sum = reducer == Reducer::Add && isFloat(result.elementType());
  if (!sum && reducer != Reducer::Max && reducer != Reducer::Min)
    return oneResult(filled(result.shape(), kUnknown));
  const double initBound = in.e(1).as<double>()[0];
  const double initMagnitude = std::fabs(in.x(1).getFloat(0));
  Literal spread = filled(result.shape(), initBound), terms = filled(result.shape(), initMagnitude);
  double *bound = spread.as<double>(), *magnitude = terms.as<double>();
  const double *operandBound = in.e(0).as<double>();
  int64_t count = 1;
  forEachWindowElement(in.x(0).shape(), reduceWindowSpec(in.op.attr<ReduceWindowAttrs>()),
                       [&](int64_t o, int64_t offset) {
                         const double e = offset < 0 ? initBound : operandBound[offset];
                         const double x =
                             offset < 0 ? initMagnitude : std::fabs(in.x(0).getFloat(offset));
                         bound[o] = sum ? bound[o] + e : std::max(bound[o], e);
                         magnitude[o] += x;
                         if (o == 0)
                           ++count;
                       });
  if (sum)
    addSumBound(spread, terms, result, count);
  return oneResult(std::move(spread));
}

/// select_and_scatter: the kernel selects and scatters in the interpreter's
/// order; an inexact operand may select another element.
std::vector<Literal> selectAndScatterBound(const BoundsInputs &in) {
  return oneResult(exactOrUnknown(in.result(0).shape(), in.operandBounds));
}

/// convolution: a dot product per output element (as dot_general's bound),
/// the kernel summing in another order.
std::vector<Literal> convolutionBound(const BoundsInputs &in) {
  const auto &attrs = in.op.attr<ConvolutionAttrs>();
  const Literal &result = in.result(0);
  const TensorType f64{ElementType::F64, result.shape()};
  int64_t depth = in.x(1).shape()[attrs.kernelInputFeatureDimension];
  for (int64_t d : attrs.kernelSpatialDimensions)
    depth *= in.x(1).shape()[d];
  const ProductSum convolution{
      [&](const Literal &lhs, const Literal &rhs) { return evalConvolution(lhs, rhs, attrs, f64); },
      depth};
  return oneResult(productBounds(convolution, in.x(0), in.x(1), in.e(0), in.e(1), result));
}

/// The rounding error of the kernel's 1-D transform of length n
/// (templates/kernels/fft.h), in units of u times the sum of the line's
/// input magnitudes S. Radix-2: each level rounds a twiddle product and a
/// sum, at most 5u of the partial sums it combines (a twiddle's own error
/// included), whose magnitudes sum to at most S; an error passes the later
/// levels with unit-modulus factors, so log2(n) levels give 5 u log2(n) S
/// to each output. Bluestein's algorithm (other lengths): the chirped input
/// a (|a| sums to S) goes through a radix-2 transform of m >= 2n - 1 (each
/// A[k] within (5 log2(m) + 3) u S), is multiplied by the spectrum B of
/// the conjugate chirp b (2n - 1 unit-modulus entries) and transformed
/// back with 1/m. (1/m) sum |B[k]| <= sqrt(2n - 1) (Cauchy-Schwarz: |B|^2
/// sums to m (2n - 1)), which bounds what A's errors, B's (rounded from
/// double for f32; for f64 its normwise error, 5 u log2(m) of |B|'s norm)
/// and the inverse's roundings add: sqrt(2n - 1) (15 log2(m) + 4) u S, and
/// 3u S for the last chirp product. Twice both, for second-order terms.
/// (Long Bluestein lengths get a loose bound: errors of a few u S are
/// what the kernel shows; the sqrt(2n - 1) is the worst case's.)
double fftLineFactor(int64_t n) {
  if (n <= 1)
    return 0;
  if ((n & (n - 1)) == 0)
    return 2.0 * (5.0 * std::log2(static_cast<double>(n)) + 1.0);
  int64_t m = 1;
  while (m < 2 * n - 1)
    m *= 2;
  return 2.0 * (std::sqrt(static_cast<double>(2 * n - 1)) *
                    (15.0 * std::log2(static_cast<double>(m)) + 4.0) +
                3.0);
}

/// fft: linear, each output a sum over its batch index's block (the
/// trailing size(fft_length) dims) of the inputs times unit-modulus
/// factors (IFFT and IRFFT: divided by the product N of the lengths; IRFFT
/// reads each bin but DC and Nyquist twice, for X[n - k] = conj(X[k])).
/// An output is then at most sqrt(2) times the block's summed operand
/// bounds (a complex input off by e in each part is off by sqrt(2) e)
/// away from the exact result of the interpreter's operands, plus the
/// kernel's rounding: u times the block's summed |re| + |im| times the
/// sum of fftLineFactor over the dims (a dim's errors pass through the
/// later dims' transforms without growth in that sum), plus the final
/// rounding to the result type. The reference computes with 11 (f64) or 29
/// (f32) more bits: its own error is within the factor 2 of
/// fftLineFactor.
std::vector<Literal> fftBound(const BoundsInputs &in) {
  const auto &attrs = in.op.attr<FftAttrs>();
  const Literal &x = in.x(0), &e = in.e(0), &result = in.result(0);
  const FftType type = attrs.type();
  Literal out = exactBounds(result.shape());
  if (result.numElements() == 0 || x.numElements() == 0)
    return oneResult(std::move(out));
  const auto fftRank = static_cast<int64_t>(attrs.fftLength.size());
  const Shape &inShape = x.shape(), &outShape = result.shape();
  int64_t inBlock = 1, outBlock = 1;
  double factor = 0, count = 1;
  for (int64_t i = 0; i < fftRank; ++i) {
    inBlock *= inShape[inShape.size() - 1 - i];
    outBlock *= outShape[outShape.size() - 1 - i];
    factor += fftLineFactor(attrs.fftLength[i]);
    count *= static_cast<double>(attrs.fftLength[i]);
  }
  const bool inverse = type == FftType::Ifft || type == FftType::Irfft;
  const double scale = (inverse ? 1.0 / count : 1.0) * (type == FftType::Irfft ? 2.0 : 1.0);
  const ElementType part = complexPartType(result.elementType());
  const double u = unitRoundoff(part);
  const double *operandBounds = e.as<double>();
  double *bounds = out.as<double>();
  for (int64_t block = 0; block < x.numElements() / inBlock; ++block) {
    double magnitude = 0, spread = 0;
    for (int64_t j = block * inBlock; j < (block + 1) * inBlock; ++j) {
      magnitude += std::fabs(x.getFloat(j)) + std::fabs(x.getImag(j));
      spread += operandBounds[j];
    }
    spread = scale * (std::sqrt(2.0) * spread + u * (factor + (inverse ? fftRank : 0)) * magnitude);
    for (int64_t k = block * outBlock; k < (block + 1) * outBlock; ++k) {
      const double r = std::max(std::fabs(result.getFloat(k)), std::fabs(result.getImag(k)));
      bounds[k] = std::isfinite(magnitude) ? finish(part, r, spread) : kUnknown;
    }
  }
  return oneResult(std::move(out));
}

using BoundsFunction = std::vector<Literal> (*)(const BoundsInputs &);
constexpr BoundsFunction kBounds[] = {
#define SHARDGEN_OP(Kind, Name, Category, Operands, Results, Attrs, Elements, Bound, Mlir, Infer,  \
                    Rule, Eval, Bounds, ...)                                                       \
  &Bounds,
#include "compiler/ops/Ops.def"
};
static_assert(std::size(kBounds) == kNumOpKinds);

} // namespace

std::vector<Literal> localOpBounds(const Graph &graph, const Op &op,
                                   const std::vector<const Literal *> &operands,
                                   const std::vector<const Literal *> &operandBounds,
                                   const std::vector<Literal> &results) {
  BoundsInputs in{graph, op, operands, operandBounds, &results, nullptr, {}, {}, nullptr};
  return kBounds[static_cast<size_t>(op.kind)](in);
}

PerDevice collectiveBounds(const Graph &graph, const Op &op, const DeviceGrid &grid,
                           const std::vector<const PerDevice *> &operands,
                           const std::vector<const PerDevice *> &operandBounds,
                           const PerDevice &results) {
  BoundsInputs in{graph, op, {}, {}, nullptr, &grid, operands, operandBounds, &results};
  return kBounds[static_cast<size_t>(op.kind)](in);
}

} // namespace shardgen::interp
