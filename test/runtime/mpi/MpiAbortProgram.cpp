// A 4-rank job in which rank 2 fails while its peers wait in the collective
// named on the command line; MpiAbortTest.cmake checks the whole job ends
// with that rank's error instead of hanging.

#include <cstring>
#include <stdexcept>
#include <string>

#include "shardgen/mpi.h"
#include "shardgen/runtime.h"

using namespace shardgen::runtime;

int main(int argc, char **argv) {
  std::string collective = argc > 1 ? argv[1] : "all_reduce";
  DeviceMesh mesh({{"x", 4}});
  launchMpi(mesh, [&](const DeviceContext &device) {
    if (device.deviceId == 2)
      throw std::runtime_error("device 2 failed on purpose before " + collective);
    const int32_t x[] = {0};
    float in[4] = {1, 2, 3, 4}, out[16] = {};
    if (collective == "all_reduce")
      allReduce(device, {x, 1}, SHARDGEN_F32, Reducer::Add, in, out, 4);
    else if (collective == "all_gather")
      allGather(device, {x, 1}, SHARDGEN_F32, DimView{1, 4, 1}, in, out);
    else if (collective == "reduce_scatter")
      reduceScatter(device, {x, 1}, SHARDGEN_F32, Reducer::Add, DimView{1, 4, 1}, in, out);
    else if (collective == "all_to_all") {
      const int64_t shape[] = {4};
      allToAll(device, {x, 1}, SHARDGEN_F32, shape, 1, 0, 0, in, out);
    } else if (collective == "collective_permute")
      collectivePermute(device, {x, 1}, SHARDGEN_F32, 1, in, out, 4);
    else
      barrier(device);
  });
  finalizeMpi();
  return 0;
}
