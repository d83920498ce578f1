#include "compiler/cli/ProgressLine.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace shardgen::cli {

const OptionSpec kProgressOption{"--progress", OptionSpec::Flag, "",
                                 "show the progress line on stderr even when it is not a "
                                 "terminal, from the start"};
const OptionSpec kNoProgressOption{"--no-progress", OptionSpec::Flag, "",
                                   "never show the progress line"};

namespace {

/// How long a command works before the line appears: 1 s, or
/// SHARDGEN_PROGRESS_DELAY_MS (for tests, which cannot wait on a slow graph).
std::chrono::milliseconds autoDelay() {
  const char *text = std::getenv("SHARDGEN_PROGRESS_DELAY_MS");
  char *end = nullptr;
  long ms = text ? std::strtol(text, &end, 10) : -1;
  return std::chrono::milliseconds(text && *text && !*end && ms >= 0 ? ms : 1000);
}

constexpr size_t kMaxWidth = 79; // a wrapped line could not be redrawn with \r

} // namespace

ProgressLine::ProgressLine(const ParsedArgs &args) : start_(Clock::now()) {
  if (args.has("--progress") && args.has("--no-progress"))
    throw UsageError("--progress and --no-progress exclude each other");
  enabled_ = args.has("--progress") || (!args.has("--no-progress") && ::isatty(STDERR_FILENO));
  delay_ = args.has("--progress") ? Clock::duration::zero() : Clock::duration(autoDelay());
  if (enabled_)
    ticker_ = std::thread([this] { tick(); });
}

ProgressLine::~ProgressLine() {
  if (!enabled_)
    return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    clearLocked();
  }
  wake_.notify_all();
  ticker_.join();
}

void ProgressLine::beginStage(std::string stage) {
  if (!enabled_)
    return;
  std::lock_guard<std::mutex> lock(mutex_);
  stage_ = std::move(stage);
  detail_.clear();
  inStage_ = true;
  stageStart_ = Clock::now();
  drawLocked();
}

void ProgressLine::endStage() {
  if (!enabled_)
    return;
  std::lock_guard<std::mutex> lock(mutex_);
  inStage_ = false;
  clearLocked();
}

void ProgressLine::advance(std::string_view what, int64_t done, int64_t total) {
  if (!enabled_)
    return;
  std::lock_guard<std::mutex> lock(mutex_);
  detail_ = total > 0 ? std::to_string(done) + "/" + std::to_string(total) + " " + std::string(what)
                      : std::string(what);
  // Redrawn at most every 50 ms: a stage may report thousands of times a second.
  if (Clock::now() - lastDraw_ >= std::chrono::milliseconds(50))
    drawLocked();
}

void ProgressLine::drawLocked() {
  Clock::time_point now = Clock::now();
  if (!inStage_ || now - start_ < delay_)
    return;
  double seconds = std::chrono::duration<double>(now - stageStart_).count();
  char elapsed[32];
  std::snprintf(elapsed, sizeof elapsed, " (%.1f s)", seconds);
  std::string line = "shardgen: " + stage_ + (detail_.empty() ? "" : ": " + detail_);
  if (line.size() + std::string(elapsed).size() > kMaxWidth)
    line.resize(kMaxWidth - std::string(elapsed).size());
  line = "\r\x1b[K" + line + elapsed;
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  drawn_ = true;
  lastDraw_ = now;
}

void ProgressLine::clearLocked() {
  if (!drawn_)
    return;
  std::fputs("\r\x1b[K", stderr);
  std::fflush(stderr);
  drawn_ = false;
}

void ProgressLine::tick() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, std::chrono::milliseconds(200));
    if (!stopping_)
      drawLocked();
  }
}

} // namespace shardgen::cli
