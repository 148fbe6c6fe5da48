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
    names = gs.registered_names()
    assert {"triangle-war", "young-chess", "tic-tac-toe", "connect-four", "dots-and-boxes"} <= set(names)
    # Every registered game loads by its name and starts unfinished.
    for name in names:
        assert not gs.load_game(name).new_initial_state().is_terminal(), name


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
        r, p = state.returns(), state.points()
        assert r[0] == -r[1] and r[0] in (1.0, 0.0, -1.0) and p[0] == -p[1]
        assert r[0] == (p[0] > 0) - (p[0] < 0) and state.rewards() == r
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
    # beyond 50 ms of search without a book: the bounds proven by then hold that value.
    state = gs.load_game("connect_four").new_initial_state()
    for solve in (gs.value, gs.analyze):
        with pytest.raises(gs.SearchInterrupted) as stopped:
            solve(state, time_limit=0.05, book=False)
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
        (dict(tt_mib=1 << 40), "the total memory"),
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
    gs.value(state, book=False)  # the empty 7x6 board: far longer than this test waits
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
            gs.value(state, time_limit=1.0, book=False)
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


SOLVES = (gs.value, gs.move_values, gs.best_action, gs.principal_variation, gs.analyze)


def test_threads_changing_a_state_mid_solve_get_answers_or_value_errors():
    # One state, solved by two threads while a third plays random games on it to the end and
    # takes them back. Every call either answers for the position it saw or raises ValueError
    # (the game over when it started); no other error, no panic (PanicException is a
    # BaseException: caught here as such).
    state = gs.load_game("tic_tac_toe(size=3x4,k=3)").new_initial_state()
    stop = threading.Event()
    errors, answers, over = [], [], []

    def solver(seed):
        rng = random.Random(seed)
        while not stop.is_set():
            solve = rng.choice(SOLVES)
            try:
                answers.append((solve.__name__, solve(state)))
            except ValueError as e:
                assert "the game is over" in str(e), e
                over.append(e)
            except BaseException as e:  # noqa: BLE001 - the test is that nothing else comes
                errors.append(repr(e))

    def player():
        rng = random.Random(7)
        while not stop.is_set():
            try:
                while not state.is_terminal():
                    state.apply_action(rng.choice(state.legal_actions()))
                while state.history():
                    state.undo_action()
            except BaseException as e:  # noqa: BLE001
                errors.append(repr(e))

    threads = [threading.Thread(target=solver, args=(i,)) for i in range(2)] + [threading.Thread(target=player)]
    for t in threads:
        t.start()
    time.sleep(3.0)
    stop.set()
    for t in threads:
        t.join()
    assert errors == []
    assert len(answers) > 20, len(answers)
    for name, answer in answers:
        if name == "best_action":
            assert answer in range(12)
        elif name == "value":
            assert -13 <= answer <= 13


def test_several_threads_solve_their_own_states_at_once():
    # Four Python threads, each solving its own random positions of tic-tac-toe with every
    # solving function; the answers agree with a solve of the same position alone.
    game = gs.load_game("tic_tac_toe")
    rng = random.Random(11)
    positions = []
    while len(positions) < 40:
        s = game.new_initial_state()
        for _ in range(rng.randrange(0, 6)):
            s.apply_action(rng.choice(s.legal_actions()))
        if not s.is_terminal():
            positions.append(s.history())
    expected = {}
    for h in positions:
        s = game.new_initial_state()
        for a in h:
            s.apply_action(a)
        expected[tuple(h)] = (gs.value(s), gs.move_values(s))
    results, errors = {}, []

    def work(k):
        try:
            for h in positions[k::4]:
                s = game.new_initial_state()
                for a in h:
                    s.apply_action(a)
                values = gs.move_values(s, threads=2)
                best = gs.best_action(s)
                pv = gs.principal_variation(s)
                results[tuple(h)] = (gs.value(s), values)
                assert values[best] == max(values.values()) and pv[0] in values
        except BaseException as e:  # noqa: BLE001
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert results == expected


def meminfo_mib(field):
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) >> 10
    raise AssertionError(f"{field} not in /proc/meminfo")


def test_a_tt_beyond_the_memory_available_raises_memory_error():
    state = gs.load_game("tic_tac_toe").new_initial_state()
    total, available = meminfo_mib("MemTotal"), meminfo_mib("MemAvailable")
    assert available < total
    # More than is available now but not more than the machine has: MemoryError, raised before
    # any table is made (the process would abort on a failed allocation).
    asked = min(total, available + 1024)
    for solve in SOLVES:
        with pytest.raises(MemoryError, match=f"tt_mib: {asked} MiB asked, [0-9]+ MiB of memory available"):
            solve(state, tt_mib=asked)
    # Absurd values: ValueError.
    for absurd in (total + 1, 1 << 40, 10**30, 0, -5):
        with pytest.raises(ValueError, match="tt_mib: expected a whole number of MiB") as raised:
            gs.value(state, tt_mib=absurd)
        assert raised.type is ValueError
    # The state is still usable, with a table that fits.
    assert gs.value(state, tt_mib=4) == 0


def test_the_documented_error_types_are_raised():
    # ValueError itself (not OverflowError, not UnicodeEncodeError) for bad values.
    game = gs.load_game("connect_four(size=4x4)")
    state = game.new_initial_state()
    for bad in (
        lambda: state.apply_action(2**70),
        lambda: state.apply_action(-(2**70)),
        lambda: state.apply_action(70000),
        lambda: state.action_to_string(2**70),
        lambda: state.apply_text("\ud800"),
        lambda: gs.load_game("connect_four(size=\ud800)"),
        lambda: game.new_state_from_text("44\udfff"),
        lambda: gs.value(state, time_limit=10**400),
        lambda: gs.value(state, time_limit=float("inf")),
        lambda: gs.value(state, threads=2**70),
        lambda: gs.value(state, tt_mib=-(2**70)),
    ):
        with pytest.raises(ValueError) as raised:
            bad()
        assert raised.type is ValueError, raised.type
    # TypeError for arguments of another type, as Python's own functions.
    for bad in (
        lambda: state.apply_action("1"),
        lambda: state.apply_action(1.5),
        lambda: state.apply_text(4),
        lambda: gs.load_game(None),
        lambda: gs.value(state, time_limit="1"),
        lambda: gs.value("not a state"),
    ):
        with pytest.raises(TypeError):
            bad()
    # SearchInterrupted is an Exception (so `except Exception` sees it); the state is unharmed.
    assert issubclass(gs.SearchInterrupted, Exception)
    assert state.legal_actions() == [0, 1, 2, 3] and state.history() == []


PICKLED = [
    ("triangle_war", "1\n6\n2 4\n4 5\n5 9\n3 6\n2 5\n3 5\n", 3),
    ("connect_four", "4453", 5),
    ("dots_and_boxes(num_rows=2,num_cols=2)", "100000000000", 4),
    ("dots_and_boxes(num_rows=1,num_cols=2,utility_margin=true)", None, 4),
    ("young_chess(size=2x3,seed=7)", None, 2),
    ("tic_tac_toe", None, 4),
    ("mnk(m=4,n=3,k=3)", None, 0),
]


@pytest.mark.parametrize("spec,text,moves", PICKLED)
def test_states_pickle_and_copy_round_trip(spec, text, moves):
    import copy
    import pickle

    game = gs.load_game(spec)
    state = game.new_initial_state() if text is None else game.new_state_from_text(text)
    rng = random.Random(spec)
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    for back in (
        pickle.loads(pickle.dumps(state)),
        pickle.loads(pickle.dumps(state, protocol=0)),
        copy.copy(state),
        copy.deepcopy(state),
    ):
        assert isinstance(back, gs.State) and back is not state
        assert back.history() == state.history()
        assert str(back) == str(state) and back.setup_text() == state.setup_text()
        assert back.legal_actions() == state.legal_actions()
        assert back.returns() == state.returns() and back.points() == state.points()
        assert gs.value(back) == gs.value(state)
        # The judge text's own moves come back as moves (undone like the others).
        while back.history():
            back.undo_action()
        assert back.history() == []


def test_a_damaged_pickle_raises_value_error_and_is_never_believed():
    import pickle

    state = gs.load_game("connect_four").new_initial_state()
    for a in [3, 3, 2, 4]:
        state.apply_action(a)
    restore, (data,) = state.__reduce__()
    assert restore is gs._state_from_pickle
    assert restore(data).history() == [3, 3, 2, 4]
    fmt, name, params, margin, setup, history, check = data
    for damaged, message in [
        ((fmt, name, params, margin, setup, [3, 3, 2, 5], check), "checksum"),  # another legal game
        ((fmt, name, params, margin, setup, history, check ^ 1), "checksum"),
        ((fmt, "tic-tac-toe", params, margin, setup, history, check), "checksum"),
        ((fmt, name, params, (not margin[0], margin[1]), setup, history, check), "checksum"),
        ((fmt, name, params, (margin[0], "mnk"), setup, history, check), "checksum"),
        (("game_solvers.State/0", name, params, margin, setup, history, check), "format"),
        ((fmt, name, params, margin, setup, history), "not a game_solvers state pickle"),
        ((fmt, name, params, margin, setup, ["3"], check), "not a game_solvers state pickle"),
        ("connect-four 3 3 2 4", "not a game_solvers state pickle"),
        (None, "not a game_solvers state pickle"),
    ]:
        with pytest.raises(ValueError, match=message):
            restore(damaged)
    # Every single-bit flip of the pickled bytes either fails to load or gives back the same
    # state: a damaged pickle is never believed.
    blob = pickle.dumps(state)
    for i in range(len(blob)):
        for bit in (1, 4, 64):
            damaged = bytearray(blob)
            damaged[i] ^= bit
            try:
                back = pickle.loads(bytes(damaged))
            except Exception:  # noqa: BLE001 - any error is a refusal; ours is ValueError
                continue
            assert isinstance(back, gs.State), (i, bit, back)
            assert back.history() == state.history() and str(back) == str(state), (i, bit)


def test_moves_without_an_action_id_raise_value_error():
    # The Young-diagram game's action ids are row * 32 + column: a 1 x 40 board's cells
    # beyond column 31 have none. Reaching one is a ValueError saying so (not a crash).
    state = gs.load_game("young_chess(size=1x40)").new_initial_state()
    for _ in range(32):
        (action,) = state.legal_actions()
        state.apply_action(action)
    assert state.history() == list(range(32))
    for call in (state.legal_actions, lambda: gs.best_action(state), lambda: gs.principal_variation(state)):
        with pytest.raises(ValueError, match="no action id") as raised:
            call()
        assert raised.type is ValueError
    # The value needs no ids; the state is still usable.
    assert isinstance(gs.value(state), int)
    state.undo_action()
    assert state.legal_actions() == [31]
