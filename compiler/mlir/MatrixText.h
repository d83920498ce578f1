#pragma once
// Writes the StableHLO text of a function over a batch of matrices (the
// leading dims a batch, the last two rows and columns), as the LAPACK
// expansions (LapackCalls.h) write their loops: each helper emits one
// op, its types spelled out from the element type and the shape it is given.

#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/TensorType.h"

namespace shardgen::mlir {

class MatrixText {
public:
  /// Matrices of `element`, batch dims `batch`.
  MatrixText(ElementType element, Shape batch);

  ElementType element() const { return element_; }
  /// The element type of magnitudes: a complex type's part, else itself.
  ElementType real() const;
  int64_t rank() const { return static_cast<int64_t>(batch_.size()) + 2; }
  const Shape &batch() const { return batch_; }
  /// The batch dims, then `rows` x `columns`.
  Shape matrix(int64_t rows, int64_t columns) const;
  /// The batch dims, then `dim`.
  Shape vector(int64_t dim) const;
  static std::string type(ElementType element, const Shape &shape);
  /// A matrix of the element type.
  std::string type(const Shape &shape) const { return type(element_, shape); }

  /// The text so far.
  const std::string &text() const { return text_; }
  void emit(const std::string &line) { text_ += indent_ + line + "\n"; }

  /// `%name = stablehlo.constant dense<body> : type`.
  void constant(const std::string &name, const std::string &body, const std::string &type);
  /// 0, 1 and -0 of the element type, as dense<> bodies.
  std::string zero() const;
  std::string one() const;
  std::string negativeZero() const;
  void unary(const std::string &name, const char *op, const std::string &x,
             const std::string &type);
  void binary(const std::string &name, const char *op, const std::string &a, const std::string &b,
              const std::string &type);
  /// `%name = compare direction a, b` of `operand` type; the result of `shape`.
  void compare(const std::string &name, const char *direction, const std::string &a,
               const std::string &b, const std::string &operand, const Shape &shape);
  void select(const std::string &name, const std::string &pred, const std::string &onTrue,
              const std::string &onFalse, const Shape &shape, const std::string &valueType);
  void broadcast(const std::string &name, const std::string &x, const std::string &from,
                 const std::vector<int64_t> &dims, const std::string &to);
  /// `dims` of a broadcast from the batch and one more dim onto matrices:
  /// that dim becomes the last (a row), or the one before it (a column).
  std::vector<int64_t> batchAnd(int64_t dim) const;
  void convert(const std::string &name, const std::string &x, const std::string &from,
               const std::string &to);
  void reshape(const std::string &name, const std::string &x, const std::string &from,
               const std::string &to);
  /// `%name = dynamic_slice x` (matrices of `from`) at (batch 0s, row,
  /// column), `rows` x `columns`; `%zero` must name an i64 0.
  void slice(const std::string &name, const std::string &x, const Shape &from,
             const std::string &row, const std::string &column, int64_t rows, int64_t columns);
  /// `%name = dynamic_update_slice x` (matrices of `into`) with `update` of
  /// `updateShape` at (batch 0s, row, column).
  void update(const std::string &name, const std::string &x, const std::string &into,
              const std::string &update, const std::string &updateType, const std::string &row,
              const std::string &column);
  /// `%name`: `size` elements of the vectors `x` (the batch, then `length`)
  /// from [.., index].
  void sliceVector(const std::string &name, const std::string &x, ElementType element,
                   int64_t length, const std::string &index, int64_t size);
  /// `%name`: the vectors `x` (the batch, then `length`) with `update`
  /// (the batch, then `size`) at [.., index].
  void updateVector(const std::string &name, const std::string &x, ElementType element,
                    int64_t length, const std::string &update, int64_t size,
                    const std::string &index);
  /// `%name`: `x` (of `from`, the element type's, or `element`'s) with
  /// zeros after its end in every dim up to `to`.
  void padWithZeros(const std::string &name, const std::string &x, const Shape &from,
                    const Shape &to) {
    padWithZeros(name, x, element_, from, to);
  }
  void padWithZeros(const std::string &name, const std::string &x, ElementType element,
                    const Shape &from, const Shape &to);
  /// `%name`: the square matrices `x` (of `from`) padded as
  /// padWithZeros to the square `to`, but with ones on the padded part of
  /// the diagonal: a factorization or solve of the padded matrix leaves its
  /// padded rows apart. `rows` and `columns` name the iotas over `to` it
  /// emits, for the caller's later masks.
  void padWithIdentity(const std::string &name, const std::string &x, const Shape &from,
                       const Shape &to, const std::string &rows, const std::string &columns);
  /// `%name`: the `to`-sized corner of `x` (of `from`) at its origin.
  void sliceCorner(const std::string &name, const std::string &x, const Shape &from,
                   const Shape &to);
  /// `%name`: `x` (of `element`, `from`) from `start` to `limit` along
  /// `dim`.
  void sliceAlong(const std::string &name, const std::string &x, ElementType element,
                  const Shape &from, int64_t dim, int64_t start, int64_t limit);
  /// `%name`: `parts` (names and shapes, of `element`) one after the other
  /// along `dim`.
  void concatenate(const std::string &name, const std::vector<std::pair<std::string, Shape>> &parts,
                   ElementType element, int64_t dim);
  /// `%name`: `x` reduced by `op` over its dims `dims`, from `init`.
  void reduceDims(const std::string &name, const std::string &x, const std::string &init,
                  const char *op, ElementType element, const Shape &from,
                  const std::vector<int64_t> &dims);
  /// `%name`: the halves `first` (places 0 .. k-1 along `dim`) and
  /// `second` (k .. 2k-1), both of `halfShape`, one after the other in a
  /// round-robin tournament's next order, whose pairs are (i, k + i): the
  /// first place fixed, the others one place round the circle 1 .. k-1,
  /// 2k-1 .. k, i.e. [0, k, 1 .. k-2 | k+1 .. 2k-1, k-1]. The Jacobi
  /// decompositions' rounds: over 2k - 1 of them every pair meets once.
  void roundRobinNext(const std::string &name, const std::string &first, const std::string &second,
                      ElementType element, const Shape &halfShape, int64_t dim);
  /// The same order's two halves, apart (for a caller that carries them
  /// so): the names of the next first and second halves, `%name` + "first"
  /// and "second" (or `first` and `second` themselves for one pair).
  std::pair<std::string, std::string>
  roundRobinNextHalves(const std::string &name, const std::string &first, const std::string &second,
                       ElementType element, const Shape &halfShape, int64_t dim);
  /// `%name`: matrices of `shape` with ones on the diagonal, else zeros;
  /// `%name` + "row" and "col" its iotas.
  void identity(const std::string &name, const Shape &shape);
  /// `%name = reduce(x init: init) applies op` over the rows of `from`.
  void reduceRows(const std::string &name, const std::string &x, const std::string &init,
                  const char *op, ElementType element, const Shape &from);
  /// `%name = iota` along the rows (dim = rank - 2) or the columns.
  void iota(const std::string &name, bool rows, const Shape &shape);
  /// The product of `a` (r x t) and `b` (t x c) per batch.
  void product(const std::string &name, const std::string &a, const Shape &aShape,
               const std::string &b, const Shape &bShape);
  /// The conjugate of `x` (complex) of `shape`.
  void conjugate(const std::string &name, const std::string &x, const Shape &shape);
  /// The transpose of matrices of `shape` (their last two dims swapped).
  void transpose(const std::string &name, const std::string &x, const Shape &shape);
  /// The conjugate transpose of matrices of `shape` (the transpose on reals).
  void adjoint(const std::string &name, const std::string &x, const Shape &shape);
  /// |re| + |im| (LAPACK's cabs1) of complex `x`, |x| of a real one.
  void magnitude(const std::string &name, const std::string &x, const Shape &shape);
  /// `x` times the real `factor` of the same shape (or `op` it, "divide"),
  /// part by part on complex.
  void scaleByReal(const std::string &name, const std::string &x, const std::string &factor,
                   const Shape &shape, const char *op = "multiply");

  /// The masks of a factorization's step over a panel of `s` (`%prow` and
  /// `%pcol` its row and column iotas), at matrix row `row` and panel
  /// column `column`: `%rowat`, `%rowgt`, `%colat`, `%colgt`, and of those
  /// `%below` (column's rows below row), `%diag` and `%trailing` (the
  /// block below and right of it); `%rowS` and `%colS` the two broadcast.
  void panelMasks(const Shape &s, const std::string &row, const std::string &column);

  /// Opens `%<loop>:N = stablehlo.while(%<counter> = %zero, carried...)`
  /// while counter < `limit` (an i64 value), up to its `do {` (indented one
  /// more step).
  void loopHead(const std::string &loop, const std::string &counter,
                const std::vector<std::vector<std::string>> &carried, const std::string &limit);
  /// The same, also ending once the carried tensor<i1> `done` is true.
  void loopHeadUntil(const std::string &loop, const std::string &counter,
                     const std::vector<std::vector<std::string>> &carried, const std::string &limit,
                     const std::string &done);
  /// Closes the loop body: `stablehlo.return` of `values` of `types`.
  void loopEnd(const std::vector<std::string> &values, const std::vector<std::string> &types);

private:
  /// roundRobinNext's pieces (sliced from `first` and `second` under names
  /// of `name`; the one of k - 2 places may be empty, and then not
  /// sliced), in the next order, for k > 1.
  std::vector<std::pair<std::string, Shape>>
  roundRobinPieces(const std::string &name, const std::string &first, const std::string &second,
                   ElementType element, const Shape &halfShape, int64_t dim);
  /// ", tensor<i64>" `dims` times: dynamic slice start index types.
  std::string indexTypes(int64_t dims) const;
  /// "%zero, " per batch dim.
  std::string batchStarts() const;

  ElementType element_;
  Shape batch_;
  std::string text_, indent_;
};

} // namespace shardgen::mlir
