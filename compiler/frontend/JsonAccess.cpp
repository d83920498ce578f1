#include "compiler/frontend/JsonAccess.h"

#include <algorithm>
#include <limits>

#include "compiler/ir/Diagnostic.h"

namespace shardgen {

std::string PointerRef::str() const {
  if (text_)
    return *text_;
  return isIndex_ ? joinPointer(parent_->str(), index_)
                  : joinPointer(parent_->str(), std::string(key_));
}

std::string_view jsonKindName(const Json &json) {
  switch (json.type()) {
  case Json::value_t::null:
    return "null";
  case Json::value_t::object:
    return "an object";
  case Json::value_t::array:
    return "an array";
  case Json::value_t::string:
    return "a string";
  case Json::value_t::boolean:
    return "a boolean";
  case Json::value_t::number_integer:
  case Json::value_t::number_unsigned:
    return "an integer";
  case Json::value_t::number_float:
    return "a number with a fraction or exponent";
  default:
    return "a binary value";
  }
}

static std::string kindMismatch(std::string_view expected, const Json &json) {
  return "expected " + std::string(expected) + ", got " + std::string(jsonKindName(json));
}

std::string readString(const Json &json, const PointerRef &pointer) {
  if (!json.is_string())
    fail(pointer.str(), kindMismatch("a string", json));
  return json.get<std::string>();
}

int64_t readInteger(const Json &json, const PointerRef &pointer) {
  if (json.is_number_unsigned()) {
    uint64_t value = json.get<uint64_t>();
    if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      fail(pointer.str(), "integer " + std::to_string(value) + " is too large (at most 2^63-1)");
    return static_cast<int64_t>(value);
  }
  if (!json.is_number_integer())
    fail(pointer.str(), kindMismatch("an integer", json));
  return json.get<int64_t>();
}

// Returns its argument (checked): callers pass elements of a parsed document.
const Json &readArray(const Json &json, const PointerRef &pointer) {
  if (!json.is_array())
    fail(pointer.str(), kindMismatch("an array", json));
  return json; // NOLINT(bugprone-return-const-ref-from-parameter)
}

std::vector<int64_t> readIntegerArray(const Json &json, const PointerRef &pointer) {
  if (!json.is_array())
    fail(pointer.str(), kindMismatch("an array of integers", json));
  std::vector<int64_t> values;
  values.reserve(json.size());
  for (size_t i = 0; i < json.size(); ++i) {
    if (!json[i].is_number_integer()) // includes unsigned
      fail(joinPointer(pointer.str(), i),
           kindMismatch("an array of integers", json[i]) + " element");
    values.push_back(readInteger(json[i], joinPointer(pointer.str(), i)));
  }
  return values;
}

std::vector<std::string> readStringArray(const Json &json, const PointerRef &pointer) {
  if (!json.is_array())
    fail(pointer.str(), kindMismatch("an array of strings", json));
  std::vector<std::string> values;
  values.reserve(json.size());
  for (size_t i = 0; i < json.size(); ++i) {
    if (!json[i].is_string())
      fail(joinPointer(pointer.str(), i),
           kindMismatch("an array of strings", json[i]) + " element");
    values.push_back(json[i].get<std::string>());
  }
  return values;
}

JsonObject::JsonObject(const Json &json, std::string pointer, std::string_view kind,
                       std::string_view name)
    : json_(json), pointer_(std::move(pointer)), kind_(kind), name_(name) {
  if (!json_.is_object())
    fail(pointer_, kindMismatch("an object", json_) + " for " + what());
}

std::string JsonObject::what() const {
  std::string what(kind_);
  if (!name_.empty())
    what += " \"" + std::string(name_) + "\"";
  return what;
}

std::string JsonObject::pointerTo(std::string_view key) const {
  return joinPointer(pointer_, std::string(key));
}

const Json *JsonObject::find(std::string_view key) const {
  // Objects have a handful of keys: a linear scan beats hashing.
  for (auto it = json_.begin(); it != json_.end(); ++it)
    if (it.key() == key)
      return &it.value();
  return nullptr;
}

const Json &JsonObject::require(std::string_view key) const {
  if (const Json *value = find(key))
    return *value;
  fail(pointerTo(key), "missing required key \"" + std::string(key) + "\"");
}

Metadata JsonObject::checkKeys(std::initializer_list<std::string_view> allowed,
                               std::span<const std::string_view> moreAllowed) const {
  Metadata metadata;
  for (auto it = json_.begin(); it != json_.end(); ++it) {
    const std::string &key = it.key();
    if (!key.empty() && key[0] == '_') {
      metadata.emplace_back(key, it.value().dump());
      continue;
    }
    bool known = std::find(allowed.begin(), allowed.end(), key) != allowed.end() ||
                 std::find(moreAllowed.begin(), moreAllowed.end(), key) != moreAllowed.end();
    if (!known)
      fail(pointerTo(key), "unknown key \"" + key + "\" in " + what());
  }
  return metadata;
}

} // namespace shardgen
