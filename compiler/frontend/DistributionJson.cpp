#include "compiler/frontend/DistributionJson.h"

#include "compiler/ir/Diagnostic.h"

namespace shardgen {

Distribution readDistribution(const Json &json, const std::string &pointer) {
  JsonObject object(json, pointer, "distribution");
  Distribution distribution;
  distribution.metadata = object.checkKeys({"mesh", "shard_shape", "order"});
  distribution.meshName = readString(object.require("mesh"), object.at("mesh"));
  distribution.shardShape =
      readIntegerArray(object.require("shard_shape"), object.at("shard_shape"));
  if (const Json *order = object.find("order")) {
    std::string text = readString(*order, object.at("order"));
    auto parsed = parseDeviceOrder(text);
    if (!parsed)
      fail(object.pointerTo("order"),
           "invalid order \"" + text + "\" (expected one of row_major, col_major)");
    distribution.order = *parsed;
  }
  return distribution;
}

Json distributionToJson(const Distribution &distribution) {
  Json object = Json::object();
  object["mesh"] = distribution.meshName;
  object["shard_shape"] = distribution.shardShape;
  object["order"] = std::string(deviceOrderName(distribution.order));
  for (const auto &[key, text] : distribution.metadata)
    object[key] = Json::parse(text);
  return object;
}

} // namespace shardgen
