#pragma once
// Pretty-prints JSON for people: 2-space indent, but arrays of scalars and
// short objects of scalars and such arrays on one line, so simple ops, mesh
// axes and dims stay compact.

#include <functional>
#include <string>
#include <string_view>

#include "compiler/frontend/JsonAccess.h"

namespace shardgen {

std::string printJson(const Json &json);

/// An object printed member by member as printJson prints it, where arrays of
/// objects are built one element at a time (no document of the whole graph).
/// Only for an object printJson would not put on one line: one with an array
/// of objects that is not empty.
class JsonObjectStream {
public:
  void member(std::string_view name, const Json &value);
  /// An array of `count` objects, element i made by `element(i)`.
  void objectArray(std::string_view name, size_t count, const std::function<Json(size_t)> &element);
  std::string finish();

private:
  void key(std::string_view key);
  std::string out_;
  bool first_ = true;
};

} // namespace shardgen
