#include "compiler/verify/CustomCallNames.h"

#include <algorithm>
#include <array>
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

// Hand-written, not std::regex: libstdc++'s matcher recurses per character,
// and a target name is untrusted text of any length.
bool isAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isAsciiDigit(char c) { return c >= '0' && c <= '9'; }

bool isCIdentifier(std::string_view name) {
  if (name.empty() || !(isAsciiLetter(name[0]) || name[0] == '_'))
    return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return isAsciiLetter(c) || isAsciiDigit(c) || c == '_'; });
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

/// Removes `prefix` from the front of `text` when it is there.
bool consume(std::string_view &text, std::string_view prefix) {
  if (!text.starts_with(prefix))
    return false;
  text.remove_prefix(prefix.size());
  return true;
}

/// `text` is one of `choices`.
template <size_t N>
bool isOneOf(std::string_view text, const std::array<std::string_view, N> &choices) {
  return std::find(choices.begin(), choices.end(), text) != choices.end();
}

/// The middle of <stdint.h>'s names: 8, 16, 32, 64, ptr, max, _least8, _fast16, ...
/// (`upper`: as the macros spell them).
bool isIntegerWidth(std::string_view width, bool upper) {
  constexpr std::array<std::string_view, 4> bits = {"8", "16", "32", "64"};
  if (isOneOf(width, bits) || width == (upper ? "PTR" : "ptr") || width == (upper ? "MAX" : "max"))
    return true;
  return (consume(width, upper ? "_LEAST" : "_least") ||
          consume(width, upper ? "_FAST" : "_fast")) &&
         isOneOf(width, bits);
}

/// The types and macros of <stddef.h> and <stdint.h>: int8_t, uintptr_t,
/// int_least16_t, INT32_MAX, UINT_FAST8_MIN, INTMAX_C, SIZE_MAX, ...
bool isStandardHeaderName(std::string_view name) {
  constexpr std::array<std::string_view, 15> fixed = {
      "SIZE_MAX",  "PTRDIFF_MIN", "PTRDIFF_MAX", "SIG_ATOMIC_MIN", "SIG_ATOMIC_MAX",
      "WCHAR_MIN", "WCHAR_MAX",   "WINT_MIN",    "WINT_MAX",       "size_t",
      "ptrdiff_t", "max_align_t", "nullptr_t",   "NULL",           "offsetof"};
  if (isOneOf(name, fixed))
    return true;
  std::string_view rest = name;
  consume(rest, "u"); // u?int..._t
  if (consume(rest, "int") && rest.ends_with("_t") &&
      isIntegerWidth(rest.substr(0, rest.size() - 2), false))
    return true;
  rest = name;
  consume(rest, "U"); // U?INT..._(MIN|MAX|C)
  if (!consume(rest, "INT"))
    return false;
  for (std::string_view suffix : {"_MIN", "_MAX", "_C"})
    if (rest.ends_with(suffix) && isIntegerWidth(rest.substr(0, rest.size() - suffix.size()), true))
      return true;
  return false;
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
