#!/usr/bin/env bash
# cache_swap.sh SHARDGEN SAMPLES: the compile cache as a security boundary
# (issue 27, docs/compile-cache.md). Another user owns the folder above root's
# cache ($XDG_CACHE_HOME) and, in a loop, swaps root's cache folder with one
# of their own holding a planted entry (root's key, another program's
# object). Root's runs meanwhile must use their own entries or none: every
# run gives the clean run's outputs, never the planted program's.
# Needs root and the unprivileged user nobody (setpriv); exit 77 (skipped)
# otherwise. ctest's TIMEOUT bounds it.
set -euo pipefail
shardgen=$1 samples=$2
if [[ $(id -u) != 0 ]] || ! command -v setpriv >/dev/null || ! id nobody >/dev/null 2>&1; then
  echo "skipped: needs root, setpriv and the user nobody"
  exit 77
fi
work=$(mktemp -d)
helper=
stop_helper() { # the loop and any mv it has under way (its own session)
  kill -- "-$helper" 2>/dev/null || true
  wait "$helper" 2>/dev/null || true
  helper=
}
cleanup() {
  if [[ -n $helper ]]; then stop_helper; fi
  rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"
nobody=$(id -u nobody)

# Two programs with the same shape and names (so the same symbols): one
# negates, the other takes the absolute value.
sed 's/"tanh"/"negate"/' "$samples/mlp.json" >"$work/good.json"
sed 's/"tanh"/"abs"/' "$samples/mlp.json" >"$work/evil.json"
cmp -s "$work/good.json" "$work/evil.json" && { echo "the sample has no tanh to swap"; exit 1; }

xdg=$work/xdg
mkdir "$xdg" && chown "$nobody" "$xdg" && chmod 755 "$xdg"
run() { # run GRAPH XDG OUT: the program's outputs
  XDG_CACHE_HOME=$2 "$shardgen" run "$1" -o "$3" 2>>"$work/stderr"
}
run "$work/good.json" "$xdg" "$work/clean"
# The program's entry: the largest (the other holds the runtime's linker
# names, without an object).
key=$(basename "$(ls -S "$xdg/shardgen"/*.obj | head -n 1)" .obj)
[[ $(stat -c %u "$xdg/shardgen") == 0 ]]

# The planted entry: the evil program's object under root's key (the
# checksum covers the object only, so the entry is valid).
run "$work/evil.json" "$work/evil-cache" "$work/evil-out"
cmp -s "$work/clean/out0.npy" "$work/evil-out/out0.npy" && { echo "the two programs agree"; exit 1; }
evil=$xdg/evil
mkdir "$evil"
built=$(ls -S "$work/evil-cache/shardgen"/*.obj | head -n 1)
{ head -n 1 "$built"; echo "$key"; tail -n +3 "$built"; } >"$evil/$key.obj"
chown -R "$nobody" "$evil" && chmod 700 "$evil" && chmod 600 "$evil/$key.obj"

# The other user swaps the folders as fast as they can.
setsid setpriv --reuid="$nobody" --regid="$(id -g nobody)" --clear-groups bash -c '
  cd "$1"
  while :; do
    mv -T shardgen real; mv -T evil shardgen; mv -T shardgen evil; mv -T real shardgen
    mv -T shardgen real; mv -T evil shardgen; sleep 0.001; mv -T shardgen evil; mv -T real shardgen
  done' swap "$xdg" 2>/dev/null &
helper=$!

runs=${SHARDGEN_SWAP_RUNS:-8}
for ((i = 0; i < runs; ++i)); do
  rm -rf "$work/out"
  if ! run "$work/good.json" "$xdg" "$work/out"; then
    echo "run $i failed:"; cat "$work/stderr"; exit 1
  fi
  if ! cmp -s "$work/clean/out0.npy" "$work/out/out0.npy"; then
    echo "run $i executed the planted object (its outputs are the other program's)"
    exit 1
  fi
done
stop_helper
# Nothing of root's went into the other user's folder.
for folder in "$xdg"/*; do
  if [[ $(stat -c %u "$folder") == "$nobody" ]]; then
    [[ $(ls "$folder") == "$key.obj" ]] || { echo "root wrote into $folder"; ls -la "$folder"; exit 1; }
  fi
done
echo "$runs runs under the swap loop: each used root's own entries or none"
grep -c "belongs to another user" "$work/stderr" | sed 's/^/runs that found the swapped-in folder and did not use it: /' || true
