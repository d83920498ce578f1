#include "compiler/frontend/TextFields.h"

#include "compiler/ir/Diagnostic.h"

namespace shardgen {

UniquedOptional<TensorType> readType(const Json &json, const PointerRef &pointer,
                                     TypeTextCache &cache) {
  if (!json.is_string())
    readString(json, pointer); // reports the wrong kind
  std::string error;
  UniquedOptional<TensorType> type = cache.parse(json.get_ref<const std::string &>(), &error);
  if (!type)
    fail(pointer.str(), error);
  return type;
}

TensorSharding readSharding(const Json &json, const PointerRef &pointer) {
  std::string error;
  auto sharding = parseSharding(readString(json, pointer), &error);
  if (!sharding)
    fail(pointer.str(), error);
  return *sharding;
}

OpShardingRule readShardingRule(const Json &json, const PointerRef &pointer) {
  std::string error;
  auto rule = parseOpShardingRule(readString(json, pointer), &error);
  if (!rule)
    fail(pointer.str(), error);
  return *rule;
}

namespace {
/// Parses one of a closed set of names, listing them all when it fails.
template <typename Enum, size_t N>
Enum readEnum(const Json &json, const PointerRef &pointer, std::string_view field,
              std::optional<Enum> (*parse)(std::string_view), const Enum (&all)[N],
              std::string_view (*name)(Enum)) {
  std::string text = readString(json, pointer);
  if (auto value = parse(text))
    return *value;
  std::string allowed;
  for (size_t i = 0; i < N; ++i)
    allowed += (i ? ", " : "") + std::string(name(all[i]));
  fail(pointer.str(),
       "invalid " + std::string(field) + " \"" + text + "\" (expected one of " + allowed + ")");
}
} // namespace

ComparisonDirection readComparisonDirection(const Json &json, const PointerRef &pointer) {
  using D = ComparisonDirection;
  static constexpr D all[] = {D::EQ, D::NE, D::LT, D::LE, D::GT, D::GE};
  return readEnum(json, pointer, "comparison_direction", parseComparisonDirection, all,
                  comparisonDirectionName);
}

Reducer readReducer(const Json &json, const PointerRef &pointer) {
  using R = Reducer;
  static constexpr R all[] = {R::Add, R::Mul, R::Max, R::Min, R::And, R::Or};
  return readEnum(json, pointer, "reducer", parseReducer, all, reducerName);
}

BarrierDirection readBarrierDirection(const Json &json, const PointerRef &pointer) {
  using B = BarrierDirection;
  static constexpr B all[] = {B::None, B::Forward, B::Backward, B::Both};
  return readEnum(json, pointer, "allowed_direction", parseBarrierDirection, all,
                  barrierDirectionName);
}

} // namespace shardgen
