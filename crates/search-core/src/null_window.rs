//! The drivers that turn fail-soft searches into exact values, written once over the
//! [`Engine`]: one full-window search, MTD(f), bisection (optionally leaning towards 0), each
//! optionally clamped to a window (the win / draw / loss question), all sharing the engine's TT.
//!
//! A null window `(t, t + 1)` only answers "is the value above `t`?", but it cuts far more of
//! the tree than a wide window. With fail-soft results each answer also moves a bound by as
//! much as the search proved, not just by one.
//!
//! # Sources
//! - MTD(f): A. Plaat, J. Schaeffer, W. Pijls and A. de Bruin, "Best-first fixed-depth minimax
//!   algorithms", *Artificial Intelligence* 87 (1996).
//! - Bisection over the score with null windows, leaning towards 0, as in exact Connect Four
//!   solvers (J. Tromp's Fhourstones; P. Pons, "Solving Connect 4: how to build a perfect AI",
//!   2019).

use crate::engine::Engine;
use crate::game::{Game, Value, INFINITY};
use crate::options::{unlimited, Driver, Interrupted};
use crate::threshold::{narrow, Threshold};

/// A finite stand-in for an unknown bound, so that midpoints cannot overflow.
const UNKNOWN: Value = INFINITY / 2;

impl<G: Game> Engine<G> {
    /// The exact value of `pos`: the margin of the remaining play under perfect play, from the
    /// side to move of `pos`, found by the engine's [`Driver`] ([`crate::SearchOptions::driver`]).
    pub fn solve(&mut self, pos: &G::Position) -> Value {
        unlimited(self.drive(pos, self.options().driver, None, false))
    }

    /// [`Engine::solve`] under the engine's limits.
    ///
    /// # Errors
    /// [`Interrupted`] with the bounds proven on `pos` when a limit stopped the search.
    pub fn try_solve(&mut self, pos: &G::Position) -> Result<Value, Interrupted> {
        self.drive(pos, self.options().driver, None, true)
    }

    /// The exact value of `pos` by `driver` instead of the engine's own.
    pub fn solve_by(&mut self, pos: &G::Position, driver: Driver) -> Value {
        unlimited(self.drive(pos, driver, None, false))
    }

    /// The exact value of `pos` by MTD(f) from `guess`: null-window searches around `guess`,
    /// each fail-soft result becoming the next test, until the lower and upper bounds meet.
    pub fn solve_mtdf(&mut self, pos: &G::Position, guess: Value) -> Value {
        self.solve_by(pos, Driver::Mtdf { guess })
    }

    /// The exact value of `pos` by bisection: each null-window search tests the midpoint of the
    /// interval still open, starting from [`Game::value_bounds`]. At most about
    /// `log2(hi - lo)` searches.
    pub fn solve_bisection(&mut self, pos: &G::Position) -> Value {
        self.solve_by(pos, Driver::Bisection)
    }

    /// The value of `pos` clamped to `[lo, hi]` (`lo <= hi`), by the engine's driver on that
    /// interval only: e.g. `(-1, 1)` answers win / draw / loss of a game scored by margins,
    /// far faster than the exact margin.
    pub fn solve_within(&mut self, pos: &G::Position, lo: Value, hi: Value) -> Value {
        unlimited(self.drive(pos, self.options().driver, Some((lo, hi)), false))
    }

    /// [`Engine::solve_within`] under the engine's limits.
    ///
    /// # Errors
    /// [`Interrupted`] with the bounds proven on `pos` when a limit stopped the search.
    pub fn try_solve_within(
        &mut self,
        pos: &G::Position,
        lo: Value,
        hi: Value,
    ) -> Result<Value, Interrupted> {
        self.drive(pos, self.options().driver, Some((lo, hi)), true)
    }

    /// The value of `pos` by `driver`, clamped to `clamp` if given, obeying the limits if
    /// `limited`.
    pub(crate) fn drive(
        &mut self,
        pos: &G::Position,
        driver: Driver,
        clamp: Option<(Value, Value)>,
        limited: bool,
    ) -> Result<Value, Interrupted> {
        let (mut lo, mut hi) = start_bounds(self.game(), pos);
        if let Some((a, b)) = clamp {
            debug_assert!(a <= b, "empty clamp interval");
            (lo, hi) = (lo.clamp(a, b), hi.clamp(a, b));
        }
        if lo == hi {
            return Ok(lo);
        }
        match driver {
            Driver::FullWindow => {
                let window = if clamp.is_some() { (lo - 1, hi + 1) } else { (-INFINITY, INFINITY) };
                let v = self.search_as(pos, window.0, window.1, limited)?;
                Ok(v.clamp(lo, hi))
            }
            Driver::EndsThenBisection { budget } => self.ends_then_bisection(pos, lo, hi, budget, limited),
            _ => {
                let policy = match driver {
                    Driver::Mtdf { guess } => Threshold::mtdf_from(guess),
                    Driver::MtdfMidpoint => Threshold::Mtd { first: lo + (hi - lo) / 2 - 1 },
                    Driver::Bisection => Threshold::Bisection,
                    _ => Threshold::BisectionTowardZero,
                };
                if driver == Driver::ZeroThenBisection {
                    // "value > 0?", then the test next to the bound it proved: two MTD(f)
                    // steps from 0.
                    for _ in 0..2 {
                        if lo >= hi {
                            break;
                        }
                        let t = Threshold::Mtd { first: 0 }.next(lo, hi);
                        let r = self.search_as(pos, t, t + 1, limited)?;
                        narrow(r, t, &mut lo, &mut hi);
                    }
                }
                while lo < hi {
                    let t = policy.next(lo, hi);
                    let r = self.search_as(pos, t, t + 1, limited)?;
                    narrow(r, t, &mut lo, &mut hi);
                }
                Ok(lo)
            }
        }
    }
}

impl<G: Game> Engine<G> {
    /// [`Driver::EndsThenBisection`] on `[lo, hi]` (`lo < hi`).
    fn ends_then_bisection(
        &mut self,
        pos: &G::Position,
        mut lo: Value,
        mut hi: Value,
        budget: u64,
        limited: bool,
    ) -> Result<Value, Interrupted> {
        // The walk: the cost of the last test at each end (the top first).
        let (mut top_cost, mut bottom_cost) = (0, 1);
        while lo < hi {
            let top = top_cost <= bottom_cost;
            let t = if top { hi - 1 } else { lo };
            let before = self.stats().nodes;
            let r = self.search_as(pos, t, t + 1, limited)?;
            let cost = self.stats().nodes - before;
            narrow(r, t, &mut lo, &mut hi);
            if cost > budget {
                break;
            }
            if top {
                top_cost = cost;
            } else {
                bottom_cost = cost;
            }
        }
        // Bisection leaning towards 0 over `[plo, phi]`, the bounds it proved itself (from the
        // game's), its tests inside `[lo, hi]` searched, the others answered by the walk.
        let (mut plo, mut phi) = start_bounds(self.game(), pos);
        (plo, phi) = (plo.min(lo), phi.max(hi));
        while lo < hi {
            let mid = Threshold::BisectionTowardZero.next(plo, phi);
            if mid < lo {
                plo = lo;
                continue;
            }
            if mid >= hi {
                phi = hi;
                continue;
            }
            let r = self.search_as(pos, mid, mid + 1, limited)?;
            if narrow(r, mid, &mut lo, &mut hi) {
                plo = lo;
            } else {
                phi = hi;
            }
        }
        Ok(lo)
    }
}

/// `[lo, hi]` containing the value of `pos`: the game's bounds, or a wide finite interval.
pub(crate) fn start_bounds<G: Game>(game: &G, pos: &G::Position) -> (Value, Value) {
    if let Some(v) = game.terminal_value(pos) {
        return (v, v);
    }
    let (lo, hi) = game.value_bounds(pos);
    (lo.max(-UNKNOWN), hi.min(UNKNOWN))
}
