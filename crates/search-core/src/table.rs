//! The [`Table`] trait the negamax probes and stores through, implemented over the tables of
//! `tt.rs` (one thread: [`TranspositionTable`], [`BoundsTable`], [`PackedTable`]) and
//! `atomic_tt.rs` (`&`[`SharedTable`], one reference per thread), which share their entry and
//! packing (`entry.rs`); and [`Tables`], the one table an engine holds, built as its
//! [`SearchOptions`] say.

use crate::atomic_tt::SharedTable;
use crate::entry::{Bound, PackedMove, TtEntry};
use crate::options::{OneThreadTable, SearchOptions};
use crate::tt::{BoundsTable, PackedTable, TranspositionTable};
use crate::{TtKey, Value, INFINITY};

/// How far ahead [`Table::store_all`] prefetches.
const STORE_ALL_LOOKAHEAD: usize = 8;

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
    /// Stores every entry of `entries` in turn, the bucket of the entry eight places ahead
    /// prefetched while one is stored, so that the cache misses of a batch (entries given by
    /// other engines, which land anywhere in the table) overlap instead of following one
    /// another.
    fn store_all(&mut self, entries: &[TtEntry<K, M>])
    where
        K: Copy,
        M: Copy,
    {
        for (i, e) in entries.iter().enumerate() {
            if let Some(ahead) = entries.get(i + STORE_ALL_LOOKAHEAD) {
                self.prefetch(ahead.key);
            }
            self.store(*e);
        }
    }
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

/// The TT of an engine: one thread's (plain, both bounds or packed), or the table all threads
/// share.
pub(crate) enum Tables<K: TtKey, M: PackedMove> {
    Serial(TranspositionTable<K, M>),
    Bounds(BoundsTable<K, M>),
    Packed(PackedTable<K, M>),
    Shared(SharedTable<K, M>),
}

impl<K: TtKey, M: PackedMove> Tables<K, M> {
    /// The table `options` ask for (`threads` at least 1): the shared one for several threads,
    /// [`SearchOptions::one_thread_table`] for one; `narrow_key_bits` sizes the shared table's
    /// narrow part ([`SharedTable::with_bits_narrow`]).
    pub(crate) fn new(options: &SearchOptions, narrow_key_bits: u32) -> Self {
        let bits = options.tt_bits;
        let table = if options.threads > 1 { OneThreadTable::Shared } else { options.one_thread_table };
        match table {
            OneThreadTable::Shared => Tables::Shared(SharedTable::with_bits_narrow(bits, narrow_key_bits)),
            OneThreadTable::Packed => Tables::Packed(PackedTable::with_bits(bits)),
            OneThreadTable::BothBounds => Tables::Bounds(BoundsTable::with_bits(bits)),
            OneThreadTable::Plain => Tables::Serial(TranspositionTable::with_bits(bits)),
        }
    }

    /// Bytes an entry of the table `options` ask for takes (its `tt_bits` aside).
    pub(crate) fn entry_bytes(options: &SearchOptions) -> u64 {
        let table = if options.threads > 1 { OneThreadTable::Shared } else { options.one_thread_table };
        (match table {
            OneThreadTable::Shared => SharedTable::<K, M>::entry_bytes(),
            OneThreadTable::Packed => PackedTable::<K, M>::entry_bytes(),
            OneThreadTable::BothBounds => BoundsTable::<K, M>::entry_bytes(),
            OneThreadTable::Plain => TranspositionTable::<K, M>::entry_bytes(),
        }) as u64
    }

    /// The TT entries whose subtrees took at least `min_work` nodes.
    pub(crate) fn heavy_entries(&self, min_work: u32) -> Vec<TtEntry<K, M>> {
        match self {
            Tables::Serial(tt) => tt.heavy_entries(min_work),
            Tables::Bounds(tt) => tt.heavy_entries(min_work),
            Tables::Packed(tt) => tt.heavy_entries(min_work),
            Tables::Shared(tt) => tt.heavy_entries(min_work),
        }
    }

    /// Stores `entry` in whichever table this is.
    pub(crate) fn store(&mut self, entry: TtEntry<K, M>) {
        match self {
            Tables::Serial(tt) => tt.store(entry),
            Tables::Bounds(tt) => tt.store(entry),
            Tables::Packed(tt) => tt.store(entry),
            Tables::Shared(tt) => tt.store(entry),
        }
    }

    /// [`Table::store_all`] in whichever table this is.
    pub(crate) fn store_all(&mut self, entries: &[TtEntry<K, M>]) {
        match self {
            Tables::Serial(tt) => Table::store_all(tt, entries),
            Tables::Bounds(tt) => Table::store_all(tt, entries),
            Tables::Packed(tt) => Table::store_all(tt, entries),
            Tables::Shared(tt) => Table::store_all(&mut &*tt, entries),
        }
    }

    /// [`Table::probe_bounds`] of whichever table this is.
    pub(crate) fn probe_bounds(&self, key: K) -> Option<(Value, Value, Option<M>)> {
        match self {
            Tables::Serial(tt) => Table::probe_bounds(tt, key),
            Tables::Bounds(tt) => Table::probe_bounds(tt, key),
            Tables::Packed(tt) => Table::probe_bounds(tt, key),
            Tables::Shared(tt) => Table::probe_bounds(&tt, key),
        }
    }
}
