// Graph names as they reach generated C++ (namespace, symbols, file names).

#include <doctest/doctest.h>

#include <set>
#include <string>

#include "compiler/codegen/CppNames.h"
#include "compiler/codegen/EmbeddedFiles.h"

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
  // CMake's own targets and the runtime's (the name is the generated
  // CMakeLists.txt's target: these did not configure).
  CHECK(programIdentifier("all") == "sg_all");
  CHECK(programIdentifier("clean") == "sg_clean");
  CHECK(programIdentifier("shardgen_runtime") == "sg_shardgenZ5fruntime");
  CHECK(programIdentifier("shardgen_runtime_mpi") == "sg_shardgenZ5fruntimeZ5fmpi");
  CHECK(programIdentifier("shardgenish") == "shardgenish");
  // System headers' names: the program's NAME.h would shadow <NAME.h>.
  CHECK(programIdentifier("stdint") == "sg_stdint");
  CHECK(programIdentifier("pthread") == "sg_pthread");
  CHECK(programIdentifier("features") == "sg_features");
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

TEST_CASE("kernel functor names come from the op table and exist in the kernel library") {
  using namespace shardgen;
  const std::string elementwise(codegen::embeddedFile("templates/kernels/elementwise.h"));
  const std::string reduce(codegen::embeddedFile("templates/kernels/reduce.h"));
  auto defined = [](const std::string &library, const std::string &macro, std::string_view name) {
    return library.find(macro + "(" + std::string(name) + ",") != std::string::npos;
  };
  int unary = 0, binary = 0;
  for (int k = 0; k <= static_cast<int>(OpKind::AxisIndex); ++k) {
    const auto kind = static_cast<OpKind>(k);
    const std::string_view functor = codegen::elementwiseFunctor(kind, ElementType::F32);
    CAPTURE(opName(kind));
    if (!isElementwise(kind)) {
      CHECK(functor.empty());
      continue;
    }
    const bool isUnary = opCategory(kind) == OpCategory::ElementwiseUnary;
    (isUnary ? unary : binary) += 1;
    // An op that is one libm function has the libm macro.
    CHECK((isUnary ? defined(elementwise, "SHARDGEN_UNARY_OP", functor) ||
                         defined(elementwise, "SHARDGEN_LIBM_UNARY_OP", functor)
                   : defined(elementwise, "SHARDGEN_BINARY_OP", functor) ||
                         defined(elementwise, "SHARDGEN_LIBM_BINARY_OP", functor)));
  }
  CHECK(unary == 22);
  CHECK(binary == 15);
  CHECK(codegen::elementwiseFunctor(OpKind::Exponential, ElementType::F32) == "OpExponential");
  CHECK(codegen::elementwiseFunctor(OpKind::Not, ElementType::I32) == "OpNot");
  CHECK(codegen::elementwiseFunctor(OpKind::Not, ElementType::I1) == "OpLogicalNot");
  CHECK(defined(elementwise, "SHARDGEN_UNARY_OP", "OpLogicalNot"));
  for (ComparisonDirection d :
       {ComparisonDirection::EQ, ComparisonDirection::NE, ComparisonDirection::LT,
        ComparisonDirection::LE, ComparisonDirection::GT, ComparisonDirection::GE})
    CHECK(defined(elementwise, "SHARDGEN_COMPARE_OP", codegen::compareFunctor(d)));
  CHECK(codegen::compareFunctor(ComparisonDirection::LT) == "CmpLT");
  for (Reducer r :
       {Reducer::Add, Reducer::Mul, Reducer::Max, Reducer::Min, Reducer::And, Reducer::Or}) {
    CHECK(defined(reduce, "SHARDGEN_REDUCER", codegen::reducerFunctor(r)));
    CHECK(codegen::runtimeReducer(r) == "rt::Reducer::" + codegen::reducerFunctor(r).substr(6));
  }
  CHECK(codegen::reducerFunctor(Reducer::Max) == "ReduceMax");
}
