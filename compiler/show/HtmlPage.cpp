#include "compiler/show/HtmlPage.h"

namespace shardgen::show {

const char *const kPageHead = R"page(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>shardgen show</title>
<style>
:root { --fg: #1d2330; --muted: #5c6577; --line: #c9cfdb; --panel: #f6f7fa; --accent: #2a5bd7; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: #fff; }
header { padding: 12px 20px; border-bottom: 1px solid var(--line); background: var(--panel); }
h1 { font-size: 20px; margin: 0; }
h2 { font-size: 16px; margin: 0 0 8px; }
h3 { font-size: 15px; margin: 4px 0 8px; }
.sub { color: var(--muted); margin: 2px 0 0; }
main { display: flex; flex-wrap: wrap; gap: 16px; padding: 16px 20px; align-items: flex-start; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px; }
#graph-panel { flex: 1 1 380px; max-width: 560px; }
#tensor-panel { flex: 3 1 560px; min-width: 0; overflow-x: auto; }
#mesh-panel, #manifest-panel { margin: 0 20px 16px; overflow-x: auto; }
.mono, code, pre, .sharding { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
.oplist { list-style: none; margin: 0; padding: 0; }
.oplist li { padding: 3px 0; border-bottom: 1px dotted #e1e4ea; }
.opname { font-weight: 600; }
.pointer { color: var(--muted); font-size: 11.5px; margin-right: 6px; }
.kind { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; margin: 10px 0 4px; }
button.value { font: inherit; font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size: 12.5px;
  border: 1px solid var(--line); background: #eef2fb; color: var(--accent); border-radius: 4px; padding: 0 5px; cursor: pointer; }
button.value:hover { background: #dfe7fa; }
button.value.active { background: var(--accent); color: #fff; border-color: var(--accent); }
.sharding { color: #6b3fa0; margin-left: 4px; word-break: break-all; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 10px; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; word-break: break-all; }
table.grid { border-collapse: collapse; margin: 4px 0; }
table.grid th { font-weight: normal; color: var(--muted); font-size: 11.5px; padding: 2px 6px; font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
table.grid td.cell { border: 1px solid #7d8699; padding: 8px 10px; min-width: 58px; text-align: center;
  font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12.5px; font-weight: 600; }
table.grid td.cell.uneven { border-style: dashed; }
table.grid td.cell.missing { background: #fff; color: var(--muted); }
.slices { display: flex; flex-wrap: wrap; gap: 14px; align-items: flex-start; }
.slice-title { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; color: var(--muted); }
.scene { padding: 0 60px 60px 30px; display: inline-block; }
.scene .stack { margin-top: 60px; }
.stack { position: relative; transform-style: preserve-3d; transform: rotateX(50deg) rotateZ(-32deg); display: inline-block; }
.stack td.cell { padding: 12px 14px; font-size: 14px; }
.stack .layer { background: rgba(255,255,255,.85); border: 1px solid #99a; box-shadow: 0 0 0 1px #fff; }
.stack .layer + .layer { position: absolute; top: 0; left: 0; }
.stack .layer .slice-title { padding: 0 4px; }
.notes { margin: 6px 0; padding-left: 18px; color: #5a4100; }
pre.explain { background: var(--panel); border: 1px solid var(--line); border-radius: 4px; padding: 8px; white-space: pre-wrap; word-break: break-word; }
table.manifest { border-collapse: collapse; }
table.manifest th, table.manifest td { border: 1px solid var(--line); padding: 3px 8px; text-align: right; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
table.manifest th { background: var(--panel); }
table.manifest td.text { text-align: left; }
table.manifest tr.total td { background: var(--panel); font-weight: 600; }
</style>
</head>
<body>
<header><h1 id="title">shardgen show</h1><p class="sub" id="subtitle"></p></header>
<noscript><p>This page draws itself with JavaScript; please enable it.</p></noscript>
<main>
<section id="graph-panel"><h2>Graph</h2><div id="graph"></div></section>
<section id="tensor-panel"><h2>Tensor</h2><div id="tensor"></div></section>
</main>
<section id="mesh-panel"><h2>Mesh</h2><div id="mesh"></div></section>
<section id="manifest-panel"><h2>Communication manifest</h2><div id="manifest"></div></section>
<script type="application/json" id="shardgen-data">)page";

const char *const kPageTail = R"page(</script>
<script>
(function () {
  'use strict';
  // Everything from the graph is set with textContent: names are text, never markup.
  var data = JSON.parse(document.getElementById('shardgen-data').textContent);
  var MAX_DEVICE_COLUMNS = 16;
  var MAX_MESH_CELLS = 32, MAX_MESH_SLICES = 64;

  // Bidi controls in graph text are shown as escapes, as in shardgen's
  // messages: they would reorder what the page shows.
  var BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
  function visible(text) {
    return String(text).replace(BIDI, function (c) { return '\\u' + c.charCodeAt(0).toString(16); });
  }
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = visible(text);
    return node;
  }
  function add(parent, child) { parent.appendChild(child); return child; }
  // A device's id: through the mesh's device_ids, else its position.
  function deviceId(position) { return data.mesh.ids.length ? data.mesh.ids[position] : position; }
  // A block's devices: its ranges of ids (ascending, the first few), then
  // how many there are when the ranges do not cover them all.
  function deviceList(block) {
    var parts = [], listed = 0;
    block.devices.forEach(function (range) {
      var first = range[0], last = range[1];
      listed += last - first + 1;
      if (first === last) parts.push(String(first));
      else if (last === first + 1) parts.push(first + ',' + last);
      else parts.push(first + '-' + last);
    });
    var text = 'd' + parts.join(',');
    return listed < block.deviceCount ? text + ',\u2026 (' + block.deviceCount + ' devices)' : text;
  }
  // Every id of a small block (data-devices), else its device list.
  function deviceIds(block) {
    if (block.deviceCount > 64) return deviceList(block);
    var ids = [];
    block.devices.forEach(function (range) { for (var id = range[0]; id <= range[1]; id++) ids.push(id); });
    return ids.join(',');
  }
  function interval(cut) { return cut[0] + ':' + (cut[0] + cut[1]); }
  function colour(block) { return 'hsl(' + Math.round((block * 137.508) % 360) + ', 70%, 82%)'; }
  function product(list) { return list.reduce(function (a, b) { return a * b; }, 1); }

  var buttons = [];
  function valueButton(index) {
    var t = data.tensors[index];
    var button = el('button', 'value', t.name);
    button.type = 'button';
    button.title = visible(t.type + ' ' + t.sharding);
    button.dataset.tensor = String(index);
    button.addEventListener('click', function () { select(index, true); });
    buttons.push(button);
    return button;
  }

  // ---- the graph: inputs, ops (bodies indented), outputs ----
  function drawGraph() {
    var root = document.getElementById('graph');
    function valueRow(list, index) {
      var li = add(list, el('li'));
      add(li, valueButton(index));
      add(li, el('span', 'sharding', data.tensors[index].sharding));
    }
    add(root, el('div', 'kind', 'inputs'));
    var inputs = add(root, el('ul', 'oplist'));
    data.inputs.forEach(function (i) { valueRow(inputs, i); });
    add(root, el('div', 'kind', 'ops'));
    var ops = add(root, el('ul', 'oplist'));
    data.ops.forEach(function (op) {
      var li = add(ops, el('li', 'op'));
      li.style.paddingLeft = (op.depth * 18) + 'px';
      add(li, el('span', 'pointer', op.pointer));
      add(li, el('span', 'opname', op.op + ' '));
      op.operands.forEach(function (i) { add(li, valueButton(i)); li.appendChild(document.createTextNode(' ')); });
      if (op.results.length) li.appendChild(document.createTextNode('\u2192 '));
      op.results.forEach(function (i) {
        add(li, valueButton(i));
        add(li, el('span', 'sharding', data.tensors[i].sharding));
        li.appendChild(document.createTextNode(' '));
      });
      if (op.bodyArgs.length) {
        var args = add(li, el('div', 'pointer', 'body arguments: '));
        args.style.marginLeft = '18px';
        op.bodyArgs.forEach(function (i) { add(args, valueButton(i)); args.appendChild(document.createTextNode(' ')); });
      }
    });
    add(root, el('div', 'kind', 'outputs'));
    var outputs = add(root, el('ul', 'oplist'));
    data.outputs.forEach(function (i) { valueRow(outputs, i); });
  }

  // ---- one tensor's blocks ----
  function cellIndex(t, index) {
    var cell = 0;
    for (var d = 0; d < t.cuts.length; d++) cell = cell * t.cuts[d].length + index[d];
    return cell;
  }
  function blockCell(t, tr, index) {
    var td = add(tr, el('td', 'cell'));
    var b = t.cells.length ? t.cells[cellIndex(t, index)] : -1;
    if (b === undefined || b < 0) { td.className += ' missing'; td.textContent = '?'; return; }
    var block = t.blocks[b];
    td.textContent = deviceList(block) + (block.uneven ? '*' : '');
    td.style.background = colour(b);
    td.dataset.devices = deviceIds(block);
    td.dataset.box = block.box.map(interval).join(',');
    if (block.uneven) td.className += ' uneven';
    td.title = 'block [' + block.box.map(interval).join(', ') + '] held by ' + deviceList(block) +
      (block.uneven ? ' (uneven: shorter than the chunk)' : '');
  }
  // A 2D table of the last two dims (one row for rank 1, one cell for rank 0)
  // at the given indices of the leading dims.
  function table2d(t, leading, inStack) {
    var rank = t.cuts.length;
    var table = el('table', 'grid');
    var rowDim = rank >= 2 ? rank - 2 : -1, colDim = rank >= 1 ? rank - 1 : -1;
    var cols = colDim >= 0 ? t.cuts[colDim] : [null];
    var rows = rowDim >= 0 ? t.cuts[rowDim] : [null];
    var head = add(table, el('tr'));
    add(head, el('th', '', inStack ? '' : rowDim >= 0 ? 'dim ' + rowDim + ' \u2193 / dim ' + colDim + ' \u2192' : (colDim >= 0 ? 'dim 0 \u2192' : '')));
    cols.forEach(function (cut) { add(head, el('th', '', cut ? interval(cut) : 'scalar')); });
    rows.forEach(function (rowCut, r) {
      var tr = add(table, el('tr'));
      add(tr, el('th', '', rowCut ? interval(rowCut) : ''));
      cols.forEach(function (colCut, c) {
        var index = leading.slice();
        if (rowDim >= 0) index.push(r);
        if (colDim >= 0) index.push(c);
        blockCell(t, tr, index);
      });
    });
    return table;
  }
  function sliceTitle(t, leading, free) {
    var parts = leading.map(function (i, d) { return interval(t.cuts[d][i]); });
    for (var k = 0; k < free; k++) parts.push(':');
    return '[' + parts.join(', ') + ']';
  }
  // Every combination of indices over the first `count` dims, row-major.
  function combinations(t, count) {
    var all = [[]];
    for (var d = 0; d < count; d++) {
      var next = [];
      all.forEach(function (prefix) {
        for (var i = 0; i < t.cuts[d].length; i++) next.push(prefix.concat([i]));
      });
      all = next;
    }
    return all;
  }
  // Rank 3: the dim-0 slices stacked in 3D (isometric), then flat.
  function stack3d(t, leading) {
    var depthDim = leading.length;
    var scene = el('div', 'scene');
    add(scene, el('div', 'slice-title', 'slices of dim ' + depthDim + ' stacked (top: first); rows dim ' +
      (depthDim + 1) + ', columns dim ' + (depthDim + 2)));
    var stack = add(scene, el('div', 'stack'));
    var n = t.cuts[depthDim].length;
    for (var k = 0; k < n; k++) {
      var layer = add(stack, el('div', 'layer'));
      layer.style.transform = 'translateZ(' + ((n - 1 - k) * 46) + 'px)';
      add(layer, el('div', 'slice-title', 'dim ' + depthDim + ' ' + interval(t.cuts[depthDim][k])));
      add(layer, table2d(t, leading.concat([k]), true));
    }
    return scene;
  }
  function drawBlocks(t, root) {
    var rank = t.cuts.length;
    if (rank <= 2) { add(root, table2d(t, [])); return; }
    var wrap = add(root, el('div', 'slices'));
    combinations(t, rank - 3).forEach(function (leading) {
      var box = add(wrap, el('div', 'stack-box'));
      if (rank > 3) add(box, el('div', 'slice-title', sliceTitle(t, leading, 3)));
      add(box, stack3d(t, leading));
    });
    add(root, el('div', 'kind', rank === 3 ? '2D slices over dim 0' : '2D slices over dims 0..' + (rank - 3)));
    var flat = add(root, el('div', 'slices'));
    combinations(t, rank - 2).forEach(function (leading) {
      var box = add(flat, el('div'));
      add(box, el('div', 'slice-title', sliceTitle(t, leading, 2)));
      add(box, table2d(t, leading));
    });
  }
  function summary(t) {
    if (!t.mapped) return 'not mapped (see the note)';
    var count = t.blockCount;
    if (!count) return 'none: the tensor has no elements';
    var least = t.holders[0], most = t.holders[1];
    var devices = data.mesh.size;
    var text = count + (count === 1 ? ' block' : ' blocks') + ' on ' + devices + (devices === 1 ? ' device' : ' devices');
    if (count === 1 && most === devices && devices > 1)
      return text + (t.bodyLocal ? ': the whole body-local tensor on every device' : ': replicated on every device');
    if (most === 1) return text + ', one device each';
    if (least === most) return text + ', each held by ' + most + ' devices (replicas)';
    return text + ', each held by ' + least + ' to ' + most + ' devices';
  }
  function drawTensor(index) {
    var t = data.tensors[index];
    var root = document.getElementById('tensor');
    root.textContent = '';
    root.dataset.tensor = String(index);
    add(root, el('h3', 'tensor-name', t.role + ' \u201c' + t.name + '\u201d'));
    var facts = add(root, el('dl', 'facts'));
    [['type', t.type], ['sharding', t.sharding], ['origin', t.origin], ['defined at', t.pointer], ['blocks', summary(t)]]
      .forEach(function (fact) { add(facts, el('dt', '', fact[0])); add(facts, el('dd', 'mono', fact[1])); });
    if (t.mapped) drawBlocks(t, add(root, el('div', 'blocks')));
    var notes = add(root, el('ul', 'notes'));
    if (!t.mapped)
      add(notes, el('li', '', 'blocks not mapped: the page maps at most ' + data.maxMappedTensorDevices +
        ' tensor-devices (tensors times the mesh\u2019s devices); name the values to draw: shardgen show GRAPH VALUE... --html FILE'));
    if (t.blocks.some(function (b) { return b.uneven; }))
      add(notes, el('li', '', '* dashed: an uneven block, shorter than the chunk along a dim (the last shards of an uneven dim)'));
    t.blocks.forEach(function (b) { if (b.empty) add(notes, el('li', 'empty', 'empty: ' + deviceList(b) + ' hold no elements of it')); });
    if (t.partial) add(notes, el('li', '', 'partial: the devices of a block hold partial values, still to be reduced over ' + t.partial));
    if (t.bodyLocal) add(notes, el('li', '', 'body-local: blocks of the manual computation body\u2019s local tensor (each manual coordinate holds its own)'));
    t.cutsTotal.forEach(function (n, d) {
      if (n > t.cuts[d].length) add(notes, el('li', '', 'dim ' + d + ': only the first ' + t.cuts[d].length + ' of ' + n + ' blocks are drawn'));
    });
    if (!notes.childNodes.length) root.removeChild(notes);
    add(root, el('h3', '', 'Origin chain'));
    add(root, el('pre', 'explain', t.explain));
  }
  function select(index, updateHash) {
    drawTensor(index);
    buttons.forEach(function (b) { b.classList.toggle('active', b.dataset.tensor === String(index)); });
    if (updateHash) history.replaceState(null, '', '#i=' + index);
  }

  // ---- the mesh: device ids by coordinates ----
  function drawMesh() {
    var mesh = data.mesh, root = document.getElementById('mesh');
    var axes = mesh.axes;
    add(root, el('p', 'mono', (mesh.name ? '@' + mesh.name + ': ' : '') +
      (axes.length ? axes.map(function (a) { return a.name + '=' + a.size; }).join(' \u00d7 ') : 'no axes') +
      ' (' + mesh.size + (mesh.size === 1 ? ' device)' : ' devices)')));
    var sizes = axes.map(function (a) { return a.size; });
    function meshTable(leading) {
      var table = el('table', 'grid mesh');
      var rowAxis = axes.length >= 2 ? axes.length - 2 : -1, colAxis = axes.length - 1;
      var rows = Math.min(rowAxis >= 0 ? sizes[rowAxis] : 1, MAX_MESH_CELLS);
      var cols = Math.min(colAxis >= 0 ? sizes[colAxis] : 1, MAX_MESH_CELLS);
      var head = add(table, el('tr'));
      add(head, el('th'));
      for (var c = 0; c < cols; c++) add(head, el('th', '', colAxis >= 0 ? axes[colAxis].name + '=' + c : ''));
      for (var r = 0; r < rows; r++) {
        var tr = add(table, el('tr'));
        add(tr, el('th', '', rowAxis >= 0 ? axes[rowAxis].name + '=' + r : ''));
        for (c = 0; c < cols; c++) {
          var coords = leading.slice();
          if (rowAxis >= 0) coords.push(r);
          if (colAxis >= 0) coords.push(c);
          var position = 0;
          coords.forEach(function (x, a) { position = position * sizes[a] + x; });
          var td = add(tr, el('td', 'cell device', String(deviceId(position))));
          td.dataset.position = String(position);
          td.title = 'position ' + position;
        }
      }
      return table;
    }
    var leadingCount = Math.max(0, axes.length - 2);
    var all = [[]];
    for (var a = 0; a < leadingCount; a++) {
      var next = [];
      all.forEach(function (prefix) { for (var i = 0; i < sizes[a]; i++) next.push(prefix.concat([i])); });
      all = next.slice(0, MAX_MESH_SLICES);
    }
    var wrap = add(root, el('div', 'slices'));
    all.forEach(function (leading) {
      var box = add(wrap, el('div'));
      if (leadingCount) add(box, el('div', 'slice-title', leading.map(function (x, i) { return axes[i].name + '=' + x; }).join(', ')));
      add(box, meshTable(leading));
    });
    if (leadingCount && product(sizes.slice(0, leadingCount)) > all.length)
      add(root, el('p', 'notes', 'only the first ' + all.length + ' slices are drawn'));
    var lastTwo = sizes.slice(-2);
    if (lastTwo.some(function (size) { return size > MAX_MESH_CELLS; }))
      add(root, el('p', 'notes', 'only the first ' + MAX_MESH_CELLS + ' coordinates of an axis are drawn'));
  }

  // ---- the communication manifest ----
  function drawManifest() {
    var root = document.getElementById('manifest'), m = data.manifest, devices = data.mesh.size;
    var shown = Math.min(devices, MAX_DEVICE_COLUMNS);
    if (!m.collectives.length) {
      add(root, el('p', 'no-communication', 'no communication: every device computes on the blocks it holds'));
    } else {
      var table = add(root, el('table', 'manifest'));
      var head = add(table, el('tr'));
      ['#', 'collective', 'axes', 'op', 'bytes sent (all devices)'].forEach(function (h) { add(head, el('th', '', h)); });
      for (var d = 0; d < shown; d++) add(head, el('th', '', 'd' + deviceId(d) + ' sent / received'));
      var totals = [], sentTotal = 0;
      for (d = 0; d < shown; d++) totals.push([0, 0]);
      m.collectives.forEach(function (c, i) {
        var tr = add(table, el('tr', 'collective'));
        add(tr, el('td', '', i + 1));
        add(tr, el('td', 'text', c.kind));
        add(tr, el('td', 'text', c.axes));
        add(tr, el('td', 'text', c.pointer || '-'));
        add(tr, el('td', 'bytes', c.sentTotal));
        sentTotal += c.sentTotal;
        for (var p = 0; p < shown; p++) { totals[p][0] += c.sent[p]; totals[p][1] += c.received[p]; }
        for (var d = 0; d < shown; d++) add(tr, el('td', '', c.sent[d] + ' / ' + c.received[d]));
      });
      var total = add(table, el('tr', 'total'));
      add(total, el('td', 'text', ''));
      add(total, el('td', 'text', 'total'));
      add(total, el('td')); add(total, el('td'));
      add(total, el('td', '', sentTotal));
      for (d = 0; d < shown; d++) add(total, el('td', '', totals[d][0] + ' / ' + totals[d][1]));
    }
    var peak = add(root, el('table', 'manifest peak'));
    var row = add(peak, el('tr'));
    add(row, el('th', '', 'peak buffer memory (bytes)'));
    for (var p = 0; p < shown; p++) add(row, el('td', '', 'd' + deviceId(p) + ': ' + m.peak[p]));
    if (devices > shown)
      add(root, el('p', 'notes', 'only the first ' + shown + ' of ' + devices + ' devices have columns'));
  }

  function initialTensor() {
    var hash = decodeURIComponent(location.hash.slice(1));
    if (/^i=\d+$/.test(hash) && +hash.slice(2) < data.tensors.length) return +hash.slice(2);
    if (hash.indexOf('name=') === 0)
      for (var i = 0; i < data.tensors.length; i++) if (data.tensors[i].name === hash.slice(5)) return i;
    if (data.selected.length) return data.selected[0];
    return data.tensors.length ? 0 : -1;
  }

  document.title = 'shardgen show: ' + (data.graph || data.file);
  document.getElementById('title').textContent = 'shardgen show: ' + (data.graph || '(unnamed graph)');
  document.getElementById('subtitle').textContent = data.file + ' \u2014 strategy ' + data.strategy +
    ' \u2014 click a value to see which device holds which block';
  drawGraph();
  drawMesh();
  drawManifest();
  var first = initialTensor();
  if (first >= 0) select(first, false);
})();
</script>
</body>
</html>
)page";

} // namespace shardgen::show
