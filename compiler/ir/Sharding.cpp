#include "compiler/ir/Sharding.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "compiler/ir/Mesh.h"
#include "compiler/ir/TextScanner.h"

namespace shardgen {

int64_t AxisRef::size(const Mesh &mesh) const { return subSize ? *subSize : mesh.axisSize(name); }

bool AxisRef::overlaps(const AxisRef &other, const Mesh &mesh) const {
  if (name != other.name)
    return false;
  // Intervals [pre, pre*size) in the axis' multiplicative coordinate space.
  int64_t aLo = pre(), aHi = pre() * size(mesh);
  int64_t bLo = other.pre(), bHi = other.pre() * other.size(mesh);
  return aLo < bHi && bLo < aHi;
}

TensorSharding TensorSharding::replicatedOn(std::string meshName, int64_t rank, bool closed) {
  TensorSharding sharding;
  sharding.meshName = std::move(meshName);
  sharding.dims.assign(rank, DimSharding{{}, closed, std::nullopt});
  return sharding;
}

std::string printAxisRef(const AxisRef &axis) {
  std::string out = "\"" + axis.name + "\"";
  if (axis.isSubAxis())
    out += ":(" + std::to_string(*axis.preSize) + ")" + std::to_string(*axis.subSize);
  return out;
}

std::string printDimSharding(const DimSharding &dim) {
  std::string out = "{";
  for (size_t i = 0; i < dim.axes.size(); ++i) {
    if (i)
      out += ", ";
    out += printAxisRef(dim.axes[i]);
  }
  if (!dim.isClosed)
    out += dim.axes.empty() ? "?" : ", ?";
  out += "}";
  if (dim.priority)
    out += "p" + std::to_string(*dim.priority);
  return out;
}

static std::string printAxisList(const std::vector<AxisRef> &axes) {
  std::string out = "{";
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i)
      out += ", ";
    out += printAxisRef(axes[i]);
  }
  return out + "}";
}

namespace {

/// A character of a name written without quotes.
bool isBareNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' ||
         c == '$';
}

/// A mesh name as MLIR prints a symbol: bare when it can be, else quoted.
std::string printMeshName(const std::string &name) {
  // As an MLIR bare identifier, it starts with a letter or '_' ("2d" is quoted).
  bool bare = !name.empty() &&
              (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
              std::all_of(name.begin(), name.end(), isBareNameChar);
  return bare ? name : "\"" + name + "\"";
}

} // namespace

std::string printSharding(const TensorSharding &sharding) {
  std::string out = "<@" + printMeshName(sharding.meshName) + ", [";
  for (size_t i = 0; i < sharding.dims.size(); ++i) {
    if (i)
      out += ", ";
    out += printDimSharding(sharding.dims[i]);
  }
  out += "]";
  if (!sharding.replicated.empty())
    out += ", replicated=" + printAxisList(sharding.replicated);
  if (!sharding.unreduced.empty())
    out += ", unreduced=" + printAxisList(sharding.unreduced);
  return out + ">";
}

namespace {

/// A small recursive-descent parser over the sharding text.
class ShardingParser {
public:
  explicit ShardingParser(std::string_view text) : in_(text) {}

  std::optional<TensorSharding> parse(std::string *error) {
    TensorSharding sharding;
    if (!parseSharding(sharding) || !(in_.atEnd() || in_.fail("unexpected trailing text"))) {
      if (error)
        *error = "invalid sharding \"" + std::string(in_.text()) + "\": " + in_.error();
      return std::nullopt;
    }
    return sharding;
  }

private:
  TextScanner in_;

  bool parseName(std::string &name) {
    in_.skipSpace();
    if (in_.consume('"')) {
      size_t end = in_.text().find('"', in_.position());
      if (end == std::string_view::npos)
        return in_.fail("unterminated quoted name");
      name = std::string(in_.text().substr(in_.position(), end - in_.position()));
      in_.setPosition(end + 1);
      return !name.empty() || in_.fail("empty name");
    }
    size_t start = in_.position();
    while (isBareNameChar(in_.current()))
      in_.advance();
    if (in_.position() == start)
      return in_.fail("expected a name");
    name = std::string(in_.text().substr(start, in_.position() - start));
    return true;
  }

  bool parseInteger(int64_t &value, bool rejectLeadingZero, const char *what) {
    std::string_view digits;
    if (!in_.digits(digits))
      return in_.fail(digits.empty() ? std::string("expected ") + what
                                     : std::string(what) + " is too large");
    if (rejectLeadingZero && digits.size() > 1 && digits[0] == '0')
      return in_.fail(std::string(what) + " has a leading zero");
    value = std::stoll(std::string(digits));
    return true;
  }

  bool parseAxisRef(AxisRef &axis) {
    if (!parseName(axis.name))
      return false;
    if (in_.consume(':')) {
      int64_t pre = 0, size = 0;
      if (!in_.expect('(') || !parseInteger(pre, false, "a sub-axis pre-size") ||
          !in_.expect(')') || !parseInteger(size, false, "a sub-axis size"))
        return false;
      axis.preSize = pre;
      axis.subSize = size;
    }
    return true;
  }

  bool parseAxisList(std::vector<AxisRef> &axes) {
    return in_.delimitedList('{', '}', [&] {
      axes.emplace_back();
      return parseAxisRef(axes.back());
    });
  }

  bool parseDim(DimSharding &dim) {
    if (!in_.expect('{'))
      return false;
    if (in_.consume('?')) {
      dim.isClosed = false;
    } else if (!in_.peek('}')) {
      do {
        if (in_.consume('?')) {
          dim.isClosed = false;
          break;
        }
        AxisRef axis;
        if (!parseAxisRef(axis))
          return false;
        dim.axes.push_back(std::move(axis));
      } while (in_.consume(','));
    }
    if (!in_.expect('}'))
      return false;
    // The priority follows the brace directly: {}p1.
    if (in_.current() == 'p') {
      in_.advance();
      int64_t priority = 0;
      if (!parseInteger(priority, true, "a priority"))
        return false;
      dim.priority = priority;
    }
    return true;
  }

  bool parseSharding(TensorSharding &sharding) {
    in_.consume("#sdy.sharding");
    if (!in_.expect('<') || !in_.expect('@') || !parseName(sharding.meshName) || !in_.expect(','))
      return false;
    bool dims = in_.delimitedList('[', ']', [&] {
      sharding.dims.emplace_back();
      return parseDim(sharding.dims.back());
    });
    if (!dims)
      return false;
    bool sawReplicated = false, sawUnreduced = false;
    while (in_.consume(',')) {
      if (in_.consume("replicated")) {
        if (std::exchange(sawReplicated, true))
          return in_.fail("'replicated=' given twice");
        if (!in_.expect('=') || !parseAxisList(sharding.replicated))
          return false;
      } else if (in_.consume("unreduced")) {
        if (std::exchange(sawUnreduced, true))
          return in_.fail("'unreduced=' given twice");
        if (!in_.expect('=') || !parseAxisList(sharding.unreduced))
          return false;
      } else {
        return in_.fail("expected 'replicated=' or 'unreduced='");
      }
    }
    return in_.expect('>');
  }
};

} // namespace

std::optional<TensorSharding> parseSharding(std::string_view text, std::string *error) {
  return ShardingParser(text).parse(error);
}

} // namespace shardgen
