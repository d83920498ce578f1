#include "CollectiveCases.h"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "shardgen/minifloat.h"

namespace shardgen::runtime::testing {

void Failures::add(std::string message) {
  std::lock_guard lock(mutex_);
  if (messages_.size() < 20) // enough to diagnose, short enough to read
    messages_.push_back(std::move(message));
}

std::vector<std::string> Failures::take() {
  std::lock_guard lock(mutex_);
  return std::move(messages_);
}

namespace {

using Body = std::function<void(const DeviceContext &, Failures &)>;

std::vector<std::string> runOnDevices(const Launcher &launch, const DeviceMesh &mesh,
                                      const Body &body) {
  Failures failures;
  launch(mesh, [&](const DeviceContext &device) { body(device, failures); });
  return failures.take();
}

void append(std::vector<std::string> &all, std::vector<std::string> more) {
  for (std::string &message : more)
    all.push_back(std::move(message));
}

std::string where(const DeviceContext &device, const std::string &what, int64_t index) {
  return what + ": device " + std::to_string(device.position) + ", element " +
         std::to_string(index);
}

std::string axesText(const std::vector<int32_t> &axes) {
  std::string text = "{";
  for (size_t i = 0; i < axes.size(); ++i)
    text += (i ? "," : "") + std::to_string(axes[i]);
  return text + "}";
}

AxisList listOf(const std::vector<int32_t> &axes) {
  return AxisList{axes.data(), static_cast<int32_t>(axes.size())};
}

std::vector<int64_t> coordinatesOf(int64_t position, const DeviceContext &device) {
  std::vector<int64_t> coordinates(device.numAxes);
  for (int32_t axis = device.numAxes - 1; axis >= 0; --axis) {
    coordinates[axis] = position % device.axisSizes[axis];
    position /= device.axisSizes[axis];
  }
  return coordinates;
}

int64_t linearIndex(const std::vector<int64_t> &index, const std::vector<int64_t> &shape) {
  int64_t linear = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    linear = linear * shape[d] + index[d];
  return linear;
}

int64_t volume(const std::vector<int64_t> &shape) {
  int64_t product = 1;
  for (int64_t size : shape)
    product *= size;
  return product;
}

// Calls fn(index, linear) for every multi-index of `shape`, row-major.
template <typename Fn> void forEachIndex(const std::vector<int64_t> &shape, Fn fn) {
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t linear = 0; linear < volume(shape); ++linear) {
    fn(index, linear);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

// --- element encodings of small integers, written out per format ---------

// IEEE half of an integer 0 <= v < 2048 (exact): exponent = floor(log2 v).
uint16_t halfOfSmallInteger(int64_t v) {
  if (v == 0)
    return 0;
  int exponent = 0;
  while ((int64_t{2} << exponent) <= v)
    ++exponent;
  auto mantissa = static_cast<uint16_t>((v - (int64_t{1} << exponent)) << (10 - exponent));
  return static_cast<uint16_t>(((exponent + 15) << 10) | mantissa);
}

// bfloat16 of a value exactly representable in it: the float's top half.
uint16_t bfloat16Of(float value) {
  return static_cast<uint16_t>(std::bit_cast<uint32_t>(value) >> 16);
}

std::vector<unsigned char> encode(ElementType type, int64_t v) {
  std::vector<unsigned char> bytes(elementBytes(type));
  auto put = [&](auto value) { std::memcpy(bytes.data(), &value, sizeof(value)); };
  switch (type) {
  case SHARDGEN_F32:
    put(static_cast<float>(v));
    break;
  case SHARDGEN_F64:
    put(static_cast<double>(v));
    break;
  case SHARDGEN_F16:
    put(halfOfSmallInteger(v));
    break;
  case SHARDGEN_BF16:
    put(bfloat16Of(static_cast<float>(v)));
    break;
  case SHARDGEN_I1:
    put(static_cast<uint8_t>(v != 0));
    break;
  case SHARDGEN_I8:
    put(static_cast<int8_t>(v));
    break;
  case SHARDGEN_I32:
    put(static_cast<int32_t>(v));
    break;
  case SHARDGEN_I64:
    put(static_cast<int64_t>(v));
    break;
  case SHARDGEN_UI8:
    put(static_cast<uint8_t>(v));
    break;
  case SHARDGEN_UI32:
    put(static_cast<uint32_t>(v));
    break;
  case SHARDGEN_I16:
    put(static_cast<int16_t>(v));
    break;
  case SHARDGEN_UI16:
    put(static_cast<uint16_t>(v));
    break;
  case SHARDGEN_UI64:
    put(static_cast<uint64_t>(v));
    break;
  case SHARDGEN_C64: // (v, 0)
    put(std::array<float, 2>{static_cast<float>(v), 0.0f});
    break;
  case SHARDGEN_C128:
    put(std::array<double, 2>{static_cast<double>(v), 0.0});
    break;
  case SHARDGEN_I2:
  case SHARDGEN_I4:
    put(static_cast<int8_t>(v));
    break;
  case SHARDGEN_UI2:
  case SHARDGEN_UI4:
    put(static_cast<uint8_t>(v));
    break;
#define SHARDGEN_MINI_FLOAT_ENCODE(Name, mlirName)                                                 \
  case SHARDGEN_##Name:                                                                            \
    put(shardgen::runtime::miniFloatFromInt64<shardgen::runtime::Format##Name>(v));                \
    break;
    SHARDGEN_FOR_EACH_MINI_FLOAT(SHARDGEN_MINI_FLOAT_ENCODE)
#undef SHARDGEN_MINI_FLOAT_ENCODE
  }
  return bytes;
}

const char *typeName(ElementType type) {
  static const char *const names[] = {
      "f32",    "f64",        "f16",       "bf16",     "i1",         "i8",
      "i32",    "i64",        "ui8",       "ui32",     "i16",        "ui16",
      "ui64",   "c64",        "c128",      "i2",       "i4",         "ui2",
      "ui4",    "f8E3M4",     "f8E4M3",    "f8E4M3FN", "f8E4M3FNUZ", "f8E4M3B11FNUZ",
      "f8E5M2", "f8E5M2FNUZ", "f8E8M0FNU", "f6E2M3FN", "f6E3M2FN",   "f4E2M1FN"};
  return names[type];
}

const char *reducerName(Reducer reducer) {
  static const char *const names[] = {"add", "mul", "max", "min", "and", "or"};
  return names[static_cast<int>(reducer)];
}

bool isFloatType(ElementType type) {
  return type == SHARDGEN_F32 || type == SHARDGEN_F64 || type == SHARDGEN_F16 ||
         type == SHARDGEN_BF16;
}

// The reducer on exact integers; i1 follows StableHLO (add/max = or,
// mul/min = and).
int64_t combine(Reducer reducer, ElementType type, int64_t a, int64_t b) {
  if (type == SHARDGEN_I1) {
    bool x = a != 0, y = b != 0;
    bool isOr = reducer == Reducer::Add || reducer == Reducer::Max || reducer == Reducer::Or;
    return isOr ? (x || y) : (x && y);
  }
  switch (reducer) {
  case Reducer::Add:
    return a + b;
  case Reducer::Mul:
    return a * b;
  case Reducer::Max:
    return a > b ? a : b;
  case Reducer::Min:
    return a < b ? a : b;
  case Reducer::And:
    return a & b;
  case Reducer::Or:
    return a | b;
  }
  return 0;
}

template <typename T> std::vector<T> iotaValues(int64_t member, int64_t count) {
  std::vector<T> values(count);
  for (int64_t i = 0; i < count; ++i)
    values[i] = static_cast<T>(member * 1000 + i);
  return values;
}

// --- the checks -----------------------------------------------------------

// Small values keep every result exact in every type (f16, bf16 included):
// sums <= 3 * 8, products <= 2^8.
int64_t smallValue(ElementType type, Reducer reducer, int64_t member, int64_t i) {
  if (type == SHARDGEN_I1)
    return (member + i) % 2;
  if (reducer == Reducer::Mul)
    return 1 + (member + i) % 2;
  return 1 + (member + i) % 3;
}

void allReduceOneTypeAndReducer(const DeviceContext &device, const std::vector<int32_t> &axes,
                                ElementType type, Reducer reducer, Failures &failures) {
  const int64_t count = 37, bytes = elementBytes(type);
  std::vector<int64_t> members = groupMembers(device, axes);
  std::vector<unsigned char> in(count * bytes), out(count * bytes, 0xAB);
  for (int64_t i = 0; i < count; ++i)
    std::memcpy(&in[i * bytes], encode(type, smallValue(type, reducer, device.position, i)).data(),
                bytes);
  allReduce(device, listOf(axes), type, reducer, in.data(), out.data(), count);
  for (int64_t i = 0; i < count; ++i) {
    int64_t expected = smallValue(type, reducer, members[0], i);
    for (size_t k = 1; k < members.size(); ++k)
      expected = combine(reducer, type, expected, smallValue(type, reducer, members[k], i));
    if (std::memcmp(&out[i * bytes], encode(type, expected).data(), bytes) != 0)
      failures.add(where(device,
                         std::string("all_reduce ") + typeName(type) + " " + reducerName(reducer) +
                             " over " + axesText(axes),
                         i));
  }
}

template <typename T>
void allGatherAlong(const DeviceContext &device, const std::vector<int32_t> &axes, ElementType type,
                    const std::vector<int64_t> &shape, int64_t dim, Failures &failures) {
  std::vector<int64_t> members = groupMembers(device, axes);
  const auto n = static_cast<int64_t>(members.size());
  std::vector<T> in = iotaValues<T>(device.position, volume(shape));
  std::vector<int64_t> outShape = shape;
  outShape[dim] *= n;
  std::vector<T> out(volume(outShape));
  allGather(device, listOf(axes), type, viewAlong(shape.data(), int64_t(shape.size()), dim),
            in.data(), out.data());
  forEachIndex(outShape, [&](const std::vector<int64_t> &index, int64_t linear) {
    std::vector<int64_t> source = index;
    int64_t member = members[index[dim] / shape[dim]];
    source[dim] = index[dim] % shape[dim];
    if (out[linear] != static_cast<T>(member * 1000 + linearIndex(source, shape)))
      failures.add(where(
          device, "all_gather dim " + std::to_string(dim) + " over " + axesText(axes), linear));
  });
}

void reduceScatterAlong(const DeviceContext &device, const std::vector<int32_t> &axes,
                        Reducer reducer, std::vector<int64_t> shape, int64_t dim,
                        Failures &failures) {
  std::vector<int64_t> members = groupMembers(device, axes);
  const auto n = static_cast<int64_t>(members.size());
  const int64_t position = groupPosition(device, listOf(axes));
  shape[dim] *= n;
  std::vector<int32_t> in = iotaValues<int32_t>(device.position, volume(shape));
  std::vector<int64_t> outShape = shape;
  outShape[dim] /= n;
  std::vector<int32_t> out(volume(outShape));
  reduceScatter(device, listOf(axes), SHARDGEN_I32, reducer,
                viewAlong(shape.data(), int64_t(shape.size()), dim), in.data(), out.data());
  forEachIndex(outShape, [&](const std::vector<int64_t> &index, int64_t linear) {
    std::vector<int64_t> source = index;
    source[dim] += position * outShape[dim];
    int64_t offset = linearIndex(source, shape), expected = members[0] * 1000 + offset;
    for (int64_t k = 1; k < n; ++k)
      expected = combine(reducer, SHARDGEN_I32, expected, members[k] * 1000 + offset);
    if (out[linear] != expected)
      failures.add(where(device,
                         std::string("reduce_scatter ") + reducerName(reducer) + " dim " +
                             std::to_string(dim) + " over " + axesText(axes),
                         linear));
  });
}

template <typename T>
void allToAllAlong(const DeviceContext &device, const std::vector<int32_t> &axes, ElementType type,
                   int64_t splitDim, int64_t concatDim, Failures &failures) {
  std::vector<int64_t> members = groupMembers(device, axes);
  const auto n = static_cast<int64_t>(members.size());
  const int64_t position = groupPosition(device, listOf(axes));
  std::vector<int64_t> shape = {2, 3, 4};
  shape[splitDim] *= n;
  const int64_t chunk = shape[splitDim] / n;
  std::vector<int64_t> outShape = shape;
  outShape[splitDim] /= n;
  outShape[concatDim] *= n;
  std::vector<T> in = iotaValues<T>(device.position, volume(shape));
  std::vector<T> out(volume(outShape));
  allToAll(device, listOf(axes), type, shape.data(), 3, splitDim, concatDim, in.data(), out.data());
  // Output slot q of the concat dim came from position q, which sent its
  // chunk number `position` of the split dim.
  forEachIndex(outShape, [&](const std::vector<int64_t> &index, int64_t linear) {
    std::vector<int64_t> source = index;
    int64_t slotSize = splitDim == concatDim ? chunk : shape[concatDim];
    int64_t from = index[concatDim] / slotSize;
    source[concatDim] = index[concatDim] % slotSize;
    source[splitDim] += position * chunk;
    if (out[linear] != static_cast<T>(members[from] * 1000 + linearIndex(source, shape)))
      failures.add(where(device,
                         "all_to_all split " + std::to_string(splitDim) + " concat " +
                             std::to_string(concatDim) + " over " + axesText(axes),
                         linear));
  });
}

} // namespace

std::vector<int64_t> groupMembers(const DeviceContext &device, const std::vector<int32_t> &axes) {
  std::vector<int64_t> coordinates = coordinatesOf(device.position, device);
  int64_t size = 1;
  for (int32_t axis : axes)
    size *= device.axisSizes[axis];
  std::vector<int64_t> members;
  for (int64_t k = 0; k < size; ++k) {
    std::vector<int64_t> member = coordinates;
    int64_t rest = k;
    for (size_t i = axes.size(); i-- > 0;) {
      member[axes[i]] = rest % device.axisSizes[axes[i]];
      rest /= device.axisSizes[axes[i]];
    }
    int64_t position = 0;
    for (int32_t axis = 0; axis < device.numAxes; ++axis)
      position = position * device.axisSizes[axis] + member[axis];
    members.push_back(position);
  }
  return members;
}

std::vector<std::string> checkAllReduceEveryTypeAndReducer(const Launcher &launch,
                                                           const DeviceMesh &mesh,
                                                           const std::vector<int32_t> &axes) {
  return runOnDevices(launch, mesh, [&](const DeviceContext &device, Failures &failures) {
    for (int type = SHARDGEN_F32; type <= SHARDGEN_UI64; ++type)
      for (int reducer = 0; reducer <= static_cast<int>(Reducer::Or); ++reducer) {
        auto elementType = static_cast<ElementType>(type);
        auto reduction = static_cast<Reducer>(reducer);
        if (isFloatType(elementType) && (reduction == Reducer::And || reduction == Reducer::Or))
          continue;
        allReduceOneTypeAndReducer(device, axes, elementType, reduction, failures);
      }
  });
}

std::vector<std::string> checkAllReduceLarge(const Launcher &launch, const DeviceMesh &mesh,
                                             const std::vector<int32_t> &axes, int64_t count,
                                             bool inPlace) {
  return runOnDevices(launch, mesh, [&](const DeviceContext &device, Failures &failures) {
    std::vector<int64_t> members = groupMembers(device, axes);
    // value(m, i) = m + i % 101, so the sum is exact in f32.
    std::vector<float> in(count), out(count, -1.0f);
    for (int64_t i = 0; i < count; ++i)
      in[i] = static_cast<float>(device.position + i % 101);
    float *result = inPlace ? in.data() : out.data();
    allReduce(device, listOf(axes), SHARDGEN_F32, Reducer::Add, in.data(), result, count);
    int64_t memberSum = 0;
    for (int64_t member : members)
      memberSum += member;
    for (int64_t i = 0; i < count; ++i) {
      auto expected = static_cast<float>(memberSum + int64_t(members.size()) * (i % 101));
      if (result[i] != expected)
        failures.add(where(device,
                           "all_reduce of " + std::to_string(count) + " floats" +
                               (inPlace ? " in place" : "") + " over " + axesText(axes),
                           i));
    }
  });
}

std::vector<std::string> checkAllReduceSpecialValues(const Launcher &launch,
                                                     const DeviceMesh &mesh) {
  std::vector<int32_t> axes;
  for (int32_t axis = 0; axis < mesh.numAxes(); ++axis)
    axes.push_back(axis);
  return runOnDevices(launch, mesh, [&](const DeviceContext &device, Failures &failures) {
    const AxisList all = listOf(axes);
    const int64_t n = device.numDevices, p = device.position;
    {
      // bf16 adds in f32 and rounds once: 256 + (n - 1) ones, rounded to an
      // even multiple of 2 (bf16's spacing in [256, 512)).
      uint16_t in = bfloat16Of(p == 0 ? 256.0f : 1.0f), out = 0;
      allReduce(device, all, SHARDGEN_BF16, Reducer::Add, &in, &out, 1);
      int64_t sum = 256 + n - 1;
      int64_t rounded = sum % 2 == 0 ? sum : ((sum - 1) % 4 == 0 ? sum - 1 : sum + 1);
      if (out != bfloat16Of(static_cast<float>(rounded)))
        failures.add(where(device, "bf16 all_reduce rounds once", 0));
    }
    {
      // A NaN anywhere wins max and min.
      float in[2] = {p == 1 ? std::numeric_limits<float>::quiet_NaN() : 1.0f, float(p)};
      float maxOut[2], minOut[2];
      allReduce(device, all, SHARDGEN_F32, Reducer::Max, in, maxOut, 2);
      allReduce(device, all, SHARDGEN_F32, Reducer::Min, in, minOut, 2);
      if (!std::isnan(maxOut[0]) || !std::isnan(minOut[0]) || maxOut[1] != float(n - 1) ||
          minOut[1] != 0.0f)
        failures.add(where(device, "f32 max/min with NaN", 0));
    }
    {
      auto in = static_cast<int8_t>(100 + p), out = int8_t{0};
      allReduce(device, all, SHARDGEN_I8, Reducer::Add, &in, &out, 1);
      int64_t sum = 100 * n + n * (n - 1) / 2;
      if (out != static_cast<int8_t>(sum)) // C++20: conversion is modulo 2^8
        failures.add(where(device, "i8 add wraps", 0));
    }
    {
      auto in = static_cast<uint32_t>(0x10001u * (p + 3)), out = 0u;
      allReduce(device, all, SHARDGEN_UI32, Reducer::Mul, &in, &out, 1);
      uint64_t product = 1;
      for (int64_t k = 0; k < n; ++k)
        product *= 0x10001u * static_cast<uint64_t>(k + 3);
      if (out != static_cast<uint32_t>(product))
        failures.add(where(device, "ui32 mul wraps", 0));
    }
    {
      int64_t in = std::numeric_limits<int64_t>::max() - p, out = 0;
      allReduce(device, all, SHARDGEN_I64, Reducer::Add, &in, &out, 1);
      uint64_t sum = 0;
      for (int64_t k = 0; k < n; ++k)
        sum += static_cast<uint64_t>(std::numeric_limits<int64_t>::max() - k);
      if (out != static_cast<int64_t>(sum))
        failures.add(where(device, "i64 add wraps", 0));
    }
    {
      auto in = static_cast<int32_t>(p * 7 - 20);
      int32_t maxOut = 0, minOut = 0;
      allReduce(device, all, SHARDGEN_I32, Reducer::Max, &in, &maxOut, 1);
      allReduce(device, all, SHARDGEN_I32, Reducer::Min, &in, &minOut, 1);
      if (maxOut != (n - 1) * 7 - 20 || minOut != -20)
        failures.add(where(device, "i32 signed max/min", 0));
    }
    {
      auto in = static_cast<uint8_t>(p == 0 ? 200 : p), out = uint8_t{0};
      allReduce(device, all, SHARDGEN_UI8, Reducer::Max, &in, &out, 1);
      if (out != 200) // as signed, 200 would be negative and lose
        failures.add(where(device, "ui8 max is unsigned", 0));
    }
  });
}

std::vector<std::string> checkAllGather(const Launcher &launch, const DeviceMesh &mesh,
                                        const std::vector<int32_t> &axes) {
  return runOnDevices(launch, mesh, [&](const DeviceContext &device, Failures &failures) {
    for (int64_t dim = 0; dim < 3; ++dim) {
      allGatherAlong<int32_t>(device, axes, SHARDGEN_I32, {2, 3, 4}, dim, failures);
      allGatherAlong<double>(device, axes, SHARDGEN_F64, {3, 1, 2}, dim, failures);
    }
    allGatherAlong<int32_t>(device, axes, SHARDGEN_I32, {5}, 0, failures);
  });
}

std::vector<std::string> checkReduceScatter(const Launcher &launch, const DeviceMesh &mesh,
                                            const std::vector<int32_t> &axes) {
  return runOnDevices(launch, mesh, [&](const DeviceContext &device, Failures &failures) {
    for (int64_t dim = 0; dim < 3; ++dim) {
      reduceScatterAlong(device, axes, Reducer::Add, {2, 3, 4}, dim, failures);
      reduceScatterAlong(device, axes, Reducer::Max, {3, 2, 1}, dim, failures);
    }
  });
}

std::vector<std::string> checkAllToAll(const Launcher &launch, const DeviceMesh &mesh,
                                       const std::vector<int32_t> &axes) {
  return runOnDevices(launch, mesh, [&](const DeviceContext &device, Failures &failures) {
    for (int64_t split = 0; split < 3; ++split)
      for (int64_t concat = 0; concat < 3; ++concat) {
        allToAllAlong<int32_t>(device, axes, SHARDGEN_I32, split, concat, failures);
        allToAllAlong<int64_t>(device, axes, SHARDGEN_I64, split, concat, failures);
      }
  });
}

std::vector<std::string> checkCollectivePermute(const Launcher &launch, const DeviceMesh &mesh,
                                                const std::vector<int32_t> &axes) {
  return runOnDevices(launch, mesh, [&](const DeviceContext &device, Failures &failures) {
    std::vector<int64_t> members = groupMembers(device, axes);
    const auto n = static_cast<int64_t>(members.size());
    const int64_t position = groupPosition(device, listOf(axes));
    for (int64_t shift : {int64_t{1}, int64_t{-1}, int64_t{2}, n, n + 1, int64_t{-3}}) {
      std::vector<int32_t> in = iotaValues<int32_t>(device.position, 5), out(5, -1);
      collectivePermute(device, listOf(axes), SHARDGEN_I32, shift, in.data(), out.data(), 5);
      int64_t from = members[(((position - shift) % n) + n) % n];
      for (int64_t i = 0; i < 5; ++i)
        if (out[i] != from * 1000 + i)
          failures.add(where(
              device,
              "collective_permute shift " + std::to_string(shift) + " over " + axesText(axes), i));
    }
  });
}

std::vector<std::string> checkExchange(const Launcher &launch, const DeviceMesh &mesh) {
  // Position p sends q length(p, q) bytes (some none), each p * 16 + q; the
  // offsets start past a few bytes; the own segment must stay untouched.
  auto length = [](int64_t p, int64_t q) { return (p * 7 + q * 3) % 5; };
  auto byte = [](int64_t p, int64_t q) { return static_cast<unsigned char>(p * 16 + q); };
  const int64_t n = mesh.numDevices();
  return runOnDevices(launch, mesh, [&](const DeviceContext &device, Failures &failures) {
    const int64_t p = device.position;
    std::vector<int64_t> sendAt{2}, recvAt{3};
    std::vector<unsigned char> send(2, 0);
    for (int64_t q = 0; q < n; ++q) {
      send.insert(send.end(), length(p, q), byte(p, q));
      sendAt.push_back(static_cast<int64_t>(send.size()));
      recvAt.push_back(recvAt.back() + length(q, p));
    }
    std::vector<unsigned char> recv(recvAt.back(), 0xff);
    exchange(device, send.data(), sendAt.data(), recv.data(), recvAt.data());
    for (int64_t q = 0; q < n; ++q)
      for (int64_t i = recvAt[q]; i < recvAt[q + 1]; ++i)
        if (recv[i] != (q == p ? 0xff : byte(q, p)))
          failures.add(where(device, "exchange from position " + std::to_string(q), i));
  });
}

std::vector<std::string> checkAxisIndexAndGroups(const Launcher &launch, const DeviceMesh &mesh) {
  return runOnDevices(launch, mesh, [&](const DeviceContext &device, Failures &failures) {
    std::vector<int64_t> coordinates = coordinatesOf(device.position, device);
    for (int32_t axis = 0; axis < device.numAxes; ++axis)
      if (axisIndex(device, axis) != coordinates[axis])
        failures.add(where(device, "axis_index of axis " + std::to_string(axis), 0));
    std::vector<int32_t> reversed;
    for (int32_t axis = device.numAxes; axis-- > 0;)
      reversed.push_back(axis);
    std::vector<int64_t> members = groupMembers(device, reversed);
    int64_t expectedPosition = 0;
    while (members[expectedPosition] != device.position)
      ++expectedPosition;
    if (groupSize(device, listOf(reversed)) != int64_t(members.size()) ||
        groupPosition(device, listOf(reversed)) != expectedPosition)
      failures.add(where(device, "group position over " + axesText(reversed), 0));
    barrier(device); // returns on every device (no deadlock, no error)
  });
}

std::vector<std::string> checkEveryCollective(const Launcher &launch, const DeviceMesh &mesh) {
  std::vector<std::vector<int32_t>> axisLists;
  std::vector<int32_t> all, reversed;
  for (int32_t axis = 0; axis < mesh.numAxes(); ++axis) {
    all.push_back(axis);
    reversed.insert(reversed.begin(), axis);
    axisLists.push_back({axis});
  }
  axisLists.push_back(all);
  if (mesh.numAxes() > 1)
    axisLists.push_back(reversed);
  axisLists.push_back({}); // a group of one

  std::vector<std::string> failures;
  for (const std::vector<int32_t> &axes : axisLists) {
    append(failures, checkAllReduceEveryTypeAndReducer(launch, mesh, axes));
    // 140001: two of the MPI backend's all_reduce segments per chunk in groups of 2.
    for (int64_t count : {int64_t{3}, int64_t{10007}, int64_t{140001}})
      for (bool inPlace : {false, true})
        append(failures, checkAllReduceLarge(launch, mesh, axes, count, inPlace));
    append(failures, checkAllGather(launch, mesh, axes));
    append(failures, checkReduceScatter(launch, mesh, axes));
    append(failures, checkAllToAll(launch, mesh, axes));
    append(failures, checkCollectivePermute(launch, mesh, axes));
  }
  append(failures, checkAllReduceSpecialValues(launch, mesh));
  append(failures, checkAxisIndexAndGroups(launch, mesh));
  append(failures, checkExchange(launch, mesh));
  return failures;
}

} // namespace shardgen::runtime::testing
