#include "compiler/frontend/NpyHeader.h"

#include <cctype>
#include <charconv>

#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/TextScanner.h"

namespace shardgen {

namespace {

/// numpy leaves room for the growth axis to reach 21 digits (its
/// GROWTH_AXIS_MAX_DIGITS), so files can be appended to in place.
constexpr size_t kGrowthAxisMaxDigits = 21;

class DictParser {
public:
  explicit DictParser(std::string_view text) : in_(text) {}

  std::optional<NpyHeader> parse(std::string *error) {
    NpyHeader header;
    bool sawDescr = false, sawOrder = false, sawShape = false;
    if (!consume('{'))
      return fail(error, "header is not a Python dict");
    while (!consume('}')) {
      std::string key;
      if (!parseString(key) || !consume(':'))
        return fail(error, "header dict has a malformed key");
      if (key == "descr") {
        if (!parseString(header.descr))
          return fail(error, "'descr' is not a simple dtype string (structured dtypes are "
                             "not supported)");
        sawDescr = true;
      } else if (key == "fortran_order") {
        if (!parseBool(header.fortranOrder))
          return fail(error, "'fortran_order' is not True or False");
        sawOrder = true;
      } else if (key == "shape") {
        if (!parseShape(header.shape))
          return fail(error, "'shape' is not a tuple of non-negative integers");
        sawShape = true;
      } else {
        return fail(error, "unexpected key '" + escapedText(key) + "' in the header");
      }
      if (!consume(',')) {
        if (!consume('}'))
          return fail(error, "header dict is malformed");
        break;
      }
    }
    if (!in_.atEnd())
      return fail(error, "unexpected text after the header dict");
    if (!sawDescr || !sawOrder || !sawShape)
      return fail(error, "header lacks one of 'descr', 'fortran_order', 'shape'");
    return header;
  }

private:
  static std::optional<NpyHeader> fail(std::string *error, const std::string &message) {
    if (error)
      *error = message;
    return std::nullopt;
  }
  bool consume(char c) { return in_.consume(c); }
  bool parseString(std::string &out) {
    in_.skipSpace();
    char quote = in_.current();
    if (quote != '\'' && quote != '"')
      return false;
    size_t start = in_.position() + 1;
    size_t end = in_.text().find(quote, start);
    if (end == std::string_view::npos)
      return false;
    out = std::string(in_.text().substr(start, end - start));
    in_.setPosition(end + 1);
    return true;
  }
  bool parseBool(bool &out) {
    if (in_.consume("True"))
      return out = true, true;
    if (in_.consume("False"))
      return out = false, true;
    return false;
  }
  bool parseShape(std::vector<int64_t> &out) {
    if (!consume('('))
      return false;
    while (!consume(')')) {
      in_.skipSpace();
      int64_t dim = 0;
      const char *begin = in_.text().data() + in_.position();
      auto [ptr, ec] = std::from_chars(begin, in_.text().data() + in_.text().size(), dim);
      if (ec != std::errc() || dim < 0)
        return false;
      in_.advance(ptr - begin);
      if (in_.current() == 'L') // Python 2 long
        in_.advance();
      out.push_back(dim);
      if (!consume(',')) {
        if (!consume(')'))
          return false;
        break;
      }
    }
    return true;
  }

  TextScanner in_;
};

std::string pythonTupleRepr(const std::vector<int64_t> &shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    out += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1)
    out += ',';
  return out + ")";
}

} // namespace

std::optional<NpyHeader> parseNpyHeader(std::string_view text, std::string *error) {
  return DictParser(text).parse(error);
}

std::string printNpyHeaderDict(const NpyHeader &header) {
  std::string dict = "{'descr': '" + header.descr +
                     "', 'fortran_order': " + (header.fortranOrder ? "True" : "False") +
                     ", 'shape': " + pythonTupleRepr(header.shape) + ", }";
  if (!header.shape.empty()) {
    size_t growthDigits =
        std::to_string(header.fortranOrder ? header.shape.back() : header.shape.front()).size();
    if (growthDigits < kGrowthAxisMaxDigits)
      dict.append(kGrowthAxisMaxDigits - growthDigits, ' ');
  }
  return dict;
}

} // namespace shardgen
