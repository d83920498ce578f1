#include "compiler/cli/RunTimings.h"

#include <algorithm>
#include <cstdio>

namespace shardgen::cli {

const OptionSpec kRepeatOption{
    "--repeat", OptionSpec::Value, "N",
    "run N times; report stage times and the time per call (min, median) on stderr"};

int64_t repeatOption(const ParsedArgs &args) {
  std::optional<std::string> text = args.value("--repeat");
  if (!text)
    return 1;
  if (text->empty() || text->size() > 7 ||
      text->find_first_not_of("0123456789") != std::string::npos || std::stoll(*text) < 1 ||
      std::stoll(*text) > 1000000)
    throw UsageError("--repeat takes a number of runs from 1 to 1000000, not '" + *text + "'");
  return std::stoll(*text);
}

static std::string line(const std::string &name, const std::string &value) {
  char text[128];
  std::snprintf(text, sizeof text, "  %-10s %s\n", name.c_str(), value.c_str());
  return text;
}

static std::string milliseconds(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f ms", ms);
  return text;
}

std::string formatRunTimings(const std::string &graphName,
                             const std::vector<std::pair<std::string, double>> &stageMs,
                             std::vector<double> callMs) {
  std::string out = graphName + ": timings\n";
  for (const auto &[stage, ms] : stageMs)
    out += line(stage, milliseconds(ms));
  if (callMs.empty())
    return out;
  std::sort(callMs.begin(), callMs.end());
  size_t n = callMs.size();
  double median = n % 2 ? callMs[n / 2] : (callMs[n / 2 - 1] + callMs[n / 2]) / 2;
  return out +
         line("run", "min " + milliseconds(callMs.front()) + ", median " + milliseconds(median) +
                         " per call (" + std::to_string(n) + (n == 1 ? " call)" : " calls)"));
}

} // namespace shardgen::cli
