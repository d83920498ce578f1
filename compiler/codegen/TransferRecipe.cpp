#include "compiler/codegen/TransferRecipe.h"

#include <string>

#include "compiler/ir/Diagnostic.h"

namespace shardgen::codegen {

namespace {

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "x" : "") + std::to_string(shape[i]);
  return text + "]";
}

class RecipeBuilder {
public:
  /// `senders`: the devices a collective_permute's pairs send to `device`.
  RecipeBuilder(const SpmdProgram &program, const SpmdStep &step, int64_t device,
                std::vector<int64_t> senders)
      : step_(step), device_(device), in_(program.layout(step.inputs.at(0))),
        out_(program.layout(step.outputs.at(0))),
        // A permute's recipe needs no group (listing it per device would
        // make the step quadratic in the devices).
        group_(step.kind == StepKind::CollectivePermute
                   ? std::vector<int64_t>{}
                   : groupDevices(program.mesh, step.axes, device)),
        n_(axesSize(program.mesh, step.axes)),
        position_(indexOverAxes(program.mesh, step.axes, device)), senders_(std::move(senders)) {}

  TransferRecipe build() {
    switch (step_.kind) {
    case StepKind::AllGather:
      allGather();
      break;
    case StepKind::AllToAll:
      allToAll();
      break;
    case StepKind::CollectivePermute:
      collectivePermute();
      break;
    case StepKind::Broadcast:
      wholePieceFrom(group_.front());
      break;
    case StepKind::AllReduce:
      allReduce();
      break;
    case StepKind::ReduceScatter:
      reduceScatter();
      break;
    default:
      fail("not a collective step");
    }
    if (resultShape_ != out_.extentsOf(device_))
      fail("its semantics give device " + std::to_string(device_) + " a piece " +
           shapeText(resultShape_) + ", its result layout " + shapeText(out_.extentsOf(device_)));
    return std::move(recipe_);
  }

private:
  [[noreturn]] void fail(const std::string &what) const {
    throw GraphError(step_.pointer,
                     "internal: " + std::string(stepKindName(step_.kind)) + " step: " + what);
  }

  std::vector<int64_t> zeros() const { return std::vector<int64_t>(in_.rank(), 0); }
  std::vector<int64_t> piece(int64_t source) const { return in_.extentsOf(source); }

  int64_t chunkOf(int64_t extent) const {
    if (extent % n_ != 0)
      fail("dimension size " + std::to_string(extent) + " is not divisible by the group size " +
           std::to_string(n_));
    return extent / n_;
  }

  void wholePieceFrom(int64_t source) {
    recipe_.copies.push_back(PieceCopy{source, zeros(), piece(source), zeros()});
    resultShape_ = piece(source);
  }

  /// Concatenation in group order along `dim` of `boxOf(member)`.
  template <typename BoxOf> void concatenate(int64_t dim, BoxOf &&boxOf) {
    int64_t offset = 0;
    for (int64_t member : group_) {
      PieceCopy copy = boxOf(member);
      copy.to = zeros();
      copy.to[dim] = offset;
      if (!recipe_.copies.empty())
        for (int64_t d = 0; d < in_.rank(); ++d)
          if (d != dim && copy.extents[d] != resultShape_[d])
            fail("group members' pieces differ outside the concatenated dimension");
      resultShape_ = copy.extents;
      offset += copy.extents[dim];
      recipe_.copies.push_back(std::move(copy));
    }
    resultShape_[dim] = offset;
  }

  void allGather() {
    concatenate(step_.dimension,
                [&](int64_t member) { return PieceCopy{member, zeros(), piece(member), {}}; });
  }

  void allToAll() {
    const int64_t split = step_.dimension;
    concatenate(step_.concatDimension, [&](int64_t member) {
      PieceCopy copy{member, zeros(), piece(member), {}};
      copy.extents[split] = chunkOf(piece(member)[split]);
      copy.from[split] = position_ * copy.extents[split];
      return copy;
    });
  }

  void collectivePermute() {
    if (senders_.size() > 1)
      fail("device " + std::to_string(device_) + " receives from several devices");
    if (senders_.empty()) {
      recipe_.zeros = true;
      resultShape_ = piece(device_);
      return;
    }
    wholePieceFrom(senders_.front());
  }

  void allReduce() {
    for (int64_t member : group_) {
      if (piece(member) != piece(device_))
        fail("group members' pieces differ");
      wholePieceFrom(member);
    }
  }

  void reduceScatter() {
    const int64_t dim = step_.dimension;
    for (int64_t member : group_) {
      PieceCopy copy{member, zeros(), piece(member), zeros()};
      if (piece(member) != piece(device_))
        fail("group members' pieces differ");
      copy.extents[dim] = chunkOf(piece(member)[dim]);
      copy.from[dim] = position_ * copy.extents[dim];
      resultShape_ = copy.extents;
      recipe_.copies.push_back(std::move(copy));
    }
  }

  const SpmdStep &step_;
  const int64_t device_;
  const ShardLayout &in_, &out_;
  const std::vector<int64_t> group_;
  const int64_t n_, position_;
  const std::vector<int64_t> senders_;
  TransferRecipe recipe_;
  std::vector<int64_t> resultShape_;
};

} // namespace

std::vector<TransferRecipe> transferRecipes(const SpmdProgram &program, const SpmdStep &step) {
  const int64_t devices = program.mesh.numDevices();
  std::vector<std::vector<int64_t>> senders(static_cast<size_t>(devices));
  for (const auto &[from, to] : step.pairs)
    if (to >= 0 && to < devices)
      senders[to].push_back(from);
  std::vector<TransferRecipe> recipes;
  recipes.reserve(senders.size());
  for (int64_t device = 0; device < devices; ++device)
    recipes.push_back(RecipeBuilder(program, step, device, std::move(senders[device])).build());
  return recipes;
}

bool isReduction(const SpmdStep &step) {
  return step.kind == StepKind::AllReduce || step.kind == StepKind::ReduceScatter;
}

} // namespace shardgen::codegen
