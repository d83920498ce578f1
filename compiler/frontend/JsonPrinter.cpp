#include "compiler/frontend/JsonPrinter.h"

#include <algorithm>

namespace shardgen {

namespace {

constexpr size_t kMaxInlineObjectWidth = 100;

bool isScalar(const Json &json) { return !json.is_structured(); }

bool allScalar(const Json &json) {
  return std::all_of(json.begin(), json.end(), [](const Json &e) { return isScalar(e); });
}

/// A scalar or an array of scalars: fits on one line inside a flat object.
bool isFlat(const Json &json) { return isScalar(json) || (json.is_array() && allScalar(json)); }

void printInline(const Json &json, std::string &out) {
  if (isScalar(json)) {
    out += json.dump();
    return;
  }
  bool object = json.is_object();
  out += object ? '{' : '[';
  bool first = true;
  for (auto it = json.begin(); it != json.end(); ++it) {
    if (!first)
      out += ", ";
    first = false;
    if (object)
      out += Json(it.key()).dump() + ": ";
    printInline(it.value(), out);
  }
  out += object ? '}' : ']';
}

void print(const Json &json, size_t indent, std::string &out) {
  if (isScalar(json) || json.empty() || (json.is_array() && allScalar(json))) {
    printInline(json, out);
    return;
  }
  if (json.is_object() &&
      std::all_of(json.begin(), json.end(), [](const Json &e) { return isFlat(e); })) {
    std::string flat;
    printInline(json, flat);
    if (indent + flat.size() <= kMaxInlineObjectWidth) {
      out += flat;
      return;
    }
  }
  bool object = json.is_object();
  std::string inner(indent + 2, ' ');
  out += object ? "{\n" : "[\n";
  bool first = true;
  for (auto it = json.begin(); it != json.end(); ++it) {
    if (!first)
      out += ",\n";
    first = false;
    out += inner;
    if (object)
      out += Json(it.key()).dump() + ": ";
    print(it.value(), indent + 2, out);
  }
  out += '\n';
  out.append(indent, ' ');
  out += object ? '}' : ']';
}

} // namespace

std::string printJson(const Json &json) {
  std::string out;
  print(json, 0, out);
  return out;
}

void printJsonAt(const Json &json, size_t indent, std::string &out) { print(json, indent, out); }

void JsonObjectStream::key(std::string_view key) {
  out_ += first_ ? "{\n  " : ",\n  ";
  first_ = false;
  out_ += Json(key).dump() + ": ";
}

void JsonObjectStream::member(std::string_view name, const Json &value) {
  key(name);
  print(value, 2, out_);
}

void JsonObjectStream::objectArray(std::string_view name, size_t count,
                                   const std::function<Json(size_t)> &element) {
  key(name);
  if (count == 0) {
    out_ += "[]";
    return;
  }
  out_ += "[\n";
  for (size_t i = 0; i < count; ++i) {
    out_ += i ? ",\n    " : "    ";
    print(element(i), 4, out_);
  }
  out_ += "\n  ]";
}

std::string JsonObjectStream::finish() {
  out_ += first_ ? "{}" : "\n}";
  return std::move(out_);
}

} // namespace shardgen
