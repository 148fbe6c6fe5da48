//! The m,n,k-game (tic-tac-toe family): `k` in a row on a `rows x cols` board (at most 8 x 8)
//! wins; tic-tac-toe is 3,3,3.
//!
//! - [`Bitboard`]: a set of cells in a `u64`; a [`Position`] is two of them (x's and o's
//!   stones), the side to move and the winner if any. A [`Setup`] is an unvalidated position;
//!   `Position::try_from(setup)` checks that it can arise in play ([`PositionError`]).
//! - [`Geometry`]: board size and `k`, with the winning lines for any m, n, k (rows, columns,
//!   both diagonal directions) and the board's symmetries.
//! - [`parse_uva`] (UVa 10111 "Find the Winning Move": `?` blocks up to `$`) and [`parse_ccf`]
//!   (CCF CSP 201803-4 "棋局评估": T boards of `0 1 2`): lazy, validated, with line numbers and
//!   case numbers in their [`ParseError`]s. They never panic, whatever the input.
//! - [`MnkGame`]: the game for [`search_core::Engine`] under [`Scoring::WinLoss`] (UVa) or
//!   [`Scoring::EmptyPlusOne`] (CCF: a win scores empty cells + 1), with symmetry-canonical TT
//!   keys, cheap exact bounds and threat-first move ordering.
//! - [`MakerBreaker`]: the Maker-Breaker game on the same lines, a fast exact prover of "this
//!   player has no forced win" ([`WinningMove`] asks it first).
//! - [`WinningMove`] and [`BoardEval`]: the two contest questions, one solver per batch.
//!
//! ```
//! use tic_tac_toe::{parse_uva, Geometry, WinningMove};
//!
//! let input = "?\no...\n.ox.\n.xxx\nxooo\n$\n";
//! let mut solver = WinningMove::new(Geometry::UVA);
//! for case in parse_uva(input, Geometry::UVA) {
//!     let pos = case.unwrap().position;
//!     let cell = solver.find(&pos).unwrap().unwrap();
//!     assert_eq!(Geometry::UVA.row_col(cell), (0, 1));
//! }
//!
//! // The explanation: every move's value (x's side: +1 win, 0 draw, -1 loss) and the best line.
//! let pos = parse_uva(input, Geometry::UVA).next().unwrap().unwrap().position;
//! let analysis = solver.analyze(&pos).unwrap();
//! assert_eq!(analysis.value, 1);
//! assert!(analysis.best_moves().any(|m| Geometry::UVA.row_col(m.mv) == (0, 1)));
//! ```

mod bitboard;
mod front;
mod game;
mod geometry;
mod maker_breaker;
mod parse;
mod position;
mod solve;
mod symmetry;

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
pub use solve::{default_tt_bits, BoardEval, FindProgress, Question, WinningMove};
