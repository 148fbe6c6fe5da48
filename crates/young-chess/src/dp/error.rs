//! The DP's size limit and its error, below every file of the DP.

use thiserror::Error;

/// Largest `n + m` the ranked DP handles (its half-path tables have `2^ceil((n + m) / 2)`
/// entries). Larger boards (necessarily thin, to fit in memory) are solved by the
/// plain memoised negamax ([`crate::Memo`]) instead; see [`super::solve`].
pub const MAX_DP_SIDE_SUM: usize = 48;

/// Why a DP could not run.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DpError {
    /// `n + m` exceeds [`MAX_DP_SIDE_SUM`].
    #[error("board {n} x {m} too large for the staircase DP (n + m must be at most {MAX_DP_SIDE_SUM})")]
    TooLarge {
        /// Rows.
        n: usize,
        /// Columns.
        m: usize,
    },
}
