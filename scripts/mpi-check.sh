#!/usr/bin/env bash
# The distributed solve under MPI against the one-machine answer: builds games-cli with the cargo
# feature `mpi` (installing Debian's Open MPI and libclang first when they are missing, as root),
# solves the empty side-4 Triangle War board on 3 ranks (rank 0 coordinates, 2 workers) into a
# fresh store, compares the value and every first move's value with the one-machine run, and
# checks that a relaunch answers from the store without a job. Used by .ci/run.
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
many="$(mpirun --oversubscribe -np 3 "$cli" "${args[@]}" --store "$store" --mpi)"
again="$(mpirun --oversubscribe -np 3 "$cli" "${args[@]}" --store "$store" --mpi 2>"$store/again.err")"
python3 - "$one" "$many" "$again" <<'PY'
import json, sys
one, many, again = (json.loads(a) for a in sys.argv[1:])
for name, got in (("3 ranks", many), ("relaunch", again)):
    assert got["value"] == one["value"], (name, got["value"], one["value"])
    assert got["moves"] == one["moves"], (name, got["moves"], one["moves"])
print(f"mpi-check: 3 ranks give the one-machine value {one['value']} and the same {len(one['moves'])} first-move values")
PY
grep -q "0 nodes in this run" "$store/again.err" || { echo "mpi-check: the relaunch searched again:" >&2; cat "$store/again.err" >&2; exit 1; }
echo "mpi-check: the relaunch answered from the store without a job"
