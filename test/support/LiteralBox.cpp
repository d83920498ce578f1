#include "test/support/LiteralBox.h"

#include <cstring>

namespace shardgen::testing {

Literal extractBox(const Literal &source, const std::vector<int64_t> &offsets,
                   const std::vector<int64_t> &extents) {
  Literal box(TensorType{source.elementType(), extents});
  size_t width = elementByteWidth(source.elementType());
  std::vector<int64_t> sourceStrides = source.strides(), index(extents.size(), 0);
  for (int64_t i = 0; i < box.numElements(); ++i) {
    int64_t from = 0;
    for (size_t d = 0; d < extents.size(); ++d)
      from += (offsets[d] + index[d]) * sourceStrides[d];
    std::memcpy(box.data() + i * width, source.data() + from * width, width);
    for (size_t d = extents.size(); d-- > 0;) {
      if (++index[d] < extents[d])
        break;
      index[d] = 0;
    }
  }
  return box;
}

void insertBox(Literal &target, const Literal &box, const std::vector<int64_t> &offsets) {
  size_t width = elementByteWidth(target.elementType());
  std::vector<int64_t> targetStrides = target.strides(), index(box.shape().size(), 0);
  for (int64_t i = 0; i < box.numElements(); ++i) {
    int64_t to = 0;
    for (size_t d = 0; d < index.size(); ++d)
      to += (offsets[d] + index[d]) * targetStrides[d];
    std::memcpy(target.data() + to * width, box.data() + i * width, width);
    for (size_t d = index.size(); d-- > 0;) {
      if (++index[d] < box.shape()[d])
        break;
      index[d] = 0;
    }
  }
}

} // namespace shardgen::testing
