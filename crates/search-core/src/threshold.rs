//! The one threshold policy of the null-window drivers: which question "is the value above
//! `t`?" is asked next about a value known to lie in `[lo, hi]` ([`Threshold::next`]), and how
//! a fail-soft answer narrows the interval ([`narrow`]). Written once, for the engine's
//! [`crate::Driver`]s, the root driver ([`crate::Engine::solve_root`]) and the split solve
//! (`split_solve::SplitOptions::threshold`).
//!
//! # Sources
//! - MTD(f): A. Plaat, J. Schaeffer, W. Pijls and A. de Bruin, "Best-first fixed-depth minimax
//!   algorithms", *Artificial Intelligence* 87 (1996).
//! - Bisection leaning towards 0: P. Pons, "Solving Connect 4: how to build a perfect AI"
//!   (2019).

use crate::game::Value;

/// How the threshold `t` of the next null-window test ("value > t?", the window
/// `(t, t + 1)`) is chosen on a value known to lie in `[lo, hi]`, `lo < hi`. Every choice
/// keeps `lo <= t < hi`, so that either answer narrows the interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threshold {
    /// MTD(f): `first` while it is inside (`lo <= first < hi`), then the proven bound nearest
    /// it (`lo` once the value is known above `first`, `hi - 1` once below): with fail-soft
    /// answers, each test starts where the last one's result left the interval. MTD(f) from
    /// a guess `g` asks "value >= g?" first: `first = g - 1`.
    Mtd {
        /// The first test's threshold.
        first: Value,
    },
    /// Bisection of `[lo, hi]`: `t = lo + (hi - lo) / 2`.
    Bisection,
    /// Bisection leaning towards 0, so that the sign (who wins) is settled first: the midpoint,
    /// moved to `lo / 2` or `hi / 2` when that is nearer 0's side.
    BisectionTowardZero,
    /// [`Threshold::Mtd`] from 0 (`first = 0`) while its threshold is within `reach` of 0,
    /// then bisection of the thresholds left (`t = lo + (hi - 1 - lo) / 2`, the midpoint of
    /// `lo..hi`): values next to 0 (the margin games) take a few steps from 0, a large one (a
    /// quick Connect Four win) is found by bisection.
    MtdThenBisection {
        /// How far from 0 the MTD(f) steps go.
        reach: Value,
    },
}

impl Threshold {
    /// MTD(f) from the guess `guess`: the first test asks "value >= guess?"
    /// (`first = guess - 1`, saturating).
    pub(crate) fn mtdf_from(guess: Value) -> Self {
        Threshold::Mtd { first: guess.saturating_sub(1) }
    }

    /// The threshold of the next test on a value known to lie in `[lo, hi]`, `lo < hi`.
    #[must_use]
    pub fn next(self, lo: Value, hi: Value) -> Value {
        debug_assert!(lo < hi, "nothing left to test");
        match self {
            Threshold::Mtd { first } => first.clamp(lo, hi - 1),
            Threshold::Bisection => lo + (hi - lo) / 2,
            Threshold::BisectionTowardZero => {
                let mid = lo + (hi - lo) / 2;
                if mid <= 0 && lo / 2 < mid {
                    lo / 2
                } else if mid >= 0 && hi / 2 > mid {
                    hi / 2
                } else {
                    mid
                }
            }
            Threshold::MtdThenBisection { reach } => {
                let step = Threshold::Mtd { first: 0 }.next(lo, hi);
                if step.abs() <= reach {
                    step
                } else {
                    lo + (hi - 1 - lo) / 2
                }
            }
        }
    }
}

/// Narrows `[lo, hi]` by `r`, the fail-soft result of the null-window test "value > t?": a
/// lower bound when the test failed high (returned `true`), an upper bound otherwise.
pub fn narrow(r: Value, t: Value, lo: &mut Value, hi: &mut Value) -> bool {
    if r > t {
        *lo = r.min(*hi);
        true
    } else {
        *hi = r.max(*lo);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every policy keeps its threshold inside `[lo, hi - 1]`.
    #[test]
    fn thresholds_stay_inside_the_interval() {
        let policies = [
            Threshold::Mtd { first: 0 },
            Threshold::Mtd { first: -1 },
            Threshold::Mtd { first: 7 },
            Threshold::Bisection,
            Threshold::BisectionTowardZero,
            Threshold::MtdThenBisection { reach: 2 },
        ];
        for lo in -12..12 {
            for hi in lo + 1..14 {
                for p in policies {
                    let t = p.next(lo, hi);
                    assert!(lo <= t && t < hi, "{p:?} on [{lo}, {hi}] gave {t}");
                }
            }
        }
    }
}
