#pragma once
// Keys starting with '_' in the graph file (comments, tool metadata). They are
// kept verbatim, as serialized JSON, and written back where they were read.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shardgen {

using Metadata = std::vector<std::pair<std::string, std::string>>;

/// `text` as a JSON string literal (quotes, backslashes and control
/// characters escaped), e.g. to store a string in Metadata.
std::string quoteJsonString(std::string_view text);

/// The key the MLIR importer gives the ops of an inlined func.call or
/// sdy.named_computation: the scope they came from ("@foo", nested
/// "@foo > @bar", `sdy.named_computation<"name">`), for explain and readers.
inline constexpr std::string_view kInlinedFromKey = "_inlined_from";

/// The string `key` holds, unescaped; none when it is absent or not a plain
/// JSON string literal.
std::optional<std::string> metadataString(const Metadata &metadata, std::string_view key);

} // namespace shardgen
