#pragma once
// Progress of long stages, for a person watching a terminal. A stage reports
// what it has done through the sink the caller installed on this thread (the
// CLI's progress line); without one, reporting costs a thread-local load.

#include <cstdint>
#include <string_view>

namespace shardgen {

class ProgressSink {
public:
  virtual ~ProgressSink() = default;
  /// `done` of `total` units of `what` ("ops"); total 0: unknown.
  virtual void advance(std::string_view what, int64_t done, int64_t total) = 0;
};

/// Installs `sink` for this thread while in scope (restores the previous one).
class ScopedProgressSink {
public:
  explicit ScopedProgressSink(ProgressSink *sink);
  ~ScopedProgressSink();
  ScopedProgressSink(const ScopedProgressSink &) = delete;
  ScopedProgressSink &operator=(const ScopedProgressSink &) = delete;

private:
  ProgressSink *previous_;
};

ProgressSink *currentProgressSink();

inline void reportProgress(std::string_view what, int64_t done, int64_t total) {
  if (ProgressSink *sink = currentProgressSink())
    sink->advance(what, done, total);
}

} // namespace shardgen
