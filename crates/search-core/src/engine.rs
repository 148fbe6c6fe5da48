//! [`Engine`]: the one negamax of the workspace, with an alpha-beta window and a transposition
//! table (TT), on one thread or on several (lazy SMP over a lock-free shared TT), generic over
//! its [`Table`]; and the limits ([`Limits`]) that stop it with a typed error ([`Interrupted`]).
//!
//! The negamax ([`Worker::negamax`]) is written once, generic over the TT it probes and stores
//! ([`Table`]: the one-thread [`TranspositionTable`], or a reference to the shared
//! [`SharedTable`] of every thread), as minimax-rs does with its `Table` trait. The number of
//! threads is a number in [`SearchOptions::threads`], not a type the game picks.
//!
//! # Several threads
//! Lazy SMP (shared-memory parallel search without split points): every thread searches the
//! same root with the same window, all of them probing and storing one shared TT, and the
//! search ends when the first thread finishes; the others are then stopped. Since every thread
//! runs a complete fail-soft alpha-beta search over a TT that only ever holds correct bounds,
//! the finished thread's result satisfies the window's contract ([`Engine::search`]) whatever
//! the others did: values are exactly those of one thread (a fail-soft bound outside the window
//! may differ, its meaning does not).
//!
//! For the threads to split the work instead of racing down the same line, a thread entering a
//! child of a node near the root marks the child as busy in a small shared table; another
//! thread reaching the same child as a later move of its node puts it off and searches the
//! node's other moves first, coming back to it at the end (by then usually a TT hit). This is
//! T. Kerrigan's simplified form of ABDADA (J.-C. Weill, "The ABDADA distributed minimax search
//! algorithm", *ICCA Journal* 19, 1996). The classic lazy SMP alternative, helpers with a
//! perturbed move order ([`Engine::set_perturb`]), made Connect Four search about 1.7 times the
//! one-thread tree in total where deferral made it 1.07 times (Test_L1_R2, first 20 positions,
//! 2 threads, TT 2^16: 618k and 375k mean nodes against 349k on one thread).
//!
//! Small searches do not pay for waking threads: each search first runs on the calling thread
//! alone for [`Engine::set_solo_nodes`] nodes; only if it has not finished by then do the
//! helpers start (on the same TT, so the first part's results are not lost). Threads are
//! started per search ([`std::thread::scope`]), which costs tens of microseconds against
//! searches of at least [`DEFAULT_SOLO_NODES`] nodes. A helper thread the system refuses to
//! create (a thread or address-space limit) is skipped, not a panic: the search runs on the
//! threads that started, the calling one at least, with the same values.
//!
//! # Sources
//! - Negamax and alpha-beta with fail-soft bounds: D. E. Knuth and R. W. Moore, "An analysis
//!   of alpha-beta pruning", *Artificial Intelligence* 6 (1975).
//! - Principal variation search: T. A. Marsland and M. Campbell (1982); A. Reinefeld (1983).
//! - Lazy SMP: D. Dailey's "Lazy SMP" posts (Computer Chess Club, 2013); here without depth
//!   variation (an exact solver always searches to the end).
//! - ABDADA: J.-C. Weill (1996), in T. Kerrigan's simplified form with a table of busy
//!   positions.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use crate::{
    Bound, BoundsTable, Game, PackedMove, PackedTable, SharedTable, Symmetry, TranspositionTable, TtEntry,
    TtKey, Value, INFINITY,
};

/// Search statistics, accumulated over every search of an [`Engine`] (all threads together)
/// until [`Engine::reset_stats`].
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

/// Limits are checked every `LIMIT_CHECK_MASK + 1` nodes of each thread.
pub(crate) const LIMIT_CHECK_MASK: u64 = (1 << 12) - 1;

/// When a limited search (the `try_` methods of [`Engine`], [`Engine::solve_root`]) stops
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
    /// [`Engine::restart_clock`]).
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
    fn reached(&self, started: Option<Instant>, nodes: u64) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
            || self.max_nodes.is_some_and(|m| nodes >= m)
            || self.time.is_some_and(|t| started.is_some_and(|s| s.elapsed() >= t))
    }
}

/// A TT size request that cannot be met ([`Engine::tt_bits_for_mib`]).
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

/// How an [`Engine`] searches: policies that change the work, never the values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Principal variation search (PVS): a null window for every move after the first,
    /// re-searched only when it beats alpha. It pays when move ordering usually finds the best
    /// move first; with weak ordering and widely spread values its re-searches cost more than
    /// they save, so a game crate chooses its default.
    pub principal_variation_search: bool,
    /// The TT holds `2^tt_bits` entries (at most [`crate::MAX_TT_BITS`]); 0 switches the TT off.
    pub tt_bits: u32,
    /// Search threads (at least 1): one thread searches with a [`TranspositionTable`], more
    /// with lazy SMP over a [`SharedTable`].
    pub threads: usize,
    /// How [`Engine::solve`] (and so move values, principal variations and analyses) finds an
    /// exact value.
    pub driver: Driver,
    /// Enhanced transposition cutoff (ETC; A. Plaat, J. Schaeffer, W. Pijls and A. de Bruin,
    /// "Exploiting graph properties of game trees", AAAI 1996) at nodes whose
    /// [`Game::value_bounds`] are at least this far apart (`hi - lo`; far from the end of the
    /// game, where subtrees are large): before searching any move, every child is played and
    /// its TT entry looked up; a child whose entry already proves a cutoff ends the node, and
    /// the best bound they give raises alpha. `None` (the default) never: it pays where the
    /// children's TT hits are frequent and the node's own subtree large (Connect Four).
    pub enhanced_transposition_cutoff: Option<Value>,
    /// With [`SearchOptions::enhanced_transposition_cutoff`], ETC only at nodes with at least
    /// this many moves (after [`Game::generate_moves`]): a second gate for games whose bounds
    /// narrow late (dots-and-boxes: boxes stay open through most of the middle game, while
    /// its moves, the undrawn lines, measure how far the leaves are). 0 (the default): the
    /// span alone decides.
    pub etc_min_moves: usize,
    /// Look-ahead prefetch: while a move is searched, the next move's child is already played
    /// and keyed and its TT bucket asked into the cache ([`Table::prefetch`]), so that the
    /// probe's cache miss overlaps the search before it instead of stalling it; the key is
    /// handed to the child's search. It pays where the table is far larger than the cache and
    /// the key costs little beside a miss (dots-and-boxes on 4x4 and up); the child played
    /// and keyed after the move that ends the node by a cutoff is wasted. Default: false.
    pub prefetch_children: bool,
    /// With several threads, moves of nodes at plies below this (from the search's root) that
    /// another thread is searching are put off until the node's other moves are searched
    /// (simplified ABDADA; [`Engine::set_defer_plies`] changes it later; 0 turns it off).
    /// Default [`DEFAULT_DEFER_PLIES`]; dots-and-boxes takes 8
    /// (`docs/results/dots-and-boxes-4x4-3x5.md`).
    pub defer_plies: usize,
}

impl SearchOptions {
    /// PVS on, a TT of 2^20 entries, one thread, one full-window search.
    pub const DEFAULT: SearchOptions = SearchOptions {
        principal_variation_search: true,
        tt_bits: 20,
        threads: 1,
        driver: Driver::FullWindow,
        enhanced_transposition_cutoff: None,
        etc_min_moves: 0,
        prefetch_children: false,
        defer_plies: DEFAULT_DEFER_PLIES,
    };
}

impl Default for SearchOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// How the exact value of a position is found from fail-soft searches ([`Engine::solve`],
/// [`Engine::solve_within`]). Sources: MTD(f), A. Plaat, J. Schaeffer, W. Pijls and A. de
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
    /// Bisection of the interval of [`Game::value_bounds`] with null windows.
    Bisection,
    /// Bisection leaning towards 0, so that the sign (who wins) is settled first (P. Pons'
    /// Connect Four solver).
    BisectionTowardZero,
    /// MTD(f) whose first guess is the midpoint of [`Game::value_bounds`] (C. Steininger's
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

/// Nodes a search runs on one thread before the helpers start (see [`Engine::set_solo_nodes`]).
pub const DEFAULT_SOLO_NODES: u64 = 1 << 15;

/// Plies (from the search's root) at which moves being searched by another thread are put off
/// (see [`Engine::set_defer_plies`]).
pub const DEFAULT_DEFER_PLIES: usize = 16;

/// log2 of the number of slots of the table of positions being searched.
const BUSY_BITS: u32 = 14;

/// A transposition table the negamax probes and stores: the one-thread
/// [`TranspositionTable`], or `&SharedTable` (each thread holds its own reference and stores
/// through it).
pub trait Table<K, M> {
    /// Whether several threads share this table: the negamax then defers moves other threads
    /// are searching (compiled out for a table of one thread's own).
    const SHARED: bool;
    /// Whether an entry holds both bounds of its position ([`Table::probe_bounds`]); the
    /// negamax reads one bound with [`Table::probe`] otherwise. Default: false.
    const BOTH_BOUNDS: bool = false;

    /// The entry stored for `key`, if any.
    fn probe(&self, key: K) -> Option<TtEntry<K, M>>;
    /// The bounds stored for `key` (`-INFINITY` / `INFINITY` where unknown) and the best move,
    /// if there is an entry. Default: the one bound of [`Table::probe`]'s entry.
    #[inline]
    fn probe_bounds(&self, key: K) -> Option<(Value, Value, Option<M>)> {
        self.probe(key).map(|e| match e.bound {
            Bound::Exact => (e.value, e.value, e.best),
            Bound::Lower => (e.value, INFINITY, e.best),
            Bound::Upper => (-INFINITY, e.value, e.best),
        })
    }
    /// Stores `entry` (the table's replacement scheme decides what it displaces; a table may
    /// drop it).
    fn store(&mut self, entry: TtEntry<K, M>);
    /// Asks the processor to bring `key`'s bucket into the cache (a hint: no effect on what
    /// the table holds), so that a probe soon after finds it there. Default: nothing.
    #[inline]
    fn prefetch(&self, _key: K) {}
}

impl<K: TtKey, M: Copy> Table<K, M> for TranspositionTable<K, M> {
    const SHARED: bool = false;

    #[inline]
    fn probe(&self, key: K) -> Option<TtEntry<K, M>> {
        TranspositionTable::probe(self, key).copied()
    }
    #[inline]
    fn store(&mut self, entry: TtEntry<K, M>) {
        TranspositionTable::store(self, entry);
    }
    #[inline]
    fn prefetch(&self, key: K) {
        TranspositionTable::prefetch(self, key);
    }
}

impl<K: TtKey, M: Copy> Table<K, M> for BoundsTable<K, M> {
    const SHARED: bool = false;
    const BOTH_BOUNDS: bool = true;

    #[inline]
    fn probe(&self, key: K) -> Option<TtEntry<K, M>> {
        BoundsTable::probe(self, key)
    }
    #[inline]
    fn probe_bounds(&self, key: K) -> Option<(Value, Value, Option<M>)> {
        BoundsTable::probe_bounds(self, key)
    }
    #[inline]
    fn store(&mut self, entry: TtEntry<K, M>) {
        BoundsTable::store(self, entry);
    }
    #[inline]
    fn prefetch(&self, key: K) {
        BoundsTable::prefetch(self, key);
    }
}

impl<K: TtKey, M: PackedMove> Table<K, M> for PackedTable<K, M> {
    const SHARED: bool = false;

    #[inline]
    fn probe(&self, key: K) -> Option<TtEntry<K, M>> {
        PackedTable::probe(self, key)
    }
    #[inline]
    fn store(&mut self, entry: TtEntry<K, M>) {
        PackedTable::store(self, entry);
    }
    #[inline]
    fn prefetch(&self, key: K) {
        PackedTable::prefetch(self, key);
    }
}

impl<K: TtKey, M: PackedMove> Table<K, M> for &SharedTable<K, M> {
    const SHARED: bool = true;

    #[inline]
    fn probe(&self, key: K) -> Option<TtEntry<K, M>> {
        SharedTable::probe(self, key)
    }
    #[inline]
    fn store(&mut self, entry: TtEntry<K, M>) {
        SharedTable::store(self, entry);
    }
    #[inline]
    fn prefetch(&self, key: K) {
        SharedTable::prefetch(self, key);
    }
}

/// The TT of an engine: one thread's (plain or packed), or the table all threads share.
enum Tables<K: TtKey, M: PackedMove> {
    Serial(TranspositionTable<K, M>),
    Bounds(BoundsTable<K, M>),
    Packed(PackedTable<K, M>),
    Shared(SharedTable<K, M>),
}

/// An exact solver for one game: negamax with an alpha-beta window, a TT storing exact / lower /
/// upper bounds, TT-move-first ordering then [`Game::order_moves`], and pruning by
/// [`Game::value_bounds`], on [`SearchOptions::threads`] threads.
///
/// The engine keeps its TT between calls, so one engine answers a batch of positions of the same
/// game with shared work. Per node it allocates nothing: move lists live in one buffer per ply,
/// reused.
///
/// Searches come in two kinds: plain ones ([`Engine::search`], [`Engine::solve`],
/// [`Engine::analyze`], ...) ignore [`Limits`] and always finish; `try_` ones and
/// [`Engine::solve_root`] obey the limits of [`Engine::set_limits`] and return
/// `Err(`[`Interrupted`]`)` when stopped, the TT keeping only results proven before the stop.
pub struct Engine<G: Game> {
    game: G,
    tt: Tables<G::Key, G::Move>,
    options: SearchOptions,
    /// The table of one thread ([`Engine::with_packed_tt`], [`Engine::with_shared_tt`]).
    one_thread_table: OneThreadTable,
    solo_nodes: u64,
    perturb: bool,
    etc_min_reach: Value,
    busy: Option<BusyTable>,
    workers: Vec<Worker<G::Move, G::Position, G::Key>>,
    elapsed: Duration,
    limits: Limits,
    /// When the current run of limited searches started (for [`Limits::time`]).
    started: Option<Instant>,
}

/// A child that enhanced transposition cutoff played and looked up: its position, the points
/// its move banked, and its TT key ([`Game::canonical_key`]).
type EtcChild<P, K> = (P, Value, (K, Symmetry));

/// One thread's search state: its move buffers, counters and identity. Aligned to two cache
/// lines so that one thread's counters never share a line with another's (false sharing).
#[repr(align(128))]
struct Worker<M, P, K> {
    /// 0 for the calling thread (the game's own move order), 1.. for helpers.
    id: u64,
    /// Whether this thread perturbs its move order (helpers only).
    perturb: bool,
    move_stack: Vec<Vec<M>>,
    /// Per ply, the moves deferred because another thread is searching them.
    defer_stack: Vec<Vec<M>>,
    /// Per ply, the children of the node's moves (position, points banked, TT key), when
    /// enhanced transposition cutoff played and looked them up before the search (the key is
    /// handed to the child's search, so that it is not computed twice).
    child_stack: Vec<Vec<EtcChild<P, K>>>,
    /// Per ply, the words a game with [`Game::EXPANDS_WITH_TERMINAL_TEST`] keeps for its moves
    /// between [`Game::terminal_or_moves`] and [`Game::play_memo`].
    memo_stack: Vec<Vec<u64>>,
    stats: Stats,
    /// Stop once `stats.nodes` reaches this (checked with the limits).
    budget: u64,
    /// Set when the search was stopped: every value since is meaningless and nothing more is
    /// stored.
    stopped: bool,
}

/// What the threads of one search share.
struct Ctx<'a, G: Game> {
    game: &'a G,
    /// Raised when the search is over for every thread (one finished, or a limit was reached).
    stop: &'a AtomicBool,
    pvs: bool,
    /// [`SearchOptions::enhanced_transposition_cutoff`].
    etc: Option<Value>,
    /// [`SearchOptions::etc_min_moves`].
    etc_min_moves: usize,
    /// [`SearchOptions::prefetch_children`].
    prefetch_children: bool,
    /// [`Engine::set_etc_min_reach`].
    etc_min_reach: Value,
    /// Positions being searched by some thread (ABDADA's "exclusive" marks); `None` while one
    /// thread searches alone.
    busy: Option<&'a BusyTable>,
    /// Deferral applies to children of nodes at plies below this.
    defer_plies: usize,
    /// The caller's limits, for a limited search with some set.
    check: Option<LimitCheck<'a>>,
}

/// The caller's [`Limits`] as the threads of one search check them, each every
/// `LIMIT_CHECK_MASK + 1` of its own nodes.
struct LimitCheck<'a> {
    limits: &'a Limits,
    started: Option<Instant>,
    /// Nodes of all threads together, approximately: the total at the start of the search plus
    /// `LIMIT_CHECK_MASK + 1` for every block of that many nodes a thread has counted.
    nodes: AtomicU64,
    /// Raised when a limit stopped the search (as opposed to a thread finishing first).
    interrupted: AtomicBool,
}

impl LimitCheck<'_> {
    /// Counts one more block of nodes of one thread; whether a limit is reached.
    fn block_reached(&self) -> bool {
        let nodes = self.nodes.fetch_add(LIMIT_CHECK_MASK + 1, Ordering::Relaxed) + LIMIT_CHECK_MASK + 1;
        self.limits.reached(self.started, nodes)
    }
}

/// Keys (64-bit hashes) of the positions some thread is searching right now, one per slot (a
/// lost mark only means a move is not deferred).
struct BusyTable {
    slots: Vec<AtomicU64>,
    shift: u32,
}

impl BusyTable {
    fn new(bits: u32) -> Self {
        BusyTable { slots: (0..1usize << bits).map(|_| AtomicU64::new(0)).collect(), shift: 64 - bits }
    }
    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(mix(key) >> self.shift) as usize]
    }
    #[inline]
    fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }
    #[inline]
    fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }
    #[inline]
    fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// A 64-bit mixer (the finaliser of MurmurHash3).
#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

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

/// The table one thread searches with (several threads always share a [`SharedTable`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OneThreadTable {
    /// [`BoundsTable`] or [`TranspositionTable`], as [`Game::TT_KEEPS_BOTH_BOUNDS`] says.
    Default,
    /// [`PackedTable`].
    Packed,
    /// [`SharedTable`].
    Shared,
}

impl<G: Game> Engine<G> {
    /// An engine for `game` with a TT of `2^tt_bits` entries (see
    /// [`TranspositionTable::with_bits`]), principal variation search on, one thread.
    pub fn new(game: G, tt_bits: u32) -> Self {
        Self::with_options(game, SearchOptions { tt_bits, ..SearchOptions::DEFAULT })
    }

    /// An engine for `game` searching as `options` say (`threads` 0 counts as 1).
    pub fn with_options(game: G, options: SearchOptions) -> Self {
        Self::build(game, options, OneThreadTable::Default)
    }

    /// [`Engine::with_options`], but one thread searches with a [`PackedTable`] instead of a
    /// [`TranspositionTable`]: entries of 16 bytes instead of 24 (for `u64` keys; the value in
    /// 32 bits, the best move as a [`PackedMove`] code, the work saturated at `2^20 - 1`, as in
    /// the [`SharedTable`] of several threads), two to a bucket that never straddles two cache
    /// lines: fewer cache misses where the search waits on a large TT, a third less memory for
    /// the same `tt_bits`. The same searches otherwise; several threads share a [`SharedTable`]
    /// as ever. Kept by [`Engine::rebuilt`].
    pub fn with_packed_tt(game: G, options: SearchOptions) -> Self {
        Self::build(game, options, OneThreadTable::Packed)
    }

    /// [`Engine::with_options`], but one thread searches with the [`SharedTable`] that several
    /// threads share (its layout, its narrow part and its replacement), so that the table's
    /// effect on the nodes can be measured exactly, without the threads' nondeterminism. Kept
    /// by [`Engine::rebuilt`].
    pub fn with_shared_tt(game: G, options: SearchOptions) -> Self {
        Self::build(game, options, OneThreadTable::Shared)
    }

    fn build(game: G, options: SearchOptions, one_thread_table: OneThreadTable) -> Self {
        let threads = options.threads.max(1);
        let options = SearchOptions { threads, ..options };
        let workers = (0..threads as u64)
            .map(|id| Worker {
                id,
                perturb: false,
                move_stack: Vec::new(),
                defer_stack: Vec::new(),
                child_stack: Vec::new(),
                memo_stack: Vec::new(),
                stats: Stats::default(),
                budget: u64::MAX,
                stopped: false,
            })
            .collect();
        let shared = || SharedTable::with_bits_narrow(options.tt_bits, game.narrow_key_bits());
        let (tt, busy) = if threads > 1 {
            (Tables::Shared(shared()), Some(BusyTable::new(BUSY_BITS)))
        } else if one_thread_table == OneThreadTable::Shared {
            (Tables::Shared(shared()), None)
        } else if one_thread_table == OneThreadTable::Packed {
            (Tables::Packed(PackedTable::with_bits(options.tt_bits)), None)
        } else if G::TT_KEEPS_BOTH_BOUNDS {
            (Tables::Bounds(BoundsTable::with_bits(options.tt_bits)), None)
        } else {
            (Tables::Serial(TranspositionTable::with_bits(options.tt_bits)), None)
        };
        Engine {
            game,
            tt,
            options,
            one_thread_table,
            solo_nodes: DEFAULT_SOLO_NODES,
            perturb: false,
            etc_min_reach: 0,
            busy,
            workers,
            elapsed: Duration::ZERO,
            limits: Limits::default(),
            started: None,
        }
    }

    /// The same game searched as `options` say: a fresh engine (empty TT, statistics zeroed,
    /// no limits, the `set_` tunings at their defaults), as [`Engine::with_options`] makes it.
    #[must_use]
    pub fn rebuilt(self, options: SearchOptions) -> Self {
        Self::build(self.game, options, self.one_thread_table)
    }

    /// The largest TT size in bits (at most [`crate::MAX_TT_BITS`]) whose table fits in
    /// `bytes` bytes on `threads` threads (one thread's table and the shared one differ in
    /// entry size); 0 (no TT) when not even two entries fit.
    #[must_use]
    pub fn tt_bits_within(bytes: u64, threads: usize) -> u32 {
        let entry = Self::tt_bytes(0, threads);
        // Both tables hold buckets of two entries: one entry (0 bits) is no TT.
        (bytes / entry.max(1)).checked_ilog2().unwrap_or(0).min(crate::MAX_TT_BITS)
    }

    /// The largest TT size in bits whose table fits in `mib` MiB on `threads` threads
    /// ([`Engine::tt_bits_within`]), checked before anything is allocated against
    /// `available_bytes` (the caller measures it, e.g. from `/proc/meminfo`; `None`:
    /// unchecked).
    ///
    /// # Errors
    /// [`TtSizeError::TooSmall`] when not even one bucket fits (0 MiB);
    /// [`TtSizeError::TooLarge`] if the table would need more than `available_bytes`.
    pub fn tt_bits_for_mib(
        mib: u64,
        threads: usize,
        available_bytes: Option<u64>,
    ) -> Result<u32, TtSizeError> {
        let bits = Self::tt_bits_within(mib.saturating_mul(1 << 20), threads);
        if bits == 0 {
            return Err(TtSizeError::TooSmall { mib });
        }
        let needed_bytes = Self::tt_bytes(bits, threads);
        match available_bytes {
            Some(available_bytes) if needed_bytes > available_bytes => {
                Err(TtSizeError::TooLarge { mib, needed_bytes, available_bytes })
            }
            _ => Ok(bits),
        }
    }

    /// Bytes a TT of `2^tt_bits` entries takes on `threads` threads (the table
    /// [`Engine::tt_bits_within`] sizes).
    #[must_use]
    pub fn tt_bytes(tt_bits: u32, threads: usize) -> u64 {
        let entry = if threads > 1 {
            SharedTable::<G::Key, G::Move>::entry_bytes()
        } else if G::TT_KEEPS_BOTH_BOUNDS {
            BoundsTable::<G::Key, G::Move>::entry_bytes()
        } else {
            TranspositionTable::<G::Key, G::Move>::entry_bytes()
        } as u64;
        entry << tt_bits
    }

    /// The options the engine was built with (`threads` at least 1).
    #[must_use]
    pub fn options(&self) -> SearchOptions {
        self.options
    }

    /// Sets the driver of [`Engine::solve`] and the searches built on it (the TT and every
    /// other option are kept).
    pub fn set_driver(&mut self, driver: Driver) {
        self.options.driver = driver;
    }

    /// Number of search threads.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// The game being solved.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Sets the limits that the `try_` searches and [`Engine::solve_root`] obey; plain searches
    /// ignore them. The time limit counts from the first limited search after this call (see
    /// [`Engine::restart_clock`]).
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
        self.started = None;
    }

    /// The limits the `try_` searches obey ([`Engine::set_limits`]).
    #[must_use]
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Clears the start time of limited searches: [`Limits::time`] counts again from the next
    /// one.
    pub fn restart_clock(&mut self) {
        self.started = None;
    }

    /// Nodes each search runs on the calling thread alone before the helpers start (default
    /// [`DEFAULT_SOLO_NODES`]; 0 starts them at once). No effect on one thread.
    pub fn set_solo_nodes(&mut self, nodes: u64) {
        self.solo_nodes = nodes;
    }

    /// Moves of nodes at plies below `plies` (from the search's root) that another thread is
    /// searching are put off until the node's other moves are searched (simplified ABDADA;
    /// 0 turns it off): sets [`SearchOptions::defer_plies`], which the engine was built with
    /// and [`Engine::rebuilt`] keeps.
    pub fn set_defer_plies(&mut self, plies: usize) {
        self.options.defer_plies = plies;
    }

    /// Whether the helper threads perturb their move order (classic lazy SMP; default off).
    pub fn set_perturb(&mut self, perturb: bool) {
        self.perturb = perturb;
    }

    /// With [`SearchOptions::enhanced_transposition_cutoff`], ETC only at nodes whose window
    /// lies at least `reach` inside their bounds (`hi - alpha` and `beta - lo`, after the
    /// window is narrowed to `(lo - 1, hi + 1)` and by the node's TT entry): a window at one
    /// of the bounds asks whether the value is that bound, which the bounds of the children
    /// settle within a few plies, so that the subtree is small and the look-ups cost more than
    /// they save. 0 or 1 (the default 0): every node the other gates let through.
    pub fn set_etc_min_reach(&mut self, reach: Value) {
        self.etc_min_reach = reach;
    }

    /// Statistics of all threads together since construction or the last
    /// [`Engine::reset_stats`]; `elapsed` is wall-clock time.
    pub fn stats(&self) -> Stats {
        let mut s = Stats { elapsed: self.elapsed, ..Stats::default() };
        for w in &self.workers {
            s.nodes += w.stats.nodes;
            s.tt_probes += w.stats.tt_probes;
            s.tt_hits += w.stats.tt_hits;
            s.cutoffs += w.stats.cutoffs;
        }
        s
    }

    /// Zeroes the statistics (the TT is kept).
    pub fn reset_stats(&mut self) {
        for w in &mut self.workers {
            w.stats = Stats::default();
        }
        self.elapsed = Duration::ZERO;
    }

    /// The TT entries whose subtrees took at least `min_work` nodes: what a checkpoint keeps of
    /// the TT (the shared table saturates works at `2^20 - 1`).
    #[must_use]
    pub fn heavy_entries(&self, min_work: u32) -> Vec<TtEntry<G::Key, G::Move>> {
        match &self.tt {
            Tables::Serial(tt) => tt.heavy_entries(min_work),
            Tables::Bounds(tt) => tt.heavy_entries(min_work),
            Tables::Packed(tt) => tt.heavy_entries(min_work),
            Tables::Shared(tt) => tt.heavy_entries(min_work),
        }
    }

    /// Stores `entries` (e.g. [`Engine::heavy_entries`] of an earlier run on the same game) in
    /// the TT. Entries must be proven bounds on positions' values of this game: the caller
    /// verifies where they come from.
    pub fn seed_tt(&mut self, entries: &[TtEntry<G::Key, G::Move>]) {
        for &e in entries {
            match &mut self.tt {
                Tables::Serial(tt) => tt.store(e),
                Tables::Bounds(tt) => tt.store(e),
                Tables::Packed(tt) => tt.store(e),
                Tables::Shared(tt) => tt.store(e),
            }
        }
    }

    /// Fail-soft alpha-beta search of `pos` with the window `(alpha, beta)`, `alpha < beta`,
    /// ignoring limits.
    ///
    /// With `v` the true value (side to move of `pos`) and `r` the result: if `r <= alpha` then
    /// `v <= r`; if `r >= beta` then `v >= r`; otherwise `r == v`. A null window `(t, t + 1)`
    /// answers "is `v > t`?" cheaply.
    pub fn search(&mut self, pos: &G::Position, alpha: Value, beta: Value) -> Value {
        unlimited(self.run(pos, alpha, beta, false))
    }

    /// [`Engine::search`] under the [`Limits`] of [`Engine::set_limits`].
    ///
    /// # Errors
    /// [`Interrupted`] (with the bounds proven on `pos`) when the stop flag was raised, the node
    /// budget was spent or the time limit passed; the TT then keeps only results proven before
    /// the stop, so a later search continues from them.
    pub fn try_search(&mut self, pos: &G::Position, alpha: Value, beta: Value) -> Result<Value, Interrupted> {
        self.search_as(pos, alpha, beta, true)
    }

    /// A search that obeys the limits when `limited`.
    pub(crate) fn search_as(
        &mut self,
        pos: &G::Position,
        alpha: Value,
        beta: Value,
        limited: bool,
    ) -> Result<Value, Interrupted> {
        if limited {
            if self.limits.reached(self.started, self.stats().nodes) {
                return Err(self.proven_bounds(pos));
            }
            self.started.get_or_insert_with(Instant::now);
        }
        self.run(pos, alpha, beta, limited)
    }

    /// Whether the value of `pos` (side to move) is greater than `threshold`: a null-window
    /// search.
    pub fn value_exceeds(&mut self, pos: &G::Position, threshold: Value) -> bool {
        self.search(pos, threshold, threshold + 1) > threshold
    }

    /// Bounds on the value of `pos` from the game and the TT, for an [`Interrupted`].
    fn proven_bounds(&self, pos: &G::Position) -> Interrupted {
        if let Some(v) = self.game.terminal_value(pos) {
            return Interrupted { lo: v, hi: v };
        }
        let (lo, hi) = self.game.value_bounds(pos);
        let (mut lo, mut hi) = (lo.max(-INFINITY / 2), hi.min(INFINITY / 2));
        let (key, _) = self.game.canonical_key(pos);
        let entry = match &self.tt {
            Tables::Serial(tt) => Table::probe_bounds(tt, key),
            Tables::Bounds(tt) => Table::probe_bounds(tt, key),
            Tables::Packed(tt) => Table::probe_bounds(tt, key),
            Tables::Shared(tt) => Table::probe_bounds(&tt, key),
        };
        if let Some((elo, ehi, _)) = entry {
            (lo, hi) = (lo.max(elo), hi.min(ehi));
        }
        Interrupted { lo, hi }
    }

    /// The search on all threads, stopped by the limits if `limited` and some are set.
    fn run(
        &mut self,
        pos: &G::Position,
        alpha: Value,
        beta: Value,
        limited: bool,
    ) -> Result<Value, Interrupted> {
        debug_assert!(alpha < beta, "empty alpha-beta window");
        let start = Instant::now();
        let stop = AtomicBool::new(false);
        let check = (limited && self.limits.is_set()).then(|| LimitCheck {
            limits: &self.limits,
            started: self.started,
            nodes: AtomicU64::new(self.workers.iter().map(|w| w.stats.nodes).sum()),
            interrupted: AtomicBool::new(false),
        });
        let mut ctx = Ctx {
            game: &self.game,
            stop: &stop,
            pvs: self.options.principal_variation_search,
            etc: self.options.enhanced_transposition_cutoff,
            etc_min_moves: self.options.etc_min_moves,
            prefetch_children: self.options.prefetch_children,
            etc_min_reach: self.etc_min_reach,
            busy: None,
            defer_plies: 0,
            check,
        };
        let perturb = self.perturb;
        for w in &mut self.workers {
            w.perturb = perturb && w.id > 0;
        }
        let (main, helpers) = self.workers.split_first_mut().expect("at least one thread");
        main.stopped = false;
        main.budget =
            if helpers.is_empty() { u64::MAX } else { main.stats.nodes.saturating_add(self.solo_nodes) };
        let mut v = match &mut self.tt {
            Tables::Serial(tt) => main.negamax(&ctx, tt, pos, alpha, beta, 0, None),
            Tables::Bounds(tt) => main.negamax(&ctx, tt, pos, alpha, beta, 0, None),
            Tables::Packed(tt) => main.negamax(&ctx, tt, pos, alpha, beta, 0, None),
            Tables::Shared(tt) => main.negamax(&ctx, &mut &*tt, pos, alpha, beta, 0, None),
        };
        let interrupted =
            |ctx: &Ctx<'_, G>| ctx.check.as_ref().is_some_and(|c| c.interrupted.load(Ordering::Relaxed));
        let mut stopped = main.stopped && interrupted(&ctx);
        if main.stopped && !stopped {
            // Not finished alone: every thread searches the root from here on.
            let Tables::Shared(tt) = &self.tt else { unreachable!("one thread has no solo budget") };
            main.stopped = false;
            main.budget = u64::MAX;
            ctx.busy = self.busy.as_ref();
            ctx.defer_plies = self.options.defer_plies;
            let ctx_ref = &ctx;
            let result = OnceLock::new();
            let pos = *pos;
            std::thread::scope(|s| {
                let run = |w: &mut Worker<G::Move, G::Position, G::Key>| {
                    w.stopped = false;
                    let v = w.negamax(ctx_ref, &mut &*tt, &pos, alpha, beta, 0, None);
                    if !w.stopped {
                        // The first finished thread's value; the others stop.
                        let _ = result.set(v);
                        stop.store(true, Ordering::Relaxed);
                    }
                };
                for w in helpers.iter_mut() {
                    // A thread the system refuses to create (a thread or memory limit) is not
                    // an error: the search goes on with the threads it has, this one at least.
                    let _ = spawn_helper(s, move || run(w));
                }
                run(main);
            });
            // A finished thread's value is exact even if a limit was reached meanwhile.
            match result.get() {
                Some(&r) => v = r,
                None => {
                    debug_assert!(
                        interrupted(&ctx),
                        "a search ends when a thread finished or a limit stopped it"
                    );
                    stopped = true;
                }
            }
        }
        self.elapsed += start.elapsed();
        if stopped {
            return Err(self.proven_bounds(pos));
        }
        Ok(v)
    }
}

/// Starts a helper thread of a search in `scope`: `Err` when the system refuses to create it
/// (never a panic, unlike [`std::thread::Scope::spawn`]); the helper's work is then not done.
fn spawn_helper<'scope, F>(scope: &'scope std::thread::Scope<'scope, '_>, f: F) -> std::io::Result<()>
where
    F: FnOnce() + Send + 'scope,
{
    #[cfg(test)]
    if tests::REFUSE_SPAWNS.with(std::cell::Cell::get) {
        tests::REFUSED.with(|n| n.set(n.get() + 1));
        return Err(std::io::Error::other("thread creation refused by the test"));
    }
    std::thread::Builder::new().spawn_scoped(scope, f).map(drop)
}

impl<M: PackedMove + Eq, P: Copy + std::fmt::Debug, K: TtKey> Worker<M, P, K> {
    /// The checks made every `LIMIT_CHECK_MASK + 1` nodes: the limits, the other threads'
    /// stop, the solo budget. Whether this thread must stop.
    #[cold]
    fn block_check<G: Game<Move = M, Position = P, Key = K>>(&mut self, ctx: &Ctx<'_, G>) -> bool {
        if let Some(check) = &ctx.check {
            if check.block_reached() {
                check.interrupted.store(true, Ordering::Relaxed);
                ctx.stop.store(true, Ordering::Relaxed);
            }
        }
        ctx.stop.load(Ordering::Relaxed) || self.stats.nodes >= self.budget
    }

    /// The value of the move that led to `child` and banked `gain`, from the parent's side,
    /// searched with the parent's window; `same` if the mover moves again in `child`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn child_value<G: Game<Move = M, Position = P, Key = K>, T: Table<K, M>>(
        &mut self,
        ctx: &Ctx<'_, G>,
        tt: &mut T,
        child: &G::Position,
        gain: Value,
        same: bool,
        alpha: Value,
        beta: Value,
        ply: usize,
        known: Option<(K, Symmetry)>,
    ) -> Value {
        if same {
            gain + self.negamax(ctx, tt, child, alpha - gain, beta - gain, ply + 1, known)
        } else {
            gain - self.negamax(ctx, tt, child, gain - beta, gain - alpha, ply + 1, known)
        }
    }

    /// Negamax with an alpha-beta window over the TT `tt`: the one search of the workspace.
    /// Returns a meaningless 0 once the thread is stopped (`self.stopped`), storing nothing.
    /// `known`: the position's [`Game::canonical_key`], if the caller computed it already.
    #[allow(clippy::too_many_arguments)]
    fn negamax<G: Game<Move = M, Position = P, Key = K>, T: Table<K, M>>(
        &mut self,
        ctx: &Ctx<'_, G>,
        tt: &mut T,
        pos: &G::Position,
        mut alpha: Value,
        mut beta: Value,
        ply: usize,
        known: Option<(K, Symmetry)>,
    ) -> Value {
        if self.stopped {
            return 0;
        }
        self.stats.nodes += 1;
        if self.stats.nodes & LIMIT_CHECK_MASK == 0 && self.block_check(ctx) {
            self.stopped = true;
            return 0;
        }
        let game = ctx.game;
        // With `EXPANDS_WITH_TERMINAL_TEST` the moves come with the terminal test; the buffer
        // goes back to the ply's stack on every return before the moves are searched.
        let fused = G::EXPANDS_WITH_TERMINAL_TEST;
        // With `PROBES_BEFORE_EXPANSION` as well, only the quick part of the terminal test and
        // the early bounds come before the TT probe; the moves (and the rest of the terminal
        // test) after it, at the nodes that neither cuts.
        let late = fused && G::PROBES_BEFORE_EXPANSION;
        let mut moves = Vec::new();
        if late {
            if let Some(v) = game.quick_terminal_value(pos) {
                return v;
            }
        } else if fused {
            if self.move_stack.len() <= ply {
                self.move_stack.resize_with(ply + 1, Vec::new);
                self.memo_stack.resize_with(ply + 1, Vec::new);
            }
            moves = std::mem::take(&mut self.move_stack[ply]);
            moves.clear();
            if let Some(v) = game.terminal_or_moves(pos, &mut moves, &mut self.memo_stack[ply]) {
                self.move_stack[ply] = moves;
                return v;
            }
        } else if let Some(v) = game.terminal_value(pos) {
            return v;
        }
        let (mut lo, mut hi) = if late { game.early_value_bounds(pos) } else { game.value_bounds(pos) };
        if hi <= alpha || lo >= beta {
            if fused && !late {
                self.move_stack[ply] = moves;
            }
            return if hi <= alpha { hi } else { lo };
        }
        if lo == hi {
            // Bounds that meet are the value (a game that values some positions outright,
            // e.g. dots-and-boxes' loony endgames): nothing to search.
            if fused && !late {
                self.move_stack[ply] = moves;
            }
            return lo;
        }
        // Narrowing the window to the known bounds keeps results exact: a fail-high at `hi` or a
        // fail-low at `lo` then pins the value.
        alpha = alpha.max(lo - 1);
        beta = beta.min(hi + 1);

        let (key, symmetry) = known.unwrap_or_else(|| game.canonical_key(pos));
        self.stats.tt_probes += 1;
        let mut hint = None;
        // What the value was known to lie in before the search (the game's bounds, the TT
        // entry's bound): a result that meets one end of it is exact.
        let (mut known_lo, mut known_hi) = (lo, hi);
        // A table of both bounds (`T::BOTH_BOUNDS`, known at compile time) is read as such,
        // any other by the one bound of its entry.
        if T::BOTH_BOUNDS {
            if let Some((elo, ehi, best)) = tt.probe_bounds(key) {
                self.stats.tt_hits += 1;
                // Exact, or a bound outside the window: the node is done.
                let cut = if elo >= beta {
                    Some(elo)
                } else if ehi <= alpha || elo == ehi {
                    Some(ehi)
                } else {
                    None
                };
                if let Some(v) = cut {
                    if fused && !late {
                        self.move_stack[ply] = moves;
                    }
                    return v;
                }
                alpha = alpha.max(elo);
                known_lo = known_lo.max(elo);
                beta = beta.min(ehi);
                known_hi = known_hi.min(ehi);
                hint = match symmetry {
                    Symmetry::Map(s) => best.map(|m| game.move_from_canonical(m, s)),
                    Symmetry::Unmapped => None,
                };
            }
        } else if let Some(e) = tt.probe(key) {
            self.stats.tt_hits += 1;
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.value >= beta,
                Bound::Upper => e.value <= alpha,
            };
            if cut {
                if fused && !late {
                    self.move_stack[ply] = moves;
                }
                return e.value;
            }
            match e.bound {
                Bound::Lower => {
                    alpha = alpha.max(e.value);
                    known_lo = known_lo.max(e.value);
                }
                _ => {
                    beta = beta.min(e.value);
                    known_hi = known_hi.min(e.value);
                }
            }
            hint = match symmetry {
                Symmetry::Map(s) => e.best.map(|m| game.move_from_canonical(m, s)),
                Symmetry::Unmapped => None,
            };
        }
        if late {
            // The moves and the rest of the terminal test, then the bounds that hold once the
            // position is known not to be terminal.
            if self.move_stack.len() <= ply {
                self.move_stack.resize_with(ply + 1, Vec::new);
                self.memo_stack.resize_with(ply + 1, Vec::new);
            }
            moves = std::mem::take(&mut self.move_stack[ply]);
            moves.clear();
            let terminal = game.terminal_or_moves(pos, &mut moves, &mut self.memo_stack[ply]);
            if terminal.is_none() {
                (lo, hi) = game.expanded_value_bounds(pos, (lo, hi));
                known_lo = known_lo.max(lo);
                known_hi = known_hi.min(hi);
            }
            if let Some(v) = terminal.or((hi <= alpha).then_some(hi)).or((lo >= beta).then_some(lo)) {
                self.move_stack[ply] = moves;
                return v;
            }
            alpha = alpha.max(lo - 1);
            beta = beta.min(hi + 1);
        }
        let (alpha0, beta0) = (alpha, beta);
        let nodes0 = self.stats.nodes;
        let me = game.to_move(pos);

        if !fused {
            if self.move_stack.len() <= ply {
                self.move_stack.resize_with(ply + 1, Vec::new);
            }
            moves = std::mem::take(&mut self.move_stack[ply]);
            moves.clear();
            game.generate_moves(pos, &mut moves);
            game.order_moves(pos, &mut moves);
        }
        debug_assert!(!moves.is_empty(), "non-terminal position without moves: {pos:?}");
        if let Some(h) = hint {
            if let Some(i) = moves.iter().position(|&m| m == h) {
                moves[..=i].rotate_right(1);
            }
        }
        if moves.len() > 1 {
            let memo: &[u64] = if fused { &self.memo_stack[ply] } else { &[] };
            game.order_in_window(pos, &mut moves, memo, (alpha, beta), (known_lo, known_hi));
        }
        if self.perturb && moves.len() > 1 {
            self.perturb(key.hash64(), &mut moves);
        }

        let mut best = -INFINITY;
        let mut best_move = None;
        // Enhanced transposition cutoff: the children are played first (and kept for the
        // search below); every move's value is at least what its child's TT entry gives. One
        // at least `beta` ends the node before any search (not stored: the children's entries
        // hold it); the best raises alpha (a value found equal to it is then exact: every move
        // is searched, none beat it, and one is worth at least that much).
        let etc = moves.len() > 1
            && moves.len() >= ctx.etc_min_moves
            && ctx.etc.is_some_and(|span| hi - lo >= span)
            && (hi - alpha).min(beta - lo) >= ctx.etc_min_reach;
        let mut children = Vec::new();
        if etc {
            if self.child_stack.len() <= ply {
                self.child_stack.resize_with(ply + 1, Vec::new);
            }
            children = std::mem::take(&mut self.child_stack[ply]);
            children.clear();
            // Every child first, then every look-up: the look-ups (usually cache misses in a
            // large table) follow each other closely enough for the processor to have several
            // under way at once.
            for &m in &moves {
                let (child, gain) =
                    if fused { game.play_memo(pos, m, &self.memo_stack[ply]) } else { game.play(pos, m) };
                children.push((child, gain, game.canonical_key(&child)));
            }
            for (&m, &(child, gain, (child_key, _))) in moves.iter().zip(&children) {
                let v = self.etc_bound(game, tt, &child, child_key, gain, me);
                if v > best {
                    best = v;
                    best_move = Some(m);
                    if v >= beta {
                        self.child_stack[ply] = children;
                        self.move_stack[ply] = moves;
                        return v;
                    }
                    alpha = alpha.max(v);
                }
            }
        }
        // Deferral (several threads only): a move another thread is searching is put off.
        let busy = if T::SHARED { ctx.busy.filter(|_| ply < ctx.defer_plies) } else { None };
        let mut deferred = Vec::new();
        if busy.is_some() {
            if self.defer_stack.len() <= ply {
                self.defer_stack.resize_with(ply + 1, Vec::new);
            }
            deferred = std::mem::take(&mut self.defer_stack[ply]);
            deferred.clear();
        }
        let mut searched = 0;
        // First pass: every move, except that a move (other than the first) another thread is
        // searching is put off; second pass: the moves put off.
        let passes = if T::SHARED { 2 } else { 1 };
        // The next move's child, played and keyed ahead (`SearchOptions::prefetch_children`).
        let mut ahead: Option<(P, Value, (K, Symmetry))> = None;
        'passes: for pass in 0..passes {
            let count = if pass == 0 { moves.len() } else { deferred.len() };
            for i in 0..count {
                let m = if pass == 0 { moves[i] } else { deferred[i] };
                let ((child, gain), known) = if etc && pass == 0 {
                    let (child, gain, key) = children[i];
                    if ctx.prefetch_children {
                        // The next child's bucket, looked up by ETC before the first search,
                        // may have left the cache since.
                        if let Some(&(_, _, (next, _))) = children.get(i + 1) {
                            tt.prefetch(next);
                        }
                    }
                    ((child, gain), Some(key))
                } else if pass == 0 && ctx.prefetch_children && count > 1 {
                    // The child comes played and keyed from the step before (its bucket
                    // prefetched then); the next move's child is played and keyed now, and its
                    // bucket prefetched, so that its load overlaps this child's search.
                    let (c, g, k) = match ahead.take() {
                        Some(x) => x,
                        None => {
                            Self::play_prefetched(game, tt, pos, m, fused.then(|| &self.memo_stack[ply][..]))
                        }
                    };
                    if let Some(&m2) = moves.get(i + 1) {
                        let memo = fused.then(|| &self.memo_stack[ply][..]);
                        ahead = Some(Self::play_prefetched(game, tt, pos, m2, memo));
                    }
                    ((c, g), Some(k))
                } else if fused {
                    (game.play_memo(pos, m, &self.memo_stack[ply]), None)
                } else {
                    (game.play(pos, m), None)
                };
                let child_key = busy.map(|b| (b, known.map_or_else(|| game.key(&child), |k| k.0).hash64()));
                if let Some((b, k)) = child_key {
                    if pass == 0 && i > 0 && b.is_busy(k) {
                        deferred.push(m);
                        continue;
                    }
                    b.enter(k);
                }
                let same = game.to_move(&child) == me;
                // Principal variation search: the first move gets the full window, later ones a
                // null window `(alpha, alpha + 1)` first, re-searched only if they beat alpha.
                let mut v;
                if !ctx.pvs || searched == 0 || beta - alpha <= 1 {
                    v = self.child_value(ctx, tt, &child, gain, same, alpha, beta, ply, known);
                } else {
                    v = self.child_value(ctx, tt, &child, gain, same, alpha, alpha + 1, ply, known);
                    if v > alpha && v < beta {
                        v = self.child_value(ctx, tt, &child, gain, same, v, beta, ply, known);
                    }
                }
                if let Some((b, k)) = child_key {
                    b.leave(k);
                }
                searched += 1;
                if self.stopped {
                    break 'passes;
                }
                if v > best {
                    best = v;
                    best_move = Some(m);
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            self.stats.cutoffs += 1;
                            break 'passes;
                        }
                    }
                }
            }
        }
        if busy.is_some() {
            self.defer_stack[ply] = deferred;
        }
        if etc {
            self.child_stack[ply] = children;
        }
        self.move_stack[ply] = moves;
        if self.stopped {
            return 0;
        }

        let bound = if best <= alpha0 {
            // At most `best`, and known to be at least `known_lo`: equal, the value is exact.
            if best == known_lo {
                Bound::Exact
            } else {
                Bound::Upper
            }
        } else if best >= beta0 {
            if best == known_hi {
                Bound::Exact
            } else {
                Bound::Lower
            }
        } else {
            Bound::Exact
        };
        let work = u32::try_from(self.stats.nodes - nodes0).unwrap_or(u32::MAX);
        // A fail-low has no meaningful best move: every move was at most alpha.
        let best_move = if bound == Bound::Upper { None } else { best_move };
        let best_move = match symmetry {
            Symmetry::Map(s) => best_move.map(|m| game.move_to_canonical(m, s)),
            Symmetry::Unmapped => None,
        };
        tt.store(TtEntry { key, value: best, bound, best: best_move, work });
        best
    }

    /// `(child, gain, canonical key)` of `m` played from `pos` (through `memo`, a fused game's
    /// memo of the ply), its TT bucket asked into the cache ([`SearchOptions::prefetch_children`]).
    #[inline]
    fn play_prefetched<G: Game<Move = M, Position = P, Key = K>, T: Table<K, M>>(
        game: &G,
        tt: &T,
        pos: &P,
        m: M,
        memo: Option<&[u64]>,
    ) -> (P, Value, (K, Symmetry)) {
        let (child, gain) = match memo {
            Some(memo) => game.play_memo(pos, m, memo),
            None => game.play(pos, m),
        };
        let key = game.canonical_key(&child);
        tt.prefetch(key.0);
        (child, gain, key)
    }

    /// A lower bound on the value of the move that led to `child` and banked `gain` (from the
    /// side to move `me` before it) from `child`'s TT entry, without search (enhanced
    /// transposition cutoff); `-INFINITY` when the entry says nothing.
    #[inline]
    fn etc_bound<G: Game<Move = M, Position = P, Key = K>, T: Table<K, M>>(
        &mut self,
        game: &G,
        tt: &T,
        child: &P,
        key: K,
        gain: Value,
        me: crate::Player,
    ) -> Value {
        self.stats.tt_probes += 1;
        if T::BOTH_BOUNDS {
            let Some((lo, hi, _)) = tt.probe_bounds(key) else { return -INFINITY };
            self.stats.tt_hits += 1;
            // The child's value is from its side to move: a lower bound on it bounds the move
            // from below if the mover moves again, an upper bound if the opponent moves.
            return match game.to_move(child) == me {
                true if lo > -INFINITY => gain + lo,
                false if hi < INFINITY => gain - hi,
                _ => -INFINITY,
            };
        }
        let Some(e) = tt.probe(key) else { return -INFINITY };
        self.stats.tt_hits += 1;
        // As above, from the entry's one bound.
        match (e.bound, game.to_move(child) == me) {
            (Bound::Exact | Bound::Lower, true) => gain + e.value,
            (Bound::Exact | Bound::Upper, false) => gain - e.value,
            _ => -INFINITY,
        }
    }

    /// A helper's move order: at some nodes (chosen by a hash of the position and the thread,
    /// so the same thread orders the same position the same way every time) the first move is
    /// swapped with a later one, so that helpers start in other subtrees than the main thread.
    #[inline]
    fn perturb(&self, key: u64, moves: &mut [M]) {
        let r = mix(key ^ self.id.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        if r & 3 == 0 {
            let j = 1 + (r >> 8) as usize % (moves.len() - 1);
            moves.swap(0, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Player;
    use std::cell::Cell;

    thread_local! {
        /// Whether [`spawn_helper`] refuses every thread on this (the test's) thread.
        pub(super) static REFUSE_SPAWNS: Cell<bool> = const { Cell::new(false) };
        /// How many threads it refused.
        pub(super) static REFUSED: Cell<usize> = const { Cell::new(0) };
    }

    /// A subtraction game: take 1 to 3 from a heap of `n`, whoever takes the last wins (+1).
    /// Each position is keyed by a salt as well, so that the tree is large enough for helpers.
    #[derive(Clone, Copy)]
    struct Take3;

    impl Game for Take3 {
        type Position = (u8, u64, Player);
        type Move = u8;
        type Key = u64;

        fn to_move(&self, pos: &Self::Position) -> Player {
            pos.2
        }
        fn terminal_value(&self, pos: &Self::Position) -> Option<Value> {
            (pos.0 == 0).then_some(-1)
        }
        fn generate_moves(&self, pos: &Self::Position, moves: &mut Vec<u8>) {
            moves.extend((1..=3).filter(|&k| k <= pos.0));
        }
        fn play(&self, pos: &Self::Position, mv: u8) -> (Self::Position, Value) {
            ((pos.0 - mv, pos.1.wrapping_mul(31).wrapping_add(u64::from(mv)), pos.2.opponent()), 0)
        }
        fn key(&self, pos: &Self::Position) -> u64 {
            // The path is part of the key: no transpositions, an exponential tree.
            pos.1 << 8 | u64::from(pos.0)
        }
    }

    /// Take 1 to 3 from a heap, banking what one takes; the heap alone is the key, so that
    /// positions transpose and enhanced transposition cutoff finds children in the TT.
    #[derive(Clone, Copy)]
    struct Greedy;

    impl Game for Greedy {
        type Position = (u8, Player);
        type Move = u8;
        type Key = u64;

        fn to_move(&self, pos: &Self::Position) -> Player {
            pos.1
        }
        fn terminal_value(&self, pos: &Self::Position) -> Option<Value> {
            (pos.0 == 0).then_some(0)
        }
        fn generate_moves(&self, pos: &Self::Position, moves: &mut Vec<u8>) {
            moves.extend((1..=3).filter(|&k| k <= pos.0));
        }
        fn play(&self, pos: &Self::Position, mv: u8) -> (Self::Position, Value) {
            // Taking 2 keeps the turn, so that both kinds of child bound are used.
            let next = if mv == 2 { pos.1 } else { pos.1.opponent() };
            ((pos.0 - mv, next), Value::from(mv) * Value::from(pos.0 % 5 + 1) - 4)
        }
        fn key(&self, pos: &Self::Position) -> u64 {
            u64::from(pos.0)
        }
    }

    /// Whether `r`, a fail-soft result of the window `(a, b)`, is consistent with the exact
    /// value: an upper bound at or below `a`, a lower bound at or above `b`, the value inside.
    fn fail_soft_holds(r: Value, a: Value, b: Value, exact: Value) -> bool {
        if r <= a {
            exact <= r
        } else if r >= b {
            exact >= r
        } else {
            exact == r
        }
    }

    /// The value of `n` by plain recursion.
    fn greedy_value(n: u8) -> Value {
        (1..=3.min(n))
            .map(|k| {
                let ((m, p), gain) = Greedy.play(&(n, Player::First), k);
                if p == Player::First {
                    gain + greedy_value(m)
                } else {
                    gain - greedy_value(m)
                }
            })
            .max()
            .unwrap_or(0)
    }

    /// Enhanced transposition cutoff keeps every value and the fail-soft contract of every
    /// window, the TT holding bounds from an earlier search of a smaller heap with another
    /// window, on a small table (replacements) and a large one, with and without PVS.
    #[test]
    fn enhanced_transposition_cutoff_keeps_values() {
        let mut child_hits = 0;
        for n in [5u8, 12, 19] {
            let exact = greedy_value(n);
            for (bits, pvs, min_moves, min_reach) in
                [(2, true, 0, 0), (12, false, 0, 0), (12, true, 0, 0), (12, true, 3, 0), (12, true, 0, 2)]
            {
                let options = SearchOptions {
                    tt_bits: bits,
                    principal_variation_search: pvs,
                    enhanced_transposition_cutoff: Some(0),
                    etc_min_moves: min_moves,
                    ..SearchOptions::DEFAULT
                };
                for a in -30..30 {
                    for w in [1, 3] {
                        let mut engine = Engine::with_options(Greedy, options);
                        engine.set_etc_min_reach(min_reach);
                        engine.search(&(n - 1, Player::First), -a - 2, -a + 1);
                        let hits = engine.stats().tt_hits;
                        let r = engine.search(&(n, Player::First), a, a + w);
                        child_hits += engine.stats().tt_hits - hits;
                        assert!(
                            fail_soft_holds(r, a, a + w, exact),
                            "n {n} window ({a}, {}) gave {r}, value {exact}",
                            a + w
                        );
                    }
                }
            }
        }
        assert!(child_hits > 1000, "the children were found in the TT ({child_hits} hits)");
    }

    /// A null-window search that fails low at the lower bound an earlier one stored (or fails
    /// high at the upper bound) has pinned the value: the entry it stores is exact, so the
    /// position's bounds afterwards are the value, whichever side was proven first.
    #[test]
    fn a_result_meeting_the_stored_bound_is_stored_exact() {
        for n in [4u8, 9, 17, 23] {
            let exact = greedy_value(n);
            let root = (n, Player::First);
            for order in [[(exact - 1, exact), (exact, exact + 1)], [(exact, exact + 1), (exact - 1, exact)]]
            {
                let mut engine =
                    Engine::with_options(Greedy, SearchOptions { tt_bits: 12, ..SearchOptions::DEFAULT });
                for (alpha, beta) in order {
                    engine.search(&root, alpha, beta);
                }
                let Interrupted { lo, hi } = engine.proven_bounds(&root);
                assert_eq!((lo, hi), (exact, exact), "heap {n}, windows {order:?}");
            }
        }
    }

    /// [`Greedy`] with [`Game::TT_KEEPS_BOTH_BOUNDS`].
    #[derive(Clone, Copy)]
    struct GreedyBoth;

    impl Game for GreedyBoth {
        type Position = (u8, Player);
        type Move = u8;
        type Key = u64;

        const TT_KEEPS_BOTH_BOUNDS: bool = true;

        fn to_move(&self, pos: &Self::Position) -> Player {
            Greedy.to_move(pos)
        }
        fn terminal_value(&self, pos: &Self::Position) -> Option<Value> {
            Greedy.terminal_value(pos)
        }
        fn generate_moves(&self, pos: &Self::Position, moves: &mut Vec<u8>) {
            Greedy.generate_moves(pos, moves);
        }
        fn play(&self, pos: &Self::Position, mv: u8) -> (Self::Position, Value) {
            Greedy.play(pos, mv)
        }
        fn key(&self, pos: &Self::Position) -> u64 {
            Greedy.key(pos)
        }
    }

    /// With [`Game::TT_KEEPS_BOTH_BOUNDS`], a fail-high and a fail-low of the same position
    /// that do not meet both stay in the one-thread TT: its bounds afterwards are the two
    /// results, whichever came first; the values of every window are unchanged.
    #[test]
    fn a_lower_and_an_upper_bound_of_a_position_are_both_kept() {
        for n in [5u8, 12, 19] {
            let exact = greedy_value(n);
            let mut engine =
                Engine::with_options(GreedyBoth, SearchOptions { tt_bits: 6, ..SearchOptions::DEFAULT });
            for a in -30..30 {
                for w in [1, 3] {
                    let r = engine.search(&(n, Player::First), a, a + w);
                    assert!(
                        fail_soft_holds(r, a, a + w, exact),
                        "n {n} window ({a}, {}) gave {r}, value {exact}",
                        a + w
                    );
                }
            }
        }
        for n in [9u8, 17, 23] {
            let exact = greedy_value(n);
            let root = (n, Player::First);
            for order in [
                [(exact - 3, exact - 2), (exact + 2, exact + 3)],
                [(exact + 2, exact + 3), (exact - 3, exact - 2)],
            ] {
                let mut engine =
                    Engine::with_options(GreedyBoth, SearchOptions { tt_bits: 12, ..SearchOptions::DEFAULT });
                let mut results = Vec::new();
                for (alpha, beta) in order {
                    results.push(engine.search(&root, alpha, beta));
                }
                let (lo, hi) =
                    if order[0].0 < exact { (results[0], results[1]) } else { (results[1], results[0]) };
                assert!(
                    lo >= exact - 2 && lo <= exact && hi <= exact + 2 && hi >= exact,
                    "heap {n}: {results:?}"
                );
                let Interrupted { lo: plo, hi: phi } = engine.proven_bounds(&root);
                assert_eq!((plo, phi), (lo, hi), "heap {n}, windows {order:?}");
            }
        }
    }

    /// A search whose helper threads the system refuses runs on the calling thread and gets
    /// the one-thread value, without a panic.
    #[test]
    fn refused_helper_threads_leave_the_search_to_the_calling_thread() {
        let root = (18, 1, Player::First);
        let expected = Engine::new(Take3, 16).solve(&root);
        assert_eq!(expected, 1, "18 is not a multiple of 4: the first player wins");
        REFUSE_SPAWNS.with(|r| r.set(true));
        let options = SearchOptions { threads: 4, tt_bits: 16, ..SearchOptions::DEFAULT };
        let mut engine = Engine::with_options(Take3, options);
        engine.set_solo_nodes(0);
        assert_eq!(engine.solve(&root), expected);
        REFUSE_SPAWNS.with(|r| r.set(false));
        assert!(REFUSED.with(Cell::get) >= 3, "the helpers were asked for and refused");
        // And with threads granted, the same value.
        let mut engine = Engine::with_options(Take3, options);
        engine.set_solo_nodes(0);
        assert_eq!(engine.solve(&root), expected);
    }

    #[test]
    fn rebuilt_engines_and_tt_budgets() {
        let one = TranspositionTable::<u64, u8>::entry_bytes() as u64;
        let shared = SharedTable::<u64, u8>::entry_bytes() as u64;
        assert_eq!(Engine::<Take3>::tt_bits_within(one << 10, 1), 10);
        assert_eq!(Engine::<Take3>::tt_bits_within((one << 10) - 1, 1), 9);
        assert_eq!(Engine::<Take3>::tt_bits_within(shared << 12, 2), 12);
        assert_eq!(Engine::<Take3>::tt_bits_within(one, 1), 0);
        assert_eq!(Engine::<Take3>::tt_bits_within(u64::MAX, 1), crate::MAX_TT_BITS);
        let root = (12, 0, Player::First);
        let mut engine = Engine::new(Take3, 4);
        let expected = engine.solve(&root);
        // A packed table stays packed when rebuilt on one thread.
        let packed = Engine::with_packed_tt(Take3, SearchOptions { tt_bits: 4, ..SearchOptions::DEFAULT });
        assert!(matches!(packed.tt, Tables::Packed(_)));
        let mut packed = packed.rebuilt(SearchOptions { tt_bits: 6, ..SearchOptions::DEFAULT });
        assert!(matches!(packed.tt, Tables::Packed(_)));
        assert_eq!(packed.solve(&root), expected);
        let options = SearchOptions { threads: 2, tt_bits: 6, ..engine.options() };
        let mut engine = engine.rebuilt(options);
        assert_eq!((engine.threads(), engine.options()), (2, options));
        assert_eq!(engine.solve(&root), expected);
    }
}
