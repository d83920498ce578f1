// Kernels shared between equal steps (see KernelTable.h).

#include "compiler/codegen/KernelTable.h"

#include <array>
#include <map>
#include <string>
#include <string_view>

#include "compiler/codegen/CodeWriter.h"

namespace shardgen::codegen {
namespace {

/// The arrays of buffer pointers the generated functions index.
constexpr std::array<std::string_view, 3> kArrays = {"values", "inputs", "outputs"};

bool isIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// Whole-line comments go to `comments` (they name the step's values, which
/// differ between equal steps); trailing ones are dropped for the same
/// reason, unless the line has a string literal the "//" could be part of.
void splitComments(const std::string &code, std::string &comments, std::string &body) {
  size_t start = 0;
  while (start < code.size()) {
    size_t end = code.find('\n', start);
    if (end == std::string::npos)
      end = code.size();
    std::string_view line(code.data() + start, end - start);
    start = end + 1;
    size_t first = line.find_first_not_of(' ');
    if (first == std::string_view::npos)
      continue;
    if (line.substr(first).starts_with("//")) {
      comments.append(line.substr(first)).push_back('\n');
      continue;
    }
    if (size_t at = line.find(" // "); at != std::string_view::npos && line.find('"') > at)
      line = line.substr(0, at);
    body.append(line).push_back('\n');
  }
}

/// The code with its buffer indices read from the kernel's `bufferIds` in
/// order of first use ("values[7]" -> "values[bufferIds[0]]").
struct Canonical {
  std::string text;
  std::vector<int32_t> indices; // 7, ...
  bool kernelizable = true;     // false when it names an array itself
};

/// The length of "values[12]" at `at` (an element of `array`), else 0;
/// clears `kernelizable` when the array is named without a constant index.
size_t elementLength(const std::string &code, size_t at, std::string_view array,
                     bool &kernelizable) {
  size_t end = at + array.size();
  if (code.compare(at, array.size(), array) != 0 ||
      (end < code.size() && isIdentifierChar(code[end])))
    return 0;
  if (end >= code.size() || code[end] != '[') {
    kernelizable = false;
    return 0;
  }
  size_t digit = end + 1;
  while (digit < code.size() && code[digit] >= '0' && code[digit] <= '9')
    ++digit;
  if (digit > end + 1 && digit < code.size() && code[digit] == ']')
    return digit + 1 - at;
  kernelizable = false;
  return 0;
}

Canonical canonicalize(const std::string &body) {
  Canonical out;
  std::map<std::string, std::string, std::less<>> renamed;
  for (size_t i = 0; i < body.size();) {
    size_t length = 0;
    size_t which = 0;
    if (i == 0 || !isIdentifierChar(body[i - 1]))
      for (; which < kArrays.size() && length == 0; ++which)
        length = elementLength(body, i, kArrays[which], out.kernelizable);
    if (!length) {
      out.text += body[i++];
      continue;
    }
    --which; // the loop stepped past the match
    std::string element = body.substr(i, length);
    auto [it, inserted] = renamed.emplace(element, "");
    if (inserted) {
      it->second = std::string(kArrays[which]) + "[bufferIds[" +
                   str(static_cast<int64_t>(renamed.size() - 1)) + "]]";
      out.indices.push_back(
          static_cast<int32_t>(std::stol(element.substr(kArrays[which].size() + 1))));
    }
    out.text += it->second;
    i += length;
  }
  return out;
}

} // namespace

Statement KernelTable::call(const std::string &code, KernelCaller caller,
                            const std::vector<size_t> &constants) {
  Statement statement;
  std::string body;
  splitComments(code, statement.comments, body);
  if (body.empty())
    return statement;
  Canonical canonical = canonicalize(body);
  if (!canonical.kernelizable) {
    statement.verbatim = body;
    statement.constants = constants;
    return statement;
  }
  const bool device = caller == KernelCaller::Device;
  std::string key = (device ? "device\n" : "position\n") + canonical.text;
  auto [it, inserted] = byKey_.emplace(std::move(key), kernels_.size());
  if (inserted) {
    Kernel kernel;
    kernel.name = "kernel" + str(static_cast<int64_t>(kernels_.size()));
    kernel.constants = constants;
    CodeWriter definition;
    {
      auto function = definition.block(
          "void " + kernel.name +
          (device ? "(const rt::DeviceContext &device, unsigned char **values, const int32_t "
                    "*bufferIds)"
                  : "(int64_t position, const void *const *inputs, unsigned char **values, "
                    "void *const *outputs, const int32_t *bufferIds)"));
      definition.lines(device ? "const int64_t position = device.position;\n(void)position;"
                              : "(void)position;\n(void)inputs;\n(void)values;\n(void)outputs;");
      definition.lines(canonical.text);
    }
    kernel.definition = definition.take() + "\n";
    kernels_.push_back(std::move(kernel));
  }
  statement.kernel = static_cast<int64_t>(it->second);
  statement.buffers = std::move(canonical.indices);
  return statement;
}

} // namespace shardgen::codegen
