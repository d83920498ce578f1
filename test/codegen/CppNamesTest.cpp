// Graph names as they reach generated C++ (namespace, symbols, file names).

#include <doctest/doctest.h>

#include <set>
#include <string>

#include "compiler/codegen/CppNames.h"

using shardgen::codegen::programIdentifier;

TEST_CASE("programIdentifier keeps plain names and mangles the rest") {
  CHECK(programIdentifier("mlp") == "mlp");
  CHECK(programIdentifier("my_model2") == "my_model2");
  CHECK(programIdentifier("") == "program");
  // Keywords, alternative tokens, macros, reserved and odd spellings.
  CHECK(programIdentifier("int") == "sg_int");
  CHECK(programIdentifier("and") == "sg_and");
  CHECK(programIdentifier("NULL") == "sg_NULL");
  CHECK(programIdentifier("linux") == "sg_linux");
  CHECK(programIdentifier("a__b") == "sg_aZ5fZ5fb");
  CHECK(programIdentifier("_x") == "sg_Z5fx");
  CHECK(programIdentifier("x_") == "sg_xZ5f");
  CHECK(programIdentifier("2d") == "sg_2d");
  CHECK(programIdentifier("me, sh") == "sg_meZ2cZ20sh");
  CHECK(programIdentifier("sg_int") == "sg_sgZ5fint"); // never equal to a mangled name
}

TEST_CASE("programIdentifier is collision-free and bounded") {
  const std::string names[] = {"int",
                               "sg_int",
                               "a-b",
                               "a_b",
                               "aZ2db",
                               "a b",
                               "Z",
                               "Z5a",
                               "z",
                               "NULL",
                               "null",
                               std::string(247, 'a'),
                               std::string(248, 'a'),
                               std::string(300, '-'),
                               std::string(300, '_')};
  std::set<std::string> seen;
  for (const std::string &name : names) {
    std::string id = programIdentifier(name);
    CAPTURE(name);
    CHECK(seen.insert(id).second);
    CHECK(id.size() <= 201);
    CHECK(id.find("__") == std::string::npos);
    CHECK(id.back() != '_');
    CHECK(programIdentifier(name) == id); // deterministic
  }
}
