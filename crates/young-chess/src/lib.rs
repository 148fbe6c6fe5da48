#![doc = include_str!("../README.md")]

mod analysis;
pub mod dp;
mod front;
mod game;
mod memo;
mod parse;
mod problem;
mod scored;
mod staircase;

pub use analysis::analyze_start;
pub use front::{player_name, YoungChessFront, VALUE_NOTE};
pub use game::{Board, BoardError, YoungGame, MAX_SIDE_SUM, MAX_VALUE};
pub use memo::Memo;
pub use parse::{parse, parse_cell_text, parse_from, MoveError, ParseError, ParseErrorKind};
pub use problem::YoungChessProblem;
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
