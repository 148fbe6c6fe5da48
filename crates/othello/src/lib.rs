#![doc = include_str!("../README.md")]
//!
//! The crate root: the modules (bitboards, board geometry, the lines through a square,
//! positions and rules, OBF lines, the endgame code, the evaluation and its patterns, the
//! game, the front) and what they export.

mod bitboard;
mod endgame;
mod eval;
mod front;
mod game;
mod geometry;
mod lines;
mod obf;
mod patterns;
mod position;
mod problem;

pub use bitboard::{Bitboard, Square};
pub use endgame::solve_endgame;
pub use eval::{evaluation_terms, DISC, EVAL_TERMS, EVAL_WEIGHTS, PATTERN_DIVISOR};
pub use front::{parse_size, OthelloFront};
pub use game::{
    engine, search_options, Othello, DEFAULT_TT_BITS, ENDGAME_EMPTIES, MAX_SHALLOW_DEPTH,
    MAX_SHALLOW_DEPTH_8X8, REPLY_WEIGHT, REPLY_WEIGHT_8X8, SHALLOW_EMPTIES, STABILITY_EMPTIES,
};
pub use geometry::{Geometry, SizeError, MAX_SIZE, MIN_SIZE};
pub use obf::{
    answer_line, format_score, obf_line, parse_move_scores, parse_obf, parse_obf_line, side_char, ObfCase,
    ObfError,
};
pub use patterns::{
    colour_swapped, pattern_evaluation, pattern_features, PATTERN_INSTANCES, PATTERN_WEIGHTS,
};
pub use position::{colour_name, Move, PlayError, Position, Setup, SetupError};
pub use problem::OthelloProblem;
