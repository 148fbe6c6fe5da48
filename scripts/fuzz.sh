#!/usr/bin/env bash
# Runs every cargo-fuzz target in fuzz/ for RUNS executions each (default 10,000,000), one
# after another, and prints executions, time and exec/s per target. Needs the nightly
# toolchain; installs cargo-fuzz if missing.
#
#   scripts/fuzz.sh                  # all targets, 10M runs each
#   scripts/fuzz.sh 100000           # all targets, 100k runs each
#   scripts/fuzz.sh 1000000 young_chess board_eval
set -euo pipefail

runs="${1:-10000000}"
shift || true
cd "$(dirname "$0")/.."

if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    cargo +nightly install cargo-fuzz --locked || cargo +nightly install cargo-fuzz
fi

if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo +nightly fuzz list)
fi

for target in "${targets[@]}"; do
    log="fuzz/artifacts/${target}.log"
    mkdir -p fuzz/artifacts fuzz/corpus/"$target"
    start=$(date +%s.%N)
    # No sanitizer: the crates forbid unsafe code, and fuzzing runs several times faster.
    # -max_len: judge inputs that matter are short; longer ones only repeat the same paths.
    cargo +nightly fuzz run --sanitizer none "$target" -- -runs="$runs" -max_len=4096 -print_final_stats=1 >"$log" 2>&1 || {
        echo "$target: FAILED (see $log)"
        tail -n 30 "$log"
        exit 1
    }
    end=$(date +%s.%N)
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "$runs")
    awk -v t="$target" -v n="$execs" -v s="$start" -v e="$end" \
        'BEGIN { d = e - s; printf "%-14s %12d execs %8.1f s %10.0f exec/s\n", t, n, d, n / d }'
done
