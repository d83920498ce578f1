#include "compiler/show/TextRenderer.h"

#include <algorithm>
#include <functional>

namespace shardgen::show {

namespace {

struct Cell {
  std::string text;
  int64_t colour = -1; // palette index, -1 for none
};

/// A 2D table of cells with row and column labels.
struct Table {
  std::string title;
  std::vector<std::string> rowLabels, colLabels;
  std::vector<Cell> cells; // row-major
};

/// Lines of equal visible width.
struct Drawn {
  std::vector<std::string> lines;
  size_t width = 0;
};

std::string padRight(std::string text, size_t width) {
  if (text.size() < width)
    text.append(width - text.size(), ' ');
  return text;
}

std::string padLeft(const std::string &text, size_t width) {
  return text.size() < width ? std::string(width - text.size(), ' ') + text : text;
}

std::string coloured(const std::string &text, int64_t colour, const TextStyle &style) {
  if (!style.colour || colour < 0)
    return text;
  // Black on the bright backgrounds red, green, yellow, blue, magenta, cyan.
  return "\x1b[30;" + std::to_string(101 + colour % 6) + "m" + text + "\x1b[0m";
}

Drawn drawTable(const Table &table, const TextStyle &style) {
  size_t rows = table.rowLabels.size(), cols = table.colLabels.size();
  size_t rowWidth = 0;
  for (const auto &label : table.rowLabels)
    rowWidth = std::max(rowWidth, label.size());
  std::vector<size_t> colWidth(cols);
  for (size_t c = 0; c < cols; ++c) {
    colWidth[c] = table.colLabels[c].size();
    for (size_t r = 0; r < rows; ++r)
      colWidth[c] = std::max(colWidth[c], table.cells[r * cols + c].text.size());
  }
  std::string header = std::string(rowWidth, ' ') + "  ";
  std::string rule = std::string(rowWidth, ' ') + " +";
  for (size_t c = 0; c < cols; ++c) {
    header += " " + padRight(table.colLabels[c], colWidth[c]) + "  ";
    rule += std::string(colWidth[c] + 2, '-') + "+";
  }
  Drawn drawn;
  drawn.width = rule.size();
  if (!table.title.empty())
    drawn.lines.push_back(table.title);
  drawn.lines.push_back(header);
  drawn.lines.push_back(rule);
  for (size_t r = 0; r < rows; ++r) {
    std::string line = padLeft(table.rowLabels[r], rowWidth) + " |";
    for (size_t c = 0; c < cols; ++c) {
      const Cell &cell = table.cells[r * cols + c];
      line += coloured(" " + padRight(cell.text, colWidth[c]) + " ", cell.colour, style) + "|";
    }
    drawn.lines.push_back(line);
    drawn.lines.push_back(rule);
  }
  for (const auto &line : drawn.lines)
    drawn.width = std::max(drawn.width, line.size()); // titles may be wider
  return drawn;
}

size_t visibleLength(const std::string &line) {
  size_t length = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\x1b') {
      while (i < line.size() && line[i] != 'm')
        ++i;
      continue;
    }
    ++length;
  }
  return length;
}

/// Tables side by side, wrapping to a new row of tables beyond style.width.
std::string joinTables(const std::vector<Drawn> &tables, const TextStyle &style,
                       const std::string &indent) {
  std::string out;
  for (size_t first = 0; first < tables.size();) {
    size_t last = first + 1, width = indent.size() + tables[first].width;
    while (last < tables.size() && width + 3 + tables[last].width <= style.width)
      width += 3 + tables[last++].width;
    size_t height = 0;
    for (size_t t = first; t < last; ++t)
      height = std::max(height, tables[t].lines.size());
    for (size_t row = 0; row < height; ++row) {
      std::string line = indent;
      for (size_t t = first; t < last; ++t) {
        const Drawn &table = tables[t];
        std::string part = row < table.lines.size() ? table.lines[row] : "";
        line += part;
        if (t + 1 < last)
          line += std::string(table.width - visibleLength(part) + 3, ' ');
      }
      while (!line.empty() && line.back() == ' ')
        line.pop_back();
      out += line + "\n";
    }
    first = last;
  }
  return out;
}

/// A grid of any rank: `labels[d]` names the cells along dim d, `cell` gives
/// the cell at per-dim indices. Rank 0 is one cell, rank 1 one row, rank 2 a
/// table, higher ranks one table per index of the leading dims. At most
/// kMaxCuts indices per dim and kMaxSlices tables; `notes` gets what was elided.
std::string drawGrid(const std::vector<std::vector<std::string>> &labels,
                     const std::vector<std::string> &dimNames,
                     const std::function<Cell(const std::vector<int64_t> &)> &cell,
                     const TextStyle &style, std::vector<std::string> &notes,
                     const std::string &indent) {
  size_t rank = labels.size();
  auto shown = [&](size_t d) { return std::min(labels[d].size(), kMaxCuts); };
  for (size_t d = 0; d < rank; ++d)
    if (labels[d].size() > kMaxCuts)
      notes.push_back("along " + dimNames[d] + " only the first " + std::to_string(kMaxCuts) +
                      " of " + std::to_string(labels[d].size()) + " blocks are drawn");
  size_t rowDim = rank >= 2 ? rank - 2 : rank, colDim = rank >= 1 ? rank - 1 : rank;
  size_t numLeading = rank >= 2 ? rank - 2 : 0;

  std::vector<int64_t> leading(numLeading, 0);
  size_t numSlices = 1;
  for (size_t d = 0; d < numLeading; ++d)
    numSlices *= shown(d);
  if (numSlices > kMaxSlices)
    notes.push_back("only the first " + std::to_string(kMaxSlices) + " of " +
                    std::to_string(numSlices) + " slices are drawn");

  std::vector<Drawn> tables;
  for (size_t slice = 0; slice < std::min(numSlices, kMaxSlices); ++slice) {
    // The slice's leading indices, row-major.
    size_t rest = slice;
    for (size_t d = numLeading; d-- > 0;) {
      leading[d] = static_cast<int64_t>(rest % shown(d));
      rest /= shown(d);
    }
    Table table;
    if (numLeading > 0) {
      table.title = "[";
      for (size_t d = 0; d < numLeading; ++d)
        table.title += labels[d][leading[d]] + ", ";
      table.title += ":, :]";
    }
    size_t rows = rowDim < rank ? shown(rowDim) : 1;
    size_t cols = colDim < rank ? shown(colDim) : 1;
    for (size_t r = 0; r < rows; ++r)
      table.rowLabels.push_back(rowDim < rank ? labels[rowDim][r] : "");
    for (size_t c = 0; c < cols; ++c)
      table.colLabels.push_back(colDim < rank ? labels[colDim][c] : "scalar");
    std::vector<int64_t> index = leading;
    index.resize(rank);
    for (size_t r = 0; r < rows; ++r)
      for (size_t c = 0; c < cols; ++c) {
        if (rowDim < rank)
          index[rowDim] = static_cast<int64_t>(r);
        if (colDim < rank)
          index[colDim] = static_cast<int64_t>(c);
        table.cells.push_back(cell(index));
      }
    tables.push_back(drawTable(table, style));
  }
  std::string out;
  if (rank >= 2) {
    std::string over;
    for (size_t d = 0; d < numLeading; ++d)
      over += (d ? ", " : "slices over ") + dimNames[d] + (d + 1 == numLeading ? "; " : "");
    out += indent + over + "rows: " + dimNames[rowDim] + ", columns: " + dimNames[colDim] + "\n";
  } else if (rank == 1) {
    out += indent + "columns: " + dimNames[0] + "\n";
  }
  return out + joinTables(tables, style, indent);
}

std::string intervalText(const Interval &interval) {
  return std::to_string(interval.offset) + ":" + std::to_string(interval.offset + interval.extent);
}

std::string blockSummary(const BlockMap &map, const Mesh &mesh, bool bodyLocal) {
  size_t least = SIZE_MAX, most = 0, numBlocks = 0;
  for (const Block &block : map.blocks)
    if (!block.empty) {
      ++numBlocks;
      least = std::min(least, block.positions.size());
      most = std::max(most, block.positions.size());
    }
  if (numBlocks == 0)
    return "none: the tensor has no elements";
  std::string text = std::to_string(numBlocks) + (numBlocks == 1 ? " block" : " blocks") + " on " +
                     std::to_string(mesh.numDevices()) +
                     (mesh.numDevices() == 1 ? " device" : " devices");
  if (numBlocks == 1 && most == static_cast<size_t>(mesh.numDevices()) && most > 1)
    return text + (bodyLocal ? ": the whole body-local tensor on every device"
                             : ": replicated on every device");
  if (most == 1)
    return text + ", one device each";
  if (least == most)
    return text + ", each held by " + std::to_string(most) + " devices (replicas)";
  return text + ", each held by " + std::to_string(least) + " to " + std::to_string(most) +
         " devices";
}

/// deviceList, cut after kMaxNoteText characters with how many there are.
std::string boundedDeviceList(const Mesh &mesh, const std::vector<int64_t> &positions) {
  std::string text = deviceList(mesh, positions);
  if (text.size() <= kMaxNoteText)
    return text;
  text.resize(text.rfind(',', kMaxNoteText));
  return text + ",... (" + std::to_string(positions.size()) + " devices in all)";
}

} // namespace

std::string renderMeshText(const Mesh &mesh, const TextStyle &style) {
  std::string out = "mesh";
  if (!mesh.name.empty())
    out += " @" + mesh.name;
  out += ": ";
  for (size_t a = 0; a < mesh.axes.size(); ++a)
    out += (a ? ", " : "") + mesh.axes[a].name + "=" + std::to_string(mesh.axes[a].size);
  if (mesh.axes.empty())
    out += "no axes";
  out += " (" + std::to_string(mesh.numDevices()) +
         (mesh.numDevices() == 1 ? " device" : " devices") + ")\n";
  if (mesh.axes.empty()) {
    out += "  device id " + std::to_string(mesh.deviceId(0)) + "\n";
    return out;
  }
  std::vector<std::vector<std::string>> labels;
  std::vector<std::string> names;
  for (const auto &axis : mesh.axes) {
    names.push_back(axis.name);
    labels.emplace_back();
    for (int64_t i = 0; i < axis.size; ++i)
      labels.back().push_back(axis.name + "=" + std::to_string(i));
  }
  std::vector<std::string> notes;
  out += "  device ids by coordinates (row-major position order" +
         std::string(mesh.deviceIds.empty() ? ")" : ", through device_ids)") + "\n";
  out += drawGrid(
      labels, names,
      [&](const std::vector<int64_t> &coordinates) {
        return Cell{std::to_string(mesh.deviceId(mesh.position(coordinates))), -1};
      },
      style, notes, "  ");
  for (const auto &note : notes)
    out += "  (" + note + ")\n";
  return out;
}

std::string renderTensorText(const TensorView &view, const Mesh &mesh, const TextStyle &style) {
  const BlockMap &map = view.blocks;
  std::string out = view.role + " \"" + view.name + "\": " + printType(view.type) + "\n";
  out += (view.distributed ? "  distribution: " : "  sharding: ") + view.sharding + "\n";
  out += "  origin:   " + view.origin + "\n";
  out += "  blocks:   " + blockSummary(map, mesh, view.bodyLocal) + "\n";

  std::vector<std::vector<std::string>> labels;
  std::vector<std::string> dimNames;
  for (size_t d = 0; d < map.cuts.size(); ++d) {
    dimNames.push_back("dim " + std::to_string(d));
    labels.emplace_back();
    for (const Interval &interval : map.cuts[d])
      labels.back().push_back(intervalText(interval));
  }
  std::vector<std::string> notes, longLists;
  bool anyUneven = false;
  auto cellOf = [&](const std::vector<int64_t> &index) {
    int64_t b = map.numCells() ? map.cellBlock[map.cellIndex(index)] : -1;
    if (b < 0)
      return Cell{"?", -1};
    const Block &block = map.blocks[b];
    std::string text = deviceList(mesh, block.positions);
    if (text.size() > kMaxCellText) {
      longLists.push_back(boundedDeviceList(mesh, block.positions));
      text = "[" + std::to_string(longLists.size()) + "]";
    }
    if (block.uneven) {
      text += "*";
      anyUneven = true;
    }
    return Cell{text, b};
  };
  if (map.numCells() > 0)
    out += drawGrid(labels, dimNames, cellOf, style, notes, "  ");
  for (size_t i = 0; i < longLists.size(); ++i)
    out += "  [" + std::to_string(i + 1) + "] " + longLists[i] + "\n";
  if (anyUneven) {
    out += "  * uneven: the block is shorter than the others along a dim (the last chunk)\n";
  }
  for (const Block &block : map.blocks)
    if (block.empty)
      out += "  empty: " + boundedDeviceList(mesh, block.positions) + " hold no elements of it\n";
  if (!map.partialAxes.empty())
    out += "  partial: the devices of a block hold partial values, still to be reduced over " +
           axesText(map.partialAxes) + "\n";
  if (view.bodyLocal)
    out += "  body-local: blocks of the manual computation body's local tensor (each manual\n"
           "  coordinate holds its own)\n";
  for (const auto &note : notes)
    out += "  (" + note + ")\n";
  return out;
}

std::string renderText(const ShowModel &model, const TextStyle &style) {
  std::string out = renderMeshText(model.mesh, style);
  for (const TensorView &view : model.tensors)
    out += "\n" + renderTensorText(view, model.mesh, style);
  return out;
}

} // namespace shardgen::show
