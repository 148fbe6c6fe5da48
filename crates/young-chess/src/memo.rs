//! [`Memo`]: plain memoised negamax over staircases (a hash map of exact values), the simple
//! reference solver, and the fallback for thin boards beyond the DP's table limit.

use std::collections::HashMap;

use crate::{Board, Staircase};

/// Exact values of staircases of one board by full-window negamax with memoisation: every
/// staircase reached is valued once, by looking at all its successors. Memory: about 64 bytes
/// per staircase reached (at most [`crate::dp::staircase_count`]); recursion depth at most
/// `n * m`.
pub struct Memo<'a> {
    board: &'a Board,
    values: HashMap<u64, i64>,
}

impl<'a> Memo<'a> {
    /// An empty memo for `board`.
    #[must_use]
    pub fn new(board: &'a Board) -> Self {
        Memo { board, values: HashMap::new() }
    }

    /// Number of staircases valued so far.
    #[must_use]
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether nothing has been valued yet.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The value of `pos` (a staircase of this board) from its side to move: the margin of the
    /// remaining play under perfect play.
    pub fn value(&mut self, pos: &Staircase) -> i64 {
        if pos.is_full() {
            return 0;
        }
        if let Some(&v) = self.values.get(&pos.path()) {
            return v;
        }
        let mut best = i64::MIN;
        for c in pos.moves() {
            let child = pos.fill(c).expect("generated moves are legal");
            best = best.max(self.board.gain(pos, c) - self.value(&child));
        }
        self.values.insert(pos.path(), best);
        best
    }
}
