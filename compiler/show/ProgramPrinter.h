#pragma once
// The partitioned per-device program as text, the way Shardy and Halide
// print IR between passes (`shardgen partition`, `--dump-after=partition`):
//
//   the mesh (axes, sizes, device ids when not iota);
//   every value: global type, sharding (partial axes), and its distinct
//     local types with the devices holding each (short and empty pieces of
//     uneven shardings marked);
//   every step in program order: a compute step as the op on local types,
//     a reshard as its collective (kind, axes, device groups, bytes sent and
//     received per device) with the op it serves.
//
// The text is deterministic (same program, same bytes) and names from the
// graph are quoted and escaped unless they are plain identifiers.

#include <string>

#include "compiler/partition/SpmdProgram.h"

namespace shardgen::show {

std::string printProgram(const SpmdProgram &program);

} // namespace shardgen::show
