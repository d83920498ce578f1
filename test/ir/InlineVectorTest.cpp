#include <doctest/doctest.h>

#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/ir/InlineVector.h"

using namespace shardgen;

namespace {

/// Counts the live instances, to check every constructed element is destroyed once.
struct Counted {
  static inline int live = 0;
  std::string text;
  Counted(std::string t = "") : text(std::move(t)) { ++live; } // NOLINT: test helper
  Counted(const Counted &other) : text(other.text) { ++live; }
  Counted(Counted &&other) noexcept : text(std::move(other.text)) { ++live; }
  Counted &operator=(const Counted &) = default;
  Counted &operator=(Counted &&) noexcept = default;
  ~Counted() { --live; }
  bool operator==(const Counted &other) const { return text == other.text; }
};

std::vector<std::string> textsOf(const InlineVector<Counted, 2> &v) {
  std::vector<std::string> texts;
  for (const Counted &c : v)
    texts.push_back(c.text);
  return texts;
}

} // namespace

TEST_CASE("the first N elements are inline, more move to the heap in order") {
  InlineVector<int64_t, 2> v;
  CHECK(v.empty());
  CHECK(v.capacity() == 2);
  v.push_back(1);
  v.push_back(2);
  const int64_t *inlineData = v.data();
  CHECK(static_cast<const void *>(inlineData) == static_cast<const void *>(&v));
  v.push_back(v[0]); // an element of itself while growing
  v.emplace_back(4);
  CHECK(v.capacity() >= 4);
  CHECK(v.data() != inlineData);
  CHECK(std::vector<int64_t>(v.begin(), v.end()) == std::vector<int64_t>{1, 2, 1, 4});
  CHECK(v.front() == 1);
  CHECK(v.back() == 4);
  CHECK(v.at(3) == 4);
  CHECK_THROWS_AS(v.at(4), std::out_of_range);
  std::span<const int64_t> span = v;
  CHECK(span.size() == 4);
  CHECK(span[1] == 2);
  v.pop_back();
  CHECK(v.size() == 3);
  v.resize(1);
  v.resize(2);
  CHECK(v[1] == 0); // value-initialised again, not the old element
  CHECK(sizeof(InlineVector<int64_t, 1>) == 16);
  CHECK(sizeof(InlineVector<int64_t, 2>) == 24);
}

TEST_CASE("copies, moves, resize and assign keep the elements and destroy each once") {
  Counted::live = 0;
  {
    InlineVector<Counted, 2> small{Counted("a")};
    InlineVector<Counted, 2> large{Counted("a"), Counted("b"), Counted("c")};
    CHECK(Counted::live == 4);

    InlineVector<Counted, 2> copy = large;
    CHECK(copy == large);
    copy = small;
    CHECK(textsOf(copy) == std::vector<std::string>{"a"});
    CHECK_FALSE(copy == large);

    InlineVector<Counted, 2> movedSmall = std::move(small);
    InlineVector<Counted, 2> movedLarge = std::move(large);
    CHECK(small.empty()); // NOLINT(bugprone-use-after-move): moved-from is empty
    CHECK(large.empty()); // NOLINT(bugprone-use-after-move)
    CHECK(textsOf(movedSmall) == std::vector<std::string>{"a"});
    CHECK(textsOf(movedLarge) == std::vector<std::string>{"a", "b", "c"});
    movedSmall = std::move(movedLarge);
    CHECK(textsOf(movedSmall) == std::vector<std::string>{"a", "b", "c"});

    movedSmall.resize(5, Counted("d"));
    CHECK(textsOf(movedSmall) == std::vector<std::string>{"a", "b", "c", "d", "d"});
    movedSmall.resize(1);
    CHECK(textsOf(movedSmall) == std::vector<std::string>{"a"});
    movedSmall.resize(2);
    CHECK(textsOf(movedSmall) == std::vector<std::string>{"a", ""});

    std::vector<Counted> source{Counted("x"), Counted("y"), Counted("z")};
    copy.assign(source.begin(), source.end());
    CHECK(textsOf(copy) == std::vector<std::string>{"x", "y", "z"});
    copy.assign(2, Counted("w"));
    CHECK(textsOf(copy) == std::vector<std::string>{"w", "w"});
    copy.clear();
    CHECK(copy.empty());
  }
  CHECK(Counted::live == 0);
}
