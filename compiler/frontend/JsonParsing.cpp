#include "compiler/frontend/JsonParsing.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <memory>

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

/// A recursive-descent parser of the plain subset of JSON; it gives up
/// (nullopt) on anything outside it, malformed text included (whose error
/// nlohmann then reports).
class PlainParser {
public:
  explicit PlainParser(std::string_view text) : text_(text) {}

  /// What parseWithElementTexts gives, for a document all in the subset:
  /// the elements of "inputs" and "ops" are checked, not built.
  std::optional<DocumentWithElementTexts> parseSplit() {
    DocumentWithElementTexts split;
    if (!consume('{'))
      return std::nullopt;
    split.root = Json::object();
    auto &members = split.root.get_ref<Json::object_t &>();
    if (!consume('}')) {
      do {
        std::string_view key;
        if (!parseKey(members, key))
          return std::nullopt;
        Json member;
        std::vector<std::string_view> *texts = key == "inputs" ? &split.inputTexts
                                               : key == "ops"  ? &split.opTexts
                                                               : nullptr;
        if (!(texts && consume('[') ? checkElements(*texts, member) : parseValue(member)))
          return std::nullopt;
        members.emplace_back(std::string(key), std::move(member));
      } while (consume(','));
      if (!consume('}'))
        return std::nullopt;
    }
    skipSpace();
    if (at_ != text_.size())
      return std::nullopt;
    return split;
  }

  std::optional<Json> parseWhole() {
    Json value;
    if (!parseValue(value))
      return std::nullopt;
    skipSpace();
    if (at_ != text_.size())
      return std::nullopt;
    return value;
  }

private:
  void skipSpace() {
    while (at_ < text_.size() &&
           (text_[at_] == ' ' || text_[at_] == '\n' || text_[at_] == '\t' || text_[at_] == '\r'))
      ++at_;
  }

  bool consume(char c) {
    skipSpace();
    if (at_ < text_.size() && text_[at_] == c)
      return ++at_, true;
    return false;
  }

  /// The objects of an array whose '[' is consumed, checked and kept as
  /// text; `value` becomes an empty array.
  bool checkElements(std::vector<std::string_view> &texts, Json &value) {
    value = Json::array();
    if (consume(']'))
      return true;
    building_ = false;
    do {
      skipSpace();
      size_t start = at_;
      Json unused;
      if (at_ >= text_.size() || text_[at_] != '{' || !parseValue(unused))
        return false;
      texts.push_back(text_.substr(start, at_ - start));
    } while (consume(','));
    building_ = true;
    return consume(']');
  }

  /// A key not yet in `members` (when building), and its ':'.
  bool parseKey(const Json::object_t &members, std::string_view &key) {
    skipSpace();
    bool escaped = false;
    if (at_ >= text_.size() || text_[at_] != '"' || !parseString(key, escaped) || escaped ||
        !consume(':'))
      return false; // keys with escapes are left to nlohmann
    if (building_)
      for (const auto &member : members)
        if (member.first == key)
          return false; // the last one wins: nlohmann's rule, not repeated here
    return true;
  }

  bool parseValue(Json &value) {
    skipSpace();
    if (at_ >= text_.size())
      return false;
    char c = text_[at_];
    if (c == '{')
      return parseObject(value);
    if (c == '[')
      return parseArray(value);
    if (c == '"') {
      std::string_view text;
      bool escaped = false;
      if (!parseString(text, escaped))
        return false;
      if (building_)
        value = escaped ? unescape(text) : std::string(text);
      return true;
    }
    if (c == '-' || (c >= '0' && c <= '9'))
      return parseInteger(value);
    return parseLiteral("true", true, value) || parseLiteral("false", false, value) ||
           parseLiteral("null", nullptr, value);
  }

  bool parseLiteral(std::string_view word, Json literal, Json &value) {
    if (text_.substr(at_, word.size()) != word)
      return false;
    at_ += word.size();
    if (building_)
      value = std::move(literal);
    return true;
  }

  /// Printable ASCII; escapes other than \uXXXX (shardings quote their
  /// axis names as \"x\"). `text` is the raw text between the quotes.
  bool parseString(std::string_view &text, bool &escaped) {
    size_t start = ++at_;
    escaped = false;
    while (at_ < text_.size() && text_[at_] != '"') {
      char c = text_[at_];
      if (c < 0x20 || c > 0x7e)
        return false;
      if (c == '\\') {
        if (at_ + 1 >= text_.size() || !unescaped(text_[at_ + 1]))
          return false;
        escaped = true;
        ++at_;
      }
      ++at_;
    }
    if (at_ >= text_.size())
      return false;
    text = text_.substr(start, at_++ - start);
    return true;
  }

  /// The character `\c` stands for; 0 for \u and anything not JSON.
  static char unescaped(char c) {
    switch (c) {
    case '"':
    case '\\':
    case '/':
      return c;
    case 'b':
      return '\b';
    case 'f':
      return '\f';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    default:
      return 0;
    }
  }

  static std::string unescape(std::string_view raw) {
    std::string text;
    text.reserve(raw.size());
    for (size_t i = 0; i < raw.size(); ++i)
      text += raw[i] == '\\' ? unescaped(raw[++i]) : raw[i];
    return text;
  }

  /// Integers of up to 18 digits (they fit int64 either way): negative ones
  /// are nlohmann's number_integer, the others its number_unsigned.
  bool parseInteger(Json &value) {
    bool negative = text_[at_] == '-';
    size_t start = negative ? at_ + 1 : at_, end = start;
    while (end < text_.size() && text_[end] >= '0' && text_[end] <= '9')
      ++end;
    bool fraction =
        end < text_.size() && (text_[end] == '.' || text_[end] == 'e' || text_[end] == 'E');
    bool leadingZero = end - start > 1 && text_[start] == '0'; // not JSON
    if (end == start || end - start > 18 || fraction || leadingZero)
      return false;
    uint64_t magnitude = 0;
    for (size_t i = start; i < end; ++i)
      magnitude = magnitude * 10 + static_cast<uint64_t>(text_[i] - '0');
    at_ = end;
    if (!building_)
      return true;
    if (negative)
      value = -static_cast<int64_t>(magnitude);
    else
      value = magnitude;
    return true;
  }

  bool parseArray(Json &value) {
    ++at_;
    if (building_)
      value = Json::array();
    if (consume(']'))
      return true;
    do {
      Json element;
      if (!parseValue(element))
        return false;
      if (building_)
        value.push_back(std::move(element));
    } while (consume(','));
    return consume(']');
  }

  bool parseObject(Json &value) {
    ++at_;
    static const Json::object_t kNone;
    if (building_)
      value = Json::object();
    const Json::object_t &members = building_ ? value.get_ref<Json::object_t &>() : kNone;
    if (consume('}'))
      return true;
    do {
      std::string_view key;
      if (!parseKey(members, key))
        return false;
      Json member;
      if (!parseValue(member))
        return false;
      if (building_)
        value.get_ref<Json::object_t &>().emplace_back(std::string(key), std::move(member));
    } while (consume(','));
    return consume('}');
  }

  std::string_view text_;
  size_t at_ = 0;
  bool building_ = true; // false: checked only (the split elements)
};

} // namespace

Json parseElementText(std::string_view text) {
  if (std::optional<Json> plain = PlainParser(text).parseWhole())
    return std::move(*plain);
  return Json::parse(text.begin(), text.end());
}

std::optional<DocumentWithElementTexts> parseWithElementTexts(std::string_view text) {
  // Usually all of it is plain JSON: checked and split without nlohmann.
  if (std::optional<DocumentWithElementTexts> plain = PlainParser(text).parseSplit())
    return plain;
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
