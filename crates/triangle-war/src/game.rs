//! Triangle War as a search-core [`Game`], and a [`Solver`] for batches.

use search_core::{Analysis, Game, Player, SearchOptions, Stats, Value, WindowSearch, INFINITY};

use crate::{Geometry, Outcome, Position, SegmentSet};

/// Triangle War on one board, as seen by the search-core engine.
///
/// Moves are segment indices. A move banks the triangles it completes for the mover, who then
/// moves again. The TT key is the drawn set, canonicalised under the triangle's six symmetries
/// (the value of the remaining play does not depend on who owns what).
#[derive(Clone, Debug)]
pub struct TriangleWar {
    geometry: Geometry,
    /// For each symmetry and each byte of a segment set, the image of that byte's bits.
    sym_tables: Vec<[[u64; 256]; 8]>,
    bytes: usize,
    /// Whether [`Game::generate_moves`] applies the forced-capture rule ([`Rules::capture`]).
    rules: Rules,
}

/// Pruning rules of [`TriangleWar`]: proven value-preserving restrictions of the moves searched.
/// Values are exact with any setting; only the work differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Forced capture (strings and coins; E. Berlekamp, *The Dots and Boxes Game*, 2000;
    /// J. Barker and R. Korf, "Solving Dots-And-Boxes", AAAI 2012): when an undrawn segment
    /// completes a triangle and its other side is the rim or a triangle it also completes, the
    /// move touches no other triangle: a free capture that keeps the turn, which either player
    /// could take on any later turn without changing anything else, so taking it at once is
    /// optimal and it is the only move searched. Captures whose segment also borders an open
    /// triangle are searched in full (declining them can pay, as at the end of a chain).
    pub capture: bool,
}

impl Rules {
    /// Every rule on.
    pub const ALL: Rules = Rules { capture: true };
    /// No rule: the plain game tree.
    pub const NONE: Rules = Rules { capture: false };
}

impl TriangleWar {
    /// The game on `geometry`.
    #[must_use]
    pub fn new(geometry: Geometry) -> Self {
        Self::with_rules(geometry, Rules::ALL)
    }

    /// The game on `geometry`, searched with the pruning `rules`.
    #[must_use]
    pub fn with_rules(geometry: Geometry, rules: Rules) -> Self {
        let bytes = geometry.segments().len().div_ceil(8);
        let sym_tables = geometry
            .symmetries()
            .iter()
            .skip(1)
            .map(|perm| {
                let mut t = [[0u64; 256]; 8];
                for (byte, table) in t.iter_mut().enumerate().take(bytes) {
                    for (v, image) in table.iter_mut().enumerate() {
                        for bit in 0..8 {
                            let s = byte * 8 + bit;
                            if v >> bit & 1 == 1 && s < perm.len() {
                                *image |= 1 << perm[s];
                            }
                        }
                    }
                }
                t
            })
            .collect();
        TriangleWar { geometry, sym_tables, bytes, rules }
    }

    /// The pruning rules in force.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// A segment of `drawn` that the forced-capture rule ([`Rules::capture`]) says to draw now,
    /// if any.
    #[inline]
    #[must_use]
    pub fn forced_capture(&self, drawn: u64) -> Option<u8> {
        let mut free = self.geometry.all_segments().0 & !drawn;
        while free != 0 {
            let s = free.trailing_zeros() as usize;
            free &= free - 1;
            let [m0, m1] = self.geometry.border(s).masks;
            let open0 = (m0 & !drawn).count_ones();
            let open1 = (m1 & !drawn).count_ones();
            // Completes a triangle, and the other side is the rim (0 open) or a triangle the
            // same segment completes (1 open): the move then touches no other triangle, so it
            // is a free capture that keeps the turn, and taking it at once is never worse
            // (either player may take it on any later turn, it changes nothing else, and it
            // returns the move to the taker). An untouched neighbour (3 open) would gain a side,
            // which does change the rest of the game: that case is not pruned.
            if (open0 == 1 && open1 <= 1) || (open1 == 1 && open0 <= 1) {
                return Some(s as u8);
            }
        }
        None
    }

    /// The board.
    #[must_use]
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The smallest image of `drawn` under the six symmetries.
    #[must_use]
    pub fn canonical(&self, drawn: SegmentSet) -> SegmentSet {
        let mut best = drawn.0;
        for t in &self.sym_tables {
            let mut image = 0;
            for (byte, table) in t.iter().enumerate().take(self.bytes) {
                image |= table[(drawn.0 >> (8 * byte)) as usize & 0xff];
            }
            best = best.min(image);
        }
        SegmentSet(best)
    }

    /// Triangles not yet completed in `pos`, from the drawn set alone (the owner fields are
    /// history and not part of the TT key).
    fn open_triangles(&self, pos: &Position) -> Value {
        self.geometry.triangles().iter().filter(|&&t| !pos.drawn.contains_all(t)).count() as Value
    }
}

impl Game for TriangleWar {
    type Position = Position;
    type Move = u8;
    type Key = u64;

    fn to_move(&self, pos: &Position) -> Player {
        pos.to_move
    }

    fn terminal_value(&self, pos: &Position) -> Option<Value> {
        pos.is_over(&self.geometry).then_some(0)
    }

    fn generate_moves(&self, pos: &Position, moves: &mut Vec<u8>) {
        if self.rules.capture {
            if let Some(s) = self.forced_capture(pos.drawn.0) {
                moves.push(s);
                return;
            }
        }
        let free = SegmentSet(self.geometry.all_segments().0 & !pos.drawn.0);
        moves.extend(free.iter().map(|s| s as u8));
    }

    fn play(&self, pos: &Position, mv: u8) -> (Position, Value) {
        let (next, completed) = pos.play(&self.geometry, usize::from(mv));
        (next, Value::from(completed))
    }

    fn key(&self, pos: &Position) -> u64 {
        self.canonical(pos.drawn).0
    }

    fn value_bounds(&self, pos: &Position) -> (Value, Value) {
        let open = self.open_triangles(pos);
        (-open, open)
    }

    /// Completing moves first, then moves that give the opponent nothing to complete, then the
    /// rest, fewest triangles offered first.
    fn order_moves(&self, pos: &Position, moves: &mut [u8]) {
        let drawn = pos.drawn.0;
        // Score each move (lower first), then sort stably: no allocation per node.
        let mut scores = [0i8; 64];
        for (score, &m) in scores.iter_mut().zip(moves.iter()) {
            let after = drawn | 1 << m;
            let border = self.geometry.border(usize::from(m));
            let completes = border.completed(after).count_ones() as i8;
            // Among non-completing moves: fewest triangles offered first, interior segments
            // (two triangles) before rim segments.
            let rim = i8::from(border.masks[1] == 0);
            *score = if completes > 0 { -completes } else { 2 * border.offered(after) as i8 + rim };
        }
        // Scores are -2..=5: a stable counting sort in one pass per score.
        let mut sorted = [0u8; 64];
        let mut n = 0;
        for target in -2..=5 {
            for (&m, &sc) in moves.iter().zip(scores.iter()) {
                if sc == target {
                    sorted[n] = m;
                    n += 1;
                }
            }
        }
        moves.copy_from_slice(&sorted[..moves.len()]);
    }

    fn banked(&self, pos: &Position) -> Value {
        pos.margin()
    }
}

/// A Triangle War solver for one board: the search-core engine with a TT that persists across
/// positions, so a batch of games shares work. With [`Solver::with_threads`] above 1, the
/// margins, outcomes and analyses come from search-core's parallel solver (lazy SMP over a
/// shared TT; same values); [`Solver::engine`] stays the one-thread engine.
pub struct Solver {
    inner: search_core::Solver<TriangleWar>,
    parallel: Option<search_core::ParallelSolver<TriangleWar>>,
}

impl Solver {
    /// A solver for `geometry` with a TT of `2^tt_bits` entries (about 32 bytes each).
    #[must_use]
    pub fn new(geometry: Geometry, tt_bits: u32) -> Self {
        Solver { inner: search_core::Solver::new(TriangleWar::new(geometry), tt_bits), parallel: None }
    }

    /// A solver for `geometry` with the pruning `rules` and the engine's `options`.
    #[must_use]
    pub fn with_options(geometry: Geometry, rules: Rules, options: SearchOptions) -> Self {
        Solver {
            inner: search_core::Solver::with_options(TriangleWar::with_rules(geometry, rules), options),
            parallel: None,
        }
    }

    /// This solver searching on `threads` threads: above 1, a parallel engine with its own TT
    /// of the same size (`options`) answers [`Solver::final_margin`],
    /// [`Solver::final_margin_bisection`], [`Solver::outcome`] and [`Solver::analyze`]; the
    /// one-thread engine is then shrunk to a tiny TT.
    #[must_use]
    pub fn with_threads(self, threads: usize, options: SearchOptions) -> Self {
        if threads <= 1 {
            return self;
        }
        let game = self.inner.game().clone();
        let inner = search_core::Solver::with_options(game.clone(), SearchOptions { tt_bits: 1, ..options });
        Solver { inner, parallel: Some(search_core::ParallelSolver::new(game, options, threads)) }
    }

    /// The parallel engine, if [`Solver::with_threads`] asked for more than one thread (e.g.
    /// to tune when the helper threads start).
    pub fn parallel_engine(&mut self) -> Option<&mut search_core::ParallelSolver<TriangleWar>> {
        self.parallel.as_mut()
    }

    /// Statistics of the engine that answers (all threads together for the parallel one).
    #[must_use]
    pub fn stats(&self) -> Stats {
        match &self.parallel {
            Some(p) => p.stats(),
            None => self.inner.stats(),
        }
    }

    /// The engine that answers: the parallel one if there is one.
    fn answering(&mut self) -> &mut dyn WindowSearch<TriangleWar> {
        match &mut self.parallel {
            Some(p) => p,
            None => &mut self.inner,
        }
    }

    /// The final margin of `pos` as [`Solver::final_margin`], by bisection over the margin with
    /// null-window searches (the first search decides who wins; see
    /// [`search_core::Solver::solve_bisection`]).
    pub fn final_margin_bisection(&mut self, pos: &Position) -> i64 {
        pos.margin() + pos.to_move.sign() * self.answering().solve_bisection(pos)
    }

    /// The final margin (A's triangles minus B's) of `pos` under perfect play, counting the
    /// triangles already owned.
    pub fn final_margin(&mut self, pos: &Position) -> i64 {
        pos.margin() + pos.to_move.sign() * self.answering().search(pos, -INFINITY, INFINITY)
    }

    /// Who wins `pos` under perfect play, by null-window searches (cheaper than the exact
    /// margin): is the final margin above 0, and if not, below 0?
    pub fn outcome(&mut self, pos: &Position) -> Outcome {
        // final = margin + sign * v, with v the value for the side to move.
        let (margin, sign) = (pos.margin(), pos.to_move.sign());
        // "final > t" as a question on v.
        let engine = self.answering();
        let mut final_exceeds = |t: i64| {
            if sign == 1 {
                engine.value_exceeds(pos, t - margin)
            } else {
                !engine.value_exceeds(pos, margin - t - 1)
            }
        };
        if final_exceeds(0) {
            Outcome::AWins
        } else if final_exceeds(-1) {
            Outcome::Draw
        } else {
            Outcome::BWins
        }
    }

    /// The value of every move and the principal variation of `pos`, from A's side.
    ///
    /// Every legal move is listed, also where a pruning rule would search only one; values come
    /// from full-window searches sharing the TT.
    pub fn analyze(&mut self, pos: &Position) -> Analysis<u8> {
        let all = TriangleWar::with_rules(self.inner.game().geometry().clone(), Rules::NONE);
        let engine = self.answering();
        let before = engine.stats();
        let mut a = search_core::analyze_with(&all, pos, |p| engine.search(p, -INFINITY, INFINITY));
        let after = engine.stats();
        a.stats = Stats {
            nodes: after.nodes - before.nodes,
            tt_probes: after.tt_probes - before.tt_probes,
            tt_hits: after.tt_hits - before.tt_hits,
            cutoffs: after.cutoffs - before.cutoffs,
            elapsed: after.elapsed - before.elapsed,
        };
        a
    }

    /// The underlying engine (statistics, raw searches).
    pub fn engine(&mut self) -> &mut search_core::Solver<TriangleWar> {
        &mut self.inner
    }
}

/// A TT size request that cannot be met.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TtSizeError {
    /// The request is below one bucket.
    #[error("a TT of {mib} MiB is too small: at least 1 MiB is needed")]
    TooSmall {
        /// The requested size in MiB.
        mib: u64,
    },
    /// The table would not fit the memory available.
    #[error("a TT of {mib} MiB needs {needed_bytes} bytes, but only {available_bytes} bytes are available")]
    TooLarge {
        /// The requested size in MiB.
        mib: u64,
        /// Bytes the table would allocate.
        needed_bytes: u64,
        /// Bytes available (as measured by the caller).
        available_bytes: u64,
    },
}

/// Bytes one TT entry of the Triangle War engine takes.
#[must_use]
pub fn tt_entry_bytes() -> u64 {
    search_core::TranspositionTable::<u64, u8>::entry_bytes() as u64
}

/// The largest TT (as `tt_bits`, `2^tt_bits` entries) that fits in `mib` MiB, checked before
/// anything is allocated against `available_bytes` (the caller measures it, e.g. from
/// `/proc/meminfo`; `None`: unchecked).
///
/// # Errors
/// [`TtSizeError::TooSmall`] below 1 MiB; [`TtSizeError::TooLarge`] if the table would need
/// more than `available_bytes`.
pub fn tt_bits_for_mib(mib: u64, available_bytes: Option<u64>) -> Result<u32, TtSizeError> {
    if mib == 0 {
        return Err(TtSizeError::TooSmall { mib });
    }
    let entries = mib.saturating_mul(1 << 20) / tt_entry_bytes();
    let bits = (63 - entries.leading_zeros()).min(search_core::MAX_TT_BITS);
    let needed_bytes = (1u64 << bits) * tt_entry_bytes();
    match available_bytes {
        Some(available_bytes) if needed_bytes > available_bytes => {
            Err(TtSizeError::TooLarge { mib, needed_bytes, available_bytes })
        }
        _ => Ok(bits),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tt_sizes_round_down_and_oversized_requests_are_refused() {
        let bits = tt_bits_for_mib(1536, None).unwrap();
        assert!((1u64 << bits) * tt_entry_bytes() <= 1536 << 20);
        assert!((2u64 << bits) * tt_entry_bytes() > 1536 << 20);
        assert_eq!(tt_bits_for_mib(0, None), Err(TtSizeError::TooSmall { mib: 0 }));
        match tt_bits_for_mib(4096, Some(1 << 30)) {
            Err(TtSizeError::TooLarge { needed_bytes, .. }) => assert!(needed_bytes > 1 << 30),
            other => panic!("{other:?}"),
        }
    }
}
