// rng_bit_generator: XLA's CPU numbers. Golden values from the StableHLO
// spec's example, StableHLO's testdata (generated with JAX on XLA's CPU
// backend), JAX's back-compat test data and r-xla/anvil's documented
// example (XLA's CPU client, printed to five digits); the Threefry2x32-20 and
// Philox4x32-10 known-answer vectors of Random123 (kat_vectors); and the
// layout facts of XLA's prng.cc (how 32-bit words pair into 64-bit ones,
// the halved shape of 32-bit Threefry output, Philox's counter and carry).

#include <doctest/doctest.h>

#include <cmath>

#include "test/interp/InterpTestUtil.h"

using namespace shardgen;
using namespace shardgen::test;

namespace {

std::string rngGraph(const std::string &algorithm, int64_t stateSize,
                     const std::string &outputType) {
  const std::string state = "tensor<" + std::to_string(stateSize) + "xui64>";
  return R"({"format": "shardgen-graph", "version": 1, "meshes": [],
    "inputs": [{"name": "s", "type": ")" +
         state + R"("}],
    "ops": [{"op": "rng_bit_generator", "operands": ["s"], "results": ["state", "bits"],
             "types": [")" +
         state + "\", \"" + outputType + R"("], "rng_algorithm": ")" + algorithm + R"("}],
    "outputs": [{"value": "state"}, {"value": "bits"}]})";
}

/// {output_state, output} of `algorithm` from `state`, as unsigned words.
struct Generated {
  std::vector<uint64_t> state, bits;
};
Generated generate(const std::string &algorithm, const std::vector<uint64_t> &state,
                   const std::string &outputType) {
  const auto size = static_cast<int64_t>(state.size());
  std::vector<int64_t> words(state.begin(), state.end());
  Graph graph = loadGraph(rngGraph(algorithm, size, outputType));
  std::vector<Literal> out =
      evaluate(graph, {intLiteral("tensor<" + std::to_string(size) + "xui64>", words)});
  REQUIRE(out.size() == 2);
  Generated generated;
  for (int64_t v : ints(out[0]))
    generated.state.push_back(static_cast<uint64_t>(v));
  const size_t width = elementByteWidth(out[1].elementType());
  const auto *bytes = reinterpret_cast<const unsigned char *>(out[1].data());
  for (int64_t e = 0; e < out[1].numElements(); ++e) {
    uint64_t word = 0;
    for (size_t b = 0; b < width; ++b)
      word |= static_cast<uint64_t>(bytes[e * width + b]) << (8 * b);
    generated.bits.push_back(word);
  }
  return generated;
}

constexpr uint64_t kOnes = ~uint64_t{0};

} // namespace

TEST_CASE("rng_bit_generator: the spec's example (THREE_FRY, 2x2xui64)") {
  Generated g = generate("THREE_FRY", {1, 2}, "tensor<2x2xui64>");
  CHECK(g.state == std::vector<uint64_t>{1, 6});
  CHECK(g.bits == std::vector<uint64_t>{9236835810183407956ull, 16087790271692313299ull,
                                        18212823393184779219ull, 2658481902456610144ull});
}

TEST_CASE("rng_bit_generator: StableHLO's testdata (THREE_FRY, from JAX on XLA's CPU backend)") {
  // stablehlo/testdata/rng_bit_generator_uint32_4.mlir: the key words
  // [1, 4, 0, 1] as 2xui64; expected state words [1, 4, 10000, 1].
  Generated g = generate("THREE_FRY", {1 | 4ull << 32, 1ull << 32}, "tensor<100x100xui64>");
  CHECK(g.state == std::vector<uint64_t>{1 | 4ull << 32, 10000 | 1ull << 32});
  REQUIRE(g.bits.size() == 10000);
  CHECK(g.bits[0] == 11811099535163642817ull);
  CHECK(g.bits[1] == 2679220122055838158ull);
  CHECK(g.bits[2] == 13026259361296983694ull);
  CHECK(g.bits[4999] == 16865816079737419086ull);
  CHECK(g.bits[9999] == 11786507949933426536ull);
  // stablehlo/testdata/rng_bit_generator_uint64_2.mlir: a scalar.
  Generated scalar = generate("THREE_FRY", {3, 3}, "tensor<ui64>");
  CHECK(scalar.state == std::vector<uint64_t>{3, 4});
  CHECK(scalar.bits == std::vector<uint64_t>{3349939604322698703ull});
}

TEST_CASE("rng_bit_generator: JAX's back-compat data (DEFAULT is PHILOX on XLA's CPU backend)") {
  // jax tests/back_compat_testdata/stablehlo_dynamic_rng_bit_generator.py,
  // data_2023_06_17 (platform cpu): key [42, 43, 44, 45] as 2xui64, a
  // 60x4xui32 output of which every tenth row is expected.
  Generated g = generate("DEFAULT", {42 | 43ull << 32, 44 | 45ull << 32}, "tensor<60x4xui32>");
  const std::vector<std::vector<uint64_t>> expected = {
      {2427392780, 1458059130, 393278117, 4094008499},
      {2979149501, 2789479602, 236667834, 2209180022},
      {3272265009, 654898663, 3518128447, 3522413436},
      {3152133794, 2429726816, 183393703, 2087683200},
      {2517633375, 3263052868, 344980918, 3676396031},
      {3594828247, 2571774884, 3751275505, 2435848784}};
  REQUIRE(g.bits.size() == 240);
  for (size_t row = 0; row < expected.size(); ++row)
    CHECK(std::vector<uint64_t>(g.bits.begin() + 40 * row, g.bits.begin() + 40 * row + 4) ==
          expected[row]);
  // The counter (44 | 45 << 32 low, the key high) advanced by 60 blocks.
  CHECK(g.state == std::vector<uint64_t>{42 | 43ull << 32, 104 | 45ull << 32});
  CHECK(generate("PHILOX", {42 | 43ull << 32, 44 | 45ull << 32}, "tensor<60x4xui32>").bits ==
        g.bits);
}

TEST_CASE("rng_bit_generator: Random123's known answers for Threefry2x32-20 and Philox4x32-10") {
  // A 64-bit THREE_FRY element is one block (low word first): key
  // state[0], counter state[1].
  CHECK(generate("THREE_FRY", {0, 0}, "tensor<ui64>").bits[0] == 0x99ba4efe6b200159ull);
  CHECK(generate("THREE_FRY", {kOnes, kOnes}, "tensor<ui64>").bits[0] == 0xbb002be71cb996fcull);
  CHECK(generate("THREE_FRY", {0x0370734413198a2eull, 0x85a308d3243f6a88ull}, "tensor<ui64>")
            .bits[0] == 0x483df7a0c4923a9cull);
  // PHILOX with three words: key state[0], 128-bit counter (state[1], state[2]).
  CHECK(generate("PHILOX", {0, 0, 0}, "tensor<4xui32>").bits ==
        std::vector<uint64_t>{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
  CHECK(generate("PHILOX", {kOnes, kOnes, kOnes}, "tensor<4xui32>").bits ==
        std::vector<uint64_t>{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
  CHECK(generate("PHILOX", {0x299f31d0a4093822ull, 0x85a308d3243f6a88ull, 0x0370734413198a2eull},
                 "tensor<4xui32>")
            .bits == std::vector<uint64_t>{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
}

TEST_CASE("rng_bit_generator: a 32-bit THREE_FRY output as XLA's CPU client printed it") {
  // r-xla/anvil reference/nvl_rng_bit_generator.md: state [0, 0], a 3x2
  // ui32 output printed to five digits (XLA's CPU PJRT client); new state
  // [0, 3]: the shape halved along dim 1, block i giving row i.
  Generated g = generate("THREE_FRY", {0, 0}, "tensor<3x2xui32>");
  CHECK(g.state == std::vector<uint64_t>{0, 3});
  const std::vector<double> printed = {1.7973e9, 2.5791e9, 1.3515e9, 3.2358e9, 1.6886e9, 4.2293e9};
  REQUIRE(g.bits.size() == printed.size());
  for (size_t e = 0; e < printed.size(); ++e)
    CHECK(std::abs(static_cast<double>(g.bits[e]) - printed[e]) <= 0.5e5);
  // Row 0 is Random123's zero-key, zero-counter answer (0x6b200159, 0x99ba4efe).
  CHECK(g.bits[0] == 0x6b200159u);
  CHECK(g.bits[1] == 0x99ba4efeu);
}

TEST_CASE("rng_bit_generator: THREE_FRY's 32-bit words pair along the halved dim") {
  const std::vector<uint64_t> state = {0x0123456789abcdefull, 77};
  const std::vector<uint64_t> blocks = generate("THREE_FRY", state, "tensor<6xui64>").bits;
  // 3x2: dim 1 is even, halved to 1: element (i, j) is word j of block i.
  Generated even = generate("THREE_FRY", state, "tensor<3x2xui32>");
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 2; ++j)
      CHECK(even.bits[i * 2 + j] == (blocks[i] >> (32 * j) & 0xffffffffu));
  CHECK(even.state == std::vector<uint64_t>{state[0], 80});
  // 3x3: no even dim, the first largest (dim 0) halved to 2 (rounded up):
  // element (i, j) is word i % 2 of block (i / 2) * 3 + j; 6 blocks used.
  Generated odd = generate("THREE_FRY", state, "tensor<3x3xui32>");
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 3; ++j)
      CHECK(odd.bits[i * 3 + j] == (blocks[(i / 2) * 3 + j] >> (32 * (i % 2)) & 0xffffffffu));
  CHECK(odd.state == std::vector<uint64_t>{state[0], 83});
  // Narrower and float outputs: the 32-bit words' low bits, and their bits.
  const std::vector<uint64_t> words = generate("THREE_FRY", state, "tensor<4x3xui32>").bits;
  const std::vector<uint64_t> halfWords = generate("THREE_FRY", state, "tensor<4x3xi16>").bits;
  const std::vector<uint64_t> floatWords = generate("THREE_FRY", state, "tensor<4x3xf32>").bits;
  for (size_t e = 0; e < words.size(); ++e) {
    CHECK(halfWords[e] == (words[e] & 0xffff));
    CHECK(floatWords[e] == words[e]);
  }
  // A scalar takes the first word of one block.
  CHECK(generate("THREE_FRY", state, "tensor<ui32>").bits[0] == (blocks[0] & 0xffffffffu));
  CHECK(generate("THREE_FRY", state, "tensor<ui32>").state == std::vector<uint64_t>{state[0], 78});
}

TEST_CASE("rng_bit_generator: PHILOX's blocks, words, counter and carry") {
  const uint64_t key = 0xfeedfacecafebeefull;
  const std::vector<uint64_t> words = generate("PHILOX", {key, 9, 4}, "tensor<12xui32>").bits;
  // 64-bit elements are consecutive word pairs, low first; 16-bit ones low halves.
  const std::vector<uint64_t> wide = generate("PHILOX", {key, 9, 4}, "tensor<6xui64>").bits;
  for (size_t e = 0; e < wide.size(); ++e)
    CHECK(wide[e] == (words[2 * e] | words[2 * e + 1] << 32));
  const std::vector<uint64_t> narrow = generate("PHILOX", {key, 9, 4}, "tensor<2x6xui16>").bits;
  for (size_t e = 0; e < narrow.size(); ++e)
    CHECK(narrow[e] == (words[e] & 0xffff));
  // 12 words are 3 blocks; 13 are 4 (the last block partly used).
  CHECK(generate("PHILOX", {key, 9, 4}, "tensor<12xui32>").state ==
        std::vector<uint64_t>{key, 12, 4});
  CHECK(generate("PHILOX", {key, 9, 4}, "tensor<13xi32>").state ==
        std::vector<uint64_t>{key, 13, 4});
  // Block 1 of counter (2^64 - 1, 4) is counter (0, 5): the carry.
  const std::vector<uint64_t> carried = generate("PHILOX", {key, kOnes, 4}, "tensor<8xui32>").bits;
  const std::vector<uint64_t> next = generate("PHILOX", {key, 0, 5}, "tensor<4xui32>").bits;
  CHECK(std::vector<uint64_t>(carried.begin() + 4, carried.end()) == next);
  CHECK(generate("PHILOX", {key, kOnes, 4}, "tensor<8xui32>").state ==
        std::vector<uint64_t>{key, 1, 5});
  // Two words: the counter is (state[1], state[0]); the new state keeps
  // its low word.
  Generated two = generate("PHILOX", {key, 9}, "tensor<12xui32>");
  CHECK(two.bits == generate("PHILOX", {key, 9, key}, "tensor<12xui32>").bits);
  CHECK(two.state == std::vector<uint64_t>{key, 12});
  // No elements: nothing drawn, the counter stays.
  CHECK(generate("PHILOX", {key, 9}, "tensor<0x3xui32>").state == std::vector<uint64_t>{key, 9});
  CHECK(generate("THREE_FRY", {key, 9}, "tensor<3x0xui32>").state == std::vector<uint64_t>{key, 9});
}
