#include "compiler/verify/ManualComputationVerifier.h"

#include <algorithm>
#include <set>

#include "compiler/ir/Diagnostic.h"
#include "compiler/verify/ShardingVerifier.h"
#include "compiler/verify/TypeInference.h"
#include "compiler/verify/VerifyUtil.h"

namespace shardgen::verify {

namespace {

using ManualAxisSet = std::set<std::string>;

std::string shardingPointer(const Op &op, const char *key, size_t index) {
  return joinPointer(attrPointer(op, key), index);
}

/// The product of the manual axes' sizes sharding one dim.
int64_t manualSizeOfDim(const DimSharding &dim, const ManualAxisSet &manual, const Mesh &mesh) {
  int64_t size = 1;
  for (const AxisRef &axis : dim.axes)
    if (manual.count(axis.name) && mesh.axisIndex(axis.name))
      size *= axis.size(mesh); // bounded by the mesh's device count
  return size;
}

/// What Shardy requires of the manual axes in one in/out sharding.
/// `valueKind` is "operand" or "result".
void verifyManualAxesUse(const TensorSharding &sharding, const ManualAxisSet &manual,
                         const std::vector<std::string> &manualInOrder, const std::string &pointer,
                         const std::string &valueKind, size_t index) {
  auto usesAsSubAxis = [&](const std::vector<AxisRef> &axes) {
    return std::any_of(axes.begin(), axes.end(), [&](const AxisRef &axis) {
      return axis.isSubAxis() && manual.count(axis.name);
    });
  };
  bool subAxis = usesAsSubAxis(sharding.replicated) || usesAsSubAxis(sharding.unreduced);
  for (const DimSharding &dim : sharding.dims)
    subAxis = subAxis || usesAsSubAxis(dim.axes);
  if (subAxis)
    fail(pointer, valueKind + " sharding at index " + std::to_string(index) +
                      " cannot use a manual axis as a sub/split axis: " + printSharding(sharding));

  for (const std::string &axis : manualInOrder) {
    auto named = [&](const AxisRef &ref) { return ref.name == axis; };
    bool used = std::any_of(sharding.replicated.begin(), sharding.replicated.end(), named);
    // A result may leave a manual axis unreduced: the body returns partial
    // values that its users sum (as Shardy allows). An operand may not: a
    // global value has no canonical split into partials.
    if (valueKind == "result")
      used = used || std::any_of(sharding.unreduced.begin(), sharding.unreduced.end(), named);
    for (const DimSharding &dim : sharding.dims)
      used = used || std::any_of(dim.axes.begin(), dim.axes.end(), named);
    if (!used)
      fail(pointer, "manual axis \"" + axis +
                        "\" must be used in every in/out sharding of a manual_computation");
  }

  for (size_t d = 0; d < sharding.dims.size(); ++d) {
    const auto &axes = sharding.dims[d].axes;
    for (size_t i = 1; i < axes.size(); ++i)
      if (manual.count(axes[i].name) && !manual.count(axes[i - 1].name))
        fail(pointer, valueKind + " sharding at index " + std::to_string(index) +
                          " must have all manual axes come before free axes in its dimension "
                          "sharding at index " +
                          std::to_string(d) + ". Saw manual axis " + printAxisRef(axes[i]) +
                          " after free axis " + printAxisRef(axes[i - 1]));
  }
}

/// The global type divided along the manual axes only.
TensorType localType(const TensorType &global, const TensorSharding &sharding,
                     const ManualAxisSet &manual, const Mesh &mesh, const std::string &pointer) {
  TensorType local = global;
  for (size_t d = 0; d < sharding.dims.size() && d < local.shape.size(); ++d) {
    int64_t manualSize = manualSizeOfDim(sharding.dims[d], manual, mesh);
    if (local.shape[d] % manualSize != 0)
      fail(pointer, "dimension size " + std::to_string(local.shape[d]) +
                        " is not divisible by the manual axes size " + std::to_string(manualSize));
    local.shape[d] /= manualSize;
  }
  return local;
}

/// The local type multiplied along the manual axes.
std::optional<TensorType> globalType(const TensorType &local, const TensorSharding &sharding,
                                     const ManualAxisSet &manual, const Mesh &mesh) {
  TensorType global = local;
  for (size_t d = 0; d < sharding.dims.size() && d < global.shape.size(); ++d) {
    auto size = checkedMul(global.shape[d], manualSizeOfDim(sharding.dims[d], manual, mesh));
    if (!size || *size > kMaxElementCount)
      return std::nullopt;
    global.shape[d] = *size;
  }
  return global;
}

std::string shapeMismatch(const std::string &valueKind, size_t index, const TensorType &expected,
                          const TensorType &actual) {
  return valueKind + " shape, corresponding sharding, and region " + valueKind +
         " shape at index " + std::to_string(index) + " must match. Expected local shape '" +
         printType(expected) + "', actual local shape '" + printType(actual) + "'";
}

class ManualComputationChecker {
public:
  ManualComputationChecker(Graph &graph, Op &op, const ManualScope &outer)
      : graph_(graph), op_(op), attrs_(op.attr<ManualComputationAttrs>()), outer_(outer),
        manual_(attrs_.manualAxes.begin(), attrs_.manualAxes.end()) {}

  void run(const BodyVerifier &verifyBody) {
    checkCounts();
    checkCommonMesh();
    checkManualAxes();
    for (size_t k = 0; k < attrs_.inShardings.size(); ++k)
      checkInSharding(k);
    for (size_t k = 0; k < attrs_.outShardings.size(); ++k)
      checkOutShardingBeforeBody(k);
    verifyBody(*op_.body(), enterBody(graph_, outer_, op_));
    checkResults();
  }

private:
  void checkCounts() {
    auto check = [&](const char *key, size_t shardings, size_t values, const char *kind) {
      if (shardings != values)
        fail(attrPointer(op_, key),
             std::string(kind) + " shardings don't match number of values: " +
                 std::to_string(shardings) + " shardings vs " + std::to_string(values) + " values");
    };
    check("in_shardings", attrs_.inShardings.size(), op_.operands.size(), "operand");
    check("out_shardings", attrs_.outShardings.size(), op_.results.size(), "result");
    if (op_.body()->args.size() != op_.operands.size())
      fail(joinPointer(op_.body()->pointer, "args"),
           "number of op operands and region operands must match. Op has " +
               std::to_string(op_.operands.size()) + " op operands and " +
               std::to_string(op_.body()->args.size()) + " region operands");
  }

  void checkCommonMesh() {
    auto check = [&](const std::vector<TensorSharding> &shardings, const char *key) {
      for (size_t k = 0; k < shardings.size(); ++k) {
        const std::string pointer = shardingPointer(op_, key, k);
        const Mesh &meshOfSharding = lookUpMesh(shardings[k], graph_, pointer);
        if (!mesh_)
          mesh_ = &meshOfSharding;
        else if (mesh_ != &meshOfSharding)
          fail(pointer, "all in and out shardings must be bound to the same mesh, got @" +
                            meshOfSharding.name + " and @" + mesh_->name);
        // Shardy's manual axes are axes of one mesh: a nested manual
        // computation splits the same devices further.
        if (outer_.mesh && outer_.mesh != &meshOfSharding)
          fail(pointer, "a nested manual_computation must use its parent's mesh @" +
                            outer_.mesh->name + ", got @" + meshOfSharding.name);
      }
    };
    check(attrs_.inShardings, "in_shardings");
    check(attrs_.outShardings, "out_shardings");
  }

  void checkManualAxes() {
    const std::string key = "manual_axes";
    if (!mesh_ && !attrs_.manualAxes.empty())
      fail(attrPointer(op_, key), "cannot have manual_axes when there are no in/out shardings");
    std::set<std::string> seen;
    for (size_t i = 0; i < attrs_.manualAxes.size(); ++i) {
      const std::string &axis = attrs_.manualAxes[i];
      const std::string pointer = joinPointer(attrPointer(op_, key), i);
      auto index = mesh_->axisIndex(axis);
      if (!index)
        fail(pointer, "unknown manual axis: \"" + axis + "\"");
      if (!seen.insert(axis).second)
        fail(pointer, "duplicate manual axis: \"" + axis + "\"");
      if (i > 0 && mesh_->axisIndex(attrs_.manualAxes[i - 1]) > index)
        fail(pointer, "manual_axes are not ordered w.r.t. mesh: \"" + axis + "\" comes after \"" +
                          attrs_.manualAxes[i - 1] + "\"");
      if (const ManualAxisInfo *bound = outer_.find(axis))
        fail(pointer, "operates on axis \"" + axis +
                          "\" which is already bound by a parent manual_computation op (at " +
                          bound->owner->pointer + ")");
    }
  }

  void checkInSharding(size_t k) {
    const TensorSharding &sharding = attrs_.inShardings[k];
    const std::string pointer = shardingPointer(op_, "in_shardings", k);
    const TensorType &global = graph_.type(op_.operands[k]);
    verifyShardingInScope(sharding, global, graph_, pointer, outer_);
    if (!global.isToken()) // a token holds nothing to split (Shardy skips it too)
      verifyManualAxesUse(sharding, manual_, attrs_.manualAxes, pointer, "operand", k);
    TensorType expected = localType(global, sharding, manual_, *mesh_, pointer);

    RegionArgument &arg = op_.body()->args[k];
    Value &argValue = graph_.value(arg.value);
    if (argValue.type && *argValue.type != expected)
      fail(joinPointer(arg.pointer, "type"), shapeMismatch("operand", k, expected, *argValue.type));
    argValue.type = expected;
  }

  void checkOutShardingBeforeBody(size_t k) {
    const TensorSharding &sharding = attrs_.outShardings[k];
    const std::string pointer = shardingPointer(op_, "out_shardings", k);
    verifyShardingOnMesh(sharding, *mesh_, pointer);
    verifyNoManualAxes(sharding, outer_, pointer);
    // A rank-0 one may be a token's: checked once the body's type is known.
    if (!sharding.dims.empty())
      verifyManualAxesUse(sharding, manual_, attrs_.manualAxes, pointer, "result", k);
  }

  void checkResults() {
    const Region &body = *op_.body();
    if (body.results.size() != op_.results.size())
      fail(joinPointer(body.pointer, "return"),
           "number of op results and region results must match. Op has " +
               std::to_string(op_.results.size()) + " op results and " +
               std::to_string(body.results.size()) + " region results");
    for (size_t k = 0; k < op_.results.size(); ++k) {
      const TensorSharding &sharding = attrs_.outShardings[k];
      const std::string pointer = shardingPointer(op_, "out_shardings", k);
      const TensorType &local = graph_.type(body.results[k].value);
      verifyShardingRank(sharding, local, *mesh_, pointer);
      if (sharding.dims.empty() && !local.isToken())
        verifyManualAxesUse(sharding, manual_, attrs_.manualAxes, pointer, "result", k);
      TensorType global;
      if (k < op_.declaredTypes.size() && op_.declaredTypes[k]) {
        global = *op_.declaredTypes[k];
        verifyShardingRank(sharding, global, *mesh_, pointer);
        TensorType expected = localType(global, sharding, manual_, *mesh_, pointer);
        if (expected != local)
          fail(body.results[k].pointer, shapeMismatch("result", k, expected, local));
      } else {
        auto multiplied = globalType(local, sharding, manual_, *mesh_);
        if (!multiplied)
          fail(pointer, "result " + std::to_string(k) + " is too large");
        global = *multiplied;
      }
      graph_.value(op_.results[k]).type = global;
    }
  }

  Graph &graph_;
  Op &op_;
  const ManualComputationAttrs &attrs_;
  const ManualScope &outer_;
  ManualAxisSet manual_;
  const Mesh *mesh_ = nullptr;
};

} // namespace

void verifyManualComputation(Graph &graph, Op &op, const ManualScope &outer,
                             const BodyVerifier &verifyBody) {
  if (!op.body())
    fail(op.pointer, "\"manual_computation\" needs a `body`");
  ManualComputationChecker(graph, op, outer).run(verifyBody);
}

std::vector<TensorType> manualComputationResultTypes(const Graph &graph, const Op &op) {
  const auto &attrs = op.attr<ManualComputationAttrs>();
  const Mesh *mesh = manualComputationMesh(graph, op);
  ManualAxisSet manual(attrs.manualAxes.begin(), attrs.manualAxes.end());
  std::vector<TensorType> types;
  for (size_t k = 0; k < op.results.size(); ++k) {
    if (!op.body() || k >= op.body()->results.size() || k >= attrs.outShardings.size() || !mesh)
      fail(op.pointer, "\"manual_computation\" result " + std::to_string(k) +
                           " has no body return value and out_sharding");
    const TensorType &local = graph.type(op.body()->results[k].value);
    auto global = globalType(local, attrs.outShardings[k], manual, *mesh);
    if (!global)
      fail(op.pointer, "result " + std::to_string(k) + " is too large");
    types.push_back(*global);
  }
  return types;
}

} // namespace shardgen::verify
