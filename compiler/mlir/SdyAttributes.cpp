#include "compiler/mlir/SdyAttributes.h"

#include <cctype>
#include <cstdio>

#include "compiler/ir/TextScanner.h"
#include "compiler/ir/Utf8.h"
#include "compiler/mlir/MlirLexer.h"

namespace shardgen::mlir {

namespace {
bool quotedName(TextScanner &s, std::string &out) {
  if (!s.consume('"'))
    return s.fail("expected a quoted axis name");
  size_t start = s.position();
  while (s.current() != '"' && s.current() != '\0') {
    if (s.current() == '\\') // an escaped character, a quote too
      s.advance();
    if (s.current() != '\0')
      s.advance();
  }
  if (s.current() != '"')
    return s.fail("unterminated axis name");
  if (!unescapeString(s.text().substr(start, s.position() - start), out))
    return s.fail("invalid escape in an axis name");
  // An axis name becomes a graph file's string: JSON text.
  if (firstInvalidUtf8(out) != std::string_view::npos)
    return s.fail("axis name is not valid UTF-8 (a graph file is JSON text)");
  s.advance();
  return true;
}
} // namespace

std::optional<Mesh> parseMeshBody(std::string_view body, std::string *error) {
  TextScanner s(body);
  Mesh mesh;
  bool ok = s.delimitedList('[', ']', [&] {
    MeshAxis axis;
    if (!quotedName(s, axis.name) || !s.expect('=') || !s.integer(axis.size))
      return false;
    mesh.axes.push_back(std::move(axis));
    return true;
  });
  if (ok && s.consume(',')) {
    ok = s.expect("device_ids") && s.expect('=') && s.delimitedList('[', ']', [&] {
      int64_t id = 0;
      if (!s.integer(id))
        return false;
      mesh.deviceIds.push_back(id);
      return true;
    });
  }
  if (ok && !s.atEnd())
    ok = s.fail("unexpected text after the mesh");
  if (!ok) {
    *error = s.error();
    return std::nullopt;
  }
  return mesh;
}

std::string printMeshBody(const Mesh &mesh) {
  std::string out = "[";
  for (size_t i = 0; i < mesh.axes.size(); ++i)
    out +=
        (i ? ", " : "") + quoteString(mesh.axes[i].name) + "=" + std::to_string(mesh.axes[i].size);
  out += "]";
  if (!mesh.deviceIds.empty()) {
    out += ", device_ids=[";
    for (size_t i = 0; i < mesh.deviceIds.size(); ++i)
      out += (i ? ", " : "") + std::to_string(mesh.deviceIds[i]);
    out += "]";
  }
  return out;
}

std::optional<TensorSharding> parseShardingBody(std::string_view body, std::vector<Mesh> &meshes,
                                                std::string *error) {
  std::string text(body);
  size_t start = text.find_first_not_of(" \t\n");
  if (start != std::string::npos && text.compare(start, 5, "mesh<") == 0) {
    // An inline mesh: find its closing '>' (no '>' occurs inside a mesh body).
    size_t close = text.find('>', start);
    if (close == std::string::npos) {
      *error = "unterminated inline mesh";
      return std::nullopt;
    }
    auto mesh = parseMeshBody(std::string_view(text).substr(start + 5, close - start - 5), error);
    if (!mesh)
      return std::nullopt;
    std::string name;
    for (const auto &existing : meshes)
      if (existing.axes == mesh->axes && existing.deviceIds == mesh->deviceIds &&
          existing.name.starts_with("inline_mesh"))
        name = existing.name;
    if (name.empty()) {
      for (int n = 0; name.empty(); ++n) {
        std::string candidate = n ? "inline_mesh_" + std::to_string(n) : "inline_mesh";
        bool taken = false;
        for (const auto &existing : meshes)
          taken |= existing.name == candidate;
        if (!taken)
          name = candidate;
      }
      mesh->name = name;
      meshes.push_back(*mesh);
    }
    text = text.substr(0, start) + "@" + name + text.substr(close + 1);
  }
  return parseSharding("<" + text + ">", error);
}

std::optional<std::vector<TensorSharding>>
parseShardingList(std::string_view body, std::vector<Mesh> &meshes, std::string *error) {
  std::string_view text = body;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  if (text.size() < 2 || text.front() != '[' || text.back() != ']') {
    *error = "expected a list of shardings [<...>, ...]";
    return std::nullopt;
  }
  std::vector<TensorSharding> shardings;
  for (const std::string &item : splitTopLevel(text.substr(1, text.size() - 2))) {
    if (item.size() < 2 || item.front() != '<' || item.back() != '>') {
      *error = "expected a sharding <@mesh, [...]>, found \"" + item + "\"";
      return std::nullopt;
    }
    auto sharding =
        parseShardingBody(std::string_view(item).substr(1, item.size() - 2), meshes, error);
    if (!sharding)
      return std::nullopt;
    shardings.push_back(std::move(*sharding));
  }
  return shardings;
}

std::optional<std::vector<std::string>> parseManualAxes(std::string_view body, std::string *error) {
  if (body.starts_with("manual_axes"))
    body.remove_prefix(11);
  TextScanner s(body);
  std::vector<std::string> axes;
  bool ok = s.delimitedList('{', '}', [&] {
    std::string name;
    if (!quotedName(s, name))
      return false;
    axes.push_back(std::move(name));
    return true;
  });
  if (ok && !s.atEnd())
    ok = s.fail("unexpected text after the manual axes");
  if (!ok) {
    *error = s.error();
    return std::nullopt;
  }
  return axes;
}

std::string shardingBody(const TensorSharding &sharding) {
  std::string text = printSharding(sharding);
  return text.substr(1, text.size() - 2);
}

std::string printShardingList(const std::vector<TensorSharding> &shardings) {
  std::string out = "[";
  for (size_t i = 0; i < shardings.size(); ++i)
    out += (i ? ", " : "") + printSharding(shardings[i]);
  return out + "]";
}

std::string printManualAxes(const std::vector<std::string> &axes) {
  std::string out = "{";
  for (size_t i = 0; i < axes.size(); ++i)
    out += (i ? ", " : "") + quoteString(axes[i]);
  return out + "}";
}

std::vector<std::string> splitTopLevel(std::string_view text) {
  std::vector<std::string> items;
  int depth = 0;
  bool inString = false;
  size_t start = 0;
  auto push = [&](size_t end) {
    std::string_view item = text.substr(start, end - start);
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front())))
      item.remove_prefix(1);
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back())))
      item.remove_suffix(1);
    items.emplace_back(item);
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}' || c == '>') {
      --depth;
    } else if (c == ',' && depth == 0) {
      push(i);
      start = i + 1;
    }
  }
  if (text.find_first_not_of(" \t\n") != std::string_view::npos)
    push(text.size());
  return items;
}

std::string quoteString(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      char hex[4];
      std::snprintf(hex, sizeof hex, "\\%02X", c);
      out += hex;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string printSymbol(std::string_view name) {
  bool bare =
      !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
  for (char c : name)
    bare =
        bare && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.');
  return bare ? std::string(name) : quoteString(name);
}

} // namespace shardgen::mlir
