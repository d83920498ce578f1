#include "compiler/interp/StridedLoop.h"

#include <cstring>

namespace shardgen::interp {

std::vector<int64_t> denseStrides(const Shape &shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  return strides;
}

template <typename Word>
static void copyWords(const Shape &shape, const std::byte *source, const StridedView &sourceView,
                      std::byte *destination, const StridedView &destinationView) {
  const Word *from = reinterpret_cast<const Word *>(source);
  Word *to = reinterpret_cast<Word *>(destination);
  forEachOffsetPair(shape, sourceView, destinationView,
                    [&](int64_t s, int64_t d) { to[d] = from[s]; });
}

void stridedCopy(const Shape &shape, size_t width, const std::byte *source,
                 const StridedView &sourceView, std::byte *destination,
                 const StridedView &destinationView) {
  switch (width) {
  case 0: // a token's: no bytes (and its data may be null)
    return;
  case 1:
    return copyWords<uint8_t>(shape, source, sourceView, destination, destinationView);
  case 2:
    return copyWords<uint16_t>(shape, source, sourceView, destination, destinationView);
  case 4:
    return copyWords<uint32_t>(shape, source, sourceView, destination, destinationView);
  case 8:
    return copyWords<uint64_t>(shape, source, sourceView, destination, destinationView);
  default:
    forEachOffsetPair(shape, sourceView, destinationView, [&](int64_t s, int64_t d) {
      std::memcpy(destination + d * width, source + s * width, width);
    });
  }
}

} // namespace shardgen::interp
