// The window ops, to the letter of StableHLO's spec: reduce_window (each
// window of the padded, base-dilated input folded by the body from the init
// value, padding and holes taking the init value), select_and_scatter (each
// window's selected element, found among the operand's own elements by the
// `select` body, takes its source value through `scatter`) and convolution
// (each output element the dot product of its lhs window and the kernel,
// with feature and batch groups). Windows are walked in row-major order of
// their positions; the generated kernels walk them in the same order.

#include <algorithm>
#include <functional>
#include <type_traits>

#include "compiler/interp/ElementMath.h"
#include "compiler/interp/ElementTraits.h"
#include "compiler/interp/Kernels.h"
#include "compiler/interp/ScalarRegion.h"

namespace shardgen::interp {
namespace {

int64_t elementCount(const Shape &shape) {
  int64_t n = 1;
  for (int64_t extent : shape)
    n *= extent;
  return n;
}

/// Advances the row-major multi-index `index` within `shape`; false once
/// it wraps around.
bool nextIndex(std::vector<int64_t> &index, const Shape &shape) {
  for (size_t d = index.size(); d-- > 0;) {
    if (++index[d] < shape[d])
      return true;
    index[d] = 0;
  }
  return false;
}

/// The input coordinate position `w` of window `o` reads along dim `d`, or
/// -1 for padding and the holes of base dilation.
int64_t windowTap(const Shape &input, const WindowSpec &window, size_t d, int64_t o, int64_t w) {
  const int64_t dilated = (input[d] - 1) * window.baseDilations[d] + 1;
  const int64_t q = o * window.strides[d] + w * window.windowDilations[d] - window.padding[d][0];
  const bool inside = input[d] > 0 && q >= 0 && q < dilated && q % window.baseDilations[d] == 0;
  return inside ? q / window.baseDilations[d] : -1;
}

} // namespace

WindowSpec reduceWindowSpec(const ReduceWindowAttrs &attrs) {
  return WindowSpec{attrs.windowDimensions, attrs.windowStrides, attrs.baseDilations,
                    attrs.windowDilations, attrs.padding};
}

WindowSpec selectAndScatterSpec(const SelectAndScatterAttrs &attrs) {
  const std::vector<int64_t> ones(attrs.windowDimensions.size(), 1);
  return WindowSpec{attrs.windowDimensions, attrs.windowStrides, ones, ones, attrs.padding};
}

Shape windowOutputShape(const Shape &input, const WindowSpec &window) {
  Shape out;
  for (size_t d = 0; d < input.size(); ++d) {
    const int64_t dilatedInput = input[d] == 0 ? 0 : (input[d] - 1) * window.baseDilations[d] + 1;
    const int64_t padded = window.padding[d][0] + dilatedInput + window.padding[d][1];
    const int64_t dilatedWindow = (window.dimensions[d] - 1) * window.windowDilations[d] + 1;
    const bool empty = padded <= 0 || dilatedWindow > padded;
    out.push_back(empty ? 0 : (padded - dilatedWindow) / window.strides[d] + 1);
  }
  return out;
}

void forEachWindowElement(const Shape &input, const WindowSpec &window,
                          const std::function<void(int64_t, int64_t)> &visit) {
  const Shape output = windowOutputShape(input, window);
  if (elementCount(output) == 0 || elementCount(window.dimensions) == 0)
    return;
  const std::vector<int64_t> strides = denseStrides(input);
  const size_t rank = input.size();
  std::vector<int64_t> o(rank, 0);
  int64_t flat = 0;
  do {
    std::vector<int64_t> w(rank, 0);
    do {
      int64_t offset = 0;
      for (size_t d = 0; d < rank && offset >= 0; ++d) {
        const int64_t coordinate = windowTap(input, window, d, o[d], w[d]);
        offset = coordinate < 0 ? -1 : offset + coordinate * strides[d];
      }
      visit(flat, offset);
    } while (nextIndex(w, window.dimensions));
    ++flat;
  } while (nextIndex(o, output));
}

std::vector<Literal> evalReduceWindow(std::span<const Literal *const> inputs,
                                      std::span<const Literal *const> inits,
                                      const WindowSpec &window, const ScalarRegion &body) {
  const size_t n = inputs.size();
  const Shape shape = windowOutputShape(inputs[0]->shape(), window);
  std::vector<Literal> out;
  std::vector<ScalarBits> initBits;
  for (size_t i = 0; i < n; ++i) {
    out.emplace_back(TensorType{inputs[i]->elementType(), shape});
    initBits.push_back(loadScalarBits(*inits[i], 0));
  }
  // Per window its n accumulators (scalar bits), each from its init.
  const int64_t count = out[0].numElements();
  std::vector<ScalarBits> acc(static_cast<size_t>(count) * n);
  for (int64_t e = 0; e < count; ++e)
    std::copy(initBits.begin(), initBits.end(), acc.begin() + e * static_cast<int64_t>(n));
  std::vector<ScalarBits> arguments(2 * n), results(n);
  forEachWindowElement(inputs[0]->shape(), window, [&](int64_t o, int64_t offset) {
    ScalarBits *a = acc.data() + o * static_cast<int64_t>(n);
    for (size_t i = 0; i < n; ++i) {
      arguments[i] = a[i];
      arguments[n + i] = offset < 0 ? initBits[i] : loadScalarBits(*inputs[i], offset);
    }
    body.run(arguments, results);
    std::copy(results.begin(), results.end(), a);
  });
  for (int64_t e = 0; e < count; ++e)
    for (size_t i = 0; i < n; ++i)
      storeScalarBits(out[i], e, acc[static_cast<size_t>(e) * n + i]);
  return out;
}

Literal evalSelectAndScatter(const Literal &operand, const Literal &source, const Literal &init,
                             const WindowSpec &window, const ScalarRegion &select,
                             const ScalarRegion &scatter) {
  const int64_t windows = elementCount(windowOutputShape(operand.shape(), window));
  // Per window, the operand offset it selects (-1: none yet), folded as
  // `select(a, b) ? a : b` over the window's elements inside the operand.
  std::vector<int64_t> selected(static_cast<size_t>(windows), -1);
  ScalarBits arguments[2], chosen[1];
  forEachWindowElement(operand.shape(), window, [&](int64_t o, int64_t offset) {
    if (offset < 0)
      return;
    if (selected[o] < 0) {
      selected[o] = offset;
      return;
    }
    arguments[0] = loadScalarBits(operand, selected[o]);
    arguments[1] = loadScalarBits(operand, offset);
    select.run(arguments, chosen);
    if (!chosen[0].isTrue())
      selected[o] = offset;
  });
  // Each result element folds the source values that selected it, in
  // source order, from the init value.
  Literal out(operand.type());
  const ScalarBits initBits = loadScalarBits(init, 0);
  for (int64_t e = 0; e < out.numElements(); ++e)
    storeScalarBits(out, e, initBits);
  ScalarBits combined[1];
  for (int64_t s = 0; s < windows; ++s) {
    if (selected[s] < 0)
      continue; // a window of padding only selects nothing (unspecified)
    arguments[0] = loadScalarBits(out, selected[s]);
    arguments[1] = loadScalarBits(source, s);
    scatter.run(arguments, combined);
    storeScalarBits(out, selected[s], combined[0]);
  }
  return out;
}

WindowSpec convolutionLhsWindow(const ConvolutionAttrs &attrs, const Shape &lhs, const Shape &rhs) {
  const size_t rank = lhs.size();
  WindowSpec window{Shape(rank, 1), std::vector<int64_t>(rank, 1), std::vector<int64_t>(rank, 1),
                    std::vector<int64_t>(rank, 1), std::vector<std::array<int64_t, 2>>(rank)};
  for (size_t s = 0; s < attrs.inputSpatialDimensions.size(); ++s) {
    const int64_t d = attrs.inputSpatialDimensions[s];
    window.dimensions[d] = rhs[attrs.kernelSpatialDimensions[s]];
    window.strides[d] = attrs.windowStrides[s];
    window.baseDilations[d] = attrs.lhsDilation[s];
    window.windowDilations[d] = attrs.rhsDilation[s];
    window.padding[d] = attrs.padding[s];
  }
  return window;
}

namespace {

template <typename Traits>
Literal convolve(const Literal &lhs, const Literal &rhs, const ConvolutionAttrs &a,
                 const TensorType &resultType) {
  using S = typename Traits::Storage;
  using C = typename Traits::Compute;
  // Floats and complex values accumulate in the compute type, integers
  // wrap (as dot_general).
  using Acc = std::conditional_t<isFloatTraits<Traits> || isComplexTraits<Traits>, C, uint64_t>;
  const Shape &ls = lhs.shape(), &rs = rhs.shape(), &os = resultType.shape;
  const size_t spatial = a.inputSpatialDimensions.size();
  const std::vector<int64_t> lStrides = denseStrides(ls), rStrides = denseStrides(rs),
                             oStrides = denseStrides(os);
  const int64_t outFeatures = os[a.outputFeatureDimension];
  const int64_t kernelIn = rs[a.kernelInputFeatureDimension];
  const int64_t outBatch = os[a.outputBatchDimension];
  const int64_t featureGroupSize = outFeatures / a.featureGroupCount;
  const int64_t batchGroupSize = outFeatures / a.batchGroupCount;
  Shape window, outSpatial;
  for (size_t s = 0; s < spatial; ++s) {
    window.push_back(rs[a.kernelSpatialDimensions[s]]);
    outSpatial.push_back(os[a.outputSpatialDimensions[s]]);
  }
  Literal out(resultType);
  S *result = out.as<S>();
  const S *x = lhs.as<S>(), *k = rhs.as<S>();
  if (out.numElements() == 0)
    return out;
  const bool emptyWindow = elementCount(window) == 0;
  std::vector<int64_t> o(spatial, 0);
  do {
    for (int64_t b = 0; b < outBatch; ++b)
      for (int64_t f = 0; f < outFeatures; ++f) {
        // The groups: feature groups take their slice of the lhs features,
        // batch groups their slice of the lhs batch.
        const int64_t batch = b + (f / batchGroupSize) * outBatch;
        const int64_t firstFeature = (f / featureGroupSize) * kernelIn;
        Acc acc = Acc(0);
        std::vector<int64_t> w(spatial, 0);
        // A kernel without positions sums nothing.
        if (!emptyWindow)
          do {
            int64_t lOffset = batch * lStrides[a.inputBatchDimension];
            int64_t kOffset = f * rStrides[a.kernelOutputFeatureDimension];
            bool inside = true; // else padding or a hole: the padded lhs holds 0
            for (size_t s = 0; s < spatial; ++s) {
              const int64_t d = a.inputSpatialDimensions[s];
              // The reversed window reads its positions from the far end.
              const int64_t position = a.windowReversal[s] ? window[s] - 1 - w[s] : w[s];
              const int64_t q =
                  o[s] * a.windowStrides[s] + position * a.rhsDilation[s] - a.padding[s][0];
              const int64_t dilated = (ls[d] - 1) * a.lhsDilation[s] + 1;
              if (q < 0 || q >= dilated || q % a.lhsDilation[s] != 0)
                inside = false;
              else
                lOffset += (q / a.lhsDilation[s]) * lStrides[d];
              kOffset += w[s] * rStrides[a.kernelSpatialDimensions[s]];
            }
            for (int64_t i = 0; i < kernelIn; ++i) {
              // A zero of the padded lhs still multiplies its weight (0 * inf
              // is NaN, as the spec's dot of the padded windows). Sign
              // extension into an unsigned accumulator is meant: integer
              // convolutions wrap.
              const Acc xv =
                  !inside
                      ? Acc(0)
                      : static_cast<Acc>(Traits::load( // NOLINT(bugprone-signed-char-misuse)
                            x[lOffset + (firstFeature + i) * lStrides[a.inputFeatureDimension]]));
              const Acc kv = static_cast<Acc>(Traits::load( // NOLINT(bugprone-signed-char-misuse)
                  k[kOffset + i * rStrides[a.kernelInputFeatureDimension]]));
              acc = static_cast<Acc>(math::add(acc, math::multiply(xv, kv))); // as the kernel
            }
          } while (nextIndex(w, window));
        int64_t oOffset =
            b * oStrides[a.outputBatchDimension] + f * oStrides[a.outputFeatureDimension];
        for (size_t s = 0; s < spatial; ++s)
          oOffset += o[s] * oStrides[a.outputSpatialDimensions[s]];
        result[oOffset] = Traits::store(static_cast<C>(acc));
      }
  } while (nextIndex(o, outSpatial));
  return out;
}

} // namespace

Literal evalConvolution(const Literal &lhs, const Literal &rhs, const ConvolutionAttrs &attrs,
                        const TensorType &resultType) {
  if (lhs.elementType() != resultType.elementType) // a wider result: the operands widen first
    return evalConvolution(evalConvert(lhs, resultType.elementType),
                           evalConvert(rhs, resultType.elementType), attrs, resultType);
  return dispatchElementType(lhs.elementType(), [&](auto traits) -> Literal {
    using Traits = decltype(traits);
    if constexpr (isBoolTraits<Traits>)
      unsupported("convolution is not defined on i1 (the type rule refuses it)");
    else
      return convolve<Traits>(lhs, rhs, attrs, resultType);
  });
}

} // namespace shardgen::interp
