#pragma once
// One limit on how deep input may nest, shared by every reader of nested
// text: JSON arrays and objects (graph files, and the JSON of MLIR's
// shardgen.metadata), MLIR regions, attributes and dense<...> lists. Each
// reader recurses, so a limit keeps the stack bounded whatever the input; one
// limit for all keeps what one reader accepts readable by the others (an
// imported graph is written as JSON that `check` reads back).

namespace shardgen {

inline constexpr int kMaxNestingDepth = 256;

} // namespace shardgen
