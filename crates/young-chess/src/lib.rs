//! The Young-diagram game (LOJ 2471 "一双木棋", Luogu P4363, BZOJ 5248), solved exactly.
//!
//! An `n x m` board; Black (first player) and White alternately fill one cell each until the
//! board is full. A cell may be filled only when every cell above it in its column and left of it
//! in its row is filled, so the filled cells always form a Young diagram (a staircase anchored at
//! the top-left corner). Cell `(i, j)` is worth `A[i][j]` to Black and `B[i][j]` to White; each
//! player maximises their own score minus the opponent's. The answer is Black's score minus
//! White's under perfect play.
//!
//! - [`Board`] holds the two value matrices; [`parse`] reads the judge's text format with
//!   line-and-column errors ([`ParseError`]).
//! - [`Staircase`] is a position: the staircase boundary as a bit-packed lattice path.
//! - [`YoungGame`] implements [`search_core::Game`], so the generic engine (memoised negamax with
//!   alpha-beta) solves and analyses positions; it is the reference solver. [`ScoredGame`] is the
//!   same game with the score so far and the cells' owners in the position, for playing a game.
//! - [`dp`] is the dedicated solver: a dynamic programme over staircases, layer by layer by the
//!   number of filled cells, with each layer ranked without hashing, so that only two layers live
//!   in memory (16 x 16 in about 80 MB). [`dp::DpTable`] keeps every layer instead, for analysis.
//!
//! Values are `i64` margins. No I/O happens in this crate.
//!
//! ```
//! // LOJ 2471's sample: a 2 x 3 board, Black's values then White's.
//! let board = young_chess::parse("2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n").unwrap();
//! assert_eq!(young_chess::solve(&board).unwrap(), 2);
//!
//! // The explanation: every first move's value (Black's side) and a principal variation.
//! let analysis = young_chess::analyze_start(&board).unwrap();
//! assert_eq!(analysis.value, 2);
//! assert_eq!(analysis.pv.len(), 6);
//!
//! // The generic engine agrees with the DP.
//! let mut solver = young_chess::YoungGame::new(&board).solver();
//! assert_eq!(solver.solve(&board.start()), 2);
//! ```

mod analysis;
pub mod dp;
mod front;
mod game;
mod memo;
mod parse;
mod scored;
mod staircase;

pub use analysis::analyze_start;
pub use front::{player_name, YoungChessFront, VALUE_NOTE};
pub use game::{Board, BoardError, YoungGame, MAX_SIDE_SUM, MAX_VALUE};
pub use memo::Memo;
pub use parse::{parse, parse_cell_text, parse_from, MoveError, ParseError, ParseErrorKind};
pub use scored::{ScoredGame, ScoredPosition, TooManyCells, SCORED_MAX_CELLS};
pub use staircase::{Cell, Staircase};

/// The answer to the judge's question for `board`: Black's score minus White's under perfect
/// play from the empty board, computed by the layered [`dp`] (by [`Memo`] for thin boards with
/// `n + m > 48`). The memory needed is [`dp::memory_estimate`], which callers should check
/// first: this function allocates it.
///
/// # Errors
/// None at present for a valid [`Board`] ([`dp::DpError`] is kept for future limits).
pub fn solve(board: &Board) -> Result<i64, dp::DpError> {
    dp::solve(board)
}
