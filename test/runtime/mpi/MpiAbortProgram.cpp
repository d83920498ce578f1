// A 4-rank job in which rank 2 fails while its peers wait in the collective
// named on the command line; MpiAbortTest.cmake checks the whole job ends
// with that rank's error instead of hanging.

#include <stdexcept>
#include <string>

#include "CollectiveByName.h"
#include "shardgen/mpi.h"

using namespace shardgen::runtime;

int main(int argc, char **argv) {
  std::string collective = argc > 1 ? argv[1] : "all_reduce";
  DeviceMesh mesh({{"x", 4}});
  launchMpi(mesh, [&](const DeviceContext &device) {
    if (device.deviceId == 2)
      throw std::runtime_error("device 2 failed on purpose before " + collective);
    testing::callCollective(device, collective, 0);
  });
  finalizeMpi();
  return 0;
}
