// dot_general as a batched matrix product: both operands are first packed
// into dense [batch, free, contracting] / [batch, contracting, free] buffers
// of the accumulator type (the compute type for floats: f32 for
// f32/f16/bf16, as XLA's CPU backend; wrapping uint64_t for integers), then
// multiplied with the contiguous dimension innermost.

#include <algorithm>
#include <type_traits>

#include "compiler/interp/ElementMath.h"
#include "compiler/interp/ElementTraits.h"
#include "compiler/interp/Kernels.h"
#include "compiler/interp/StridedLoop.h"

namespace shardgen::interp {
namespace {

int64_t product(const Shape &shape, const std::vector<int64_t> &dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= shape[d];
  return n;
}

/// The operand's elements in the order of `dims` (a permutation of its
/// dimensions), converted to the accumulator type.
template <typename Traits, typename Acc>
std::vector<Acc> pack(const Literal &operand, const std::vector<int64_t> &dims) {
  using S = typename Traits::Storage;
  const std::vector<int64_t> strides = denseStrides(operand.shape());
  Shape shape;
  StridedView source;
  for (int64_t d : dims) {
    shape.push_back(operand.shape()[d]);
    source.strides.push_back(strides[d]);
  }
  std::vector<Acc> packed(operand.numElements());
  const S *in = operand.as<S>();
  forEachOffsetPair(shape, source, StridedView{0, denseStrides(shape)}, [&](int64_t s, int64_t d) {
    // Sign extension into an unsigned accumulator is meant: integer dots wrap.
    packed[d] = static_cast<Acc>(Traits::load(in[s])); // NOLINT(bugprone-signed-char-misuse)
  });
  return packed;
}

std::vector<int64_t> concat(std::vector<int64_t> a, const std::vector<int64_t> &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

template <typename Traits>
Literal dot(const Literal &lhs, const Literal &rhs, const DotGeneralAttrs &attrs) {
  using Acc = std::conditional_t<isFloatTraits<Traits> || isComplexTraits<Traits>,
                                 typename Traits::Compute, uint64_t>;
  using S = typename Traits::Storage;
  using C = typename Traits::Compute;
  const std::vector<int64_t> lhsFree = dotGeneralFreeDims(
      lhs.type().rank(), attrs.lhsBatchingDimensions, attrs.lhsContractingDimensions);
  const std::vector<int64_t> rhsFree = dotGeneralFreeDims(
      rhs.type().rank(), attrs.rhsBatchingDimensions, attrs.rhsContractingDimensions);
  const int64_t batch = product(lhs.shape(), attrs.lhsBatchingDimensions);
  const int64_t rows = product(lhs.shape(), lhsFree);
  const int64_t depth = product(lhs.shape(), attrs.lhsContractingDimensions);
  const int64_t columns = product(rhs.shape(), rhsFree);

  const std::vector<Acc> a = pack<Traits, Acc>(
      lhs, concat(concat(attrs.lhsBatchingDimensions, lhsFree), attrs.lhsContractingDimensions));
  const std::vector<Acc> b = pack<Traits, Acc>(
      rhs, concat(concat(attrs.rhsBatchingDimensions, attrs.rhsContractingDimensions), rhsFree));

  std::vector<Acc> c(batch * rows * columns, Acc(0));
  for (int64_t p = 0; p < batch; ++p)
    for (int64_t i = 0; i < rows; ++i) {
      // Pointer arithmetic, not &v[i]: a zero-size free dim leaves c or b empty.
      Acc *cRow = c.data() + (p * rows + i) * columns;
      for (int64_t k = 0; k < depth; ++k) {
        const Acc aik = a[(p * rows + i) * depth + k];
        const Acc *bRow = b.data() + (p * depth + k) * columns;
        for (int64_t j = 0; j < columns; ++j)
          cRow[j] = math::add(cRow[j], math::multiply(aik, bRow[j])); // uint64_t wraps
      }
    }

  Shape shape;
  for (int64_t d : attrs.lhsBatchingDimensions)
    shape.push_back(lhs.shape()[d]);
  for (int64_t d : lhsFree)
    shape.push_back(lhs.shape()[d]);
  for (int64_t d : rhsFree)
    shape.push_back(rhs.shape()[d]);
  Literal out(TensorType{lhs.elementType(), shape});
  S *result = out.as<S>();
  for (size_t i = 0; i < c.size(); ++i) {
    if constexpr (isBoolTraits<Traits>)
      result[i] = c[i] != 0; // a sum of ANDs is their OR, however many
    else
      result[i] = Traits::store(static_cast<C>(c[i]));
  }
  return out;
}

} // namespace

Literal evalDotGeneral(const Literal &lhs, const Literal &rhs, const DotGeneralAttrs &attrs) {
  return dispatchElementType(lhs.elementType(),
                             [&](auto traits) { return dot<decltype(traits)>(lhs, rhs, attrs); });
}

} // namespace shardgen::interp
