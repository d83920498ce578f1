// exchange: point to point over the whole mesh (the transfers of
// distributed values), each device sending each peer a different number of
// bytes; a sender and receiver disagreeing on a length is an error.

#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "shardgen/launch.h"
#include "shardgen/runtime.h"

using namespace shardgen::runtime;

namespace {

/// What position p sends position q: p + q + (q > p) bytes, each p * 16 + q.
int64_t length(int64_t p, int64_t q) { return p == q ? 0 : p + q + (q > p); }

} // namespace

TEST_CASE("exchange moves each peer's segment, of any length, to its place") {
  DeviceMesh mesh({{"x", 2}, {"y", 2}});
  const int64_t n = 4;
  std::vector<std::vector<unsigned char>> received(n);
  launch(mesh, [&](const DeviceContext &device) {
    const int64_t p = device.position;
    std::vector<int64_t> sendAt{0}, recvAt{0};
    std::vector<unsigned char> send;
    for (int64_t q = 0; q < n; ++q) {
      for (int64_t b = 0; b < length(p, q); ++b)
        send.push_back(static_cast<unsigned char>(p * 16 + q));
      sendAt.push_back(static_cast<int64_t>(send.size()));
      recvAt.push_back(recvAt.back() + length(q, p));
    }
    std::vector<unsigned char> &recv = received[p];
    recv.assign(recvAt.back(), 0xff);
    exchange(device, send.data(), sendAt.data(), recv.data(), recvAt.data());
  });
  for (int64_t p = 0; p < n; ++p) {
    std::vector<unsigned char> expected;
    for (int64_t q = 0; q < n; ++q)
      for (int64_t b = 0; b < length(q, p); ++b)
        expected.push_back(static_cast<unsigned char>(q * 16 + p));
    CAPTURE(p);
    CHECK(received[p] == expected);
  }
}

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
