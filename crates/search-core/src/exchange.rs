//! [`Exchange`]: the proven TT entries of large subtrees passed between engines that search
//! parts of one problem (the workers of a distributed solve, each with a table of its own),
//! so that a subtree one of them proved is not searched again by the others.
//!
//! The engine's threads push every entry they store whose subtree took at least
//! [`Exchange::min_work`] nodes into a buffer of their own and hand it to the exchange's
//! outbox at their periodic checks (every few thousand nodes) and at the end of a search; the
//! caller takes them with [`Exchange::take_proven`] and sends them wherever it likes. Entries
//! proven elsewhere are handed in with [`Exchange::give`] and stored in the engine's table at
//! the next periodic check of a running search, or when the next search starts.
//!
//! The exchange also carries where the searches are (ABDADA's deferral across engines):
//! with [`Exchange::with_defer_plies`] D, each thread hands over at its periodic checks the
//! keys of the positions on its path within D plies of the root, read with
//! [`Exchange::take_path`]; the paths of the other engines, handed in with
//! [`Exchange::set_peer_path`], make the engine put off (search after its other moves) a
//! move into a position another engine is searching, so that its result may arrive first.
//! Paths only order moves: a stale or foreign path costs time, never a value.
//!
//! Architecture invariant: the exchange carries what a table would hold, proven bounds on
//! positions of the same game under the same key scheme; it never decides whom to believe. The
//! caller makes sure that every entry it gives comes from an engine of the same game, board
//! and key scheme (a distributed run checks that every rank solves the same split first).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use crate::entry::TtEntry;

/// Entries given are stored with their work divided by `2^GIVEN_WORK_SHIFT`, so that they
/// displace the engine's own entries of subtrees of the same size less (its own are nearer
/// its current search).
const GIVEN_WORK_SHIFT: u32 = 3;

/// Entries given and not yet stored that an exchange holds at most ([`Exchange::give`]
/// drops the oldest beyond): a bound on the memory of an engine that others send more than
/// it stores (a worker whose search is descheduled, or between searches).
pub const MAX_GIVEN_ENTRIES: usize = 1 << 22;

/// The table of positions other engines are searching has `2^PEER_BUSY_BITS` slots (a key
/// whose slot another takes is no longer put off: a lost hint).
const PEER_BUSY_BITS: u32 = 12;

/// Proven TT entries passed between engines (see the module's documentation). `K` the game's
/// key, `M` its move.
#[derive(Debug)]
pub struct Exchange<K, M> {
    min_work: u32,
    /// Entries the engine proved, not yet taken.
    outbox: Mutex<Vec<TtEntry<K, M>>>,
    /// Entries given, not yet stored.
    inbox: Mutex<Vec<TtEntry<K, M>>>,
    /// Whether `inbox` may hold entries (read at every periodic check without the lock).
    has_given: AtomicBool,
    /// Entries given and stored so far.
    stored: AtomicU64,
    /// Entries given and dropped unstored (past [`MAX_GIVEN_ENTRIES`]).
    dropped: AtomicU64,
    /// How many plies of a search's path it hands over (0: none).
    defer_plies: usize,
    /// The keys ([`crate::TtKey::hash64`]) of the positions on the path of the latest thread
    /// that handed its path over, the root's first; whether it changed since it was taken.
    path: Mutex<(Vec<u64>, bool)>,
    /// The keys of the positions on the other engines' paths, one slot each (0: empty).
    peer_busy: Vec<AtomicU64>,
    /// Each other engine's path as last given, to clear its marks when a new one comes.
    peer_paths: Mutex<HashMap<u64, Vec<u64>>>,
}

impl<K, M> Exchange<K, M> {
    /// An exchange of the entries whose subtrees took at least `min_work` nodes (1 to
    /// `2^20 - 1`, the TT's saturated work; smaller values are taken as 1).
    #[must_use]
    pub fn new(min_work: u32) -> Self {
        Exchange {
            min_work: min_work.max(1),
            outbox: Mutex::new(Vec::new()),
            inbox: Mutex::new(Vec::new()),
            has_given: AtomicBool::new(false),
            stored: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
            defer_plies: 0,
            path: Mutex::new((Vec::new(), false)),
            peer_busy: Vec::new(),
            peer_paths: Mutex::new(HashMap::new()),
        }
    }

    /// The same exchange, with the paths of the searches (see the module's documentation)
    /// handed over and taken in to `plies` plies below the root (0: none).
    #[must_use]
    pub fn with_defer_plies(mut self, plies: usize) -> Self {
        self.defer_plies = plies;
        self.peer_busy = if plies == 0 {
            Vec::new()
        } else {
            (0..1 << PEER_BUSY_BITS).map(|_| AtomicU64::new(0)).collect()
        };
        self
    }

    /// How many plies below the root the paths go ([`Exchange::with_defer_plies`]).
    #[must_use]
    pub fn defer_plies(&self) -> usize {
        self.defer_plies
    }

    /// The keys ([`crate::TtKey::hash64`]) of the positions on the engine's current path, the
    /// search's root first, at most [`Exchange::defer_plies`] of them (none between searches),
    /// if they changed since the last call.
    #[must_use]
    pub fn take_path(&self) -> Option<Vec<u64>> {
        let mut path = lock(&self.path);
        std::mem::take(&mut path.1).then(|| path.0.clone())
    }

    /// Sets the path of another engine, `peer` (any number naming it), as [`Exchange::take_path`]
    /// gave it there: this engine puts off the moves into its positions until they are off the
    /// peer's next path. Keys of 0 are ignored.
    pub fn set_peer_path(&self, peer: u64, keys: &[u64]) {
        if self.peer_busy.is_empty() {
            return;
        }
        let mut paths = lock(&self.peer_paths);
        let old = paths.insert(peer, keys.to_vec()).unwrap_or_default();
        for &k in old.iter().filter(|k| !keys.contains(k)) {
            let _ = self.peer_slot(k).compare_exchange(k, 0, Ordering::Relaxed, Ordering::Relaxed);
        }
        for &k in keys.iter().filter(|&&k| k != 0) {
            self.peer_slot(k).store(k, Ordering::Relaxed);
        }
    }

    /// The slot of key `k` in `peer_busy` (not empty).
    fn peer_slot(&self, k: u64) -> &AtomicU64 {
        &self.peer_busy[(k.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - PEER_BUSY_BITS)) as usize]
    }

    /// Whether the position of key `k` ([`crate::TtKey::hash64`]) is on another engine's path.
    #[inline]
    pub(crate) fn peer_is_busy(&self, k: u64) -> bool {
        !self.peer_busy.is_empty() && k != 0 && self.peer_slot(k).load(Ordering::Relaxed) == k
    }

    /// A thread's path (at most [`Exchange::defer_plies`] keys, the root's first; empty when its
    /// search ended) replaces the one handed over before.
    pub(crate) fn hand_path(&self, keys: &[u64]) {
        let mut path = lock(&self.path);
        if path.0 != keys {
            path.0.clear();
            path.0.extend_from_slice(keys);
            path.1 = true;
        }
    }

    /// The least work (nodes of the subtree) of an entry the engine hands out.
    #[must_use]
    pub fn min_work(&self) -> u32 {
        self.min_work
    }

    /// The entries the engine proved (stored in its table) since the last call, in the order
    /// its threads handed them over: exact values or bounds of positions, from the side to
    /// move.
    #[must_use]
    pub fn take_proven(&self) -> Vec<TtEntry<K, M>> {
        std::mem::take(&mut *lock(&self.outbox))
    }

    /// Hands the engine entries proven by another engine of the same game and key scheme: it
    /// stores them in its table at the next periodic check of a running search or when its
    /// next search starts ([`crate::Engine::store_given`]: at once). Past [`MAX_GIVEN_ENTRIES`]
    /// entries waiting, the oldest are dropped (a given entry only saves work). The caller
    /// vouches for them (see the module's documentation).
    pub fn give(&self, entries: impl IntoIterator<Item = TtEntry<K, M>>) {
        let mut inbox = lock(&self.inbox);
        inbox.extend(entries);
        if inbox.len() > MAX_GIVEN_ENTRIES {
            let over = inbox.len() - MAX_GIVEN_ENTRIES;
            inbox.drain(..over);
            self.dropped.fetch_add(over as u64, Ordering::Relaxed);
        }
        if !inbox.is_empty() {
            self.has_given.store(true, Ordering::Release);
        }
    }

    /// How many given entries the engine has stored so far.
    #[must_use]
    pub fn stored(&self) -> u64 {
        self.stored.load(Ordering::Relaxed)
    }

    /// How many given entries were dropped unstored ([`MAX_GIVEN_ENTRIES`]).
    #[must_use]
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// Moves a thread's buffer of proven entries to the outbox.
    pub(crate) fn hand_over(&self, proven: &mut Vec<TtEntry<K, M>>) {
        if !proven.is_empty() {
            lock(&self.outbox).append(proven);
        }
    }

    /// The entries given since the last call, if any (cheap when there are none).
    pub(crate) fn take_given(&self) -> Option<Vec<TtEntry<K, M>>> {
        if !self.has_given.load(Ordering::Acquire) {
            return None;
        }
        let mut inbox = lock(&self.inbox);
        self.has_given.store(false, Ordering::Release);
        let mut given = std::mem::take(&mut *inbox);
        self.stored.fetch_add(given.len() as u64, Ordering::Relaxed);
        for e in &mut given {
            e.work >>= GIVEN_WORK_SHIFT;
        }
        Some(given)
    }
}

/// The mutex's contents even if a thread panicked while holding it (the vectors stay valid).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::Bound;
    use crate::{Engine, Game, Player};
    use std::sync::Arc;

    use crate::test_games::Take3;

    #[test]
    fn proven_entries_go_out_and_given_ones_spare_the_search() {
        let root = (16, 1, Player::First);
        let exchange = Arc::new(Exchange::new(64));
        let mut first = Engine::new(Take3, 18);
        first.set_exchange(Some(exchange.clone()));
        let value = first.search(&root, -1, 1);
        assert_eq!(value, -1, "16 is a multiple of 4: a loss for the side to move");
        let proven = exchange.take_proven();
        assert!(!proven.is_empty());
        assert!(proven.iter().all(|e| e.work >= 64));
        assert!(proven.iter().any(|e| e.key == Take3.key(&root) && e.value == -1 && e.bound != Bound::Lower));
        assert!(exchange.take_proven().is_empty(), "taken once");

        // A second engine given them answers the root from its table in one node.
        let other = Arc::new(Exchange::new(64));
        let mut second = Engine::new(Take3, 18);
        second.set_exchange(Some(other.clone()));
        other.give(proven.iter().copied());
        assert_eq!(second.search(&root, -1, 1), -1);
        assert_eq!(second.stats().nodes, 1);
        assert_eq!(other.stored(), proven.len() as u64);

        // Without them it searches the tree again.
        let mut third = Engine::new(Take3, 18);
        assert_eq!(third.search(&root, -1, 1), -1);
        assert!(third.stats().nodes > 1000, "{} nodes", third.stats().nodes);
    }

    #[test]
    fn an_idle_engine_stores_what_it_is_given_and_a_full_inbox_drops_the_oldest() {
        let root = (16, 1, Player::First);
        let exchange = Arc::new(Exchange::new(64));
        let mut first = Engine::new(Take3, 18);
        first.set_exchange(Some(exchange.clone()));
        first.search(&root, -1, 1);
        let proven = exchange.take_proven();
        assert!(!proven.is_empty());

        // Stored by `store_given` before any search: the search then answers from the table.
        let other = Arc::new(Exchange::new(64));
        let mut second = Engine::new(Take3, 18);
        second.set_exchange(Some(other.clone()));
        other.give(proven.iter().copied());
        second.store_given();
        assert_eq!(other.stored(), proven.len() as u64);
        assert!(other.take_given().is_none(), "nothing left waiting");
        assert_eq!(second.search(&root, -1, 1), -1);
        assert_eq!(second.stats().nodes, 1);

        // Past the bound the oldest entries go: the newest are kept, the dropped counted.
        let full = Exchange::<u64, u8>::new(1);
        let entry = |key: u64| TtEntry { key, value: 0, bound: Bound::Exact, best: None, work: 8 };
        full.give((0..MAX_GIVEN_ENTRIES as u64).map(entry));
        full.give((0..10).map(|k| entry(u64::MAX - k)));
        assert_eq!(full.dropped(), 10);
        let kept = full.take_given().expect("entries wait");
        assert_eq!(kept.len(), MAX_GIVEN_ENTRIES);
        assert_eq!(kept[0].key, 10, "the ten oldest dropped");
        assert_eq!(kept.last().map(|e| e.key), Some(u64::MAX - 9));
    }

    #[test]
    fn entries_given_before_a_search_are_stored_when_it_starts() {
        // The entry of a child, given before the search starts, is stored when it starts and
        // spares the child's subtree.
        let root = (20, 1, Player::First);
        let game = Take3;
        let mut plain = Engine::new(game, 20);
        let full = plain.search(&root, -1, 1);
        let nodes_plain = plain.stats().nodes;
        let (child, _) = game.play(&root, 1);
        let mut helper = Engine::new(game, 20);
        let child_value = helper.search(&child, -1, 1);
        let exchange = Arc::new(Exchange::new(1));
        let mut engine = Engine::new(game, 20);
        engine.set_exchange(Some(exchange.clone()));
        exchange.give([TtEntry {
            key: game.key(&child),
            value: child_value,
            bound: Bound::Exact,
            best: None,
            work: 1 << 19,
        }]);
        assert_eq!(engine.search(&root, -1, 1), full);
        assert!(engine.stats().nodes < nodes_plain, "{} against {nodes_plain}", engine.stats().nodes);
        assert_eq!(exchange.stored(), 1);
    }

    #[test]
    fn a_peer_path_marks_its_positions_until_the_next_one() {
        let exchange: Exchange<u64, u8> = Exchange::new(1).with_defer_plies(4);
        exchange.set_peer_path(3, &[11, 12, 13]);
        exchange.set_peer_path(5, &[21]);
        assert!([11, 12, 13, 21].iter().all(|&k| exchange.peer_is_busy(k)));
        assert!(!exchange.peer_is_busy(14));
        exchange.set_peer_path(3, &[11, 14]);
        assert!(exchange.peer_is_busy(11) && exchange.peer_is_busy(14) && exchange.peer_is_busy(21));
        assert!(!exchange.peer_is_busy(12) && !exchange.peer_is_busy(13));
        exchange.set_peer_path(3, &[]);
        assert!(!exchange.peer_is_busy(11) && !exchange.peer_is_busy(14));
        assert!(exchange.peer_is_busy(21), "another peer's path stays");
        // Without paths nothing is marked.
        let off: Exchange<u64, u8> = Exchange::new(1);
        off.set_peer_path(3, &[11]);
        assert!(!off.peer_is_busy(11));
    }

    #[test]
    fn a_search_hands_its_path_over_and_an_empty_one_when_it_ends() {
        let root = (20, 1, Player::First);
        let exchange = Arc::new(Exchange::new(64).with_defer_plies(3));
        let mut engine = Engine::new(Take3, 18);
        engine.set_exchange(Some(exchange.clone()));
        assert_eq!(exchange.take_path(), None, "no search yet");
        assert_eq!(engine.search(&root, -1, 1), -1);
        assert!(engine.stats().nodes > 10_000, "long enough for periodic checks");
        // Some path went out during the search (it changed), and the last one is empty.
        assert_eq!(exchange.take_path(), Some(Vec::new()));
        assert_eq!(exchange.take_path(), None, "taken once");
    }

    #[test]
    fn a_move_into_a_peers_position_is_searched_after_the_others() {
        // Heap 22: taking 2 (to 20, a multiple of 4) wins, after taking 1 was refuted; taking
        // 3 is never searched. Put off because a peer searches it, taking 2 comes after
        // taking 3: more nodes, the same value.
        let root = (22, 1, Player::First);
        let plain_nodes = {
            let mut engine = Engine::new(Take3, 18);
            assert_eq!(engine.search(&root, -1, 1), 1);
            engine.stats().nodes
        };
        let exchange = Arc::new(Exchange::new(64).with_defer_plies(2));
        let mut engine = Engine::new(Take3, 18);
        engine.set_exchange(Some(exchange.clone()));
        let (child, _) = Take3.play(&root, 2);
        exchange.set_peer_path(1, &[Take3.key(&child)]);
        assert_eq!(engine.search(&root, -1, 1), 1);
        assert!(engine.stats().nodes > plain_nodes, "{} against {plain_nodes}", engine.stats().nodes);
        // The first move is never put off.
        let (first, _) = Take3.play(&root, 1);
        exchange.set_peer_path(1, &[Take3.key(&first)]);
        let mut engine = Engine::new(Take3, 18);
        engine.set_exchange(Some(exchange.clone()));
        assert_eq!(engine.search(&root, -1, 1), 1);
        assert_eq!(engine.stats().nodes, plain_nodes);
    }
}
