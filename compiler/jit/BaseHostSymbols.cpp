// The fixed allow-list of host functions JIT-ed code may link against besides
// what its caller registers: memory and math functions (clang lowers copies
// and __builtin_expf & co. to calls of them, and may fuse sin+cos into sincos) and the C++ ABI
// support compiled C++ needs (operator new/delete, unwinding through JIT-ed frames). Nothing here
// reaches files, processes or the environment.
#include "compiler/jit/JitCompiler.h"

#include <cmath>
#include <cstring>
#include <cxxabi.h>
#include <exception>
#include <new>
#include <strings.h>
#include <unwind.h>

// The Itanium ABI's personality routine, by its reserved name on purpose.
// NOLINTNEXTLINE(bugprone-reserved-identifier)
extern "C" _Unwind_Reason_Code __gxx_personality_v0(int, _Unwind_Action, _Unwind_Exception_Class,
                                                    _Unwind_Exception *, _Unwind_Context *);

namespace shardgen {
namespace {

/// The address of the overload of type F (math functions are overloaded in C++).
template <typename F> void *address(F *function) { return reinterpret_cast<void *>(function); }

} // namespace

namespace {

/// Memory functions and the C++ ABI support compiled C++ needs.
std::map<std::string, void *> abiSymbols() {
  std::map<std::string, void *> symbols = {
      {"memcpy", address<void *(void *, const void *, size_t)>(::memcpy)},
      {"memmove", address<void *(void *, const void *, size_t)>(::memmove)},
      {"memset", address<void *(void *, int, size_t)>(::memset)},
      {"memcmp", address<int(const void *, const void *, size_t)>(::memcmp)},
      // Compilers emit calls to bcmp: JIT-ed code needs it, deprecated or not.
      // NOLINTNEXTLINE(bugprone-unsafe-functions)
      {"bcmp", address<int(const void *, const void *, size_t)>(::bcmp)},
      // Itanium C++ ABI names of the global allocation functions.
      {"_Znwm", address<void *(size_t)>(::operator new)},
      {"_Znam", address<void *(size_t)>(::operator new[])},
      {"_ZdlPv", address<void(void *) noexcept>(::operator delete)},
      {"_ZdaPv", address<void(void *) noexcept>(::operator delete[])},
      {"_ZdlPvm", address<void(void *, size_t) noexcept>(::operator delete)},
      {"_ZdaPvm", address<void(void *, size_t) noexcept>(::operator delete[])},
      // Unwinding through JIT-ed frames, and noexcept violations.
      {"__gxx_personality_v0", reinterpret_cast<void *>(&__gxx_personality_v0)},
      {"_Unwind_Resume", reinterpret_cast<void *>(&_Unwind_Resume)},
      {"__cxa_begin_catch", reinterpret_cast<void *>(&__cxxabiv1::__cxa_begin_catch)},
      {"__cxa_end_catch", reinterpret_cast<void *>(&__cxxabiv1::__cxa_end_catch)},
      {"_ZSt9terminatev", address<void() noexcept>(std::terminate)},
  };
  return symbols;
}

/// <math.h>, double and float, one argument: what __builtin_<name> may lower to.
void addUnaryMath(std::map<std::string, void *> &symbols) {
  const std::pair<const char *, void *> math[] = {
      {"exp", address<double(double)>(::exp)},
      {"expf", address<float(float)>(::expf)},
      {"exp2", address<double(double)>(::exp2)},
      {"exp2f", address<float(float)>(::exp2f)},
      {"expm1", address<double(double)>(::expm1)},
      {"expm1f", address<float(float)>(::expm1f)},
      {"log", address<double(double)>(::log)},
      {"logf", address<float(float)>(::logf)},
      {"log2", address<double(double)>(::log2)},
      {"log2f", address<float(float)>(::log2f)},
      {"log10", address<double(double)>(::log10)},
      {"log10f", address<float(float)>(::log10f)},
      {"log1p", address<double(double)>(::log1p)},
      {"log1pf", address<float(float)>(::log1pf)},
      {"sqrt", address<double(double)>(::sqrt)},
      {"sqrtf", address<float(float)>(::sqrtf)},
      {"cbrt", address<double(double)>(::cbrt)},
      {"cbrtf", address<float(float)>(::cbrtf)},
      {"sin", address<double(double)>(::sin)},
      {"sinf", address<float(float)>(::sinf)},
      {"cos", address<double(double)>(::cos)},
      {"cosf", address<float(float)>(::cosf)},
      {"tan", address<double(double)>(::tan)},
      {"tanf", address<float(float)>(::tanf)},
      {"asin", address<double(double)>(::asin)},
      {"asinf", address<float(float)>(::asinf)},
      {"acos", address<double(double)>(::acos)},
      {"acosf", address<float(float)>(::acosf)},
      {"atan", address<double(double)>(::atan)},
      {"atanf", address<float(float)>(::atanf)},
      {"sinh", address<double(double)>(::sinh)},
      {"sinhf", address<float(float)>(::sinhf)},
      {"cosh", address<double(double)>(::cosh)},
      {"coshf", address<float(float)>(::coshf)},
      {"tanh", address<double(double)>(::tanh)},
      {"tanhf", address<float(float)>(::tanhf)},
      {"asinh", address<double(double)>(::asinh)},
      {"asinhf", address<float(float)>(::asinhf)},
      {"acosh", address<double(double)>(::acosh)},
      {"acoshf", address<float(float)>(::acoshf)},
      {"atanh", address<double(double)>(::atanh)},
      {"atanhf", address<float(float)>(::atanhf)},
      {"erf", address<double(double)>(::erf)},
      {"erff", address<float(float)>(::erff)},
      {"erfc", address<double(double)>(::erfc)},
      {"erfcf", address<float(float)>(::erfcf)},
      {"floor", address<double(double)>(::floor)},
      {"floorf", address<float(float)>(::floorf)},
      {"ceil", address<double(double)>(::ceil)},
      {"ceilf", address<float(float)>(::ceilf)},
      {"trunc", address<double(double)>(::trunc)},
      {"truncf", address<float(float)>(::truncf)},
      {"round", address<double(double)>(::round)},
      {"roundf", address<float(float)>(::roundf)},
      {"rint", address<double(double)>(::rint)},
      {"rintf", address<float(float)>(::rintf)},
      {"nearbyint", address<double(double)>(::nearbyint)},
      {"nearbyintf", address<float(float)>(::nearbyintf)},
      {"fabs", address<double(double)>(::fabs)},
      {"fabsf", address<float(float)>(::fabsf)},
  };
  for (const auto &[name, function] : math)
    symbols.emplace(name, function);
}

/// <math.h> functions of several arguments, and what LLVM's library-call
/// simplifier may turn the math functions into.
void addOtherMath(std::map<std::string, void *> &symbols) {
  const std::pair<const char *, void *> math[] = {
      {"atan2", address<double(double, double)>(::atan2)},
      {"atan2f", address<float(float, float)>(::atan2f)},
      {"pow", address<double(double, double)>(::pow)},
      {"powf", address<float(float, float)>(::powf)},
      {"fmod", address<double(double, double)>(::fmod)},
      {"fmodf", address<float(float, float)>(::fmodf)},
      {"remainder", address<double(double, double)>(::remainder)},
      {"remainderf", address<float(float, float)>(::remainderf)},
      {"hypot", address<double(double, double)>(::hypot)},
      {"hypotf", address<float(float, float)>(::hypotf)},
      {"copysign", address<double(double, double)>(::copysign)},
      {"copysignf", address<float(float, float)>(::copysignf)},
      {"fmin", address<double(double, double)>(::fmin)},
      {"fminf", address<float(float, float)>(::fminf)},
      {"fmax", address<double(double, double)>(::fmax)},
      {"fmaxf", address<float(float, float)>(::fmaxf)},
      {"fdim", address<double(double, double)>(::fdim)},
      {"fdimf", address<float(float, float)>(::fdimf)},
      {"fma", address<double(double, double, double)>(::fma)},
      {"fmaf", address<float(float, float, float)>(::fmaf)},
      // What LLVM's library-call simplifier may turn the above into.
      {"exp10", address<double(double)>(::exp10)},
      {"exp10f", address<float(float)>(::exp10f)},
      {"sincos", address<void(double, double *, double *)>(::sincos)},
      {"sincosf", address<void(float, float *, float *)>(::sincosf)},
      {"ldexp", address<double(double, int)>(::ldexp)},
      {"ldexpf", address<float(float, int)>(::ldexpf)},
  };
  for (const auto &[name, function] : math)
    symbols.emplace(name, function);
}

} // namespace

std::map<std::string, void *> baseHostSymbols() {
  std::map<std::string, void *> symbols = abiSymbols();
  addUnaryMath(symbols);
  addOtherMath(symbols);
  return symbols;
}

} // namespace shardgen
