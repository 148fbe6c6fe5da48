//! [`ScoredGame`]: the Young-diagram game with the history a player wants to see (the score so
//! far, who filled which cell) kept in the position but outside the TT key.

use std::sync::Arc;

use search_core::{Engine, Game, Player, Value};

use crate::{Board, Cell, Staircase, YoungGame};

/// Largest board (cells) a [`ScoredGame`] takes: the owners of the filled cells fit a `u128`.
pub const SCORED_MAX_CELLS: usize = 128;

/// A position of a [`ScoredGame`]: the staircase, Black's score minus White's so far, and which
/// cells Black filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredPosition {
    stair: Staircase,
    margin: Value,
    /// Bit `r * cols + c` is set if Black filled cell `(r, c)`.
    black: u128,
}

impl ScoredPosition {
    /// The staircase of filled cells.
    #[must_use]
    pub fn staircase(&self) -> Staircase {
        self.stair
    }

    /// Black's score minus White's so far.
    #[must_use]
    pub fn margin(&self) -> Value {
        self.margin
    }

    /// Who filled cell `(row, col)`: `Some(Player::First)` for Black, `Some(Player::Second)`
    /// for White, `None` if it is empty. `cols` is the board's width.
    #[must_use]
    pub fn owner(&self, row: usize, col: usize, cols: usize) -> Option<Player> {
        if !self.stair.is_filled(row, col) {
            None
        } else if self.black >> (row * cols + col) & 1 == 1 {
            Some(Player::First)
        } else {
            Some(Player::Second)
        }
    }
}

/// Why a [`ScoredGame`] cannot be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("boards of at most {SCORED_MAX_CELLS} cells can be played, found {rows} x {cols}")]
pub struct TooManyCells {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
}

/// The Young-diagram game on one board for a whole game's play (e.g. `games-cli play`): the
/// same moves, values and TT key as [`YoungGame`], with [`Game::banked`] reporting the score so
/// far, so that [`Engine::analyze`] gives final results. Owns its board (shared by clones).
#[derive(Clone, Debug)]
pub struct ScoredGame {
    board: Arc<Board>,
}

impl ScoredGame {
    /// The game on `board`.
    ///
    /// # Errors
    /// [`TooManyCells`] for boards of more than [`SCORED_MAX_CELLS`] cells.
    pub fn new(board: Board) -> Result<Self, TooManyCells> {
        let (rows, cols) = (board.rows(), board.cols());
        if rows * cols > SCORED_MAX_CELLS {
            return Err(TooManyCells { rows, cols });
        }
        Ok(ScoredGame { board: Arc::new(board) })
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The empty board, Black to move, nothing scored.
    #[must_use]
    pub fn start(&self) -> ScoredPosition {
        ScoredPosition { stair: self.board.start(), margin: 0, black: 0 }
    }

    /// A search-core solver for this game, with [`YoungGame::SEARCH_OPTIONS`].
    #[must_use]
    pub fn solver(self) -> Engine<Self> {
        Engine::with_options(self, YoungGame::SEARCH_OPTIONS)
    }

    fn inner(&self) -> YoungGame<'_> {
        YoungGame::new(&self.board)
    }
}

impl Game for ScoredGame {
    type Position = ScoredPosition;
    type Move = Cell;
    type Key = u64;

    fn to_move(&self, pos: &ScoredPosition) -> Player {
        self.inner().to_move(&pos.stair)
    }
    fn terminal_value(&self, pos: &ScoredPosition) -> Option<Value> {
        self.inner().terminal_value(&pos.stair)
    }
    fn generate_moves(&self, pos: &ScoredPosition, moves: &mut Vec<Cell>) {
        self.inner().generate_moves(&pos.stair, moves);
    }
    fn play(&self, pos: &ScoredPosition, mv: Cell) -> (ScoredPosition, Value) {
        let mover = self.to_move(pos);
        let (stair, gain) = self.inner().play(&pos.stair, mv);
        let bit = 1u128 << (usize::from(mv.row) * self.board.cols() + usize::from(mv.col));
        let black = if mover == Player::First { pos.black | bit } else { pos.black };
        (ScoredPosition { stair, margin: pos.margin + mover.sign() * gain, black }, gain)
    }
    fn key(&self, pos: &ScoredPosition) -> u64 {
        self.inner().key(&pos.stair)
    }
    fn order_moves(&self, pos: &ScoredPosition, moves: &mut [Cell]) {
        self.inner().order_moves(&pos.stair, moves);
    }
    fn banked(&self, pos: &ScoredPosition) -> Value {
        pos.margin
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_is_kept_outside_the_value() {
        let board = crate::parse("2 2\n1 2\n3 4\n5 6\n7 8\n").unwrap();
        let game = ScoredGame::new(board.clone()).unwrap();
        let plain = YoungGame::new(&board);
        let start = game.start();
        let (after, gain) = game.play(&start, Cell { row: 0, col: 0 });
        assert_eq!((gain, after.margin()), (1, 1));
        assert_eq!(after.owner(0, 0, 2), Some(Player::First));
        assert_eq!(after.owner(1, 1, 2), None);
        let (after2, _) = game.play(&after, Cell { row: 0, col: 1 });
        assert_eq!(after2.owner(0, 1, 2), Some(Player::Second));
        assert_eq!(after2.margin(), 1 - 6);
        // Same key and value as the plain game; the analysis adds the score so far.
        assert_eq!(game.key(&after2), plain.key(&after2.staircase()));
        let mut solver = game.solver();
        let rest = solver.solve(&after2);
        assert_eq!(rest, plain.solver().solve(&after2.staircase()));
        assert_eq!(solver.analyze(&after2).value, after2.margin() + rest);
        assert!(ScoredGame::new(Board::new(12, 11, vec![0; 132], vec![0; 132]).unwrap()).is_err());
    }
}
