//! [`Solver`]: negamax with an alpha-beta window and a transposition table.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::{Bound, Game, TranspositionTable, TtEntry, Value, INFINITY};

/// Search statistics, accumulated over every search of a [`Solver`] until
/// [`Solver::reset_stats`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions visited (every call of the negamax routine, terminal ones included).
    pub nodes: u64,
    /// TT look-ups.
    pub tt_probes: u64,
    /// TT look-ups that found an entry for the position.
    pub tt_hits: u64,
    /// Beta cutoffs: move loops left early because a move reached the window's upper bound.
    pub cutoffs: u64,
    /// Wall-clock time spent in searches.
    pub elapsed: Duration,
}

impl Stats {
    /// What was counted since `before` (an earlier reading of the same counters).
    #[must_use]
    pub fn since(&self, before: &Stats) -> Stats {
        Stats {
            nodes: self.nodes - before.nodes,
            tt_probes: self.tt_probes - before.tt_probes,
            tt_hits: self.tt_hits - before.tt_hits,
            cutoffs: self.cutoffs - before.cutoffs,
            elapsed: self.elapsed - before.elapsed,
        }
    }
}

/// Limits are checked every `LIMIT_CHECK_MASK + 1` nodes.
pub(crate) const LIMIT_CHECK_MASK: u64 = (1 << 12) - 1;

/// When a limited search ([`Solver::try_search`], [`Solver::solve_root`]) stops early.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop as soon as this flag is raised (e.g. by Ctrl-C or another thread).
    pub stop: Option<Arc<AtomicBool>>,
    /// Stop once the solver's node counter ([`Stats::nodes`]) reaches this total.
    pub max_nodes: Option<u64>,
    /// Stop after this much wall-clock time since the first limited search (see
    /// [`Solver::restart_clock`]).
    pub time: Option<Duration>,
}

impl Limits {
    fn is_set(&self) -> bool {
        self.stop.is_some() || self.max_nodes.is_some() || self.time.is_some()
    }
}

/// A limited search was stopped by its [`Limits`] before it proved its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("search stopped by its limits before finishing")]
pub struct Interrupted;

/// How a [`Solver`] searches: policies that change the work, never the values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Principal variation search (PVS): a null window for every move after the first,
    /// re-searched only when it beats alpha. It pays when move ordering usually finds the best
    /// move first; with weak ordering and widely spread values its re-searches cost more than
    /// they save, so a game crate chooses its default.
    pub principal_variation_search: bool,
    /// The TT holds `2^tt_bits` entries (at most [`crate::MAX_TT_BITS`]); 0 switches the TT off.
    pub tt_bits: u32,
}

impl SearchOptions {
    /// PVS on, a TT of 2^20 entries.
    pub const DEFAULT: SearchOptions = SearchOptions { principal_variation_search: true, tt_bits: 20 };
}

impl Default for SearchOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// An exact solver for one game: negamax with an alpha-beta window, a TT storing exact / lower /
/// upper bounds, TT-move-first ordering then [`Game::order_moves`], and pruning by
/// [`Game::value_bounds`].
///
/// The solver keeps its TT between calls, so one solver answers a batch of positions of the
/// same game with shared work. Per node it allocates nothing: move lists live in one buffer per
/// ply, reused.
pub struct Solver<G: Game> {
    game: G,
    tt: TranspositionTable<G::Key, G::Move>,
    stats: Stats,
    move_stack: Vec<Vec<G::Move>>,
    pvs: bool,
    limits: Limits,
    /// Set when a limit stopped the current search: every value since is meaningless and
    /// nothing more is stored in the TT until the next search starts.
    interrupted: bool,
    /// When the current limited search started (for [`Limits::time`]).
    started: Option<Instant>,
    /// Whether the running search is a limited one ([`Solver::try_search`]).
    limited: bool,
}

impl<G: Game> Solver<G> {
    /// A solver for `game` with a TT of `2^tt_bits` entries (see
    /// [`TranspositionTable::with_bits`]) and principal variation search on.
    pub fn new(game: G, tt_bits: u32) -> Self {
        Self::with_options(game, SearchOptions { tt_bits, ..SearchOptions::DEFAULT })
    }

    /// A solver for `game` searching as `options` say.
    pub fn with_options(game: G, options: SearchOptions) -> Self {
        Solver {
            game,
            tt: TranspositionTable::with_bits(options.tt_bits),
            stats: Stats::default(),
            move_stack: Vec::new(),
            pvs: options.principal_variation_search,
            limits: Limits::default(),
            interrupted: false,
            started: None,
            limited: false,
        }
    }

    /// Sets the limits that later searches obey. [`Solver::try_search`] (and the root driver)
    /// report a stop as [`Interrupted`]; every other search (plain [`Solver::search`],
    /// [`Solver::solve`], analyses) also stops once the stop flag is raised or the node budget
    /// is spent, but then returns a meaningless value: a caller that sets limits for those must
    /// discard what it gets after a stop (the web page's solve budget does). The time limit
    /// counts only from the first [`Solver::try_search`].
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// [`Solver::search`] under the [`Limits`] of [`Solver::set_limits`], counted from this
    /// call: `Err(Interrupted)` if a limit stopped it (the TT then keeps only results proven
    /// before the stop, so a later search continues from them).
    ///
    /// # Errors
    /// [`Interrupted`] when the stop flag was raised, the node budget was spent or the time
    /// limit passed.
    pub fn try_search(&mut self, pos: &G::Position, alpha: Value, beta: Value) -> Result<Value, Interrupted> {
        if self.limits_reached(self.stats.nodes) {
            return Err(Interrupted);
        }
        self.started.get_or_insert_with(Instant::now);
        self.limited = self.limits.is_set();
        let v = self.search(pos, alpha, beta);
        self.limited = false;
        if std::mem::take(&mut self.interrupted) {
            return Err(Interrupted);
        }
        Ok(v)
    }

    /// Clears the start time of limited searches: [`Limits::time`] counts again from the next
    /// [`Solver::try_search`].
    pub fn restart_clock(&mut self) {
        self.started = None;
    }

    fn limits_reached(&self, nodes: u64) -> bool {
        let l = &self.limits;
        l.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
            || l.max_nodes.is_some_and(|m| nodes >= m)
            || l.time.is_some_and(|t| self.started.is_some_and(|s| s.elapsed() >= t))
    }

    /// The TT entries whose subtrees took at least `min_work` nodes
    /// ([`TranspositionTable::heavy_entries`]): what a checkpoint keeps of the TT.
    #[must_use]
    pub fn heavy_entries(&self, min_work: u32) -> Vec<TtEntry<G::Key, G::Move>> {
        self.tt.heavy_entries(min_work)
    }

    /// Stores `entries` (e.g. [`Solver::heavy_entries`] of an earlier run on the same game) in
    /// the TT. Entries are proven bounds on positions' values, valid for any later search of
    /// the same game whatever its rules of move pruning or ordering.
    pub fn seed_tt(&mut self, entries: &[TtEntry<G::Key, G::Move>]) {
        for &e in entries {
            self.tt.store(e);
        }
    }

    /// The game being solved.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Statistics accumulated since construction or the last [`Solver::reset_stats`].
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Zeroes the statistics (the TT is kept).
    pub fn reset_stats(&mut self) {
        self.stats = Stats::default();
    }

    /// The exact value of `pos`: the margin of the remaining play under perfect play, from the
    /// side to move of `pos`.
    pub fn solve(&mut self, pos: &G::Position) -> Value {
        self.search(pos, -INFINITY, INFINITY)
    }

    /// Fail-soft alpha-beta search of `pos` with the window `(alpha, beta)`, `alpha < beta`.
    ///
    /// With `v` the true value (side to move of `pos`) and `r` the result: if `r <= alpha` then
    /// `v <= r`; if `r >= beta` then `v >= r`; otherwise `r == v`. A null window
    /// `(t, t + 1)` answers "is `v > t`?" cheaply.
    pub fn search(&mut self, pos: &G::Position, alpha: Value, beta: Value) -> Value {
        debug_assert!(alpha < beta, "empty alpha-beta window");
        let start = Instant::now();
        self.interrupted = false;
        let v = self.negamax(pos, alpha, beta, 0);
        self.stats.elapsed += start.elapsed();
        v
    }

    /// Whether the value of `pos` (side to move) is greater than `threshold`: a null-window
    /// search.
    pub fn value_exceeds(&mut self, pos: &G::Position, threshold: Value) -> bool {
        self.search(pos, threshold, threshold + 1) > threshold
    }

    /// The exact value of every legal move of the non-terminal `pos`, from the side to move of
    /// `pos`, including the move's own gain, in move-generation order. Empty if `pos` is
    /// terminal.
    pub fn move_values(&mut self, pos: &G::Position) -> Vec<(G::Move, Value)> {
        if self.game.terminal_value(pos).is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.game.generate_moves(pos, &mut moves);
        let me = self.game.to_move(pos);
        moves
            .into_iter()
            .map(|m| {
                let (child, gain) = self.game.play(pos, m);
                let v = self.solve(&child);
                let v = if self.game.to_move(&child) == me { gain + v } else { gain - v };
                (m, v)
            })
            .collect()
    }

    /// A principal variation (PV) from `pos` to the end of the game: at every step the first
    /// move (in generation order) whose exact value equals the position's value. Recomputed by
    /// exact searches, so it never depends on what the TT happened to keep.
    pub fn principal_variation(&mut self, pos: &G::Position) -> Vec<G::Move> {
        let mut pv = Vec::new();
        let mut pos = *pos;
        let mut moves = Vec::new();
        while self.game.terminal_value(&pos).is_none() {
            let value = self.solve(&pos);
            let me = self.game.to_move(&pos);
            moves.clear();
            self.game.generate_moves(&pos, &mut moves);
            let mut next = None;
            for &m in &moves {
                let (child, gain) = self.game.play(&pos, m);
                let same = self.game.to_move(&child) == me;
                // Null-window test first: is this move's value at least `value`?
                let target = if same { value - gain } else { gain - value };
                let ok = if same {
                    self.search(&child, target - 1, target) >= target
                } else {
                    self.search(&child, target, target + 1) <= target
                };
                if ok {
                    next = Some((m, child));
                    break;
                }
            }
            let (m, child) = next.expect("a non-terminal position has a move achieving its value");
            pv.push(m);
            pos = child;
        }
        pv
    }

    /// The value, from the parent's side to move, of the move that led to `child` and banked
    /// `gain`, searched with the parent's window `(alpha, beta)`; `same` if the mover moves
    /// again in `child`.
    #[inline]
    fn child_value(
        &mut self,
        child: &G::Position,
        gain: Value,
        same: bool,
        alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Value {
        if same {
            gain + self.negamax(child, alpha - gain, beta - gain, ply + 1)
        } else {
            gain - self.negamax(child, gain - beta, gain - alpha, ply + 1)
        }
    }

    fn negamax(&mut self, pos: &G::Position, mut alpha: Value, mut beta: Value, ply: usize) -> Value {
        self.stats.nodes += 1;
        if self.stats.nodes & LIMIT_CHECK_MASK == 0
            && self.limits.is_set()
            && self.limits_reached(self.stats.nodes)
        {
            self.interrupted = true;
        }
        if self.interrupted {
            return 0;
        }
        if let Some(v) = self.game.terminal_value(pos) {
            return v;
        }
        let (lo, hi) = self.game.value_bounds(pos);
        if hi <= alpha {
            return hi;
        }
        if lo >= beta {
            return lo;
        }
        // Narrowing the window to the known bounds keeps results exact: a fail-high at `hi` or a
        // fail-low at `lo` then pins the value.
        alpha = alpha.max(lo - 1);
        beta = beta.min(hi + 1);

        let (key, symmetry) = self.game.canonical_key(pos);
        self.stats.tt_probes += 1;
        let mut hint = None;
        if let Some(e) = self.tt.probe(key) {
            self.stats.tt_hits += 1;
            match e.bound {
                Bound::Exact => return e.value,
                Bound::Lower if e.value >= beta => return e.value,
                Bound::Upper if e.value <= alpha => return e.value,
                Bound::Lower => alpha = alpha.max(e.value),
                Bound::Upper => beta = beta.min(e.value),
            }
            hint = e.best.map(|m| self.game.move_from_canonical(m, symmetry));
        }
        let (alpha0, beta0) = (alpha, beta);
        let nodes0 = self.stats.nodes;

        if self.move_stack.len() <= ply {
            self.move_stack.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.move_stack[ply]);
        moves.clear();
        self.game.generate_moves(pos, &mut moves);
        debug_assert!(!moves.is_empty(), "non-terminal position without moves: {pos:?}");
        self.game.order_moves(pos, &mut moves);
        if let Some(h) = hint {
            if let Some(i) = moves.iter().position(|&m| m == h) {
                moves[..=i].rotate_right(1);
            }
        }

        let me = self.game.to_move(pos);
        let mut best = -INFINITY;
        let mut best_move = None;
        for (i, &m) in moves.iter().enumerate() {
            let (child, gain) = self.game.play(pos, m);
            let same = self.game.to_move(&child) == me;
            // Principal variation search: the first move gets the full window, later ones a
            // null window `(alpha, alpha + 1)` first, re-searched only if they beat alpha.
            let mut v;
            if !self.pvs || i == 0 || beta - alpha <= 1 {
                v = self.child_value(&child, gain, same, alpha, beta, ply);
            } else {
                v = self.child_value(&child, gain, same, alpha, alpha + 1, ply);
                if v > alpha && v < beta {
                    v = self.child_value(&child, gain, same, v, beta, ply);
                }
            }
            if self.interrupted {
                break;
            }
            if v > best {
                best = v;
                best_move = Some(m);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        self.stats.cutoffs += 1;
                        break;
                    }
                }
            }
        }
        self.move_stack[ply] = moves;
        if self.interrupted {
            return 0;
        }

        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let work = u32::try_from(self.stats.nodes - nodes0).unwrap_or(u32::MAX);
        // A fail-low has no meaningful best move: every move was at most alpha.
        let best_move = if bound == Bound::Upper { None } else { best_move };
        let best_move = best_move.map(|m| self.game.move_to_canonical(m, symmetry));
        self.tt.store(TtEntry { key, value: best, bound, best: best_move, work });
        best
    }
}
