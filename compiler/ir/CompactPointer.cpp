#include "compiler/ir/CompactPointer.h"

#include <deque>
#include <map>
#include <mutex>
#include <utility>

namespace shardgen {
namespace {

using Pattern = std::pair<std::string, std::string>; // prefix, suffix

/// The process's prefix/suffix pairs, never freed (a handful per program).
struct Patterns {
  std::mutex mutex;
  std::deque<Pattern> byIndex; // elements never move
  std::map<Pattern, int32_t> index;
};

Patterns &patterns() {
  static auto *instance = new Patterns(); // never destroyed: static handles may outlive it
  return *instance;
}

int32_t intern(Pattern pattern) {
  Patterns &all = patterns();
  std::lock_guard<std::mutex> lock(all.mutex);
  auto [it, inserted] = all.index.emplace(std::move(pattern), 0);
  if (inserted) {
    it->second = static_cast<int32_t>(all.byIndex.size());
    all.byIndex.push_back(it->first);
  }
  return it->second;
}

const Pattern &patternAt(int32_t index) {
  Patterns &all = patterns();
  std::lock_guard<std::mutex> lock(all.mutex);
  return all.byIndex[static_cast<size_t>(index)];
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

} // namespace

CompactPointer::CompactPointer(std::string_view text) {
  if (text.empty())
    return;
  size_t end = text.size();
  while (end > 0 && !isDigit(text[end - 1]))
    --end;
  size_t begin = end;
  while (begin > 0 && isDigit(text[begin - 1]))
    --begin;
  std::string_view digits = text.substr(begin, end - begin);
  // Only a number that prints back as the same digits and fits: else the
  // whole text is the pattern.
  bool canonical = !digits.empty() && digits.size() <= 9 && (digits[0] != '0' || digits == "0");
  if (!canonical) {
    pattern_ = intern({std::string(text), std::string()});
    return;
  }
  number_ = 0;
  for (char c : digits)
    number_ = number_ * 10 + (c - '0');
  pattern_ = intern({std::string(text.substr(0, begin)), std::string(text.substr(end))});
}

std::string CompactPointer::str() const {
  if (pattern_ < 0)
    return {};
  const Pattern &pattern = patternAt(pattern_);
  if (number_ < 0)
    return pattern.first;
  return pattern.first + std::to_string(number_) + pattern.second;
}

} // namespace shardgen
