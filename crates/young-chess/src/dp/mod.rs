//! The dedicated solver: a dynamic programme over staircases, layer by layer, ranked without
//! hashing.
//!
//! # Layers
//! Every move fills one cell, so the staircases with `k` filled cells (layer `k`) only lead to
//! layer `k + 1`. The programme computes layer `n * m` (the full board, value 0), then
//! `n * m - 1`, …, down to layer 0 (the empty board); the value of a staircase, from its side to
//! move, is `max over fillable cells c of (gain(c) - value(staircase + c))`, where the gain is
//! `A[c]` when Black is to move (`k` even) and `B[c]` otherwise. Only two layers live at once:
//! the largest layer of a 16 x 16 board holds about 9 million staircases (of 601 million), of
//! a 20 x 20 board 1.47 billion (of 138 billion).
//!
//! # Modules
//! - `count`: staircase and layer counts, memory estimates ([`staircase_count`],
//!   [`layer_sizes`], [`memory_estimate`], [`table_memory_estimate`]).
//! - `ranker`: ranking without hashing: half-path tables, the block layout of a layer, and the
//!   successor lists of high half-paths.
//! - `layer`: the layer loop (rows of blocks, shared among threads with rayon).

mod count;
mod error;
mod layer;
mod ranker;

pub use count::{layer_sizes, memory_estimate, staircase_count, table_memory_estimate};
pub use error::{DpError, MAX_DP_SIDE_SUM};

use crate::{Board, Memo, Staircase};
use count::wide;
use layer::run;
use ranker::Ranker;

/// Black's score minus White's under perfect play from the empty board: the layered DP for
/// `n + m <= MAX_DP_SIDE_SUM` (with rayon on boards of a million staircases or more), the
/// memoised negamax ([`Memo`]) otherwise. Memory: [`memory_estimate`].
///
/// # Errors
/// None at present for a valid [`Board`]; the `Result` is kept for future limits.
pub fn solve(board: &Board) -> Result<i64, DpError> {
    solve_with_progress(board, &mut |_, _| {})
}

/// [`solve`], calling `progress(done, total)` (staircases valued so far, all staircases) after
/// each layer.
///
/// # Errors
/// As [`solve`].
pub fn solve_with_progress(board: &Board, progress: &mut dyn FnMut(u64, u64)) -> Result<i64, DpError> {
    let (n, m) = (board.rows(), board.cols());
    if n + m > MAX_DP_SIDE_SUM {
        return Ok(Memo::new(board).value(&board.start()));
    }
    let ranker = Ranker::new(n, m)?;
    Ok(if wide(board) {
        run::<i64>(&ranker, board, false, progress).0
    } else {
        run::<i32>(&ranker, board, false, progress).0
    })
}

/// The DP with every layer kept: the exact value of any staircase of the board by lookup, for
/// analysis (move values, principal variations). Memory: [`table_memory_estimate`].
pub struct DpTable {
    /// Boxed: keeps the table a few words wide (callers hold it in enums beside small types).
    ranker: Box<Ranker>,
    layers: Layers,
    offsets: Vec<Vec<usize>>,
}

/// Every layer of a [`DpTable`], in the board's value type.
enum Layers {
    Narrow(Vec<Vec<i32>>),
    Wide(Vec<Vec<i64>>),
}

impl DpTable {
    /// Solves `board`, keeping every layer.
    ///
    /// # Errors
    /// [`DpError::TooLarge`] if `n + m > MAX_DP_SIDE_SUM`.
    pub fn build(board: &Board) -> Result<Self, DpError> {
        let ranker = Ranker::new(board.rows(), board.cols())?;
        let mut none = |_, _| {};
        let layers = if wide(board) {
            Layers::Wide(run::<i64>(&ranker, board, true, &mut none).1)
        } else {
            Layers::Narrow(run::<i32>(&ranker, board, true, &mut none).1)
        };
        let offsets = (0..=board.rows() * board.cols()).map(|k| ranker.layer_offsets(k).0).collect();
        Ok(DpTable { ranker: Box::new(ranker), layers, offsets })
    }

    /// The value of `pos` (a staircase of this board's size) from its side to move: the margin
    /// of the remaining play under perfect play. Panics if `pos` has another size.
    #[must_use]
    pub fn value(&self, pos: &Staircase) -> i64 {
        assert_eq!((pos.rows(), pos.cols()), (self.ranker.n, self.ranker.m), "staircase of another board");
        let k = pos.filled();
        let i = self.ranker.index(pos.path(), &self.offsets[k]);
        match &self.layers {
            Layers::Narrow(l) => i64::from(l[k][i]),
            Layers::Wide(l) => l[k][i],
        }
    }
}
