"""Exact solvers of two-player zero-sum games of perfect information, in OpenSpiel's terms.

Games come from the Rust registry of this project (``registered_names()``)::

    import game_solvers as gs
    game = gs.load_game("connect_four(rows=4,columns=5)")  # OpenSpiel's string, or size=5x4
    state = game.new_initial_state()
    state.apply_action(2)            # the middle column, 0-based (OpenSpiel's action id)
    print(gs.value(state))           # exact value for the player to move
    print(gs.analyze(state)["pv"])   # a principal variation as action ids

The solving functions take a ``pyspiel.State`` of a shared game as well (replayed here from its
``history()``: the action ids are the same), and ``book=``, the path (``str`` or
``os.PathLike``) of an opening book of the game's board (``cargo xtask book``): the positions
within its depth are answered from it, the same values in far fewer nodes (without it,
Connect Four 7x6 reads the book bundled with the module, every position within 8 plies)::

    game = gs.load_game("connect_four")                # 7x6
    book = "books/connect-four-7x6-p4.book"            # every position of up to 4 plies
    print(gs.value(game.new_initial_state(), book=book))   # 1, from the book
    print(gs.move_values(game.new_initial_state(), book=book))
    # {3: 1, 2: 0, 4: 0, 1: -1, 5: -1, 0: -2, 6: -2}

A file that cannot be read raises OSError (FileNotFoundError, ...); one that is not an intact
book file, or a book of another game or board, raises ValueError naming the file and the reason.
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


def value(state, *, time_limit=None, threads=None, tt_mib=None, book=None):
    """The exact value of `state` for the player to move (see the stubs, __init__.pyi).

    `book`: the path of an opening book of the game's board (read once, kept while the file is
    unchanged); OSError if it cannot be read, ValueError if it is damaged or of another board;
    None: the book bundled for the board, if any; False: no book."""
    return _native.value(
        as_state(state), time_limit=time_limit, threads=threads, tt_mib=tt_mib, book=book
    )


def move_values(state, *, time_limit=None, threads=None, tt_mib=None, book=None):
    """{action id: exact value for the player to move} for every legal action."""
    return _native.move_values(
        as_state(state), time_limit=time_limit, threads=threads, tt_mib=tt_mib, book=book
    )


def best_action(state, *, time_limit=None, threads=None, tt_mib=None, book=None):
    """A best action: the first, in the solver's order, of the best value."""
    return _native.best_action(
        as_state(state), time_limit=time_limit, threads=threads, tt_mib=tt_mib, book=book
    )


def principal_variation(state, *, time_limit=None, threads=None, tt_mib=None, book=None):
    """Action ids from `state` to the end of the game under perfect play by both sides."""
    return _native.principal_variation(
        as_state(state), time_limit=time_limit, threads=threads, tt_mib=tt_mib, book=book
    )


def analyze(state, *, time_limit=None, threads=None, tt_mib=None, book=None):
    """The value, every legal action's value (best first) and a principal variation."""
    return _native.analyze(
        as_state(state), time_limit=time_limit, threads=threads, tt_mib=tt_mib, book=book
    )


# pyspiel's methods of games and states, with pyspiel's meaning (on this module's classes).

# pyspiel's long names of the games it shares; the others use this project's titles.
_LONG_NAMES = {
    "connect_four": "Connect Four",
    "tic_tac_toe": "Tic Tac Toe",
    "mnk": "m,n,k-game",
    "dots_and_boxes": "Dots and Boxes",
    "triangle_war": "Triangle War",
    "young_chess": "Young-diagram game",
    "othello": "Othello",
}


class GameType:
    """What Game.get_type() says, as pyspiel.GameType: short_name and long_name (pyspiel's for
    the games it shares), utility (ZERO_SUM), dynamics (SEQUENTIAL), chance_mode
    (DETERMINISTIC), information (PERFECT_INFORMATION), reward_model (TERMINAL): pyspiel's enum
    values when pyspiel is importable, their names as strings otherwise."""

    def __init__(self, short_name):
        self.short_name = short_name
        self.long_name = _LONG_NAMES.get(short_name, short_name)
        try:
            import pyspiel

            kinds = pyspiel.GameType
            self.utility = kinds.Utility.ZERO_SUM
            self.dynamics = kinds.Dynamics.SEQUENTIAL
            self.chance_mode = kinds.ChanceMode.DETERMINISTIC
            self.information = kinds.Information.PERFECT_INFORMATION
            self.reward_model = kinds.RewardModel.TERMINAL
        except ImportError:
            self.utility, self.dynamics, self.chance_mode = "ZERO_SUM", "SEQUENTIAL", "DETERMINISTIC"
            self.information, self.reward_model = "PERFECT_INFORMATION", "TERMINAL"
        self.min_num_players = self.max_num_players = 2
        self.provides_observation_string = True

    def __repr__(self):
        return f"GameType(short_name={self.short_name!r}, long_name={self.long_name!r})"


def _size(game, default):
    a, b = game.parameters().get("size", default).lower().split("x")
    return int(a), int(b)


# (name, parameters) -> (num_distinct_actions, max_game_length): a state opened to count
# them makes a solver with its table, so each game is counted once.
_DIMENSIONS = {}


def _dimensions(game):
    key = (game.name, tuple(sorted(game.parameters().items())))
    if key not in _DIMENSIONS:
        if game.name == "young-chess":
            rows, columns = _size(game, "3x3")
            dims = (32 * 32, rows * columns)  # ids row * 32 + column; a cell a move
        elif game.name == "othello":
            # Squares row * 8 + column (every board in the 8x8 layout), the pass 64; as
            # pyspiel, a game of at most two actions a square (a disc, a pass).
            n = int(game.parameters().get("size", "8"))
            dims = (65, 2 * n * n)
        else:
            # Every action is legal at the start in the other games (columns, cells, lines,
            # segments), and each fills one cell, line or segment (a column: its cells).
            start = game.new_initial_state().legal_actions()
            longest = len(start)
            if game.name == "connect-four":
                columns, rows = _size(game, "7x6")
                longest = columns * rows
            dims = (max(start) + 1, longest)
        _DIMENSIONS[key] = dims
    return _DIMENSIONS[key]


def _num_distinct_actions(game):
    """pyspiel's: action ids are 0 to this minus one (the Young-diagram game's: row * 32 + column)."""
    return _dimensions(game)[0]


def _max_game_length(game):
    """pyspiel's: the most actions a game can last (every cell, line or segment played)."""
    return _dimensions(game)[1]


def _deserialize_state(game, text):
    state = game.new_initial_state()
    try:
        actions = [int(line) for line in text.split("\n") if line.strip()]
    except ValueError:
        raise ValueError(f"not a serialized state (action ids one a line): {text[:40]!r}") from None
    for a in actions:
        state.apply_action(a)
    return state


Game.num_players = lambda self: 2
Game.num_players.__doc__ = "2: these are two-player games."
Game.num_distinct_actions = _num_distinct_actions
Game.max_game_length = _max_game_length
Game.get_type = lambda self: GameType(self.short_name)
Game.deserialize_state = _deserialize_state
Game.__str__ = lambda self: repr(self)[len("load_game(\"") : -len("\")")]


def _legal_actions_mask(self, player=None):
    """pyspiel's: 1 for each legal action id, 0 for the others, num_distinct_actions() long
    (all 0 for a player not to move)."""
    size = self.get_game().num_distinct_actions()
    if player is not None and player != self.current_player():
        return [0] * size
    mask = [0] * size
    for a in self.legal_actions():
        mask[a] = 1
    return mask


def _dots_and_boxes_string(state):
    """pyspiel's drawing of a dots_and_boxes state: corners ┌ ┬ ┐ / ├ ┼ ┤ / └ ┴ ┘, a line
    drawn ─── or │, undrawn ╴ ╶ or a space, a box taken by player 0 or 1 marked 1 or 2."""
    rows, cols = _size(state.get_game(), "2x2")
    horizontal = (rows + 1) * cols
    lines = [c == "1" for c in state.setup_text().strip()]
    history = state.history()
    for a in history:  # the start: the judge text's lines, player 0 to move, no box owned
        lines[a] = False
    owner = {}

    def sides(i, j):
        top, bottom = i * cols + j, (i + 1) * cols + j
        left = horizontal + i * (cols + 1) + j
        return (top, bottom, left, left + 1)

    mover = 0
    for a in history:
        lines[a] = True
        if a < horizontal:
            i, j = divmod(a, cols)
            boxes = [(r, j) for r in (i - 1, i) if 0 <= r < rows]
        else:
            i, j = divmod(a - horizontal, cols + 1)
            boxes = [(i, c) for c in (j - 1, j) if 0 <= c < cols]
        done = [b for b in boxes if all(lines[k] for k in sides(*b))]
        for b in done:
            owner[b] = mover + 1
        if not done:
            mover ^= 1
    out = []
    for i in range(rows + 1):
        left, mid, right = ("┌", "┬", "┐") if i == 0 else ("└", "┴", "┘") if i == rows else ("├", "┼", "┤")
        cells = ["───" if lines[i * cols + j] else "╴ ╶" for j in range(cols)]
        out.append(left + mid.join(cells) + right + "\n")
        if i < rows:
            row = ""
            for j in range(cols + 1):
                row += "│" if lines[horizontal + i * (cols + 1) + j] else " "
                if j < cols:
                    row += f" {owner[(i, j)]} " if (i, j) in owner else "   "
            out.append(row + "\n")
    return "".join(out)


def _othello_string(state):
    """pyspiel's drawing of an othello state: who is to play (or that the game is over), then
    the board between lines of column letters, each row between its number, x / o / -."""
    lines = [line for line in str(state).splitlines() if line.strip()]
    letters = lines[0].split()
    player = state.current_player()
    head = "Terminal State:" if player < 0 else ("Black (x) to play:", "White (o) to play:")[player]
    edge = "  " + " ".join(letters) + "  "
    rows = []
    for line in lines[1:]:
        number, *cells = line.split()
        marks = " ".join({"X": "x", "O": "o"}.get(c, "-") for c in cells)
        rows.append(f"{number} {marks} {number}")
    return "\n".join([head, edge, *rows, edge])


def _observation_string(self, player=None):
    """pyspiel's ObservationString: the board as pyspiel draws it for connect_four (rows top
    first, x / o / ., each ending in a newline), tic_tac_toe and mnk (rows joined by newlines),
    dots_and_boxes (box-drawing characters, a box marked 1 or 2 by its owner) and othello (who
    is to play, the board between column letters and row numbers, x / o / -); str(state) for
    the other games. The same for both players (perfect information)."""
    name = self.get_game().name
    lines = [line for line in str(self).splitlines() if line.strip()]
    if name == "connect-four":
        return "".join(line.lower() + "\n" for line in lines[:-1])
    if name == "tic-tac-toe":
        return "\n".join("".join(line.split()[1:]) for line in lines[1:])
    if name == "dots-and-boxes":
        return _dots_and_boxes_string(self)
    if name == "othello":
        return _othello_string(self)
    return str(self)


def _serialize(self):
    """pyspiel's State.serialize(): the history's action ids one a line (Game.deserialize_state
    replays it from the start; a state opened from a judge text is replayed from the start)."""
    return "".join(f"{a}\n" for a in self.history()) or "\n"


def _child(self, action):
    """A copy with `action` played (pyspiel's child)."""
    copy = self.clone()
    copy.apply_action(action)
    return copy


State.legal_actions_mask = _legal_actions_mask
State.observation_string = _observation_string
State.serialize = _serialize
State.child = _child
State.num_distinct_actions = lambda self: self.get_game().num_distinct_actions()
State.max_game_length = lambda self: self.get_game().max_game_length()
State.num_players = lambda self: 2


def _state_type(self):
    """pyspiel's State.get_type(): StateType.TERMINAL at the end, DECISION before (pyspiel's
    enum values when pyspiel is importable, their names as strings otherwise)."""
    name = "TERMINAL" if self.is_terminal() else "DECISION"
    try:
        import pyspiel

        return getattr(pyspiel.StateType, name)
    except ImportError:
        return name


State.get_type = _state_type
State.is_chance_node = lambda self: False
State.is_simultaneous_node = lambda self: False
State.is_player_node = lambda self: not self.is_terminal()
State.move_number = lambda self: len(self.history())


def __getattr__(name):
    # game_solvers.Bot, from its own module on first use: importing it imports pyspiel.
    if name == "Bot":
        from .bot import Bot

        return Bot
    raise AttributeError(f"module 'game_solvers' has no attribute {name!r}")


__all__ = [
    "Bot",
    "Game",
    "GameType",
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
