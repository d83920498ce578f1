// A 4-device job in which device 2 fails while its peers wait in the
// collective named on the command line; MpiAbortTest.cmake checks the whole
// job ends with that device's error instead of hanging. With "stall" as the
// second argument device 2 sleeps instead of failing, and the watchdog
// (a 1 s timeout) must end the job.

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "CollectiveByName.h"
#include "shardgen/mpi.h"

using namespace shardgen::runtime;

int main(int argc, char **argv) {
  std::string collective = argc > 1 ? argv[1] : "all_reduce";
  const bool stall = argc > 2 && std::string(argv[2]) == "stall";
  DeviceMesh mesh({{"x", 4}});
  launchMpi(
      mesh,
      [&](const DeviceContext &device) {
        if (device.deviceId == 2 && stall)
          std::this_thread::sleep_for(std::chrono::seconds(60));
        else if (device.deviceId == 2)
          throw std::runtime_error("device 2 failed on purpose before " + collective);
        testing::callCollective(device, collective, 0);
      },
      LaunchOptions{stall ? 1.0 : 0.0});
  finalizeMpi();
  return 0;
}
