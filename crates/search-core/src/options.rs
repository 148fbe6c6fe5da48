//! How an [`crate::Engine`] searches and when it stops: [`SearchOptions`] (policies that change
//! the work, never the values, the one-thread table among them: [`OneThreadTable`]), the
//! [`Driver`] that turns fail-soft searches into exact values, the [`Limits`] of the `try_`
//! searches and the [`Interrupted`] error they return, the [`Stats`] an engine counts and
//! the [`TtSizeError`] of a TT size request. Below every other file of the engine.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::Value;

/// Search statistics, accumulated over every search of an [`crate::Engine`] (all threads together)
/// until [`crate::Engine::reset_stats`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions visited: every call of the negamax routine, terminal ones included, and the
    /// positions the game's own code visited ([`crate::Game::own_nodes`]).
    pub nodes: u64,
    /// TT look-ups.
    pub tt_probes: u64,
    /// TT look-ups that found an entry for the position.
    pub tt_hits: u64,
    /// Beta cutoffs: move loops left early because a move reached the window's upper bound.
    pub cutoffs: u64,
    /// Positions answered by the opening book ([`crate::Engine::set_book`]).
    pub book_hits: u64,
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
            book_hits: self.book_hits - before.book_hits,
            elapsed: self.elapsed - before.elapsed,
        }
    }
}

/// Limits are checked every `LIMIT_CHECK_MASK + 1` nodes of each thread.
pub(crate) const LIMIT_CHECK_MASK: u64 = (1 << 12) - 1;

/// When a limited search (the `try_` methods of [`crate::Engine`], [`crate::Engine::solve_root`]) stops
/// early. Searches without `try_` ignore limits.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop as soon as this flag is raised (e.g. by Ctrl-C, a client gone, another thread).
    pub stop: Option<Arc<AtomicBool>>,
    /// Stop once the engine's node counter ([`Stats::nodes`], all threads) reaches this total.
    /// With several threads each checks every 4096 of its own nodes, so a search may overrun
    /// the budget by about that much per thread.
    pub max_nodes: Option<u64>,
    /// Stop after this much wall-clock time since the first limited search (see
    /// [`crate::Engine::restart_clock`]).
    pub time: Option<Duration>,
}

impl Limits {
    /// Whether any limit is set.
    #[must_use]
    pub fn is_set(&self) -> bool {
        self.stop.is_some() || self.max_nodes.is_some() || self.time.is_some()
    }

    /// Whether the limits are reached after `nodes` nodes in all, the clock started at
    /// `started`.
    pub(crate) fn reached(&self, started: Option<Instant>, nodes: u64) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
            || self.max_nodes.is_some_and(|m| nodes >= m)
            || self.time.is_some_and(|t| started.is_some_and(|s| s.elapsed() >= t))
    }
}

/// A TT size request that cannot be met ([`crate::Engine::tt_bits_for_mib`]).
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

/// A limited search was stopped by its [`Limits`] before it proved its result. Carries the
/// bounds proven on the searched position's value when it stopped (from its side to move;
/// `lo == -INFINITY / 2` or `hi == INFINITY / 2` when nothing is known on that side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("search stopped by its limits before finishing (value proven in [{lo}, {hi}])")]
pub struct Interrupted {
    /// The value is at least this.
    pub lo: Value,
    /// The value is at most this.
    pub hi: Value,
}

/// How an [`crate::Engine`] searches: policies that change the work, never the values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// The table of one thread ([`OneThreadTable`]; several threads always share a
    /// [`crate::SharedTable`]). A game crate's default options choose it (Triangle War and
    /// dots-and-boxes keep both bounds).
    pub one_thread_table: OneThreadTable,
    /// Principal variation search (PVS): a null window for every move after the first,
    /// re-searched only when it beats alpha. It pays when move ordering usually finds the best
    /// move first; with weak ordering and widely spread values its re-searches cost more than
    /// they save, so a game crate chooses its default.
    pub principal_variation_search: bool,
    /// The TT holds `2^tt_bits` entries (at most [`crate::MAX_TT_BITS`]); 0 switches the TT off.
    pub tt_bits: u32,
    /// Search threads (at least 1): one thread searches with a [`crate::TranspositionTable`], more
    /// with lazy SMP over a [`crate::SharedTable`].
    pub threads: usize,
    /// How [`crate::Engine::solve`] (and so move values, principal variations and analyses) finds an
    /// exact value.
    pub driver: Driver,
    /// Enhanced transposition cutoff (ETC; A. Plaat, J. Schaeffer, W. Pijls and A. de Bruin,
    /// "Exploiting graph properties of game trees", AAAI 1996) at nodes whose
    /// [`crate::Game::value_bounds`] are at least this far apart (`hi - lo`; far from the end of the
    /// game, where subtrees are large): before searching any move, every child is played and
    /// its TT entry looked up; a child whose entry already proves a cutoff ends the node, and
    /// the best bound they give raises alpha. `None` (the default) never: it pays where the
    /// children's TT hits are frequent and the node's own subtree large (Connect Four).
    pub enhanced_transposition_cutoff: Option<Value>,
    /// With [`SearchOptions::enhanced_transposition_cutoff`], ETC only at nodes with at least
    /// this many moves (after [`crate::Game::generate_moves`]): a second gate for games whose bounds
    /// narrow late (dots-and-boxes: boxes stay open through most of the middle game, while
    /// its moves, the undrawn lines, measure how far the leaves are). 0 (the default): the
    /// span alone decides.
    pub etc_min_moves: usize,
    /// Look-ahead prefetch: while a move is searched, the next move's child is already played
    /// and keyed and its TT bucket asked into the cache (the table's prefetch), so that the
    /// probe's cache miss overlaps the search before it instead of stalling it; the key is
    /// handed to the child's search. It pays where the table is far larger than the cache and
    /// the key costs little beside a miss (dots-and-boxes on 4x4 and up); the child played
    /// and keyed after the move that ends the node by a cutoff is wasted. Default: false.
    pub prefetch_children: bool,
    /// With several threads, moves of nodes at plies below this (from the search's root) that
    /// another thread is searching are put off until the node's other moves are searched
    /// (simplified ABDADA; [`crate::Engine::set_defer_plies`] changes it later; 0 turns it off).
    /// Default [`DEFAULT_DEFER_PLIES`]; dots-and-boxes takes 8
    /// (`docs/results/dots-and-boxes-4x4-3x5.md`).
    pub defer_plies: usize,
    /// Engines sharing through an [`crate::Exchange`] (the workers of a distributed solve):
    /// plies below the search's root within which each tells the others its search path and
    /// puts off a move into a position on another's path until the node's other moves are
    /// searched (ABDADA's deferral across engines; 0 turns it off). Default
    /// [`DEFAULT_DEFER_PLIES`]; dots-and-boxes takes 8, Triangle War 0 (there the paths save
    /// no nodes and cost time: `docs/results/distributed.md`).
    pub peer_defer_plies: usize,
}

impl SearchOptions {
    /// PVS on, a TT of 2^20 entries, one thread with the plain table, one full-window search.
    pub const DEFAULT: SearchOptions = SearchOptions {
        principal_variation_search: true,
        tt_bits: 20,
        threads: 1,
        driver: Driver::FullWindow,
        enhanced_transposition_cutoff: None,
        etc_min_moves: 0,
        prefetch_children: false,
        defer_plies: DEFAULT_DEFER_PLIES,
        peer_defer_plies: DEFAULT_DEFER_PLIES,
        one_thread_table: OneThreadTable::Plain,
    };
}

impl Default for SearchOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// How the exact value of a position is found from fail-soft searches ([`crate::Engine::solve`],
/// [`crate::Engine::solve_within`]). Sources: MTD(f), A. Plaat, J. Schaeffer, W. Pijls and A. de
/// Bruin, "Best-first fixed-depth minimax algorithms", *Artificial Intelligence* 87 (1996);
/// bisection leaning towards 0, P. Pons, "Solving Connect 4: how to build a perfect AI" (2019).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Driver {
    /// One search with the full window `(-INFINITY, INFINITY)`.
    #[default]
    FullWindow,
    /// MTD(f): null-window searches around a first guess, each result the next guess.
    Mtdf {
        /// The first guess.
        guess: Value,
    },
    /// Bisection of the interval of [`crate::Game::value_bounds`] with null windows.
    Bisection,
    /// Bisection leaning towards 0, so that the sign (who wins) is settled first (P. Pons'
    /// Connect Four solver).
    BisectionTowardZero,
    /// MTD(f) whose first guess is the midpoint of [`crate::Game::value_bounds`] (C. Steininger's
    /// `c4`): each fail-soft result is the next test.
    MtdfMidpoint,
    /// Two MTD(f) steps from 0 (is the value above 0? then: is it beyond the bound that search
    /// proved?), then [`Driver::BisectionTowardZero`] on what is left: a value next to 0 takes
    /// two searches, a large one a few more than bisection.
    ZeroThenBisection,
    /// Null-window tests walking in from both ends of the interval, one step at a time ("is
    /// the value the upper bound?", "is it above the lower bound?"; each fail-soft result
    /// moves its end by as much as it proves), the end whose last test was cheaper next, while
    /// each test costs at most `budget` nodes; then [`Driver::BisectionTowardZero`], its
    /// midpoints taken from the bounds its own tests proved (the tests the walk answered
    /// skipped), so that a value the walk did not reach is searched as that driver searches
    /// it. A test next to an end is cheap (the bounds from what is left of the game cut most
    /// of its tree) and one far from the value dear, so values next to an end (quick wins and
    /// losses) take a few cheap tests where bisection's first tests, far from them, are the
    /// dear ones.
    EndsThenBisection {
        /// The most nodes a test of the walk may cost for the walk to go on.
        budget: u64,
    },
}

/// Nodes a search runs on one thread before the helpers start (see [`crate::Engine::set_solo_nodes`]).
pub const DEFAULT_SOLO_NODES: u64 = 1 << 15;

/// Plies (from the search's root) at which moves being searched by another thread are put off
/// (see [`crate::Engine::set_defer_plies`]).
pub const DEFAULT_DEFER_PLIES: usize = 16;

/// The result of a search run without limits: such a search is never interrupted (only a
/// limit interrupts, and searches without `try_` check none), so this is its value. For game
/// crates that write a plain and a `try_` form of one query over a shared `limited` flag.
///
/// # Panics
/// Only if given an `Err`, which a search without limits never returns.
#[inline]
pub fn unlimited<T>(result: Result<T, Interrupted>) -> T {
    match result {
        Ok(v) => v,
        Err(e) => unreachable!("a search without limits was interrupted: {e}"),
    }
}

/// The table one thread searches with ([`SearchOptions::one_thread_table`]; several threads
/// always share a [`crate::SharedTable`]). Values never depend on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OneThreadTable {
    /// [`crate::TranspositionTable`]: two-entry buckets, one bound per entry (the default).
    #[default]
    Plain,
    /// [`crate::BoundsTable`]: both bounds of a position per entry, merged on store (J. K.
    /// Barker and R. E. Korf's TT). Worth it where a position is often searched again with
    /// another window and both results are useful (dots-and-boxes, Triangle War); the merge
    /// costs a little at every store.
    BothBounds,
    /// [`crate::PackedTable`]: entries of 16 bytes instead of 24 (for `u64` keys; the value in
    /// 32 bits, the best move as a [`crate::PackedMove`] code, the work saturated at
    /// `2^20 - 1`, as in the shared table), two to a bucket that never straddles two cache
    /// lines: fewer cache misses where the search waits on a large TT, a third less memory
    /// for the same `tt_bits`.
    Packed,
    /// [`crate::SharedTable`], the table several threads share (its layout, its narrow part and
    /// its replacement), on one thread: the table's effect on the nodes measured exactly,
    /// without the threads' nondeterminism.
    Shared,
}
