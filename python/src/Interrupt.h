#pragma once
// Ctrl-C during a run. Python's SIGINT handler only sets a flag that the
// main thread's interpreter loop looks at, and that thread is inside the
// run (it runs a device itself): so while a run started on the main thread
// is in progress, SIGINT also sets the run's cancel flag (then Python's own
// handler runs as before). The devices stop at their next traced op
// (runtime::LaunchOptions::cancel), the run ends, and the caller raises
// what Python's handler raises (KeyboardInterrupt by default). Runs on
// other threads are not interrupted, as Python delivers signals to the
// main thread only.

#include <atomic>

namespace shardgen::python {

class InterruptibleRun {
public:
  /// Call with the GIL held; the handler is installed on the main thread
  /// only (and only over a handler Python installed, not SIG_DFL/SIG_IGN).
  InterruptibleRun();
  ~InterruptibleRun(); // restores the handler
  InterruptibleRun(const InterruptibleRun &) = delete;
  InterruptibleRun &operator=(const InterruptibleRun &) = delete;

  /// What LaunchOptions::cancel points to.
  const std::atomic<bool> *cancel() const { return &cancel_; }
  /// Whether SIGINT arrived during the run.
  bool interrupted() const { return cancel_.load(); }

  /// After the run (GIL held, handler restored): when SIGINT arrived, runs
  /// Python's handlers and throws what they raised; if they raised nothing
  /// but the run was cancelled (`cancelled`), throws KeyboardInterrupt.
  void raiseIfInterrupted(bool cancelled);

private:
  std::atomic<bool> cancel_{false};
  bool installed_ = false;
};

} // namespace shardgen::python
