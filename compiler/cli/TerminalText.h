#pragma once
// Text from the input (names, paths, JSON keys) on its way to a terminal:
// control characters are escaped so a name can neither move the cursor nor
// fake a line of output.

#include <string>
#include <string_view>

namespace shardgen::cli {

/// `text` with ASCII control characters (and DEL) as \n, \t, \r or \xHH, the
/// C1 controls U+0080..U+009F as \u0080..\u009f and the bidi and line
/// separator controls as \u202e etc. (escapedText in compiler/ir/Diagnostic.h).
std::string printable(std::string_view text);

/// printable() on each line of `text`, keeping its line breaks.
std::string printableLines(std::string_view text);

} // namespace shardgen::cli
