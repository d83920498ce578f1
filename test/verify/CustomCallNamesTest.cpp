// custom_call target names (compiler/verify/CustomCallNames.h): checked by
// hand, never by std::regex, whose libstdc++ matcher recurses per character
// (a 50,000-character name overflowed the stack).

#include <doctest/doctest.h>

#include <regex>
#include <string>
#include <vector>

#include "compiler/verify/CustomCallNames.h"

using namespace shardgen;

namespace {

/// Every name the old regular expressions of <stddef.h>/<stdint.h> names
/// matched, spelled out (the regexes run here on short names only).
std::vector<std::string> standardHeaderNames() {
  std::vector<std::string> names = {
      "SIZE_MAX",  "PTRDIFF_MIN", "PTRDIFF_MAX", "SIG_ATOMIC_MIN", "SIG_ATOMIC_MAX",
      "WCHAR_MIN", "WCHAR_MAX",   "WINT_MIN",    "WINT_MAX",       "size_t",
      "ptrdiff_t", "max_align_t", "nullptr_t",   "NULL",           "offsetof"};
  std::vector<std::string> widths = {"8", "16", "32", "64", "ptr", "max"};
  for (const char *kind : {"_least", "_fast"})
    for (const char *bits : {"8", "16", "32", "64"})
      widths.push_back(std::string(kind) + bits);
  for (const std::string &width : widths) {
    std::string upper;
    for (char c : width)
      upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (const char *sign : {"", "u"})
      names.push_back(std::string(sign) + "int" + width + "_t");
    for (const char *sign : {"", "U"})
      for (const char *suffix : {"_MIN", "_MAX", "_C"})
        names.push_back(std::string(sign) + "INT" + upper + suffix);
  }
  return names;
}

} // namespace

TEST_CASE("custom_call names of <stddef.h> and <stdint.h> are refused, their neighbours are not") {
  const std::regex old("u?int(8|16|32|64|ptr|max|_least(8|16|32|64)|_fast(8|16|32|64))_t|"
                       "U?INT(8|16|32|64|PTR|MAX|_LEAST(8|16|32|64)|_FAST(8|16|32|64))_(MIN|MAX|C)|"
                       "SIZE_MAX|PTRDIFF_(MIN|MAX)|SIG_ATOMIC_(MIN|MAX)|WCHAR_(MIN|MAX)|WINT_(MIN|"
                       "MAX)|size_t|ptrdiff_t|max_align_t|nullptr_t|NULL|offsetof");
  for (const std::string &name : standardHeaderNames()) {
    INFO(name);
    REQUIRE(std::regex_match(name, old));
    auto problem = verify::customCallTargetProblem(name);
    REQUIRE(problem.has_value());
    CHECK(*problem == "is a name <stddef.h> or <stdint.h> defines");
  }
  for (const char *name : {"int7_t", "uint8", "INT8", "UINT_LEAST8_T", "int_least_t", "uINT8_MAX",
                           "Uint8_t", "int_fast128_t", "INTPTR", "uint128_t", "INT_C", "intmax_tt",
                           "size_tt", "NULLS", "uuint8_t", "UUINT8_MAX", "my_int8_t"}) {
    INFO(name);
    CHECK(!std::regex_match(std::string(name), old));
    CHECK(!verify::customCallTargetProblem(name).has_value());
  }
}

TEST_CASE("custom_call names of any length are checked without recursion") {
  std::string huge(1 << 20, 'a');
  CHECK(!verify::customCallTargetProblem(huge).has_value()); // an identifier, if a long one
  huge[huge.size() / 2] = '-';
  CHECK(verify::customCallTargetProblem(huge) ==
        "is not a C identifier (letters, digits and '_', not starting with a digit)");
  CHECK(verify::customCallTargetProblem("1abc").has_value());
  CHECK(verify::customCallTargetProblem("").has_value());
  CHECK(verify::customCallTargetProblem("a\xc3\xa9").has_value()); // no letters beyond ASCII
  CHECK(!verify::customCallTargetProblem("_x")
             .value()
             .empty()); // reserved, not an identifier problem
}
