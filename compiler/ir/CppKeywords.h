#pragma once
// The words C++20 reserves (keywords and alternative tokens such as `and`):
// no name shardgen puts into generated C++ may be one of them.

#include <string_view>

namespace shardgen {

bool isCppKeyword(std::string_view word);

} // namespace shardgen
