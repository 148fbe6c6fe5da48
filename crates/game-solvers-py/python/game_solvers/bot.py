"""game_solvers.Bot: a perfect player for OpenSpiel's tools (pyspiel.evaluate_bots, its
tournament and arena code). A subclass of pyspiel.Bot when pyspiel is importable."""

import random
import time

from . import _native
from ._native import Game, SearchInterrupted, State, load_game

try:  # pragma: no branch - which base depends on the environment
    import pyspiel

    _Base = pyspiel.Bot
except ImportError:  # game_solvers works without OpenSpiel; the bot is then a plain object
    pyspiel = None
    _Base = object


class Bot(_Base):
    """Plays a move proven best for the player to move: of the moves of the best exact value
    (value()'s points, banked ones included), one chosen by a random.Random(seed) (the same
    seed and positions give the same moves).

    With `time_limit` (seconds per move) the moves are solved one after the other until the
    limit; when it runs out, the move played is the best of those proven so far (a seeded
    choice among the legal moves when none was proven), and `last_move_proven` is False.
    `threads`, `tt_mib` and `book` (the path of an opening book of the game's board, or False
    for none, not even the bundled one) are the solving functions' keyword arguments; a book
    that cannot be read (OSError), is damaged or is of another game or board (ValueError) is
    refused here. The solver and its transposition
    table are kept from move to move (and across restarts).

    `game` is a pyspiel.Game of a game both libraries have, a game_solvers.Game, or a game
    string; ValueError for one this module lacks."""

    def __init__(self, game, *, seed=0, time_limit=None, threads=None, tt_mib=None, book=None):
        if _Base is not object:
            _Base.__init__(self)
        if isinstance(game, Game):
            self._game = game
        else:
            spec = game if isinstance(game, str) else str(game)
            try:
                self._game = load_game(spec)
            except ValueError as e:
                raise ValueError(f"the game {spec} is not one of game_solvers: {e}") from None
        if time_limit is not None and not (time_limit > 0 and time_limit <= 1e9):
            raise ValueError(f"time_limit: expected seconds in (0, 1e9], found {time_limit}")
        self._seed = seed
        self._rng = random.Random(seed)
        self._time_limit = time_limit
        if book is not None and book is not False:
            _native._check_book(self._game, book)
        self._options = {"threads": threads, "tt_mib": tt_mib, "book": book}
        self._state = self._game.new_initial_state()
        self.last_move_proven = None
        """Whether the last move played was proven best (False: the time limit ran out)."""
        self.last_value = None
        """The exact value of the last move played for the bot (value()'s points; with a time
        limit run out, the best proven so far; None when nothing was proven)."""

    # pyspiel.Bot's interface.

    def step(self, state):
        """The bot's action in `state` (a pyspiel.State or a game_solvers.State; not over)."""
        own = self._sync(state)
        if own.is_terminal():
            raise ValueError("the game is over: no action to take")
        return self._choose(own)

    def restart(self):
        """Back to the start of a new game (the seeded choices start again)."""
        self._rng = random.Random(self._seed)
        while self._state.history():
            self._state.undo_action()

    def restart_at(self, state):
        """Back to a game going on from `state`."""
        self._rng = random.Random(self._seed)
        self._sync(state)

    def inform_action(self, state, player_id, action):
        """Another player's action: nothing to do (step() reads the state it is given)."""

    def inform_actions(self, state, actions):
        """Simultaneous moves: none in these games."""

    def provides_policy(self):
        return False

    def is_clone_implemented(self):
        return False

    # The solving.

    def _sync(self, state):
        """This bot's own state moved to `state`'s position (undoing back to the common start
        of the two histories, so that the solver and its table are kept)."""
        actions = [int(a) for a in state.history()]
        own = self._state
        mine = own.history()
        common = 0
        while common < min(len(mine), len(actions)) and mine[common] == actions[common]:
            common += 1
        for _ in range(len(mine) - common):
            own.undo_action()
        try:
            for a in actions[common:]:
                own.apply_action(a)
        except ValueError as e:
            raise ValueError(f"the state's history {actions} is not a game of {self._game!r}: {e}") from None
        if own.current_player() != state.current_player() or sorted(own.legal_actions()) != sorted(
            state.legal_actions()
        ):
            raise ValueError(
                f"the state is not the position its history {actions} reaches in {self._game!r} "
                "(a dots_and_boxes state opened from a DBN string?)"
            )
        return own

    def _pick(self, values):
        best = max(values.values())
        self.last_value = best
        return self._rng.choice(sorted(a for a, v in values.items() if v == best))

    def _choose(self, own):
        if self._time_limit is None:
            self.last_move_proven = True
            return self._pick(_native.move_values(own, **self._options))
        deadline = time.monotonic() + self._time_limit
        mover = own.current_player()
        moves = own.legal_actions()
        proven = {}
        for a in moves:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            own.apply_action(a)
            try:
                if own.is_terminal():
                    proven[a] = own.points()[mover]
                else:
                    v = _native.value(own, time_limit=left, **self._options)
                    proven[a] = v if own.current_player() == mover else -v
            except SearchInterrupted:
                break
            finally:
                own.undo_action()
        self.last_move_proven = len(proven) == len(moves)
        if proven:
            return self._pick(proven)
        self.last_value = None
        return self._rng.choice(sorted(moves))
