#include "compiler/ir/Progress.h"

namespace shardgen {

namespace {
thread_local ProgressSink *currentSink = nullptr;
}

ScopedProgressSink::ScopedProgressSink(ProgressSink *sink) : previous_(currentSink) {
  currentSink = sink;
}

ScopedProgressSink::~ScopedProgressSink() { currentSink = previous_; }

ProgressSink *currentProgressSink() { return currentSink; }

} // namespace shardgen
