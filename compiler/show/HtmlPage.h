#pragma once
// The fixed parts of the `show --html` page: everything before the JSON data
// block (markup and CSS) and after it (the script that draws the page from
// the data). No graph text is ever part of these.

namespace shardgen::show {

extern const char *const kPageHead; // ends inside <script type="application/json">
extern const char *const kPageTail; // closes it, then the drawing script

} // namespace shardgen::show
