#include "compiler/verify/CustomCallNames.h"

#include <algorithm>
#include <array>
#include <regex>
#include <string_view>

#include "compiler/ir/CppKeywords.h"

namespace shardgen::verify {
namespace {

/// C23's keywords that C++ does not have (C code may define the target).
constexpr std::array<std::string_view, 10> kCOnlyKeywords = {
    "restrict", "typeof",    "typeof_unqual", "_Bool",          "_Atomic",
    "_Generic", "_Noreturn", "_Thread_local", "_Static_assert", "_Alignas"};

/// C library functions generated code links against (the JIT's
/// baseHostSymbols(); a test keeps the two in step) and atexit, which the
/// JIT's platform defines.
constexpr std::array<std::string_view, 6> kMemoryFunctions = {"memcpy", "memmove", "memset",
                                                              "memcmp", "bcmp",    "atexit"};
/// <math.h> functions the JIT offers, each also with the suffix "f".
constexpr std::array<std::string_view, 46> kMathFunctions = {
    "exp10", "sincos", "exp",       "exp2",   "expm1",    "log",   "log2",  "log10",
    "log1p", "sqrt",   "cbrt",      "sin",    "cos",      "tan",   "asin",  "acos",
    "atan",  "sinh",   "cosh",      "tanh",   "asinh",    "acosh", "atanh", "erf",
    "erfc",  "floor",  "ceil",      "trunc",  "round",    "rint",  "fabs",  "atan2",
    "pow",   "fmod",   "remainder", "hypot",  "copysign", "fmin",  "fmax",  "fdim",
    "fma",   "ldexp",  "nearbyint", "lgamma", "tgamma",   "frexp"};

bool isCIdentifier(const std::string &name) {
  static const std::regex identifier("[A-Za-z_][A-Za-z0-9_]*");
  return std::regex_match(name, identifier);
}

bool isLibraryFunction(const std::string &name) {
  auto in = [](const auto &list, std::string_view candidate) {
    return std::find(list.begin(), list.end(), candidate) != list.end();
  };
  if (in(kMemoryFunctions, name) || in(kMathFunctions, name))
    return true;
  return name.size() > 1 && name.back() == 'f' &&
         in(kMathFunctions, std::string_view(name).substr(0, name.size() - 1));
}

/// The types and macros of <stddef.h> and <stdint.h>.
bool isStandardHeaderName(const std::string &name) {
  static const std::regex names(
      "u?int(8|16|32|64|ptr|max|_least(8|16|32|64)|_fast(8|16|32|64))_t|"
      "U?INT(8|16|32|64|PTR|MAX|_LEAST(8|16|32|64)|_FAST(8|16|32|64))_(MIN|MAX|C)|"
      "SIZE_MAX|PTRDIFF_(MIN|MAX)|SIG_ATOMIC_(MIN|MAX)|WCHAR_(MIN|MAX)|WINT_(MIN|MAX)|"
      "size_t|ptrdiff_t|max_align_t|nullptr_t|NULL|offsetof");
  return std::regex_match(name, names);
}

bool isShardgenName(const std::string &name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower == "shardgen" || lower.rfind("shardgen_", 0) == 0;
}

} // namespace

std::optional<std::string> customCallTargetProblem(const std::string &target) {
  if (!isCIdentifier(target))
    return "is not a C identifier (letters, digits and '_', not starting with a digit)";
  if (isCppKeyword(target) ||
      std::find(kCOnlyKeywords.begin(), kCOnlyKeywords.end(), target) != kCOnlyKeywords.end())
    return "is a C or C++ keyword";
  if (target[0] == '_' || target.find("__") != std::string::npos)
    return "is reserved for the C and C++ implementation (it begins with '_' or contains "
           "\"__\")";
  if (target == "main")
    return "is the name of the program's entry point";
  if (isLibraryFunction(target))
    return "is a C library function that generated code declares or links against";
  if (isStandardHeaderName(target))
    return "is a name <stddef.h> or <stdint.h> defines";
  if (isShardgenName(target))
    return "is one of shardgen's own names (shardgen, shardgen_*)";
  if (target == "linux" || target == "unix")
    return "is a macro GNU-mode C and C++ compilers predefine";
  return std::nullopt;
}

} // namespace shardgen::verify
