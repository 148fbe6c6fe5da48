//! [`Engine`]: an exact solver for one game, built from [`SearchOptions`] (its table, its
//! threads and their state), the TT sizes it takes, its settings and statistics, and its
//! searches ([`Engine::search`], [`Engine::try_search`]), each run on every thread by
//! `parallel.rs` over the one negamax of `negamax.rs`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::book::Book;

use crate::entry::TtEntry;
use crate::exchange::Exchange;
use crate::game::{Game, Value, INFINITY};
use crate::negamax::{BusyTable, Worker};
use crate::options::{
    unlimited, Driver, Interrupted, Limits, OneThreadTable, SearchOptions, Stats, TtSizeError,
    DEFAULT_SOLO_NODES,
};
use crate::parallel::{Search, BUSY_BITS};
use crate::table::Tables;

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
    /// The TT; `None` until its first use ([`Engine::table`]) and after
    /// [`Engine::release_table`] until its next.
    tt: Option<Tables<G::Key, G::Move>>,
    options: SearchOptions,
    solo_nodes: u64,
    perturb: bool,
    etc_min_reach: Value,
    busy: Option<BusyTable>,
    workers: Vec<Worker<G::Move, G::Position, G::Key>>,
    elapsed: Duration,
    limits: Limits,
    /// When the current run of limited searches started (for [`Limits::time`]).
    started: Option<Instant>,
    /// The opening book read at the nodes within its depth of each search's root.
    book: Option<Arc<Book>>,
    /// Where proven entries of large subtrees go out and others' come in.
    exchange: Option<Arc<Exchange<G::Key, G::Move>>>,
    /// [`Game::own_nodes`] when the statistics were last zeroed.
    own_nodes_base: u64,
}

impl<G: Game> Engine<G> {
    /// An engine for `game` with a TT of `2^tt_bits` entries (see
    /// [`crate::TranspositionTable::with_bits`]), principal variation search on, one thread.
    pub fn new(game: G, tt_bits: u32) -> Self {
        Self::with_options(game, SearchOptions { tt_bits, ..SearchOptions::DEFAULT })
    }

    /// An engine for `game` searching as `options` say (`threads` 0 counts as 1), with the
    /// table they choose ([`SearchOptions::one_thread_table`] on one thread, the
    /// [`crate::SharedTable`] on several), allocated at its first use
    /// ([`Engine::allocate_table`] allocates it at once): an engine that never searches, as
    /// the manager rank of a distributed run, never takes the table's memory.
    pub fn with_options(game: G, options: SearchOptions) -> Self {
        let threads = options.threads.max(1);
        let options = SearchOptions { threads, ..options };
        let workers = (0..threads as u64).map(Worker::new).collect();
        let tt = None;
        let busy = (threads > 1).then(|| BusyTable::new(BUSY_BITS));
        let own_nodes_base = game.own_nodes();
        Engine {
            game,
            tt,
            options,
            solo_nodes: DEFAULT_SOLO_NODES,
            perturb: false,
            etc_min_reach: 0,
            busy,
            workers,
            elapsed: Duration::ZERO,
            limits: Limits::default(),
            started: None,
            book: None,
            exchange: None,
            own_nodes_base,
        }
    }

    /// [`Engine::with_options`] with [`OneThreadTable::Packed`]: one thread searches with a
    /// [`crate::PackedTable`]; several threads share a [`crate::SharedTable`] as ever.
    pub fn with_packed_tt(game: G, options: SearchOptions) -> Self {
        Self::with_options(game, SearchOptions { one_thread_table: OneThreadTable::Packed, ..options })
    }

    /// [`Engine::with_options`] with [`OneThreadTable::Shared`]: one thread searches with the
    /// [`crate::SharedTable`] that several threads share, so that the table's effect on the
    /// nodes can be measured exactly, without the threads' nondeterminism.
    pub fn with_shared_tt(game: G, options: SearchOptions) -> Self {
        Self::with_options(game, SearchOptions { one_thread_table: OneThreadTable::Shared, ..options })
    }

    /// The same game searched as `options` say (their table included: build them from
    /// [`Engine::options`] to keep this engine's): a fresh engine (empty TT, statistics
    /// zeroed, no limits, the `set_` tunings at their defaults, the book kept), as
    /// [`Engine::with_options`] makes it.
    #[must_use]
    pub fn rebuilt(mut self, options: SearchOptions) -> Self {
        // The old table freed before the new one is allocated: never both at once.
        self.tt = None;
        let book = self.book;
        let mut engine = Self::with_options(self.game, options);
        engine.book = book;
        engine
    }

    /// Sets the opening book (`None`: none) that every search reads, like a TT of exact
    /// entries, at its nodes within [`Book::plies`] plies of its root, before the TT probe:
    /// a position of the book is answered in one node ([`crate::Stats::book_hits`]). The
    /// values never change, only the work. The book must hold exact values of this game's
    /// keys: the caller checks it first ([`Book::check`] against the game's
    /// [`crate::BookIdentity`]).
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }

    /// Sets the [`Exchange`] (`None`: none) through which every search hands out the entries
    /// it stores whose subtrees took at least [`Exchange::min_work`] nodes, and stores the
    /// entries given to it (at its periodic checks and when it starts): how engines with
    /// tables of their own, searching parts of one problem, share what they prove. The values
    /// never change, only the work; the caller vouches for what it gives.
    pub fn set_exchange(&mut self, exchange: Option<Arc<Exchange<G::Key, G::Move>>>) {
        self.exchange = exchange;
    }

    /// Stores the entries given to the [`Exchange`] (if any) in the table now, as the next
    /// search would when it starts: for an engine that waits between searches while entries
    /// keep arriving, so that they do not pile up in the exchange.
    pub fn store_given(&mut self) {
        if let Some(given) = self.exchange.as_deref().and_then(Exchange::take_given) {
            self.table().store_all(&given);
        }
    }

    /// Frees the TT's memory, for an engine that will not search for a long while. The next
    /// use (a search, [`Engine::seed_tt`], [`Engine::store_given`]) allocates an empty table
    /// of the same size again; until then the TT holds nothing.
    pub fn release_table(&mut self) {
        self.tt = None;
    }

    /// Allocates the TT now (empty, every entry written) if it is not allocated, so that the
    /// next search does not spend the time (a table of gigabytes takes seconds).
    pub fn allocate_table(&mut self) {
        self.table();
    }

    /// The TT, allocated again if [`Engine::release_table`] freed it.
    fn table(&mut self) -> &mut Tables<G::Key, G::Move> {
        let (options, narrow) = (&self.options, self.game.narrow_key_bits());
        self.tt.get_or_insert_with(|| Tables::new(options, narrow))
    }

    /// The opening book the searches read, if any ([`Engine::set_book`]).
    #[must_use]
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// The largest TT size in bits (at most [`crate::MAX_TT_BITS`]) whose table fits in
    /// `bytes` bytes on `threads` threads with the default table ([`SearchOptions::DEFAULT`]'s
    /// [`OneThreadTable::Plain`] on one thread, the shared one on several; see
    /// [`Engine::table_bits_within`] for any options); 0 (no TT) when not even two entries fit.
    #[must_use]
    pub fn tt_bits_within(bytes: u64, threads: usize) -> u32 {
        Self::table_bits_within(bytes, &SearchOptions { threads, ..SearchOptions::DEFAULT })
    }

    /// The largest TT size in bits whose table fits in `mib` MiB on `threads` threads with the
    /// default table ([`Engine::tt_bits_within`]; [`Engine::table_bits_for_mib`] for any
    /// options), checked before anything is allocated against `available_bytes`.
    ///
    /// # Errors
    /// As [`Engine::table_bits_for_mib`].
    pub fn tt_bits_for_mib(
        mib: u64,
        threads: usize,
        available_bytes: Option<u64>,
    ) -> Result<u32, TtSizeError> {
        Self::table_bits_for_mib(mib, &SearchOptions { threads, ..SearchOptions::DEFAULT }, available_bytes)
    }

    /// Bytes a TT of `2^tt_bits` entries takes on `threads` threads with the default table
    /// ([`Engine::tt_bits_within`]; [`Engine::table_bytes`] for any options).
    #[must_use]
    pub fn tt_bytes(tt_bits: u32, threads: usize) -> u64 {
        Self::table_bytes(&SearchOptions { tt_bits, threads, ..SearchOptions::DEFAULT })
    }

    /// The largest TT size in bits (at most [`crate::MAX_TT_BITS`]) whose table, the one
    /// `options` build (their threads and [`SearchOptions::one_thread_table`]; their `tt_bits`
    /// aside), fits in `bytes` bytes; 0 (no TT) when not even two entries fit.
    #[must_use]
    pub fn table_bits_within(bytes: u64, options: &SearchOptions) -> u32 {
        let entry = Tables::<G::Key, G::Move>::entry_bytes(options);
        // Every table holds buckets of at least two entries: one entry (0 bits) is no TT.
        (bytes / entry.max(1)).checked_ilog2().unwrap_or(0).min(crate::MAX_TT_BITS)
    }

    /// The largest TT size in bits whose table, the one `options` build, fits in `mib` MiB
    /// ([`Engine::table_bits_within`]), checked before anything is allocated against
    /// `available_bytes` (the caller measures it, e.g. from `/proc/meminfo`; `None`:
    /// unchecked).
    ///
    /// # Errors
    /// [`TtSizeError::TooSmall`] when not even one bucket fits (0 MiB);
    /// [`TtSizeError::TooLarge`] if the table would need more than `available_bytes`.
    pub fn table_bits_for_mib(
        mib: u64,
        options: &SearchOptions,
        available_bytes: Option<u64>,
    ) -> Result<u32, TtSizeError> {
        let bits = Self::table_bits_within(mib.saturating_mul(1 << 20), options);
        if bits == 0 {
            return Err(TtSizeError::TooSmall { mib });
        }
        let needed_bytes = Self::table_bytes(&SearchOptions { tt_bits: bits, ..*options });
        match available_bytes {
            Some(available_bytes) if needed_bytes > available_bytes => {
                Err(TtSizeError::TooLarge { mib, needed_bytes, available_bytes })
            }
            _ => Ok(bits),
        }
    }

    /// Bytes the TT that `options` build takes (`2^tt_bits` entries of their table).
    #[must_use]
    pub fn table_bytes(options: &SearchOptions) -> u64 {
        Tables::<G::Key, G::Move>::entry_bytes(options) << options.tt_bits
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
    /// [`Engine::reset_stats`]; `elapsed` is wall-clock time. The nodes include the game's
    /// own ([`Game::own_nodes`]).
    pub fn stats(&self) -> Stats {
        let own = self.game.own_nodes().saturating_sub(self.own_nodes_base);
        let mut s = Stats { nodes: own, elapsed: self.elapsed, ..Stats::default() };
        for w in &self.workers {
            s.nodes += w.stats.nodes;
            s.tt_probes += w.stats.tt_probes;
            s.tt_hits += w.stats.tt_hits;
            s.cutoffs += w.stats.cutoffs;
            s.book_hits += w.stats.book_hits;
        }
        s
    }

    /// Zeroes the statistics (the TT is kept).
    pub fn reset_stats(&mut self) {
        for w in &mut self.workers {
            w.stats = Stats::default();
        }
        self.own_nodes_base = self.game.own_nodes();
        self.elapsed = Duration::ZERO;
    }

    /// The TT entries whose subtrees took at least `min_work` nodes: what a checkpoint keeps of
    /// the TT (the shared table saturates works at `2^20 - 1`).
    #[must_use]
    pub fn heavy_entries(&self, min_work: u32) -> Vec<TtEntry<G::Key, G::Move>> {
        self.tt.as_ref().map_or_else(Vec::new, |tt| tt.heavy_entries(min_work))
    }

    /// Stores `entries` (e.g. [`Engine::heavy_entries`] of an earlier run on the same game) in
    /// the TT. Entries must be proven bounds on positions' values of this game: the caller
    /// verifies where they come from.
    pub fn seed_tt(&mut self, entries: &[TtEntry<G::Key, G::Move>]) {
        let tt = self.table();
        for &e in entries {
            tt.store(e);
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
    pub(crate) fn proven_bounds(&self, pos: &G::Position) -> Interrupted {
        if let Some(v) = self.game.terminal_value(pos) {
            return Interrupted { lo: v, hi: v };
        }
        let (lo, hi) = self.game.value_bounds(pos);
        let (mut lo, mut hi) = (lo.max(-INFINITY / 2), hi.min(INFINITY / 2));
        let (key, _) = self.game.canonical_key(pos);
        if let Some(v) = self.book.as_ref().and_then(|b| b.value(key)) {
            return Interrupted { lo: v, hi: v };
        }
        let entry = self.tt.as_ref().and_then(|tt| tt.probe_bounds(key));
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
        self.table();
        let start = Instant::now();
        let v = Search {
            game: &self.game,
            tt: self.tt.as_mut().expect("allocated above"),
            workers: &mut self.workers,
            busy: self.busy.as_ref(),
            options: &self.options,
            solo_nodes: self.solo_nodes,
            perturb: self.perturb,
            etc_min_reach: self.etc_min_reach,
            limits: &self.limits,
            limited,
            started: self.started,
            own_nodes_base: self.own_nodes_base,
            book: self.book.as_deref(),
            exchange: self.exchange.as_deref(),
            pos,
            alpha,
            beta,
        }
        .run();
        self.elapsed += start.elapsed();
        v.ok_or_else(|| self.proven_bounds(pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Player, SharedTable, TranspositionTable};

    use crate::test_games::Take3;

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

    /// [`SearchOptions`] of `tt_bits` with the table of both bounds.
    fn both_bounds(tt_bits: u32) -> SearchOptions {
        SearchOptions { tt_bits, one_thread_table: OneThreadTable::BothBounds, ..SearchOptions::DEFAULT }
    }

    /// With [`OneThreadTable::BothBounds`], a fail-high and a fail-low of the same position
    /// that do not meet both stay in the one-thread TT: its bounds afterwards are the two
    /// results, whichever came first; the values of every window are unchanged.
    #[test]
    fn a_lower_and_an_upper_bound_of_a_position_are_both_kept() {
        for n in [5u8, 12, 19] {
            let exact = greedy_value(n);
            let mut engine = Engine::with_options(Greedy, both_bounds(6));
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
                let mut engine = Engine::with_options(Greedy, both_bounds(12));
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
        // The table comes at its first use, or when asked for; a packed table stays packed
        // when rebuilt on one thread.
        let mut packed =
            Engine::with_packed_tt(Take3, SearchOptions { tt_bits: 4, ..SearchOptions::DEFAULT });
        assert!(packed.tt.is_none());
        packed.allocate_table();
        assert!(matches!(packed.tt, Some(Tables::Packed(_))));
        let packed_options = SearchOptions { tt_bits: 6, ..packed.options() };
        let mut packed = packed.rebuilt(packed_options);
        assert!(packed.tt.is_none());
        assert_eq!(packed.solve(&root), expected);
        assert!(matches!(packed.tt, Some(Tables::Packed(_))));
        // A released table holds nothing and comes back, empty and of the same kind, at the
        // next search.
        assert!(!packed.heavy_entries(0).is_empty());
        packed.release_table();
        assert!(packed.tt.is_none() && packed.heavy_entries(0).is_empty());
        assert_eq!(packed.solve(&root), expected);
        assert!(matches!(packed.tt, Some(Tables::Packed(_))));
        let options = SearchOptions { threads: 2, tt_bits: 6, ..engine.options() };
        let mut engine = engine.rebuilt(options);
        assert_eq!((engine.threads(), engine.options()), (2, options));
        assert_eq!(engine.solve(&root), expected);
    }
}
