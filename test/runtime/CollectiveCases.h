#pragma once
// Backend-independent checks of every collective: each runs SPMD device code
// through a launcher (threads or MPI) and compares each device's result with
// an expected value written as an explicit formula over the group members.
// The threads tests and the MPI test share them, so both backends meet the
// same expectations.

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "shardgen/launch.h"

namespace shardgen::runtime::testing {

using Launcher = std::function<void(const DeviceMesh &, const DeviceFunction &)>;

/// Mismatches reported by device code (any thread); empty when all passed.
class Failures {
public:
  void add(std::string message);
  std::vector<std::string> take();

private:
  std::mutex mutex_;
  std::vector<std::string> messages_;
};

/// The mesh positions of the members of `device`'s group over `axes`, in
/// group-position order: written from the spec's wording (vary the listed
/// axes, row-major in listed order; keep the other coordinates).
std::vector<int64_t> groupMembers(const DeviceContext &device, const std::vector<int32_t> &axes);

/// Each returns the failures seen by the devices this process runs.
std::vector<std::string> checkAllReduceEveryTypeAndReducer(const Launcher &launch,
                                                           const DeviceMesh &mesh,
                                                           const std::vector<int32_t> &axes);
std::vector<std::string> checkAllReduceLarge(const Launcher &launch, const DeviceMesh &mesh,
                                             const std::vector<int32_t> &axes, int64_t count,
                                             bool inPlace);
std::vector<std::string> checkAllReduceSpecialValues(const Launcher &launch,
                                                     const DeviceMesh &mesh);
std::vector<std::string> checkAllGather(const Launcher &launch, const DeviceMesh &mesh,
                                        const std::vector<int32_t> &axes);
std::vector<std::string> checkReduceScatter(const Launcher &launch, const DeviceMesh &mesh,
                                            const std::vector<int32_t> &axes);
std::vector<std::string> checkAllToAll(const Launcher &launch, const DeviceMesh &mesh,
                                       const std::vector<int32_t> &axes);
std::vector<std::string> checkCollectivePermute(const Launcher &launch, const DeviceMesh &mesh,
                                                const std::vector<int32_t> &axes);
/// exchange over the whole mesh: segments of varied lengths (some empty).
std::vector<std::string> checkExchange(const Launcher &launch, const DeviceMesh &mesh);
std::vector<std::string> checkAxisIndexAndGroups(const Launcher &launch, const DeviceMesh &mesh);

/// Every check above on `mesh`, over several axis lists (all of them, each
/// one alone, and all of them in reverse order).
std::vector<std::string> checkEveryCollective(const Launcher &launch, const DeviceMesh &mesh);

} // namespace shardgen::runtime::testing
