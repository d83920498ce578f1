#include "compiler/codegen/StridedWalk.h"

#include "compiler/codegen/CodeWriter.h"

namespace shardgen::codegen {

bool StridedWalk::empty() const {
  for (int64_t e : extents)
    if (e == 0)
      return true;
  return false;
}

int64_t StridedWalk::numElements() const { return product(extents); }

StridedWalk StridedWalk::simplified() const {
  StridedWalk out;
  out.inOffset = inOffset;
  out.outOffset = outOffset;
  for (size_t d = 0; d < extents.size(); ++d) {
    if (extents[d] == 1)
      continue;
    if (!out.extents.empty()) {
      // Merge into the previous (outer) dim when it steps exactly over this one.
      size_t last = out.extents.size() - 1;
      if (out.inStrides[last] == inStrides[d] * extents[d] &&
          out.outStrides[last] == outStrides[d] * extents[d]) {
        out.extents[last] *= extents[d];
        out.inStrides[last] = inStrides[d];
        out.outStrides[last] = outStrides[d];
        continue;
      }
    }
    out.extents.push_back(extents[d]);
    out.inStrides.push_back(inStrides[d]);
    out.outStrides.push_back(outStrides[d]);
  }
  if (out.extents.empty()) {
    out.extents = {1};
    out.inStrides = {1};
    out.outStrides = {1};
  }
  return out;
}

std::string StridedWalk::print() const {
  return "Walk<" + std::to_string(extents.size()) + ">{{" + joinInts(extents) + "}, {" +
         joinInts(inStrides) + "}, {" + joinInts(outStrides) + "}, " + std::to_string(inOffset) +
         ", " + std::to_string(outOffset) + "}";
}

std::vector<int64_t> denseStrides(const Shape &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

int64_t product(const std::vector<int64_t> &values) {
  int64_t p = 1;
  for (int64_t v : values)
    p *= v;
  return p;
}

StridedWalk boxCopy(const Shape &sourceShape, const std::vector<int64_t> &from,
                    const Shape &destShape, const std::vector<int64_t> &to,
                    const std::vector<int64_t> &extents) {
  StridedWalk walk;
  walk.extents = extents;
  walk.inStrides = denseStrides(sourceShape);
  walk.outStrides = denseStrides(destShape);
  for (size_t d = 0; d < extents.size(); ++d) {
    walk.inOffset += from[d] * walk.inStrides[d];
    walk.outOffset += to[d] * walk.outStrides[d];
  }
  return walk;
}

std::string stridedCopyCall(const StridedWalk &walk, std::string_view word,
                            const std::string &source, const std::string &dest,
                            const std::string &inShift, const std::string &outShift) {
  if (walk.empty())
    return "";
  StridedWalk simple = walk.simplified();
  std::string w(word);
  auto plus = [](const std::string &shift) { return shift.empty() ? "" : " + " + shift; };
  // A whole contiguous block is a memcpy.
  if (simple.extents.size() == 1 && simple.inStrides[0] == 1 && simple.outStrides[0] == 1)
    return "copy<" + w + ", " + std::to_string(simple.extents[0]) + ">(as<" + w + ">(" + source +
           ") + " + std::to_string(simple.inOffset) + plus(inShift) + ", as<" + w + ">(" + dest +
           ") + " + std::to_string(simple.outOffset) + plus(outShift) + ");";
  const std::string head =
      std::to_string(simple.extents.size()) + ", " + simple.print() + ">(as<" + w + ">(" + source;
  if (inShift.empty() && outShift.empty())
    return "stridedCopy<" + w + ", " + head + "), as<" + w + ">(" + dest + "));";
  return "shiftedCopy<" + w + ", " + head + "), " + (inShift.empty() ? "0" : inShift) + ", as<" +
         w + ">(" + dest + "), " + (outShift.empty() ? "0" : outShift) + ");";
}

} // namespace shardgen::codegen
