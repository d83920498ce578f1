// LAPACK's Jacobi-read calls as jnp.linalg prints them on CPU, through the
// tool on a 2x2 mesh, the batch sharded or the matrices themselves: eigh
// (lapack_?syevd_ffi / ?heevd_ffi) and svd (lapack_?gesdd_ffi); run
// --check --verify-spmd passes and the sharded program's results equal
// eval's byte for byte.

#include <doctest/doctest.h>

#include <cmath>

#include "compiler/frontend/Npy.h"
#include "test/cli/RunMatchesEval.h"

using namespace shardgen;
using namespace shardgen::test;

namespace lapack_cli {

/// A module on a 2x2 mesh calling `target` on `a` (the type of a 4 x 2
/// batch of matrices) sharded as `sharding`, returning `returned` of its
/// results (`results`: the types of all).
std::string callMlir(const std::string &sharding, const std::string &a, const std::string &target,
                     const std::string &config, const std::vector<std::string> &results,
                     const std::vector<int> &returned) {
  std::string all, types, values;
  for (size_t i = 0; i < results.size(); ++i)
    all += (i ? ", " : "") + results[i];
  for (size_t i = 0; i < returned.size(); ++i) {
    types += (i ? ", " : "") + results[static_cast<size_t>(returned[i])];
    values += (i ? ", %0#" : "%0#") + std::to_string(returned[i]);
  }
  return R"(module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: )" +
         a + " {sdy.sharding = #sdy.sharding<@mesh, " + sharding + ">}) -> (" + types +
         ") {\n    %0:" + std::to_string(results.size()) + " = stablehlo.custom_call @" + target +
         "(%arg0) {mhlo.backend_config = " + config +
         ", operand_layouts = [dense<[2, 3, 1, 0]> : tensor<4xindex>], output_operand_aliases = "
         "[#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, "
         "operand_tuple_indices = []>]} : (" +
         a + ") -> (" + all + ")\n    return " + values + " : " + types + "\n  }\n}\n";
}

/// WORK/a.npy: 4 x 2 x `m` x `n` values of no pattern, complex or f32.
void writeInput(const std::string &work, bool complex, int64_t m, int64_t n) {
  Literal a(TensorType{complex ? ElementType::C128 : ElementType::F32, {4, 2, m, n}});
  for (int64_t i = 0; i < a.numElements(); ++i) {
    const double t = static_cast<double>(i);
    if (complex)
      a.setComplex(i, std::sin(0.37 * t * t), std::cos(0.61 * t));
    else
      a.setFloat(i, std::sin(0.37 * t * t));
  }
  writeNpy(work + "/a.npy", a);
}

const char *const kShardings[] = {R"([{"x"}, {"y"}, {}, {}])", R"([{}, {}, {"x"}, {"y"}])"};

} // namespace lapack_cli

using namespace lapack_cli;

TEST_CASE("lapack eigh on a 2x2 mesh: the batch or the matrices sharded give eval's answer") {
  for (const char *sharding : kShardings)
    for (const char *element : {"f32", "complex<f64>"}) {
      INFO(sharding, " ", element);
      const bool complex = std::string(element) != "f32";
      const std::string a = std::string("tensor<4x2x6x6x") + element + ">",
                        w = complex ? "tensor<4x2x6xf64>" : "tensor<4x2x6xf32>";
      const std::string work = makeTempDir();
      writeFile(work + "/g.mlir",
                callMlir(sharding, a, complex ? "lapack_zheevd_ffi" : "lapack_ssyevd_ffi",
                         "{mode = 86 : ui8, uplo = 76 : ui8}", {a, w, "tensor<4x2xi32>"},
                         {0, 1, 2}));
      writeInput(work, complex, 6, 6);
      checkRunMatchesEval(work, "'" + work + "/g.mlir' --inputs '" + work + "/a.npy'", 3);
      Literal info = readNpy(work + "/run/out2.npy");
      for (int64_t i = 0; i < info.numElements(); ++i)
        CHECK(info.getInt(i) == 0);
    }
}

TEST_CASE("lapack svd on a 2x2 mesh: the batch or the matrices sharded give eval's answer") {
  // Tall 7 x 5 (an odd column count: the padding column) in f32, wide
  // 4 x 6 in complex<f64>, full_matrices (its U or V^H completed by a QR).
  // With the matrices sharded the columns' dot products are sums over
  // devices: within --check's bound of eval's, not its bits.
  for (const char *sharding : kShardings)
    for (const bool complex : {false, true}) {
      INFO(sharding, " ", complex);
      const int64_t m = complex ? 4 : 7, n = complex ? 6 : 5, k = std::min(m, n);
      const std::string e = complex ? "complex<f64>" : "f32", r = complex ? "f64" : "f32";
      auto type = [](const std::string &dims, const std::string &element) {
        return "tensor<4x2x" + dims + element + ">";
      };
      const std::string a = type(std::to_string(m) + "x" + std::to_string(n) + "x", e);
      const std::vector<std::string> results = {
          a, type(std::to_string(k) + "x", r),
          type(std::to_string(m) + "x" + std::to_string(m) + "x", e),
          type(std::to_string(n) + "x" + std::to_string(n) + "x", e), "tensor<4x2xi32>"};
      const std::string work = makeTempDir();
      writeFile(work + "/g.mlir",
                callMlir(sharding, a, complex ? "lapack_zgesdd_ffi" : "lapack_sgesdd_ffi",
                         "{mode = 65 : ui8}", results, {1, 2, 3}));
      writeInput(work, complex, m, n);
      checkRunMatchesEval(work, "'" + work + "/g.mlir' --inputs '" + work + "/a.npy'", 3,
                          sharding == kShardings[0]);
    }
}
