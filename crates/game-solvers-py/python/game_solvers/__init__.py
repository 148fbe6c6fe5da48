"""Exact solvers of two-player zero-sum games of perfect information, in OpenSpiel's terms.

Games come from the Rust registry of this project (``registered_names()``)::

    import game_solvers as gs
    game = gs.load_game("connect_four(rows=4,columns=5)")  # OpenSpiel's string, or size=5x4
    state = game.new_initial_state()
    state.apply_action(2)            # the middle column, 0-based (OpenSpiel's action id)
    print(gs.value(state))           # exact value for the player to move
    print(gs.analyze(state)["pv"])   # a principal variation as action ids

The solving functions take a ``pyspiel.State`` of a shared game as well (replayed here from its
``history()``: the action ids are the same).
"""

from . import _native
from ._native import (
    Game,
    SearchInterrupted,
    State,
    load_game,
    registered_names,
)


def _state_from_pickle(data):
    """The state a pickle holds (State.__reduce__'s data); ValueError if it is damaged."""
    return _native._state_from_pickle(data)


def as_state(state):
    """`state` as this module's State: itself if it is one; a pyspiel.State (anything with
    ``get_game()`` and ``history()``) replayed from its history on the game of its game string
    (``str(state.get_game())``). Raises ValueError naming the game or parameter this module
    does not have, or when the replay does not reach the same position (a dots_and_boxes state
    opened from a DBN string has no history of those lines); TypeError for other objects."""
    if isinstance(state, State):
        return state
    get_game, history = getattr(state, "get_game", None), getattr(state, "history", None)
    if not (callable(get_game) and callable(history)):
        raise TypeError(f"expected a game_solvers.State or a pyspiel.State, found {type(state).__name__}")
    spec = str(get_game())
    try:
        game = load_game(spec)
    except ValueError as e:
        raise ValueError(f"the pyspiel game {spec} is not one of game_solvers: {e}") from None
    own = game.new_initial_state()
    actions = [int(a) for a in history()]
    try:
        for a in actions:
            own.apply_action(a)
    except ValueError as e:
        raise ValueError(f"the pyspiel state of {spec} does not replay from its history {actions}: {e}") from None
    same = (
        own.current_player() == state.current_player()
        and sorted(own.legal_actions()) == sorted(state.legal_actions())
        and own.is_terminal() == state.is_terminal()
    )
    dbn = getattr(state, "dbn_string", None)
    if same and callable(dbn):
        same = own.setup_text().strip() == dbn()
    if not same:
        raise ValueError(
            f"the pyspiel state of {spec} is not the position its history {actions} reaches from the "
            "start (a dots_and_boxes state opened from a DBN string?): open it with "
            "game_solvers' new_state_from_text instead"
        )
    return own


def value(state, *, time_limit=None, threads=None, tt_mib=None):
    """The exact value of `state` for the player to move (see the stubs, __init__.pyi)."""
    return _native.value(as_state(state), time_limit=time_limit, threads=threads, tt_mib=tt_mib)


def move_values(state, *, time_limit=None, threads=None, tt_mib=None):
    """{action id: exact value for the player to move} for every legal action."""
    return _native.move_values(as_state(state), time_limit=time_limit, threads=threads, tt_mib=tt_mib)


def best_action(state, *, time_limit=None, threads=None, tt_mib=None):
    """A best action: the first, in the solver's order, of the best value."""
    return _native.best_action(as_state(state), time_limit=time_limit, threads=threads, tt_mib=tt_mib)


def principal_variation(state, *, time_limit=None, threads=None, tt_mib=None):
    """Action ids from `state` to the end of the game under perfect play by both sides."""
    return _native.principal_variation(as_state(state), time_limit=time_limit, threads=threads, tt_mib=tt_mib)


def analyze(state, *, time_limit=None, threads=None, tt_mib=None):
    """The value, every legal action's value (best first) and a principal variation."""
    return _native.analyze(as_state(state), time_limit=time_limit, threads=threads, tt_mib=tt_mib)


def __getattr__(name):
    # game_solvers.Bot, from its own module on first use: importing it imports pyspiel.
    if name == "Bot":
        from .bot import Bot

        return Bot
    raise AttributeError(f"module 'game_solvers' has no attribute {name!r}")


__all__ = [
    "Bot",
    "Game",
    "SearchInterrupted",
    "State",
    "analyze",
    "as_state",
    "best_action",
    "load_game",
    "move_values",
    "principal_variation",
    "registered_names",
    "value",
]
