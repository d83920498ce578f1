#include "compiler/mlir/ChloDecomposition.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <numbers>
#include <span>

#include "compiler/ir/Diagnostic.h"
#include "compiler/mlir/DenseElements.h"
#include "compiler/mlir/MlirParser.h"
#include "compiler/mlir/StepBuilder.h"

namespace shardgen::mlir {

namespace {

/// c[0] x^(n-1) + ... + c[n-1], in Horner's scheme.
Val polynomial(StepBuilder &b, const Val &x, std::span<const double> coefficients) {
  Val p = b.c(coefficients[0], x);
  for (size_t i = 1; i < coefficients.size(); ++i)
    p = b.add(b.mul(p, x), b.c(coefficients[i], x));
  return p;
}

using Decomposition = std::function<Val(StepBuilder &, const std::vector<Val> &)>;

double maxFinite(ElementType type) {
  return type == ElementType::F64 ? std::numeric_limits<double>::max()
                                  : std::numeric_limits<float>::max();
}

// ---- erf_inv: Giles' single- and double-precision approximations ---------
// (M. Giles, "Approximating the erfinv function", 2010), as XLA evaluates them.

Val erfInvF32(StepBuilder &b, const Val &x) {
  static constexpr double kCentral[] = {2.81022636e-08,  3.43273939e-07, -3.5233877e-06,
                                        -4.39150654e-06, 0.00021858087,  -0.00125372503,
                                        -0.00417768164,  0.246640727,    1.50140941};
  static constexpr double kTail[] = {-0.000200214257, 0.000100950558, 0.00134934322,
                                     -0.00367342844,  0.00573950773,  -0.0076224613,
                                     0.00943887047,   1.00167406,     2.83297682};
  // w = -log(1 - x^2), through log1p: exact near x = 0.
  const Val w = b.neg(b.log1p(b.mul(x, b.neg(x))));
  const Val central = b.compare("LT", w, b.c(5, x));
  const Val t = b.select(central, b.sub(w, b.c(2.5, x)), b.sub(b.sqrt(w), b.c(3, x)));
  Val p = b.select(central, b.c(kCentral[0], x), b.c(kTail[0], x));
  for (size_t i = 1; i < std::size(kCentral); ++i)
    p = b.add(b.select(central, b.c(kCentral[i], x), b.c(kTail[i], x)), b.mul(p, t));
  return b.mul(p, x);
}

Val erfInvF64(StepBuilder &b, const Val &x) {
  static constexpr double kBelow625[] = {
      -3.6444120640178196996e-21, -1.685059138182016589e-19,  1.2858480715256400167e-18,
      1.115787767802518096e-17,   -1.333171662854620906e-16,  2.0972767875968561637e-17,
      6.6376381343583238325e-15,  -4.0545662729752068639e-14, -8.1519341976054721522e-14,
      2.6335093153082322977e-12,  -1.2975133253453532498e-11, -5.4154120542946279317e-11,
      1.051212273321532285e-09,   -4.1126339803469836976e-09, -2.9070369957882005086e-08,
      4.2347877827932403518e-07,  -1.3654692000834678645e-06, -1.3882523362786468719e-05,
      0.0001867342080340571352,   -0.00074070253416626697512, -0.0060336708714301490533,
      0.24015818242558961693,     1.6536545626831027356};
  static constexpr double kBelow16[] = {
      2.2137376921775787049e-09, 9.0756561938885390979e-08, -2.7517406297064545428e-07,
      1.8239629214389227755e-08, 1.5027403968909827627e-06, -4.013867526981545969e-06,
      2.9234449089955446044e-06, 1.2475304481671778723e-05, -4.7318229009055733981e-05,
      6.8284851459573175448e-05, 2.4031110387097893999e-05, -0.0003550375203628474796,
      0.00095328937973738049703, -0.0016882755560235047313, 0.0024914420961078508066,
      -0.0037512085075692412107, 0.005370914553590063617,   1.0052589676941592334,
      3.0838856104922207635};
  static constexpr double kAbove16[] = {
      -2.7109920616438573243e-11, -2.5556418169965252055e-10, 1.5076572693500548083e-09,
      -3.7894654401267369937e-09, 7.6157012080783393804e-09,  -1.4960026627149240478e-08,
      2.9147953450901080826e-08,  -6.7711997758452339498e-08, 2.2900482228026654717e-07,
      -9.9298272942317002539e-07, 4.5260625972231537039e-06,  -1.9681778105531670567e-05,
      7.5995277030017761139e-05,  -0.00021503011930044477347, -0.00013871931833623122026,
      1.0103004648645343977,      4.8499064014085844221};
  const Val w = b.neg(b.log1p(b.mul(x, b.neg(x))));
  const Val below625 = b.compare("LT", w, b.c(6.25, x));
  const Val below16 = b.compare("LT", w, b.c(16, x));
  const Val t = b.select(below625, b.sub(w, b.c(3.125, x)),
                         b.sub(b.sqrt(w), b.select(below16, b.c(3.25, x), b.c(5, x))));
  // Three polynomials (23, 19 and 17 terms) in one Horner scheme: each
  // term takes the coefficient of the polynomial w's range chooses, and a
  // shorter polynomial stops (keeps its value) after its last term.
  auto coefficient = [&](size_t i) {
    Val c = b.c(kBelow625[i], x);
    if (i < std::size(kBelow16))
      c = b.select(below625, c, b.c(kBelow16[i], x));
    if (i < std::size(kAbove16))
      c = b.select(below16, c, b.c(kAbove16[i], x));
    return c;
  };
  Val p = coefficient(0);
  for (size_t i = 1; i < std::size(kBelow625); ++i) {
    const Val next = b.add(coefficient(i), b.mul(p, t));
    p = i < std::size(kAbove16)   ? next
        : i < std::size(kBelow16) ? b.select(below16, next, p)
                                  : b.select(below625, next, p);
  }
  return b.mul(p, x);
}

Val erfInv(StepBuilder &b, const std::vector<Val> &args) {
  const Val &x = args[0];
  const Val result = x.type == ElementType::F64 ? erfInvF64(b, x) : erfInvF32(b, x);
  // erf_inv(+-1) = +-inf (the polynomial is undefined there).
  const Val atOne = b.compare("EQ", b.abs(x), b.c(1, x));
  return b.select(atOne, b.mul(x, b.c(std::numeric_limits<double>::infinity(), x)), result);
}

// ---- erf and erfc: Cephes's rational approximations (f64) and XLA's f32 ---

constexpr double kErfcP[] = {
    2.46196981473530512524E-10, 5.64189564831068821977E-1, 7.46321056442269912687E0,
    4.86371970985681366614E1,   1.96520832956077098242E2,  5.26445194995477358631E2,
    9.34528527171957607540E2,   1.02755188689515710272E3,  5.57535335369399327526E2};
constexpr double kErfcQ[] = {
    1.00000000000000000000E0, 1.32281951154744992508E1, 8.67072140885989742329E1,
    3.54937778887819891062E2, 9.75708501743205489753E2, 1.82390916687909736289E3,
    2.24633760818710981792E3, 1.65666309194161350182E3, 5.57535340817727675546E2};
constexpr double kErfcR[] = {5.64189583547755073984E-1, 1.27536670759978104416E0,
                             5.01905042251180477414E0,  6.16021097993053585195E0,
                             7.40974269950448939160E0,  2.97886665372100240670E0};
constexpr double kErfcS[] = {1.00000000000000000000E0, 2.26052863220117276590E0,
                             9.39603524938001434673E0, 1.20489539808096656605E1,
                             1.70814450747565897222E1, 9.60896809063285878198E0,
                             3.36907645100081516050E0};
constexpr double kErfT[] = {9.60497373987051638749E0, 9.00260197203842689217E1,
                            2.23200534594684319226E3, 7.00332514112805075473E3,
                            5.55923013010394962768E4};
constexpr double kErfU[] = {1.00000000000000000000E0, 3.35617141647503099647E1,
                            5.21357949780152679795E2, 4.59432382970980127987E3,
                            2.26290000613890934246E4, 4.92673942608635921086E4};
constexpr double kErfcF32P[] = {
    +2.326819970068386E-2, -1.387039388740657E-1, +3.687424674597105E-1,
    -5.824733027278666E-1, +6.210004621745983E-1, -4.944515323274145E-1,
    +3.404879937665872E-1, -2.741127028184656E-1, +5.638259427386472E-1};
constexpr double kErfcF32R[] = {-1.047766399936249E+1, +1.297719955372516E+1, -7.495518717768503E+0,
                                +2.921019019210786E+0, -1.015265279202700E+0, +4.218463358204948E-1,
                                -2.820767439740514E-1, +5.641895067754075E-1};
constexpr double kErfF32T[] = {+7.853861353153693E-5, -8.010193625184903E-4, +5.188327685732524E-3,
                               -2.685381193529856E-2, +1.128358514861418E-1, -3.761262582423300E-1,
                               +1.128379165726710E+0};

/// erf for |x| < 1: x T(x^2) / U(x^2) (f64), x T(x^2) (f32).
Val erfNearZero(StepBuilder &b, const Val &x) {
  const Val x2 = b.mul(x, x);
  if (x.type == ElementType::F64)
    return b.div(b.mul(x, polynomial(b, x2, kErfT)), polynomial(b, x2, kErfU));
  return b.mul(x, polynomial(b, x2, kErfF32T));
}

/// erfc for |x| >= 1: exp(-x^2) times a rational function of |x|, 0 where
/// exp(-x^2) underflows, and 2 - erfc(-x) for negative x.
Val erfcAwayFromZero(StepBuilder &b, const Val &x) {
  const bool f64 = x.type == ElementType::F64;
  const Val z = b.neg(b.mul(x, x));
  const Val ax = b.abs(x);
  const Val expZ = b.exp(z);
  Val approximation;
  if (f64) {
    const Val below8 = b.compare("LT", ax, b.c(8, x));
    approximation =
        b.select(below8, b.div(b.mul(expZ, polynomial(b, ax, kErfcP)), polynomial(b, ax, kErfcQ)),
                 b.div(b.mul(expZ, polynomial(b, ax, kErfcR)), polynomial(b, ax, kErfcS)));
  } else {
    const Val inverseX2 = b.div(b.c(1, x), b.mul(x, x));
    const Val below2 = b.compare("LT", ax, b.c(2, x));
    const Val poly =
        b.select(below2, polynomial(b, inverseX2, kErfcF32P), polynomial(b, inverseX2, kErfcF32R));
    approximation = b.mul(b.mul(expZ, b.div(b.c(1, x), ax)), poly);
  }
  const double maxLog = f64 ? 7.09782712893383996843E2 : 88.72283905206835;
  const Val underflows = b.compare("LT", z, b.c(-maxLog, x));
  const Val clamped = b.select(underflows, b.c(0, x), approximation);
  return b.select(b.compare("LT", x, b.c(0, x)), b.sub(b.c(2, x), clamped), clamped);
}

Val erf(StepBuilder &b, const std::vector<Val> &args) {
  const Val &x = args[0];
  if (x.type != ElementType::F64) {
    // XLA's f32 rational approximation on [-4, 4] (erf is +-1 in f32 beyond).
    static constexpr double kAlpha[] = {
        -2.72614225801306e-10, 2.77068142495902e-08,  -2.10102402082508e-06, -5.69250639462346e-05,
        -7.34990630326855e-04, -2.95459980854025e-03, -1.60960333262415e-02};
    static constexpr double kBeta[] = {-1.45660718464996e-05, -2.13374055278905e-04,
                                       -1.68282697438203e-03, -7.37332916720468e-03,
                                       -1.42647390514189e-02};
    const Val clamped = b.op("clamp", {b.c(-4, x), x, b.c(4, x)}, x.type);
    const Val x2 = b.mul(clamped, clamped);
    const Val ratio = b.div(b.mul(clamped, polynomial(b, x2, kAlpha)), polynomial(b, x2, kBeta));
    return b.op("clamp", {b.c(-1, x), ratio, b.c(1, x)}, x.type);
  }
  const Val nearZero = b.compare("LT", b.abs(x), b.c(1, x));
  return b.select(nearZero, erfNearZero(b, x), b.sub(b.c(1, x), erfcAwayFromZero(b, x)));
}

Val erfc(StepBuilder &b, const std::vector<Val> &args) {
  const Val &x = args[0];
  const Val nearZero = b.compare("LT", b.abs(x), b.c(1, x));
  return b.select(nearZero, b.sub(b.c(1, x), erfNearZero(b, x)), erfcAwayFromZero(b, x));
}

// ---- lgamma and digamma: Lanczos' approximation (g = 7, n = 9) -------------

constexpr double kLanczosGamma = 7;
constexpr double kLanczosBase = 0.99999999999980993227684700473478;
constexpr double kLanczosCoefficients[] = {
    676.520368121885098567009190444019, -1259.13921672240287047156078755283,
    771.3234287776530788486528258894,   -176.61502916214059906584551354,
    12.507343278686904814458936853,     -0.13857109526572011689554707,
    9.984369578019570859563e-6,         1.50563273514931155834e-7};

/// What lgamma and digamma share: z (x - 1, or -x for x < 1/2, where the
/// reflection formula applies), t = z + g + 1/2 and log(t).
struct LanczosTerms {
  Val reflect, z, t, logT;
};

LanczosTerms lanczosTerms(StepBuilder &b, const Val &x) {
  const Val reflect = b.compare("LT", x, b.c(0.5, x));
  const Val z = b.select(reflect, b.neg(x), b.sub(x, b.c(1, x)));
  const Val gPlusHalf = b.c(kLanczosGamma + 0.5, x);
  const Val t = b.add(gPlusHalf, z);
  // log(t) = log(g + 1/2) + log1p(z / (g + 1/2)): accurate for small z.
  const Val logT = b.add(b.c(std::log(kLanczosGamma + 0.5), x), b.log1p(b.div(z, gPlusHalf)));
  return {reflect, z, t, logT};
}

Val lgamma(StepBuilder &b, const std::vector<Val> &args) {
  const Val &x = args[0];
  const LanczosTerms l = lanczosTerms(b, x);
  Val a = b.c(kLanczosBase, x);
  for (size_t k = 0; k < std::size(kLanczosCoefficients); ++k)
    a = b.add(a, b.div(b.c(kLanczosCoefficients[k], x), b.add(l.z, b.c(double(k + 1), x))));
  // lgamma(z + 1) = log(2 pi) / 2 + (z + 1/2 - t / log t) log t + log a: the
  // product (z + 1/2) log t - t, without overflowing t log t.
  const Val r = b.mul(b.sub(b.add(l.z, b.c(0.5, x)), b.div(l.t, l.logT)), l.logT);
  const Val direct =
      b.add(b.add(b.c((std::log(2.0) + std::log(std::numbers::pi)) / 2, x), r), b.log(a));
  // x < 1/2: lgamma(x) = log(pi) - log|sin(pi x)| - lgamma(1 - x); sin(pi x)
  // from the fractional part of |x|, folded into [0, 1/2] (exact zeros at
  // the integers, no overflow of pi x).
  const Val ax = b.abs(x);
  Val fraction = b.sub(ax, b.floor(ax));
  fraction = b.select(b.compare("LT", b.c(0.5, x), fraction), b.sub(b.c(1, x), fraction), fraction);
  const Val logSin = b.log(b.sin(b.mul(b.c(std::numbers::pi, x), fraction)));
  const Val reflected = b.sub(b.sub(b.c(std::log(std::numbers::pi), x), logSin), direct);
  // At the poles log|sin| is -inf: the result is +inf (not inf - inf).
  const Val atPole = b.select(b.isFinite(logSin), reflected, b.neg(logSin));
  const Val result = b.select(l.reflect, atPole, direct);
  const Val infinite = b.compare("EQ", ax, b.c(std::numeric_limits<double>::infinity(), x));
  return b.select(infinite, b.c(std::numeric_limits<double>::infinity(), x), result);
}

Val digamma(StepBuilder &b, const std::vector<Val> &args) {
  const Val &x = args[0];
  const LanczosTerms l = lanczosTerms(b, x);
  Val a = b.c(kLanczosBase, x), aPrime = b.c(0, x);
  for (size_t k = 0; k < std::size(kLanczosCoefficients); ++k) {
    const Val coefficient = b.c(kLanczosCoefficients[k], x);
    const Val zk = b.add(l.z, b.c(double(k + 1), x));
    aPrime = b.sub(aPrime, b.div(coefficient, b.mul(zk, zk)));
    a = b.add(a, b.div(coefficient, zk));
  }
  // digamma(z + 1) = log t + a'/a - g / t.
  const Val direct = b.sub(b.add(l.logT, b.div(aPrime, a)), b.div(b.c(kLanczosGamma, x), l.t));
  // x < 1/2: digamma(x) = digamma(1 - x) - pi cot(pi x), with x shifted by
  // an integer into [-1/2, 1/2] first (cot has period 1).
  const Val shifted = b.add(x, b.abs(b.floor(b.add(x, b.c(0.5, x)))));
  const Val angle = b.mul(b.c(std::numbers::pi, x), shifted);
  const Val cot = b.div(b.mul(b.c(std::numbers::pi, x), b.cos(angle)), b.sin(angle));
  const Val result = b.select(l.reflect, b.sub(direct, cot), direct);
  // The poles (0 and the negative integers) give NaN.
  const Val pole =
      b.op("and", {b.compare("LE", x, b.c(0, x)), b.compare("EQ", x, b.floor(x))}, ElementType::I1);
  return b.select(pole, b.c(std::numeric_limits<double>::quiet_NaN(), x), result);
}

// ---- zeta and polygamma: the Euler-Maclaurin formula -----------------------

/// The Hurwitz zeta function zeta(x, q) = sum over k >= 0 of (q + k)^-x:
/// the first N = 10 terms summed, the rest by the Euler-Maclaurin formula
/// with 12 Bernoulli terms (F. Johansson, "Rigorous high-precision
/// computation of the Hurwitz zeta function", 2015, formula (5)):
///   a^(1-x) / (x - 1) + a^-x / 2
///     + a^-x sum_j B_2j / (2j)! x (x + 1) ... (x + 2j - 2) / a^(2j - 1),
/// a = q + N. The domain as XLA: NaN for x < 1 and for q <= 0 with x not
/// an integer; the poles (q a non-positive integer) give +inf for even x,
/// else NaN; x = 1 (the harmonic series) gives +inf.
Val zetaOf(StepBuilder &b, const Val &x, const Val &q) {
  // B_2j / (2j)! for j = 1..12.
  static constexpr double kBernoulliOverFactorial[] = {
      0.083333333333333329,    -0.0013888888888888889,  3.3068783068783071e-05,
      -8.2671957671957675e-07, 2.08767569878681e-08,    -5.2841901386874932e-10,
      1.3382536530684679e-11,  -3.3896802963225827e-13, 8.5860620562778452e-15,
      -2.1748686985580619e-16, 5.5090028283602295e-18,  -1.3954464685812522e-19,
  };
  const Val negX = b.neg(x);
  Val sum = b.binary("power", q, negX);
  Val a = q;
  for (int k = 1; k < 10; ++k) {
    a = b.add(a, b.c(1, x));
    sum = b.add(sum, b.binary("power", a, negX));
  }
  a = b.add(a, b.c(1, x));
  const Val aPow = b.binary("power", a, negX);
  const Val integral = b.div(b.mul(aPow, a), b.sub(x, b.c(1, x)));
  // term_j = x (x + 1) ... (x + 2j - 2) / a^(2j - 1), from term_1 = x / a.
  const Val inverseA2 = b.div(b.c(1, x), b.mul(a, a));
  Val term = b.div(x, a);
  Val series = b.mul(term, b.c(kBernoulliOverFactorial[0], x));
  for (size_t j = 2; j <= std::size(kBernoulliOverFactorial); ++j) {
    const double i = 2.0 * static_cast<double>(j);
    term = b.mul(b.mul(term, inverseA2), b.mul(b.add(x, b.c(i - 3, x)), b.add(x, b.c(i - 2, x))));
    series = b.add(series, b.mul(term, b.c(kBernoulliOverFactorial[j - 1], x)));
  }
  const Val corrected = b.add(b.add(sum, integral), b.mul(aPow, b.add(b.c(0.5, x), series)));
  // Where the tail is below the sum's last bit, the sum alone (the
  // corrections may overflow to inf * 0 there).
  const double tiny = x.type == ElementType::F64 ? std::numeric_limits<double>::min()
                                                 : std::numeric_limits<float>::min();
  const Val negligible = b.compare("LT", b.abs(aPow), b.mul(b.abs(sum), b.c(tiny, x)));
  Val result = b.select(negligible, sum, corrected);
  const Val nan = b.c(std::numeric_limits<double>::quiet_NaN(), x);
  const Val inf = b.c(std::numeric_limits<double>::infinity(), x);
  result = b.select(b.compare("LT", x, b.c(1, x)), nan, result);
  const Val qNonPositive = b.compare("LE", q, b.c(0, x));
  const Val xInteger = b.compare("EQ", x, b.floor(x));
  result = b.select(
      b.op("and", {qNonPositive, b.op("not", {xInteger}, ElementType::I1)}, ElementType::I1), nan,
      result);
  const Val pole = b.op("and", {qNonPositive, b.compare("EQ", q, b.floor(q))}, ElementType::I1);
  const Val xEven =
      b.op("and", {xInteger, b.compare("EQ", b.binary("remainder", x, b.c(2, x)), b.c(0, x))},
           ElementType::I1);
  result = b.select(pole, b.select(xEven, inf, nan), result);
  return b.select(b.compare("EQ", x, b.c(1, x)), inf, result);
}

Val zeta(StepBuilder &b, const std::vector<Val> &args) { return zetaOf(b, args[0], args[1]); }

/// polygamma(n, x) = (-1)^(n + 1) n! zeta(n + 1, x) for integer n >= 1,
/// digamma(x) for n = 0, NaN for other n.
Val polygamma(StepBuilder &b, const std::vector<Val> &args) {
  const Val &n = args[0], &x = args[1];
  const Val nPlusOne = b.add(n, b.c(1, n));
  const Val sign = b.select(b.compare("EQ", b.binary("remainder", n, b.c(2, n)), b.c(0, n)),
                            b.c(-1, n), b.c(1, n));
  const Val factorial = b.exp(lgamma(b, {nPlusOne}));
  const Val higher = b.mul(b.mul(sign, factorial), zetaOf(b, nPlusOne, x));
  const Val integer = b.compare("EQ", n, b.floor(n));
  Val result = b.select(b.compare("EQ", n, b.c(0, n)), digamma(b, {x}), higher);
  return b.select(b.op("and", {integer, b.compare("GE", n, b.c(0, n))}, ElementType::I1), result,
                  b.c(std::numeric_limits<double>::quiet_NaN(), n));
}

// ---- bessel_i1e: Cephes' Chebyshev expansions ------------------------------

/// sum c_k T_k(t) / 2 in Clenshaw's recurrence (Cephes' chbevl: the first
/// coefficient is the highest order's).
Val chebyshev(StepBuilder &b, const Val &t, std::span<const double> coefficients) {
  Val b0 = b.c(0, t), b1 = b.c(0, t), b2 = b.c(0, t);
  for (double c : coefficients) {
    b2 = b1;
    b1 = b0;
    b0 = b.add(b.sub(b.mul(t, b1), b2), b.c(c, t));
  }
  return b.mul(b.sub(b0, b2), b.c(0.5, t));
}

/// exp(-|x|) I1(x): |x| <= 8 as |x| A(|x| / 2 - 2), beyond as
/// B(32 / |x| - 2) / sqrt|x|, with x's sign; f32 takes the expansions'
/// last 17 and 7 terms, as XLA.
Val besselI1e(StepBuilder &b, const std::vector<Val> &args) {
  static constexpr double kA[] = {
      2.77791411276104639959E-18,  -2.11142121435816608115E-17, 1.55363195773620046921E-16,
      -1.10559694773538630805E-15, 7.60068429473540693410E-15,  -5.04218550472791168711E-14,
      3.22379336594557470981E-13,  -1.98397439776494371520E-12, 1.17361862988909016308E-11,
      -6.66348972350202774223E-11, 3.62559028155211703701E-10,  -1.88724975172282928790E-9,
      9.38153738649577178388E-9,   -4.44505912879632808065E-8,  2.00329475355213526229E-7,
      -8.56872026469545474066E-7,  3.47025130813767847674E-6,   -1.32731636560394358279E-5,
      4.78156510755005422638E-5,   -1.61760815825896745588E-4,  5.12285956168575772895E-4,
      -1.51357245063125314899E-3,  4.15642294431288815669E-3,   -1.05640848946261981558E-2,
      2.47264490306265168283E-2,   -5.29459812080949914269E-2,  1.02643658689847095384E-1,
      -1.76416518357834055153E-1,  2.52587186443633654823E-1};
  static constexpr double kB[] = {
      7.51729631084210481353E-18,  4.41434832307170791151E-18,  -4.65030536848935832153E-17,
      -3.20952592199342395980E-17, 2.96262899764595013876E-16,  3.30820231092092828324E-16,
      -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
      4.27244001671195135429E-14,  -2.10154184277266431302E-14, -4.08355111109219731823E-13,
      -7.19855177624590851209E-13, 2.03562854414708950722E-12,  1.41258074366137813316E-11,
      3.25260358301548823856E-11,  -1.89749581235054123450E-11, -5.58974346219658380687E-10,
      -3.83538038596423702205E-9,  -2.63146884688951950684E-8,  -2.51223623787020892529E-7,
      -3.88256480887769039346E-6,  -1.10588938762623716291E-4,  -9.76109749136146840777E-3,
      7.78576235018280120474E-1};
  const Val &x = args[0];
  const bool f64 = x.type == ElementType::F64;
  const std::span<const double> a = std::span(kA).subspan(f64 ? 0 : std::size(kA) - 17);
  const std::span<const double> bCoefficients = std::span(kB).subspan(f64 ? 0 : std::size(kB) - 7);
  const Val z = b.abs(x);
  const Val near = b.mul(z, chebyshev(b, b.sub(b.mul(b.c(0.5, x), z), b.c(2, x)), a));
  const Val far =
      b.div(chebyshev(b, b.sub(b.div(b.c(32, x), z), b.c(2, x)), bCoefficients), b.sqrt(z));
  const Val value = b.select(b.compare("LE", z, b.c(8, x)), near, far);
  return b.mul(b.unary("sign", x), value);
}

// ---- hyperbolic and inverse trigonometric functions ------------------------

/// e^(x + log 1/2) +- e^(-x + log 1/2): (e^x +- e^-x) / 2 without overflowing
/// where e^x does but the half does not.
Val halvedExponentials(StepBuilder &b, const Val &x, const char *combine) {
  const Val logHalf = b.c(std::log(0.5), x);
  return b.binary(combine, b.exp(b.add(x, logHalf)), b.exp(b.sub(logHalf, x)));
}

Val sinh(StepBuilder &b, const std::vector<Val> &args) {
  const Val &x = args[0];
  // |x| < 1: (expm1(x) + expm1(x) / (expm1(x) + 1)) / 2, no cancellation.
  const Val e = b.expm1(x);
  const Val small = b.mul(b.c(0.5, x), b.add(e, b.div(e, b.add(e, b.c(1, x)))));
  const Val nearZero = b.compare("LT", b.abs(x), b.c(1, x));
  return b.select(nearZero, small, halvedExponentials(b, x, "subtract"));
}

Val cosh(StepBuilder &b, const std::vector<Val> &args) {
  return halvedExponentials(b, args[0], "add");
}

/// On complex numbers, StableHLO's legalization's form at every |z|.
Val complexSinh(StepBuilder &b, const std::vector<Val> &args) {
  return halvedExponentials(b, args[0], "subtract");
}

/// sqrt(1 - x^2) as sqrt((1 - x)(1 + x)): exact factors near |x| = 1.
Val cosineOfArcsine(StepBuilder &b, const Val &x) {
  return b.sqrt(b.mul(b.sub(b.c(1, x), x), b.add(b.c(1, x), x)));
}

Val asin(StepBuilder &b, const std::vector<Val> &args) {
  // asin(x) = 2 atan2(x, 1 + sqrt(1 - x^2)): the half angle, exact at 0 and +-1.
  const Val &x = args[0];
  return b.mul(b.c(2, x), b.atan2(x, b.add(b.c(1, x), cosineOfArcsine(b, x))));
}

Val acos(StepBuilder &b, const std::vector<Val> &args) {
  // acos(x) = 2 atan2(sqrt(1 - x^2), 1 + x); pi at x = -1.
  const Val &x = args[0];
  const Val half = b.atan2(cosineOfArcsine(b, x), b.add(b.c(1, x), x));
  return b.select(b.compare("EQ", x, b.c(-1, x)), b.c(std::numbers::pi, x), b.mul(b.c(2, x), half));
}

/// Older JAX prints jnp.tan as chlo.tan: StableHLO has it now.
Val tan(StepBuilder &b, const std::vector<Val> &args) { return b.unary("tan", args[0]); }

Val atan(StepBuilder &b, const std::vector<Val> &args) { return b.atan2(args[0], b.c(1, args[0])); }

Val asinh(StepBuilder &b, const std::vector<Val> &args) {
  // asinh|x| = log1p(|x| + x^2 / (1 + sqrt(1 + x^2))), accurate near 0;
  // log|x| + log 2 where x^2 would overflow. The sign is x's (-0 stays -0).
  const Val &x = args[0];
  const Val ax = b.abs(x), x2 = b.mul(x, x);
  const Val moderate =
      b.log1p(b.add(ax, b.div(x2, b.add(b.c(1, x), b.sqrt(b.add(b.c(1, x), x2))))));
  const Val large = b.add(b.log(ax), b.c(std::log(2.0), x));
  const Val huge = b.compare("GE", ax, b.c(std::sqrt(maxFinite(x.type)), x));
  return b.mul(b.unary("sign", x), b.select(huge, large, moderate));
}

Val acosh(StepBuilder &b, const std::vector<Val> &args) {
  // acosh(x) = log1p(t + sqrt(t (t + 2))) with t = x - 1 (exact near 1);
  // log x + log 2 where t^2 would overflow; NaN below 1 (from the sqrt or
  // log1p below -1).
  const Val &x = args[0];
  const Val t = b.sub(x, b.c(1, x));
  const Val moderate = b.log1p(b.add(t, b.sqrt(b.mul(t, b.add(t, b.c(2, x))))));
  const Val large = b.add(b.log(x), b.c(std::log(2.0), x));
  const Val huge = b.compare("GE", x, b.c(std::sqrt(maxFinite(x.type)), x));
  return b.select(huge, large, moderate);
}

Val atanh(StepBuilder &b, const std::vector<Val> &args) {
  // atanh(x) = (log1p(x) - log1p(-x)) / 2: no cancellation near 0, +-inf at
  // +-1, NaN beyond.
  const Val &x = args[0];
  return b.mul(b.c(0.5, x), b.sub(b.log1p(x), b.log1p(b.neg(x))));
}

// ---- inverse trigonometric and hyperbolic functions on complex numbers -----
// StableHLO's legalization's algorithms (from the functional_algorithms
// package): a modified Hull et al. for asin and acos, from which asinh and
// acosh follow, and atanh's log1p form, from which atan follows. Each is
// accurate near the branch cuts and where a naive formula over- or
// underflows.

/// A complex value as its real and imaginary parts.
struct Parts {
  Val re, im;
};

Val realPart(StepBuilder &b, const Val &z) { return b.op("real", {z}, complexPartType(z.type)); }
Val imagPart(StepBuilder &b, const Val &z) { return b.op("imag", {z}, complexPartType(z.type)); }
Val fromParts(StepBuilder &b, const Parts &parts) {
  return b.op("complex", {parts.re, parts.im}, shardgen::complexOf(parts.re.type));
}

Val logicalAnd(StepBuilder &b, const Val &p, const Val &q) {
  return b.op("and", {p, q}, ElementType::I1);
}

/// hypot(p, q) for p, q >= 0 from m = max, n = min: m sqrt(1 + (n/m)^2),
/// m (1 + (n/m)^2 / 2) where the sqrt rounds to 1, m sqrt 2 where p == q
/// (infinities included).
Val hypotOfNonNegatives(StepBuilder &b, const Val &p, const Val &q) {
  const Val mx = b.binary("maximum", p, q), mn = b.binary("minimum", p, q);
  const Val ratio = b.div(mn, mx);
  const Val ratio2 = b.mul(ratio, ratio);
  const Val root = b.sqrt(b.add(b.c(1, p), ratio2));
  const Val rootRoundsToOne =
      logicalAnd(b, b.compare("EQ", root, b.c(1, p)), b.compare("GT", ratio2, b.c(0, p)));
  const Val general =
      b.select(rootRoundsToOne, b.add(mx, b.div(b.mul(mx, ratio2), b.c(2, p))), b.mul(mx, root));
  return b.select(b.compare("EQ", mx, mn), b.mul(b.c(std::numbers::sqrt2, p), mx), general);
}

/// w with asin(z) = atan2(Re z, Re w) + i sign(Im z) Im w and acos(z) =
/// atan2(Re w, Re z) - i sign(Im z) Im w, of z = re + i im: with x = |re|,
/// y = |im|, a = (hypot(x + 1, y) + hypot(x - 1, y)) / 2, Re w =
/// sqrt(a^2 - x^2) and Im w = log(a + sqrt(a^2 - 1)), each in the form that
/// keeps its digits in its region (Hull et al.'s regions, merged).
Parts asinAcosKernel(StepBuilder &b, const Val &re, const Val &im) {
  const ElementType type = re.type;
  const double largest = maxFinite(type);
  const double smallestNormal = type == ElementType::F64 ? std::numeric_limits<double>::min()
                                                         : std::numeric_limits<float>::min();
  const Val x = b.abs(re), y = b.abs(im);
  const Val one = b.c(1, x), half = b.c(0.5, x);
  // Beyond safeMax squares overflow: the asymptotic forms.
  const double safeMax = std::sqrt(largest) / 8;
  const Val xp1 = b.add(x, one), xm1 = b.sub(x, one);
  const Val r = hypotOfNonNegatives(b, b.abs(xp1), y);
  const Val s = hypotOfNonNegatives(b, b.abs(xm1), y);
  const Val a = b.mul(half, b.add(r, s));
  const Val halfApx = b.mul(half, b.add(a, x));
  const Val yy = b.mul(y, y);
  const Val rpxp1 = b.add(r, xp1), smxm1 = b.sub(s, xm1), spxm1 = b.add(s, xm1);

  // Re w: y where |z| is huge; a^2 - x^2 = (a + x)(a - x) with a - x from
  // the hypotenuses' differences (no cancellation) for x <= 1, the
  // factored form beyond.
  const Val huge = b.compare("GE", b.binary("maximum", x, y), b.c(safeMax, x));
  const Val reNearAxis = b.sqrt(b.mul(halfApx, b.add(b.div(yy, rpxp1), smxm1)));
  const Val reBeyondOne = b.mul(y, b.sqrt(b.add(b.div(halfApx, rpxp1), b.div(halfApx, spxm1))));
  const Val wRe = b.select(huge, y, b.select(b.compare("LE", x, one), reNearAxis, reBeyondOne));

  // Im w: log 2 + log max(x, y) + log1p((min/max)^2) / 2 for huge |z| (the
  // threshold on y drops far below safeMax where x is moderate, for
  // accuracy); y / sqrt((a - 1)(a + 1)) for tiny y inside the unit
  // segment; else log1p(am1 + sqrt(am1 (a + 1))) with am1 = a - 1 in the
  // form that keeps its digits.
  const Val safeMaxOpt = b.select(b.compare("LT", x, b.c(safeMax * 1e12, x)),
                                  b.c(safeMax * 1e-6, x), b.c(safeMax * 100, x));
  const Val yLarge = b.compare("GE", y, safeMaxOpt);
  const Val mxLarge = b.select(yLarge, y, x);
  const Val largeBranch = b.compare("GE", mxLarge, b.select(yLarge, safeMaxOpt, b.c(safeMax, x)));
  const Val yFinite =
      b.op("not", {b.compare("EQ", y, b.c(std::numeric_limits<double>::infinity(), x))},
           ElementType::I1);
  const Val xoy = b.select(logicalAnd(b, yLarge, yFinite), b.div(x, y), b.c(0, x));
  const Val imLarge = b.add(b.add(b.c(std::numbers::ln2, x), b.log(mxLarge)),
                            b.mul(half, b.log1p(b.mul(xoy, xoy))));
  const Val tinyY = logicalAnd(b, b.compare("LT", y, b.c(std::sqrt(smallestNormal) * 4, x)),
                               b.compare("LT", x, one));
  const Val ap1 = b.add(a, one);
  const Val halfYy = b.mul(half, yy);
  const Val halfYyOverRpxp1 = b.div(halfYy, rpxp1);
  const Val am1 =
      b.select(tinyY, b.neg(b.div(b.mul(xp1, xm1), ap1)),
               b.select(b.compare("GE", x, one), b.add(halfYyOverRpxp1, b.mul(half, spxm1)),
                        b.select(b.compare("LE", a, b.c(1.5, x)),
                                 b.add(halfYyOverRpxp1, b.div(halfYy, smxm1)), b.sub(a, one))));
  const Val sq = b.sqrt(b.mul(am1, ap1));
  const Val imModerate = b.select(tinyY, b.div(y, sq), b.log1p(b.add(am1, sq)));
  return {wRe, b.select(largeBranch, imLarge, imModerate)};
}

/// -v where the sign of `signOf` is negative, else v.
Val negatedBelowZero(StepBuilder &b, const Val &signOf, const Val &v) {
  return b.select(b.compare("LT", signOf, b.c(0, signOf)), b.neg(v), v);
}

Val complexAsin(StepBuilder &b, const std::vector<Val> &args) {
  const Val re = realPart(b, args[0]), im = imagPart(b, args[0]);
  const Parts w = asinAcosKernel(b, re, im);
  return fromParts(b, {b.atan2(re, w.re), negatedBelowZero(b, im, w.im)});
}

Val complexAcos(StepBuilder &b, const std::vector<Val> &args) {
  const Val re = realPart(b, args[0]), im = imagPart(b, args[0]);
  const Parts w = asinAcosKernel(b, re, im);
  return fromParts(b, {b.atan2(w.re, re), negatedBelowZero(b, im, b.neg(w.im))});
}

/// acosh(z) = i sign(Im z) acos(z) = Im w + i sign(Im z) atan2(Re w, Re z).
Val complexAcosh(StepBuilder &b, const std::vector<Val> &args) {
  const Val re = realPart(b, args[0]), im = imagPart(b, args[0]);
  const Parts w = asinAcosKernel(b, re, im);
  return fromParts(b, {w.im, negatedBelowZero(b, im, b.atan2(w.re, re))});
}

/// asinh(z) = -i asin(i z): the kernel of i z = -Im z + i Re z.
Val complexAsinh(StepBuilder &b, const std::vector<Val> &args) {
  const Val re = realPart(b, args[0]), im = imagPart(b, args[0]);
  const Parts w = asinAcosKernel(b, im, re); // |-Im z| = |Im z|
  return fromParts(b, {negatedBelowZero(b, re, w.im), b.atan2(im, w.re)});
}

/// atanh(re + i im) = log1p(4 |x| / ((1 - |x|)^2 + y^2)) sign(x) / 4 +
/// i atan2(2 y, (1 - |x|)(1 + |x|) - y^2) / 2, with the real part's
/// argument rearranged where the squares would overflow (1 / |x| where y
/// is negligible, 0 at an infinity) and the imaginary part +-pi/2 there.
Parts atanhParts(StepBuilder &b, const Val &x, const Val &y) {
  const ElementType type = x.type;
  // 1 / (eps / 2) + 2: beyond its square, 1 is negligible beside x^2 + y^2.
  const double inverseEps = type == ElementType::F64 ? 9007199254740994.0 : 16777218.0;
  const double safeMax = inverseEps * inverseEps;
  const double inf = std::numeric_limits<double>::infinity();
  const Val one = b.c(1, x), zero = b.c(0, x);
  const Val ax = b.abs(x), ay = b.abs(y);
  const Val inSafeRegion =
      logicalAnd(b, b.compare("LT", ax, b.c(safeMax, x)), b.compare("LT", ay, b.c(safeMax, x)));
  const Val naxm1 = b.sub(one, ax), y2 = b.mul(y, y);
  const Val anyInfinite = b.op(
      "or", {b.compare("EQ", ax, b.c(inf, x)), b.compare("EQ", ay, b.c(inf, x))}, ElementType::I1);
  const Val farArgument = b.select(
      b.compare("LT", b.mul(ay, b.c(inverseEps, x)), ax), b.div(one, ax),
      b.select(anyInfinite, zero, b.div(b.div(one, b.add(b.div(ax, y), b.div(y, ax))), y)));
  const Val argument =
      b.select(inSafeRegion, b.div(ax, b.add(b.mul(naxm1, naxm1), y2)), farArgument);
  const Val xSign = b.select(b.compare("GE", x, zero), one, b.c(-1, x));
  const Val re = b.mul(b.mul(xSign, b.log1p(b.mul(b.c(4, x), argument))), b.c(0.25, x));
  const Val ySign = b.select(b.compare("GE", y, zero), one, b.c(-1, x));
  const Val angle =
      b.select(inSafeRegion, b.atan2(b.add(y, y), b.sub(b.mul(naxm1, b.add(one, ax)), y2)),
               b.mul(ySign, b.c(std::numbers::pi, x)));
  return {re, b.mul(angle, b.c(0.5, x))};
}

Val complexAtanh(StepBuilder &b, const std::vector<Val> &args) {
  return fromParts(b, atanhParts(b, realPart(b, args[0]), imagPart(b, args[0])));
}

/// atan(z) = -i atanh(i z).
Val complexAtan(StepBuilder &b, const std::vector<Val> &args) {
  const Val re = realPart(b, args[0]), im = imagPart(b, args[0]);
  const Parts w = atanhParts(b, b.neg(im), re);
  return fromParts(b, {w.im, b.neg(w.re)});
}

// ---- classification and square (in the operand's own type) ----------------

Val isInf(StepBuilder &b, const std::vector<Val> &args) {
  const Val &x = args[0];
  return b.compare("EQ", b.abs(x), b.c(std::numeric_limits<double>::infinity(), x));
}

Val isPosInf(StepBuilder &b, const std::vector<Val> &args) {
  const Val &x = args[0];
  return b.compare("EQ", x, b.c(std::numeric_limits<double>::infinity(), x));
}

Val isNegInf(StepBuilder &b, const std::vector<Val> &args) {
  const Val &x = args[0];
  return b.compare("EQ", x, b.c(-std::numeric_limits<double>::infinity(), x));
}

Val square(StepBuilder &b, const std::vector<Val> &args) { return b.mul(args[0], args[0]); }

/// z^2 as StableHLO's legalization writes it: re (x - y)(x + y), exactly 0
/// where |x| = |y| and x is finite (x x - y y would round to a tiny
/// nonzero), im 2 (x y).
Val complexSquare(StepBuilder &b, const std::vector<Val> &args) {
  const Val x = realPart(b, args[0]), y = imagPart(b, args[0]);
  const Val equal = logicalAnd(b, b.isFinite(x), b.compare("EQ", b.abs(x), b.abs(y)));
  const Val re = b.select(equal, b.c(0, x), b.mul(b.sub(x, y), b.add(x, y)));
  return fromParts(b, {re, b.mul(b.c(2, x), b.mul(x, y))});
}

/// The next float after x toward y: x's bits as an integer, one step up or
/// down in magnitude; the smallest subnormal (signed as y) from a zero; y
/// when x == y (signed zeros included); NaN when either is.
Val nextAfter(StepBuilder &b, const std::vector<Val> &args) {
  const Val &x = args[0], &y = args[1];
  const ElementType intType = x.type == ElementType::F64   ? ElementType::I64
                              : x.type == ElementType::F32 ? ElementType::I32
                                                           : ElementType::I16;
  const int64_t width = x.type == ElementType::F64 ? 64 : x.type == ElementType::F32 ? 32 : 16;
  const Val xBits = b.op("bitcast_convert", {x}, intType);
  const Val yBits = b.op("bitcast_convert", {y}, intType);
  const int64_t sign =
      width == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (width - 1));
  const Val signMask = b.ci(sign, xBits), magnitudeMask = b.ci(~sign, xBits);
  const Val xMagnitude = b.binary("and", xBits, magnitudeMask);
  const Val yMagnitude = b.binary("and", yBits, magnitudeMask);
  const Val xSign = b.binary("and", xBits, signMask), ySign = b.binary("and", yBits, signMask);
  const Val zero = b.ci(0, xBits), one = b.ci(1, xBits);
  const Val shrink =
      b.op("or", {b.compare("GT", xMagnitude, yMagnitude), b.compare("NE", xSign, ySign)},
           ElementType::I1);
  Val result = b.add(xBits, b.select(shrink, b.ci(-1, xBits), one));
  const Val fromZero =
      b.select(b.compare("EQ", yMagnitude, zero), yBits, b.binary("or", ySign, one));
  result = b.select(b.compare("EQ", xMagnitude, zero), fromZero, result);
  result = b.select(b.compare("EQ", x, y), yBits, result);
  const Val nan = b.op("or", {b.compare("NE", x, x), b.compare("NE", y, y)}, ElementType::I1);
  result = b.select(
      nan, b.op("bitcast_convert", {b.c(std::numeric_limits<double>::quiet_NaN(), x)}, intType),
      result);
  return b.op("bitcast_convert", {result}, x.type);
}

/// The high half of the product of two integers of one type: in the type
/// of twice the width, shifted down (arithmetically for signed types); for
/// 64 bits from the four products of 32-bit halves (unsigned), then, for
/// i64, less b where a < 0 and a where b < 0 (the two's complement identity).
Val mulhi(StepBuilder &b, const std::vector<Val> &args) {
  const Val &x = args[0], &y = args[1];
  const bool isSigned = isSignedInteger(x.type);
  const int64_t width = static_cast<int64_t>(elementByteWidth(x.type)) * 8;
  if (width < 64) {
    static const std::map<ElementType, ElementType> kWider = {
        {ElementType::I8, ElementType::I16},    {ElementType::I16, ElementType::I32},
        {ElementType::I32, ElementType::I64},   {ElementType::UI8, ElementType::UI16},
        {ElementType::UI16, ElementType::UI32}, {ElementType::UI32, ElementType::UI64}};
    const ElementType wide = kWider.at(x.type);
    const Val product = b.mul(b.convert(x, wide), b.convert(y, wide));
    const Val high = b.binary(isSigned ? "shift_right_arithmetic" : "shift_right_logical", product,
                              b.ci(width, product));
    return b.convert(high, x.type);
  }
  const Val ux = isSigned ? b.op("bitcast_convert", {x}, ElementType::UI64) : x;
  const Val uy = isSigned ? b.op("bitcast_convert", {y}, ElementType::UI64) : y;
  const Val low32 = b.ci(0xFFFFFFFF, ux), shift32 = b.ci(32, ux);
  auto lowHalf = [&](const Val &v) { return b.binary("and", v, low32); };
  auto highHalf = [&](const Val &v) { return b.binary("shift_right_logical", v, shift32); };
  const Val xl = lowHalf(ux), xh = highHalf(ux), yl = lowHalf(uy), yh = highHalf(uy);
  const Val ll = b.mul(xl, yl), lh = b.mul(xl, yh), hl = b.mul(xh, yl), hh = b.mul(xh, yh);
  const Val middle = b.add(b.add(highHalf(ll), lowHalf(lh)), lowHalf(hl));
  Val high = b.add(b.add(b.add(hh, highHalf(lh)), highHalf(hl)), highHalf(middle));
  if (!isSigned)
    return high;
  const Val zero = b.ci(0, ux);
  high = b.sub(high, b.select(b.compare("LT", x, b.ci(0, x)), uy, zero));
  high = b.sub(high, b.select(b.compare("LT", y, b.ci(0, y)), ux, zero));
  return b.op("bitcast_convert", {high}, x.type);
}

struct ChloOp {
  Decomposition decompose;
  int arity;
  /// f16 and bf16 are computed in f32 and rounded back (XLA's upcast).
  bool inF32;
  /// Defined on integers (not i1) instead of floats.
  bool onIntegers = false;
  /// The decomposition on complex operands (StableHLO's legalization's
  /// formula), or none: refused there.
  Decomposition onComplex = nullptr;
};

const std::map<std::string, ChloOp> &chloOps() {
  static const std::map<std::string, ChloOp> ops = {
      {"chlo.erf_inv", {erfInv, 1, true}},
      {"chlo.erf", {erf, 1, true}},
      {"chlo.erfc", {erfc, 1, true}},
      {"chlo.lgamma", {lgamma, 1, true}},
      {"chlo.digamma", {digamma, 1, true}},
      {"chlo.sinh", {sinh, 1, true, false, complexSinh}},
      {"chlo.cosh", {cosh, 1, true, false, cosh}},
      {"chlo.asin", {asin, 1, true, false, complexAsin}},
      {"chlo.acos", {acos, 1, true, false, complexAcos}},
      {"chlo.atan", {atan, 1, true, false, complexAtan}},
      {"chlo.asinh", {asinh, 1, true, false, complexAsinh}},
      {"chlo.acosh", {acosh, 1, true, false, complexAcosh}},
      {"chlo.atanh", {atanh, 1, true, false, complexAtanh}},
      {"chlo.is_inf", {isInf, 1, false}},
      {"chlo.is_pos_inf", {isPosInf, 1, false}},
      {"chlo.is_neg_inf", {isNegInf, 1, false}},
      {"chlo.square", {square, 1, false, false, complexSquare}},
      {"chlo.next_after", {nextAfter, 2, false}},
      {"chlo.tan", {tan, 1, false, false, tan}},
      {"chlo.zeta", {zeta, 2, true}},
      {"chlo.polygamma", {polygamma, 2, true}},
      {"chlo.bessel_i1e", {besselI1e, 1, true}},
      {"chlo.mulhi", {mulhi, 2, false, true}},
  };
  return ops;
}

} // namespace

bool isDecomposedChlo(const std::string &name) { return chloOps().count(name) != 0; }

std::vector<Operation> decomposeChlo(const Operation &chlo) {
  const ChloOp &entry = chloOps().at(chlo.name);
  const std::string where = chlo.loc.str();
  if (static_cast<int>(chlo.operands.size()) != entry.arity || chlo.results.size() != 1 ||
      chlo.resultTypes.size() != 1 || !chlo.regions.empty())
    fail(where, "'" + chlo.name + "' takes " + std::to_string(entry.arity) +
                    " operand(s) and has one result");
  if (chlo.operandTypes.size() != chlo.operands.size())
    fail(where, "'" + chlo.name + "' needs its operand types (`: t -> r` or `(t) -> r`)");
  std::vector<TensorType> types;
  for (const TypeRef &ref : chlo.operandTypes) {
    const TensorType type = statedType(ref, ref.loc.str());
    if (entry.onIntegers && (isFloat(type.elementType) || type.elementType == ElementType::I1))
      fail(ref.loc.str(),
           "'" + chlo.name + "' is defined on integer tensors, got " + printType(type));
    const bool complex = isComplex(type.elementType) && entry.onComplex;
    if (!entry.onIntegers && !isFloat(type.elementType) && !complex)
      fail(ref.loc.str(), "'" + chlo.name + "' is defined on floating-point" +
                              (entry.onComplex ? " and complex" : "") + " tensors, got " +
                              printType(type));
    if (!types.empty() && type != types.front())
      fail(ref.loc.str(), "'" + chlo.name + "' needs operands of one type, got " +
                              printType(types.front()) + " and " + printType(type));
    types.push_back(type);
  }
  const ElementType original = types.front().elementType;
  StepBuilder b(chlo, types.front().shape);
  const bool upcast =
      entry.inF32 && (original == ElementType::F16 || original == ElementType::BF16);
  std::vector<Val> args;
  for (size_t i = 0; i < chlo.operands.size(); ++i) {
    Val arg{chlo.operands[i].name, original};
    args.push_back(upcast ? b.convert(arg, ElementType::F32) : arg);
  }
  Val result = isComplex(original) ? entry.onComplex(b, args) : entry.decompose(b, args);
  if (upcast)
    result = b.convert(result, original);
  return b.finish(result);
}

uint64_t decompositionSize(const std::string &name) {
  // Each op decomposed once per element type (f16 adds its converts), on
  // first use.
  static const std::map<std::string, uint64_t> sizes = [] {
    std::map<std::string, uint64_t> out;
    for (const auto &[opName, entry] : chloOps()) {
      uint64_t most = 0;
      std::vector<const char *> types =
          entry.onIntegers ? std::vector<const char *>{"tensor<i8>", "tensor<i64>", "tensor<ui64>"}
                           : std::vector<const char *>{"tensor<f16>", "tensor<f32>", "tensor<f64>"};
      if (entry.onComplex)
        types.push_back("tensor<complex<f64>>");
      for (const char *type : types) {
        Operation probe;
        probe.name = opName;
        probe.results = {"r"};
        for (int i = 0; i < entry.arity; ++i) {
          probe.operands.push_back(ValueUse{"a" + std::to_string(i), {}});
          probe.operandTypes.push_back(TypeRef{type, {}});
        }
        probe.resultTypes.push_back(TypeRef{type, {}});
        most = std::max<uint64_t>(most, decomposeChlo(probe).size());
      }
      out[opName] = most;
    }
    return out;
  }();
  return sizes.at(name);
}

} // namespace shardgen::mlir
