#![doc = include_str!("../README.md")]

mod dbn;
mod front;
mod game;
mod geometry;
mod judge;
mod position;
mod problem;
mod retrograde;

pub use dbn::{dbn_string, parse_dbn, parse_dbn_line, ParseError, ParseErrorKind};
pub use front::{diagram, open_boxes, parse_size, DotsAndBoxesFront};
pub use game::{
    engine, minimax, search_options, DotsAndBoxes, Solver, DEFER_PLIES, ETC_MIN_MOVES, SHARED_TT_MIN_LINES,
};
pub use geometry::{Geometry, GeometryError, Line, Orientation, MAX_LINES};
pub use judge::{default_tt_bits, Judge, TABLE_MAX_LINES};
pub use position::{Position, PositionError};
pub use problem::DotsAndBoxesProblem;
pub use retrograde::RetrogradeTable;
pub use search_core::Player;
/// The strings-and-coins parts of the game (line borders, the pruning rules with their proofs),
/// shared with Triangle War.
pub use strings_and_coins::{Border, Pruning};
