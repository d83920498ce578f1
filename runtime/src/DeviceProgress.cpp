#include "DeviceProgress.h"

#include <algorithm>
#include <map>

namespace shardgen::runtime {
namespace {

// A report on a big mesh lists this many runs of device ids per state.
constexpr size_t kMaxRunsListed = 8;

/// "0, 2-5, 9" (ids sorted), shortened after kMaxRunsListed runs.
std::string idList(std::vector<int64_t> ids) {
  std::sort(ids.begin(), ids.end());
  std::string out;
  size_t runs = 0;
  for (size_t i = 0; i < ids.size();) {
    size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
      ++j;
    if (runs == kMaxRunsListed) {
      out += ", ...";
      break;
    }
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive)
    // on `"literal" + std::string` here at -O3.
    if (runs++)
      out += ", ";
    out += std::to_string(ids[i]);
    if (j > i) {
      out += '-';
      out += std::to_string(ids[j]);
    }
    i = j + 1;
  }
  return out;
}

} // namespace

DeviceProgress::DeviceProgress(std::vector<int64_t> deviceIds, int64_t firstPosition)
    : deviceIds_(std::move(deviceIds)), firstPosition_(firstPosition),
      statuses_(new Status[deviceIds_.size()]) {}

void DeviceProgress::noteOp(int64_t position, const char *pointer) {
  statuses_[position - firstPosition_].op.store(pointer, std::memory_order_relaxed);
}

void DeviceProgress::noteCollective(int64_t position, const char *collective) {
  statuses_[position - firstPosition_].collective.store(collective, std::memory_order_relaxed);
}

void DeviceProgress::noteFinished(int64_t position) {
  statuses_[position - firstPosition_].finished.store(true, std::memory_order_relaxed);
}

std::string DeviceProgress::describe() const {
  std::vector<std::string> states; // in order of first appearance
  std::map<std::string, std::vector<int64_t>> devices;
  for (size_t position = 0; position < deviceIds_.size(); ++position) {
    const Status &status = statuses_[position];
    const char *op = status.op.load(std::memory_order_relaxed);
    const char *collective = status.collective.load(std::memory_order_relaxed);
    std::string state;
    if (status.finished.load(std::memory_order_relaxed))
      state = "finished";
    else if (collective)
      state = std::string("waiting in ") + collective + (op ? std::string(" for ") + op : "");
    else
      state = std::string("computing") + (op ? std::string(" (after ") + op + ")" : "");
    auto [it, inserted] = devices.try_emplace(state);
    if (inserted)
      states.push_back(state);
    it->second.push_back(deviceIds_[position]);
  }
  std::string out;
  for (const std::string &state : states) {
    const std::vector<int64_t> &ids = devices[state];
    out += (out.empty() ? "" : "; ") + std::string(ids.size() == 1 ? "device " : "devices ") +
           idList(ids) + (ids.size() == 1 ? " is " : " are ") + state;
  }
  return out;
}

} // namespace shardgen::runtime
