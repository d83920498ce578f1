#pragma once
// JSON text -> document, with every failure a GraphError: a syntax error at
// the root pointer (with its line and column), a number that does not fit a
// double (1e999) at the pointer of the place it was to fill.

#include <string_view>

#include "compiler/frontend/JsonAccess.h"

namespace shardgen {

Json parseJsonDocument(std::string_view text);

} // namespace shardgen
