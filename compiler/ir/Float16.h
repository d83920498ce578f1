#pragma once
// IEEE half and bfloat16 conversions (round to nearest even), used wherever
// f16/bf16 tensors are computed in f32 and rounded back. They are the
// runtime's header-only ones, which generated code uses too, so the
// reference interpreter and the kernels can never round differently.

#include "runtime/include/shardgen/float16.h"

namespace shardgen {

using runtime::bfloat16ToFloat;
using runtime::floatToBfloat16;
using runtime::floatToHalf;
using runtime::halfToFloat;

} // namespace shardgen
