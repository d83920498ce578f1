// The runtime's arena pool (acquireArena/releaseArena): a block given back
// is handed out again, contents and all, for the same size, and never to
// two holders at once.

#include <doctest/doctest.h>

#include "shardgen/runtime.h"

namespace rt = shardgen::runtime;

TEST_CASE("an arena given back is reused for the same size, never shared") {
  constexpr int64_t bytes = 3 * 1024 * 1024 + 17; // a size no other test uses
  unsigned char *first = rt::acquireArena(bytes);
  unsigned char *second = rt::acquireArena(bytes);
  CHECK(first != second); // both held: two blocks
  first[0] = 1;
  first[bytes - 1] = 2;
  rt::releaseArena(first, bytes);
  CHECK(rt::acquireArena(bytes) == first); // the pooled block again
  unsigned char *other = rt::acquireArena(bytes + 64);
  CHECK(other != first); // another size: a new block
  rt::releaseArena(other, bytes + 64);
  rt::releaseArena(first, bytes);
  rt::releaseArena(second, bytes);
}
