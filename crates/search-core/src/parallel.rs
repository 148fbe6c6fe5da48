//! [`ParallelSolver`]: exact alpha-beta search on several threads by lazy SMP over a
//! [`SharedTable`], with simplified ABDADA's deferral of moves another thread is searching.
//!
//! Lazy SMP (shared-memory parallel search without split points): every thread searches the
//! same root with the same window, all of them probing and storing one shared TT, and the
//! search ends when the first thread finishes; the others are then stopped. Since every thread
//! runs a complete fail-soft alpha-beta search over a TT that only ever holds correct bounds,
//! the finished thread's result satisfies the window's contract
//! ([`crate::WindowSearch::search`]) whatever the others did: values are exactly those of the
//! one-thread [`Solver`](crate::Solver) (a fail-soft bound outside the window may differ, its
//! meaning does not).
//!
//! For the threads to split the work instead of racing down the same line, a thread entering
//! a child of a node near the root marks the child as busy in a small shared table; another
//! thread reaching the same child as a later move of its node puts it off and searches the
//! node's other moves first, coming back to it at the end (by then usually a TT hit). This is
//! T. Kerrigan's simplified form of ABDADA (J.-C. Weill, "The ABDADA distributed minimax search
//! algorithm", *ICCA Journal* 19, 1996). The classic lazy SMP alternative, helpers with a
//! perturbed move order ([`ParallelSolver::set_perturb`]), made Connect Four search about 1.7
//! times the one-thread tree in total where deferral made it 1.07 times (Test_L1_R2, first 20
//! positions, 2 threads, TT 2^16: 618k and 375k mean nodes against 349k on one thread).
//!
//! Small searches do not pay for waking threads: each search first runs on the calling thread
//! alone for [`ParallelSolver::set_solo_nodes`] nodes; only if it has not finished by then do the
//! helpers start (on the same TT, so the first part's results are not lost). Threads are
//! started per search ([`std::thread::scope`]), which costs tens of microseconds against
//! searches of at least `DEFAULT_SOLO_NODES` nodes.
//!
//! # Sources
//! - Lazy SMP: D. Dailey's "Lazy SMP" posts (Computer Chess Club, 2013), then Stockfish and
//!   most chess engines since; here without depth variation (an exact solver always searches
//!   to the end).
//! - ABDADA: J.-C. Weill (1996); the simplified form with a table of busy positions as T.
//!   Kerrigan describes it ("Simplified ABDADA", on his web pages on parallel search).
//! - The shared table: see [`SharedTable`] (R. Hyatt and T. Mann, 2002, and seqlocks).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

use crate::solver::LIMIT_CHECK_MASK;
use crate::{
    Bound, Game, Interrupted, LimitedSearch, Limits, PackedMove, SearchOptions, SharedTable, Stats, TtEntry,
    Value, WindowSearch, INFINITY,
};

/// Nodes a search runs on one thread before the helpers start (see
/// [`ParallelSolver::set_solo_nodes`]).
pub const DEFAULT_SOLO_NODES: u64 = 1 << 15;

/// Plies (from the search's root) at which moves being searched by another thread are put off
/// (see [`ParallelSolver::set_defer_plies`]).
pub const DEFAULT_DEFER_PLIES: usize = 16;

/// log2 of the number of slots of the table of positions being searched.
const BUSY_BITS: u32 = 14;

/// An exact solver searching with `threads` threads over one shared TT (lazy SMP; see the
/// module documentation). The TT is kept between calls, as with [`crate::Solver`].
///
/// The game's TT key must be `u64` and its moves must pack into a byte ([`PackedMove`]).
pub struct ParallelSolver<G: Game<Key = u64>> {
    game: G,
    tt: SharedTable<G::Move>,
    pvs: bool,
    solo_nodes: u64,
    defer_plies: usize,
    perturb: bool,
    busy: BusyTable,
    workers: Vec<Worker<G::Move>>,
    elapsed: std::time::Duration,
    limits: Limits,
    /// When the current run of limited searches started (for [`Limits::time`]).
    started: Option<Instant>,
}

/// One thread's search state: its move buffers, counters and identity. Aligned to two cache
/// lines so that one thread's counters never share a line with another's (false sharing).
#[repr(align(128))]
struct Worker<M> {
    /// 0 for the calling thread (the game's own move order), 1.. for helpers.
    id: u64,
    /// Whether this thread perturbs its move order (helpers only).
    perturb: bool,
    move_stack: Vec<Vec<M>>,
    /// Per ply, the moves deferred because another thread is searching them.
    defer_stack: Vec<Vec<M>>,
    stats: Stats,
    /// Stop once `stats.nodes` reaches this.
    budget: u64,
    /// Set when the search was stopped: every value since is meaningless and nothing more is
    /// stored.
    stopped: bool,
}

/// What the threads of one search share.
struct Shared<'a, G: Game<Key = u64>> {
    game: &'a G,
    tt: &'a SharedTable<G::Move>,
    stop: &'a AtomicBool,
    pvs: bool,
    /// Positions being searched by some thread (ABDADA's "exclusive" marks); `None` while one
    /// thread searches alone.
    busy: Option<&'a BusyTable>,
    /// Deferral applies to children of nodes at plies below this.
    defer_plies: usize,
    /// The caller's limits, when some are set.
    check: Option<LimitCheck<'a>>,
}

/// The caller's [`Limits`] as the threads of one search check them, each every
/// `LIMIT_CHECK_MASK + 1` of its own nodes.
struct LimitCheck<'a> {
    limits: &'a Limits,
    started: Option<Instant>,
    /// Nodes of all threads together, approximately: the total at the start of the search plus
    /// `LIMIT_CHECK_MASK + 1` for every block of that many nodes a thread has counted (so it
    /// falls short of the true total by less than one block per thread).
    nodes: AtomicU64,
    /// Raised when a limit stopped the search (as opposed to a thread finishing first).
    interrupted: AtomicBool,
}

impl LimitCheck<'_> {
    /// Counts one more block of nodes of one thread; whether a limit is reached.
    fn block_reached(&self) -> bool {
        let nodes = self.nodes.fetch_add(LIMIT_CHECK_MASK + 1, Ordering::Relaxed) + LIMIT_CHECK_MASK + 1;
        limits_reached(self.limits, self.started, nodes)
    }
}

/// Whether `limits` are reached after `nodes` nodes in all, the clock started at `started`.
fn limits_reached(limits: &Limits, started: Option<Instant>, nodes: u64) -> bool {
    limits.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
        || limits.max_nodes.is_some_and(|m| nodes >= m)
        || limits.time.is_some_and(|t| started.is_some_and(|s| s.elapsed() >= t))
}

/// Keys of the positions some thread is searching right now, one per slot (a lost mark only
/// means a move is not deferred). Simplified ABDADA: J.-C. Weill, "The ABDADA distributed
/// minimax search algorithm", *ICCA Journal* 19 (1996), in T. Kerrigan's simplified form.
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

/// A 64-bit mixer (the finaliser of MurmurHash3): the helpers' move-order perturbation.
#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

impl<G> ParallelSolver<G>
where
    G: Game<Key = u64> + Sync,
    G::Move: PackedMove + Send,
    G::Position: Send + Sync,
{
    /// A solver for `game` on `threads` threads (at least 1) with the policies of `options`
    /// (its TT of `2^tt_bits` entries is a [`SharedTable`]).
    pub fn new(game: G, options: SearchOptions, threads: usize) -> Self {
        let workers = (0..threads.max(1) as u64)
            .map(|id| Worker {
                id,
                perturb: false,
                move_stack: Vec::new(),
                defer_stack: Vec::new(),
                stats: Stats::default(),
                budget: u64::MAX,
                stopped: false,
            })
            .collect();
        ParallelSolver {
            game,
            tt: SharedTable::with_bits(options.tt_bits),
            pvs: options.principal_variation_search,
            solo_nodes: DEFAULT_SOLO_NODES,
            defer_plies: DEFAULT_DEFER_PLIES,
            perturb: false,
            busy: BusyTable::new(BUSY_BITS),
            workers,
            elapsed: std::time::Duration::ZERO,
            limits: Limits::default(),
            started: None,
        }
    }

    /// Sets the limits that later searches obey, as [`crate::Solver::set_limits`]:
    /// [`ParallelSolver::try_search`] (and the root driver) report a stop as [`Interrupted`];
    /// plain searches also stop on the flag or the node budget but then return a meaningless
    /// value. The node budget [`Limits::max_nodes`] counts the nodes of all threads together
    /// ([`ParallelSolver::stats`]), checked by each thread every few thousand of its own nodes
    /// against a shared counter that lags the true total by less than 4096 nodes per thread:
    /// a search may overrun its budget by about that much. The time limit counts from the
    /// first [`ParallelSolver::try_search`] (see [`ParallelSolver::restart_clock`]); the stop
    /// flag and the clock are also read every few thousand nodes of each thread.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Clears the start time of limited searches: [`Limits::time`] counts again from the next
    /// [`ParallelSolver::try_search`].
    pub fn restart_clock(&mut self) {
        self.started = None;
    }

    /// [`ParallelSolver::search`] under the [`Limits`] of [`ParallelSolver::set_limits`]:
    /// `Err(Interrupted)` if a limit stopped it before some thread finished. A stopped thread
    /// stores nothing from the moment it stops, so the TT then keeps only results proven
    /// before the stop and a later search continues from them.
    ///
    /// # Errors
    /// [`Interrupted`] when the stop flag was raised, the node budget was spent or the time
    /// limit passed.
    pub fn try_search(&mut self, pos: &G::Position, alpha: Value, beta: Value) -> Result<Value, Interrupted> {
        if limits_reached(&self.limits, self.started, self.stats().nodes) {
            return Err(Interrupted);
        }
        self.started.get_or_insert_with(Instant::now);
        self.run(pos, alpha, beta)
    }

    /// The shared TT's entries whose subtrees took at least `min_work` nodes
    /// ([`SharedTable::heavy_entries`]).
    #[must_use]
    pub fn heavy_entries(&self, min_work: u32) -> Vec<TtEntry<u64, G::Move>> {
        self.tt.heavy_entries(min_work)
    }

    /// Stores `entries` in the shared TT, as [`crate::Solver::seed_tt`].
    pub fn seed_tt(&mut self, entries: &[TtEntry<u64, G::Move>]) {
        for &e in entries {
            self.tt.store(e);
        }
    }

    /// Number of threads.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// Nodes each search runs on the calling thread alone before the helpers start
    /// (default [`DEFAULT_SOLO_NODES`]; 0 starts them at once).
    pub fn set_solo_nodes(&mut self, nodes: u64) {
        self.solo_nodes = nodes;
    }

    /// Moves of nodes at plies below `plies` (from the search's root) that another thread is
    /// searching are put off until the node's other moves are searched (simplified ABDADA;
    /// default [`DEFAULT_DEFER_PLIES`], 0 turns it off). Deeper subtrees are too small to be
    /// worth the marks.
    pub fn set_defer_plies(&mut self, plies: usize) {
        self.defer_plies = plies;
    }

    /// Whether the helper threads perturb their move order (classic lazy SMP; default off:
    /// with deferral on, the threads already split the work, and a perturbed order makes
    /// every helper search a worse-ordered, larger tree).
    pub fn set_perturb(&mut self, perturb: bool) {
        self.perturb = perturb;
    }

    /// The game being solved.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Statistics of all threads together since construction or the last
    /// [`ParallelSolver::reset_stats`]; `elapsed` is wall-clock time.
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
        self.elapsed = std::time::Duration::ZERO;
    }

    /// The exact value of `pos` (side to move).
    pub fn solve(&mut self, pos: &G::Position) -> Value {
        self.search(pos, -INFINITY, INFINITY)
    }

    /// Fail-soft alpha-beta search of `pos` with the window `(alpha, beta)`, `alpha < beta`, on
    /// all threads; the contract of [`crate::Solver::search`]. If limits are set
    /// ([`ParallelSolver::set_limits`]) and one stops it, the value is meaningless (0).
    pub fn search(&mut self, pos: &G::Position, alpha: Value, beta: Value) -> Value {
        self.run(pos, alpha, beta).unwrap_or(0)
    }

    /// The search on all threads, stopped by the limits if some are set.
    fn run(&mut self, pos: &G::Position, alpha: Value, beta: Value) -> Result<Value, Interrupted> {
        debug_assert!(alpha < beta, "empty alpha-beta window");
        let start = Instant::now();
        let stop = AtomicBool::new(false);
        let limited =
            self.limits.stop.is_some() || self.limits.max_nodes.is_some() || self.limits.time.is_some();
        let check = limited.then(|| LimitCheck {
            limits: &self.limits,
            started: self.started,
            nodes: AtomicU64::new(self.workers.iter().map(|w| w.stats.nodes).sum()),
            interrupted: AtomicBool::new(false),
        });
        let mut shared = Shared {
            game: &self.game,
            tt: &self.tt,
            stop: &stop,
            pvs: self.pvs,
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
        let mut v = main.negamax(&shared, pos, alpha, beta, 0);
        let interrupted = |shared: &Shared<'_, G>| {
            shared.check.as_ref().is_some_and(|c| c.interrupted.load(Ordering::Relaxed))
        };
        if main.stopped && interrupted(&shared) {
            self.elapsed += start.elapsed();
            return Err(Interrupted);
        }
        if main.stopped {
            // Not finished alone: every thread searches the root from here on.
            main.stopped = false;
            main.budget = u64::MAX;
            shared.busy = Some(&self.busy);
            shared.defer_plies = self.defer_plies;
            let shared_ref = &shared;
            let result = OnceLock::new();
            let pos = *pos;
            std::thread::scope(|s| {
                let run = |w: &mut Worker<G::Move>| {
                    w.stopped = false;
                    let v = w.negamax(shared_ref, &pos, alpha, beta, 0);
                    if !w.stopped {
                        // The first finished thread's value; the others stop.
                        let _ = result.set(v);
                        stop.store(true, Ordering::Relaxed);
                    }
                };
                for w in helpers.iter_mut() {
                    s.spawn(move || run(w));
                }
                run(main);
            });
            // A finished thread's value is exact even if a limit was reached meanwhile.
            match result.get() {
                Some(&r) => v = r,
                None => {
                    debug_assert!(
                        interrupted(&shared),
                        "the search ends only when a thread finished or a limit stopped it"
                    );
                    self.elapsed += start.elapsed();
                    return Err(Interrupted);
                }
            }
        }
        self.elapsed += start.elapsed();
        Ok(v)
    }

    /// Whether the value of `pos` (side to move) is greater than `threshold`: a null-window
    /// search.
    pub fn value_exceeds(&mut self, pos: &G::Position, threshold: Value) -> bool {
        self.search(pos, threshold, threshold + 1) > threshold
    }
}

impl<G> WindowSearch<G> for ParallelSolver<G>
where
    G: Game<Key = u64> + Sync,
    G::Move: PackedMove + Send,
    G::Position: Send + Sync,
{
    fn game(&self) -> &G {
        ParallelSolver::game(self)
    }
    fn search(&mut self, pos: &G::Position, alpha: Value, beta: Value) -> Value {
        ParallelSolver::search(self, pos, alpha, beta)
    }
    fn stats(&self) -> Stats {
        ParallelSolver::stats(self)
    }
}

impl<G> LimitedSearch<G> for ParallelSolver<G>
where
    G: Game<Key = u64> + Sync,
    G::Move: PackedMove + Send,
    G::Position: Send + Sync,
{
    fn try_search(&mut self, pos: &G::Position, alpha: Value, beta: Value) -> Result<Value, Interrupted> {
        ParallelSolver::try_search(self, pos, alpha, beta)
    }
    fn restart_clock(&mut self) {
        ParallelSolver::restart_clock(self);
    }
    fn heavy_entries(&self, min_work: u32) -> Vec<TtEntry<u64, G::Move>> {
        ParallelSolver::heavy_entries(self, min_work)
    }
    fn seed_tt(&mut self, entries: &[TtEntry<u64, G::Move>]) {
        ParallelSolver::seed_tt(self, entries);
    }
}

impl<M: PackedMove + Eq> Worker<M> {
    /// The value of the move that led to `child` and banked `gain`, from the parent's side,
    /// searched with the parent's window; `same` if the mover moves again in `child`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn child_value<G: Game<Key = u64, Move = M>>(
        &mut self,
        shared: &Shared<'_, G>,
        child: &G::Position,
        gain: Value,
        same: bool,
        alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Value {
        if same {
            gain + self.negamax(shared, child, alpha - gain, beta - gain, ply + 1)
        } else {
            gain - self.negamax(shared, child, gain - beta, gain - alpha, ply + 1)
        }
    }

    /// Negamax with an alpha-beta window over the shared TT: the same search as
    /// [`crate::Solver`]'s, plus the stop flag, the node budget and the helpers' move order.
    fn negamax<G: Game<Key = u64, Move = M>>(
        &mut self,
        shared: &Shared<'_, G>,
        pos: &G::Position,
        mut alpha: Value,
        mut beta: Value,
        ply: usize,
    ) -> Value {
        if self.stopped {
            return 0;
        }
        self.stats.nodes += 1;
        if self.stats.nodes & LIMIT_CHECK_MASK == 0 {
            if let Some(check) = &shared.check {
                if check.block_reached() {
                    check.interrupted.store(true, Ordering::Relaxed);
                    shared.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        if self.stats.nodes >= self.budget || shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return 0;
        }
        let game = shared.game;
        if let Some(v) = game.terminal_value(pos) {
            return v;
        }
        let (lo, hi) = game.value_bounds(pos);
        if hi <= alpha {
            return hi;
        }
        if lo >= beta {
            return lo;
        }
        alpha = alpha.max(lo - 1);
        beta = beta.min(hi + 1);

        let (key, symmetry) = game.canonical_key(pos);
        self.stats.tt_probes += 1;
        let mut hint = None;
        if let Some(e) = shared.tt.probe(key) {
            self.stats.tt_hits += 1;
            match e.bound {
                Bound::Exact => return e.value,
                Bound::Lower if e.value >= beta => return e.value,
                Bound::Upper if e.value <= alpha => return e.value,
                Bound::Lower => alpha = alpha.max(e.value),
                Bound::Upper => beta = beta.min(e.value),
            }
            hint = e.best.map(|m| game.move_from_canonical(m, symmetry));
        }
        let (alpha0, beta0) = (alpha, beta);
        let nodes0 = self.stats.nodes;

        if self.move_stack.len() <= ply {
            self.move_stack.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.move_stack[ply]);
        moves.clear();
        game.generate_moves(pos, &mut moves);
        debug_assert!(!moves.is_empty(), "non-terminal position without moves: {pos:?}");
        game.order_moves(pos, &mut moves);
        if let Some(h) = hint {
            if let Some(i) = moves.iter().position(|&m| m == h) {
                moves[..=i].rotate_right(1);
            }
        }
        if self.perturb && moves.len() > 1 {
            self.perturb(key, &mut moves);
        }

        let me = game.to_move(pos);
        let mut best = -INFINITY;
        let mut best_move = None;
        let busy = shared.busy.filter(|_| ply < shared.defer_plies);
        if self.defer_stack.len() <= ply {
            self.defer_stack.resize_with(ply + 1, Vec::new);
        }
        let mut deferred = std::mem::take(&mut self.defer_stack[ply]);
        deferred.clear();
        let mut searched = 0;
        // First pass: every move, except that a move (other than the first) another thread is
        // searching is put off; second pass: the moves put off.
        'passes: for pass in 0..2 {
            let count = if pass == 0 { moves.len() } else { deferred.len() };
            for i in 0..count {
                let m = if pass == 0 { moves[i] } else { deferred[i] };
                let (child, gain) = game.play(pos, m);
                let child_key = busy.map(|b| {
                    let k = game.key(&child);
                    (b, k)
                });
                if let Some((b, k)) = child_key {
                    if pass == 0 && i > 0 && b.is_busy(k) {
                        deferred.push(m);
                        continue;
                    }
                    b.enter(k);
                }
                let same = game.to_move(&child) == me;
                let mut v;
                if !shared.pvs || searched == 0 || beta - alpha <= 1 {
                    v = self.child_value(shared, &child, gain, same, alpha, beta, ply);
                } else {
                    v = self.child_value(shared, &child, gain, same, alpha, alpha + 1, ply);
                    if v > alpha && v < beta {
                        v = self.child_value(shared, &child, gain, same, v, beta, ply);
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
        self.defer_stack[ply] = deferred;
        self.move_stack[ply] = moves;
        if self.stopped {
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
        let best_move = if bound == Bound::Upper { None } else { best_move };
        let best_move = best_move.map(|m| game.move_to_canonical(m, symmetry));
        shared.tt.store(TtEntry { key, value: best, bound, best: best_move, work });
        best
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
