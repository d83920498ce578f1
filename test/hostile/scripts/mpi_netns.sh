#!/usr/bin/env bash
# mpi_netns.sh SHARDGEN SAMPLES: `run --backend mpi` over TCP between two
# network namespaces joined by a veth pair, as two machines would run it: a
# hostfile with one slot per "machine", mpirun reaching the other one
# through a launcher agent (in place of ssh), MPI's TCP transport only. The
# run must give the threads backend's outputs; then one side is killed in
# the middle of a long run and the job must end (exit 1, saying so) within
# the time limit. Only addresses in 10.213.0.0/24 on the pair it creates.
# Needs root with CAP_NET_ADMIN (ip netns add); exit 77 (skipped) otherwise.
set -uo pipefail
shardgen=$(readlink -f "$1") samples=$2
graph=$samples/mlp.json
if [[ $(id -u) != 0 ]] || ! command -v ip >/dev/null || ! command -v mpirun >/dev/null; then
  echo "skipped: needs root, ip and mpirun"
  exit 77
fi
tag=sg$$
a=${tag}a b=${tag}b
if ! ip netns add "$a" 2>/dev/null; then
  echo "skipped: cannot create network namespaces (no CAP_NET_ADMIN)"
  exit 77
fi
work=$(mktemp -d)
cleanup() {
  for ns in "$a" "$b"; do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
    ip netns del "$ns" 2>/dev/null
  done
  rm -rf "$work"
}
trap cleanup EXIT
ip netns add "$b" || exit 1
ip link add "${tag}va" type veth peer name "${tag}vb" || exit 1
ip link set "${tag}va" netns "$a" && ip link set "${tag}vb" netns "$b" || exit 1
ip -n "$a" addr add 10.213.0.1/24 dev "${tag}va" && ip -n "$b" addr add 10.213.0.2/24 dev "${tag}vb"
for ns in "$a" "$b"; do ip -n "$ns" link set lo up; done
ip -n "$a" link set "${tag}va" up && ip -n "$b" link set "${tag}vb" up

# The "ssh" to the other machine: run the command in its namespace.
cat >"$work/agent" <<AGENT
#!/bin/sh
host=\$1; shift
case \$host in
  10.213.0.2) exec ip netns exec $b sh -c "\$*" ;;
  *) exec sh -c "\$*" ;;
esac
AGENT
chmod +x "$work/agent"
printf '10.213.0.1 slots=1\n10.213.0.2 slots=1\n' >"$work/hosts"
mpirun_args="--hostfile $work/hosts --mca plm_rsh_agent $work/agent --mca plm_rsh_no_tree_spawn 1"
mpirun_args+=" --mca btl self,tcp --mca btl_tcp_if_include 10.213.0.0/24"
mpirun_args+=" --mca oob_tcp_if_include 10.213.0.0/24 --mca pml ob1"
export XDG_CACHE_HOME=$work/cache

# Two "machines", one rank each, 2 devices as threads per rank: the threads
# backend's outputs, bit for bit.
"$shardgen" run "$graph" -o "$work/threads" 2>"$work/err" || { cat "$work/err"; exit 1; }
if ! timeout -s KILL 120 ip netns exec "$a" "$shardgen" run "$graph" --backend mpi --ranks 2 \
  --mpirun-args "$mpirun_args" -o "$work/mpi" 2>"$work/err"; then
  echo "FAILED: the two-namespace run failed:"; cat "$work/err"; exit 1
fi
cmp "$work/threads/out0.npy" "$work/mpi/out0.npy" || { echo "FAILED: outputs differ"; exit 1; }
echo "ok: two ranks in two namespaces over TCP give the threads backend's outputs"

# lost LABEL ACTION EXPECTED: one side lost in the middle of a long run (ACTION
# runs with $victim, the rank in the other namespace): the job must end with
# exit 1 and EXPECTED on stderr, within the 90 s limit.
lost() {
  local label=$1 action=$2 expected=$3 victim= status i pid
  timeout -s KILL 90 ip netns exec "$a" "$shardgen" run "$graph" --backend mpi --ranks 2 \
    --mpirun-args "$mpirun_args" --timeout 5 --repeat 1000000 >/dev/null 2>"$work/err" &
  local launcher=$!
  for ((i = 0; i < 600; ++i)); do
    for pid in $(ip netns pids "$b"); do
      if [[ $(readlink "/proc/$pid/exe") == "$shardgen" ]]; then victim=$pid; fi
    done
    [[ -n $victim ]] && break
    kill -0 "$launcher" 2>/dev/null || break
    sleep 0.1
  done
  [[ -n $victim ]] || { echo "FAILED: $label: no rank started in $b"; cat "$work/err"; exit 1; }
  sleep 5 # compiled and running
  eval "$action"
  wait "$launcher"
  status=$?
  if [[ $status != 1 ]] || ! grep -qF -- "$expected" "$work/err"; then
    echo "FAILED: $label: exit $status (expected 1 and '$expected'):"
    cat "$work/err"
    exit 1
  fi
  echo "ok: $label ends the job: exit 1, $(grep -F -m1 -- "$expected" "$work/err")"
}
# The rank on the other "machine" killed: mpirun learns it from that side.
lost "killing the rank on the other side" 'kill -KILL "$victim"' "exited on signal 9"
# The link cut: nothing tells MPI; --timeout does, and shardgen ends the job
# although mpirun cannot reach the other side to end its part.
lost "cutting the link" 'ip -n "$b" link set "${tag}vb" down' \
  "the run did not finish within the timeout of 5 s"
