#include "compiler/ir/Uniqued.h"

#include <functional>
#include <mutex>
#include <string_view>
#include <unordered_set>

#include "compiler/ir/Sharding.h"
#include "compiler/ir/TensorType.h"

namespace shardgen {
namespace {

void combine(size_t &seed, size_t value) {
  seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

struct ValueHash {
  size_t operator()(const TensorType &type) const {
    size_t seed = static_cast<size_t>(type.elementType);
    for (int64_t size : type.shape)
      combine(seed, std::hash<int64_t>{}(size));
    return seed;
  }
  static void hashAxes(size_t &seed, const std::vector<AxisRef> &axes) {
    combine(seed, axes.size());
    for (const AxisRef &axis : axes) {
      combine(seed, std::hash<std::string_view>{}(axis.name));
      combine(seed, std::hash<int64_t>{}(axis.preSize.value_or(0)));
      combine(seed, std::hash<int64_t>{}(axis.subSize.value_or(0)));
    }
  }
  size_t operator()(const TensorSharding &sharding) const {
    size_t seed = std::hash<std::string_view>{}(sharding.meshName);
    for (const DimSharding &dim : sharding.dims) {
      hashAxes(seed, dim.axes);
      combine(seed, dim.isClosed ? 1 : 2);
      combine(seed, std::hash<int64_t>{}(dim.priority.value_or(-1)));
    }
    hashAxes(seed, sharding.replicated);
    hashAxes(seed, sharding.unreduced);
    return seed;
  }
};

template <typename T> struct Store {
  std::mutex mutex;
  std::unordered_set<T, ValueHash> values; // nodes never move
};

template <typename T> Store<T> &store() {
  // Never destroyed: handles in static objects may outlive it otherwise.
  static auto *instance = new Store<T>();
  return *instance;
}

} // namespace

template <typename T> const T *uniquedInstance(const T &value) {
  Store<T> &values = store<T>();
  std::lock_guard<std::mutex> lock(values.mutex);
  return &*values.values.insert(value).first;
}

template const TensorType *uniquedInstance(const TensorType &value);
template const TensorSharding *uniquedInstance(const TensorSharding &value);

} // namespace shardgen
