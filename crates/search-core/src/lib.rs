//! `search-core`: an exact solver for two-player, zero-sum games of perfect information.
//!
//! The crate knows no concrete game. A game implements [`Game`]: it says whose turn it is, lists
//! the legal moves into a caller's buffer, plays a move (copy-make) and reports the points that
//! move banks for the mover, and gives the exact value of a finished position. Turns need not
//! alternate: after a move the same player may be to move again (Triangle War's extra turn after
//! completing a triangle), and the engine handles that without any workaround.
//!
//! [`Solver`] then computes exact values by negamax with an alpha-beta window, a transposition
//! table (TT) that stores exact / lower / upper bounds, a move-ordering hook, and statistics.
//! [`Solver::principal_variation`] and [`Solver::analyze`] explain an answer; [`analyze_with`]
//! gives the same explanation from any other source of exact values (a DP or retrograde table).
//! [`Solver::solve_mtdf`] and [`Solver::solve_bisection`] find the exact value by null-window
//! searches only, sharing the TT between them. [`minimax`] is the
//! textbook reference (no pruning, no TT) used to cross-check the engine in tests.
//!
//! # Sources
//! - Negamax and alpha-beta with fail-soft bounds: D. E. Knuth and R. W. Moore, "An analysis
//!   of alpha-beta pruning", *Artificial Intelligence* 6 (1975).
//! - Principal variation search (null window for all but the first move): T. A. Marsland and
//!   M. Campbell, "Parallel search of strongly ordered game trees", *ACM Computing Surveys*
//!   14 (1982); A. Reinefeld, "An improvement to the Scout tree search algorithm", *ICCA
//!   Journal* 6 (1983).
//! - Transposition tables storing bounds, and two-tier (depth-preferred + always-replace)
//!   replacement: D. M. Breuker, J. W. H. M. Uiterwijk and H. J. van den Herik, "Replacement
//!   schemes for transposition tables", *ICCA Journal* 17 (1994). Here the "depth" is the size
//!   of the searched subtree, as in exact solvers that always search to the end.
//!
//! # Values
//! A [`Value`] is a margin in the game's own points. Inside the engine every value is the margin
//! of the *remaining* play, seen from the side to move of the position it belongs to: the sum of
//! the gains still to be banked (mover's gains counted positive, opponent's negative) plus the
//! terminal value. Points already banked before a position do not enter the search, so positions
//! that differ only in their history share TT entries. [`Analysis`] converts to the first
//! player's side and adds [`Game::banked`].

mod analysis;
mod game;
mod minimax;
mod null_window;
mod solver;
mod tt;

pub use analysis::{analyze_with, Analysis, MoveValue};
pub use game::{Game, Player, TtKey, Value, INFINITY};
pub use minimax::minimax;
pub use solver::{SearchOptions, Solver, Stats};
pub use tt::{Bound, TranspositionTable, TtEntry, MAX_TT_BITS};
