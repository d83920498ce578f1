#pragma once
// The progress line on stderr while long stages run:
//   shardgen: propagating: 840/1000 ops (2.1 s)
// redrawn in place with \r and cleared when the stage ends. Shown only where
// a person watches (stderr a terminal, or forced with --progress) and only
// once the command has worked ~1 s, so short runs and pipes never see it.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "compiler/cli/CommandLine.h"
#include "compiler/ir/Progress.h"

namespace shardgen::cli {

extern const OptionSpec kProgressOption;   // --progress
extern const OptionSpec kNoProgressOption; // --no-progress

class ProgressLine : public ProgressSink {
public:
  /// On when --progress, off when --no-progress, else when stderr is a terminal.
  explicit ProgressLine(const ParsedArgs &args);
  ~ProgressLine() override;

  /// A stage begins ("propagating"); the previous one, if any, ends.
  void beginStage(std::string stage);
  /// The stage ended: the line is cleared.
  void endStage();
  void advance(std::string_view what, int64_t done, int64_t total) override;

private:
  using Clock = std::chrono::steady_clock;
  void drawLocked();
  void clearLocked();
  void tick();

  bool enabled_ = false;
  Clock::duration delay_;
  Clock::time_point start_, stageStart_, lastDraw_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool inStage_ = false, drawn_ = false, stopping_ = false;
  std::string stage_, detail_;
  std::thread ticker_; // redraws the elapsed time while one long step runs
};

} // namespace shardgen::cli
