#!/usr/bin/env bash
# The distributed solve under MPI against the one-machine answer: builds games-cli with the cargo
# feature `mpi` (installing Debian's Open MPI and libclang first when they are missing, as root),
# solves the empty side-4 Triangle War board on 3 ranks (rank 0 coordinates, 2 workers) into a
# fresh store, compares the value and every first move's value with the one-machine run, checks
# that the workers shared proven entries, and that a relaunch answers from the store without a
# job; then that --time-limit stops a run
# whose one job (the whole empty 4x4 board, a minute or more here) is still under way, with the
# time-limit status; then that a worker rank stopped with SIGSTOP early in a run (one where the
# answer is proven without its job, one whose only job is its job, handed on after the 5 s
# floor of the job bound) does not hold the answer up: the run ends with status 0 and the
# one-machine answer (Open MPI 4.1's mpirun crashing or hanging in its own teardown after the
# abort, every rank ended, is tolerated and told), and a relaunch answers from the store; then
# that a worker killed with SIGKILL mid-run ends the run with an error and that the relaunch
# reads the records written before and gives the one-machine answer; then
# that ranks that would solve something else (another split depth, other --rules, another
# game) are refused before any job, naming both descriptions, and leave the store without a
# record. Used by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v mpirun >/dev/null 2>&1 || missing+=(openmpi-bin)
dpkg -s libopenmpi-dev >/dev/null 2>&1 || missing+=(libopenmpi-dev)
dpkg -s libclang-dev >/dev/null 2>&1 || missing+=(libclang-dev)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "mpi-check: needs the Debian packages ${missing[*]} (apt-get install -y ${missing[*]}, as root)" >&2
    exit 1
  fi
  echo "mpi-check: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openmpi-bin libopenmpi-dev libclang-dev >/dev/null
fi

# The default target directory: the feature adds the mpi crates and rebuilds games-cli only (its
# other dependencies keep their features).
target="${MPI_CHECK_TARGET:-${CARGO_TARGET_DIR:-target}}"
CARGO_TARGET_DIR="$target" cargo clippy --locked -p games-cli --features mpi -- -D warnings
CARGO_TARGET_DIR="$target" cargo build --locked -p games-cli --features mpi
cli="$target/debug/games-cli"

# Open MPI refuses to run as root unless told; CI runs as root. One machine: oversubscribe.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
store="$(mktemp -d)"
trap 'rm -rf "$store"' EXIT
args=(triangle-war --side 4 --empty --analyze --format json)
one="$("$cli" "${args[@]}")"
many="$(mpirun --oversubscribe -np 3 "$cli" "${args[@]}" --store "$store" --mpi 2>"$store/many.err")"
again="$(mpirun --oversubscribe -np 3 "$cli" "${args[@]}" --store "$store" --mpi 2>"$store/again.err")"
# Triangle War's workers keep their paths to themselves by default; told to share them.
mkdir "$store/paths"
paths="$(mpirun --oversubscribe -np 3 "$cli" "${args[@]}" --store "$store/paths" --mpi --path-plies 16 2>"$store/paths.err")"
python3 - "$one" "$many" "$again" "$paths" <<'PY'
import json, sys
one, many, again, paths = (json.loads(a) for a in sys.argv[1:])
for name, got in (("3 ranks", many), ("relaunch", again), ("3 ranks with paths", paths)):
    assert got["value"] == one["value"], (name, got["value"], one["value"])
    assert got["moves"] == one["moves"], (name, got["moves"], one["moves"])
print(f"mpi-check: 3 ranks give the one-machine value {one['value']} and the same {len(one['moves'])} first-move values")
PY
# The workers sent each other what they proved, and stored what they received.
python3 - "$store/many.err" <<'PY'
import re, sys
line = next(l for l in open(sys.argv[1]) if l.startswith("split: workers "))
sent, received = (int(x) for x in re.search(r"shared: (\d+) entries sent, (\d+) received", line).groups())
assert sent > 0 and received > 0, line
misses, most = (int(x) for x in re.search(r"TT misses (\d+) in all, at most (\d+) on one", line).groups())
assert 0 < most <= misses, line
print(f"mpi-check: the workers shared {sent} proven entries ({received} received); {misses} TT misses, at most {most} on one")
PY
grep -q "0 nodes in this run" "$store/again.err" || { echo "mpi-check: the relaunch searched again:" >&2; cat "$store/again.err" >&2; exit 1; }
echo "mpi-check: the relaunch answered from the store without a job"

# --time-limit 2 on a job of a minute or more: the manager stops the worker at the limit (it used
# to wait for the job to end). 30 s leaves room for start-up and a slow machine.
start=$SECONDS
set +e
mpirun --oversubscribe -np 2 "$cli" dots-and-boxes --size 4x4 --empty --store "$store/limit" \
  --split-depth 0 --threads 1 --tt-bits 20 --time-limit 2 --mpi >"$store/limit.out" 2>"$store/limit.err"
status=$?
set -e
took=$((SECONDS - start))
if [ "$status" = 0 ] || ! grep -q "stopped by the time limit" "$store/limit.err" || [ "$took" -ge 30 ]; then
  echo "mpi-check: --time-limit 2 under MPI: status $status after $took s:" >&2
  cat "$store/limit.err" >&2
  exit 1
fi
echo "mpi-check: --time-limit 2 stopped the run under way after $took s (status $status)"

# A worker that hangs without dying: worker rank 1 is stopped (SIGSTOP) as soon as the manager
# hands out the first jobs, and the run must end within 60 s with status 0 and the one-machine
# answer, and leave a store that a relaunch answers from without a job. On the side-4 board the
# answer is proven without the stopped rank's job: it is printed at once (the run then ends
# with MPI_Abort, status 0). With --split-depth 0 the one job, the root, is the stopped rank's:
# it goes to the other worker once it is late (5 s, the bound's floor). Before either, the
# manager waited for the stopped rank.
stopped_worker() {
  local name=$1
  shift
  local dir="$store/hung-$name" one launcher stopped="" worker1="" took hung_status="" start=$SECONDS
  local ended=0 note=""
  one="$("$cli" "$@")"
  mpirun --oversubscribe -np 3 "$cli" "$@" --store "$dir" --mpi >"$dir.out" 2>"$dir.err" &
  launcher=$!
  for _ in $(seq 1 600); do
    if [ -z "$stopped" ]; then
      for p in $(pgrep -P "$launcher" || true); do
        if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=1; then
          worker1=$p
        fi
      done
      if [ -n "$worker1" ] && grep -q "^split: depth" "$dir.err" 2>/dev/null; then
        kill -STOP "$worker1"
        stopped=$worker1
      fi
    fi
    kill -0 "$launcher" 2>/dev/null || break
    # Debian's Open MPI 4.1 mpirun often fails in its own teardown after MPI_Abort when a rank
    # hangs outside MPI: it hangs (every rank already ended, zombies, the answer printed) or
    # crashes in PMIx_server_finalize. A hang is killed after 2 s; either is told below, and
    # the answer and the store are checked as for status 0.
    if [ -s "$dir.out" ] && ! ps -o stat= --ppid "$launcher" 2>/dev/null | grep -qv '^Z'; then
      ended=$((ended + 1))
      if [ "$ended" -ge 20 ]; then
        note="answer printed, every rank ended, then mpirun hung in its teardown: killed"
        kill -KILL "$launcher"
        break
      fi
    fi
    sleep 0.1
  done
  took=$((SECONDS - start))
  set +e
  if kill -0 "$launcher" 2>/dev/null; then
    hung_status="still running"
    kill -CONT "$stopped" 2>/dev/null
    kill -TERM "$launcher"
    sleep 2
    kill -KILL "$launcher" 2>/dev/null
  fi
  wait "$launcher" 2>/dev/null
  hung_status="${hung_status:-$?}"
  if [ "$hung_status" = 139 ] && grep -q "PMIx_server_finalize" "$dir.err"; then
    note="answer printed, every rank ended, then mpirun crashed in its teardown"
  fi
  if [ -n "$note" ]; then hung_status=0; else note="status 0"; fi
  set -e
  if [ -n "$stopped" ]; then kill -CONT "$stopped" 2>/dev/null || true; fi
  if [ -z "$stopped" ] || [ "$hung_status" != 0 ]; then
    echo "mpi-check: $name, worker rank 1 stopped (pid ${stopped:-none found}): status $hung_status after $took s:" >&2
    cat "$dir.err" >&2
    exit 1
  fi
  local again
  again="$(mpirun --oversubscribe -np 3 "$cli" "$@" --store "$dir" --mpi 2>"$dir.again.err")"
  python3 - "$name" "$one" "$(cat "$dir.out")" "$again" <<'PY'
import json, sys
name = sys.argv[1]
one, got, again = (json.loads(a) for a in sys.argv[2:])
for run, answer in (("worker stopped", got), ("relaunch", again)):
    assert answer["value"] == one["value"], (name, run, answer["value"], one["value"])
    assert answer.get("moves") == one.get("moves"), (name, run, answer.get("moves"), one.get("moves"))
PY
  grep -q "0 nodes in this run" "$dir.again.err" || {
    echo "mpi-check: $name: the relaunch after the stopped worker searched again:" >&2
    cat "$dir.again.err" >&2
    exit 1
  }
  echo "mpi-check: $name, worker rank 1 stopped: the one-machine answer after $took s ($note), jobs handed out again: $(grep -c "handed to rank" "$dir.err" || true); the relaunch answered from the store"
}
stopped_worker side-4 "${args[@]}"
stopped_worker depth-0 dots-and-boxes --size 3x4 --empty --format json --split-depth 0

# A worker killed (SIGKILL) in the middle of a run, the workers sharing entries: MPI ends the
# run with an error status; the store keeps every result written before, and the relaunch
# reads them and finishes with the one-machine answer.
killed_args=(dots-and-boxes --size 3x4 --empty --format json --split-depth 3)
killed="$store/killed"
killed_one="$("$cli" "${killed_args[@]}")"
mpirun --oversubscribe -np 3 "$cli" "${killed_args[@]}" --store "$killed" --mpi >"$killed.out" 2>"$killed.err" &
launcher=$!
victim=""
for _ in $(seq 1 1200); do
  for p in $(pgrep -P "$launcher" || true); do
    if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=1; then
      victim=$p
    fi
  done
  # At least 5 records (44 bytes each) in the manager's file, beyond its header.
  records=$(python3 - "$killed/main.rec" <<'PY'
import os, sys
b = open(sys.argv[1], "rb").read() if os.path.exists(sys.argv[1]) else b""
print(0 if len(b) < 12 else max(0, (len(b) - 16 - int.from_bytes(b[8:12], "little")) // 44))
PY
)
  if [ -n "$victim" ] && [ "$records" -ge 5 ]; then
    kill -KILL "$victim"
    break
  fi
  kill -0 "$launcher" 2>/dev/null || break
  sleep 0.05
done
set +e
timeout 60 tail --pid="$launcher" -f /dev/null
# mpirun ends the run once a rank died; one that hangs in its own teardown is killed.
kill -KILL "$launcher" 2>/dev/null
wait "$launcher"
status=$?
pkill -KILL -f -- "--store $killed " 2>/dev/null
set -e
if [ -z "$victim" ] || [ "$status" = 0 ]; then
  echo "mpi-check: killing worker rank 1 (pid ${victim:-none found}) did not end the run with an error (status $status):" >&2
  cat "$killed.err" >&2
  exit 1
fi
again="$(mpirun --oversubscribe -np 3 "$cli" "${killed_args[@]}" --store "$killed" --mpi 2>"$killed.again.err")"
read_back=$(sed -n 's/.* \([0-9]*\) records read from .*/\1/p' "$killed.again.err" | head -1)
python3 - "$killed_one" "$again" "${read_back:-0}" <<'PY'
import json, sys
one, again = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert again["value"] == one["value"], (again["value"], one["value"])
assert int(sys.argv[3]) >= 5, f"the relaunch read {sys.argv[3]} records"
print(f"mpi-check: worker rank 1 killed mid-run: the run ended with an error; the relaunch read {sys.argv[3]} records and gave the one-machine value {one['value']}")
PY

# Ranks that disagree on what they solve (MPMD launches with `:`): refused before any job, the
# store left without a record, and a correct run afterwards still gives the one-machine value.
side4=(triangle-war --side 4 --empty --format json)
for case in "split-depth:--split-depth 3:--split-depth 5" "rules::--rules none" "game::dots-and-boxes"; do
  IFS=: read -r name manager worker <<<"$case"
  dir="$store/mismatch-$name"
  # shellcheck disable=SC2206
  if [ "$worker" = dots-and-boxes ]; then
    worker_cmd=("$cli" dots-and-boxes --size 3x3 --empty --format json --store "$dir" --mpi)
  else
    worker_cmd=("$cli" "${side4[@]}" --store "$dir" --mpi $worker)
  fi
  # shellcheck disable=SC2086
  set +e
  timeout 120 mpirun --oversubscribe -np 1 "$cli" "${side4[@]}" --store "$dir" --mpi $manager \
    : -np 2 "${worker_cmd[@]}" >"$dir.out" 2>"$dir.err"
  status=$?
  set -e
  if [ "$status" = 0 ] || [ -s "$dir.out" ] || ! grep -q "the ranks do not solve the same thing" "$dir.err"; then
    echo "mpi-check: ranks that disagree ($name) were not refused: status $status" >&2
    cat "$dir.out" "$dir.err" >&2
    exit 1
  fi
  written=$(python3 - "$dir" <<'PY'
import os, sys
total = 0
for name in os.listdir(sys.argv[1]):
    if name.endswith(".rec"):
        b = open(os.path.join(sys.argv[1], name), "rb").read()
        n = int.from_bytes(b[8:12], "little")
        total += (len(b) - 16 - n) // 44
print(total)
PY
)
  if [ "$written" != 0 ]; then
    echo "mpi-check: ranks that disagree ($name) wrote $written records" >&2
    exit 1
  fi
  echo "mpi-check: ranks that disagree ($name) were refused before any job (status $status)"
done
right="$(mpirun --oversubscribe -np 3 "$cli" "${side4[@]}" --store "$store/mismatch-split-depth" --mpi --split-depth 3)"
python3 - "$one" "$right" <<'PY'
import json, sys
one, right = (json.loads(a) for a in sys.argv[1:])
assert right["value"] == one["value"], (right["value"], one["value"])
PY
echo "mpi-check: a correct run on the refused store gives the one-machine value"
