"""Tests of the Python module game_solvers against independent references: a plain minimax
written here (tic-tac-toe scored as CCF 201803-4), the games-cli binary on the same positions,
and the rules' own invariants (undo, clone, returns). Run by `cargo xtask test`."""

import functools
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import game_solvers as gs

ROOT = Path(__file__).resolve().parents[3]


def games_cli():
    """The games-cli binary of this checkout (GAMES_CLI, or the debug build)."""
    path = Path(os.environ.get("GAMES_CLI", ROOT / "target" / "debug" / "games-cli"))
    assert path.exists(), f"games-cli not built at {path}: run `cargo build -p games-cli`"
    return str(path)


SPECS = [
    "triangle_war(side=2)",
    "young_chess(size=2x3,seed=7)",
    "tic_tac_toe",
    "tic_tac_toe(size=3x4,k=3)",
    "connect_four(size=4x4)",
    "dots_and_boxes(size=2x2)",
]


def test_registered_names():
    assert set(gs.registered_names()) == {"triangle-war", "young-chess", "tic-tac-toe", "connect-four", "dots-and-boxes"}


@pytest.mark.parametrize("spec", SPECS)
def test_random_games_follow_the_rules(spec):
    game = gs.load_game(spec)
    rng = random.Random(spec)
    for _ in range(10):
        state = game.new_initial_state()
        boards = [str(state)]
        while not state.is_terminal():
            assert state.current_player() in (0, 1)
            actions = state.legal_actions()
            assert actions and len(set(actions)) == len(actions)
            action = rng.choice(actions)
            assert state.action_to_string(action)
            state.apply_action(action)
            boards.append(str(state))
            copy = state.clone()
            assert str(copy) == str(state) and copy.history() == state.history()
        assert state.current_player() == -4
        assert state.legal_actions() == []
        r = state.returns()
        assert r[0] == -r[1]
        # Undo walks back through every board.
        for board in reversed(boards[:-1]):
            state.undo_action()
            assert str(state) == board
        with pytest.raises(ValueError):
            state.undo_action()


def ccf_minimax():
    """Plain minimax of 3x3 tic-tac-toe scored as CCF 201803-4: a win scores the empty cells
    plus one, for the player to move; independent of the crate."""
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

    @functools.lru_cache(maxsize=None)
    def value(board, me):
        empty = board.count(".")
        for mark in "xo":
            if any(all(board[i] == mark for i in line) for line in lines):
                # The previous player completed a line: a loss for the player to move.
                return -(empty + 1)
        if empty == 0:
            return 0
        other = "o" if me == "x" else "x"
        return max(-value(board[:i] + me + board[i + 1:], other) for i in range(9) if board[i] == ".")

    return value


def test_tic_tac_toe_values_match_plain_minimax():
    reference = ccf_minimax()
    game = gs.load_game("tic_tac_toe")
    rng = random.Random(201803)
    checked = 0
    for _ in range(200):
        state = game.new_initial_state()
        board, me = "." * 9, "x"
        for _ in range(rng.randrange(0, 7)):
            if state.is_terminal():
                break
            a = rng.choice(state.legal_actions())
            state.apply_action(a)
            board, me = board[:a] + me + board[a + 1:], ("o" if me == "x" else "x")
        if state.is_terminal():
            continue
        assert gs.value(state) == reference(board, me), board
        values = gs.move_values(state)
        assert max(values.values()) == gs.value(state)
        for a, v in values.items():
            child = board[:a] + me + board[a + 1:]
            assert v == -reference(child, "o" if me == "x" else "x"), (board, a)
        checked += 1
    assert checked > 100


def test_connect_four_scores_match_the_cli():
    rng = random.Random(4)
    game = gs.load_game("connect_four(size=5x4)")
    lines, expected = [], []
    for _ in range(20):
        state = game.new_initial_state()
        moves = ""
        for _ in range(rng.randrange(2, 8)):
            if state.is_terminal():
                break
            a = rng.choice(state.legal_actions())
            state.apply_action(a)
            moves += str(a + 1)
        if state.is_terminal():
            continue
        lines.append(moves)
        expected.append(f"{moves} {gs.value(state)}")
    out = subprocess.run(
        [games_cli(), "connect-four", "--size", "5x4"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    assert out[:-1] == expected


@pytest.mark.parametrize("name,count", [("Test_L3_R1", 50), ("Test_L2_R1", 50), ("Test_L2_R2", 20), ("Test_L1_R1", 20)])
def test_connect_four_values_are_pons_scores(name, count):
    # Pons' test sets (testdata/connect-four/SOURCE.md): `MOVES SCORE`, the exact score for
    # the side to move; the moves played as OpenSpiel's action ids (column - 1), and the
    # same line read as the judge's text.
    game = gs.load_game("connect_four")
    for line in (ROOT / "testdata" / "connect-four" / name).read_text().splitlines()[:count]:
        moves, score = line.split()
        state = game.new_initial_state()
        for column in moves:
            state.apply_action(int(column) - 1)
        assert gs.value(state) == int(score), line
        assert gs.value(game.new_state_from_text(moves)) == int(score), line


def test_triangle_war_analysis_matches_the_cli():
    # POJ 1085's first sample game: A to move after six segments.
    text = "1\n6\n2 4\n4 5\n5 9\n3 6\n2 5\n3 5\n"
    state = gs.load_game("triangle_war").new_state_from_text(text)
    assert len(state.history()) == 6
    out = subprocess.run(
        [games_cli(), "triangle-war", "--analyze", "--format", "json"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    cli = json.loads(out)
    mine = gs.analyze(state)
    sign = 1 if state.current_player() == 0 else -1
    # The CLI's values are A's final margin; the module's are for the player to move.
    assert mine["value"] == sign * cli["value"]
    assert [(m["move"], m["value"]) for m in mine["moves"]] == [(m["move"], sign * m["value"]) for m in cli["moves"]]
    assert [state.action_to_string(a) for a in mine["pv"]] == cli["pv"]


def test_dots_and_boxes_known_values():
    # D. Wilson's values of the empty boards, first player's net boxes; OpenSpiel's numbering:
    # 2x2 boxes have 12 lines, horizontal ones first.
    for size, expected in [("1x1", -1), ("1x2", 0), ("2x2", 2), ("2x3", -2)]:
        state = gs.load_game(f"dots_and_boxes(size={size})").new_initial_state()
        assert gs.value(state) == expected, size
    state = gs.load_game("dots_and_boxes(size=2x2)").new_initial_state()
    assert state.legal_actions() == list(range(12))
    state.apply_action(0)
    assert state.setup_text().strip() == "100000000000"


def test_bad_input_raises_value_error_with_the_message():
    with pytest.raises(ValueError, match="unknown game"):
        gs.load_game("chess")
    with pytest.raises(ValueError, match="unknown parameter `file`"):
        gs.load_game("young_chess(file=/etc/passwd)")
    with pytest.raises(ValueError, match="--side"):
        gs.load_game("triangle_war(side=9)")
    state = gs.load_game("connect_four(size=4x4)").new_initial_state()
    for _ in range(4):
        state.apply_action(0)
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(0)
    with pytest.raises(ValueError):
        state.apply_action(-1)
    with pytest.raises(ValueError, match="expected a column number"):
        state.apply_text("9")
    with pytest.raises(ValueError, match="time_limit"):
        gs.value(state, time_limit=-1.0)


def test_a_time_limit_raises_search_interrupted_with_bounds():
    # The empty 7x6 board scores 1 (Pons: the first player wins with her last stone), far
    # beyond 50 ms of search: the bounds proven by then hold that value.
    state = gs.load_game("connect_four").new_initial_state()
    for solve in (gs.value, gs.analyze):
        with pytest.raises(gs.SearchInterrupted) as stopped:
            solve(state, time_limit=0.05)
        message, lo, hi = stopped.value.args
        assert "time limit" in message
        assert (lo is None or lo <= 1) and (hi is None or 1 <= hi)
    # A limit long enough changes nothing.
    small = gs.load_game("dots_and_boxes(size=2x3)").new_initial_state()
    assert gs.value(small, time_limit=600.0) == -2


SETTINGS_SPECS = [
    "connect_four(size=5x4)",
    "tic_tac_toe(size=3x4,k=3)",
    "dots_and_boxes(size=2x3)",
    "triangle_war(side=3)",
    "young_chess(size=3x3,seed=7)",
]


@pytest.mark.parametrize("spec", SETTINGS_SPECS)
def test_threads_and_tt_size_change_no_value(spec):
    state = gs.load_game(spec).new_initial_state()
    state.apply_action(state.legal_actions()[0])
    expected = gs.move_values(state)
    for kwargs in [dict(threads=2), dict(tt_mib=1), dict(threads=2, tt_mib=1), dict(threads=3, tt_mib=64), {}]:
        assert gs.move_values(state, **kwargs) == expected, kwargs
        assert gs.value(state, **kwargs) == max(expected.values()), kwargs
        assert gs.principal_variation(state, **kwargs)[0] in expected
    # A fresh state's first solve with settings.
    fresh = state.clone()
    assert gs.analyze(fresh, threads=2, tt_mib=2)["value"] == max(expected.values())


def test_bad_threads_and_tt_size_raise_value_error():
    state = gs.load_game("tic_tac_toe").new_initial_state()
    for kwargs, message in [
        (dict(threads=0), "threads: expected a whole number from 1 to 256, found 0"),
        (dict(threads=-2), "threads"),
        (dict(threads=100000), "threads"),
        (dict(threads=10**30), "threads: expected a whole number from 1 to 256, found 1" + "0" * 30),
        (dict(tt_mib=0), "tt_mib: expected a whole number of MiB from 1 to"),
        (dict(tt_mib=1 << 40), "this machine's memory"),
        (dict(time_limit=float("nan")), "time_limit"),
    ]:
        for solve in (gs.value, gs.move_values, gs.best_action, gs.principal_variation, gs.analyze):
            with pytest.raises(ValueError, match=message):
                solve(state, **kwargs)
    # Other types are a TypeError, as in Python's own functions.
    with pytest.raises(TypeError):
        gs.value(state, threads="2")
    with pytest.raises(TypeError):
        gs.value(state, tt_mib=2.5)


SIGINT_CHILD = """
import signal, sys, time
import game_solvers as gs
signal.signal(signal.SIGINT, signal.default_int_handler)
state = gs.load_game("connect_four").new_initial_state()
print("solving", flush=True)
try:
    gs.value(state)  # the empty 7x6 board: far longer than this test waits
except KeyboardInterrupt:
    # The state is usable after the stop.
    assert state.legal_actions() == list(range(7))
    print("interrupted", gs.value(gs.load_game("tic_tac_toe").new_initial_state()), flush=True)
    sys.exit(3)
print("finished", flush=True)
"""


def test_ctrl_c_stops_a_solve():
    child = subprocess.Popen([sys.executable, "-c", SIGINT_CHILD], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "solving"
        time.sleep(0.5)
        child.send_signal(signal.SIGINT)
        # A generous bound: the search stops within a few thousand nodes of the signal.
        out, _ = child.communicate(timeout=60)
    finally:
        child.kill()
    assert (child.returncode, out.strip()) == (3, "interrupted 0")


def test_the_gil_is_released_while_solving():
    # A Python thread keeps running while another thread is inside a solve: it records the
    # times it ran. A solve holding the GIL would leave no record inside its own run but at
    # its very edges; this one runs 1 s (its time limit) and the thread must have run in its
    # middle.
    seen, stop = [], threading.Event()

    def spin():
        while not stop.is_set():
            seen.append(time.monotonic())
            time.sleep(0.001)

    spinner = threading.Thread(target=spin)
    spinner.start()
    state = gs.load_game("connect_four").new_initial_state()
    start = time.monotonic()
    try:
        with pytest.raises(gs.SearchInterrupted):
            gs.value(state, time_limit=1.0)
    finally:
        end = time.monotonic()
        stop.set()
        spinner.join()
    assert end - start >= 1.0
    middle = [t for t in seen if start + 0.3 <= t <= end - 0.3]
    assert middle, (start, end, len(seen))


def test_two_threads_solve_at_once_with_the_right_values():
    # D. Wilson's values of the empty dots-and-boxes boards (first player's net boxes) and
    # tic-tac-toe's draw, each solved by its own thread, all at once, twice over.
    expected = {
        "dots_and_boxes(num_rows=3,num_cols=3)": -3,
        "dots_and_boxes(num_rows=2,num_cols=3)": -2,
        "connect_four(size=5x4)": 0,
        "tic_tac_toe": 0,
    }
    results = {}

    def solve(spec, key):
        results[key] = gs.value(gs.load_game(spec).new_initial_state())

    threads = [threading.Thread(target=solve, args=(spec, (spec, i))) for spec in expected for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {(spec, i): v for spec, v in expected.items() for i in range(2)}


def test_threads_solve_one_state_in_turn():
    # One state shared by four threads: their solves wait for each other, same answers.
    state = gs.load_game("tic_tac_toe(size=3x4,k=3)").new_initial_state()
    results = []

    def solve():
        results.append(gs.value(state))
        results.append(len(state.legal_actions()))

    threads = [threading.Thread(target=solve) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(12) == 4 and len(set(results) - {12}) == 1
