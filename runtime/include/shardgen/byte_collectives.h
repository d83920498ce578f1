#pragma once
// Whole-mesh collectives on raw bytes, built on the public collectives of
// runtime.h so they work on every backend: what a host side needs to move
// global tensors between the one process that holds them and the devices
// (e.g. a compiled program's runRank under MPI, where only rank 0 holds them).

#include <stdint.h>

#include "shardgen/runtime.h"

namespace shardgen::runtime {

/// Every device's `data` (`bytes` bytes) receives the bytes at `source`,
/// which the devices holding them pass (all the same bytes) and the others
/// pass as null. At least one device must pass them.
void broadcastBytes(const DeviceContext &device, const void *source, void *data, int64_t bytes);

/// Each device's `data` holds the bytes it wrote and zeros elsewhere, the
/// writes of different devices disjoint or equal; afterwards every device's
/// `data` holds all of them (a bitwise or, so the bits are exact).
void mergeBytes(const DeviceContext &device, void *data, int64_t bytes);

/// True on every device when `flag` is true on any device.
bool anyDevice(const DeviceContext &device, bool flag);

} // namespace shardgen::runtime
