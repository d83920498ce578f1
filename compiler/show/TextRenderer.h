#pragma once
// `shardgen show` in a terminal: the mesh, then per tensor its type,
// sharding, origin and a grid of which devices hold which block. Ranks 0-2
// are drawn directly; higher ranks as a row of labelled 2D slices over the
// leading dims. Output stays bounded: beyond kMaxCuts blocks along a dim or
// kMaxSlices slices the rest is elided with a note. Text from the graph
// (names) must already be printable: the caller escapes control characters.

#include <string>

#include "compiler/show/ShowModel.h"

namespace shardgen::show {

struct TextStyle {
  bool colour = false; // ANSI colours, one per block
  size_t width = 120;  // slices wrap beyond this many columns
};

inline constexpr size_t kMaxCuts = 8;   // blocks drawn along one dim
inline constexpr size_t kMaxSlices = 6; // 2D slices drawn for rank > 2
/// Longer device lists become a numbered note under the grid ("[1]").
inline constexpr size_t kMaxCellText = 24;
/// Device lists in notes are cut after this many characters, with a count.
inline constexpr size_t kMaxNoteText = 160;

std::string renderMeshText(const Mesh &mesh, const TextStyle &style);
std::string renderTensorText(const TensorView &view, const Mesh &mesh, const TextStyle &style);
/// The mesh, then every tensor.
std::string renderText(const ShowModel &model, const TextStyle &style);

} // namespace shardgen::show
