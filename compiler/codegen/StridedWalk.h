#pragma once
// Strided walks (see templates/kernels/layout.h): built per op, simplified
// (unit dims dropped, contiguous dims merged) and printed as a kernel call.

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/TensorType.h"

namespace shardgen::codegen {

struct StridedWalk {
  std::vector<int64_t> extents, inStrides, outStrides;
  int64_t inOffset = 0, outOffset = 0;

  bool empty() const;
  int64_t numElements() const;
  /// Drops extent-1 dims and merges dims that are contiguous in both buffers.
  StridedWalk simplified() const;
  /// "Walk<R>{{...}, {...}, {...}, in, out}" (rank >= 1).
  std::string print() const;
};

/// Row-major strides (in elements) of a dense buffer of `shape`.
std::vector<int64_t> denseStrides(const Shape &shape);
int64_t product(const std::vector<int64_t> &values);

/// A box copy: the sub-box at `from` (relative to the source piece's start)
/// of extents `extents`, from a dense source of `sourceShape` into a dense
/// destination of `destShape` at `to`.
StridedWalk boxCopy(const Shape &sourceShape, const std::vector<int64_t> &from,
                    const Shape &destShape, const std::vector<int64_t> &to,
                    const std::vector<int64_t> &extents);

/// "stridedCopy<word, R, Walk>(source, dest);" (a contiguous walk: a
/// copy<>) or "" when the walk is empty. With shifts (C++ expressions read
/// at run time, e.g. a dynamic slice's clamped starts), the walk's offsets
/// move by them: "shiftedCopy<word, R, Walk>(source, inShift, dest, outShift);".
std::string stridedCopyCall(const StridedWalk &walk, std::string_view word,
                            const std::string &source, const std::string &dest,
                            const std::string &inShift = "", const std::string &outShift = "");

} // namespace shardgen::codegen
