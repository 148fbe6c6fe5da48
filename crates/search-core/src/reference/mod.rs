//! Reference and teaching algorithms, kept apart from the [`crate::Engine`]: plain [`minimax`]
//! (no pruning, no TT), depth-first proof-number search ([`ProofSearch`], a second exact
//! algorithm for yes/no questions), and [`solve_with`], which runs any classic [`Algorithm`] on
//! one position so that they can be compared (the textbook table: minimax vs alpha-beta vs
//! alpha-beta with a TT, and on). Tests cross-check the engine against them.

mod algorithms;
mod minimax;
mod pns;

pub use algorithms::{solve_with, Algorithm};
pub use minimax::minimax;
pub use pns::{Proof, ProofSearch};
