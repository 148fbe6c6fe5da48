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

use crate::{Game, Solver, Stats, Value, INFINITY};

/// A finite stand-in for an unknown bound, so that midpoints cannot overflow.
const UNKNOWN: Value = INFINITY / 2;

/// An exact fail-soft alpha-beta search over one game: what the null-window drivers need.
/// Implemented by the one-thread [`Solver`] and by the parallel [`crate::ParallelSolver`], so
/// that a game's own driver (e.g. Connect Four's bisection) is written once for both.
pub trait WindowSearch<G: Game> {
    /// The game searched.
    fn game(&self) -> &G;

    /// Fail-soft alpha-beta search of `pos` with the window `(alpha, beta)`, `alpha < beta`,
    /// with [`Solver::search`]'s contract: with `v` the true value and `r` the result, `r <=
    /// alpha` implies `v <= r`, `r >= beta` implies `v >= r`, otherwise `r == v`.
    fn search(&mut self, pos: &G::Position, alpha: Value, beta: Value) -> Value;

    /// Statistics accumulated so far (all threads together for a parallel search).
    fn stats(&self) -> Stats;

    /// Whether the value of `pos` (side to move) is greater than `threshold`: a null-window
    /// search.
    fn value_exceeds(&mut self, pos: &G::Position, threshold: Value) -> bool {
        self.search(pos, threshold, threshold + 1) > threshold
    }

    /// The exact value of `pos` (side to move) by MTD(f): null-window searches around `guess`,
    /// each fail-soft result becoming the next test, until the lower and upper bounds meet.
    /// Few searches when `guess` is close (e.g. the previous iteration's value); the bounds of
    /// [`Game::value_bounds`] start the interval.
    fn solve_mtdf(&mut self, pos: &G::Position, guess: Value) -> Value {
        let (mut lo, mut hi) = start_bounds(self.game(), pos);
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
    fn solve_bisection(&mut self, pos: &G::Position) -> Value {
        let (mut lo, mut hi) = start_bounds(self.game(), pos);
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
}

impl<G: Game> WindowSearch<G> for Solver<G> {
    fn game(&self) -> &G {
        Solver::game(self)
    }
    fn search(&mut self, pos: &G::Position, alpha: Value, beta: Value) -> Value {
        Solver::search(self, pos, alpha, beta)
    }
    fn stats(&self) -> Stats {
        Solver::stats(self)
    }
}

impl<G: Game> Solver<G> {
    /// The exact value of `pos` by MTD(f) from `guess`: [`WindowSearch::solve_mtdf`].
    pub fn solve_mtdf(&mut self, pos: &G::Position, guess: Value) -> Value {
        WindowSearch::solve_mtdf(self, pos, guess)
    }

    /// The exact value of `pos` by bisection over the margin: [`WindowSearch::solve_bisection`].
    pub fn solve_bisection(&mut self, pos: &G::Position) -> Value {
        WindowSearch::solve_bisection(self, pos)
    }
}

/// `[lo, hi]` containing the value of `pos`: the game's bounds, or a wide finite interval.
fn start_bounds<G: Game>(game: &G, pos: &G::Position) -> (Value, Value) {
    if let Some(v) = game.terminal_value(pos) {
        return (v, v);
    }
    let (lo, hi) = game.value_bounds(pos);
    (lo.max(-UNKNOWN), hi.min(UNKNOWN))
}
