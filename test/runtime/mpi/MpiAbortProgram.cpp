// A 4-device job in which device 2 fails while its peers wait in the
// collective named on the command line; MpiAbortTest.cmake checks the whole
// job ends with that device's error instead of hanging. With "stall" as the
// second argument device 2 sleeps instead of failing, and the watchdog
// (a 1 s timeout) must end the job. The collective "exchange_mismatch" is
// an exchange in which device 2 expects 5 bytes from position 0, which
// sends it 4: device 2 fails inside the exchange, naming the sender.

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "CollectiveByName.h"
#include "shardgen/mpi.h"

using namespace shardgen::runtime;

namespace {

/// Every position sends every other one 4 bytes; position 2 expects 5 from 0.
void mismatchedExchange(const DeviceContext &device) {
  unsigned char send[16] = {}, recv[32] = {};
  std::vector<int64_t> sendAt, recvAt;
  for (int64_t q = 0; q <= 4; ++q) {
    sendAt.push_back(4 * q);
    recvAt.push_back(q == 0 || device.position != 2 ? 4 * q : 4 * q + 1);
  }
  exchange(device, send, sendAt.data(), recv, recvAt.data());
}

} // namespace

int main(int argc, char **argv) {
  std::string collective = argc > 1 ? argv[1] : "all_reduce";
  const bool stall = argc > 2 && std::string(argv[2]) == "stall";
  DeviceMesh mesh({{"x", 4}});
  launchMpi(
      mesh,
      [&](const DeviceContext &device) {
        if (device.deviceId == 2 && stall)
          std::this_thread::sleep_for(std::chrono::seconds(60));
        else if (collective == "exchange_mismatch")
          mismatchedExchange(device);
        else if (device.deviceId == 2)
          throw std::runtime_error("device 2 failed on purpose before " + collective);
        testing::callCollective(device, collective, 0);
      },
      LaunchOptions{stall ? 1.0 : 0.0});
  finalizeMpi();
  return 0;
}
