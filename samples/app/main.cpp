// Runs the AOT-compiled mlp program (samples/mlp.json; or the program the
// build names in SHARDGEN_PROGRAM) on deterministic inputs and prints its
// output.
//
//   mlp_app                      prints the output
//   mlp_app --write-inputs DIR   also writes the inputs as DIR/in<i>.npy
//   mlp_app --compare DIR        exits 1 unless DIR/out0.npy (e.g. from
//                                `shardgen run --inputs ... -o DIR`) matches

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include SHARDGEN_PROGRAM_HEADER
#include "SampleNpy.h"

namespace program = SHARDGEN_PROGRAM;

namespace {

std::vector<float> makeInput(int64_t input, int64_t count) {
  std::vector<float> values(count);
  for (int64_t k = 0; k < count; ++k)
    values[k] = static_cast<float>((k * 7 + input * 3) % 11 - 5) / 4.0f;
  return values;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::vector<float>> inputs, outputs;
  std::vector<const void *> in;
  std::vector<void *> out;
  for (int64_t i = 0; i < program::kNumInputs; ++i)
    inputs.push_back(makeInput(i, program::kInputs[i].numElements));
  for (int64_t j = 0; j < program::kNumOutputs; ++j)
    outputs.emplace_back(program::kOutputs[j].numElements);
  for (auto &v : inputs)
    in.push_back(v.data());
  for (auto &v : outputs)
    out.push_back(v.data());

  program::run(in.data(), out.data()); // global tensors in, global tensors out

  std::string mode = argc > 2 ? argv[1] : "";
  if (mode == "--write-inputs")
    for (int64_t i = 0; i < program::kNumInputs; ++i)
      sample::writeNpy(std::string(argv[2]) + "/in" + std::to_string(i) + ".npy",
                       program::kInputs[i].shape, program::kInputs[i].rank, inputs[i].data(),
                       inputs[i].size() * sizeof(float));
  if (mode == "--compare") {
    std::vector<unsigned char> bytes =
        sample::readNpy(std::string(argv[2]) + "/out0.npy", outputs[0].size() * sizeof(float));
    std::vector<float> expected(bytes.size() / sizeof(float));
    if (!bytes.empty())
      std::memcpy(expected.data(), bytes.data(), bytes.size());
    if (expected.size() != outputs[0].size()) {
      std::printf("cannot read %s/out0.npy\n", argv[2]);
      return 1;
    }
    for (size_t k = 0; k < expected.size(); ++k)
      if (!(std::fabs(expected[k] - outputs[0][k]) <= 1e-4f * (1.0f + std::fabs(expected[k])))) {
        std::printf("mismatch at %zu: %g vs %g\n", k, outputs[0][k], expected[k]);
        return 1;
      }
    std::printf("match: %zu values equal shardgen run's\n", expected.size());
    return 0;
  }
  std::printf("%s: %s on %lld devices\n", program::kOutputs[0].name, program::kOutputs[0].type,
              static_cast<long long>(program::kNumDevices));
  for (size_t k = 0; k < outputs[0].size(); ++k)
    std::printf("%.6g%c", outputs[0][k], (k + 1) % 8 == 0 ? '\n' : ' ');
  return 0;
}
