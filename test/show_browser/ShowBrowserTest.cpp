// The pages of `shardgen show --html` in a real browser: headless Chromium
// runs their scripts, and the DOM afterwards must hold the expected tensors,
// device ids and manifest rows (checked against `compile --report`); a
// screenshot of each is kept in show_browser/ under the working folder for a
// person to look at. Without Chromium every case exits 77, which ctest
// reports as skipped (scripts/test.sh installs the `chromium` package).

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <regex>

#include "test/cli/ToolRunner.h"

using namespace shardgen::test;

namespace {

size_t count(const std::string &text, const std::string &part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++n;
  return n;
}

/// The browser binary, or exit 77 (skipped) when there is none.
const std::string &chromium() {
  static const std::string binary = [] {
    for (const char *name : {"chromium", "chromium-browser"})
      if (std::system(("command -v " + std::string(name) + " >/dev/null 2>&1").c_str()) == 0)
        return std::string(name);
    std::cerr << "SKIPPED: chromium is not installed (scripts/test.sh installs the Debian package "
                 "'chromium'); the show --html pages were not opened in a browser\n";
    std::exit(77);
  }();
  return binary;
}

/// Writes GRAPH's page into a temp folder; returns its path.
std::string writePage(const std::string &graph, const std::string &name) {
  std::string page = makeTempDir() + "/" + name + ".html";
  ToolResult result = runShardgen("show '" + graph + "' --html '" + page + "'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  return page;
}

/// Opens the page in headless Chromium and returns the DOM after its scripts
/// ran. With a `screenshot` name, the same run also saves
/// show_browser/NAME.png (checked to be a drawn PNG).
std::string domAfterScripts(const std::string &page, const std::string &fragment,
                            const std::string &screenshot = "") {
  std::string dir = makeTempDir(), png;
  std::string flags = "--dump-dom";
  if (!screenshot.empty()) {
    std::filesystem::create_directories("show_browser");
    png = std::filesystem::absolute("show_browser/" + screenshot + ".png").string();
    std::filesystem::remove(png);
    flags += " --screenshot='" + png + "' --window-size=1400,1000 --hide-scrollbars";
  }
  std::string command = "timeout 60 " + chromium() +
                        " --headless --no-sandbox --disable-gpu --no-first-run"
                        " --user-data-dir='" +
                        dir + "/profile' " + flags + " 'file://" + page + fragment + "' >'" + dir +
                        "/out' 2>'" + dir + "/err'";
  int status = std::system(command.c_str());
  INFO(readFile(dir + "/err"));
  CHECK(status == 0);
  std::string dom = readFile(dir + "/out");
  REQUIRE(contains(dom, "<div id=\"tensor\" data-tensor="));
  if (!png.empty()) {
    std::string bytes = readFile(png);
    CHECK(bytes.size() > 20000); // a drawn page, not a blank one
    CHECK(bytes.rfind("\x89PNG", 0) == 0);
    std::cout << "screenshot: " << png << "\n";
  }
  return dom;
}

/// The rows `compile --report` prints, as the page's manifest table draws
/// them: kind, axes, op, bytes sent by all devices, then "sent / received"
/// per device.
std::vector<std::string> manifestRows(const std::string &graph) {
  std::string dir = makeTempDir();
  ToolResult report = runShardgen("compile '" + graph + "' -o '" + dir + "/gen' --report");
  REQUIRE(report.exitCode == 0);
  std::vector<std::string> rows;
  std::regex line(R"( +\d+  (\S+) +(\{.*?\}) +(\S+) +((?:  d\d+: \d+/\d+)+))");
  std::regex device(R"(d\d+: (\d+)/(\d+))");
  for (auto it = std::sregex_iterator(report.out.begin(), report.out.end(), line);
       it != std::sregex_iterator(); ++it) {
    std::string traffic = (*it)[4], cells;
    long long total = 0;
    for (auto d = std::sregex_iterator(traffic.begin(), traffic.end(), device);
         d != std::sregex_iterator(); ++d) {
      total += std::stoll((*d)[1]);
      cells += "<td>" + (*d)[1].str() + " / " + (*d)[2].str() + "</td>";
    }
    rows.push_back("<td class=\"text\">" + (*it)[1].str() + "</td><td class=\"text\">" +
                   (*it)[2].str() + "</td><td class=\"text\">" + (*it)[3].str() +
                   "</td><td class=\"bytes\">" + std::to_string(total) + "</td>" + cells);
  }
  return rows;
}

} // namespace

TEST_CASE(
    "chromium: the mlp page shows each value's blocks on a click, the mesh and the manifest") {
  chromium();
  std::string page = writePage(kSamples + "mlp.json", "mlp");
  // Opened on x, then a click on h's button (tensor 9, the value h) as a user would.
  std::string text = readFile(page);
  std::string clicked = page + ".click.html";
  size_t end = text.rfind("</body>");
  REQUIRE(end != std::string::npos);
  writeFile(clicked, text.substr(0, end) +
                         "<script>document.querySelector('button[data-tensor=\"9\"]').click();"
                         "</script>" +
                         text.substr(end));
  std::string dom = domAfterScripts(clicked, "#name=x", "mlp");
  INFO(dom);
  CHECK(contains(
      dom,
      "<button class=\"value active\" type=\"button\" title=\"tensor&lt;8x32xf32&gt; "
      "&lt;@mesh, [{&quot;data&quot;}, {&quot;model&quot;}]&gt;\" data-tensor=\"9\">h</button>"));
  CHECK_FALSE(
      contains(dom, "<button class=\"value active\" type=\"button\" title=\"tensor&lt;8x16xf32&gt; "
                    "&lt;@mesh, [{&quot;data&quot;}, {}]&gt;\" data-tensor=\"0\">x</button>"));
  CHECK(contains(dom, "<title>shardgen show: mlp</title>"));
  // Every value of the graph is a button in the op list.
  for (const char *name :
       {"x", "w1", "b1", "w2", "b2", "h0", "b1_full", "h1", "h", "y0", "b2_full", "y"})
    CHECK(contains(dom, "\">" + std::string(name) + "</button>"));
  // h = tanh(...) on [{data}, {model}]: one device per block.
  CHECK(contains(dom, "<h3 class=\"tensor-name\">value \xe2\x80\x9ch\xe2\x80\x9d</h3>"));
  CHECK(contains(dom, "data-devices=\"0\" data-box=\"0:4,0:16\""));
  CHECK(contains(dom, "data-devices=\"1\" data-box=\"0:4,16:32\""));
  CHECK(contains(dom, "data-devices=\"2\" data-box=\"4:8,0:16\""));
  CHECK(contains(dom, "data-devices=\"3\" data-box=\"4:8,16:32\""));
  CHECK(contains(dom, "propagated through tanh /ops/3 from"));
  // The mesh's four devices by coordinates.
  for (int p = 0; p < 4; ++p)
    CHECK(contains(dom, "data-position=\"" + std::to_string(p) + "\" title=\"position " +
                            std::to_string(p) + "\">" + std::to_string(p) + "</td>"));
  // The manifest, row for row as compile --report has it.
  std::vector<std::string> rows = manifestRows(kSamples + "mlp.json");
  REQUIRE(rows.size() == 1);
  CHECK(count(dom, "<tr class=\"collective\">") == 1);
  CHECK(contains(dom, rows[0]));
  CHECK(contains(rows[0], "all_reduce"));
}

TEST_CASE("chromium: rank 3 is a 3D stack of slices; the manual sample's manifest rows") {
  chromium();
  std::string page = writePage(kSamples + "attention.json", "attention");
  std::string dom = domAfterScripts(page, "#name=x", "attention");
  INFO(dom);
  CHECK(contains(dom, "<h3 class=\"tensor-name\">input 0 \xe2\x80\x9cx\xe2\x80\x9d</h3>"));
  CHECK(count(dom, "<div class=\"stack\">") == 1);
  CHECK(count(dom, "<div class=\"layer\"") == 2);
  CHECK(contains(dom, "data-devices=\"0,1\" data-box=\"0:1,0:8,0:16\""));
  CHECK(contains(dom, "data-devices=\"2,3\" data-box=\"1:2,0:8,0:16\""));
  CHECK(contains(dom, "2D slices over dim 0"));
  std::vector<std::string> rows = manifestRows(kSamples + "attention.json");
  REQUIRE(rows.size() == 1);
  CHECK(contains(dom, rows[0]));

  std::string manual = domAfterScripts(writePage(kSamples + "dp_grad_step.json", "dp"), "");
  INFO(manual);
  std::vector<std::string> manualRows = manifestRows(kSamples + "dp_grad_step.json");
  REQUIRE(manualRows.size() == 2);
  CHECK(count(manual, "<tr class=\"collective\">") == 2);
  // The manual computation's body follows it, indented, its values clickable.
  CHECK(contains(manual, "<div class=\"pointer\" style=\"margin-left: 18px;\">body arguments: "));
  CHECK(contains(manual, "<li class=\"op\" style=\"padding-left: 18px;\"><span "
                         "class=\"pointer\">/ops/0/body/ops/0</span>"));
  for (const auto &row : manualRows)
    CHECK(contains(manual, row));
}

TEST_CASE("chromium: names from the graph are text, never markup or script; rank 4") {
  chromium();
  std::string dir = makeTempDir();
  std::string evil =
      R"(</script><script>document.title='pwned'</script><img src=x onerror=\"document.title='pwned2'\">)";
  writeFile(dir + "/evil.json", R"({"format": "shardgen-graph", "version": 1,
    "name": "<b>bold</b>",
    "meshes": [{"name": "mesh", "axes": [{"name": "<i>x</i>", "size": 2}]}],
    "inputs": [{"name": ")" + evil + R"(", "type": "tensor<4x2x3x5xf32>",
                "sharding": "<@mesh, [{\"<i>x</i>\"}, {}, {}, {}]>"}],
    "ops": [{"op": "negate", "operands": [")" +
                                    evil + R"("], "result": "y"}],
    "outputs": [{"value": "y"}]})");
  ToolResult check = runShardgen("check '" + dir + "/evil.json'");
  INFO(check.err);
  REQUIRE(check.exitCode == 0);
  std::string page = writePage(dir + "/evil.json", "evil");
  CHECK_FALSE(contains(readFile(page), "</script><script>document"));
  std::string dom = domAfterScripts(page, "#i=0");
  INFO(dom);
  CHECK(contains(dom, "<title>shardgen show: &lt;b&gt;bold&lt;/b&gt;</title>"));
  CHECK_FALSE(contains(dom, "pwned"
                            "</title>"));
  CHECK(count(dom, "<script") == 2);
  CHECK_FALSE(contains(dom, "<img"));
  CHECK_FALSE(contains(dom, "<b>"));
  CHECK_FALSE(contains(dom, "<i>"));
  CHECK(contains(dom, "&lt;/script&gt;&lt;script&gt;document.title='pwned'&lt;/script&gt;&lt;img "
                      "src=x onerror=\"document.title='pwned2'\"&gt;</button>"));
  CHECK(contains(dom, "&lt;i&gt;x&lt;/i&gt;=0"));
  // Rank 4: a row of 3D stacks over dim 0, one per device here.
  CHECK(count(dom, "<div class=\"stack\">") == 2);
  CHECK(contains(dom, "data-devices=\"0\" data-box=\"0:2,0:2,0:3,0:5\""));
  CHECK(contains(dom, "data-devices=\"1\" data-box=\"2:4,0:2,0:3,0:5\""));
}
