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
//! Architecture invariant: the exchange carries what a table would hold, proven bounds on
//! positions of the same game under the same key scheme; it never decides whom to believe. The
//! caller makes sure that every entry it gives comes from an engine of the same game, board
//! and key scheme (a distributed run checks that every rank solves the same split first).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use crate::entry::TtEntry;

/// Entries given are stored with their work divided by `2^GIVEN_WORK_SHIFT`, so that they
/// displace the engine's own entries of subtrees of the same size less (its own are nearer
/// its current search).
const GIVEN_WORK_SHIFT: u32 = 3;

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
    /// next search starts. The caller vouches for them (see the module's documentation).
    pub fn give(&self, entries: impl IntoIterator<Item = TtEntry<K, M>>) {
        let mut inbox = lock(&self.inbox);
        inbox.extend(entries);
        if !inbox.is_empty() {
            self.has_given.store(true, Ordering::Release);
        }
    }

    /// How many given entries the engine has stored so far.
    #[must_use]
    pub fn stored(&self) -> u64 {
        self.stored.load(Ordering::Relaxed)
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
}
