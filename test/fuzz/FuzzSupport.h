#pragma once
// What the fuzz targets share: bad input must end in the diagnostic a user
// sees (GraphError, NpyError: exit 1); anything else escaping a stage, or a
// GraphError that says "internal:", is a shardgen bug (exit 4), and the
// target aborts so libFuzzer keeps the input.

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>

#include "compiler/frontend/Npy.h"
#include "compiler/ir/Diagnostic.h"

namespace shardgen::fuzz {

[[noreturn]] inline void bug(const char *kind, const char *what) {
  std::fprintf(stderr, "shardgen bug (%s): %s\n", kind, what);
  std::abort();
}

/// Runs `body`; returns normally for the errors bad input may cause.
template <typename Body> void expectOnly(Body &&body) {
  try {
    body();
  } catch (const GraphError &error) {
    if (std::string_view(error.what()).starts_with("internal"))
      bug("internal GraphError", error.what());
  } catch (const NpyError &) {
  } catch (const std::exception &error) {
    bug("exception", error.what());
  }
}

} // namespace shardgen::fuzz
