#include "compiler/mlir/RaggedDot.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <string_view>

#include "compiler/ir/Diagnostic.h"
#include "compiler/mlir/DenseElements.h"
#include "compiler/mlir/FunctionExpansion.h"
#include "compiler/mlir/MlirParser.h"

namespace shardgen::mlir {

namespace {

/// #chlo.ragged_dot<...>'s six lists.
struct RaggedDims {
  std::vector<int64_t> lhsBatching, rhsBatching, lhsContracting, rhsContracting, lhsRagged,
      rhsGroup;
};

/// Reads the body of `#chlo.ragged_dot<name = [a, b], ...>`.
RaggedDims parseRaggedDims(const Attribute &attr, const std::string &where) {
  RaggedDims dims;
  const std::string &text = attr.body;
  size_t at = 0;
  auto skipSpace = [&] {
    while (at < text.size() && std::string_view(" \t\r\n").find(text[at]) != std::string_view::npos)
      ++at;
  };
  auto bad = [&](const std::string &what) {
    fail(where, "ragged_dot_dimension_numbers: " + what + " in '" + text + "'");
  };
  std::set<std::string> seen;
  while (true) {
    skipSpace();
    if (at >= text.size())
      break;
    const size_t start = at;
    while (at < text.size() &&
           (std::isalpha(static_cast<unsigned char>(text[at])) || text[at] == '_'))
      ++at;
    const std::string key = text.substr(start, at - start);
    std::vector<int64_t> *list = key == "lhs_batching_dimensions"      ? &dims.lhsBatching
                                 : key == "rhs_batching_dimensions"    ? &dims.rhsBatching
                                 : key == "lhs_contracting_dimensions" ? &dims.lhsContracting
                                 : key == "rhs_contracting_dimensions" ? &dims.rhsContracting
                                 : key == "lhs_ragged_dimensions"      ? &dims.lhsRagged
                                 : key == "rhs_group_dimensions"       ? &dims.rhsGroup
                                                                       : nullptr;
    if (!list)
      bad("unknown field '" + key + "'");
    if (!seen.insert(key).second)
      bad("'" + key + "' given twice");
    skipSpace();
    if (at >= text.size() || text[at] != '=')
      bad("expected '=' after " + key);
    ++at;
    skipSpace();
    if (at >= text.size() || text[at] != '[')
      bad("expected '[' after " + key + " =");
    ++at;
    while (true) {
      skipSpace();
      if (at < text.size() && text[at] == ']') {
        ++at;
        break;
      }
      const size_t digits = at;
      while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])) &&
             at - digits < 18)
        ++at;
      if (at == digits)
        bad("expected a dimension in " + key);
      list->push_back(std::stoll(text.substr(digits, at - digits)));
      skipSpace();
      if (at < text.size() && text[at] == ',')
        ++at;
      else if (at >= text.size() || text[at] != ']')
        bad("expected ',' or ']' in " + key);
    }
    skipSpace();
    if (at < text.size() && text[at] == ',')
      ++at;
  }
  return dims;
}

TensorType typeOf(const TypeRef &ref, const std::string &where) {
  return statedType(ref, where, "chlo.ragged_dot: ");
}

/// The checked operands of one ragged_dot and the function text it becomes.
class RaggedDot {
public:
  RaggedDot(const Operation &op, std::string name) : name_(std::move(name)) {
    where_ = op.loc.str();
    check(op.operands.size() == 3 && op.results.size() == 1 && op.regions.empty(),
          "takes lhs, rhs and group_sizes and has one result");
    check(op.operandTypes.size() == 3 && op.resultTypes.size() == 1,
          "needs its types (`: (lhs, rhs, group_sizes) -> result`)");
    lhs_ = typeOf(op.operandTypes[0], where_);
    rhs_ = typeOf(op.operandTypes[1], where_);
    sizes_ = typeOf(op.operandTypes[2], where_);
    result_ = typeOf(op.resultTypes[0], where_);
    const Attribute *numbers = op.find("ragged_dot_dimension_numbers");
    check(numbers && numbers->kind == Attribute::Kind::Dialect,
          "needs ragged_dot_dimension_numbers = #chlo.ragged_dot<...>");
    dims_ = parseRaggedDims(*numbers, where_);
    checkDims();
  }

  int64_t groups() const { return mode_ == 3 ? 0 : groups_; }

  /// `func.func private @name(...) { ... }`, StableHLO's legalization.
  std::string functionText() const {
    std::string text = "func.func private @" + name_ + "(%lhs: " + printType(lhs_) +
                       ", %rhs: " + printType(rhs_) + ", %group_sizes: " + printType(sizes_) +
                       ") -> " + printType(result_) + " {\n";
    if (mode_ == 3)
      text += line("%out = " + dot("%lhs", "%rhs", dims_.rhsBatching, dims_.rhsContracting,
                                   printType(rhs_), result_));
    else
      text += groupsText();
    return text + "  return %out : " + printType(result_) + "\n}\n";
  }

private:
  void check(bool ok, const std::string &message) const {
    if (!ok)
      fail(where_, "chlo.ragged_dot " + message);
  }

  void checkDimsIn(const std::vector<int64_t> &dims, int64_t rank, const char *what) const {
    std::set<int64_t> distinct;
    for (int64_t d : dims)
      check(d >= 0 && d < rank && distinct.insert(d).second,
            std::string(what) + " must be distinct dims of the operand, got " + integerList(dims));
  }

  void checkDims() {
    check((isSignedInteger(sizes_.elementType) ||
           (isUnsignedInteger(sizes_.elementType) && sizes_.elementType != ElementType::I1)) &&
              sizes_.rank() >= 1,
          "needs integer group_sizes of rank 1 at least, got " + printType(sizes_));
    check(dims_.lhsRagged.size() == 1, "needs exactly one lhs ragged dimension");
    check(dims_.lhsBatching.size() == dims_.rhsBatching.size() &&
              dims_.lhsContracting.size() == dims_.rhsContracting.size(),
          "needs as many lhs as rhs batching and contracting dimensions");
    checkDimsIn(dims_.lhsBatching, lhs_.rank(), "lhs_batching_dimensions");
    checkDimsIn(dims_.rhsBatching, rhs_.rank(), "rhs_batching_dimensions");
    checkDimsIn(dims_.lhsContracting, lhs_.rank(), "lhs_contracting_dimensions");
    checkDimsIn(dims_.rhsContracting, rhs_.rank(), "rhs_contracting_dimensions");
    checkDimsIn(dims_.lhsRagged, lhs_.rank(), "lhs_ragged_dimensions");
    checkDimsIn(dims_.rhsGroup, rhs_.rank(), "rhs_group_dimensions");
    ragged_ = dims_.lhsRagged[0];
    const auto contains = [](const std::vector<int64_t> &dims, int64_t d) {
      return std::find(dims.begin(), dims.end(), d) != dims.end();
    };
    mode_ = contains(dims_.lhsContracting, ragged_) ? 2
            : contains(dims_.lhsBatching, ragged_)  ? 3
                                                    : 1;
    check(mode_ == 1 ? dims_.rhsGroup.size() == 1 : dims_.rhsGroup.empty(),
          mode_ == 1 ? "with a ragged lhs free dim needs one rhs group dimension"
                     : "with a ragged contracting or batching dim takes no rhs group dimension");
    groups_ = sizes_.shape.back();
    check(groups_ <= kMaxRaggedDotGroups, "has " + std::to_string(groups_) + " groups; at most " +
                                              std::to_string(kMaxRaggedDotGroups) +
                                              " are supported (one dot per group)");
    if (mode_ == 1) {
      const int64_t group = dims_.rhsGroup[0];
      check(!contains(dims_.rhsBatching, group) && !contains(dims_.rhsContracting, group),
            "rhs group dimension must be neither batching nor contracting");
      check(rhs_.shape[group] == groups_, "has " + std::to_string(rhs_.shape[group]) +
                                              " rhs groups and " + std::to_string(groups_) +
                                              " group sizes");
      for (int64_t d : dims_.rhsBatching)
        rhsBatching_.push_back(d > group ? d - 1 : d);
      for (int64_t d : dims_.rhsContracting)
        rhsContracting_.push_back(d > group ? d - 1 : d);
    }
    // Leading group_sizes dims are the lhs's leading batch dims (the mask
    // broadcasts them there).
    batch_.assign(sizes_.shape.begin(), sizes_.shape.end() - 1);
    for (size_t d = 0; d < batch_.size(); ++d)
      check(d < dims_.lhsBatching.size() && dims_.lhsBatching[d] == static_cast<int64_t>(d) &&
                lhs_.shape[d] == batch_[d],
            "group_sizes " + printType(sizes_) + " must have the lhs's leading batch dims first");
  }

  static std::string line(const std::string &text) { return "  " + text + "\n"; }

  std::string dot(const std::string &a, const std::string &b, const std::vector<int64_t> &rhsBatch,
                  const std::vector<int64_t> &rhsContract, const std::string &bType,
                  const TensorType &result) const {
    std::string text = "stablehlo.dot_general " + a + ", " + b + ", ";
    if (!dims_.lhsBatching.empty())
      text += "batching_dims = " + integerList(dims_.lhsBatching) + " x " + integerList(rhsBatch) +
              ", ";
    return text + "contracting_dims = " + integerList(dims_.lhsContracting) + " x " +
           integerList(rhsContract) + " : (" + printType(lhs_) + ", " + bType + ") -> " +
           printType(result);
  }

  std::string indexType() const { return printType(TensorType{ElementType::I64, lhs_.shape}); }
  std::string batchType() const { return printType(TensorType{ElementType::I64, batch_}); }

  /// Every group's part, then mode 2's stacking: per group i the lhs masked
  /// to rows [start, start + size) of the ragged dim (zeros elsewhere),
  /// times the group's rhs (mode 1, summed) or the whole rhs (mode 2).
  std::string groupsText() const {
    if (groups_ == 0)
      return line("%out = stablehlo.constant dense<" + zeroOf(result_.elementType) +
                  "> : " + printType(result_));
    Shape iotaShape(lhs_.rank(), 1);
    iotaShape[ragged_] = lhs_.shape[ragged_];
    const TensorType iota{ElementType::I64, iotaShape};
    std::string text =
        line("%iota = stablehlo.iota dim = " + std::to_string(ragged_) + " : " + printType(iota));
    text +=
        line("%index = stablehlo.broadcast_in_dim %iota, dims = " + integerList(upTo(lhs_.rank())) +
             " : (" + printType(iota) + ") -> " + indexType());
    text += line("%zero = stablehlo.constant dense<" + zeroOf(lhs_.elementType) +
                 "> : " + printType(lhs_));
    text += line("%start0 = stablehlo.constant dense<0> : " + batchType());
    for (int64_t g = 0; g < groups_; ++g)
      text += maskedLhsText(g) + (mode_ == 1 ? summedDotText(g) : stackedDotText(g));
    return mode_ == 1 ? text : text + stackText();
  }

  /// %lhs<g>: the lhs with the rows of group g kept, zeros elsewhere; and
  /// %start<g+1>, where the next group starts.
  std::string maskedLhsText(int64_t g) const {
    const std::string i = std::to_string(g), next = std::to_string(g + 1);
    const TensorType sizes{sizes_.elementType, batch_};
    Shape sizeShape = batch_;
    sizeShape.push_back(1);
    std::string bounds;
    for (int64_t d : batch_)
      bounds += "0:" + std::to_string(d) + ", ";
    bounds += i + ":" + next;
    const TensorType sizeSlice{sizes_.elementType, sizeShape};
    std::string text = line("%size" + i + "s = stablehlo.slice %group_sizes [" + bounds + "] : (" +
                            printType(sizes_) + ") -> " + printType(sizeSlice));
    text += line("%size" + i + "r = stablehlo.reshape %size" + i + "s : (" + printType(sizeSlice) +
                 ") -> " + printType(sizes));
    std::string size = "%size" + i + "r";
    if (sizes_.elementType != ElementType::I64) {
      text += line("%size" + i + " = stablehlo.convert %size" + i + "r : (" + printType(sizes) +
                   ") -> " + batchType());
      size = "%size" + i;
    }
    text +=
        line("%start" + next + " = stablehlo.add %start" + i + ", " + size + " : " + batchType());
    const std::string batchDims = integerList(upTo(static_cast<int64_t>(batch_.size())));
    for (const std::string &bound : {std::string("start"), std::string("limit")})
      text += line("%" + bound + i + "b = stablehlo.broadcast_in_dim %start" +
                   (bound == "start" ? i : next) + ", dims = " + batchDims + " : (" + batchType() +
                   ") -> " + indexType());
    const std::string maskType = printType(TensorType{ElementType::I1, lhs_.shape});
    const std::string compared = " : (" + indexType() + ", " + indexType() + ") -> " + maskType;
    text +=
        line("%ge" + i + " = stablehlo.compare GE, %index, %start" + i + "b, SIGNED" + compared);
    text +=
        line("%lt" + i + " = stablehlo.compare LT, %index, %limit" + i + "b, SIGNED" + compared);
    text += line("%mask" + i + " = stablehlo.and %ge" + i + ", %lt" + i + " : " + maskType);
    return text + line("%lhs" + i + " = stablehlo.select %mask" + i +
                       ", %lhs, %zero : " + maskType + ", " + printType(lhs_));
  }

  /// Mode 1: group g's dot, summed in group order; the last sum (or a lone
  /// dot) is %out.
  std::string summedDotText(int64_t g) const {
    const std::string i = std::to_string(g);
    const bool last = g + 1 == groups_;
    const std::string product = g == 0 && last ? "%out" : "%dot" + i;
    std::string text = groupRhsText(g);
    text += line(
        product + " = " +
        dot("%lhs" + i, "%rhs" + i, rhsBatching_, rhsContracting_, printType(groupRhs()), result_));
    if (g > 0)
      text += line((last ? "%out" : "%sum" + i) + " = stablehlo.add " +
                   (g == 1 ? "%dot0" : "%sum" + std::to_string(g - 1)) + ", %dot" + i + " : " +
                   printType(result_));
    return text;
  }

  /// Mode 2: group g's product, shaped as one slice of the stack.
  std::string stackedDotText(int64_t g) const {
    const std::string i = std::to_string(g);
    const TensorType each = resultPerGroup();
    return line("%dot" + i + " = " +
                dot("%lhs" + i, "%rhs", dims_.rhsBatching, dims_.rhsContracting, printType(rhs_),
                    each)) +
           line("%part" + i + " = stablehlo.reshape %dot" + i + " : (" + printType(each) + ") -> " +
                printType(stackSlice()));
  }

  std::string stackText() const {
    std::string types, names;
    for (int64_t g = 0; g < groups_; ++g) {
      names += (g ? ", %part" : "%part") + std::to_string(g);
      types += (g ? ", " : "") + printType(stackSlice());
    }
    return line("%out = stablehlo.concatenate " + names + ", dim = 0 : (" + types + ") -> " +
                printType(result_));
  }

  /// Mode 2: one group's product with a leading dim of 1.
  TensorType stackSlice() const {
    TensorType slice = resultPerGroup();
    slice.shape.insert(slice.shape.begin(), 1);
    return slice;
  }

  /// Mode 2's result without its leading group dim.
  TensorType resultPerGroup() const {
    check(result_.rank() >= 1 && result_.shape[0] == groups_,
          "with a ragged contracting dim has the groups as its result's first dim, got " +
              printType(result_));
    return TensorType{result_.elementType, Shape(result_.shape.begin() + 1, result_.shape.end())};
  }

  /// Mode 1: group g's rhs, its group dim sliced out.
  TensorType groupRhs() const {
    Shape shape = rhs_.shape;
    shape.erase(shape.begin() + dims_.rhsGroup[0]);
    return TensorType{rhs_.elementType, shape};
  }

  std::string groupRhsText(int64_t g) const {
    const int64_t group = dims_.rhsGroup[0];
    std::string bounds;
    Shape sliced = rhs_.shape;
    sliced[group] = 1;
    for (int64_t d = 0; d < rhs_.rank(); ++d)
      bounds +=
          std::string(d ? ", " : "") + (d == group ? std::to_string(g) + ":" + std::to_string(g + 1)
                                                   : "0:" + std::to_string(rhs_.shape[d]));
    const std::string i = std::to_string(g);
    const TensorType slice{rhs_.elementType, sliced};
    return line("%rhs" + i + "s = stablehlo.slice %rhs [" + bounds + "] : (" + printType(rhs_) +
                ") -> " + printType(slice)) +
           line("%rhs" + i + " = stablehlo.reshape %rhs" + i + "s : (" + printType(slice) +
                ") -> " + printType(groupRhs()));
  }

  std::string name_, where_;
  TensorType lhs_, rhs_, sizes_, result_;
  RaggedDims dims_;
  int64_t ragged_ = 0, groups_ = 0;
  int mode_ = 1;
  Shape batch_;
  std::vector<int64_t> rhsBatching_, rhsContracting_; // mode 1: the group dim removed
};

} // namespace

void expandRaggedDots(Module &module) {
  int64_t groups = 0;
  expandEach(module, "chlo.ragged_dot", [&](const Operation &op, const std::string &name) {
    const RaggedDot dot(op, name);
    // Checked before the text is made: all decompositions together stay
    // within what one ragged_dot may have (the inlining budget's share).
    groups += dot.groups();
    if (groups > kMaxRaggedDotGroups)
      fail(op.loc.str(), "chlo.ragged_dot: the module's ragged dots have more than " +
                             std::to_string(kMaxRaggedDotGroups) +
                             " groups in all (one dot per group)");
    return dot.functionText();
  });
}

} // namespace shardgen::mlir
