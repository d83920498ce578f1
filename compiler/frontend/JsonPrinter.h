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
/// `json` as printJson prints it at `indent` columns inside a document.
void printJsonAt(const Json &json, size_t indent, std::string &out);

/// The pieces printJson is made of, for writers that print without building
/// a document: `Json(text).dump()`, a value on one line, and whether a value
/// is flat (a scalar or an array of scalars: one line inside an object).
void appendJsonString(std::string_view text, std::string &out);
void printJsonInline(const Json &json, std::string &out);
bool isFlatJson(const Json &json);
/// The widest object printJson puts on one line (with its indent).
inline constexpr size_t kMaxInlineObjectWidth = 100;

/// An object printed member by member as printJson prints it, where arrays of
/// objects are built one element at a time (no document of the whole graph).
/// Only for an object printJson would not put on one line: one with an array
/// of objects that is not empty.
class JsonObjectStream {
public:
  /// With a sink, the text goes there in chunks of about a megabyte as it is
  /// printed (finish() then returns nothing); without, finish() returns it.
  using Sink = std::function<void(std::string_view)>;
  explicit JsonObjectStream(Sink sink = {}) : sink_(std::move(sink)) {}

  void member(std::string_view name, const Json &value);
  /// An array of `count` objects, element i made by `element(i)`.
  void objectArray(std::string_view name, size_t count, const std::function<Json(size_t)> &element);
  /// The same, element i printed (at indent 4) by `element(i, out)`.
  void objectArrayText(std::string_view name, size_t count,
                       const std::function<void(size_t, std::string &)> &element);
  std::string finish();

private:
  static constexpr size_t kSinkChunkBytes = size_t(1) << 20;
  void key(std::string_view key);
  Sink sink_;
  std::string out_;
  bool first_ = true;
};

} // namespace shardgen
