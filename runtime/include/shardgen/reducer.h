#pragma once
// The reducers of reduce and the collectives: one enum for the runtime, the
// generated code and the compiler (compiler/ir/Attributes.h names it
// shardgen::Reducer), which includes it without linking the runtime:
// header-only.

#include <stdint.h>

namespace shardgen::runtime {

enum class Reducer : int32_t { Add, Mul, Max, Min, And, Or };

} // namespace shardgen::runtime
