#pragma once
// Scalar bodies in generated code (RegionEmitter.cpp): the struct of a body
// and the steps that run one.

#include <string>

#include "compiler/codegen/EmitterContext.h"

namespace shardgen::codegen {

/// The name of a file-scope struct whose static apply(arguments...,
/// results&...) runs `body` (a verified scalar body) on storage values.
std::string scalarBodyStruct(EmitterContext &context, const Region &body);

/// A reduce whose body is no simple reducer, on local pieces.
void emitReduceRegion(EmitterContext &context, const SpmdStep &step);

/// StepKind::RegionAllReduce: the group's partials gathered, then folded by
/// the body in group position order.
void emitRegionAllReduce(EmitterContext &context, const SpmdStep &step);

} // namespace shardgen::codegen
