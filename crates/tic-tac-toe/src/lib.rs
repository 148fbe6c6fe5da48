#![doc = include_str!("../README.md")]

mod bitboard;
mod front;
mod game;
mod geometry;
mod maker_breaker;
mod parse;
mod position;
mod problem;
mod solve;
mod symmetry;
mod zone;

pub use bitboard::Bitboard;
pub use front::TicTacToeFront;
pub use game::{MnkGame, Scoring, SolveError};
pub use geometry::{Geometry, GeometryError};
pub use maker_breaker::{MakerBreaker, MbPosition};
pub use parse::{
    parse_ccf, parse_ccf_from, parse_cell_text, parse_uva, parse_uva_from, Case, CcfCases, MoveError,
    ParseError, ParseErrorKind, UvaCases,
};
pub use position::{Cell, Mark, PlayError, Position, PositionError, Setup};
pub use problem::{BoardEvalProblem, WinningMoveProblem};
pub use solve::{default_tt_bits, BoardEval, FindProgress, Question, WinningMove};
pub use zone::{verify_pairing, ProofTableError, ZoneOptions, ZoneProof, ZoneProver};
