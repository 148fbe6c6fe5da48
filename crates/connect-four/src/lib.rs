#![doc = include_str!("../README.md")]

mod bundled;
mod front;
mod game;
mod geometry;
mod line;
mod position;
mod problem;
mod replies;
mod rules;
mod sizes;
mod solver;

pub use bundled::{bundled_book, bundled_replies, BUNDLED_BOOK_BYTES, BUNDLED_REPLIES_BYTES};
pub use front::{parse_position_line, parse_size, score_range, ConnectFourFront};
pub use game::ConnectFour;
pub use geometry::{Geometry, GeometryError};
pub use line::{format_line, parse_line, JudgeLine, LineError};
pub use position::{Board, Column, MoveError, PlayError, Position, Setup, SetupError};
pub use problem::ConnectFourProblem;
pub use replies::{strategy_walk, Replies, StrategyWalk};
pub use rules::PlainConnectFour;
pub use search_core::Outcome;
pub use sizes::{published, GameResult, PublishedResult, PUBLISHED};
pub use solver::{
    all_cores, search_options, Solver, DEFAULT_THREADS, DEFAULT_TT_BITS, ENDS_BUDGET, ENDS_MIN_EMPTY,
    ETC_SPAN, OPENING_STONES, PACKED_TT_BITS,
};
