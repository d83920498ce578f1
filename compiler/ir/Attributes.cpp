#include "compiler/ir/Attributes.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

namespace shardgen {

namespace {
template <typename Enum, size_t N>
std::optional<Enum> lookup(const std::array<std::pair<Enum, std::string_view>, N> &table,
                           std::string_view text) {
  for (const auto &[value, name] : table)
    if (name == text)
      return value;
  return std::nullopt;
}

constexpr std::array<std::pair<ComparisonDirection, std::string_view>, 6> kDirections{{
    {ComparisonDirection::EQ, "EQ"},
    {ComparisonDirection::NE, "NE"},
    {ComparisonDirection::LT, "LT"},
    {ComparisonDirection::LE, "LE"},
    {ComparisonDirection::GT, "GT"},
    {ComparisonDirection::GE, "GE"},
}};
constexpr std::array<std::pair<Reducer, std::string_view>, 6> kReducers{{
    {Reducer::Add, "add"},
    {Reducer::Mul, "mul"},
    {Reducer::Max, "max"},
    {Reducer::Min, "min"},
    {Reducer::And, "and"},
    {Reducer::Or, "or"},
}};
constexpr std::array<std::pair<BarrierDirection, std::string_view>, 4> kBarriers{{
    {BarrierDirection::None, "NONE"},
    {BarrierDirection::Forward, "FORWARD"},
    {BarrierDirection::Backward, "BACKWARD"},
    {BarrierDirection::Both, "BOTH"},
}};
} // namespace

std::string_view comparisonDirectionName(ComparisonDirection d) {
  return kDirections[static_cast<int>(d)].second;
}
std::optional<ComparisonDirection> parseComparisonDirection(std::string_view text) {
  return lookup(kDirections, text);
}
std::string_view reducerName(Reducer r) { return kReducers[static_cast<int>(r)].second; }
std::optional<Reducer> parseReducer(std::string_view text) { return lookup(kReducers, text); }
std::string_view barrierDirectionName(BarrierDirection d) {
  return kBarriers[static_cast<int>(d)].second;
}
std::optional<BarrierDirection> parseBarrierDirection(std::string_view text) {
  return lookup(kBarriers, text);
}

ConstantAttrs ConstantAttrs::dense(Literal value) {
  ConstantAttrs constant;
  constant.type = value.type();
  constant.elements = std::move(value);
  return constant;
}

ConstantAttrs ConstantAttrs::splatOf(TensorType type, Literal element) {
  ConstantAttrs constant;
  constant.type = std::move(type);
  constant.elements = std::move(element);
  constant.splat = true;
  return constant;
}

Literal ConstantAttrs::expanded() const {
  if (!splat)
    return elements;
  Literal whole(type);
  const size_t width = elementByteWidth(type.elementType);
  for (int64_t i = 0; i < whole.numElements(); ++i) // exact bytes for every type
    std::memcpy(whole.data() + i * width, elements.data(), width);
  return whole;
}

std::vector<int64_t> dotGeneralFreeDims(int64_t rank, const std::vector<int64_t> &batching,
                                        const std::vector<int64_t> &contracting) {
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (std::find(batching.begin(), batching.end(), d) == batching.end() &&
        std::find(contracting.begin(), contracting.end(), d) == contracting.end())
      dims.push_back(d);
  return dims;
}

namespace {
constexpr std::array<std::pair<RngAlgorithm, std::string_view>, 3> kRngAlgorithms{{
    {RngAlgorithm::Default, "DEFAULT"},
    {RngAlgorithm::ThreeFry, "THREE_FRY"},
    {RngAlgorithm::Philox, "PHILOX"},
}};
} // namespace

std::optional<RngAlgorithm> parseRngAlgorithm(std::string_view text) {
  return lookup(kRngAlgorithms, text);
}
std::string_view rngAlgorithmName(RngAlgorithm algorithm) {
  return kRngAlgorithms[static_cast<int>(algorithm)].second;
}
int64_t threefrySplitDim(const Shape &shape) {
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] % 2 == 0)
      return static_cast<int64_t>(d);
  return static_cast<int64_t>(std::max_element(shape.begin(), shape.end()) - shape.begin());
}

namespace {
constexpr std::array<std::pair<FftType, std::string_view>, 4> kFftTypes{{
    {FftType::Fft, "FFT"},
    {FftType::Ifft, "IFFT"},
    {FftType::Rfft, "RFFT"},
    {FftType::Irfft, "IRFFT"},
}};
} // namespace

std::optional<FftType> parseFftType(std::string_view text) { return lookup(kFftTypes, text); }
std::string_view fftTypeName(FftType type) { return kFftTypes[static_cast<int>(type)].second; }

} // namespace shardgen
