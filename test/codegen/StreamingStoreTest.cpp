// Outputs of kStreamingBytes and more are written with streaming stores
// (templates/kernels/memory.h storeAll): normal stores up to the first line
// boundary, whole 1 KiB tiles streamed, the rest stored normally. Every
// element must be the one a plain loop writes, wherever the output starts,
// whatever its length; and a generated program with such outputs must still
// equal the reference interpreter. A gather of rows into such an output
// copies each row with streamCopy (whole lines streamed, partial lines at
// either end stored normally). (The kernel library is compiled here by
// the test's compiler: GCC in the main build, clang in the sanitizer build.)

#include "kernels/kernels.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "test/codegen/CodegenTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

/// A value no neighbouring index shares, in S.
template <typename S> S valueAt(int64_t i) { return static_cast<S>(i * 2654435761u + 17); }

/// storeAll of N elements at `offset` elements past a 64-byte boundary;
/// the elements around the range must stay untouched.
template <typename S, int64_t N> void checkStoreAll(int64_t offset) {
  constexpr S kUntouched = static_cast<S>(0x5a5a5a5a);
  constexpr int64_t kLine = 64 / sizeof(S);
  std::vector<S> storage(N + 3 * kLine + offset, kUntouched);
  S *guarded = storage.data() + kLine; // one line before the output stays
  auto address = reinterpret_cast<uintptr_t>(guarded);
  const int64_t toLine = static_cast<int64_t>((64 - address % 64) % 64 / sizeof(S));
  S *out = guarded + toLine + offset;
  kernels::storeAll<S, N>(out, [](int64_t i) { return valueAt<S>(i); });
  int64_t wrong = 0;
  for (int64_t i = 0; i < N; ++i)
    wrong += out[i] != valueAt<S>(i);
  CHECK(wrong == 0);
  CHECK(out[-1] == kUntouched);
  CHECK(out[N] == kUntouched);
}

constexpr int64_t kStreamedFloats = kernels::kStreamingBytes / 4;

/// streamCopy of `bytes` to `offset` bytes past a 64-byte boundary; the
/// bytes around the range must stay untouched.
void checkStreamCopy(int64_t offset, int64_t bytes) {
  constexpr unsigned char kUntouched = 0x5a;
  // One byte more than copied: an empty vector's data() may be null, which
  // memcpy may not be given even for 0 bytes.
  std::vector<unsigned char> from(static_cast<size_t>(bytes) + 1),
      storage(static_cast<size_t>(bytes + 3 * 64 + offset), kUntouched);
  for (int64_t i = 0; i < bytes; ++i)
    from[i] = static_cast<unsigned char>(valueAt<uint32_t>(i) >> 7);
  unsigned char *guarded = storage.data() + 64;
  unsigned char *out = guarded + (64 - reinterpret_cast<uintptr_t>(guarded) % 64) % 64 + offset;
  kernels::streamCopy(out, from.data(), bytes);
  kernels::streamFence();
  int64_t wrong = 0;
  for (int64_t i = 0; i < bytes; ++i)
    wrong += out[i] != from[i];
  CHECK(wrong == 0);
  CHECK(out[-1] == kUntouched);
  CHECK(out[bytes] == kUntouched);
}

} // namespace

TEST_CASE("streamed outputs hold every element, aligned or not") {
  for (int64_t offset : {0, 1, 3, 15}) {
    CAPTURE(offset);
    checkStoreAll<float, kStreamedFloats>(offset);            // whole tiles only
    checkStoreAll<float, kStreamedFloats + 77>(offset);       // and a tail
    checkStoreAll<uint16_t, 2 * kStreamedFloats + 5>(offset); // f16/bf16 storage
    checkStoreAll<uint8_t, 4 * kStreamedFloats + 1>(offset);  // i1 and i8
  }
  // Below the threshold: the plain loop.
  checkStoreAll<float, kStreamedFloats - 1>(1);
}

TEST_CASE("streamCopy copies every byte, aligned or not, short or long") {
  for (int64_t offset : {0, 1, 4, 63})
    for (int64_t bytes : {0, 1, 63, 64, 65, 127, 128, 200, 4000, 4096, 4099}) {
      CAPTURE(offset);
      CAPTURE(bytes);
      checkStreamCopy(offset, bytes);
    }
}

TEST_CASE("a gather of rows into a streamed output equals the interpreter") {
  // 2,100 rows of 1,000 f32 (4,000 bytes: rows start at every 32-byte
  // offset of a line): 8.0 MiB of result, streamed; indices out of range
  // clamp.
  const std::string json = R"({"format": "shardgen-graph", "version": 1, "name": "rows",
    "inputs": [{"name": "table", "type": "tensor<3000x1000xf32>"},
               {"name": "ids", "type": "tensor<2100x1xi32>"}],
    "ops": [{"op": "gather", "operands": ["table", "ids"], "result": "y",
             "dimension_numbers": {"offset_dims": [1], "collapsed_slice_dims": [0],
                                   "start_index_map": [0], "index_vector_dim": 1},
             "slice_sizes": [1, 1000]}],
    "outputs": [{"value": "y"}]})";
  Graph graph = loadVerified(json);
  CHECK(checkCompiledEqualsInterpreter(graph, 11) == "");
}

TEST_CASE("generated programs with streamed outputs equal the interpreter") {
  // 2,105,344 elements: an f32 output of 8.03 MiB (streamed), a bf16 one of
  // half that (not), a bf16 chain on twice the elements (streamed), and a
  // fused chain with a transcendental.
  const std::string json = R"({"format": "shardgen-graph", "version": 1, "name": "streamed",
    "inputs": [{"name": "a", "type": "tensor<1028x2048xf32>"},
               {"name": "b", "type": "tensor<1028x2048xf32>"},
               {"name": "h", "type": "tensor<2056x2048xbf16>"}],
    "ops": [{"op": "add", "operands": ["a", "b"], "result": "sum"},
            {"op": "multiply", "operands": ["sum", "b"], "result": "product"},
            {"op": "tanh", "operands": ["product"], "result": "t"},
            {"op": "convert", "operands": ["a"], "result": "narrow", "type": "tensor<1028x2048xbf16>"},
            {"op": "multiply", "operands": ["h", "h"], "result": "square"},
            {"op": "negate", "operands": ["square"], "result": "negated"}],
    "outputs": [{"value": "sum"}, {"value": "t"}, {"value": "narrow"}, {"value": "negated"}]})";
  Graph graph = loadVerified(json);
  CHECK(checkCompiledEqualsInterpreter(graph, 7) == "");
}
