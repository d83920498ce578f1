#!/usr/bin/env bash
# Fails (exit 1, the offending lines on stderr) when a tracked C++ file is
# not formatted as .clang-format says. Fix with: clang-format-19 -i FILE...
# Goldens of generated code (test/cli/golden) are exempt: they are output.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
patterns=('*.cpp' '*.h' '*.cc' '*.hpp')
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- "${patterns[@]}" ':!:test/cli/golden/**')
else # a source tarball: the same files by name
  mapfile -t files < <(find . -path ./test/cli/golden -prune -o -path './build*' -prune -o \
    \( -name '*.cpp' -o -name '*.h' -o -name '*.cc' -o -name '*.hpp' \) -type f -print | sort)
fi
clang-format-19 --dry-run -Werror "${files[@]}"
echo "check-format: ${#files[@]} files formatted as .clang-format says"
