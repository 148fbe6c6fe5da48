//! [`SharedTable`]: a transposition table that several search threads share without locks and
//! without `unsafe`, for the [`crate::Engine`] on more than one thread.
//!
//! # Exactness under concurrent writes
//! Hyatt and Mann ("A lock-less transposition table implementation for parallel search chess
//! engines", *ICGA Journal* 25, 2002) store an entry as two words `key ^ data` and `data`, so
//! that an entry torn by a concurrent writer almost never validates. "Almost" is enough for a
//! chess engine but not for an exact solver: a torn read validates whenever the XOR of two
//! keys and two data words happens to vanish. Here every bucket carries a version counter
//! instead (a sequence lock, "seqlock"; H.-J. Boehm, "Can seqlocks get along with programming
//! language memory models?", MSPC 2012), so a torn read is *always* detected:
//!
//! - a writer claims the bucket by moving its version from even to odd with one
//!   compare-and-swap, writes, and publishes the next even version; a writer that finds the
//!   bucket claimed by another thread does not wait, it drops its entry (the table is a cache:
//!   a lost entry costs time, never correctness);
//! - a reader reads the version, the bucket's words, then the version again, and trusts the
//!   words only if both versions are equal and even (otherwise: a miss).
//!
//! Readers never write and never wait; writers never wait. An entry is accepted only when its
//! full key matches, so values stay exact. A key takes one word (`u64`) or two (`u128`): see
//! [`TtKey::Atoms`].
//!
//! # Layout
//! A bucket holds two entries (the two-tier replacement of [`crate::TranspositionTable`]: the
//! first slot keeps the larger subtree, the second is always replaced) in five words for `u64`
//! keys (seven for `u128`): the version, two keys and two data words. A data word packs the
//! value (32 bits, two's complement), the bound (2 bits, 0 = empty slot), the best move
//! ([`PackedMove`], 10 bits, 0 = none) and the subtree size ("work", 20 bits, saturated). A
//! value outside `i32` is not stored.

use std::marker::PhantomData;
use std::sync::atomic::{fence, AtomicU64, Ordering};

use crate::tt::{bucket_index, choose_slot, Slot};
use crate::{Bound, TtEntry, TtKey, Value, MAX_TT_BITS};

/// Largest work stored (20 bits); larger subtrees are stored as this.
pub(crate) const MAX_WORK: u64 = (1 << 20) - 1;

/// Bits of the move field of a data word.
const MOVE_BITS: u32 = 10;

/// Largest code of [`PackedMove::pack`]: the move field holds the code plus one (0 = none).
pub const MAX_MOVE_CODE: u16 = (1 << MOVE_BITS) - 2;

/// A move as a code of the 10-bit move field of a [`SharedTable`] entry, so that any game can
/// be searched on several threads.
///
/// Connect Four's moves are columns, Triangle War's segment numbers, the grid games' cells. A
/// move without a code (`None`) is stored as no best move: the TT's move is only an ordering
/// hint, so that costs time, never correctness.
pub trait PackedMove: Copy {
    /// The move as a code at most [`MAX_MOVE_CODE`], or `None` if it has none.
    fn pack(self) -> Option<u16>;
    /// The move whose [`PackedMove::pack`] is `code`.
    fn unpack(code: u16) -> Self;
}

impl PackedMove for u8 {
    #[inline]
    fn pack(self) -> Option<u16> {
        Some(u16::from(self))
    }
    #[inline]
    fn unpack(code: u16) -> Self {
        code as u8
    }
}

/// Two entries and the version that guards them (see the module documentation).
#[derive(Debug)]
struct Bucket<K: TtKey> {
    version: AtomicU64,
    keys: [K::Atoms; 2],
    data: [AtomicU64; 2],
}

impl<K: TtKey> Default for Bucket<K> {
    fn default() -> Self {
        Bucket { version: AtomicU64::new(0), keys: Default::default(), data: Default::default() }
    }
}

/// A transposition table of exact keys shared by threads (`&SharedTable` is `Sync`): the same
/// probes and stores as [`crate::TranspositionTable`], through `&self`.
#[derive(Debug)]
pub struct SharedTable<K: TtKey, M> {
    buckets: Vec<Bucket<K>>,
    /// `64 - log2(number of buckets)`.
    shift: u32,
    _moves: PhantomData<fn() -> M>,
}

impl<K: TtKey, M: PackedMove> SharedTable<K, M> {
    /// A table of `2^bits` entries (`bits` at most [`MAX_TT_BITS`]), 20 bytes each (28 for
    /// `u128` keys); `bits == 0`
    /// gives a disabled table that stores nothing.
    #[must_use]
    pub fn with_bits(bits: u32) -> Self {
        if bits == 0 {
            return SharedTable { buckets: Vec::new(), shift: 64, _moves: PhantomData };
        }
        let bits = bits.min(MAX_TT_BITS);
        let buckets = (0..1usize << (bits - 1)).map(|_| Bucket::default()).collect();
        SharedTable { buckets, shift: 64 - (bits - 1), _moves: PhantomData }
    }

    /// Bytes one entry takes (the table takes `2^bits` of them).
    #[must_use]
    pub const fn entry_bytes() -> usize {
        std::mem::size_of::<Bucket<K>>() / 2
    }

    #[inline]
    fn bucket(&self, key: K) -> &Bucket<K> {
        &self.buckets[bucket_index(key, self.shift)]
    }

    /// The entry stored for `key`, if any (and if no writer was changing its bucket at the
    /// same moment).
    #[inline]
    #[must_use]
    pub fn probe(&self, key: K) -> Option<TtEntry<K, M>> {
        if self.buckets.is_empty() {
            return None;
        }
        let b = self.bucket(key);
        let v1 = b.version.load(Ordering::Acquire);
        if v1 & 1 == 1 {
            return None;
        }
        let words = [
            (K::load(&b.keys[0]), b.data[0].load(Ordering::Relaxed)),
            (K::load(&b.keys[1]), b.data[1].load(Ordering::Relaxed)),
        ];
        // Orders the loads above before the second version load: if they saw any word of a
        // later write, this load sees that writer's odd (or a later) version.
        fence(Ordering::Acquire);
        if b.version.load(Ordering::Relaxed) != v1 {
            return None;
        }
        words.into_iter().find(|&(k, d)| k == key && d != 0).map(|(k, d)| unpack(k, d))
    }

    /// Every entry whose subtree took at least `min_work` nodes (capped at `2^20 - 1`, where
    /// stored works saturate), read bucket by bucket; a bucket that a writer is changing
    /// at the same moment is skipped.
    #[must_use]
    pub fn heavy_entries(&self, min_work: u32) -> Vec<TtEntry<K, M>> {
        let min_work = u64::from(min_work).min(MAX_WORK);
        let mut out = Vec::new();
        for b in &self.buckets {
            let v1 = b.version.load(Ordering::Acquire);
            if v1 & 1 == 1 {
                continue;
            }
            let words = [
                (K::load(&b.keys[0]), b.data[0].load(Ordering::Relaxed)),
                (K::load(&b.keys[1]), b.data[1].load(Ordering::Relaxed)),
            ];
            fence(Ordering::Acquire);
            if b.version.load(Ordering::Relaxed) != v1 {
                continue;
            }
            out.extend(
                words
                    .into_iter()
                    .filter(|&(_, d)| d != 0 && d >> WORK_SHIFT >= min_work)
                    .map(|(k, d)| unpack(k, d)),
            );
        }
        out
    }

    /// Stores `entry` with the replacement of [`crate::TranspositionTable::store`], unless
    /// another thread is writing the same bucket (then the entry is dropped) or the value does
    /// not fit 32 bits.
    #[inline]
    pub fn store(&self, entry: TtEntry<K, M>) {
        if self.buckets.is_empty() {
            return;
        }
        let Some(data) = pack(&entry) else { return };
        let b = self.bucket(entry.key);
        let v = b.version.load(Ordering::Relaxed);
        if v & 1 == 1 || b.version.compare_exchange(v, v + 1, Ordering::Acquire, Ordering::Relaxed).is_err() {
            return;
        }
        // The odd version is visible before any word written below.
        fence(Ordering::Release);
        let slot = |i: usize| (K::load(&b.keys[i]), b.data[i].load(Ordering::Relaxed));
        let (first, second) = (slot(0), slot(1));
        let key = |(k, d): (K, u64)| (d != 0).then_some(k);
        let outworks = || data >> WORK_SHIFT >= first.1 >> WORK_SHIFT;
        let target = match choose_slot(key(first), key(second), entry.key, outworks) {
            Slot::First { demote } => {
                if demote {
                    first.0.store(&b.keys[1]);
                    b.data[1].store(first.1, Ordering::Relaxed);
                }
                0
            }
            Slot::Second => 1,
        };
        entry.key.store(&b.keys[target]);
        b.data[target].store(data, Ordering::Relaxed);
        b.version.store(v + 2, Ordering::Release);
    }
}

/// The data word of `e`, or `None` if its value does not fit 32 bits (0 is an empty slot:
/// every entry has a bound, 1 to 3).
#[inline]
pub(crate) fn pack<K, M: PackedMove>(e: &TtEntry<K, M>) -> Option<u64> {
    let value = i32::try_from(e.value).ok()?;
    let bound: u64 = match e.bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    let mv =
        e.best.and_then(PackedMove::pack).filter(|&c| c <= MAX_MOVE_CODE).map_or(0, |c| u64::from(c) + 1);
    let work = u64::from(e.work).min(MAX_WORK);
    Some(u64::from(value as u32) | bound << 32 | mv << 34 | work << WORK_SHIFT)
}

/// Where the work field starts in a data word.
pub(crate) const WORK_SHIFT: u32 = 34 + MOVE_BITS;

/// The entry of `key` whose data word is `d` (not 0).
#[inline]
pub(crate) fn unpack<K, M: PackedMove>(key: K, d: u64) -> TtEntry<K, M> {
    let bound = match (d >> 32) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    let mv = ((d >> 34) & ((1 << MOVE_BITS) - 1)) as u16;
    TtEntry {
        key,
        value: Value::from(d as u32 as i32),
        bound,
        best: mv.checked_sub(1).map(M::unpack),
        work: (d >> WORK_SHIFT) as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, value: Value, bound: Bound, best: Option<u8>, work: u32) -> TtEntry<u64, u8> {
        TtEntry { key, value, bound, best, work }
    }

    #[test]
    fn entries_round_trip_through_the_packing() {
        let tt = SharedTable::<u64, u8>::with_bits(10);
        let cases = [
            entry(0, 0, Bound::Exact, None, 0),
            entry(1, -1, Bound::Lower, Some(0), 1),
            entry(u64::MAX, i64::from(i32::MIN), Bound::Upper, Some(254), u32::MAX),
            entry(1 << 63, i64::from(i32::MAX), Bound::Exact, Some(7), 12345),
        ];
        for e in cases {
            tt.store(e);
            let got = tt.probe(e.key).expect("stored");
            let want = TtEntry { work: e.work.min(MAX_WORK as u32), ..e };
            assert_eq!(got, want);
        }
    }

    #[test]
    fn values_outside_32_bits_are_not_stored_and_other_keys_miss() {
        let tt = SharedTable::<u64, u8>::with_bits(4);
        tt.store(entry(5, 1 << 40, Bound::Exact, None, 1));
        assert!(tt.probe(5).is_none());
        tt.store(entry(5, 3, Bound::Exact, None, 1));
        assert!(tt.probe(6).is_none());
        let off = SharedTable::<u64, u8>::with_bits(0);
        off.store(entry(5, 3, Bound::Exact, None, 1));
        assert!(off.probe(5).is_none());
    }

    /// The same two-tier replacement as the one-thread table: the larger subtree stays.
    #[test]
    fn replacement_keeps_the_larger_subtree() {
        let tt = SharedTable::<u64, u8>::with_bits(1); // one bucket, two slots
        tt.store(entry(1, 1, Bound::Exact, None, 100));
        tt.store(entry(2, 2, Bound::Exact, None, 5));
        tt.store(entry(3, 3, Bound::Exact, None, 7));
        assert_eq!(tt.probe(1).map(|e| e.value), Some(1), "preferred slot kept");
        assert!(tt.probe(2).is_none(), "always-replace slot replaced");
        assert_eq!(tt.probe(3).map(|e| e.value), Some(3));
        tt.store(entry(4, 4, Bound::Exact, None, 200));
        assert_eq!(tt.probe(4).map(|e| e.value), Some(4));
        assert_eq!(tt.probe(1).map(|e| e.value), Some(1), "demoted, not lost");
        tt.store(entry(1, -1, Bound::Lower, Some(3), 1));
        assert_eq!(tt.probe(1).map(|e| (e.value, e.bound, e.best)), Some((-1, Bound::Lower, Some(3))));
    }

    /// Threads hammering one bucket with entries whose value and work are derived from the key:
    /// every probe that hits returns a consistent entry, never a mix of two writes.
    #[test]
    fn concurrent_writers_never_yield_a_torn_entry() {
        let tt = SharedTable::<u64, u8>::with_bits(1);
        let make = |k: u64| entry(k, (k as i64) * 3 - 7, Bound::Lower, Some((k % 200) as u8), k as u32);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..200_000u64 {
                        let k = (i * 4 + t) % 64;
                        tt.store(make(k));
                        let probe = (i * 7 + t) % 64;
                        if let Some(e) = tt.probe(probe) {
                            assert_eq!(e, make(probe));
                        }
                    }
                });
            }
        });
    }
}
