#pragma once
// `shardgen show --html`: one self-contained page (inline CSS and JS, no
// network): the ops with each value's sharding, a clickable block-to-device
// view of every tensor (a 3D stack of slices for rank 3, rows of stacks
// beyond), the mesh, the communication manifest with bytes per collective
// and per device, and each value's origin chain (what `shardgen explain`
// prints).
//
// Every string from the graph travels inside one JSON data block whose `<`,
// `>` and `&` are \u escapes (no name can close the script element), and the
// page's script puts it into the DOM as text only (textContent, never HTML).

#include <string>
#include <vector>

#include "compiler/ir/Graph.h"
#include "compiler/partition/SpmdProgram.h"
#include "compiler/propagate/Propagation.h"

namespace shardgen::show {

struct HtmlInput {
  std::string fileLabel;             // the graph file as the user named it
  std::vector<std::string> selected; // values to show first (the first is opened)
};

/// The data block: JSON text safe inside a <script> element.
std::string pageData(const Graph &graph, const PropagationResult &result,
                     const SpmdProgram &program, const HtmlInput &input);

std::string renderHtml(const Graph &graph, const PropagationResult &result,
                       const SpmdProgram &program, const HtmlInput &input);

/// JSON text with `<`, `>`, `&`, U+2028 and U+2029 as \u escapes, so it can
/// stand inside a <script> element and a JS source.
std::string scriptSafeJson(const std::string &json);

} // namespace shardgen::show
