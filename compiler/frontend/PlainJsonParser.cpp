#include "compiler/frontend/PlainJsonParser.h"

#include <string>
#include <vector>

namespace shardgen {

namespace {

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
    depth_ = 1;
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
    if (!enter())
      return false;
    if (consume(']'))
      return --depth_, true;
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
    return --depth_, consume(']');
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
        if (at_ + 1 >= text_.size() || !unescapedJsonChar(text_[at_ + 1]))
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

  static std::string unescape(std::string_view raw) {
    std::string text;
    text.reserve(raw.size());
    for (size_t i = 0; i < raw.size(); ++i)
      text += raw[i] == '\\' ? unescapedJsonChar(raw[++i]) : raw[i];
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

  /// Enters an array or object: false when that nests too deep.
  bool enter() { return ++depth_ <= kMaxJsonDepth; }

  bool parseArray(Json &value) {
    ++at_;
    if (!enter())
      return false;
    if (building_)
      value = Json::array();
    if (consume(']'))
      return --depth_, true;
    do {
      Json element;
      if (!parseValue(element))
        return false;
      if (building_)
        value.push_back(std::move(element));
    } while (consume(','));
    return --depth_, consume(']');
  }

  bool parseObject(Json &value) {
    ++at_;
    if (!enter())
      return false;
    static const Json::object_t kNone;
    if (building_)
      value = Json::object();
    const Json::object_t &members = building_ ? value.get_ref<Json::object_t &>() : kNone;
    if (consume('}'))
      return --depth_, true;
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
    return --depth_, consume('}');
  }

  std::string_view text_;
  size_t at_ = 0;
  int depth_ = 0;        // arrays and objects open around `at_`
  bool building_ = true; // false: checked only (the split elements)
};

} // namespace

char unescapedJsonChar(char c) {
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
    return 0; // \u: left to nlohmann
  }
}

std::optional<Json> parsePlainJson(std::string_view text) { return PlainParser(text).parseWhole(); }

std::optional<DocumentWithElementTexts> splitPlainDocument(std::string_view text) {
  return PlainParser(text).parseSplit();
}

} // namespace shardgen
