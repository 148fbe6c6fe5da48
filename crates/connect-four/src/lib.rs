//! Connect Four: `k` in a row (four by default) on a board of `W` columns by `H` rows with
//! `W * (H + 1) <= 64` (7 x 6 by default), stones dropped into columns, and an exact solver.
//!
//! - [`Geometry`]: board size, `k`, and the classic bitboard layout (one `u64`, one column
//!   after another with a spare bit on top of each, as in J. Tromp's Fhourstones and P. Pons'
//!   solver).
//! - [`Position`]: a validated game from a move string (`"4453"`: columns 1-based from the
//!   left, first player first) and back; [`MoveError`] names the 1-based index of a refused
//!   character. [`Setup`] is an unvalidated size + moves; `Position::try_from(&setup)` checks
//!   it. Copy-make: [`Position::play`] / [`Position::try_play`] return a new position.
//! - [`ConnectFour`]: the game for [`search_core::Engine`]: immediate wins and forced blocks
//!   resolved before searching, moves that lose at once never generated, centre-first and
//!   threat-count move ordering, a TT keyed by the unique position code folded over the mirror,
//!   and score bounds from the number of stones left and from L. V. Allis' claimeven rule.
//! - [`Solver`]: [`Solver::score`] (exact, by null-window searches over the score),
//!   [`Solver::weak`] (win / draw / loss), [`Solver::analyze`] (every column's score and a PV).
//! - [`parse_line`] / [`format_line`]: the `MOVES SCORE` lines of Pons' test sets.
//! - [`GameResult`]: the winner and the move on which a perfect game ends, from a score;
//!   [`PUBLISHED`]: the published results of empty boards (J. Tromp, C. Steininger).
//!
//! # Scores
//! Pons' convention, from the side to move: with `n` stones on the board, winning with one's
//! next stone scores `(W * H + 1 - n) / 2` (on 7 x 6, a win with one's k-th stone scores
//! `22 - k`), a draw 0, a loss the negative of the winner's score. The faster the win, the
//! higher the score.
//!
//! ```
//! use connect_four::{Column, WinDrawLoss, Position, Solver};
//!
//! let pos = Position::from_moves("44444455")?; // 8 stones: column 4 full, two in column 5
//! let mut solver = Solver::default();
//! let score = solver.score(&pos);
//! assert_eq!(solver.weak(&pos), WinDrawLoss::of_score(score));
//!
//! let analysis = solver.analyze(&pos);
//! // Values in an Analysis are from the first player's side; the first player is to move here.
//! assert_eq!(analysis.value, i64::from(score));
//! let best = analysis.moves[0];
//! assert_eq!(best.value, analysis.value);
//! assert!(pos.can_play(best.mv.index()));
//! assert_eq!(analysis.pv[0], analysis.best_moves().map(|m| m.mv).min().unwrap());
//! # let _ = Column(0);
//! # Ok::<(), connect_four::MoveError>(())
//! ```
//!
//! # Sources
//! - J. Tromp, Fhourstones benchmark (the bitboard layout, threat-based pruning).
//! - P. Pons, "Solving Connect 4: how to build a perfect AI", blog.gamesolver.org (the score
//!   convention, the position code `current + mask`, non-losing move generation, ordering by
//!   threat count, iterative null-window search, the test sets).
//! - L. V. Allis, "A knowledge-based approach of Connect-Four" (1988) and J. D. Allen (1989):
//!   the standard game is a first-player win.

mod front;
mod game;
mod geometry;
mod line;
mod position;
mod rules;
mod sizes;
mod solver;

pub use front::{parse_position_line, parse_size, score_range, ConnectFourFront};
pub use game::ConnectFour;
pub use geometry::{Geometry, GeometryError};
pub use line::{format_line, parse_line, JudgeLine, LineError};
pub use position::{Board, Column, MoveError, PlayError, Position, Setup, SetupError};
pub use rules::PlainConnectFour;
pub use sizes::{published, GameResult, PublishedResult, PUBLISHED};
pub use solver::{
    all_cores, search_options, Solver, WinDrawLoss, DEFAULT_THREADS, DEFAULT_TT_BITS, ENDS_BUDGET,
    ENDS_MIN_EMPTY, ETC_SPAN, OPENING_STONES, PACKED_TT_BITS,
};
