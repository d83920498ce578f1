#include "compiler/mlir/MatrixText.h"

#include <algorithm>

#include "compiler/mlir/FunctionExpansion.h"
#include "compiler/mlir/MlirParser.h"

namespace shardgen::mlir {

MatrixText::MatrixText(ElementType element, Shape batch)
    : element_(element), batch_(std::move(batch)), indent_("  ") {}

ElementType MatrixText::real() const {
  return isComplex(element_) ? complexPartType(element_) : element_;
}

Shape MatrixText::matrix(int64_t rows, int64_t columns) const {
  Shape shape = batch_;
  shape.insert(shape.end(), {rows, columns});
  return shape;
}

Shape MatrixText::vector(int64_t dim) const {
  Shape shape = batch_;
  shape.push_back(dim);
  return shape;
}

std::string MatrixText::type(ElementType element, const Shape &shape) {
  return printType(TensorType{element, shape});
}

void MatrixText::constant(const std::string &name, const std::string &body,
                          const std::string &type) {
  emit(name + " = stablehlo.constant dense<" + body + "> : " + type);
}

std::string MatrixText::zero() const { return zeroOf(element_); }
std::string MatrixText::one() const { return isComplex(element_) ? "(1.0, 0.0)" : "1.0"; }
std::string MatrixText::negativeZero() const {
  return isComplex(element_) ? "(-0.0, -0.0)" : "-0.0";
}

void MatrixText::unary(const std::string &name, const char *op, const std::string &x,
                       const std::string &type) {
  emit(name + " = stablehlo." + op + " " + x + " : " + type);
}

void MatrixText::binary(const std::string &name, const char *op, const std::string &a,
                        const std::string &b, const std::string &type) {
  emit(name + " = stablehlo." + op + " " + a + ", " + b + " : " + type);
}

void MatrixText::compare(const std::string &name, const char *direction, const std::string &a,
                         const std::string &b, const std::string &operand, const Shape &shape) {
  emit(name + " = stablehlo.compare " + direction + ", " + a + ", " + b + " : (" + operand + ", " +
       operand + ") -> " + type(ElementType::I1, shape));
}

void MatrixText::select(const std::string &name, const std::string &pred, const std::string &onTrue,
                        const std::string &onFalse, const Shape &shape,
                        const std::string &valueType) {
  emit(name + " = stablehlo.select " + pred + ", " + onTrue + ", " + onFalse + " : " +
       type(ElementType::I1, shape) + ", " + valueType);
}

void MatrixText::broadcast(const std::string &name, const std::string &x, const std::string &from,
                           const std::vector<int64_t> &dims, const std::string &to) {
  emit(name + " = stablehlo.broadcast_in_dim " + x + ", dims = " + integerList(dims) + " : (" +
       from + ") -> " + to);
}

std::vector<int64_t> MatrixText::batchAnd(int64_t dim) const {
  std::vector<int64_t> dims = upTo(rank() - 2);
  dims.push_back(dim);
  return dims;
}

void MatrixText::convert(const std::string &name, const std::string &x, const std::string &from,
                         const std::string &to) {
  emit(name + " = stablehlo.convert " + x + " : (" + from + ") -> " + to);
}

void MatrixText::reshape(const std::string &name, const std::string &x, const std::string &from,
                         const std::string &to) {
  emit(name + " = stablehlo.reshape " + x + " : (" + from + ") -> " + to);
}

std::string MatrixText::indexTypes(int64_t dims) const {
  std::string types;
  for (int64_t d = 0; d < dims; ++d)
    types += ", tensor<i64>";
  return types;
}

std::string MatrixText::batchStarts() const {
  std::string starts;
  for (size_t d = 0; d < batch_.size(); ++d)
    starts += "%zero, ";
  return starts;
}

void MatrixText::slice(const std::string &name, const std::string &x, const Shape &from,
                       const std::string &row, const std::string &column, int64_t rows,
                       int64_t columns) {
  emit(name + " = stablehlo.dynamic_slice " + x + ", " + batchStarts() + row + ", " + column +
       ", sizes = " + integerList(matrix(rows, columns)) + " : (" + type(from) +
       indexTypes(rank()) + ") -> " + type(matrix(rows, columns)));
}

void MatrixText::update(const std::string &name, const std::string &x, const std::string &into,
                        const std::string &update, const std::string &updateType,
                        const std::string &row, const std::string &column) {
  emit(name + " = stablehlo.dynamic_update_slice " + x + ", " + update + ", " + batchStarts() +
       row + ", " + column + " : (" + into + ", " + updateType + indexTypes(rank()) + ") -> " +
       into);
}

void MatrixText::sliceVector(const std::string &name, const std::string &x, ElementType element,
                             int64_t length, const std::string &index, int64_t size) {
  emit(name + " = stablehlo.dynamic_slice " + x + ", " + batchStarts() + index +
       ", sizes = " + integerList(vector(size)) + " : (" + type(element, vector(length)) +
       indexTypes(rank() - 1) + ") -> " + type(element, vector(size)));
}

void MatrixText::updateVector(const std::string &name, const std::string &x, ElementType element,
                              int64_t length, const std::string &update, int64_t size,
                              const std::string &index) {
  emit(name + " = stablehlo.dynamic_update_slice " + x + ", " + update + ", " + batchStarts() +
       index + " : (" + type(element, vector(length)) + ", " + type(element, vector(size)) +
       indexTypes(rank() - 1) + ") -> " + type(element, vector(length)));
}

void MatrixText::padWithZeros(const std::string &name, const std::string &x, ElementType element,
                              const Shape &from, const Shape &to) {
  std::vector<int64_t> low(from.size(), 0), high(low);
  for (size_t d = 0; d < from.size(); ++d)
    high[d] = to[d] - from[d];
  const std::string scalar = type(element, {});
  constant(name + "zero", zeroOf(element), scalar);
  emit(name + " = stablehlo.pad " + x + ", " + name + "zero, low = " + integerList(low) +
       ", high = " + integerList(high) + ", interior = " + integerList(low) + " : (" +
       type(element, from) + ", " + scalar + ") -> " + type(element, to));
}

void MatrixText::padWithIdentity(const std::string &name, const std::string &x, const Shape &from,
                                 const Shape &to, const std::string &rows,
                                 const std::string &columns) {
  const std::string index = type(ElementType::I64, to), mask = type(ElementType::I1, to);
  padWithZeros(name + "0", x, from, to);
  iota(rows, true, to);
  iota(columns, false, to);
  constant(name + "n", std::to_string(from[from.size() - 1]), index);
  compare(name + "diag", "EQ", rows, columns, index, to);
  compare(name + "beyond", "GE", rows, name + "n", index, to);
  binary(name + "mask", "and", name + "diag", name + "beyond", mask);
  constant(name + "ones", one(), type(to));
  select(name, name + "mask", name + "ones", name + "0", to, type(to));
}

void MatrixText::sliceCorner(const std::string &name, const std::string &x, const Shape &from,
                             const Shape &to) {
  std::string bounds;
  for (size_t d = 0; d < to.size(); ++d)
    bounds += (d ? ", " : "") + std::string("0:") + std::to_string(to[d]);
  emit(name + " = stablehlo.slice " + x + " [" + bounds + "] : (" + type(from) + ") -> " +
       type(to));
}

void MatrixText::sliceAlong(const std::string &name, const std::string &x, ElementType element,
                            const Shape &from, int64_t dim, int64_t start, int64_t limit) {
  Shape to = from;
  to[static_cast<size_t>(dim)] = limit - start;
  std::string bounds;
  for (size_t d = 0; d < from.size(); ++d)
    bounds += (d ? ", " : "") + (static_cast<int64_t>(d) == dim
                                     ? std::to_string(start) + ":" + std::to_string(limit)
                                     : "0:" + std::to_string(from[d]));
  emit(name + " = stablehlo.slice " + x + " [" + bounds + "] : (" + type(element, from) + ") -> " +
       type(element, to));
}

void MatrixText::concatenate(const std::string &name,
                             const std::vector<std::pair<std::string, Shape>> &parts,
                             ElementType element, int64_t dim) {
  std::string names, types;
  Shape to = parts[0].second;
  to[static_cast<size_t>(dim)] = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    names += (i ? ", " : "") + parts[i].first;
    types += (i ? ", " : "") + type(element, parts[i].second);
    to[static_cast<size_t>(dim)] += parts[i].second[static_cast<size_t>(dim)];
  }
  emit(name + " = stablehlo.concatenate " + names + ", dim = " + std::to_string(dim) + " : (" +
       types + ") -> " + type(element, to));
}

void MatrixText::reduceDims(const std::string &name, const std::string &x, const std::string &init,
                            const char *op, ElementType element, const Shape &from,
                            const std::vector<int64_t> &dims) {
  Shape to;
  for (size_t d = 0; d < from.size(); ++d)
    if (std::find(dims.begin(), dims.end(), static_cast<int64_t>(d)) == dims.end())
      to.push_back(from[d]);
  emit(name + " = stablehlo.reduce(" + x + " init: " + init + ") applies stablehlo." + op +
       " across dimensions = " + integerList(dims) + " : (" + type(element, from) + ", " +
       type(element, {}) + ") -> " + type(element, to));
}

std::vector<std::pair<std::string, Shape>>
MatrixText::roundRobinPieces(const std::string &name, const std::string &first,
                             const std::string &second, ElementType element, const Shape &halfShape,
                             int64_t dim) {
  const int64_t k = halfShape[static_cast<size_t>(dim)];
  struct Piece {
    const std::string &from;
    int64_t start, limit;
  };
  const Piece pieces[] = {
      {first, 0, 1}, {second, 0, 1}, {first, 1, k - 1}, {second, 1, k}, {first, k - 1, k}};
  std::vector<std::pair<std::string, Shape>> parts;
  for (size_t i = 0; i < std::size(pieces); ++i) {
    Shape partShape = halfShape;
    partShape[static_cast<size_t>(dim)] = pieces[i].limit - pieces[i].start;
    const std::string part = name + "p" + std::to_string(i);
    if (pieces[i].start < pieces[i].limit)
      sliceAlong(part, pieces[i].from, element, halfShape, dim, pieces[i].start, pieces[i].limit);
    parts.emplace_back(part, partShape);
  }
  return parts;
}

void MatrixText::roundRobinNext(const std::string &name, const std::string &first,
                                const std::string &second, ElementType element,
                                const Shape &halfShape, int64_t dim) {
  if (halfShape[static_cast<size_t>(dim)] == 1) { // one pair: nothing moves
    concatenate(name, {{first, halfShape}, {second, halfShape}}, element, dim);
    return;
  }
  std::vector<std::pair<std::string, Shape>> parts;
  for (auto &part : roundRobinPieces(name, first, second, element, halfShape, dim))
    if (part.second[static_cast<size_t>(dim)] > 0)
      parts.push_back(std::move(part));
  concatenate(name, parts, element, dim);
}

std::pair<std::string, std::string>
MatrixText::roundRobinNextHalves(const std::string &name, const std::string &first,
                                 const std::string &second, ElementType element,
                                 const Shape &halfShape, int64_t dim) {
  if (halfShape[static_cast<size_t>(dim)] == 1) // one pair: nothing moves
    return {first, second};
  // Pieces 0-2 make the first half, 3-4 the second.
  std::vector<std::pair<std::string, Shape>> parts =
      roundRobinPieces(name, first, second, element, halfShape, dim);
  std::vector<std::pair<std::string, Shape>> halves[2];
  for (size_t i = 0; i < parts.size(); ++i)
    if (parts[i].second[static_cast<size_t>(dim)] > 0)
      halves[i < 3 ? 0 : 1].push_back(parts[i]);
  concatenate(name + "first", halves[0], element, dim);
  concatenate(name + "second", halves[1], element, dim);
  return {name + "first", name + "second"};
}

void MatrixText::identity(const std::string &name, const Shape &shape) {
  const std::string index = type(ElementType::I64, shape), matrices = type(shape);
  iota(name + "row", true, shape);
  iota(name + "col", false, shape);
  compare(name + "diagonal", "EQ", name + "row", name + "col", index, shape);
  constant(name + "ones", one(), matrices);
  constant(name + "zeros", zero(), matrices);
  select(name, name + "diagonal", name + "ones", name + "zeros", shape, matrices);
}

void MatrixText::reduceRows(const std::string &name, const std::string &x, const std::string &init,
                            const char *op, ElementType element, const Shape &from) {
  reduceDims(name, x, init, op, element, from, {rank() - 2});
}

void MatrixText::iota(const std::string &name, bool rows, const Shape &shape) {
  emit(name + " = stablehlo.iota dim = " + std::to_string(rank() - (rows ? 2 : 1)) + " : " +
       type(ElementType::I64, shape));
}

void MatrixText::product(const std::string &name, const std::string &a, const Shape &aShape,
                         const std::string &b, const Shape &bShape) {
  const std::string batch = integerList(upTo(rank() - 2));
  emit(name + " = stablehlo.dot_general " + a + ", " + b + ", " +
       (rank() > 2 ? "batching_dims = " + batch + " x " + batch + ", " : std::string()) +
       "contracting_dims = [" + std::to_string(rank() - 1) + "] x [" + std::to_string(rank() - 2) +
       "] : (" + type(aShape) + ", " + type(bShape) + ") -> " +
       type(matrix(aShape[rank() - 2], bShape[rank() - 1])));
}

void MatrixText::conjugate(const std::string &name, const std::string &x, const Shape &shape) {
  const std::string complexType = type(shape), realType = type(real(), shape);
  emit(name + "re = stablehlo.real " + x + " : (" + complexType + ") -> " + realType);
  emit(name + "im = stablehlo.imag " + x + " : (" + complexType + ") -> " + realType);
  unary(name + "neg", "negate", name + "im", realType);
  binary(name, "complex", name + "re", name + "neg", complexType);
}

void MatrixText::transpose(const std::string &name, const std::string &x, const Shape &shape) {
  std::vector<int64_t> dims = upTo(rank());
  std::swap(dims[rank() - 1], dims[rank() - 2]);
  Shape transposed = shape;
  std::swap(transposed[rank() - 1], transposed[rank() - 2]);
  emit(name + " = stablehlo.transpose " + x + ", dims = " + integerList(dims) + " : (" +
       type(shape) + ") -> " + type(transposed));
}

void MatrixText::adjoint(const std::string &name, const std::string &x, const Shape &shape) {
  if (!isComplex(element_)) {
    transpose(name, x, shape);
    return;
  }
  conjugate(name + "c", x, shape);
  transpose(name, name + "c", shape);
}

void MatrixText::magnitude(const std::string &name, const std::string &x, const Shape &shape) {
  const std::string realType = type(real(), shape);
  if (!isComplex(element_)) {
    unary(name, "abs", x, realType);
    return;
  }
  const std::string complexType = type(shape);
  emit(name + "re = stablehlo.real " + x + " : (" + complexType + ") -> " + realType);
  emit(name + "im = stablehlo.imag " + x + " : (" + complexType + ") -> " + realType);
  unary(name + "are", "abs", name + "re", realType);
  unary(name + "aim", "abs", name + "im", realType);
  binary(name, "add", name + "are", name + "aim", realType);
}

void MatrixText::scaleByReal(const std::string &name, const std::string &x,
                             const std::string &factor, const Shape &shape, const char *op) {
  const std::string realType = type(real(), shape), xType = type(shape);
  if (!isComplex(element_)) {
    binary(name, op, x, factor, xType);
    return;
  }
  emit(name + "re = stablehlo.real " + x + " : (" + xType + ") -> " + realType);
  emit(name + "im = stablehlo.imag " + x + " : (" + xType + ") -> " + realType);
  binary(name + "re2", op, name + "re", factor, realType);
  binary(name + "im2", op, name + "im", factor, realType);
  binary(name, "complex", name + "re2", name + "im2", xType);
}

void MatrixText::panelMasks(const Shape &s, const std::string &row, const std::string &column) {
  const std::string index = type(ElementType::I64, s), mask = type(ElementType::I1, s);
  broadcast("%rowS", row, "tensor<i64>", {}, index);
  broadcast("%colS", column, "tensor<i64>", {}, index);
  compare("%rowat", "EQ", "%prow", "%rowS", index, s);
  compare("%rowgt", "GT", "%prow", "%rowS", index, s);
  compare("%colat", "EQ", "%pcol", "%colS", index, s);
  compare("%colgt", "GT", "%pcol", "%colS", index, s);
  binary("%below", "and", "%rowgt", "%colat", mask);
  binary("%diag", "and", "%rowat", "%colat", mask);
  binary("%trailing", "and", "%rowgt", "%colgt", mask);
}

void MatrixText::loopHead(const std::string &loop, const std::string &counter,
                          const std::vector<std::vector<std::string>> &carried,
                          const std::string &limit) {
  loopHeadUntil(loop, counter, carried, limit, "");
}

void MatrixText::loopHeadUntil(const std::string &loop, const std::string &counter,
                               const std::vector<std::vector<std::string>> &carried,
                               const std::string &limit, const std::string &done) {
  std::string head = loop + ":" + std::to_string(carried.size() + 1) + " = stablehlo.while(" +
                     counter + " = %zero";
  std::string types = "tensor<i64>";
  for (const std::vector<std::string> &value : carried) { // name, init, type
    head += ", " + value[0] + " = " + value[1];
    types += ", " + value[2];
  }
  emit(head + ") : " + types);
  emit("cond {");
  emit("  " + loop + "_more = stablehlo.compare LT, " + counter + ", " + limit +
       ", SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>");
  if (done.empty()) {
    emit("  stablehlo.return " + loop + "_more : tensor<i1>");
  } else {
    emit("  " + loop + "_open = stablehlo.not " + done + " : tensor<i1>");
    emit("  " + loop + "_go = stablehlo.and " + loop + "_more, " + loop + "_open : tensor<i1>");
    emit("  stablehlo.return " + loop + "_go : tensor<i1>");
  }
  emit("} do {");
  indent_ += "  ";
}

void MatrixText::loopEnd(const std::vector<std::string> &values,
                         const std::vector<std::string> &types) {
  std::string names, typeList;
  for (size_t i = 0; i < values.size(); ++i) {
    names += (i ? ", " : "") + values[i];
    typeList += (i ? ", " : "") + types[i];
  }
  emit("stablehlo.return " + names + " : " + typeList);
  indent_.resize(indent_.size() - 2);
  emit("}");
}

} // namespace shardgen::mlir
