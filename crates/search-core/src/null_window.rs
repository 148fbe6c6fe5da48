//! Null-window drivers: the exact value of a position by a sequence of null-window searches
//! over the margin, all sharing the solver's TT.
//!
//! A null window `(t, t + 1)` only answers "is the value above `t`?", but it cuts far more of
//! the tree than a wide window. With fail-soft results each answer also moves a bound by as
//! much as the search proved, not just by one.
//!
//! # Sources
//! - MTD(f): A. Plaat, J. Schaeffer, W. Pijls and A. de Bruin, "Best-first fixed-depth minimax
//!   algorithms", *Artificial Intelligence* 87 (1996).
//! - Bisection over the score with null windows, as in exact Connect Four solvers (J. Tromp's
//!   Fhourstones; P. Pons, "Solving Connect 4: how to build a perfect AI", 2019).

use crate::{Game, Solver, Value, INFINITY};

/// A finite stand-in for an unknown bound, so that midpoints cannot overflow.
const UNKNOWN: Value = INFINITY / 2;

impl<G: Game> Solver<G> {
    /// The exact value of `pos` (side to move) by MTD(f): null-window searches around `guess`,
    /// each fail-soft result becoming the next test, until the lower and upper bounds meet.
    /// Few searches when `guess` is close (e.g. the previous iteration's value); the bounds of
    /// [`Game::value_bounds`] start the interval.
    pub fn solve_mtdf(&mut self, pos: &G::Position, guess: Value) -> Value {
        let (mut lo, mut hi) = self.start_bounds(pos);
        let mut g = guess.clamp(lo, hi);
        while lo < hi {
            // Test "value > beta - 1": beta is g, unless g is already the proven lower bound.
            let beta = if g == lo { g + 1 } else { g };
            g = self.search(pos, beta - 1, beta);
            if g < beta {
                hi = g;
            } else {
                lo = g;
            }
        }
        lo
    }

    /// The exact value of `pos` (side to move) by bisection: each null-window search tests the
    /// midpoint of the interval still open, starting from [`Game::value_bounds`]; fail-soft
    /// results narrow it further. At most about `log2(hi - lo)` searches; the first one
    /// (threshold 0 on a symmetric interval) decides who wins.
    pub fn solve_bisection(&mut self, pos: &G::Position) -> Value {
        let (mut lo, mut hi) = self.start_bounds(pos);
        while lo < hi {
            // The midpoint, rounded towards lo; the test is "value > mid".
            let mid = lo + (hi - lo) / 2;
            let r = self.search(pos, mid, mid + 1);
            if r > mid {
                lo = r;
            } else {
                hi = r;
            }
        }
        lo
    }

    /// `[lo, hi]` containing the value of `pos`: the game's bounds, or a wide finite interval.
    fn start_bounds(&self, pos: &G::Position) -> (Value, Value) {
        if let Some(v) = self.game().terminal_value(pos) {
            return (v, v);
        }
        let (lo, hi) = self.game().value_bounds(pos);
        (lo.max(-UNKNOWN), hi.min(UNKNOWN))
    }
}
