"""Type stubs of game_solvers (the native module game_solvers._native).

Values (value(), move_values(), analyze(), State.points()) are exact game-theoretic values in
the game's points as games-cli prints them (Triangle War: the margin of triangles; Connect Four:
Pons' score, positive for a win, larger the sooner; tic-tac-toe / m,n,k: CCF 201803-4's score,
the empty cells plus one for a win; dots-and-boxes: the margin of boxes; the Young-diagram game:
the score margin), for the player to move, counting the points
already banked in the state's history (a state opened from a DBN string or a judge text
starts with what that text records: a DBN string owns no box). Errors: ValueError (itself, not
a subclass) with the CLI's message for every bad value (an action id out of range, text with a
lone surrogate, a number too large, a move without an action id: the Young-diagram game's
ids are row * 32 + column, for rows and columns up to 31); TypeError for an argument of another type; MemoryError
for a tt_mib beyond the memory available; a solve stopped by its time_limit raises
SearchInterrupted; Ctrl-C during a solve raises KeyboardInterrupt; an opening book (book=)
that cannot be read raises OSError, one that is damaged or of another game or board ValueError. No Rust panic reaches
Python: a bug of the module would be a RuntimeError.

Game strings are OpenSpiel's for the games it has (connect_four(rows,columns,x_in_row),
tic_tac_toe, mnk(m,n,k), dots_and_boxes(num_rows,num_cols,utility_margin)), and action ids
are OpenSpiel's there: the same string and the same ids mean the same game and moves in
pyspiel (cross-checked against open-spiel 2.0.2 by tests/test_openspiel.py).
"""

import os
from typing import Any, Dict, List, Literal, Optional, Protocol, TypedDict, Union

_BookPath = Union[str, "os.PathLike[str]", Literal[False]]
"""The path of an opening book file, or False for no book (book= of the solving functions and of Bot)."""

class SearchInterrupted(Exception):
    """A solve stopped by its time_limit before it proved its answer.

    args = (message, lo, hi): the value for the player to move is proven to lie in [lo, hi]
    (ints, in the game's points; None for a side on which nothing was proven yet). When the
    value itself was proven but the move values or the principal variation were not, lo == hi.
    """

class MoveValue(TypedDict):
    """One legal action in an analysis."""

    action: int
    """The action id (as in legal_actions())."""
    move: str
    """The action in the game's notation (as action_to_string)."""
    value: int
    """Its exact value for the player to move, the action's own gain included."""

class Analysis(TypedDict):
    """What analyze() returns."""

    value: int
    """The exact value for the player to move."""
    moves: List[MoveValue]
    """Every legal action with its value, best first (ties in the solver's order)."""
    pv: List[int]
    """A principal variation: action ids to the end of the game under perfect play."""
    nodes: int
    """Positions the analysis searched (0 if every answer came from the TT or a table)."""

class GameType:
    """Game.get_type(), as pyspiel.GameType: pyspiel's enum values when pyspiel is importable,
    their names as strings otherwise."""

    short_name: str
    """Game.short_name."""
    long_name: str
    """pyspiel's long name ("Connect Four", "Tic Tac Toe", "m,n,k-game", "Dots and Boxes",
    "Othello"), the project's title for the other games."""
    utility: Any
    """ZERO_SUM."""
    dynamics: Any
    """SEQUENTIAL."""
    chance_mode: Any
    """DETERMINISTIC."""
    information: Any
    """PERFECT_INFORMATION."""
    reward_model: Any
    """TERMINAL."""
    min_num_players: int
    max_num_players: int
    provides_observation_string: bool

class Game:
    """A registered game with its board parameters (from load_game)."""

    @property
    def name(self) -> str:
        """The registered name, e.g. "connect-four" (registered_names())."""
    def parameters(self) -> Dict[str, str]:
        """The board parameters in this project's names ("size": "7x6", "k": "3"), as
        load_game read them (OpenSpiel's translated: num_rows=2,num_cols=3 is size=2x3)."""
    def new_initial_state(self) -> State:
        """The start position (the empty board)."""
    @property
    def short_name(self) -> str:
        """The game string's name with `_`: OpenSpiel's short name for the games it has
        ("connect_four", "tic_tac_toe" or "mnk" as given, "dots_and_boxes", "othello")."""
    def num_players(self) -> int:
        """2."""
    def num_distinct_actions(self) -> int:
        """pyspiel's: action ids are 0 to this minus one (columns, cells, lines, segments;
        1024 for the Young-diagram game, whose ids are row * 32 + column; 65 for othello,
        whose ids are row * 8 + column on every board and 64 for the pass)."""
    def max_game_length(self) -> int:
        """The most actions a game lasts: every cell, line or segment played (the cells of
        the parameters' board for the Young-diagram game; for othello, as pyspiel's, two
        actions a square, 2 * size * size). pyspiel's for connect_four, tic_tac_toe, mnk,
        othello and square dots_and_boxes boards; OpenSpiel 2.0.2 says
        2 * (num_rows + 1) * num_cols for dots_and_boxes, fewer than its lines when
        num_rows > num_cols."""
    def get_type(self) -> GameType:
        """What kind of game, as pyspiel's Game.get_type()."""
    def deserialize_state(self, text: str) -> State:
        """The state of State.serialize()'s text (pyspiel's format: action ids one a line),
        replayed from the start. Raises ValueError for another text or an illegal action."""
    def new_state_from_text(self, text: str) -> State:
        """The position of one case of the game's judge input format: a POJ 1085 game (its
        moves played, so they can be undone), an LOJ 2471 pair of value tables, a CCF board
        or a UVa '?' block, a Connect Four move string ("4453"), a DBN string
        ("100000000000": one character per line in OpenSpiel's order, as pyspiel's
        new_initial_state(dbn)). Raises ValueError with the parser's message (line, column)."""

class State:
    """A position of a game in progress, with its history (undo_action). Solving functions
    take it; one state may be used from several threads (calls on it wait for each other; a
    solve holds the state from its check that the game is not over to its answer). States
    pickle (and copy.copy / copy.deepcopy) as their game, judge text and action history under
    a checksum: a damaged pickle raises ValueError when loaded."""

    def current_player(self) -> int:
        """0 or 1 for the player to move; -4 (OpenSpiel's TERMINAL id) at the end."""
    def legal_actions(self) -> List[int]:
        """The legal action ids (in the solver's generation order: sort them for OpenSpiel's
        ascending order); [] at the end."""
    def apply_action(self, action: int) -> None:
        """Plays `action`. Raises ValueError if it is not legal here (the message lists the
        legal ones) or not an action id."""
    def apply_text(self, text: str) -> int:
        """Plays a move in the game's notation ("4" for a column, "1,1" for a cell, "2 5"
        for a segment, "h 0,1" or a line number for dots-and-boxes); returns its action id.
        Raises ValueError with what was expected."""
    def undo_action(self) -> None:
        """Takes back the last action. Raises ValueError if none was played (a judge text's
        own moves can be undone)."""
    def history(self) -> List[int]:
        """The action ids played from the start (or from the judge text's start)."""
    def clone(self) -> State:
        """An independent copy (replayed from the start; its solver starts with an empty TT)."""
    def is_terminal(self) -> bool:
        """Whether the game is over."""
    def returns(self) -> List[float]:
        """[r0, r1], as pyspiel's for the same game string: 1.0 / 0.0 / -1.0 for each player's
        win, draw, loss (r1 == -r0), the margin of boxes for dots_and_boxes with
        utility_margin=true; [0.0, 0.0] before the end. The games of this project that
        OpenSpiel lacks (Triangle War, the Young-diagram game) and this project's own strings
        return win / draw / loss too. The exact result is points()."""
    def rewards(self) -> List[float]:
        """The rewards of the last action, as pyspiel's: returns() at the end, [0.0, 0.0]
        before (these games pay only at the end)."""
    def points(self) -> List[int]:
        """[p0, p1]: each player's exact final result in the game's points, the unit of
        value() (p1 == -p0; Connect Four and m,n,k: the final score of player 0, Pons' and
        CCF's; dots-and-boxes: the margin of boxes; Triangle War: of triangles), [0, 0]
        before the end."""
    def action_to_string(self, action: int) -> str:
        """An action (legal now or already played) in the game's notation. Raises
        ValueError for another id."""
    def setup_text(self) -> str:
        """The position as one case of the game's judge input format (for dots-and-boxes the
        DBN string, as pyspiel's dbn_string()), ending in a newline."""
    def __str__(self) -> str:
        """The board drawn as games-cli draws it (text lines)."""
    def get_game(self) -> Game:
        """The state's game."""
    def num_players(self) -> int:
        """2."""
    def num_distinct_actions(self) -> int:
        """get_game().num_distinct_actions()."""
    def max_game_length(self) -> int:
        """get_game().max_game_length()."""
    def get_type(self) -> Any:
        """pyspiel's StateType: TERMINAL at the end, DECISION before (pyspiel's enum values
        when pyspiel is importable, their names as strings otherwise)."""
    def legal_actions_mask(self, player: Optional[int] = None) -> List[int]:
        """pyspiel's: 1 for each legal action id, 0 for the others, num_distinct_actions()
        long; all 0 for a `player` not to move."""
    def observation_string(self, player: Optional[int] = None) -> str:
        """pyspiel's string for connect_four (rows top first, x / o / ., each ending in a
        newline), tic_tac_toe and mnk (rows joined by newlines), dots_and_boxes (drawn with
        box-drawing characters, a box marked 1 or 2 by the player who took it) and othello
        (who is to play, then the board between column letters and row numbers, x / o / -);
        str(state) for the other games. The same for both players (perfect information)."""
    def serialize(self) -> str:
        """pyspiel's format: the history's action ids one a line ("\\n" for none).
        Game.deserialize_state replays it from the start, so a state opened from a DBN string
        does not come back."""
    def child(self, action: int) -> State:
        """A copy with `action` played (its solver starts with an empty TT)."""
    def move_number(self) -> int:
        """len(history())."""
    def is_chance_node(self) -> bool:
        """False."""
    def is_simultaneous_node(self) -> bool:
        """False."""
    def is_player_node(self) -> bool:
        """not is_terminal()."""

class OpenSpielState(Protocol):
    """A pyspiel.State (what the solving functions read of it)."""

    def get_game(self) -> Any: ...
    def history(self) -> List[int]: ...
    def current_player(self) -> int: ...
    def legal_actions(self) -> List[int]: ...
    def is_terminal(self) -> bool: ...

AnyState = Union[State, OpenSpielState]

def as_state(state: AnyState) -> State:
    """`state` as this module's State: itself if it is one; a pyspiel.State of a game both
    libraries have, replayed from its history() (the same action ids) on
    load_game(str(state.get_game())), its position checked against pyspiel's (player to move,
    legal actions, the DBN string of dots_and_boxes). Raises ValueError naming the game or
    parameter this module lacks (chess, connect_four(x_in_row=5), mnk's 15x15 default), or
    when the history does not reach the state (a dots_and_boxes state pyspiel opened from a
    DBN string); TypeError for another object."""

def load_game(spec: str) -> Game:
    """Opens a game by name with board parameters: "name" or "name(key=value,...)", with `_` or
    `-` in the name. OpenSpiel's strings: "connect_four", "connect_four(rows=6,columns=7)",
    "tic_tac_toe", "mnk(m=4,n=4,k=4)" (m columns, n rows, boards up to 8x8 here),
    "dots_and_boxes(num_rows=3,num_cols=3)" (utility_margin=true or false: what returns()
    are, as in OpenSpiel). This project's: "triangle_war(side=4)",
    "connect_four(size=6x5)" (columns x rows), "tic_tac_toe(size=4x4,k=3)" (rows x columns),
    "young_chess(size=3x3,seed=7)", "dots_and_boxes(size=3x3)" (rows x columns of boxes).
    Raises ValueError (unknown game, unknown parameter, a value out of range, both kinds of
    parameter mixed) with the CLI's message."""

def registered_names() -> List[str]:
    """The registered games' names, e.g. ["triangle-war", ..., "dots-and-boxes"]."""

# The solving functions. Each takes this module's State or a pyspiel.State (as_state: the same
# answers as for this module's state of the same history) and solves it exactly (it must not be
# terminal: ValueError),
# with the GIL released, so that other Python threads run and several threads can solve at
# once (different states in parallel; one state's solves wait for each other).
#
# Keyword arguments:
# - time_limit: seconds in (0, 1e9]; a solve not finished by then raises SearchInterrupted
#   with the bounds proven. None (default): no limit.
# - threads: search threads, 1 to 256 (lazy SMP above 1); None: the game's default (1).
# - tt_mib: the transposition table's size in MiB, 1 to the machine's memory (the largest
#   power of two of entries that fits); more than the memory available now (MemAvailable of
#   /proc/meminfo) raises MemoryError before any table is made; None: the game's default size.
# - book: the path (str or os.PathLike) of an opening book (`cargo xtask book`) of the state's
#   game and board, e.g. books/connect-four-7x6-p4.book for connect_four (7x6): the exact value
#   of every position within its depth of the start, which every search reads (a position of
#   the book costs one node; the values are the same as without it). The file is read and
#   verified (magic bytes, version, CRC-32) at the first call that names it and kept, by its
#   path, for later calls while its length and modification time are unchanged. A file that
#   cannot be read raises OSError (its subclass: FileNotFoundError, PermissionError, ...;
#   `filename` is the path); a file that is not an intact book (damaged, truncated, another
#   format) or a book of another game or board size raises ValueError("opening book PATH:
#   REASON"). Only Connect Four has books: any book given for another game raises ValueError.
#   None (default): the book bundled for the board, if any (connect_four 7x6: every position
#   within 8 plies of the start); False: no book at all.
# A state's solver keeps its TT between calls made with the same threads, tt_mib and book; other
# values make a fresh solver. Bad values raise ValueError (wrong types TypeError). Ctrl-C stops a solve within
# about 50 ms plus a few thousand nodes: KeyboardInterrupt, the state still usable.

def value(
    state: AnyState,
    *,
    time_limit: Optional[float] = None,
    threads: Optional[int] = None,
    tt_mib: Optional[int] = None,
    book: Optional[_BookPath] = None,
) -> int:
    """The exact value of `state` for the player to move (one search: no move values).
    Raises ValueError, OSError (book=), SearchInterrupted, KeyboardInterrupt as above.

    With an opening book of the board:

        game = load_game("connect_four")
        value(game.new_initial_state(), book="books/connect-four-7x6-p4.book")  # 1, from the book
    """

def move_values(
    state: AnyState,
    *,
    time_limit: Optional[float] = None,
    threads: Optional[int] = None,
    tt_mib: Optional[int] = None,
    book: Optional[_BookPath] = None,
) -> Dict[int, int]:
    """{action id: exact value for the player to move} for every legal action (the action's
    own gain included: max(values) == value(state)). Raises as value()."""

def best_action(
    state: AnyState,
    *,
    time_limit: Optional[float] = None,
    threads: Optional[int] = None,
    tt_mib: Optional[int] = None,
    book: Optional[_BookPath] = None,
) -> int:
    """A best action: the first, in the solver's order, of the best value. Raises as value()."""

def principal_variation(
    state: AnyState,
    *,
    time_limit: Optional[float] = None,
    threads: Optional[int] = None,
    tt_mib: Optional[int] = None,
    book: Optional[_BookPath] = None,
) -> List[int]:
    """Action ids from `state` to the end of the game under perfect play by both sides.
    Raises as value()."""

def analyze(
    state: AnyState,
    *,
    time_limit: Optional[float] = None,
    threads: Optional[int] = None,
    tt_mib: Optional[int] = None,
    book: Optional[_BookPath] = None,
) -> Analysis:
    """The value, every legal action's value (best first) and a principal variation, as
    plain data (see Analysis). Raises as value()."""

class Bot:
    """A perfect player for OpenSpiel's tools (pyspiel.evaluate_bots, tournaments, arenas): a
    subclass of pyspiel.Bot when pyspiel is importable (game_solvers.bot imports it).

    step() plays a move proven best for the player to move: of the moves of the best exact
    value (value()'s points, banked ones included), one chosen by random.Random(seed), so the
    same seed and positions give the same moves. With time_limit (seconds per move, in
    (0, 1e9]) the moves are solved one after the other until the limit; when it runs out the
    move is the best of those proven so far (a seeded legal move when none was), and
    last_move_proven is False. threads, tt_mib and book are the solving functions'; a book
    that cannot be read (OSError), is damaged or is of another game or board (ValueError) is
    refused by the constructor. The solver and its transposition table are kept from move to
    move. `game`: a pyspiel.Game of a game both
    libraries have, a Game, or a game string; ValueError for one this module lacks."""

    last_move_proven: Optional[bool]
    """Whether the last move played was proven best (None before the first move)."""
    last_value: Optional[int]
    """The exact value of the last move played for the bot, in value()'s points (with the time
    limit run out, the best proven so far; None when nothing was proven)."""

    def __init__(
        self,
        game: Any,
        *,
        seed: int = 0,
        time_limit: Optional[float] = None,
        threads: Optional[int] = None,
        tt_mib: Optional[int] = None,
        book: Optional[_BookPath] = None,
    ) -> None: ...
    def step(self, state: AnyState) -> int:
        """The bot's action in `state` (not over; its history replayed on the bot's own state).
        Raises ValueError for a finished game or a state of another game."""
    def restart(self) -> None:
        """Back to the start of a new game (the seeded choices start again)."""
    def restart_at(self, state: AnyState) -> None:
        """Back to a game going on from `state`."""
    def inform_action(self, state: AnyState, player_id: int, action: int) -> None:
        """Another player's action: nothing to do (step reads the state it is given)."""
