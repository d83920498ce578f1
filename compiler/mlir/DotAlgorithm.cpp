#include "compiler/mlir/DotAlgorithm.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "compiler/ir/Diagnostic.h"
#include "compiler/mlir/MlirParser.h"
#include "compiler/mlir/SdyAttributes.h"
#include "compiler/mlir/StepBuilder.h"

namespace shardgen::mlir {

namespace {

/// The most components an operand is split into (XLA's algorithms take up
/// to three: bf16_9x).
constexpr int64_t kMaxComponents = 3;

/// An operand's precision: a storage type, or tf32 (f32's exponent, 10
/// mantissa bits: reduce_precision on the operand's type).
struct Precision {
  std::optional<ElementType> type; // none: tf32
};

struct Algorithm {
  Precision lhs, rhs;
  ElementType accumulation = ElementType::F32;
  int64_t lhsComponents = 0, rhsComponents = 0, primitiveOperations = 0;
};

std::string trimmed(const std::string &text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos)
    return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

Algorithm parseAlgorithm(const Attribute &attr, const std::string &where) {
  auto bad = [&](const std::string &what) { fail(where, "dot algorithm: " + what); };
  if (attr.kind != Attribute::Kind::Dialect ||
      (!attr.text.empty() && attr.text != "stablehlo.dot_algorithm"))
    bad("expected <...> or #stablehlo.dot_algorithm<...>");
  Algorithm algorithm;
  std::set<std::string> seen;
  auto precision = [&](const std::string &key, const std::string &value) {
    if (value == "tf32")
      return Precision{std::nullopt};
    std::optional<ElementType> type = parseElementType(value);
    if (!type || !isFloat(*type))
      bad(key + " must be a floating-point type or tf32, got '" + value + "'");
    return Precision{type};
  };
  auto count = [&](const std::string &key, const std::string &value) {
    // C22-C24: at least one; more than XLA's three components is refused.
    const bool digits =
        !value.empty() && value.size() <= 3 &&
        std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
    const int64_t most =
        key == "num_primitive_operations" ? kMaxComponents * kMaxComponents : kMaxComponents;
    if (!digits || std::stoll(value) < 1 || std::stoll(value) > most)
      bad(key + " must be an integer in [1, " + std::to_string(most) + "], got '" + value + "'");
    return std::stoll(value);
  };
  for (const std::string &item : splitTopLevel(attr.body)) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos)
      bad("expected 'name = value', got '" + trimmed(item) + "'");
    const std::string key = trimmed(item.substr(0, eq)), value = trimmed(item.substr(eq + 1));
    if (!seen.insert(key).second)
      bad("'" + key + "' given twice");
    if (key == "lhs_precision_type") {
      algorithm.lhs = precision(key, value);
    } else if (key == "rhs_precision_type") {
      algorithm.rhs = precision(key, value);
    } else if (key == "accumulation_type") {
      std::optional<ElementType> type = parseElementType(value);
      if (!type || !isFloat(*type))
        bad("accumulation_type must be a floating-point type, got '" + value + "'");
      algorithm.accumulation = *type;
    } else if (key == "lhs_component_count") {
      algorithm.lhsComponents = count(key, value);
    } else if (key == "rhs_component_count") {
      algorithm.rhsComponents = count(key, value);
    } else if (key == "num_primitive_operations") {
      algorithm.primitiveOperations = count(key, value);
    } else if (key == "allow_imprecise_accumulation") {
      // Either way: the sums are never less precise than the accumulation type.
      if (value != "true" && value != "false")
        bad("allow_imprecise_accumulation must be true or false, got '" + value + "'");
    } else {
      bad("unknown field '" + key + "'");
    }
  }
  for (const char *key :
       {"lhs_precision_type", "rhs_precision_type", "accumulation_type", "lhs_component_count",
        "rhs_component_count", "num_primitive_operations", "allow_imprecise_accumulation"})
    if (!seen.count(key))
      bad(std::string("'") + key + "' is missing");
  return algorithm;
}

/// C21: an algorithm leaves the precision config at DEFAULT.
void checkDefaultPrecision(const Operation &dot) {
  for (const char *key : {"precision", "precision_config"}) {
    const Attribute *config = dot.find(key);
    if (!config)
      continue;
    for (const Attribute &entry : config->elements) {
      const std::string &word = entry.kind == Attribute::Kind::Word ? entry.text : entry.body;
      if (trimmed(word) != "DEFAULT" && trimmed(word) != "precision DEFAULT")
        fail(entry.loc.str(), "a dot with an algorithm must have a DEFAULT precision config (C21)");
    }
  }
}

bool isDimensionAttribute(const std::string &name) {
  return name == "dot_dimension_numbers" || name == "batching_dims" || name == "contracting_dims";
}

/// One operand's components, each as wide as the precision allows: in the
/// precision type where it is one, else (tf32, or a precision holding the
/// operand's type) in the operand's type.
std::vector<Val> components(StepBuilder &b, const Val &operand, const Precision &precision,
                            int64_t count, const SourceLoc &loc) {
  const ElementType wide = operand.type;
  const bool keepsValue =
      precision.type && (*precision.type == wide || holdsExactly(*precision.type, wide));
  auto round = [&](const Val &x) {
    if (keepsValue)
      return x;
    if (!precision.type) { // tf32: 8 exponent and 10 mantissa bits
      auto bits = [&](int64_t n) {
        Attribute attr = makeAttribute(Attribute::Kind::Integer, loc, std::to_string(n));
        attr.integer = n;
        attr.typeText = "i32";
        return attr;
      };
      if (holdsExactly(ElementType::F32, wide))
        return x; // f16 and bf16 are tf32 values
      return b.op("reduce_precision", {x}, b.typeOf(x),
                  {{"exponent_bits", bits(8)}, {"mantissa_bits", bits(10)}});
    }
    return b.convert(x, *precision.type);
  };
  std::vector<Val> parts;
  Val rest = operand;
  for (int64_t k = 0; k < count; ++k) {
    parts.push_back(round(rest));
    if (k + 1 < count) {
      const Val &part = parts.back();
      rest = b.sub(rest, part.type == wide ? part : b.convert(part, wide));
    }
  }
  return parts;
}

/// The products an algorithm takes: pairs (i, j) of components by i + j,
/// the first num_primitive_operations of them where that takes whole
/// diagonals (else an error).
std::vector<std::pair<int64_t, int64_t>> productPairs(const Algorithm &algorithm,
                                                      const std::string &where) {
  std::vector<std::pair<int64_t, int64_t>> pairs;
  for (int64_t sum = 0; sum < algorithm.lhsComponents + algorithm.rhsComponents - 1; ++sum)
    for (int64_t i = 0; i < algorithm.lhsComponents; ++i)
      if (sum - i >= 0 && sum - i < algorithm.rhsComponents)
        pairs.emplace_back(i, sum - i);
  const size_t taken = std::min(pairs.size(), static_cast<size_t>(algorithm.primitiveOperations));
  const bool wholeDiagonals =
      static_cast<int64_t>(taken) == algorithm.primitiveOperations &&
      (taken == pairs.size() ||
       pairs[taken].first + pairs[taken].second > pairs[taken - 1].first + pairs[taken - 1].second);
  if (!wholeDiagonals)
    fail(where, "dot algorithm with " + std::to_string(algorithm.lhsComponents) + " x " +
                    std::to_string(algorithm.rhsComponents) + " components and " +
                    std::to_string(algorithm.primitiveOperations) +
                    " primitive operations is not supported (supported: the products of the "
                    "components whose indices sum to at most k, as bf16_3x, bf16_6x, bf16_9x)");
  pairs.resize(taken);
  return pairs;
}

} // namespace

bool hasDotAlgorithm(const Operation &op) {
  return (op.name == "stablehlo.dot_general" || op.name == "stablehlo.dot") &&
         op.find("algorithm") != nullptr;
}

std::vector<Operation> decomposeDotAlgorithm(const Operation &dot) {
  const std::string where = dot.loc.str();
  if (dot.operands.size() != 2 || dot.results.size() != 1 || dot.operandTypes.size() != 2 ||
      dot.resultTypes.size() != 1)
    fail(where, "'" + dot.name + "' takes lhs and rhs, gives one result and needs their types");
  const Algorithm algorithm =
      parseAlgorithm(*dot.find("algorithm"), dot.find("algorithm")->loc.str());
  checkDefaultPrecision(dot);
  auto typeOf = [](const TypeRef &ref) { return statedType(ref, ref.loc.str()); };
  const TensorType lhs = typeOf(dot.operandTypes[0]), rhs = typeOf(dot.operandTypes[1]);
  const TensorType result = typeOf(dot.resultTypes[0]);
  if (isComplex(lhs.elementType))
    fail(where, "dot algorithms on complex operands are not supported, got " + printType(lhs));

  const std::vector<std::pair<int64_t, int64_t>> pairs = productPairs(algorithm, where);

  StepBuilder b(dot, result.shape);
  auto keepOnResult = [](const std::string &name) {
    return name != "algorithm" && name != "precision" && name != "precision_config" &&
           !isDimensionAttribute(name);
  };
  std::vector<NamedAttribute> dimensions;
  for (const NamedAttribute &attr : dot.attrs)
    if (isDimensionAttribute(attr.name))
      dimensions.push_back(attr);
  auto product = [&](const Val &a, const Val &c, ElementType type) {
    // The same op name and dimension attributes, without the algorithm.
    return b.op(dot.name.substr(std::string("stablehlo.").size()), {a, c},
                TensorType{type, result.shape}, dimensions);
  };
  const Val lhsValue{dot.operands[0].name, lhs.elementType, lhs.shape};
  const Val rhsValue{dot.operands[1].name, rhs.elementType, rhs.shape};
  if (!isFloat(lhs.elementType)) { // integers: the float precisions do not apply
    Val out = product(lhsValue, rhsValue, result.elementType);
    return b.finish(out, keepOnResult);
  }

  std::vector<Val> lhsParts =
      components(b, lhsValue, algorithm.lhs, algorithm.lhsComponents, dot.loc);
  std::vector<Val> rhsParts =
      components(b, rhsValue, algorithm.rhs, algorithm.rhsComponents, dot.loc);
  if (lhsParts[0].type != rhsParts[0].type) { // two precisions: both exact in the operands' type
    for (Val &part : lhsParts)
      part = part.type == lhs.elementType ? part : b.convert(part, lhs.elementType);
    for (Val &part : rhsParts)
      part = part.type == rhs.elementType ? part : b.convert(part, rhs.elementType);
  }
  // Smallest terms first: the last diagonal's products, then up to (0, 0).
  std::optional<Val> sum;
  for (auto it = pairs.rbegin(); it != pairs.rend(); ++it) {
    const Val &a = lhsParts[it->first], &c = rhsParts[it->second];
    // Summed in the accumulation type where it holds the components, else
    // in theirs (never less precise than asked).
    const ElementType sumType =
        algorithm.accumulation == a.type || holdsExactly(algorithm.accumulation, a.type)
            ? algorithm.accumulation
            : a.type;
    Val term = product(a, c, sumType);
    sum = sum ? b.add(*sum, term) : term;
  }
  Val out = *sum;
  if (out.type != result.elementType)
    out = b.convert(out, result.elementType);
  return b.finish(out, keepOnResult);
}

} // namespace shardgen::mlir
