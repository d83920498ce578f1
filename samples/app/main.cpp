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
#include <fstream>
#include <string>
#include <vector>

#include SHARDGEN_PROGRAM_HEADER

namespace program = SHARDGEN_PROGRAM;

namespace {

std::vector<float> makeInput(int64_t input, int64_t count) {
  std::vector<float> values(count);
  for (int64_t k = 0; k < count; ++k)
    values[k] = static_cast<float>((k * 7 + input * 3) % 11 - 5) / 4.0f;
  return values;
}

void writeNpy(const std::string &path, const program::TensorInfo &info, const std::vector<float> &v) {
  std::string shape = "(";
  for (int64_t d = 0; d < info.rank; ++d)
    shape += std::to_string(info.shape[d]) + (info.rank == 1 || d + 1 < info.rank ? "," : "");
  shape += ")";
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64 != 0)
    header += ' ';
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  const unsigned short length = static_cast<unsigned short>(header.size());
  out.write(reinterpret_cast<const char *>(&length), 2);
  out << header;
  out.write(reinterpret_cast<const char *>(v.data()), static_cast<std::streamsize>(v.size() * 4));
}

/// The float data of a version-1 .npy file.
std::vector<float> readNpyFloats(const std::string &path, int64_t count) {
  std::ifstream in(path, std::ios::binary);
  char magic[10];
  in.read(magic, 10);
  unsigned short length = 0;
  std::memcpy(&length, magic + 8, 2);
  in.ignore(length);
  std::vector<float> values(count);
  in.read(reinterpret_cast<char *>(values.data()), count * 4);
  if (!in)
    values.clear();
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
      writeNpy(std::string(argv[2]) + "/in" + std::to_string(i) + ".npy", program::kInputs[i],
               inputs[i]);
  if (mode == "--compare") {
    std::vector<float> expected =
        readNpyFloats(std::string(argv[2]) + "/out0.npy", program::kOutputs[0].numElements);
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
