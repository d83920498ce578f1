// exchange: a sender and receiver disagreeing on a length is an error. (What
// it moves is checked on every backend: CollectiveCases' checkExchange.)

#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "shardgen/launch.h"
#include "shardgen/runtime.h"

using namespace shardgen::runtime;

TEST_CASE("exchange refuses lengths a sender and its receiver disagree on") {
  DeviceMesh mesh({{"x", 2}});
  CHECK_THROWS_WITH_AS(
      launch(mesh,
             [&](const DeviceContext &device) {
               unsigned char send[2] = {1, 2}, recv[3] = {};
               // Each sends the other 2 bytes; device 0 expects 3.
               const bool first = device.position == 0;
               const int64_t sendAt[] = {0, first ? 0 : 2, 2};
               const int64_t recvAt[] = {0, first ? 0 : 2, first ? 3 : 2};
               exchange(device, send, sendAt, recv, recvAt);
             }),
      "exchange: position 1 sends a different number of bytes than position 0 expects",
      std::invalid_argument);
}
