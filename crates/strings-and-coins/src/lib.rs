//! Strings and coins (E. Berlekamp, *The Dots and Boxes Game*, 2000, ch. 2; J. Barker and
//! R. Korf, "Solving Dots-And-Boxes", AAAI 2012): the theory every dots-and-boxes-like game
//! shares, on any board of at most 64 strings and 64 coins.
//!
//! A cell of the board (a box, a unit triangle) is a coin; each of its undrawn sides is a
//! string, tying it to the coin across that side or, on the rim, to the ground. Drawing a side
//! cuts its string; a coin left with no string is completed by the mover, who moves again. The
//! game crates describe their board once as a [`Board`] (each coin's strings as bits of a `u64`,
//! validated: [`BoardError`]) and keep their own geometry, positions, notation and
//! `search_core::Game` impl; this crate answers the strings-and-coins questions on a set of
//! drawn strings:
//!
//! - which coins a move completes ([`Board::completed`], [`Border`]);
//! - which moves a search needs ([`Board::candidates`] under [`Rules`]: forced capture, capture
//!   before sacrificing, all but two, each with its proof), and which move is forced and can
//!   be folded into the move before it ([`Board::folded_move`]);
//! - the graph key ([`Board::graph_key`]): once no coin is untouched, the multiset of the
//!   graph's paths and cycles, which determines the value of the remaining play;
//! - the value of a simple loony endgame, chains and loops with no capturable coin, without a
//!   search ([`Board::loony_value`]);
//! - the value of every string set of a small board, by retrograde analysis
//!   ([`RetrogradeTable`]).
//!
//! The crate does no I/O.
//!
//! ```
//! use strings_and_coins::{Board, Rules};
//!
//! // Two boxes side by side (dots-and-boxes 1x2): tops 0 and 1, bottoms 2 and 3, sides 4, 5
//! // and 6; line 5 lies between the boxes.
//! let board = Board::new(&[0b011_0101, 0b110_1010], 7).unwrap();
//! // Lines 0, 2 and 4 drawn: line 5 captures the left box, which hangs from an untouched box,
//! // so it is the only move searched (the forced-capture rule).
//! assert_eq!(board.candidates(0b001_0101, Rules::ALL), 1 << 5);
//! // Drawing it completes the left box (coin 0).
//! assert_eq!(board.completed(0b001_0101, 5), 0b01);
//! // The right box keeps three strings: no graph key yet. With its top drawn too, the graph
//! // is one path of one coin with both ends on the ground.
//! assert_eq!(board.graph_key(0b011_0101), None);
//! assert_eq!(board.graph_key(0b011_0111), Some(strings_and_coins::GRAPH_KEY_FLAG | 2 << 6 | 1));
//! ```

mod board;
mod graph;
mod loony;
mod retrograde;
mod rules;
mod symmetry;

pub use board::{Board, BoardError, Border, CoinClasses, MAX_COINS, MAX_STRINGS};
pub use graph::{component_code, components_key, GRAPH_KEY_COMPONENTS, GRAPH_KEY_FLAG};
pub use loony::LOONY_COMPONENTS;
pub use retrograde::RetrogradeTable;
pub use rules::{Hang, Rules};
pub use symmetry::Symmetries;
