#![doc = include_str!("../README.md")]

mod diagram;
mod front;
mod game;
mod geometry;
mod judge;
mod parse;
mod position;
mod problem;
mod pruning_text;
mod retrograde;

pub use diagram::diagram;
pub use front::TriangleWarFront;
pub use game::{Solver, TriangleWar, SEARCH_OPTIONS};
pub use geometry::{Geometry, GeometryError, Segment, MAX_SIDE};
pub use judge::{Judge, DEFAULT_TT_BITS, TABLE_MAX_SEGMENTS};
pub use parse::{
    parse_games, parse_games_from, parse_games_owned, parse_segment, GameRecord, Games, MoveError,
    ParseError, ParseErrorKind,
};
pub use position::{judge_text, Position, PositionError, SegmentSet};
pub use problem::TriangleWarProblem;
pub use pruning_text::{parse_pruning, pruning_text, PruningError, RULE_NAMES};
pub use retrograde::RetrogradeTable;
pub use search_core::Outcome;
pub use search_core::Player;
/// The strings-and-coins parts of the game (segment borders, the pruning rules with their
/// proofs, graph keys), shared with any dots-and-boxes-like game.
pub use strings_and_coins::{Border, Pruning};
