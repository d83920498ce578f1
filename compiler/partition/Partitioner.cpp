#include "compiler/partition/Partitioner.h"

#include "compiler/partition/ProgramMesh.h"
#include "compiler/partition/RegionPartitioner.h"

namespace shardgen {

SpmdProgram partitionProgram(const Graph &graph) {
  SpmdProgram program;
  program.graph = &graph;
  program.mesh = programMesh(graph);
  RegionPartitioner(graph, program).partitionMain();
  return program;
}

} // namespace shardgen
