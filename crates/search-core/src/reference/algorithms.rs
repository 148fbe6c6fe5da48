//! [`Algorithm`] and [`solve_with`]: the exact value of one position by any of the classic
//! algorithms, with their statistics, so that they can be compared on the same position (the
//! textbook table: minimax vs alpha-beta vs alpha-beta with a TT, and on).

use std::time::Instant;

use super::minimax::minimax_counting;
use super::pns::{Proof, ProofSearch};
use crate::{Engine, Game, SearchOptions, Stats, Value, INFINITY};

/// A search algorithm, from the textbook's first to the engine's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Plain negamax over the whole tree: no window, no TT.
    Minimax,
    /// Negamax with an alpha-beta window, no TT.
    AlphaBeta,
    /// Alpha-beta with a transposition table.
    AlphaBetaTt,
    /// Principal variation search (null windows after the first move) with a TT.
    Pvs,
    /// MTD(f): null-window searches only, from a first guess of 0, sharing a TT.
    Mtdf,
    /// Depth-first proof-number search, one yes/no question at a time, bisecting the margin.
    DfPn,
}

impl Algorithm {
    /// Every algorithm, in the textbook's order.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::AlphaBetaTt,
        Algorithm::Pvs,
        Algorithm::Mtdf,
        Algorithm::DfPn,
    ];

    /// The algorithm's usual name: `minimax`, `alpha-beta`, `alpha-beta-tt`, `pvs`, `mtdf`,
    /// `df-pn`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alpha-beta",
            Algorithm::AlphaBetaTt => "alpha-beta-tt",
            Algorithm::Pvs => "pvs",
            Algorithm::Mtdf => "mtdf",
            Algorithm::DfPn => "df-pn",
        }
    }
}

/// The exact value of `pos` from its side to move (the margin of the remaining play, as
/// [`Engine::solve`] gives it) by `algorithm`, and what it cost. TT-based algorithms get
/// `2^tt_bits` entries. df-pn bisects the interval of [`Game::value_bounds`] (widened by
/// doubling when the game gives none) with one proof search per question.
pub fn solve_with<G>(algorithm: Algorithm, game: &G, pos: &G::Position, tt_bits: u32) -> (Value, Stats)
where
    G: Game + Clone,
{
    let start = Instant::now();
    let options = |pvs: bool, tt_bits: u32| SearchOptions {
        principal_variation_search: pvs,
        tt_bits,
        ..SearchOptions::DEFAULT
    };
    let (value, mut stats) = match algorithm {
        Algorithm::Minimax => {
            let mut nodes = 0;
            let v = minimax_counting(game, pos, &mut nodes);
            (v, Stats { nodes, ..Stats::default() })
        }
        Algorithm::AlphaBeta | Algorithm::AlphaBetaTt | Algorithm::Pvs | Algorithm::Mtdf => {
            let opts = match algorithm {
                Algorithm::AlphaBeta => options(false, 0),
                Algorithm::AlphaBetaTt | Algorithm::Mtdf => options(false, tt_bits),
                _ => options(true, tt_bits),
            };
            let mut solver = Engine::with_options(game.clone(), opts);
            let v = if algorithm == Algorithm::Mtdf { solver.solve_mtdf(pos, 0) } else { solver.solve(pos) };
            (v, solver.stats())
        }
        Algorithm::DfPn => {
            let mut pns = ProofSearch::new(game.clone());
            let v = df_pn_value(&mut pns, game, pos);
            (v, pns.stats())
        }
    };
    stats.elapsed = start.elapsed();
    (value, stats)
}

/// The exact value by df-pn questions "value > t?".
fn df_pn_value<G: Game>(pns: &mut ProofSearch<G>, game: &G, pos: &G::Position) -> Value {
    if let Some(v) = game.terminal_value(pos) {
        return v;
    }
    let mut exceeds = |t: Value| pns.value_exceeds(pos, t) == Proof::Proved;
    let (lo, hi) = game.value_bounds(pos);
    // [lo, hi] holds the value; find finite ends by doubling where the game gives none.
    let (mut lo, mut hi) = (lo.max(-INFINITY / 2), hi.min(INFINITY / 2));
    if lo <= -INFINITY / 2 || hi >= INFINITY / 2 {
        let mut step = 1;
        if exceeds(0) {
            lo = 1;
            while exceeds(step) {
                lo = step + 1;
                step *= 2;
            }
            hi = step;
        } else {
            hi = 0;
            while !exceeds(-step) {
                hi = -step;
                step *= 2;
            }
            lo = -step + 1;
        }
    }
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if exceeds(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}
