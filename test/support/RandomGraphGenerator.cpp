#include "test/support/RandomGraphGenerator.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

namespace shardgen::testing {
namespace {

using Json = nlohmann::ordered_json;
using Shape = std::vector<int64_t>;

struct MeshAxisSpec {
  std::string name;
  int64_t size;
};

/// A value the generator can use, with what it knows of its contents.
struct GenValue {
  std::string name;
  Shape shape;
  double bound = 3;     // |element| <= bound
  bool integral = true; // every element an integer
  bool exact = true;    // computed identically sharded or not (safe to branch on)
  bool sharded = false; // carries a user sharding (inputs, annotated results)
};

std::string typeText(const Shape &shape, const std::string &element = "f32") {
  std::string text = "tensor<";
  for (int64_t d : shape)
    text += std::to_string(d) + "x";
  return text + element + ">";
}

int64_t product(const Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

class Generator {
public:
  Generator(uint64_t seed, const RandomGraphOptions &options) : random_(seed), options_(options) {}

  std::string run() {
    makeMesh();
    int numInputs = uniform(1, std::max(1, options_.maxInputs));
    for (int i = 0; i < numInputs; ++i)
      addInput(randomShape(uniform(1, 3)));
    int moves = uniform(3, std::max(3, options_.maxOps));
    for (int i = 0; i < moves; ++i)
      for (int attempt = 0; attempt < 8 && !randomMove(); ++attempt) {
      }
    for (int i = 0; i < options_.controlFlowMoves; ++i)
      for (int attempt = 0; attempt < 8 && !controlFlow(); ++attempt) {
      }
    return finish();
  }

private:
  // ---- randomness
  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(random_); }
  template <typename T> const T &pick(const std::vector<T> &items) {
    return items[static_cast<size_t>(uniform(0, static_cast<int>(items.size()) - 1))];
  }
  Shape randomShape(int rank) {
    Shape shape;
    for (int d = 0; d < rank; ++d)
      shape.push_back(uniform(1, 6));
    return shape;
  }
  std::string fresh(const std::string &prefix) { return prefix + std::to_string(counter_++); }

  // ---- mesh and shardings
  void makeMesh() {
    static const std::vector<std::vector<int64_t>> sizes = {
        {2}, {3}, {4}, {8}, {2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}, {2, 2, 2}, {1, 4}, {2, 1, 2}};
    std::vector<std::vector<int64_t>> allowed;
    for (const auto &s : sizes)
      if (product(s) <= options_.maxDevices)
        allowed.push_back(s);
    if (allowed.empty())
      allowed.push_back({1});
    const auto &chosen = pick(allowed);
    static const char *names[] = {"a", "b", "c"};
    Json axes = Json::array();
    for (size_t i = 0; i < chosen.size(); ++i) {
      axes_.push_back({names[i], chosen[i]});
      axes.push_back({{"name", names[i]}, {"size", chosen[i]}});
    }
    graph_["format"] = "shardgen-graph";
    graph_["version"] = 1;
    graph_["name"] = "random";
    graph_["meshes"] = Json::array({{{"name", "mesh"}, {"axes", axes}}});
  }

  int64_t axisSize(const std::string &name) const {
    for (const auto &axis : axes_)
      if (axis.name == name)
        return axis.size;
    return 1;
  }

  static std::string dimText(const std::vector<std::string> &axes, bool open) {
    std::string text = "{";
    for (size_t i = 0; i < axes.size(); ++i)
      text += (i ? ", " : "") + axes[i];
    if (open)
      text += axes.empty() ? "?" : ", ?";
    return text + "}";
  }

  /// A random sharding over the axes not in `excluded`. Closed unless `open`.
  std::string randomSharding(const Shape &shape, const std::set<std::string> &excluded = {},
                             bool allowOpen = false) {
    std::vector<std::string> available;
    for (const auto &axis : axes_)
      if (!excluded.count(axis.name))
        available.push_back(axis.name);
    std::shuffle(available.begin(), available.end(), random_);
    std::string text = "<@mesh, [";
    for (size_t d = 0; d < shape.size(); ++d) {
      std::vector<std::string> dimAxes;
      int64_t shards = 1;
      while (!available.empty() && chance(0.45)) {
        int64_t next = shards * axisSize(available.back());
        if (!options_.uneven && shape[d] % next != 0)
          break;
        shards = next;
        dimAxes.push_back(available.back());
        available.pop_back();
      }
      text += (d ? ", " : "") + dimText(dimAxes, allowOpen && options_.openDims && chance(0.2));
    }
    return text + "]>";
  }

  /// A random distribution on the mesh: chunks up to one past each dim
  /// (clipped edges), either device order.
  Json randomDistribution(const Shape &shape) {
    std::vector<int64_t> chunk;
    for (int64_t size : shape)
      chunk.push_back(uniform(1, static_cast<int>(size) + 1));
    return Json{{"mesh", "mesh"},
                {"shard_shape", chunk},
                {"order", chance(0.5) ? "col_major" : "row_major"}};
  }

  bool distributes() { return options_.distributions > 0 && chance(options_.distributions); }

  // ---- values and ops
  GenValue &addInput(const Shape &shape) {
    GenValue value{fresh("in"), shape};
    Json input = {{"name", value.name}, {"type", typeText(shape)}};
    if (distributes()) {
      input["distribution"] = randomDistribution(shape);
      value.sharded = true;
    } else if (options_.shardings && chance(0.8)) {
      input["sharding"] = randomSharding(shape, {}, true);
      value.sharded = true;
    }
    graph_["inputs"].push_back(input);
    pool_.push_back(value);
    return pool_.back();
  }

  /// Appends an op (to the current scope) defining `result`; maybe annotates it.
  GenValue &emit(Json op, GenValue result, bool annotate = true) {
    op["result"] = result.name;
    if (annotate && options_.shardings && chance(0.2)) {
      op["sharding"] = randomSharding(result.shape, manualAxesInScope_, true);
      result.sharded = true;
    }
    scope_->push_back(std::move(op));
    scopePool_->push_back(std::move(result));
    return scopePool_->back();
  }

  Json opJson(const std::string &name, const std::vector<std::string> &operands) {
    Json op = {{"op", name}};
    if (!operands.empty())
      op["operands"] = operands;
    return op;
  }

  GenValue constantSplat(const Shape &shape, double value) {
    Json op = opJson("constant", {});
    op["type"] = typeText(shape);
    op["value"] = value;
    GenValue result{fresh("c"), shape, std::fabs(value), std::floor(value) == value, true};
    return emit(op, result, false);
  }

  const GenValue &pickValue(const std::function<bool(const GenValue &)> &accept = nullptr) {
    std::vector<size_t> candidates;
    for (size_t i = 0; i < scopePool_->size(); ++i)
      if (!accept || accept((*scopePool_)[i]))
        candidates.push_back(i);
    if (candidates.empty())
      throw std::out_of_range("no candidate");
    // Prefer recent values: deeper DAGs.
    size_t a = pick(candidates), b = pick(candidates);
    return (*scopePool_)[std::max(a, b)];
  }

  static bool withinBounds(const GenValue &value) {
    return value.integral ? value.bound <= 1e6 : value.bound <= 64;
  }

  bool randomMove() {
    try {
      int kind = uniform(0, 25);
      switch (kind) {
      case 0:
      case 1:
        return unary();
      case 2:
      case 3:
        return binary();
      case 4:
      case 5:
        return dotGeneral();
      case 6:
        return transpose();
      case 7:
        return reshape();
      case 8:
        return broadcast();
      case 9:
        return reduce();
      case 10:
        return concatenate();
      case 11:
        return slice();
      case 12:
        return pad();
      case 13:
        return reverse();
      case 14:
        return iotaOrConstant();
      case 15:
        return compareSelect();
      case 16:
        return convertRoundTrip();
      case 17:
        return clamp();
      case 18:
        return options_.constraints && constraint();
      case 19:
        return options_.groups && group();
      case 20:
        return chance(0.5) ? dynamicSlice() : gatherOrScatter();
      case 21:
        return windowOp();
      case 22:
        return sort();
      case 23:
        return randomBits();
      default:
        return options_.manualComputations && manual();
      }
    } catch (const std::out_of_range &) {
      return false;
    }
  }

  bool unary() {
    const GenValue x = pickValue();
    static const std::vector<std::string> exactOps = {"negate", "abs"};
    static const std::vector<std::string> branchOps = {"floor", "ceil", "sign"};
    static const std::vector<std::string> smoothOps = {"tanh", "sine", "cosine", "logistic"};
    GenValue result{fresh("u"), x.shape, x.bound, x.integral, x.exact};
    std::string name;
    int choice = uniform(0, 4);
    if (choice == 0) {
      name = pick(exactOps);
    } else if (choice == 1 && x.exact) {
      name = pick(branchOps);
      result.bound = x.bound + 1;
      result.integral = true;
    } else if (choice == 2 && x.bound <= 3) {
      name = "exponential";
      result.bound = std::exp(x.bound);
      result.integral = false;
    } else if (choice == 3) {
      GenValue magnitude =
          emit(opJson("abs", {x.name}), {fresh("u"), x.shape, x.bound, x.integral, x.exact});
      name = "sqrt";
      result.bound = std::sqrt(x.bound) + 1;
      result.integral = false;
      emit(opJson(name, {magnitude.name}), result);
      return true;
    } else {
      name = pick(smoothOps);
      result.bound = 1;
      result.integral = false;
    }
    emit(opJson(name, {x.name}), result);
    return true;
  }

  bool binary() {
    const GenValue x = pickValue();
    const GenValue y = pickValue([&](const GenValue &v) { return v.shape == x.shape; });
    static const std::vector<std::string> names = {"add",     "subtract", "multiply",
                                                   "maximum", "minimum",  "divide"};
    std::string name = pick(names);
    GenValue result{fresh("b"), x.shape, x.bound + y.bound, x.integral && y.integral,
                    x.exact && y.exact};
    if (name == "multiply")
      result.bound = x.bound * y.bound;
    if (name == "maximum" || name == "minimum")
      result.bound = std::max(x.bound, y.bound);
    if (name == "divide") {
      // x / (|y| + 1): never divides by zero.
      GenValue magnitude =
          emit(opJson("abs", {y.name}), {fresh("u"), y.shape, y.bound, y.integral, y.exact});
      GenValue one = constantSplat(y.shape, 1.0);
      GenValue denominator = emit(opJson("add", {magnitude.name, one.name}),
                                  {fresh("b"), y.shape, y.bound + 1, y.integral, y.exact});
      result.bound = x.bound;
      result.integral = false;
      emit(opJson("divide", {x.name, denominator.name}), result);
      return true;
    }
    if (!withinBounds(result))
      return false;
    emit(opJson(name, {x.name, y.name}), result);
    return true;
  }

  bool dotGeneral() {
    const GenValue lhs = pickValue([](const GenValue &v) { return !v.shape.empty(); });
    int rank = static_cast<int>(lhs.shape.size());
    std::vector<int64_t> dims(rank);
    for (int d = 0; d < rank; ++d)
      dims[d] = d;
    std::shuffle(dims.begin(), dims.end(), random_);
    int numContracting = uniform(rank > 1 ? 1 : 0, std::min(rank, 2));
    int numBatch = rank - numContracting > 1 ? uniform(0, 1) : 0;
    std::vector<int64_t> lhsContracting(dims.begin(), dims.begin() + numContracting);
    std::vector<int64_t> lhsBatch(dims.begin() + numContracting,
                                  dims.begin() + numContracting + numBatch);
    Shape rhsShape;
    int64_t contractedSize = 1;
    std::vector<int64_t> rhsBatch, rhsContracting;
    for (int64_t d : lhsBatch) {
      rhsBatch.push_back(static_cast<int64_t>(rhsShape.size()));
      rhsShape.push_back(lhs.shape[d]);
    }
    for (int64_t d : lhsContracting) {
      rhsContracting.push_back(static_cast<int64_t>(rhsShape.size()));
      rhsShape.push_back(lhs.shape[d]);
      contractedSize *= lhs.shape[d];
    }
    int rhsFree = uniform(0, 1);
    for (int i = 0; i < rhsFree; ++i)
      rhsShape.push_back(uniform(1, 5));
    // The rhs: an existing value of that shape or a new input.
    std::string rhsName;
    double rhsBound = 3;
    bool rhsIntegral = true, rhsExact = true;
    std::vector<const GenValue *> matching;
    for (const auto &v : *scopePool_)
      if (v.shape == rhsShape)
        matching.push_back(&v);
    if (!matching.empty() && (scope_ != &ops_ || chance(0.5))) {
      const GenValue *rhs = pick(matching);
      rhsName = rhs->name;
      rhsBound = rhs->bound;
      rhsIntegral = rhs->integral;
      rhsExact = rhs->exact;
    } else if (scope_ == &ops_) {
      rhsName = addInput(rhsShape).name;
    } else {
      return false;
    }
    Shape resultShape;
    for (int64_t d : lhsBatch)
      resultShape.push_back(lhs.shape[d]);
    for (int d = 0; d < rank; ++d)
      if (std::find(dims.begin(), dims.begin() + numContracting + numBatch, d) ==
          dims.begin() + numContracting + numBatch)
        resultShape.push_back(lhs.shape[d]);
    for (size_t d = lhsBatch.size() + lhsContracting.size(); d < rhsShape.size(); ++d)
      resultShape.push_back(rhsShape[d]);
    bool integral = lhs.integral && rhsIntegral;
    GenValue result{fresh("dot"), resultShape, lhs.bound * rhsBound * contractedSize, integral,
                    integral && lhs.exact && rhsExact};
    if (!withinBounds(result))
      return false;
    Json op = opJson("dot_general", {lhs.name, rhsName});
    if (!lhsBatch.empty()) {
      op["lhs_batching_dimensions"] = lhsBatch;
      op["rhs_batching_dimensions"] = rhsBatch;
    }
    op["lhs_contracting_dimensions"] = lhsContracting;
    op["rhs_contracting_dimensions"] = rhsContracting;
    emit(op, result);
    return true;
  }

  bool transpose() {
    const GenValue x = pickValue([](const GenValue &v) { return v.shape.size() >= 2; });
    std::vector<int64_t> permutation(x.shape.size());
    for (size_t d = 0; d < permutation.size(); ++d)
      permutation[d] = static_cast<int64_t>(d);
    std::shuffle(permutation.begin(), permutation.end(), random_);
    Shape shape;
    for (int64_t d : permutation)
      shape.push_back(x.shape[d]);
    Json op = opJson("transpose", {x.name});
    op["permutation"] = permutation;
    emit(op, {fresh("t"), shape, x.bound, x.integral, x.exact});
    return true;
  }

  bool reshape() {
    const GenValue x = pickValue([](const GenValue &v) { return !v.shape.empty(); });
    Shape shape = x.shape;
    int choice = uniform(0, 2);
    size_t d = static_cast<size_t>(uniform(0, static_cast<int>(shape.size()) - 1));
    if (choice == 0 && shape.size() >= 2 && d + 1 < shape.size()) {
      shape[d] *= shape[d + 1]; // merge two dims
      shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(d) + 1);
    } else if (choice == 1 && shape.size() < 4) {
      int64_t size = shape[d];
      std::vector<int64_t> factors;
      for (int64_t f = 2; f < size; ++f)
        if (size % f == 0)
          factors.push_back(f);
      if (factors.empty())
        shape.insert(shape.begin() + static_cast<std::ptrdiff_t>(d), 1); // a unit dim
      else {
        int64_t f = pick(factors);
        shape[d] = f;
        shape.insert(shape.begin() + static_cast<std::ptrdiff_t>(d) + 1, size / f);
      }
    } else {
      shape = {product(x.shape)}; // flatten
    }
    Json op = opJson("reshape", {x.name});
    op["type"] = typeText(shape);
    emit(op, {fresh("r"), shape, x.bound, x.integral, x.exact});
    return true;
  }

  bool broadcast() {
    const GenValue x = pickValue([](const GenValue &v) { return v.shape.size() < 4; });
    Shape shape = x.shape;
    size_t position = static_cast<size_t>(uniform(0, static_cast<int>(shape.size())));
    shape.insert(shape.begin() + static_cast<std::ptrdiff_t>(position), uniform(1, 4));
    std::vector<int64_t> dims;
    for (size_t d = 0; d < x.shape.size(); ++d)
      dims.push_back(static_cast<int64_t>(d < position ? d : d + 1));
    // Also expand a unit dim of the operand, if it has one.
    for (size_t d = 0; d < x.shape.size(); ++d)
      if (x.shape[d] == 1 && chance(0.5))
        shape[dims[d]] = uniform(2, 4);
    Json op = opJson("broadcast_in_dim", {x.name});
    op["type"] = typeText(shape);
    op["broadcast_dimensions"] = dims;
    emit(op, {fresh("bc"), shape, x.bound, x.integral, x.exact});
    return true;
  }

  bool reduce() {
    const GenValue x = pickValue([](const GenValue &v) { return !v.shape.empty(); });
    std::vector<int64_t> dims;
    Shape shape;
    int64_t reduced = 1;
    for (size_t d = 0; d < x.shape.size(); ++d) {
      if (chance(0.5)) {
        dims.push_back(static_cast<int64_t>(d));
        reduced *= x.shape[d];
      } else {
        shape.push_back(x.shape[d]);
      }
    }
    if (dims.empty()) {
      dims.push_back(0);
      reduced = x.shape[0];
      shape.erase(shape.begin());
    }
    bool sum = chance(0.6);
    // A non-identity init (2) exercises the partitioner's guard.
    double initValue = sum ? (chance(0.8) ? 0.0 : 2.0) : -100.0;
    GenValue result{fresh("red"), shape, sum ? x.bound * reduced + 2 : std::max(x.bound, 100.0),
                    x.integral, sum ? x.integral : x.exact};
    if (!withinBounds(result))
      return false;
    GenValue init = constantSplat({}, initValue);
    Json op = opJson("reduce", {x.name, init.name});
    op["dimensions"] = dims;
    op["reducer"] = sum ? "add" : "max";
    emit(op, result);
    return true;
  }

  bool concatenate() {
    const GenValue x = pickValue([](const GenValue &v) { return !v.shape.empty(); });
    auto dim = static_cast<size_t>(uniform(0, static_cast<int>(x.shape.size()) - 1));
    const GenValue y = pickValue([&](const GenValue &v) {
      if (v.shape.size() != x.shape.size())
        return false;
      for (size_t d = 0; d < v.shape.size(); ++d)
        if (d != dim && v.shape[d] != x.shape[d])
          return false;
      return true;
    });
    Shape shape = x.shape;
    shape[dim] += y.shape[dim];
    Json op = opJson("concatenate", {x.name, y.name});
    op["dimension"] = dim;
    emit(op, {fresh("cat"), shape, std::max(x.bound, y.bound), x.integral && y.integral,
              x.exact && y.exact});
    return true;
  }

  bool slice() {
    const GenValue x = pickValue([](const GenValue &v) { return !v.shape.empty(); });
    std::vector<int64_t> start, limit, strides;
    Shape shape;
    for (int64_t size : x.shape) {
      int64_t s = 0, l = size, stride = 1;
      if (chance(0.5)) {
        s = uniform(0, static_cast<int>(size) - 1);
        l = uniform(static_cast<int>(s) + 1, static_cast<int>(size));
        stride = uniform(1, 2);
      }
      start.push_back(s);
      limit.push_back(l);
      strides.push_back(stride);
      shape.push_back((l - s + stride - 1) / stride);
    }
    Json op = opJson("slice", {x.name});
    op["start_indices"] = start;
    op["limit_indices"] = limit;
    op["strides"] = strides;
    emit(op, {fresh("sl"), shape, x.bound, x.integral, x.exact});
    return true;
  }

  /// A 0-d i32 start index for a slice of `extent` of a dim of `size`,
  /// sometimes past either end (dynamic slices clamp). Kept out of the
  /// pool: every pooled value is f32.
  std::string startIndex(int64_t size, int64_t extent) {
    Json op = opJson("constant", {});
    op["type"] = "tensor<i32>";
    op["value"] = uniform(-2, static_cast<int>(size - extent) + 2);
    std::string name = fresh("i");
    op["result"] = name;
    scope_->push_back(std::move(op));
    return name;
  }

  /// dynamic_slice of x, or dynamic_update_slice of x with a constant block.
  bool dynamicSlice() {
    const GenValue x = pickValue([](const GenValue &v) { return !v.shape.empty(); });
    Shape sizes;
    std::vector<std::string> starts;
    for (int64_t size : x.shape) {
      sizes.push_back(chance(0.5) ? uniform(1, static_cast<int>(size)) : size);
      starts.push_back(startIndex(size, sizes.back()));
    }
    auto withStarts = [&](std::vector<std::string> operands) {
      operands.insert(operands.end(), starts.begin(), starts.end());
      return operands;
    };
    if (chance(0.5)) {
      Json op = opJson("dynamic_slice", withStarts({x.name}));
      op["slice_sizes"] = sizes;
      emit(op, {fresh("ds"), sizes, x.bound, x.integral, x.exact});
      return true;
    }
    const GenValue update = constantSplat(sizes, uniform(-2, 2));
    Json op = opJson("dynamic_update_slice", withStarts({x.name, update.name}));
    emit(op, {fresh("dus"), x.shape, std::max(x.bound, 2.0), x.integral, x.exact});
    return true;
  }

  /// A gather of rows of x along one dim, or a scatter into those rows
  /// (add, replace or maximum) of a constant block: indices are a constant
  /// tensor<Nx1xi32> of rows, some past either end (gather clamps them,
  /// scatter skips them).
  bool gatherOrScatter() {
    const GenValue x = pickValue([](const GenValue &v) { return !v.shape.empty(); });
    const int64_t rank = static_cast<int64_t>(x.shape.size());
    const int64_t dim = uniform(0, static_cast<int>(rank) - 1), rows = uniform(1, 4);
    std::vector<int64_t> starts;
    for (int64_t r = 0; r < rows; ++r)
      starts.push_back(uniform(-2, static_cast<int>(x.shape[dim]) + 1));
    Json indexOp = opJson("constant", {});
    indexOp["type"] = "tensor<" + std::to_string(rows) + "x1xi32>";
    Json column = Json::array();
    for (int64_t start : starts)
      column.push_back(Json::array({start}));
    indexOp["value"] = column;
    const std::string indices = fresh("idx");
    indexOp["result"] = indices;
    scope_->push_back(std::move(indexOp));
    Shape slices = {rows}, sizes = x.shape;
    std::vector<int64_t> windowDims;
    for (int64_t d = 0; d < rank; ++d)
      if (d != dim) {
        windowDims.push_back(static_cast<int64_t>(slices.size()));
        slices.push_back(x.shape[d]);
      }
    sizes[dim] = 1;
    if (chance(0.5)) {
      Json op = opJson("gather", {x.name, indices});
      op["dimension_numbers"] = {{"offset_dims", windowDims},
                                 {"collapsed_slice_dims", {dim}},
                                 {"start_index_map", {dim}},
                                 {"index_vector_dim", 1}};
      op["slice_sizes"] = sizes;
      emit(op, {fresh("ga"), slices, x.bound, x.integral, x.exact});
      return true;
    }
    const double value = uniform(-2, 2);
    const GenValue updates = constantSplat(slices, value);
    static const std::vector<std::string> combiners = {"add", "replace", "maximum"};
    const std::string combiner = pick(combiners);
    Json body = {{"args", Json::array({{{"name", "a"}, {"type", "tensor<f32>"}},
                                       {{"name", "b"}, {"type", "tensor<f32>"}}})},
                 {"ops", Json::array()},
                 {"return", Json::array({"b"})}};
    if (combiner != "replace") {
      body["ops"].push_back({{"op", combiner}, {"operands", {"a", "b"}}, {"result", "v"}});
      body["return"] = Json::array({"v"});
    }
    Json op = opJson("scatter", {x.name, indices, updates.name});
    op["scatter_dimension_numbers"] = {{"update_window_dims", windowDims},
                                       {"inserted_window_dims", {dim}},
                                       {"scatter_dims_to_operand_dims", {dim}},
                                       {"index_vector_dim", 1}};
    op["update_computation"] = body;
    const double bound = combiner == "add" ? x.bound + static_cast<double>(rows) * std::fabs(value)
                                           : std::max(x.bound, std::fabs(value));
    emit(op, {fresh("sc"), x.shape, bound, x.integral, x.exact});
    return true;
  }

  /// A scalar body of two f32 arguments applying `op` (a compare's
  /// direction when given).
  static Json scalarBody(const std::string &op, const std::string &direction = "") {
    Json body;
    body["args"] = Json::array({Json{{"name", "a"}, {"type", "tensor<f32>"}},
                                Json{{"name", "b"}, {"type", "tensor<f32>"}}});
    Json apply{{"op", op}, {"operands", {"a", "b"}}, {"result", "r"}};
    if (!direction.empty())
      apply["comparison_direction"] = direction;
    body["ops"] = Json::array({apply});
    body["return"] = Json::array({"r"});
    return body;
  }

  /// reduce_window (max or add over padded, dilated, strided windows),
  /// select_and_scatter over x's windows, or a convolution of x (rank 3 or
  /// more: batch, spatial dims, features) with a constant kernel.
  bool windowOp() {
    const GenValue x = pickValue([](const GenValue &v) {
      return !v.shape.empty() && std::find(v.shape.begin(), v.shape.end(), 0) == v.shape.end();
    });
    if (x.shape.size() >= 3 && chance(0.4))
      return convolution(x);
    const bool scatter = chance(0.3);
    std::vector<int64_t> dims, strides, base, dilations;
    Json padding = Json::array();
    Shape windows;
    int64_t count = 1;
    for (int64_t size : x.shape) {
      const bool windowed = chance(0.5);
      int64_t d = windowed ? uniform(1, 3) : 1, s = windowed ? uniform(1, 2) : 1;
      int64_t b = !scatter && windowed && chance(0.3) ? 2 : 1;
      int64_t w = !scatter && windowed && chance(0.3) ? 2 : 1;
      int64_t low = windowed ? uniform(0, 2) : 0, high = windowed ? uniform(0, 1) : 0;
      const int64_t padded = low + (size - 1) * b + 1 + high;
      if ((d - 1) * w + 1 > padded)
        d = w = 1;
      dims.push_back(d);
      strides.push_back(s);
      base.push_back(b);
      dilations.push_back(w);
      padding.push_back({low, high});
      windows.push_back((padded - ((d - 1) * w + 1)) / s + 1);
      count *= d;
    }
    if (scatter) {
      const GenValue source = constantSplat(windows, uniform(-2, 2));
      GenValue init = constantSplat({}, 0.0);
      Json op = opJson("select_and_scatter", {x.name, source.name, init.name});
      op["window_dimensions"] = dims;
      op["window_strides"] = strides;
      op["padding"] = padding;
      op["select"] = scalarBody("compare", chance(0.5) ? "GE" : "LT");
      op["scatter"] = scalarBody("add");
      GenValue result{fresh("sas"), x.shape, source.bound * static_cast<double>(count), true,
                      x.exact};
      if (!withinBounds(result))
        return false;
      emit(op, result);
      return true;
    }
    const bool sum = chance(0.5);
    GenValue init = constantSplat({}, sum ? 0.0 : -100.0);
    Json op = opJson("reduce_window", {x.name, init.name});
    op["window_dimensions"] = dims;
    op["window_strides"] = strides;
    op["base_dilations"] = base;
    op["window_dilations"] = dilations;
    op["padding"] = padding;
    op["body"] = scalarBody(sum ? "add" : "maximum");
    // The kernel folds each window in the interpreter's order: exactness
    // carries over, sums included.
    GenValue result{fresh("rw"), windows,
                    sum ? x.bound * static_cast<double>(count) : std::max(x.bound, 100.0),
                    x.integral, x.exact};
    if (!withinBounds(result))
      return false;
    emit(op, result);
    return true;
  }

  /// x as [batch, spatial..., features] convolved with a constant kernel of
  /// 1 or 2 per spatial dim: features in any order of the result's dims.
  bool convolution(const GenValue &x) {
    const int64_t rank = static_cast<int64_t>(x.shape.size());
    const int64_t spatial = rank - 2, features = x.shape.back();
    const int64_t outFeatures = uniform(1, 3);
    Shape kernel, out{x.shape[0]};
    std::vector<int64_t> spatialDims, kernelDims, outDims, strides;
    Json padding = Json::array();
    int64_t depth = features;
    for (int64_t s = 0; s < spatial; ++s) {
      const int64_t size = x.shape[s + 1];
      const int64_t k = std::min<int64_t>(size, uniform(1, 2)), stride = uniform(1, 2);
      const int64_t low = uniform(0, 1), high = uniform(0, 1);
      kernel.push_back(k);
      strides.push_back(stride);
      padding.push_back({low, high});
      out.push_back((low + size + high - k) / stride + 1);
      spatialDims.push_back(s + 1);
      kernelDims.push_back(s);
      outDims.push_back(s + 1);
      depth *= k;
    }
    kernel.push_back(features);
    kernel.push_back(outFeatures);
    out.push_back(outFeatures);
    const GenValue w = constantSplat(kernel, uniform(-1, 1) == 0 ? 1 : -1);
    Json op = opJson("convolution", {x.name, w.name});
    op["input_batch_dimension"] = 0;
    op["input_feature_dimension"] = rank - 1;
    op["input_spatial_dimensions"] = spatialDims;
    op["kernel_input_feature_dimension"] = spatial;
    op["kernel_output_feature_dimension"] = spatial + 1;
    op["kernel_spatial_dimensions"] = kernelDims;
    op["output_batch_dimension"] = 0;
    op["output_feature_dimension"] = rank - 1;
    op["output_spatial_dimensions"] = outDims;
    op["window_strides"] = strides;
    op["padding"] = padding;
    // The lowered kernel sums in the matmul's order.
    GenValue result{fresh("conv"), out, x.bound * static_cast<double>(depth), x.integral,
                    x.integral};
    if (!withinBounds(result))
      return false;
    emit(op, result);
    return true;
  }

  /// sort along one dim (jnp.sort's comparator: LT or GT in TOTALORDER) of
  /// an exact value: an inexact one could sort differently sharded.
  bool sort() {
    const GenValue x = pickValue([](const GenValue &v) { return !v.shape.empty() && v.exact; });
    Json op = opJson("sort", {x.name});
    op["dimension"] = uniform(0, static_cast<int>(x.shape.size()) - 1);
    op["is_stable"] = chance(0.5);
    const Json scalar = {{"type", "tensor<f32>"}};
    Json a = scalar, b = scalar;
    a["name"] = "a";
    b["name"] = "b";
    op["comparator"] = {{"args", Json::array({a, b})},
                        {"ops", Json::array({{{"op", "compare"},
                                              {"operands", {"a", "b"}},
                                              {"result", "ordered"},
                                              {"comparison_direction", chance(0.5) ? "LT" : "GT"},
                                              {"compare_type", "TOTALORDER"}}})},
                        {"return", Json::array({"ordered"})}};
    emit(op, {fresh("so"), x.shape, x.bound, x.integral, x.exact});
    return true;
  }

  /// rng_bit_generator from a constant state (its ui32 bits maybe sharded:
  /// each device computes its piece of the stream), the bits' top 19 made a
  /// float (jax.random's shape: shift, then convert). The ui64 state and the
  /// ui32 values stay out of the pool of f32 values.
  bool randomBits() {
    const Shape shape = randomShape(uniform(1, 3));
    const std::string key = fresh("key"), state = fresh("state"), bits = fresh("bits"),
                      shift = fresh("c"), top = fresh("top");
    Json keyOp = opJson("constant", {});
    keyOp["result"] = key;
    keyOp["type"] = "tensor<2xui64>";
    keyOp["value"] = Json::array({uniform(0, 1 << 20), uniform(0, 1 << 20)});
    Json generator = opJson("rng_bit_generator", {key});
    generator["results"] = {state, bits};
    generator["types"] = {"tensor<2xui64>", typeText(shape, "ui32")};
    generator["rng_algorithm"] = pick(std::vector<std::string>{"THREE_FRY", "PHILOX", "DEFAULT"});
    if (options_.shardings && chance(0.5))
      generator["shardings"] = {nullptr, randomSharding(shape, manualAxesInScope_, true)};
    Json shiftOp = opJson("constant", {});
    shiftOp["result"] = shift;
    shiftOp["type"] = typeText(shape, "ui32");
    shiftOp["value"] = 13;
    Json shifted = opJson("shift_right_logical", {bits, shift});
    shifted["result"] = top;
    for (Json *op : {&keyOp, &generator, &shiftOp, &shifted})
      scope_->push_back(std::move(*op));
    Json convert = opJson("convert", {top});
    convert["type"] = typeText(shape);
    emit(convert, {fresh("rb"), shape, double(1 << 19), true, true});
    return true;
  }

  bool pad() {
    const GenValue x = pickValue([](const GenValue &v) { return !v.shape.empty(); });
    std::vector<int64_t> low, high, interior;
    Shape shape;
    for (int64_t size : x.shape) {
      bool padded = chance(0.5);
      low.push_back(padded ? uniform(0, 2) : 0);
      high.push_back(padded ? uniform(0, 2) : 0);
      interior.push_back(padded ? uniform(0, 1) : 0);
      shape.push_back(low.back() + high.back() + size + (size - 1) * interior.back());
    }
    GenValue value = constantSplat({}, uniform(-2, 2));
    Json op = opJson("pad", {x.name, value.name});
    op["edge_padding_low"] = low;
    op["edge_padding_high"] = high;
    op["interior_padding"] = interior;
    emit(op, {fresh("pad"), shape, std::max(x.bound, 2.0), x.integral, x.exact});
    return true;
  }

  bool reverse() {
    const GenValue x = pickValue([](const GenValue &v) { return !v.shape.empty(); });
    std::vector<int64_t> dims;
    for (size_t d = 0; d < x.shape.size(); ++d)
      if (chance(0.5))
        dims.push_back(static_cast<int64_t>(d));
    Json op = opJson("reverse", {x.name});
    op["dimensions"] = dims;
    emit(op, {fresh("rev"), x.shape, x.bound, x.integral, x.exact});
    return true;
  }

  bool iotaOrConstant() {
    Shape shape = randomShape(uniform(0, 2));
    if (chance(0.5) && !shape.empty()) {
      Json op = opJson("iota", {});
      int64_t dim = uniform(0, static_cast<int>(shape.size()) - 1);
      op["iota_dimension"] = dim;
      op["type"] = typeText(shape);
      emit(op, {fresh("iota"), shape, static_cast<double>(shape[dim]), true, true});
      return true;
    }
    // A nested array of small integers.
    std::function<Json(size_t)> nested = [&](size_t d) -> Json {
      if (d == shape.size())
        return static_cast<double>(uniform(-3, 3));
      Json array = Json::array();
      for (int64_t i = 0; i < shape[d]; ++i)
        array.push_back(nested(d + 1));
      return array;
    };
    Json op = opJson("constant", {});
    op["value"] = nested(0);
    if (shape.empty())
      op["type"] = typeText(shape);
    emit(op, {fresh("k"), shape, 3, true, true});
    return true;
  }

  bool compareSelect() {
    const GenValue x = pickValue([](const GenValue &v) { return v.exact; });
    const GenValue y = pickValue([&](const GenValue &v) { return v.exact && v.shape == x.shape; });
    static const std::vector<std::string> directions = {"EQ", "NE", "LT", "LE", "GT", "GE"};
    Json compare = opJson("compare", {x.name, y.name});
    compare["comparison_direction"] = pick(directions);
    std::string predicate = fresh("p");
    compare["result"] = predicate;
    scope_->push_back(compare); // i1: not in the (f32) pool
    Json select = opJson("select", {predicate, y.name, x.name});
    emit(select,
         {fresh("sel"), x.shape, std::max(x.bound, y.bound), x.integral && y.integral, true});
    return true;
  }

  bool convertRoundTrip() {
    const GenValue x = pickValue([](const GenValue &v) { return v.exact && v.bound < 1e6; });
    Json toInt = opJson("convert", {x.name});
    std::string asInt = fresh("i");
    toInt["type"] = typeText(x.shape, "i32");
    toInt["result"] = asInt;
    scope_->push_back(toInt);
    Json back = opJson("convert", {asInt});
    back["type"] = typeText(x.shape);
    emit(back, {fresh("cv"), x.shape, x.bound, true, true});
    return true;
  }

  bool clamp() {
    const GenValue x = pickValue();
    bool scalarBounds = chance(0.5);
    Shape boundShape = scalarBounds ? Shape{} : x.shape;
    GenValue lo = constantSplat(boundShape, -2.0);
    GenValue hi = constantSplat(boundShape, 2.0);
    emit(opJson("clamp", {lo.name, x.name, hi.name}),
         {fresh("cl"), x.shape, 2, x.integral, x.exact});
    return true;
  }

  bool constraint() {
    const GenValue x = pickValue();
    Json op = opJson("sharding_constraint", {x.name});
    op["sharding"] = randomSharding(x.shape, manualAxesInScope_, true);
    GenValue result = x;
    result.name = fresh("sc");
    result.sharded = true;
    emit(op, result, false);
    return true;
  }

  bool group() {
    if (scope_ != &ops_)
      return false;
    const GenValue x = pickValue([](const GenValue &v) { return !v.sharded; });
    const GenValue y =
        pickValue([&](const GenValue &v) { return !v.sharded && v.shape == x.shape; });
    int64_t id = groupCounter_++;
    for (const auto *member : {&x, &y}) {
      Json op = opJson("sharding_group", {member->name});
      op["group_id"] = id;
      scope_->push_back(op);
    }
    return true;
  }

  // ---- manual computations
  bool manual() {
    std::vector<std::string> candidates;
    const std::set<std::string> enclosing = manualAxesInScope_;
    for (const auto &axis : axes_)
      if (axis.size > 1 && !enclosing.count(axis.name) && chance(0.6))
        candidates.push_back(axis.name);
    if (candidates.empty())
      return false;
    const std::vector<std::string> manualAxes = candidates; // mesh order
    std::set<std::string> manualSet(manualAxes.begin(), manualAxes.end());
    const GenValue x = pickValue([](const GenValue &v) { return !v.shape.empty(); });

    // in_sharding: each manual axis shards a dim it divides, or is replicated.
    std::vector<std::vector<std::string>> manualDims(x.shape.size()), freeDims(x.shape.size());
    Shape local = x.shape;
    std::vector<std::string> replicated;
    for (const auto &axis : manualAxes) {
      std::vector<size_t> fits;
      for (size_t d = 0; d < local.size(); ++d)
        if (local[d] % axisSize(axis) == 0)
          fits.push_back(d);
      if (!fits.empty() && chance(0.7)) {
        size_t d = pick(fits);
        manualDims[d].push_back(axis);
        local[d] /= axisSize(axis);
      } else {
        replicated.push_back(axis);
      }
    }
    std::set<std::string> usedFree;
    for (const auto &axis : axes_)
      if (!manualSet.count(axis.name) && !enclosing.count(axis.name) && chance(0.3)) {
        size_t d = static_cast<size_t>(uniform(0, static_cast<int>(x.shape.size()) - 1));
        freeDims[d].push_back(axis.name);
      }
    std::string inSharding = manualSharding(manualDims, freeDims, replicated, {});

    // The body.
    std::string argName = fresh("xl");
    Json body = {{"args", Json::array({{{"name", argName}, {"type", typeText(local)}}})},
                 {"ops", Json::array()}};
    std::vector<GenValue> bodyPool = {GenValue{argName, local, x.bound, x.integral, x.exact}};
    auto *outerScope = scope_;
    auto *outerPool = scopePool_;
    scope_ = &body["ops"];
    scopePool_ = &bodyPool;
    manualAxesInScope_.insert(manualSet.begin(), manualSet.end());
    int steps = uniform(1, 4);
    for (int i = 0; i < steps; ++i)
      for (int attempt = 0; attempt < 6; ++attempt)
        if (bodyMove(manualAxes))
          break;
    scope_ = outerScope;
    scopePool_ = outerPool;
    manualAxesInScope_ = enclosing;

    // The result: the last body value; out_sharding on its local shape.
    const GenValue &ret = bodyPool.back();
    body["return"] = Json::array({ret.name});
    std::vector<std::vector<std::string>> outManual(ret.shape.size()), outFree(ret.shape.size());
    Shape outer = ret.shape;
    std::vector<std::string> outReplicated, outUnreduced;
    for (const auto &axis : manualAxes) {
      int choice = uniform(0, 5);
      if (choice <= 2 && !outer.empty()) {
        size_t d = static_cast<size_t>(uniform(0, static_cast<int>(outer.size()) - 1));
        outManual[d].push_back(axis);
        outer[d] *= axisSize(axis);
      } else if (choice == 3 && ret.integral) {
        outUnreduced.push_back(axis); // the result is the sum over this axis
      } else {
        outReplicated.push_back(axis);
      }
    }
    std::string outSharding = manualSharding(outManual, outFree, outReplicated, outUnreduced);
    double bound = ret.bound;
    for (const auto &axis : outUnreduced)
      bound *= static_cast<double>(axisSize(axis));

    Json op = opJson("manual_computation", {x.name});
    op["results"] = Json::array({fresh("mc")});
    op["in_shardings"] = Json::array({inSharding});
    op["out_shardings"] = Json::array({outSharding});
    op["manual_axes"] = manualAxes;
    op["body"] = body;
    std::string result = op["results"][0];
    GenValue value{result, outer, bound, ret.integral, ret.exact, true};
    if (!withinBounds(value))
      return false;
    scope_->push_back(op);
    scopePool_->push_back(value);
    return true;
  }

  // ---- control flow
  /// One step of a region on x: x itself, -x, or x + y with y a value of
  /// the graph of x's shape (read from inside the region). Appends its ops
  /// to `ops` and returns the value.
  GenValue regionStep(const GenValue &x, Json &ops) {
    const int choice = uniform(0, 2);
    if (choice == 0)
      return x;
    GenValue out{fresh("r"), x.shape, x.bound, x.integral, x.exact};
    if (choice == 1) {
      ops.push_back({{"op", "negate"}, {"operands", {x.name}}, {"result", out.name}});
      return out;
    }
    const GenValue &y = pickValue([&](const GenValue &v) { return v.shape == x.shape; });
    ops.push_back({{"op", "add"}, {"operands", {x.name, y.name}}, {"result", out.name}});
    out.bound = x.bound + y.bound;
    out.integral = x.integral && y.integral;
    out.exact = x.exact && y.exact;
    return out;
  }

  static Json scalarConstant(const std::string &name, const std::string &type, Json value) {
    return {{"op", "constant"}, {"result", name}, {"type", type}, {"value", std::move(value)}};
  }

  /// A case (2 or 3 branches, its index a constant maybe out of range) or a
  /// while (0 to 3 iterations) over a value of the graph (top level only).
  bool controlFlow() {
    if (scope_ != &ops_)
      return false;
    const GenValue x = pickValue();
    if (chance(0.5)) {
      // A case on a constant index (maybe out of range), or an if.
      const bool isIf = chance(0.3);
      std::string selector = fresh("k");
      scope_->push_back(isIf ? scalarConstant(selector, "tensor<i1>", chance(0.5))
                             : scalarConstant(selector, "tensor<i32>", uniform(-1, 3)));
      Json op = opJson(isIf ? "if" : "case", {selector});
      GenValue result{fresh(isIf ? "if" : "case"), x.shape, 0, true, true};
      std::vector<Json> branches;
      for (int b = isIf ? 2 : uniform(2, 3); b > 0; --b) {
        Json branch = {{"args", Json::array()}, {"ops", Json::array()}};
        GenValue out = regionStep(x, branch["ops"]);
        branch["return"] = Json::array({out.name});
        branches.push_back(std::move(branch));
        result.bound = std::max(result.bound, out.bound);
        result.integral = result.integral && out.integral;
        result.exact = result.exact && out.exact;
      }
      if (!withinBounds(result))
        return false;
      if (isIf) {
        op["true_branch"] = branches[0];
        op["false_branch"] = branches[1];
      } else {
        op["branches"] = branches;
      }
      emit(op, result);
      return true;
    }
    // while (i < n) { v = step(v); i = i + 1 }, n in [0, 3].
    const int iterations = uniform(0, 3);
    std::string zero = fresh("k"), i = fresh("i"), v = fresh("v"), j = fresh("j"), w = fresh("w");
    scope_->push_back(scalarConstant(zero, "tensor<i32>", 0));
    std::string n = fresh("n"), more = fresh("more"), one = fresh("one"), next = fresh("next");
    Json cond = {{"args", Json::array({{{"name", i}, {"type", "tensor<i32>"}},
                                       {{"name", v}, {"type", typeText(x.shape)}}})},
                 {"ops", Json::array({scalarConstant(n, "tensor<i32>", iterations),
                                      {{"op", "compare"},
                                       {"operands", {i, n}},
                                       {"result", more},
                                       {"comparison_direction", "LT"}}})},
                 {"return", Json::array({more})}};
    Json body = {{"args", Json::array({{{"name", j}, {"type", "tensor<i32>"}},
                                       {{"name", w}, {"type", typeText(x.shape)}}})},
                 {"ops", Json::array({scalarConstant(one, "tensor<i32>", 1)})}};
    GenValue carried{w, x.shape, x.bound, x.integral, x.exact};
    GenValue out = regionStep(carried, body["ops"]);
    body["ops"].push_back({{"op", "add"}, {"operands", {j, one}}, {"result", next}});
    body["return"] = Json::array({next, out.name});
    GenValue result{fresh("loop"), x.shape,
                    x.bound + (out.bound - carried.bound) * std::max(iterations, 1), out.integral,
                    out.exact};
    if (!withinBounds(result))
      return false;
    Json op = opJson("while", {zero, x.name});
    std::string counter = fresh("count");
    op["results"] = Json::array({counter, result.name});
    if (options_.shardings && chance(0.3))
      op["shardings"] = Json::array({nullptr, randomSharding(x.shape, {}, true)});
    op["cond"] = std::move(cond);
    op["body"] = std::move(body);
    scope_->push_back(std::move(op));
    scopePool_->push_back(std::move(result));
    return true;
  }

  std::string manualSharding(const std::vector<std::vector<std::string>> &manualDims,
                             const std::vector<std::vector<std::string>> &freeDims,
                             const std::vector<std::string> &replicated,
                             const std::vector<std::string> &unreduced) {
    std::string text = "<@mesh, [";
    for (size_t d = 0; d < manualDims.size(); ++d) {
      std::vector<std::string> axes = manualDims[d];
      axes.insert(axes.end(), freeDims[d].begin(), freeDims[d].end());
      text += (d ? ", " : "") + dimText(axes, false);
    }
    text += "]";
    auto list = [&](const char *key, const std::vector<std::string> &axes) {
      if (axes.empty())
        return;
      text += std::string(", ") + key + "={";
      for (size_t i = 0; i < axes.size(); ++i)
        text += (i ? ", " : "") + axes[i];
      text += "}";
    };
    list("replicated", replicated);
    list("unreduced", unreduced);
    return text + ">";
  }

  bool bodyMove(const std::vector<std::string> &manualAxes) {
    try {
      const std::string axis = pick(manualAxes);
      int64_t n = axisSize(axis);
      int kind = uniform(0, 11);
      if (kind <= 2)
        return kind == 0 ? unary() : kind == 1 ? binary() : reduce();
      if (kind == 9)
        return options_.constraints && constraint();
      if (kind >= 10)
        return options_.manualComputations && manual();
      const GenValue x = pickValue();
      GenValue result{fresh("m"), x.shape, x.bound, x.integral, x.exact};
      Json op;
      switch (kind) {
      case 3: { // all_reduce over some manual axes
        std::vector<std::string> axes;
        for (const auto &a : manualAxes)
          if (chance(0.6))
            axes.push_back(a);
        if (axes.empty())
          axes.push_back(axis);
        std::shuffle(axes.begin(), axes.end(), random_);
        bool sum = chance(0.6);
        op = opJson("all_reduce", {x.name});
        op["axes"] = axes;
        op["reducer"] = sum ? "add" : "max";
        if (sum) {
          for (const auto &a : axes)
            result.bound *= static_cast<double>(axisSize(a));
          result.exact = x.integral;
        }
        break;
      }
      case 4: { // all_gather
        if (x.shape.empty())
          return false;
        auto d = static_cast<size_t>(uniform(0, static_cast<int>(x.shape.size()) - 1));
        op = opJson("all_gather", {x.name});
        op["axes"] = {axis};
        op["dimension"] = d;
        result.shape[d] *= n;
        break;
      }
      case 5: { // reduce_scatter on a divisible dim
        std::vector<size_t> fits;
        for (size_t d = 0; d < x.shape.size(); ++d)
          if (x.shape[d] % n == 0)
            fits.push_back(d);
        if (fits.empty())
          return false;
        size_t d = pick(fits);
        op = opJson("reduce_scatter", {x.name});
        op["axes"] = {axis};
        op["dimension"] = d;
        op["reducer"] = "add";
        result.shape[d] /= n;
        result.bound *= static_cast<double>(n);
        result.exact = x.integral;
        break;
      }
      case 6: { // all_to_all
        std::vector<size_t> fits;
        for (size_t d = 0; d < x.shape.size(); ++d)
          if (x.shape[d] % n == 0)
            fits.push_back(d);
        if (fits.empty())
          return false;
        size_t split = pick(fits);
        auto concat = static_cast<size_t>(uniform(0, static_cast<int>(x.shape.size()) - 1));
        op = opJson("all_to_all", {x.name});
        op["axes"] = {axis};
        op["split_dimension"] = split;
        op["concat_dimension"] = concat;
        result.shape[split] /= n;
        result.shape[concat] *= n;
        break;
      }
      case 7: { // collective_permute
        op = opJson("collective_permute", {x.name});
        op["axes"] = {axis};
        op["shift"] = uniform(-2, 2);
        break;
      }
      default: { // x + broadcast(convert(axis_index))
        Json index = {{"op", "axis_index"}, {"axis", axis}};
        std::string indexName = fresh("ai");
        index["result"] = indexName;
        scope_->push_back(index);
        Json toFloat = opJson("convert", {indexName});
        std::string floatName = fresh("af");
        toFloat["type"] = typeText({});
        toFloat["result"] = floatName;
        scope_->push_back(toFloat);
        Json spread = opJson("broadcast_in_dim", {floatName});
        std::string spreadName = fresh("ab");
        spread["type"] = typeText(x.shape);
        spread["broadcast_dimensions"] = Json::array();
        spread["result"] = spreadName;
        scope_->push_back(spread);
        op = opJson("add", {x.name, spreadName});
        result.bound += static_cast<double>(n);
        break;
      }
      }
      if (!withinBounds(result))
        return false;
      emit(op, result, false);
      return true;
    } catch (const std::out_of_range &) {
      return false;
    }
  }

  std::string finish() {
    graph_["ops"] = ops_;
    int numOutputs = uniform(1, 3);
    Json outputs = Json::array();
    std::set<std::string> chosen;
    for (int i = 0; i < numOutputs; ++i) {
      const GenValue &value = i == 0 ? pool_.back() : pickValue();
      if (!chosen.insert(value.name).second)
        continue;
      Json output = {{"value", value.name}};
      if (distributes())
        output["distribution"] = randomDistribution(value.shape);
      else if (options_.shardings && chance(0.5))
        output["sharding"] = randomSharding(value.shape);
      outputs.push_back(output);
    }
    graph_["outputs"] = outputs;
    return graph_.dump(1);
  }

  std::mt19937_64 random_;
  RandomGraphOptions options_;
  std::vector<MeshAxisSpec> axes_;
  Json graph_ = {{"inputs", Json::array()}};
  Json ops_ = Json::array();
  Json *scope_ = &ops_;
  std::vector<GenValue> pool_;
  std::vector<GenValue> *scopePool_ = &pool_;
  std::set<std::string> manualAxesInScope_;
  int counter_ = 0;
  int64_t groupCounter_ = 0;
};

} // namespace

std::string randomGraphJson(uint64_t seed, const RandomGraphOptions &options) {
  return Generator(seed, options).run();
}

} // namespace shardgen::testing
