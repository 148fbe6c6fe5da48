"""Tests of the Python module game_solvers against independent references: a plain minimax
written here (tic-tac-toe scored as CCF 201803-4), the games-cli binary on the same positions,
and the rules' own invariants (undo, clone, returns). Run by `cargo xtask test`."""

import functools
import json
import os
import random
import subprocess
import threading
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


def test_triangle_war_analysis_matches_the_cli():
    # POJ 1085's first sample game: A to move after six segments.
    text = "1\n6\n2 4\n4 5\n5 9\n3 6\n2 5\n3 5\n"
    state = gs.load_game("triangle_war").new_state_from_text(text)
    assert len(state.history()) == 6
    out = subprocess.run(
        [games_cli(), "triangle-war", "--format", "json"], input=text, capture_output=True, text=True, check=True
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
    state = gs.load_game("connect_four").new_initial_state()
    with pytest.raises(gs.SearchInterrupted) as stopped:
        gs.value(state, time_limit=0.05)
    message, lo, hi = stopped.value.args
    assert lo <= hi and "time limit" in message


def test_threads_solve_at_once():
    game = gs.load_game("tic_tac_toe(size=3x4,k=3)")
    results = []

    def solve():
        results.append(gs.value(game.new_initial_state()))

    threads = [threading.Thread(target=solve) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 4 and len(set(results)) == 1
