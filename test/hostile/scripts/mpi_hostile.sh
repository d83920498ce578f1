#!/usr/bin/env bash
# mpi_hostile.sh SHARDGEN SAMPLES: `run --backend mpi` against what breaks
# it (issue 27). Each case: the setup, the command, the exit code and
# message expected; every command runs under timeout(1) (a hang fails), and
# ctest's TIMEOUT bounds the whole.
#  - mpirun started with another number of ranks than planned, or a plan
#    the mesh cannot take: every rank checks before touching a piece (was
#    SIGFPE/SIGSEGV in piecesByRank);
#  - --mpirun-args setting the rank count, a second program or an
#    application file: refused;
#  - mpirun failing on its own (no hostfile, a program it cannot start):
#    its message and exit 1 (was exit 1/132 and nothing with --quiet);
#  - a graph and an output folder named ':' (mpirun's program separator);
#  - a peer rank stopped (SIGSTOP) at the start and in the middle of the
#    run: --timeout ends the job, naming the rank and where it waits;
#  - a peer rank killed: the job ends, saying which rank died.
set -uo pipefail
shardgen=$1 samples=$2
graph=$samples/mlp.json
work=$(mktemp -d)
started=()
cleanup() {
  for pid in "${started[@]}"; do kill -KILL "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
mpi=(--backend mpi --mpirun-args "--mca btl self,vader --mca oob_tcp_if_include lo")
root=()
[[ $(id -u) == 0 ]] && root=(--allow-run-as-root)
failures=0

# expect CODE TEXT COMMAND...: exits CODE within 60 s, stderr holds TEXT.
expect() {
  local code=$1 text=$2
  shift 2
  timeout -s KILL 60 "$@" >"$work/out" 2>"$work/err"
  local status=$?
  if [[ $status != "$code" ]] || ! grep -qF -- "$text" "$work/err"; then
    echo "FAILED: expected exit $code and '$text': $*"
    echo "  got exit $status; stderr:"; sed 's/^/    /' "$work/err" | head -30
    failures=$((failures + 1))
  else
    echo "ok: exit $code, '$text'"
  fi
}

# The ranks check the world mpirun gave them against the plan (4 ranks).
for np in 2 8; do
  expect 1 "shardgen: rank 0: error: mpirun started $np rank(s), but the run is planned for 4" \
    mpirun "${root[@]}" --oversubscribe -np "$np" --mca btl self,vader \
    -x SHARDGEN_MPI_RANK=4 "$shardgen" run "$graph" --backend mpi
done
# A plan that is not a count (the variable set by hand): said, not "-1".
expect 1 "shardgen: rank 0: error: the planned rank count (environment variable SHARDGEN_MPI_RANK" \
  mpirun "${root[@]}" --oversubscribe -np 2 --mca btl self,vader \
  -x SHARDGEN_MPI_RANK=abc "$shardgen" run "$graph" --backend mpi
# A plan the world matches but the mesh cannot take (8 ranks for 4 devices,
# as an application file given to mpirun could make): refused before any
# index divides by it (was SIGFPE in every rank).
expect 1 "shardgen: rank 0: error: mpirun started 8 rank(s), which do not divide the 4 devices of mesh @" \
  mpirun "${root[@]}" --oversubscribe -np 8 --mca btl self,vader \
  -x SHARDGEN_MPI_RANK=8 "$shardgen" run "$graph" --backend mpi
expect 2 "--mpirun-args cannot hold '--app' (an application file of other programs)" \
  "$shardgen" run "$graph" --backend mpi --mpirun-args "--app $work/appfile"
expect 2 "--mpirun-args cannot hold '--version' (mpirun would answer it instead of running" \
  "$shardgen" run "$graph" --backend mpi --mpirun-args "--version"
expect 2 "--mpirun-args cannot set the number of ranks ('-np'): use --ranks N" \
  "$shardgen" run "$graph" --backend mpi --mpirun-args "-np 8"
expect 2 "--mpirun-args cannot hold ':'" \
  "$shardgen" run "$graph" --backend mpi --mpirun-args "--oversubscribe : -np 1 /bin/true"

# Options that make mpirun answer or run something else and exit 0 without
# starting shardgen's ranks: not a success (was exit 0 with no outputs).
for args in "-version" "/bin/true" "-- /bin/true"; do
  expect 1 "shardgen run: error: mpirun ended with status 0 but did not run shardgen's ranks" \
    "$shardgen" run "$graph" --backend mpi --mpirun-args "$args"
done

# --xml wraps the ranks' output (rank 0's last line too) on stdout: still a
# success.
expect 0 "" "$shardgen" run "$graph" --backend mpi --mpirun-args "--xml"

# mpirun's own failures, said.
expect 1 "shardgen run: error: mpirun failed (exit status" \
  "$shardgen" run "$graph" --backend mpi --mpirun-args "--hostfile $work/no-such-hostfile"
grep -q "no-such-hostfile" "$work/err" || { echo "FAILED: mpirun's message is missing"; cat "$work/err"; failures=$((failures + 1)); }
expect 1 "shardgen run: error: mpirun failed (exit status" \
  "$shardgen" run "$graph" --backend mpi --mpirun-args "--wdir $work/no-such-folder"

# A graph named ':', and an output folder named ':'.
mkdir "$work/colon" "$work/colon2" && cp "$graph" "$work/colon/:"
cd "$work/colon" && expect 0 "" "$shardgen" run : "${mpi[@]}" --ranks 2 -o out
[[ -f $work/colon/out/out0.npy ]] || { echo "FAILED: no out/out0.npy"; failures=$((failures + 1)); }
cd "$work/colon2" && expect 0 "" "$shardgen" run "$graph" "${mpi[@]}" --ranks 2 -o :
[[ -f $work/colon2/:/out0.npy ]] || { echo "FAILED: no ./:/out0.npy"; failures=$((failures + 1)); }
cd "$work"

children() { cat /proc/"$1"/task/*/children 2>/dev/null; }

# rank_pid LAUNCHER RANK: the pid of that rank of the job LAUNCHER started
# (timeout -> shardgen -> mpirun -> the ranks).
rank_pid() {
  local s m p
  for s in $(children "$1"); do for m in $(children "$s"); do for p in $(children "$m"); do
    if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$2"; then
      echo "$p"
      return 0
    fi
  done; done; done
  return 1
}

# peer NAME SIGNAL DELAY TEXT: runs 2 ranks (a long --repeat); DELAY s after
# rank 1 appears sends it SIGNAL; expects exit 1 and TEXT within 60 s, and
# no rank left behind.
peer() {
  local name=$1 signal=$2 delay=$3 text=$4 pid="" i
  timeout -s KILL 60 "$shardgen" run "$graph" "${mpi[@]}" --ranks 2 --timeout 3 \
    --repeat 1000000 >"$work/out" 2>"$work/err" &
  local launcher=$!
  started+=("$launcher")
  for ((i = 0; i < 400; ++i)); do
    pid=$(rank_pid "$launcher" 1) && break
    sleep 0.05
  done
  if [[ -z $pid ]]; then
    echo "FAILED: $name: rank 1 never started"; failures=$((failures + 1)); return
  fi
  started+=("$pid")
  sleep "$delay"
  kill "-$signal" "$pid"
  wait "$launcher"
  local status=$?
  if [[ $status != 1 ]] || ! grep -qF -- "$text" "$work/err"; then
    echo "FAILED: $name: expected exit 1 and '$text', got $status:"
    sed 's/^/    /' "$work/err" | head -30
    failures=$((failures + 1))
  else
    echo "ok: $name: exit 1, $(grep -F -- "$text" "$work/err" | head -1)"
  fi
  if kill -0 "$pid" 2>/dev/null; then
    echo "FAILED: $name: rank 1 outlived the job"; failures=$((failures + 1))
  fi
}
peer stopped_at_start STOP 0 "shardgen: rank 0: the run did not finish within the timeout of 3 s: this rank waits in "
peer stopped_mid_run STOP 5 "shardgen: rank 0: the run did not finish within the timeout of 3 s: "
peer killed KILL 5 "process rank 1 with PID"

if ((failures > 0)); then
  echo "$failures case(s) failed"
  exit 1
fi
echo "every case passed"
