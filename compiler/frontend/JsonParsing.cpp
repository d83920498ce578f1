#include "compiler/frontend/JsonParsing.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <memory>

#include "compiler/frontend/PlainJsonParser.h"
#include "compiler/ir/Diagnostic.h"

namespace shardgen {

namespace {

/// nlohmann's DOM builder, counting open containers so a failure can be
/// placed: the open containers are the chain of last children from the root.
class PlacingSax : public nlohmann::detail::json_sax_dom_parser<Json> {
  using Base = nlohmann::detail::json_sax_dom_parser<Json>;

public:
  explicit PlacingSax(Json &root) : Base(root, /*allow_exceptions=*/false) {}

  bool start_object(std::size_t size) { return ++depth_, Base::start_object(size); }
  bool end_object() { return --depth_, Base::end_object(); }
  bool start_array(std::size_t size) { return ++depth_, Base::start_array(size); }
  bool end_array() { return --depth_, Base::end_array(); }

  template <class Exception>
  bool parse_error(std::size_t, const std::string &, const Exception &error) {
    message_ = error.what();
    numberOverflow_ = error.id == 406;
    return false;
  }

  size_t depth() const { return depth_; }
  const std::string &message() const { return message_; }
  bool numberOverflow() const { return numberOverflow_; }

private:
  size_t depth_ = 0;
  std::string message_;
  bool numberOverflow_ = false;
};

/// nlohmann's message without its "[json.exception.parse_error.101] " tag.
std::string withoutTag(const std::string &what) {
  size_t tagEnd = what.find("] ");
  return what.starts_with("[json.exception.") && tagEnd != std::string::npos
             ? what.substr(tagEnd + 2)
             : what;
}

/// The pointer of the value being read when parsing stopped `depth`
/// containers deep: the next element of the innermost open array, or the
/// last key of the innermost open object (its key is read, its value not).
std::string pointerOfFailure(const Json &root, size_t depth) {
  std::string pointer;
  const Json *at = &root;
  for (size_t level = 1; level <= depth && at->is_structured(); ++level) {
    bool innermost = level == depth;
    if (at->is_array()) {
      if (innermost || at->empty())
        return joinPointer(pointer, at->size());
      pointer = joinPointer(pointer, at->size() - 1);
      at = &at->back();
    } else {
      if (at->empty())
        return pointer;
      auto last = std::prev(at->end());
      pointer = joinPointer(pointer, last.key());
      at = &last.value();
    }
  }
  return pointer;
}

/// A character iterator that publishes how far the parser has read, so SAX
/// events know where in the text they are: nlohmann's lexer has consumed
/// exactly up to a '{' when it reports start_object and up to a '}' when it
/// reports end_object (it reads ahead only after numbers, and then the
/// character it read ahead is the '}').
class PositionIterator {
public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char *;
  using reference = const char &;

  PositionIterator(const char *at, const char **position) : at_(at), position_(position) {}
  reference operator*() const { return *at_; }
  PositionIterator &operator++() {
    *position_ = ++at_;
    return *this;
  }
  PositionIterator operator++(int) {
    PositionIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const PositionIterator &other) const { return at_ == other.at_; }

private:
  const char *at_;
  const char **position_;
};

/// nlohmann's DOM builder, except that each element of the top-level
/// "inputs" and "ops" arrays is skipped and its text range recorded instead.
class ElementsAsTextSax : public nlohmann::detail::json_sax_dom_parser<Json> {
  using Base = nlohmann::detail::json_sax_dom_parser<Json>;

public:
  ElementsAsTextSax(Json &root, const char *const &position, DocumentWithElementTexts &split)
      : Base(root, /*allow_exceptions=*/false), position_(position),
        texts_{&split.inputTexts, &split.opTexts} {}

  bool null() { return skipping_ || (notAnElement() && Base::null()); }
  bool boolean(bool value) { return skipping_ || (notAnElement() && Base::boolean(value)); }
  bool number_integer(number_integer_t value) {
    return skipping_ || (notAnElement() && Base::number_integer(value));
  }
  bool number_unsigned(number_unsigned_t value) {
    return skipping_ || (notAnElement() && Base::number_unsigned(value));
  }
  bool number_float(number_float_t value, const string_t &text) {
    return skipping_ || (notAnElement() && Base::number_float(value, text));
  }
  bool string(string_t &value) { return skipping_ || (notAnElement() && Base::string(value)); }
  bool binary(binary_t &value) { return skipping_ || (notAnElement() && Base::binary(value)); }

  bool key(string_t &key) {
    if (skipping_)
      return true;
    if (depth_ == 1) {
      auto found = std::find(kSplitKeys.begin(), kSplitKeys.end(), key);
      topKey_ = found == kSplitKeys.end() ? -1 : static_cast<int>(found - kSplitKeys.begin());
      if (topKey_ >= 0 && ++seen_[topKey_] > 1)
        return false; // the last one would win: leave it to the whole document
    }
    return Base::key(key);
  }

  bool start_object(std::size_t size) {
    ++depth_;
    if (skipping_)
      return true;
    if (inArray_ >= 0 && depth_ == 3) { // an element: skipped, its text kept
      skipping_ = true;
      elementStart_ = position_ - 1;
      return true;
    }
    return Base::start_object(size);
  }

  bool end_object() {
    --depth_;
    if (!skipping_)
      return Base::end_object();
    if (depth_ == 2) {
      skipping_ = false;
      texts_[inArray_]->emplace_back(elementStart_, static_cast<size_t>(position_ - elementStart_));
    }
    return true;
  }

  bool start_array(std::size_t size) {
    if (skipping_)
      return ++depth_, true;
    if (!notAnElement())
      return false;
    inArray_ = depth_ == 1 ? topKey_ : -1;
    ++depth_;
    return Base::start_array(size);
  }

  bool end_array() {
    --depth_;
    if (skipping_)
      return true;
    if (depth_ == 1)
      inArray_ = -1;
    return Base::end_array();
  }

  template <class Exception> bool parse_error(std::size_t, const std::string &, const Exception &) {
    return false;
  }

private:
  static constexpr std::array<std::string_view, 2> kSplitKeys = {"inputs", "ops"};

  /// An element of a split array must be an object: else not this shape.
  bool notAnElement() const { return !(inArray_ >= 0 && depth_ == 2); }

  const char *const &position_;
  std::array<std::vector<std::string_view> *, 2> texts_;
  std::array<int, 2> seen_{};
  size_t depth_ = 0;
  int topKey_ = -1, inArray_ = -1; // index into kSplitKeys
  bool skipping_ = false;
  const char *elementStart_ = nullptr;
};

} // namespace

std::optional<std::string> jsonTooDeepAt(std::string_view text, int maxDepth) {
  int depth = 0;
  size_t line = 1, column = 0;
  bool inString = false, escaped = false;
  for (char c : text) {
    ++column;
    if (c == '\n') {
      ++line;
      column = 0;
    }
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > maxDepth)
        return "line " + std::to_string(line) + ", column " + std::to_string(column);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::nullopt;
}

Json parseElementText(std::string_view text) {
  if (std::optional<Json> plain = parsePlainJson(text))
    return std::move(*plain);
  return Json::parse(text.begin(), text.end());
}

std::optional<DocumentWithElementTexts> parseWithElementTexts(std::string_view text) {
  // Usually all of it is plain JSON: checked and split without nlohmann.
  if (std::optional<DocumentWithElementTexts> plain = splitPlainDocument(text))
    return plain;
  return splitDocumentWithNlohmann(text);
}

std::optional<DocumentWithElementTexts> splitDocumentWithNlohmann(std::string_view text) {
  DocumentWithElementTexts split;
  const char *first = std::to_address(text.begin()), *last = std::to_address(text.end());
  const char *position = first;
  ElementsAsTextSax sax(split.root, position, split);
  PositionIterator begin(first, &position), end(last, &position);
  if (!Json::sax_parse(begin, end, &sax))
    return std::nullopt;
  return split;
}

Json parseJsonDocument(std::string_view text) {
  Json root;
  PlacingSax sax(root);
  if (Json::sax_parse(text.begin(), text.end(), &sax))
    return root;
  if (sax.numberOverflow())
    fail(pointerOfFailure(root, sax.depth()),
         withoutTag(sax.message()) + ": a graph's numbers must fit a double");
  fail("", "malformed JSON: " + withoutTag(sax.message()));
}

} // namespace shardgen
