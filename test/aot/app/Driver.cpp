// Runs one of the AOT-compiled programs linked into this application:
//   aot_driver NAME IN_DIR OUT_DIR
// reads IN_DIR/in<i>.npy, calls NAME::run (global tensors, threads backend)
// and writes OUT_DIR/out<j>.npy, for shardgen_aot_tool compare. It also runs
// NAME::runSharded on the pieces the header's inputPiece() cuts out of the
// inputs and exits 1 unless every device's output pieces are, bit for bit,
// the pieces outputPiece() names in run's outputs (unreduced outputs aside).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "programs.h"

namespace {

struct Tensor {
  shardgen_element_type elementType;
  std::vector<int64_t> shape;
  int64_t numElements;
  bool distributed; // its pieces are local buffers [k, shard_shape...], not boxes
};

/// A device's piece of a tensor, as the header's Piece (whose type is each
/// program's own).
struct Box {
  std::vector<int64_t> shape, offset;
  int64_t numElements;
};

template <typename Piece> Box boxOf(const Piece &piece, int64_t rank) {
  return {std::vector<int64_t>(piece.shape, piece.shape + rank),
          std::vector<int64_t>(piece.offset, piece.offset + rank), piece.numElements};
}

struct Program {
  const char *name;
  std::vector<Tensor> inputs, outputs;
  void (*run)(const void *const *, void *const *);
  void (*runSharded)(const void *const *const *, void *const *const *);
  int64_t numDevices;
  Box (*inputPiece)(int64_t input, int64_t position);
  Box (*outputPiece)(int64_t output, int64_t position);
  const char *(*outputSharding)(int64_t output);
};

/// Each program's header declares its own TensorInfo: take what we need.
template <typename Info> std::vector<Tensor> tensors(const Info *infos, int64_t count) {
  std::vector<Tensor> out;
  for (int64_t i = 0; i < count; ++i)
    out.push_back({infos[i].elementType,
                   std::vector<int64_t>(infos[i].shape, infos[i].shape + infos[i].rank),
                   infos[i].numElements, std::strncmp(infos[i].sharding, "distribution", 12) == 0});
  return out;
}

#define SHARDGEN_AOT_ENTRY(ns)                                                                     \
  Program{#ns,                                                                                     \
          tensors(ns::kInputs, ns::kNumInputs),                                                    \
          tensors(ns::kOutputs, ns::kNumOutputs),                                                  \
          ns::run,                                                                                 \
          ns::runSharded,                                                                          \
          ns::kNumDevices,                                                                         \
          [](int64_t i, int64_t p) { return boxOf(ns::inputPiece(i, p), ns::kInputs[i].rank); },   \
          [](int64_t j, int64_t p) { return boxOf(ns::outputPiece(j, p), ns::kOutputs[j].rank); }, \
          [](int64_t j) { return ns::kOutputLayouts[j].sharding; }},

// The layouts are usable at compile time.
#define SHARDGEN_AOT_CONSTEXPR(ns)                                                                 \
  static_assert(ns::inputPiece(0, 0).numElements >= 0 &&                                           \
                ns::devicePosition(ns::deviceIdAt(0)) == 0);
SHARDGEN_AOT_PROGRAMS(SHARDGEN_AOT_CONSTEXPR)

std::vector<Program> programs() { return {SHARDGEN_AOT_PROGRAMS(SHARDGEN_AOT_ENTRY)}; }

struct Dtype {
  const char *descr;
  int64_t bytes;
};

Dtype dtypeOf(shardgen_element_type type) {
  switch (type) {
  case SHARDGEN_F32:
    return {"<f4", 4};
  case SHARDGEN_F64:
    return {"<f8", 8};
  case SHARDGEN_F16:
    return {"<f2", 2};
  case SHARDGEN_BF16:
    return {"<V2", 2};
  case SHARDGEN_I1:
    return {"|b1", 1};
  case SHARDGEN_I8:
    return {"|i1", 1};
  case SHARDGEN_I32:
    return {"<i4", 4};
  case SHARDGEN_I64:
    return {"<i8", 8};
  case SHARDGEN_UI8:
    return {"|u1", 1};
  case SHARDGEN_UI32:
    return {"<u4", 4};
  case SHARDGEN_I16:
    return {"<i2", 2};
  case SHARDGEN_UI16:
    return {"<u2", 2};
  case SHARDGEN_UI64:
    return {"<u8", 8};
  case SHARDGEN_C64:
    return {"<c8", 8};
  case SHARDGEN_C128:
    return {"<c16", 16};
  case SHARDGEN_I2:
  case SHARDGEN_I4:
    return {"|i1", 1};
  case SHARDGEN_UI2:
  case SHARDGEN_UI4:
  case SHARDGEN_F8E3M4: // the 8-, 6- and 4-bit floats: their codes, one a byte
  case SHARDGEN_F8E4M3:
  case SHARDGEN_F8E4M3FN:
  case SHARDGEN_F8E4M3FNUZ:
  case SHARDGEN_F8E4M3B11FNUZ:
  case SHARDGEN_F8E5M2:
  case SHARDGEN_F8E5M2FNUZ:
  case SHARDGEN_F8E8M0FNU:
  case SHARDGEN_F6E2M3FN:
  case SHARDGEN_F6E3M2FN:
  case SHARDGEN_F4E2M1FN:
    return {"|u1", 1};
  }
  return {"", 0};
}

/// The data of a .npy file shardgen wrote (little-endian, C order), if it
/// has exactly `bytes` bytes of it.
bool readNpyData(const std::string &path, int64_t bytes, std::vector<unsigned char> &data) {
  std::ifstream in(path, std::ios::binary);
  std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (file.size() < 12 || file.compare(0, 6, "\x93NUMPY") != 0)
    return false;
  const bool version1 = file[6] == 1;
  size_t headerBytes = static_cast<unsigned char>(file[8]) | static_cast<unsigned char>(file[9])
                                                                 << 8;
  if (!version1)
    headerBytes |= static_cast<size_t>(static_cast<unsigned char>(file[10])) << 16 |
                   static_cast<size_t>(static_cast<unsigned char>(file[11])) << 24;
  const size_t start = (version1 ? 10 : 12) + headerBytes;
  if (file.size() != start + static_cast<size_t>(bytes))
    return false;
  data.assign(file.begin() + static_cast<std::ptrdiff_t>(start), file.end());
  return true;
}

bool writeNpy(const std::string &path, const Tensor &tensor,
              const std::vector<unsigned char> &data) {
  const size_t rank = tensor.shape.size();
  std::string shape = "(";
  for (size_t d = 0; d < rank; ++d)
    shape += std::to_string(tensor.shape[d]) + (rank == 1 || d + 1 < rank ? "," : "");
  shape += ")";
  std::string header = std::string("{'descr': '") + dtypeOf(tensor.elementType).descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64 != 0)
    header += ' ';
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  const unsigned char length[2] = {static_cast<unsigned char>(header.size() & 0xff),
                                   static_cast<unsigned char>(header.size() >> 8)};
  out.write(reinterpret_cast<const char *>(length), 2);
  out << header;
  out.write(reinterpret_cast<const char *>(data.data()), static_cast<std::streamsize>(data.size()));
  return static_cast<bool>(out);
}

/// The bytes of `box` cut out of a whole row-major tensor of `shape`.
std::vector<unsigned char> cut(const std::vector<unsigned char> &whole,
                               const std::vector<int64_t> &shape, const Box &box, int64_t width) {
  std::vector<unsigned char> out(static_cast<size_t>(box.numElements * width));
  const int64_t rank = static_cast<int64_t>(shape.size());
  for (int64_t k = 0; k < box.numElements; ++k) {
    int64_t rest = k, index = 0, stride = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      index += (box.offset[d] + rest % box.shape[d]) * stride;
      rest /= box.shape[d];
      stride *= shape[d];
    }
    std::memcpy(&out[k * width], &whole[index * width], static_cast<size_t>(width));
  }
  return out;
}

/// runSharded on the pieces of `inputs` must give the pieces of `outputs`.
bool piecesAgree(const Program &program, const std::vector<std::vector<unsigned char>> &inputs,
                 const std::vector<std::vector<unsigned char>> &outputs) {
  // A distributed tensor's pieces are chunk lists, not boxes to cut: the
  // per-device call style of distributions is DistributedCodegenTest's.
  auto distributed = [](const Tensor &t) { return t.distributed; };
  if (std::any_of(program.inputs.begin(), program.inputs.end(), distributed) ||
      std::any_of(program.outputs.begin(), program.outputs.end(), distributed))
    return true;
  const int64_t devices = program.numDevices;
  std::vector<std::vector<std::vector<unsigned char>>> in(devices), out(devices);
  std::vector<std::vector<const void *>> inPointers(devices);
  std::vector<std::vector<void *>> outPointers(devices);
  std::vector<const void *const *> inLists;
  std::vector<void *const *> outLists;
  for (int64_t p = 0; p < devices; ++p) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Tensor &t = program.inputs[i];
      in[p].push_back(cut(inputs[i], t.shape, program.inputPiece(static_cast<int64_t>(i), p),
                          dtypeOf(t.elementType).bytes));
      inPointers[p].push_back(in[p].back().data());
    }
    for (size_t j = 0; j < outputs.size(); ++j) {
      const Tensor &t = program.outputs[j];
      Box box = program.outputPiece(static_cast<int64_t>(j), p);
      out[p].emplace_back(static_cast<size_t>(box.numElements * dtypeOf(t.elementType).bytes),
                          0x5a);
      outPointers[p].push_back(out[p].back().data());
    }
    inLists.push_back(inPointers[p].data());
    outLists.push_back(outPointers[p].data());
  }
  program.runSharded(inLists.data(), outLists.data());
  for (int64_t p = 0; p < devices; ++p)
    for (size_t j = 0; j < outputs.size(); ++j) {
      if (std::strstr(program.outputSharding(static_cast<int64_t>(j)), "unreduced"))
        continue; // its pieces are partial sums
      const Tensor &t = program.outputs[j];
      Box box = program.outputPiece(static_cast<int64_t>(j), p);
      if (out[p][j] != cut(outputs[j], t.shape, box, dtypeOf(t.elementType).bytes)) {
        std::fprintf(stderr,
                     "%s: runSharded's piece of output %zu on position %lld differs from "
                     "run's at the offsets outputPiece gives\n",
                     program.name, j, static_cast<long long>(p));
        return false;
      }
    }
  return true;
}

int runProgram(const Program &program, const std::string &inDir, const std::string &outDir) {
  std::vector<std::vector<unsigned char>> inputs(program.inputs.size()),
      outputs(program.outputs.size());
  std::vector<const void *> in;
  std::vector<void *> out;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor &t = program.inputs[i];
    const std::string path = inDir + "/in" + std::to_string(i) + ".npy";
    if (!readNpyData(path, t.numElements * dtypeOf(t.elementType).bytes, inputs[i])) {
      std::fprintf(stderr, "%s: not a .npy file of input %zu's size\n", path.c_str(), i);
      return 1;
    }
    in.push_back(inputs[i].data());
  }
  for (size_t j = 0; j < outputs.size(); ++j) {
    const Tensor &t = program.outputs[j];
    outputs[j].assign(static_cast<size_t>(t.numElements * dtypeOf(t.elementType).bytes), 0xa5);
    out.push_back(outputs[j].data());
  }
  program.run(in.data(), out.data());
  if (!piecesAgree(program, inputs, outputs))
    return 1;
  for (size_t j = 0; j < outputs.size(); ++j)
    if (!writeNpy(outDir + "/out" + std::to_string(j) + ".npy", program.outputs[j], outputs[j])) {
      std::fprintf(stderr, "cannot write %s/out%zu.npy\n", outDir.c_str(), j);
      return 1;
    }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: aot_driver NAME IN_DIR OUT_DIR\n");
    return 2;
  }
  for (const Program &program : programs())
    if (std::strcmp(program.name, argv[1]) == 0)
      return runProgram(program, argv[2], argv[3]);
  std::fprintf(stderr, "no program named %s\n", argv[1]);
  return 2;
}
