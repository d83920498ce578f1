#pragma once
// Calls one collective, named as in the graph format, on small float buffers
// over one mesh axis: the failure tests run every kind the same way.

#include <string>

#include "shardgen/runtime.h"

namespace shardgen::runtime::testing {

/// `axis` may be out of range, to make the collective itself throw.
inline void callCollective(const DeviceContext &device, const std::string &collective,
                           int32_t axis) {
  const int32_t axes[] = {axis};
  float in[4] = {1, 2, 3, 4}, out[16] = {};
  const int64_t shape[] = {4};
  if (collective == "all_reduce")
    allReduce(device, {axes, 1}, SHARDGEN_F32, Reducer::Add, in, out, 4);
  else if (collective == "all_gather")
    allGather(device, {axes, 1}, SHARDGEN_F32, DimView{1, 4, 1}, in, out);
  else if (collective == "reduce_scatter")
    reduceScatter(device, {axes, 1}, SHARDGEN_F32, Reducer::Add, DimView{1, 4, 1}, in, out);
  else if (collective == "all_to_all")
    allToAll(device, {axes, 1}, SHARDGEN_F32, shape, 1, 0, 0, in, out);
  else if (collective == "collective_permute")
    collectivePermute(device, {axes, 1}, SHARDGEN_F32, 1, in, out, 4);
  else
    barrier(device);
}

} // namespace shardgen::runtime::testing
