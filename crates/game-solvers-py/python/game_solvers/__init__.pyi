"""Type stubs of game_solvers (the native module game_solvers._native).

Values are in the game's points as games-cli prints them (Triangle War: triangles; Connect
Four: Pons' score; tic-tac-toe: CCF 201803-4's score; the Young-diagram game: the score
margin), for the player to move unless said otherwise. Errors are ValueError with the CLI's
message.
"""

from typing import Dict, List, Optional, TypedDict

class SearchInterrupted(Exception):
    """A search stopped by its time limit: args = (message, lo, hi), the bounds proven on the
    value for the player to move."""

class MoveValue(TypedDict):
    action: int
    move: str
    value: int

class Analysis(TypedDict):
    value: int
    moves: List[MoveValue]
    pv: List[int]
    nodes: int

class Game:
    """A registered game with its board parameters (from load_game)."""
    @property
    def name(self) -> str: ...
    def parameters(self) -> Dict[str, str]: ...
    def new_initial_state(self) -> State: ...
    def new_state_from_text(self, text: str) -> State:
        """The position of one case of the game's judge input format."""

class State:
    def current_player(self) -> int:
        """0 or 1 for the player to move; -4 (OpenSpiel's terminal id) at the end."""
    def legal_actions(self) -> List[int]: ...
    def apply_action(self, action: int) -> None: ...
    def apply_text(self, text: str) -> int:
        """Plays a move in the game's notation; returns its action id."""
    def undo_action(self) -> None: ...
    def history(self) -> List[int]: ...
    def clone(self) -> State: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> List[float]:
        """Each player's final result in the game's points (0 before the end)."""
    def action_to_string(self, action: int) -> str: ...
    def setup_text(self) -> str:
        """The position as one case of the game's judge input format."""

def load_game(spec: str) -> Game:
    """`name` or `name(key=value,...)`, e.g. "triangle_war(side=4)", "connect_four(size=6x5)",
    "tic_tac_toe(size=4x4,k=3)", "young_chess(size=3x3,seed=7)", "dots_and_boxes(size=3x3)"."""
def registered_names() -> List[str]: ...
def value(state: State, *, time_limit: Optional[float] = None) -> int: ...
def move_values(state: State, *, time_limit: Optional[float] = None) -> Dict[int, int]: ...
def best_action(state: State, *, time_limit: Optional[float] = None) -> int: ...
def principal_variation(state: State, *, time_limit: Optional[float] = None) -> List[int]: ...
def analyze(state: State, *, time_limit: Optional[float] = None) -> Analysis: ...
