"""Exact solvers of two-player zero-sum games of perfect information, in OpenSpiel's terms.

Games come from the Rust registry of this project (``registered_names()``)::

    import game_solvers as gs
    game = gs.load_game("connect_four(rows=4,columns=5)")  # OpenSpiel's string, or size=5x4
    state = game.new_initial_state()
    state.apply_action(2)            # the middle column, 0-based (OpenSpiel's action id)
    print(gs.value(state))           # exact value for the player to move
    print(gs.analyze(state)["pv"])   # a principal variation as action ids
"""

from . import _native
from ._native import (
    Game,
    SearchInterrupted,
    State,
    analyze,
    best_action,
    load_game,
    move_values,
    principal_variation,
    registered_names,
    value,
)



def _state_from_pickle(data):
    """The state a pickle holds (State.__reduce__'s data); ValueError if it is damaged."""
    return _native._state_from_pickle(data)


__all__ = [
    "Game",
    "SearchInterrupted",
    "State",
    "analyze",
    "best_action",
    "load_game",
    "move_values",
    "principal_variation",
    "registered_names",
    "value",
]
