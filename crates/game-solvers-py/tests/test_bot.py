"""game_solvers.Bot in OpenSpiel's own tools: pyspiel.evaluate_bots against OpenSpiel's MCTS
bot (C++, random rollouts) on tic_tac_toe, connect_four (from a position eight moves in: the
empty 7x6 board takes the solver minutes) and dots_and_boxes 2x2. A perfect player never ends
below the exact value of any position it had to move in; that is checked on every game, from
the solver's values along the game. Run by `cargo xtask test` (pyspiel from open-spiel)."""

import random
import time

import pyspiel
import pytest

import game_solvers as gs


def mcts(game, seed, simulations):
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 100, False, seed, False)


def sign(x):
    return (x > 0) - (x < 0)


# (game string, the moves played before the bots start, games per side, MCTS simulations,
# the start's exact value for player 0 in the game's points)
MATCHES = [
    ("tic_tac_toe", [], 3, 300, 0),
    ("dots_and_boxes(num_rows=2,num_cols=2)", [], 3, 300, 2),
    ("connect_four", [3, 3, 3, 3, 3, 3, 2, 2], 1, 300, 16),
]


@pytest.mark.parametrize("spec,opening,games,simulations,start_value", MATCHES)
def test_the_bot_never_loses_what_it_holds_against_mcts(spec, opening, games, simulations, start_value):
    game = pyspiel.load_game(spec)
    own_game = gs.load_game(spec)
    start = own_game.new_initial_state()
    for a in opening:
        start.apply_action(a)
    assert gs.value(start) * (1 if start.current_player() == 0 else -1) == start_value
    results = []
    for side in (0, 1):
        for seed in range(games):
            bot = gs.Bot(game, seed=seed)
            assert isinstance(bot, pyspiel.Bot)
            bots = [bot, mcts(game, seed, simulations)] if side == 0 else [mcts(game, seed, simulations), bot]
            state = game.new_initial_state()
            for a in opening:
                state.apply_action(a)
            returns = pyspiel.evaluate_bots(state, bots, seed)
            assert state.is_terminal() and returns == state.returns()
            # Replayed here: at each of the bot's turns, the exact value it held (for it, the
            # whole game's points); it ends at least there.
            own = gs.load_game(spec).new_initial_state()
            held = []
            for a in state.history():
                if len(own.history()) >= len(opening) and own.current_player() == side:
                    values = gs.move_values(own)
                    held.append(max(values.values()))
                    # The move it played is one of the best.
                    assert values[a] == held[-1], (spec, state.history())
                own.apply_action(a)
            assert held, "the bot moved"
            final = own.points()[side]
            assert final >= max(held), (spec, side, seed, state.history(), held, final)
            assert own.returns() == returns
            # In particular never a loss from a won or drawn start.
            start_for_bot = start_value if side == 0 else -start_value
            assert returns[side] >= sign(start_for_bot), (spec, side, seed, state.history())
            results.append(returns[side])
    print(spec, "bot's returns:", results)


def test_the_bot_on_its_own_states_and_its_seeded_ties():
    # Every first move of tic-tac-toe draws: the seeded choice spreads over them, the same
    # seed gives the same move.
    game = gs.load_game("tic_tac_toe")
    firsts = {gs.Bot(game, seed=s).step(game.new_initial_state()) for s in range(30)}
    assert len(firsts) > 3 and firsts <= set(range(9))
    assert gs.Bot("tic_tac_toe", seed=4).step(game.new_initial_state()) == gs.Bot(game, seed=4).step(
        game.new_initial_state()
    )
    # A won position: the winning move, whatever the seed (x has 0 and 1, o has 3 and 4).
    state = game.new_initial_state()
    for a in [0, 3, 1, 4]:
        state.apply_action(a)
    for s in range(5):
        bot = gs.Bot(game, seed=s)
        assert bot.step(state) == 2 and bot.last_move_proven and bot.last_value == 5
    # restart / restart_at / inform_action, as pyspiel calls them.
    bot = gs.Bot(pyspiel.load_game("tic_tac_toe"), seed=1)
    theirs = pyspiel.load_game("tic_tac_toe").new_initial_state()
    bot.restart()
    theirs.apply_action(bot.step(theirs))
    bot.inform_action(theirs, 1, 4)
    theirs.apply_action(4)
    bot.restart_at(theirs)
    assert bot.step(theirs) in theirs.legal_actions()
    with pytest.raises(ValueError, match="chess"):
        gs.Bot(pyspiel.load_game("chess"))


def test_a_time_limit_per_move_falls_back_to_the_best_move_proven():
    # The empty 7x6 board without a book: no move is proven in 0.2 s; the bot still answers in
    # time.
    bot = gs.Bot("connect_four", seed=3, time_limit=0.2, book=False)
    state = pyspiel.load_game("connect_four").new_initial_state()
    start = time.monotonic()
    action = bot.step(state)
    assert time.monotonic() - start < 2.0
    assert action in range(7) and bot.last_move_proven is False
    # A limit long enough: every move proven, the best one played.
    state = gs.load_game("connect_four").new_initial_state()
    for a in [3, 3, 3, 3, 3, 3, 2, 2]:
        state.apply_action(a)
    bot = gs.Bot("connect_four", seed=3, time_limit=60.0)
    action = bot.step(state)
    values = gs.move_values(state)
    assert bot.last_move_proven and values[action] == max(values.values()) == bot.last_value == 16
    # A limit that proves some moves and not others: the move is the best of those proven.
    rng = random.Random(9)
    for limit in (0.02, 0.05, 0.1):
        bot = gs.Bot("connect_four", seed=rng.randrange(100), time_limit=limit, book=False)
        fresh = gs.load_game("connect_four").new_initial_state()
        for a in [3, 3, 3, 3, 3, 3]:
            fresh.apply_action(a)
        action = bot.step(fresh)
        assert action in fresh.legal_actions()
        if bot.last_value is not None:
            # What it believes of its move is true.
            fresh.apply_action(action)
            v = gs.value(fresh)
            assert bot.last_value == (v if fresh.current_player() == 0 else -v)
    with pytest.raises(ValueError, match="time_limit"):
        gs.Bot("tic_tac_toe", time_limit=-1)


WITHOUT_PYSPIEL = """
import sys
sys.modules["pyspiel"] = None  # `import pyspiel` raises ImportError
import game_solvers as gs
game = gs.load_game("tic_tac_toe")
state = game.new_initial_state()
for a in [0, 3, 1, 4]:
    state.apply_action(a)
bot = gs.Bot(game, seed=0)
print(type(bot).__mro__[1].__name__, bot.step(state), game.get_type().utility, state.get_type())
"""


def test_the_module_and_its_bot_work_without_pyspiel():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", WITHOUT_PYSPIEL], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["object", "2", "ZERO_SUM", "DECISION"]
