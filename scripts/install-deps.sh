#!/usr/bin/env bash
# Installs the Debian 12 packages shardgen builds with (and ccache, which
# scripts/build.sh uses when it is there: a rebuild of the same sources,
# even in a fresh clone at the same path, takes seconds), if any is missing,
# and the extra packages named as arguments (scripts/test.sh's test-only
# ones). Safe to run again: it asks apt only when something is absent.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3 ccache
  llvm-19-dev libclang-19-dev libclang-cpp19-dev clang-19
  nlohmann-json3-dev doctest-dev
  libopenmpi-dev openmpi-bin
  "$@"
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  echo "shardgen: installing missing packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
