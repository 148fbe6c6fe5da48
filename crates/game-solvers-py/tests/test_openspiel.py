"""Cross-checks of game_solvers against OpenSpiel itself (the `open-spiel` package on PyPI,
`pyspiel`), on the five games both libraries have: connect_four, tic_tac_toe, mnk,
dots_and_boxes and othello. Each game string is given to both libraries unchanged (OpenSpiel's
names and parameters). On random games from fixed seeds, after every move: the same legal
actions, the same player to move, the same board (OpenSpiel's `str(state)`, its DBN string for
dots_and_boxes, the squares of an OBF line for othello), the same terminal states, and exactly
the same returns and rewards (1 / 0 / -1, or margins of boxes with `utility_margin=true`); and
OpenSpiel's own exact search (`open_spiel.python.algorithms.minimax.alpha_beta_search`, plain
alpha-beta without a TT) agreeing with our values: exactly for dots_and_boxes with
`utility_margin=true` (both are margins of boxes), by sign for the others (OpenSpiel scores a
win 1, a draw 0, a loss -1; we score Pons' Connect Four score, CCF 201803-4's tic-tac-toe
score and Othello's disc difference, whose signs say the same).
Run by `cargo xtask test`, which installs `open-spiel` into target/py-venv when missing."""

import random

import pyspiel
import pytest
from open_spiel.python.algorithms import minimax

import game_solvers as gs

# Game strings both libraries load, each meaning the same game.
RULES = [
    "connect_four",
    "connect_four(rows=4,columns=5)",
    "connect_four(rows=5,columns=4,x_in_row=4)",
    "tic_tac_toe",
    "mnk(m=3,n=3,k=3)",
    "mnk(m=4,n=3,k=3)",
    "mnk(m=3,n=5,k=3)",
    "mnk(m=4,n=4,k=4)",
    "dots_and_boxes",
    "dots_and_boxes(num_rows=1,num_cols=1)",
    "dots_and_boxes(num_rows=2,num_cols=3)",
    "dots_and_boxes(num_rows=3,num_cols=2)",
    "dots_and_boxes(num_rows=3,num_cols=3,utility_margin=true)",
    "dots_and_boxes(num_rows=1,num_cols=5,utility_margin=true)",
    "dots_and_boxes(num_rows=2,num_cols=2,utility_margin=false)",
    "dots_and_boxes(num_cols=3,num_rows=2,utility_margin=True)",
    "dots_and_boxes(utility_margin=true)",
    "othello",
]


def sign(x):
    return (x > 0) - (x < 0)


def board_rows(state):
    """Our drawing of an m,n,k or Connect Four board as OpenSpiel draws it: one string per
    row, top row first, `x` / `o` / `.`. Ours: m,n,k rows follow a header of column numbers
    and start with their row number; Connect Four's end with a line of column numbers."""
    lines = [line for line in str(state).splitlines() if line.strip()]
    if lines[0].split()[0] == "0":  # an m,n,k board's header: "  0 1 2"
        return ["".join(line.split()[1:]) for line in lines[1:]]
    return [line.lower() for line in lines[:-1]]


def othello_cells(state):
    """The 64 squares of a pyspiel othello state, row by row from the top left, x / o / -,
    read from its drawing: a header line, a line of column letters, eight rows `N cells N`."""
    rows = str(state).splitlines()[2:10]
    return "".join("".join(row.split()[1:-1]) for row in rows)


def same_position(spec, ours, theirs):
    """Asserts that our state and OpenSpiel's show the same position."""
    assert ours.is_terminal() == theirs.is_terminal()
    assert ours.current_player() == theirs.current_player()
    assert sorted(ours.legal_actions()) == theirs.legal_actions()
    # The same numbers, exactly: OpenSpiel's win / draw / loss, or its margins.
    assert ours.returns() == theirs.returns()
    assert ours.rewards() == theirs.rewards()
    if spec.startswith("dots_and_boxes"):
        # Our judge format for dots-and-boxes is the DBN string (OpenSpiel's DbnString).
        assert ours.setup_text().strip() == theirs.dbn_string()
    elif spec.startswith("othello"):
        # Our judge format for Othello is an OBF line: the 64 squares row by row from the
        # top left (X, O, -), then the side to move.
        board, side = ours.setup_text().split()
        assert othello_cells(theirs) == board.lower()
        if not theirs.is_terminal():
            assert side == "XO"[theirs.current_player()]
    else:
        assert board_rows(ours) == [row for row in str(theirs).splitlines() if row]


@pytest.mark.parametrize("spec", RULES)
def test_random_games_agree_move_by_move(spec):
    ours_game, their_game = gs.load_game(spec), pyspiel.load_game(spec)
    margin = "utility_margin=true" in spec.lower()
    rng = random.Random(spec)
    for _ in range(25):
        ours, theirs = ours_game.new_initial_state(), their_game.new_initial_state()
        same_position(spec, ours, theirs)
        while not theirs.is_terminal():
            action = rng.choice(theirs.legal_actions())
            # An action id names the same move in both libraries.
            ours.apply_action(action)
            theirs.apply_action(action)
            same_position(spec, ours, theirs)
        assert ours.current_player() == theirs.current_player() == pyspiel.PlayerId.TERMINAL
        assert ours.returns() == theirs.returns()
        # The exact result stays available in the game's points: its sign is the return's, and
        # with margins asked it is the return.
        points = ours.points()
        assert points[0] == -points[1]
        assert [sign(p) for p in points] == [sign(r) for r in theirs.returns()]
        if margin:
            assert [float(p) for p in points] == theirs.returns()


def late_positions(spec, count, left, seed):
    """`count` non-terminal positions of random games with at most `left` moves left to the
    longest end of the game (empty cells, undrawn lines), as (our state, OpenSpiel's)."""
    longest = pyspiel.load_game(spec).max_game_length()
    return random_positions(spec, count, seed, lambda theirs: longest - len(theirs.history()) > left)


def random_positions(spec, count, seed, going_on):
    """`count` non-terminal positions of seeded random games of `spec`, each played until
    `going_on(pyspiel's state)` is false, as (our state, pyspiel's)."""
    ours_game, their_game = gs.load_game(spec), pyspiel.load_game(spec)
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        ours, theirs = ours_game.new_initial_state(), their_game.new_initial_state()
        while not theirs.is_terminal() and going_on(theirs):
            action = rng.choice(theirs.legal_actions())
            ours.apply_action(action)
            theirs.apply_action(action)
        if not theirs.is_terminal():
            found.append((ours, theirs))
    return found


def othello_points(theirs):
    """Black's final disc difference of a finished pyspiel othello game under the FFO / WOF
    rule (the empty squares to the winner), counted on pyspiel's board."""
    cells = othello_cells(theirs)
    black, white, empty = (cells.count(c) for c in "xo-")
    diff = black - white
    return diff + sign(diff) * empty


def test_othello_random_games_agree_with_pyspiel():
    # A few hundred random games: the same action ids (row * 8 + column, the pass 64), the
    # same legal actions at every step (a forced pass as the single action 64), the same
    # board, the same end (neither side can play), the same returns; and our exact final
    # score is pyspiel's disc count with the empty squares given to the winner.
    ours_game, their_game = gs.load_game("othello"), pyspiel.load_game("othello")
    rng = random.Random("othello")
    passes = early_ends = wins = draws = 0
    # One state of ours, taken back to the start after each game (a new state makes a solver
    # with its table: a tenth of a second each).
    ours = ours_game.new_initial_state()
    for _ in range(300):
        while ours.history():
            ours.undo_action()
        theirs = their_game.new_initial_state()
        while True:
            same_position("othello", ours, theirs)
            assert ours.observation_string() == theirs.observation_string(0) == str(theirs)
            if theirs.is_terminal():
                break
            legal = theirs.legal_actions()
            if legal == [64]:
                passes += 1
                assert ours.action_to_string(64).lower() == "pass"
            else:
                assert 64 not in legal
            action = rng.choice(legal)
            assert ours.action_to_string(action).lower() == theirs.action_to_string(theirs.current_player(), action)
            ours.apply_action(action)
            theirs.apply_action(action)
        cells = othello_cells(theirs)
        early_ends += "-" in cells
        points = ours.points()
        assert points == [othello_points(theirs), -othello_points(theirs)]
        assert [sign(p) for p in points] == [sign(r) for r in theirs.returns()]
        wins += theirs.returns()[0] != 0
        draws += theirs.returns()[0] == 0
        # The history serializes as pyspiel's and replays in both.
        assert ours.serialize() == theirs.serialize()
        back = their_game.deserialize_state(ours.serialize())
        assert str(back) == str(theirs)
    # The games went through the cases compared: forced passes, games ending with empty
    # squares left, wins and draws.
    assert passes > 0 and early_ends > 0 and wins > 0 and draws > 0


def othello_late_positions(count, empties, seed):
    """`count` non-terminal othello positions of random games with at most `empties` empty
    squares, as (our state, pyspiel's)."""
    return random_positions("othello", count, seed, lambda theirs: othello_cells(theirs).count("-") > empties)


def test_othello_values_agree_with_openspiel_alpha_beta():
    # Late positions (at most 6 empty squares): each move's value for the player to move has
    # the sign of OpenSpiel's alpha-beta value of the child (win 1, draw 0, loss -1: a disc
    # count decides in both, empty squares going to the winner here).
    their_game = pyspiel.load_game("othello")
    for ours, theirs in othello_late_positions(12, 6, seed="othello late"):
        player = theirs.current_player()
        values = gs.move_values(ours)
        assert sorted(values) == theirs.legal_actions()
        for action in theirs.legal_actions():
            expected = openspiel_value(their_game, theirs.child(action), player)
            assert sign(values[action]) == expected, (theirs.history(), action)
        assert gs.value(theirs) == max(values.values())


def openspiel_value(game, state, player):
    """OpenSpiel's exact value of `state` for `player` by its alpha-beta search."""
    return minimax.alpha_beta_search(game, state=state, maximizing_player_id=player)[0]


# (game string, positions, moves left at most): small enough for OpenSpiel's
# alpha-beta in Python (no TT) to solve each position's moves in well under a second.
SEARCHED = [
    ("connect_four(rows=4,columns=5)", 12, 9),
    ("connect_four", 6, 11),
    ("tic_tac_toe", 20, 8),
    ("mnk(m=4,n=3,k=3)", 10, 8),
    ("mnk(m=4,n=4,k=4)", 10, 8),
    ("dots_and_boxes(num_rows=2,num_cols=2,utility_margin=true)", 10, 8),
    ("dots_and_boxes(num_rows=2,num_cols=3,utility_margin=true)", 10, 8),
    ("dots_and_boxes(num_rows=3,num_cols=3,utility_margin=true)", 10, 8),
    ("dots_and_boxes(num_rows=3,num_cols=3)", 5, 7),
]


@pytest.mark.parametrize("spec,count,left", SEARCHED)
def test_values_agree_with_openspiel_alpha_beta(spec, count, left):
    their_game = pyspiel.load_game(spec)
    exact = "utility_margin=true" in spec
    for ours, theirs in late_positions(spec, count, left, seed=spec):
        player = theirs.current_player()
        values = gs.move_values(ours)
        assert sorted(values) == theirs.legal_actions()
        for action in theirs.legal_actions():
            # Each move's value for the player to move, from OpenSpiel's search of the child
            # (whole-game margins on both sides: the boxes taken so far count in both).
            expected = openspiel_value(their_game, theirs.child(action), player)
            got = values[action]
            assert (got if exact else sign(got)) == expected, (spec, theirs.history(), action)
        assert gs.value(ours) == max(values.values())


@pytest.mark.parametrize("rows,cols", [(1, 1), (2, 2), (2, 3), (3, 3)])
def test_dbn_strings_open_the_same_positions(rows, cols):
    # A DBN string opens a position in both (ours: the judge format; OpenSpiel's:
    # new_initial_state(dbn)); the player to move is player 0 in both, nobody owns a box.
    spec = f"dots_and_boxes(num_rows={rows},num_cols={cols})"
    ours_game, their_game = gs.load_game(spec), pyspiel.load_game(spec)
    lines = their_game.num_distinct_actions()
    rng = random.Random(spec)
    for _ in range(50):
        dbn = "".join(rng.choice("0001") for _ in range(lines))
        ours, theirs = ours_game.new_state_from_text(dbn), their_game.new_initial_state(dbn)
        same_position(spec, ours, theirs)
        assert ours.observation_string() == theirs.observation_string(0)
        # Play on to the end: the same moves stay legal, the same boxes are taken.
        while not theirs.is_terminal():
            action = rng.choice(theirs.legal_actions())
            ours.apply_action(action)
            theirs.apply_action(action)
            same_position(spec, ours, theirs)
            assert ours.observation_string() == theirs.observation_string(0)
        assert ours.returns() == theirs.returns() and ours.returns() in ([1.0, -1.0], [0.0, 0.0], [-1.0, 1.0])


def test_empty_boards_agree_with_openspiel_alpha_beta():
    # Whole games OpenSpiel's alpha-beta solves in seconds: tic-tac-toe (a draw), 4x3 with
    # three in a row (a first-player win), dots-and-boxes 1x2 (0) and 2x2 (+2, Wilson's).
    for spec in [
        "tic_tac_toe",
        "mnk(m=4,n=3,k=3)",
        "dots_and_boxes(num_rows=1,num_cols=2,utility_margin=true)",
        "dots_and_boxes(num_rows=2,num_cols=2,utility_margin=true)",
    ]:
        game = pyspiel.load_game(spec)
        theirs = openspiel_value(game, game.new_initial_state(), 0)
        ours = gs.value(gs.load_game(spec).new_initial_state())
        if "utility_margin=true" in spec:
            assert ours == theirs, spec
        else:
            assert sign(ours) == theirs, spec


def test_openspiel_parameters_are_openspiels():
    # The parameter names we read are the ones pyspiel declares for these games.
    declared = {g.short_name: set(g.parameter_specification) for g in pyspiel.registered_games()}
    assert declared["connect_four"] == {"rows", "columns", "x_in_row", "egocentric_obs_tensor"}
    assert declared["mnk"] == {"m", "n", "k"}
    assert declared["dots_and_boxes"] == {"num_rows", "num_cols", "utility_margin"}
    assert declared["tic_tac_toe"] == set()
    assert declared["othello"] == set()
    # pyspiel's string of its game, `othello()`, loads ours.
    assert gs.load_game(str(pyspiel.load_game("othello"))).name == "othello"
    # Games OpenSpiel cannot be given here are refused with the CLI's message.
    with pytest.raises(ValueError, match="x_in_row"):
        gs.load_game("connect_four(x_in_row=5)")
    with pytest.raises(ValueError, match="--size"):
        gs.load_game("mnk")  # OpenSpiel's default 15x15 board: ours go up to 8x8


SOLVED = [
    ("connect_four(rows=4,columns=5)", 6),
    ("connect_four", 14),
    ("tic_tac_toe", 0),
    ("mnk(m=4,n=3,k=3)", 2),
    ("dots_and_boxes(num_rows=2,num_cols=2)", 3),
    ("dots_and_boxes(num_rows=2,num_cols=3,utility_margin=true)", 6),
    ("othello", 50),
]


@pytest.mark.parametrize("spec,moves", SOLVED)
def test_pyspiel_states_are_solved_directly(spec, moves):
    # A pyspiel state goes to every solving function as it is, with the answers of the
    # module's own state of the same history.
    their_game, ours_game = pyspiel.load_game(spec), gs.load_game(spec)
    rng = random.Random(spec)
    solved = 0
    while solved < 3:
        theirs, ours = their_game.new_initial_state(), ours_game.new_initial_state()
        for _ in range(moves + solved):
            if theirs.is_terminal():
                break
            a = rng.choice(theirs.legal_actions())
            theirs.apply_action(a)
            ours.apply_action(a)
        if theirs.is_terminal():
            continue
        assert gs.value(theirs) == gs.value(ours)
        values = gs.move_values(theirs)
        assert values == gs.move_values(ours) and sorted(values) == theirs.legal_actions()
        assert values[gs.best_action(theirs)] == max(values.values())
        assert gs.principal_variation(theirs) == gs.principal_variation(ours)
        # (`nodes` differs: our state's solver has its TT from the calls above.)
        mine, direct = gs.analyze(ours), gs.analyze(theirs)
        assert {k: direct[k] for k in ("value", "moves", "pv")} == {k: mine[k] for k in ("value", "moves", "pv")}
        assert gs.value(theirs, time_limit=60.0, threads=2, tt_mib=8) == gs.value(ours)
        # The pyspiel state is left as it was.
        assert theirs.history() == ours.history()
        solved += 1


def test_unsupported_pyspiel_states_raise_value_error_naming_them():
    for spec, named in [
        ("chess", "chess"),
        ("connect_four(x_in_row=5)", "x_in_row"),
        ("mnk", "mnk"),  # OpenSpiel's default 15x15 board: ours go up to 8x8
        ("kuhn_poker", "kuhn_poker"),
    ]:
        state = pyspiel.load_game(spec).new_initial_state()
        for solve in (gs.value, gs.move_values, gs.best_action, gs.principal_variation, gs.analyze):
            with pytest.raises(ValueError, match=named):
                solve(state)
    # A dots_and_boxes state opened from a DBN string: its lines are not in its history.
    dbn = pyspiel.load_game("dots_and_boxes").new_initial_state("100000000001")
    with pytest.raises(ValueError, match="DBN"):
        gs.value(dbn)
    # A finished game, as for the module's own states.
    done = pyspiel.load_game("tic_tac_toe").new_initial_state()
    for a in [0, 3, 1, 4, 2]:
        done.apply_action(a)
    with pytest.raises(ValueError, match="the game is over"):
        gs.value(done)
    with pytest.raises(TypeError, match="pyspiel.State"):
        gs.value([0, 3, 1])


@pytest.mark.parametrize("spec", RULES)
def test_pyspiel_methods_of_states_and_games_mean_the_same(spec):
    ours_game, their_game = gs.load_game(spec), pyspiel.load_game(spec)
    assert ours_game.num_players() == their_game.num_players() == 2
    assert ours_game.num_distinct_actions() == their_game.num_distinct_actions()
    ours_type, their_type = ours_game.get_type(), their_game.get_type()
    for field in ("short_name", "long_name", "utility", "dynamics", "chance_mode", "information", "reward_model"):
        assert getattr(ours_type, field) == getattr(their_type, field), field
    if spec.startswith("dots_and_boxes"):
        # The longest game draws every line. OpenSpiel 2.0.2 says 2 * (num_rows + 1) * num_cols,
        # the same number on square boards only (fewer than the lines when num_rows > num_cols).
        assert ours_game.max_game_length() == ours_game.num_distinct_actions()
        rows, cols = (their_game.get_parameters()[k] for k in ("num_rows", "num_cols"))
        assert their_game.max_game_length() == 2 * (rows + 1) * cols
        if rows == cols:
            assert ours_game.max_game_length() == their_game.max_game_length()
    else:
        assert ours_game.max_game_length() == their_game.max_game_length()
    rng = random.Random("methods " + spec)
    for _ in range(5):
        ours, theirs = ours_game.new_initial_state(), their_game.new_initial_state()
        while True:
            assert ours.serialize() == theirs.serialize()
            assert ours.move_number() == theirs.move_number()
            assert ours.num_distinct_actions() == theirs.num_distinct_actions()
            assert ours.get_type() == theirs.get_type()
            assert ours.get_game().get_type().short_name == theirs.get_game().get_type().short_name
            assert ours.is_player_node() == theirs.is_player_node() and not ours.is_chance_node()
            assert ours.legal_actions_mask() == theirs.legal_actions_mask()
            for player in (0, 1):
                assert ours.legal_actions_mask(player) == theirs.legal_actions_mask(player)
                assert ours.observation_string(player) == theirs.observation_string(player)
            if theirs.is_terminal():
                break
            action = rng.choice(theirs.legal_actions())
            ours.apply_action(action)
            theirs.apply_action(action)
        # A copy from the serialized history, and a child, as pyspiel's (once a game: each
        # new state makes a solver with its table).
        back = ours_game.deserialize_state(theirs.serialize())
        assert back.history() == theirs.history() and back.returns() == theirs.returns()
    assert str(ours.get_game()) == str(ours_game)
    start = ours_game.new_initial_state()
    action = start.legal_actions()[-1]
    assert start.child(action).history() == [action] and start.history() == []
    with pytest.raises(ValueError, match="not a serialized state"):
        ours_game.deserialize_state("3\nx\n")
