// rng_bit_generator, bit for bit as XLA's CPU backend computes it
// (xla/service/rng_bit_generator_expander.cc and xla/hlo/builder/lib/prng.cc,
// whose whole-tensor construction this follows step by step; the generated
// kernel, templates/kernels/rng.h, computes each element from its index
// instead). The state's first word is the key of both algorithms.
//
// THREE_FRY (Threefry2x32, 20 rounds): the counter is state[1]. A 64-bit
// output element e is both words of the block at counter state[1] + e; a
// 32-bit one (and a narrower one, its low bits) comes from the shape halved
// along its first even dim (else its largest): block h of the half shape
// gives its two words to the elements 2h and 2h + 1 along that dim. The new
// counter is the old plus the blocks used.
//
// PHILOX (Philox4x32, 10 rounds; also DEFAULT, as on XLA's CPU backend):
// the counter is 128 bits, (state[1], state[2]) low word first, or for a
// 2-word state (state[1], state[0]). Block b (counter + b) gives four
// words to consecutive elements (32 bits and narrower: one each; 64 bits:
// two each, low first). The new state is the key, then the counter plus
// the blocks used (its low word only for a 2-word state).

#include <array>

#include "compiler/interp/Kernels.h"

namespace shardgen::interp {
namespace {
namespace rng { // names of their own in the stage's unity build

using Words2 = std::array<uint32_t, 2>;
using Words4 = std::array<uint32_t, 4>;

Words2 halves(uint64_t value) {
  return {static_cast<uint32_t>(value), static_cast<uint32_t>(value >> 32)};
}
uint64_t joined(uint32_t low, uint32_t high) { return low | static_cast<uint64_t>(high) << 32; }

uint32_t rotateLeft(uint32_t v, int distance) { return v << distance | v >> (32 - distance); }

/// Threefry2x32 with 20 rounds (Salmon et al., SC 2011): 5 groups of 4
/// rounds, the key schedule injected after each group.
Words2 threefry2x32(Words2 key, Words2 counter) {
  static constexpr int kRotations[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  const uint32_t schedule[3] = {key[0], key[1], 0x1BD11BDAu ^ key[0] ^ key[1]};
  uint32_t x0 = counter[0] + schedule[0], x1 = counter[1] + schedule[1];
  for (uint32_t group = 0; group < 5; ++group) {
    for (int rotation : kRotations[group % 2]) {
      x0 += x1;
      x1 = rotateLeft(x1, rotation) ^ x0;
    }
    x0 += schedule[(group + 1) % 3];
    x1 += schedule[(group + 2) % 3] + group + 1;
  }
  return {x0, x1};
}

/// Philox4x32 with 10 rounds (Salmon et al., SC 2011).
Words4 philox4x32(Words2 key, Words4 x) {
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = static_cast<uint64_t>(x[0]) * 0xD2511F53u;
    const uint64_t p1 = static_cast<uint64_t>(x[2]) * 0xCD9E8D57u;
    x = {static_cast<uint32_t>(p1 >> 32) ^ x[1] ^ key[0], static_cast<uint32_t>(p1),
         static_cast<uint32_t>(p0 >> 32) ^ x[3] ^ key[1], static_cast<uint32_t>(p0)};
    key = {key[0] + 0x9E3779B9u, key[1] + 0xBB67AE85u};
  }
  return x;
}

/// The output, written element by element (the low bytes of each word,
/// little endian): no temporary as large as the output.
class Output {
public:
  explicit Output(const TensorType &type)
      : literal_(type), width_(elementByteWidth(type.elementType)) {}
  bool wide() const { return width_ == 8; } // 64-bit words; narrower: 32-bit words' low bits
  int64_t size() const { return literal_.numElements(); }
  const Shape &shape() const { return literal_.shape(); }
  void set(int64_t element, uint64_t word) {
    auto *bytes = reinterpret_cast<unsigned char *>(literal_.data()) + element * width_;
    for (size_t b = 0; b < width_; ++b)
      bytes[b] = static_cast<unsigned char>(word >> (8 * b));
  }
  Literal take() { return std::move(literal_); }

private:
  Literal literal_;
  size_t width_;
};

/// Fills `out`; returns output_state.
std::vector<uint64_t> threefry(const std::vector<uint64_t> &state, Output &out) {
  const Words2 key = halves(state[0]);
  const uint64_t counter = state[1];
  if (out.wide()) {
    for (int64_t e = 0; e < out.size(); ++e) {
      const Words2 y = threefry2x32(key, halves(counter + static_cast<uint64_t>(e)));
      out.set(e, joined(y[0], y[1]));
    }
    return {state[0], counter + static_cast<uint64_t>(out.size())};
  }
  // The half shape's blocks concatenated along a new dim after the split
  // one ([outer, ceil(d/2), 2, inner]), read as [outer, d rounded up to
  // even, inner] and sliced back to d: block h's word w lands at 2s + w
  // along the split dim. A scalar is half shape [1]: word 0 of one block.
  const Shape &shape = out.shape();
  const int64_t split = threefrySplitDim(shape);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < split; ++d)
    outer *= shape[d];
  for (size_t d = split + 1; d < shape.size(); ++d)
    inner *= shape[d];
  const int64_t extent = shape.empty() ? 1 : shape[split];
  const int64_t half = (extent + 1) / 2, halfCount = outer * half * inner;
  for (int64_t h = 0; h < halfCount; ++h) {
    const Words2 y = threefry2x32(key, halves(counter + static_cast<uint64_t>(h)));
    const int64_t o = h / (half * inner), s = h / inner % half, i = h % inner;
    for (int64_t w = 0; w < 2; ++w)
      if (2 * s + w < extent)
        out.set((o * extent + 2 * s + w) * inner + i, y[w]);
  }
  return {state[0], counter + static_cast<uint64_t>(halfCount)};
}

/// Fills `out`; returns output_state.
std::vector<uint64_t> philox(const std::vector<uint64_t> &state, Output &out) {
  const Words2 key = halves(state[0]);
  const bool threeWords = state.size() >= 3;
  const uint64_t low = state[1], high = threeWords ? state[2] : state[0];
  const int64_t n = out.size(), wordsPer = out.wide() ? 2 : 1;
  const int64_t blocks = (n * wordsPer + 3) / 4;
  // Block b's words are words 4b..4b+3 of the stream; element e takes
  // word e (64 bits: words 2e and 2e + 1, low first).
  for (int64_t b = 0; b < blocks; ++b) {
    const uint64_t blockLow = low + static_cast<uint64_t>(b);
    const uint64_t blockHigh = high + (blockLow < low ? 1 : 0);
    const Words2 l = halves(blockLow), h = halves(blockHigh);
    const Words4 y = philox4x32(key, {l[0], l[1], h[0], h[1]});
    for (int64_t k = 0; k < 4 / wordsPer; ++k) {
      const int64_t e = b * (4 / wordsPer) + k;
      if (e < n)
        out.set(e, out.wide() ? joined(y[2 * k], y[2 * k + 1]) : y[k]);
    }
  }
  const uint64_t newLow = low + static_cast<uint64_t>(blocks);
  const uint64_t newHigh = high + (newLow < low ? 1 : 0);
  return threeWords ? std::vector<uint64_t>{state[0], newLow, newHigh}
                    : std::vector<uint64_t>{state[0], newLow};
}

} // namespace rng
} // namespace

std::vector<Literal> evalRngBitGenerator(const Literal &state, RngAlgorithm algorithm,
                                         const TensorType &outputType) {
  std::vector<uint64_t> words(static_cast<size_t>(state.numElements()));
  for (size_t i = 0; i < words.size(); ++i)
    words[i] = static_cast<uint64_t>(state.getInt(static_cast<int64_t>(i)));
  rng::Output output(outputType);
  const std::vector<uint64_t> next = algorithm == RngAlgorithm::ThreeFry
                                         ? rng::threefry(words, output)
                                         : rng::philox(words, output);
  Literal newState(state.type());
  for (size_t i = 0; i < next.size(); ++i)
    newState.setInt(static_cast<int64_t>(i), static_cast<int64_t>(next[i]));
  std::vector<Literal> results;
  results.push_back(std::move(newState));
  results.push_back(output.take());
  return results;
}

} // namespace shardgen::interp
