#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include "shardgen/mpi.h"

namespace shardgen::runtime {

struct RankWatchdog::State {
  double seconds = 0;
  std::mutex mutex;
  std::condition_variable changed;
  const char *waitingIn = nullptr; // the call under way, if any
  std::chrono::steady_clock::time_point since;
  bool stopping = false;
  std::thread thread;

  void set(const char *what) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      waitingIn = what;
      since = std::chrono::steady_clock::now();
    }
    changed.notify_all();
  }

  void watch() {
    std::unique_lock<std::mutex> lock(mutex);
    const auto limit = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(seconds));
    while (!stopping) {
      if (!waitingIn) {
        changed.wait(lock);
        continue;
      }
      const char *what = waitingIn;
      const auto started = since;
      if (changed.wait_until(lock, started + limit,
                             [&] { return stopping || waitingIn != what || since != started; }))
        continue; // done, or the next call under way
      char text[32];
      std::snprintf(text, sizeof text, "%g", seconds);
      abortMpiJob(std::string("the run did not finish within the timeout of ") + text +
                  " s: this rank waits in " + what +
                  " for a peer rank that is stopped, lost or slower");
    }
  }
};

RankWatchdog::RankWatchdog(double seconds) {
  if (seconds <= 0)
    return;
  state_ = std::make_unique<State>();
  state_->seconds = seconds;
  state_->thread = std::thread([state = state_.get()] { state->watch(); });
}

RankWatchdog::~RankWatchdog() {
  if (!state_)
    return;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->stopping = true;
  }
  state_->changed.notify_all();
  state_->thread.join();
}

void RankWatchdog::waitIn(const char *what, const std::function<void()> &call) {
  if (!state_)
    return call();
  state_->set(what);
  call();
  state_->set(nullptr);
}

} // namespace shardgen::runtime
