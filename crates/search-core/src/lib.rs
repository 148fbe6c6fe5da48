#![doc = include_str!("../README.md")]
//! `search-core`: an exact solver for two-player, zero-sum games of perfect information.
//!
//! The crate knows no concrete game. A game implements [`Game`]: it says whose turn it is, lists
//! the legal moves into a caller's buffer, plays a move (copy-make) and reports the points that
//! move banks for the mover, and gives the exact value of a finished position. Turns need not
//! alternate: after a move the same player may be to move again (Triangle War's extra turn after
//! completing a triangle), and the engine handles that without any workaround.
//!
//! The one [`Engine`] then computes exact values by negamax with an alpha-beta window, a
//! transposition table (TT) that stores exact / lower / upper bounds, a move-ordering hook, and
//! statistics, on [`SearchOptions::threads`] threads (one: the table of
//! [`SearchOptions::one_thread_table`], a [`TranspositionTable`], a [`BoundsTable`] holding
//! both bounds of a position, a [`PackedTable`] or the [`SharedTable`]; more: lazy SMP over a
//! lock-free [`SharedTable`]; the negamax is written once over the [`Table`] trait). A game
//! whose terminal test computes what ordering and play need adds the hooks of [`Expansion`].
//! The drivers are written once over it: the exact value by one full window, MTD(f) or
//! bisection ([`Driver`], their thresholds chosen by the one [`Threshold`] policy), clamped to a window ([`Engine::solve_within`], win / draw / loss),
//! every move's value, the principal variation and [`Engine::analyze`], the root driver with
//! checkpoints ([`Engine::solve_root`]); [`analyze_with`] gives the same explanation from any
//! other source of exact values (a DP or retrograde table). Plain searches ignore [`Limits`];
//! the `try_` ones obey them and return [`Interrupted`] with the bounds proven so far.
//! [`mod@reference`] holds the textbook algorithms (minimax, df-pn, a runner for comparing them)
//! used to cross-check the engine.
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

//! # Example
//! A game of Nim with one heap, where taking the last stone wins:
//!
//! ```
//! use search_core::{Engine, Game, Player, Value};
//!
//! struct Nim;
//!
//! impl Game for Nim {
//!     type Position = (u8, Player); // stones left, player to move
//!     type Move = u8; // stones taken
//!     type Key = u64;
//!     fn to_move(&self, pos: &(u8, Player)) -> Player {
//!         pos.1
//!     }
//!     fn terminal_value(&self, pos: &(u8, Player)) -> Option<Value> {
//!         // The player to move faces an empty heap: the opponent took the last stone.
//!         (pos.0 == 0).then_some(-1)
//!     }
//!     fn generate_moves(&self, pos: &(u8, Player), moves: &mut Vec<u8>) {
//!         moves.extend((1..=3).filter(|&t| t <= pos.0));
//!     }
//!     fn play(&self, pos: &(u8, Player), take: u8) -> ((u8, Player), Value) {
//!         ((pos.0 - take, pos.1.opponent()), 0)
//!     }
//!     fn key(&self, pos: &(u8, Player)) -> u64 {
//!         u64::from(pos.0)
//!     }
//! }
//!
//! let mut solver = Engine::new(Nim, 10);
//! // Taking 1 to 3 stones a move: multiples of 4 are lost for the player to move.
//! assert_eq!(solver.solve(&(12, Player::First)), -1);
//! assert_eq!(solver.solve_bisection(&(13, Player::First)), 1);
//! let analysis = solver.analyze(&(13, Player::First));
//! assert_eq!(analysis.pv[0], 1); // leave 12
//! ```

mod analysis;
mod atomic_tt;
mod book;
mod book_plan;
mod engine;
mod entry;
mod exchange;
mod game;
mod line_bucket;
mod narrow_line;
mod negamax;
mod null_window;
mod options;
mod parallel;
pub mod reference;
mod root;
mod sealed;
mod shared_bucket;
mod table;
#[cfg(test)]
mod test_games;
mod threshold;
mod tt;

pub use analysis::{analyze_with, try_analyze_with, Analysis, MoveValue};
pub use atomic_tt::SharedTable;
pub use book::{book_identity, Book, BookError, BookIdentity, BOOK_MAGIC, BOOK_VERSION};
pub use book_plan::BookPlan;
pub use engine::Engine;
pub use entry::{Bound, PackedMove, TtEntry, MAX_MOVE_CODE};
pub use exchange::{Exchange, MAX_GIVEN_ENTRIES};
pub use game::{
    play_keeping, Expansion, Game, Outcome, Player, SearchVisitor, Symmetry, TtKey, Value, INFINITY,
};
pub use line_bucket::{LineBucket, MAX_LINE_MOVE_CODE};
pub use options::{
    unlimited, Driver, Interrupted, Limits, OneThreadTable, SearchOptions, Stats, TtSizeError,
    DEFAULT_DEFER_PLIES, DEFAULT_SOLO_NODES,
};
pub use root::{
    root_checkpoint, tt_entries_from_text, tt_entries_to_text, tt_snapshot_from_text, tt_snapshot_to_text,
    Checkpoint, CheckpointError, Progress, RootMove, RootResult, EXACT_MTD_STEPS, MTD_REACH,
};
pub use sealed::{seal, unseal, SealedKind, SolveIdentity};
pub use shared_bucket::{PairBucket, SharedBucket};
pub use table::Table;
pub use threshold::{narrow, Threshold};
pub use tt::{BoundsTable, PackedTable, TranspositionTable, MAX_TT_BITS};
