#include "compiler/frontend/JsonPrinter.h"

#include <algorithm>
#include <charconv>

namespace shardgen {

namespace {

bool isScalar(const Json &json) { return !json.is_structured(); }

bool allScalar(const Json &json) {
  return std::all_of(json.begin(), json.end(), [](const Json &e) { return isScalar(e); });
}

} // namespace

bool isFlatJson(const Json &json) { return isScalar(json) || (json.is_array() && allScalar(json)); }

void appendJsonString(std::string_view text, std::string &out) {
  bool printable =
      std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c <= 0x7e; });
  if (!printable) {
    out += Json(text).dump();
    return;
  }
  out += '"';
  size_t copied = 0; // text[0, copied) is written
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '"' && text[i] != '\\')
      continue;
    out.append(text.substr(copied, i - copied));
    out += '\\';
    copied = i; // the quote or backslash itself goes with the next piece
  }
  out.append(text.substr(copied));
  out += '"';
}

namespace {

void appendString(std::string_view text, std::string &out) { appendJsonString(text, out); }

template <typename Integer> void appendInteger(Integer value, std::string &out) {
  char digits[24];
  auto [end, error] = std::to_chars(digits, digits + sizeof digits, value);
  out.append(digits, end);
}

/// `json.dump()` of a scalar, without building a serializer for the usual
/// kinds (a serializer per scalar was most of the time spent writing).
void appendScalar(const Json &json, std::string &out) {
  switch (json.type()) {
  case Json::value_t::string:
    appendString(json.get_ref<const std::string &>(), out);
    return;
  case Json::value_t::number_integer:
    appendInteger(json.get<int64_t>(), out);
    return;
  case Json::value_t::number_unsigned:
    appendInteger(json.get<uint64_t>(), out);
    return;
  case Json::value_t::boolean:
    out += json.get<bool>() ? "true" : "false";
    return;
  case Json::value_t::null:
    out += "null";
    return;
  default: // floats (their shortest round-trip text) and the rest: nlohmann's own
    out += json.dump();
    return;
  }
}

} // namespace

void printJsonInline(const Json &json, std::string &out) {
  if (isScalar(json)) {
    appendScalar(json, out);
    return;
  }
  bool object = json.is_object();
  out += object ? '{' : '[';
  bool first = true;
  for (auto it = json.begin(); it != json.end(); ++it) {
    if (!first)
      out += ", ";
    first = false;
    if (object) {
      appendString(it.key(), out);
      out += ": ";
    }
    printJsonInline(it.value(), out);
  }
  out += object ? '}' : ']';
}

namespace {

void printInline(const Json &json, std::string &out) { printJsonInline(json, out); }

void print(const Json &json, size_t indent, std::string &out) {
  if (isScalar(json) || json.empty() || (json.is_array() && allScalar(json))) {
    printInline(json, out);
    return;
  }
  if (json.is_object() &&
      std::all_of(json.begin(), json.end(), [](const Json &e) { return isFlatJson(e); })) {
    // On one line if it fits; else taken back and printed over several.
    size_t start = out.size();
    printInline(json, out);
    if (indent + (out.size() - start) <= kMaxInlineObjectWidth)
      return;
    out.resize(start);
  }
  bool object = json.is_object();
  out += object ? "{\n" : "[\n";
  bool first = true;
  for (auto it = json.begin(); it != json.end(); ++it) {
    if (!first)
      out += ",\n";
    first = false;
    out.append(indent + 2, ' ');
    if (object) {
      appendString(it.key(), out);
      out += ": ";
    }
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
  appendString(key, out_);
  out_ += ": ";
}

void JsonObjectStream::member(std::string_view name, const Json &value) {
  key(name);
  print(value, 2, out_);
}

void JsonObjectStream::objectArray(std::string_view name, size_t count,
                                   const std::function<Json(size_t)> &element) {
  objectArrayText(name, count, [&](size_t i, std::string &out) { print(element(i), 4, out); });
}

void JsonObjectStream::objectArrayText(std::string_view name, size_t count,
                                       const std::function<void(size_t, std::string &)> &element) {
  key(name);
  if (count == 0) {
    out_ += "[]";
    return;
  }
  out_ += "[\n";
  for (size_t i = 0; i < count; ++i) {
    out_ += i ? ",\n    " : "    ";
    element(i, out_);
    if (sink_ && out_.size() >= kSinkChunkBytes) {
      sink_(out_);
      out_.clear();
    }
  }
  out_ += "\n  ]";
}

std::string JsonObjectStream::finish() {
  out_ += first_ ? "{}" : "\n}";
  if (sink_) {
    sink_(out_);
    out_.clear();
  }
  return std::move(out_);
}

} // namespace shardgen
