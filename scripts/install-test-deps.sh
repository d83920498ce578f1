#!/usr/bin/env bash
# Installs the Debian 12 packages only the test suite needs, if missing:
# chromium, in which test_show opens the pages `shardgen show --html` writes.
# A failure here is not fatal: those tests then skip with a message.
set -uo pipefail

packages=(chromium)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  echo "shardgen: installing missing test packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  { $sudo apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; } ||
    echo "shardgen: could not install ${missing[*]}: the browser tests will skip"
fi
exit 0
