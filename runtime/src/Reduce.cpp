#include "Reduce.h"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "StreamCopy.h"
#include "shardgen/element_types.h"

namespace shardgen::runtime {
namespace {

template <typename T> T wrappingAdd(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <typename T> T wrappingMul(T a, T b) {
  // Multiply in an unsigned type at least as wide as int, so small types do
  // not promote to a signed int that could overflow.
  using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
}

// IEEE 754-2019 maximum/minimum, as StableHLO's: NaN propagates and +0 is
// above -0.
template <typename T> T maxOf(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a != a)
      return a;
    if (a == b)
      return std::signbit(a) ? b : a;
  }
  return a > b ? a : b;
}
template <typename T> T minOf(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a != a)
      return a;
    if (a == b)
      return std::signbit(a) ? a : b;
  }
  return a < b ? a : b;
}

template <typename T> using Complex = elements::Complex<T>;
namespace complexmath = elements::complexmath;

struct AddOp {
  template <typename T> static Complex<T> apply(Complex<T> a, Complex<T> b) {
    return complexmath::add(a, b);
  }
  template <typename T> static T apply(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
      return a + b;
    else
      return wrappingAdd(a, b);
  }
};
struct MulOp {
  template <typename T> static Complex<T> apply(Complex<T> a, Complex<T> b) {
    return complexmath::multiply(a, b);
  }
  template <typename T> static T apply(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
      return a * b;
    else
      return wrappingMul(a, b);
  }
};
struct MaxOp {
  template <typename T> static Complex<T> apply(Complex<T> a, Complex<T> b) {
    return complexmath::maximum(a, b);
  }
  template <typename T> static T apply(T a, T b) { return maxOf(a, b); }
};
struct MinOp {
  template <typename T> static Complex<T> apply(Complex<T> a, Complex<T> b) {
    return complexmath::minimum(a, b);
  }
  template <typename T> static T apply(T a, T b) { return minOf(a, b); }
};
struct AndOp {
  template <typename T> static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(a & b);
    else
      return a; // rejected by checkReducer before any data moves
  }
};
struct OrOp {
  template <typename T> static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(a | b);
    else
      return a;
  }
};

// Accumulates a tile in a local buffer, so a destination aliasing a source
// never feeds a partial result back into the reduction; the finished tile is
// rounded once and copied from there (hot in L1) to every destination.
template <typename Traits, typename Op>
void reduceTiled(const void *const *sources, int64_t numSources, void *const *destinations,
                 int64_t numDestinations, int64_t count, ResultStores stores) {
  using Storage = typename Traits::Storage;
  using Compute = typename Traits::Compute;
  // Long enough runs per source for the hardware prefetchers; the tile of
  // every source stays within L2.
  constexpr int64_t kTile = 2048;
  Compute accumulator[kTile];
  Storage result[kTile];
  // `length` is a compile-time constant for full tiles, so the compiler
  // vectorizes their loops without a scalar remainder (-O2 needs that).
  auto reduceTile = [&](int64_t base, auto length) {
    const auto *first = static_cast<const Storage *>(sources[0]) + base;
    for (int64_t i = 0; i < length; ++i)
      accumulator[i] = Traits::load(first[i]);
    for (int64_t k = 1; k < numSources; ++k) {
      const auto *next = static_cast<const Storage *>(sources[k]) + base;
      for (int64_t i = 0; i < length; ++i)
        accumulator[i] = Op::apply(accumulator[i], Traits::load(next[i]));
    }
    for (int64_t i = 0; i < length; ++i)
      result[i] = Traits::store(accumulator[i]);
    auto tileBytes = static_cast<size_t>(length) * sizeof(Storage);
    for (int64_t d = 0; d < numDestinations; ++d) {
      Storage *target = static_cast<Storage *>(destinations[d]) + base;
      if (stores == ResultStores::Streaming)
        copyStreaming(target, result, tileBytes);
      else
        std::memcpy(target, result, tileBytes);
    }
  };
  int64_t base = 0;
  for (; base + kTile <= count; base += kTile)
    reduceTile(base, std::integral_constant<int64_t, kTile>{});
  // The rest in smaller fixed-size blocks, so that small messages (a few
  // thousand elements, all of them rest) are vectorized too; per element
  // the operations are the same, so are the bits.
  constexpr int64_t kBlock = 256;
  for (; base + kBlock <= count; base += kBlock)
    reduceTile(base, std::integral_constant<int64_t, kBlock>{});
  if (base < count)
    reduceTile(base, count - base);
  if (stores == ResultStores::Streaming)
    finishStreaming();
}

template <typename Traits>
void reduceWith(Reducer reducer, const void *const *sources, int64_t numSources,
                void *const *destinations, int64_t numDestinations, int64_t count,
                ResultStores stores) {
  switch (reducer) {
  case Reducer::Add:
    return reduceTiled<Traits, AddOp>(sources, numSources, destinations, numDestinations, count,
                                      stores);
  case Reducer::Mul:
    return reduceTiled<Traits, MulOp>(sources, numSources, destinations, numDestinations, count,
                                      stores);
  case Reducer::Max:
    return reduceTiled<Traits, MaxOp>(sources, numSources, destinations, numDestinations, count,
                                      stores);
  case Reducer::Min:
    return reduceTiled<Traits, MinOp>(sources, numSources, destinations, numDestinations, count,
                                      stores);
  case Reducer::And:
    return reduceTiled<Traits, AndOp>(sources, numSources, destinations, numDestinations, count,
                                      stores);
  case Reducer::Or:
    return reduceTiled<Traits, OrOp>(sources, numSources, destinations, numDestinations, count,
                                     stores);
  }
}

// On i1 (0 or 1) add and max are `or`, mul and min are `and` (StableHLO).
Reducer booleanReducer(Reducer reducer) {
  switch (reducer) {
  case Reducer::Add:
  case Reducer::Max:
  case Reducer::Or:
    return Reducer::Or;
  case Reducer::Mul:
  case Reducer::Min:
  case Reducer::And:
    return Reducer::And;
  }
  return reducer;
}

bool isFloat(ElementType type) {
  return type == SHARDGEN_F32 || type == SHARDGEN_F64 || type == SHARDGEN_F16 ||
         type == SHARDGEN_BF16 || type == SHARDGEN_C64 || type == SHARDGEN_C128 ||
         type >= SHARDGEN_F8E3M4; // the mini floats
}

} // namespace

void checkReducer(ElementType type, Reducer reducer, const char *collective) {
  auto code = static_cast<int32_t>(reducer);
  if (code < static_cast<int32_t>(Reducer::Add) || code > static_cast<int32_t>(Reducer::Or))
    throw std::invalid_argument(std::string(collective) + ": unknown reducer " +
                                std::to_string(code));
  if (isFloat(type) && (reducer == Reducer::And || reducer == Reducer::Or))
    throw std::invalid_argument(std::string(collective) +
                                ": reducer and/or needs an integer or i1 element type");
}

namespace {

/// Calls `fn(E{})` with the element type E of `type`; false for a value
/// that is no element type.
template <typename Fn> bool withElementType(ElementType type, Fn &&fn) {
  auto call = [&](auto element) {
    fn(element);
    return true;
  };
  switch (type) {
  case SHARDGEN_F32:
    return call(elements::F32{});
  case SHARDGEN_F64:
    return call(elements::F64{});
  case SHARDGEN_F16:
    return call(elements::F16{});
  case SHARDGEN_BF16:
    return call(elements::BF16{});
  case SHARDGEN_I1:
    return call(elements::I1{});
  case SHARDGEN_I8:
    return call(elements::I8{});
  case SHARDGEN_I16:
    return call(elements::I16{});
  case SHARDGEN_I32:
    return call(elements::I32{});
  case SHARDGEN_I64:
    return call(elements::I64{});
  case SHARDGEN_UI8:
    return call(elements::UI8{});
  case SHARDGEN_UI16:
    return call(elements::UI16{});
  case SHARDGEN_UI32:
    return call(elements::UI32{});
  case SHARDGEN_UI64:
    return call(elements::UI64{});
  case SHARDGEN_C64:
    return call(elements::C64{});
  case SHARDGEN_C128:
    return call(elements::C128{});
  case SHARDGEN_I2:
    return call(elements::I2{});
  case SHARDGEN_I4:
    return call(elements::I4{});
  case SHARDGEN_UI2:
    return call(elements::UI2{});
  case SHARDGEN_UI4:
    return call(elements::UI4{});
#define SHARDGEN_MINI_FLOAT_CALL(Name, mlirName)                                                   \
  case SHARDGEN_##Name:                                                                            \
    return call(elements::Name{});
    SHARDGEN_FOR_EACH_MINI_FLOAT(SHARDGEN_MINI_FLOAT_CALL)
#undef SHARDGEN_MINI_FLOAT_CALL
  }
  return false;
}

} // namespace

void reduceSources(ElementType type, Reducer reducer, const void *const *sources,
                   int64_t numSources, void *destination, int64_t count) {
  reduceSourcesToAll(type, reducer, sources, numSources, &destination, 1, count);
}

void reduceSourcesToAll(ElementType type, Reducer reducer, const void *const *sources,
                        int64_t numSources, void *const *destinations, int64_t numDestinations,
                        int64_t count, ResultStores stores) {
  if (numSources <= 0 || numDestinations <= 0 || count <= 0)
    return;
  const bool known = withElementType(type, [&](auto element) {
    using E = decltype(element);
    // On i1, add and max are `or`, mul and min are `and`.
    const Reducer applied = std::is_same_v<E, elements::I1> ? booleanReducer(reducer) : reducer;
    reduceWith<E>(applied, sources, numSources, destinations, numDestinations, count, stores);
  });
  if (known)
    return;
  throw std::invalid_argument("unknown element type " + std::to_string(static_cast<int>(type)));
}

} // namespace shardgen::runtime
