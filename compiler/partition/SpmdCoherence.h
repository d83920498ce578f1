#pragma once
// A static proof that a partitioned program cannot deadlock or mismatch:
// all devices of every collective group issue the same collectives in the
// same order, with matching sizes and groups.
//
// Every device runs every step in program order, and the code generator
// issues exactly one runtime call per device for each communication step (the
// collective itself, or an all-gather into slots padded to the program's
// largest piece, whose size is one constant for all devices). A step's kind,
// reducer and dimensions are the same on every device by construction; what
// can still differ between devices is the group each derives from the step's
// axes and the sizes each sends and expects. So the per-device sequences
// restricted to a group agree when, for each step, every member derives the
// same members in the same order and what each member sends is what every
// other member expects to receive. The check derives, per step, each
// device's group, the piece it sends and the piece it ends with, and compares
// the members of each group, body collectives of manual computations
// included. Cost: the groups are found once per distinct list of group axes;
// then each communication step compares each device's piece shapes with its
// group's, no more.

#include <cstdint>
#include <stdexcept>
#include <string>

#include "compiler/ir/InternalError.h"
#include "compiler/partition/SpmdProgram.h"

namespace shardgen {

/// A partitioned program whose devices disagree on a collective: a bug in
/// shardgen (exit 4), not bad input. what() reads "POINTER: KIND step:
/// devices A and B disagree: ..." (A, B: mesh positions).
class SpmdCoherenceError : public InternalError {
public:
  SpmdCoherenceError(std::string pointer, int64_t deviceA, int64_t deviceB,
                     const std::string &message);
  const std::string &pointer() const { return pointer_; }
  int64_t deviceA() const { return deviceA_; }
  int64_t deviceB() const { return deviceB_; }

private:
  std::string pointer_;
  int64_t deviceA_, deviceB_;
};

/// Throws SpmdCoherenceError at the first step whose group members disagree.
void verifySpmdCoherence(const SpmdProgram &program);

} // namespace shardgen
