"""Benchmark (run by hand, not a test): does solving release the GIL well enough that two
Python threads solve at once in about the time of one? For each workload (an empty board,
solved from a fresh state, so a fresh TT each time) it times, in one run on this machine:

- one solve alone;
- two solves one after the other (one thread);
- two solves at once, one per Python thread;

and prints a table: `at once / alone` near 1.0 means the two threads ran in parallel (two
idle cores), near 2.0 that they took turns (one core, or a GIL held); `speed-up` is
`one after the other / at once`. The load average is printed too: the cores may be shared.

    python crates/game-solvers-py/bench/two_threads.py [--repeat N]
"""

import argparse
import os
import threading
import time

import game_solvers as gs

WORKLOADS = [
    # (game string, its value for the first player: checked, so that a wrong answer shows)
    ("connect_four(size=6x5)", 0),
    ("dots_and_boxes(num_rows=3,num_cols=3)", -3),
]


def solve(spec, expected):
    value = gs.value(gs.load_game(spec).new_initial_state())
    assert value == expected, (spec, value)


def timed(f):
    start = time.perf_counter()
    f()
    return time.perf_counter() - start


def at_once(spec, expected):
    threads = [threading.Thread(target=solve, args=(spec, expected)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measure; the best is kept")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}, load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'workload':<40} {'alone':>8} {'one after other':>16} {'at once':>8} {'at once / alone':>16} {'speed-up':>9}")
    for spec, expected in WORKLOADS:
        alone = min(timed(lambda: solve(spec, expected)) for _ in range(args.repeat))
        serial = min(timed(lambda: (solve(spec, expected), solve(spec, expected))) for _ in range(args.repeat))
        both = min(timed(lambda: at_once(spec, expected)) for _ in range(args.repeat))
        print(
            f"{spec:<40} {alone:>7.3f}s {serial:>15.3f}s {both:>7.3f}s {both / alone:>16.2f} {serial / both:>9.2f}"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
