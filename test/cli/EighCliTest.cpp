// LAPACK's eigh call (lapack_?syevd_ffi / ?heevd_ffi, as jnp.linalg.eigh
// prints it on CPU) through the tool on a 2x2 mesh: the batch sharded, or
// the matrices themselves; run --check --verify-spmd passes and the
// sharded program's vectors, eigenvalues and info equal eval's byte for
// byte.

#include <doctest/doctest.h>

#include <cmath>

#include "compiler/frontend/Npy.h"
#include "test/cli/ToolRunner.h"

using namespace shardgen;
using namespace shardgen::test;

namespace eigh_cli {

std::string eighMlir(const std::string &sharding, const std::string &element,
                     const std::string &target) {
  const std::string real = element == "f32" || element == "complex<f32>" ? "f32" : "f64";
  const std::string a = "tensor<4x2x6x6x" + element + ">", w = "tensor<4x2x6x" + real + ">",
                    results = a + ", " + w + ", tensor<4x2xi32>";
  return R"(module @jit_eigh attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: )" +
         a + " {sdy.sharding = #sdy.sharding<@mesh, " + sharding + ">}) -> (" + results +
         R"() {
    %0:3 = stablehlo.custom_call @)" +
         target +
         R"((%arg0) {mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}, operand_layouts = [dense<[2, 3, 1, 0]> : tensor<4xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[2, 3, 1, 0]> : tensor<4xindex>, dense<[2, 1, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>]} : ()" +
         a + ") -> (" + results + R"()
    return %0#0, %0#1, %0#2 : )" +
         results + R"(
  }
}
)";
}

} // namespace eigh_cli

using namespace eigh_cli;

TEST_CASE("lapack eigh on a 2x2 mesh: the batch or the matrices sharded give eval's answer") {
  for (const char *sharding : {R"([{"x"}, {"y"}, {}, {}])", R"([{}, {}, {"x"}, {"y"}])"})
    for (const char *element : {"f32", "complex<f64>"}) {
      INFO(sharding, " ", element);
      const bool complex = std::string(element) != "f32";
      const std::string work = makeTempDir();
      writeFile(work + "/g.mlir",
                eighMlir(sharding, element, complex ? "lapack_zheevd_ffi" : "lapack_ssyevd_ffi"));
      Literal a(TensorType{complex ? ElementType::C128 : ElementType::F32, {4, 2, 6, 6}});
      for (int64_t i = 0; i < a.numElements(); ++i) {
        const double t = static_cast<double>(i);
        if (complex)
          a.setComplex(i, std::sin(0.37 * t * t), std::cos(0.61 * t));
        else
          a.setFloat(i, std::sin(0.37 * t * t));
      }
      writeNpy(work + "/a.npy", a);
      const std::string graph = "'" + work + "/g.mlir' --inputs '" + work + "/a.npy'";
      ToolResult eval = runShardgen("eval " + graph + " -o '" + work + "/eval'");
      INFO(eval.err);
      REQUIRE(eval.exitCode == 0);
      ToolResult run = runShardgen("run " + graph + " --check --verify-spmd -o '" + work + "/run'");
      INFO(run.err);
      REQUIRE(run.exitCode == 0);
      CHECK(contains(run.err, "check passed: 3 outputs agree"));
      for (const char *out : {"/out0.npy", "/out1.npy", "/out2.npy"})
        CHECK(readFile(work + "/eval" + out) == readFile(work + "/run" + out));
      Literal info = readNpy(work + "/run/out2.npy");
      for (int64_t i = 0; i < info.numElements(); ++i)
        CHECK(info.getInt(i) == 0);
    }
}
