#pragma once
// Propagation's origins as a graph file spells them: `_origin` on a slot or
// an op with one result, `_origins` (an array) on an op with several or
// written with the plural keys. The IR holds them typed (ShardingOrigin);
// the readers and writers (JSON here, MLIR in compiler/mlir) convert.

#include "compiler/ir/Graph.h"
#include "compiler/ir/Metadata.h"

namespace shardgen {

/// A slot's or op's metadata as a file holds it: with propagation's origin
/// as `_origin` (an op with several results, or written with the plural
/// keys: `_origins`), in place of the file's own or after the other keys.
Metadata metadataWithOrigin(const RegionArgument &slot);
Metadata metadataWithOrigin(const Op &op);

/// Moves `_origin`/`_origins` metadata that propagation wrote (the last `_`
/// key of its object, text `ShardingOrigin::str` gives) into the slots'
/// typed origins, so a propagated file read back holds what propagation
/// left. Other `_origin` entries stay metadata, and their slot states an
/// origin of its own (RegionArgument::statesOrigin, Op::statesOrigins).
/// Readers call it once.
void takeOriginsFromMetadata(Graph &graph);

} // namespace shardgen
