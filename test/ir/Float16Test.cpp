// The one f16/bf16 conversion (runtime/include/shardgen/float16.h) against
// independent oracles: the compiler's own _Float16 conversion for binary16
// (hardware or libgcc's soft-float, both IEEE round to nearest even), and
// bfloat16 as the top half of a float, rounded by hand in wide arithmetic.

#include <bit>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <ios>

#include <doctest/doctest.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "compiler/ir/Float16.h"

namespace shardgen {
namespace {

bool isNanHalf(uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0; }

TEST_CASE("every binary16 value converts to the float _Float16 gives, and back") {
  for (uint32_t i = 0; i < 0x10000; ++i) {
    auto h = static_cast<uint16_t>(i);
    _Float16 oracle = std::bit_cast<_Float16>(h);
    float f = halfToFloat(h);
    if (isNanHalf(h)) {
      CHECK(std::isnan(f));
      CHECK(isNanHalf(floatToHalf(f)));
      continue;
    }
    CHECK(std::bit_cast<uint32_t>(f) == std::bit_cast<uint32_t>(static_cast<float>(oracle)));
    CHECK(floatToHalf(f) == h);
  }
}

TEST_CASE("floats round to binary16 as _Float16 does, ties to even, overflow to inf") {
  // Every float whose top 19 bits vary (all exponents, the mantissa bits that
  // decide rounding, ties and the bits beside them), both signs.
  for (uint32_t top = 0; top < (1u << 19); ++top) {
    for (uint32_t low : {0u, 1u, 0xfffu, 0x1000u, 0x1001u, 0x1fffu}) {
      uint32_t bits = (top << 13) | low;
      float f = std::bit_cast<float>(bits);
      if (std::isnan(f))
        continue;
      uint16_t oracle = std::bit_cast<uint16_t>(static_cast<_Float16>(f));
      REQUIRE_MESSAGE(floatToHalf(f) == oracle, "float bits 0x" << std::hex << bits);
    }
  }
}

TEST_CASE("floats round to bfloat16 to nearest even; nan stays a quiet nan with its sign") {
  for (uint32_t top = 0; top < (1u << 16); ++top) {
    for (uint32_t low : {0u, 1u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu}) {
      uint32_t bits = (top << 16) | low;
      float f = std::bit_cast<float>(bits);
      uint16_t got = floatToBfloat16(f);
      if (std::isnan(f)) {
        CHECK(std::isnan(bfloat16ToFloat(got)));
        CHECK((got & 0x8000u) == (bits >> 16 & 0x8000u));
        continue;
      }
      // Round the 32-bit pattern to its top 16 bits in 64-bit arithmetic.
      uint64_t wide = bits;
      uint64_t keep = wide >> 16, rest = wide & 0xffffu;
      if (rest > 0x8000u || (rest == 0x8000u && (keep & 1u)))
        ++keep;
      REQUIRE_MESSAGE(got == static_cast<uint16_t>(keep), "float bits 0x" << std::hex << bits);
      CHECK(std::bit_cast<uint32_t>(bfloat16ToFloat(got)) == static_cast<uint32_t>(keep) << 16);
    }
  }
}

#if defined(__x86_64__)
__attribute__((target("f16c"))) uint16_t f16cToHalf(float f) {
  return static_cast<uint16_t>(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT));
}
__attribute__((target("f16c"))) float f16cToFloat(uint16_t h) { return _cvtsh_ss(h); }

// Generated code converts with F16C where the host has it, the compiler and
// the interpreter with the portable code: both must give the same bits.
TEST_CASE("nans convert as F16C's vcvtph2ps and vcvtps2ph do: made quiet, top payload kept") {
  if (!__builtin_cpu_supports("f16c"))
    return;
  for (uint32_t payload = 1; payload < 0x400u; ++payload)
    for (uint32_t sign : {0u, 0x8000u}) {
      auto h = static_cast<uint16_t>(sign | 0x7c00u | payload);
      REQUIRE(std::bit_cast<uint32_t>(halfToFloat(h)) == std::bit_cast<uint32_t>(f16cToFloat(h)));
    }
  for (uint32_t top = 0x7f801u; top < 0x80000u; top += 0x13u)
    for (uint32_t low : {0u, 1u, 0x1fffu})
      for (uint32_t sign : {0u, 0x80000000u}) {
        const float f = std::bit_cast<float>(sign | (top << 12) | low);
        REQUIRE_MESSAGE(floatToHalf(f) == f16cToHalf(f),
                        "float bits 0x" << std::hex << std::bit_cast<uint32_t>(f));
      }
}
#endif

} // namespace
} // namespace shardgen
