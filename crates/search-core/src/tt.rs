//! The transposition table (TT): a fixed-size hash table of search results with their bounds.

use std::marker::PhantomData;

use crate::entry::{
    bucket_index, choose_slot, pack, unpack, Bound, PackedMove, Slot, TtEntry, MAX_WORK as MAX_PACKED_WORK,
    WORK_SHIFT,
};
use crate::{TtKey, Value, INFINITY};

/// Largest `bits` accepted by [`TranspositionTable::with_bits`] (2^40 entries).
pub const MAX_TT_BITS: u32 = 40;

/// The empty slots of a table of `2^bits` entries (`bits` at most [`MAX_TT_BITS`]) in buckets
/// of two, and the shift of [`bucket_index`] that picks a bucket; `bits == 0`: no slot, a
/// disabled table.
fn two_slot_buckets<E: Clone>(bits: u32) -> (Vec<Option<E>>, u32) {
    if bits == 0 {
        return (Vec::new(), 64);
    }
    let bits = bits.min(MAX_TT_BITS);
    (vec![None; 1usize << bits], 64 - (bits - 1))
}

/// The slot of the two-slot bucket starting at `b` in `slots` that takes an entry for `key`
/// whose subtree took `work` ([`choose_slot`]; `key_work` reads an entry's key and work), the
/// first slot's old entry moved to the second first where the scheme demotes it.
#[inline]
fn take_slot<E: Copy, K: PartialEq>(
    slots: &mut [Option<E>],
    b: usize,
    key: K,
    work: u32,
    key_work: impl Fn(&E) -> (K, u32),
) -> usize {
    let (first, second) = (slots[b].as_ref().map(&key_work), slots[b + 1].as_ref().map(&key_work));
    let first_work = first.as_ref().map(|(_, w)| *w);
    let outworks = || first_work.is_some_and(|w| work >= w);
    match choose_slot(first.map(|(k, _)| k), second.map(|(k, _)| k), key, outworks) {
        Slot::First { demote } => {
            if demote {
                slots[b + 1] = slots[b];
            }
            b
        }
        Slot::Second => b + 1,
    }
}

/// A transposition table with two-entry buckets: the first slot keeps the entry whose subtree
/// was larger, the second is always replaced. Keys are compared in full, so a probe never
/// returns another position's entry.
///
/// Capacity is a power of two, fixed at construction; the table never allocates afterwards.
#[derive(Clone, Debug)]
pub struct TranspositionTable<K, M> {
    slots: Vec<Option<TtEntry<K, M>>>,
    /// `64 - log2(number of buckets)`: the bucket is the top bits of the multiplied key.
    shift: u32,
}

impl<K: TtKey, M: Copy> TranspositionTable<K, M> {
    /// A table of `2^bits` entries (`bits` at most [`MAX_TT_BITS`]). Memory: `2^bits`
    /// entries of [`TranspositionTable::entry_bytes`] bytes each (about 24–48, depending on
    /// the key and move types).
    #[must_use]
    ///
    /// `bits == 0` gives a disabled table: it stores nothing and finds nothing (plain
    /// alpha-beta, for teaching and comparison).
    pub fn with_bits(bits: u32) -> Self {
        let (slots, shift) = two_slot_buckets(bits);
        TranspositionTable { slots, shift }
    }

    /// Bytes one entry takes (the table takes `2^bits` of them).
    #[must_use]
    pub const fn entry_bytes() -> usize {
        std::mem::size_of::<Option<TtEntry<K, M>>>()
    }

    #[inline]
    fn bucket(&self, key: K) -> usize {
        bucket_index(key, self.shift) << 1
    }

    /// Asks the processor to bring `key`'s bucket into the cache (a hint: no effect on the
    /// table; see [`crate::SearchOptions::prefetch_children`]).
    #[inline]
    pub fn prefetch(&self, key: K) {
        if !self.slots.is_empty() {
            mem_prefetch::prefetch_read_data::<_, 3>(&self.slots[self.bucket(key)]);
        }
    }

    /// The entry stored for `key`, if any.
    #[inline]
    #[must_use]
    pub fn probe(&self, key: K) -> Option<&TtEntry<K, M>> {
        if self.slots.is_empty() {
            return None;
        }
        let b = self.bucket(key);
        self.slots[b..b + 2].iter().flatten().find(|e| e.key == key)
    }

    /// Every stored entry whose subtree took at least `min_work` nodes, in table order: the
    /// expensive results worth saving beside a [`crate::Checkpoint`] (see
    /// [`crate::tt_entries_to_text`]).
    #[must_use]
    pub fn heavy_entries(&self, min_work: u32) -> Vec<TtEntry<K, M>> {
        self.slots.iter().flatten().filter(|e| e.work >= min_work).copied().collect()
    }

    /// Stores `entry`, replacing an entry with the same key, or else the depth-preferred slot if
    /// `entry.work` is at least its work, or else the always-replace slot.
    #[inline]
    pub fn store(&mut self, entry: TtEntry<K, M>) {
        if self.slots.is_empty() {
            return;
        }
        let b = self.bucket(entry.key);
        let slot = take_slot(&mut self.slots, b, entry.key, entry.work, |e| (e.key, e.work));
        self.slots[slot] = Some(entry);
    }
}

/// The one-thread table of [`crate::OneThreadTable::BothBounds`]: the buckets and
/// replacement of [`TranspositionTable`], but each entry keeps both bounds of its position (J. K. Barker and R. E. Korf, "Solving
/// Dots-And-Boxes", AAAI 2012): a store for a key already in the table narrows the stored
/// interval instead of replacing it, so that a fail-low after a fail-high (as PVS's null
/// windows and their re-searches, or MTD(f)'s passes, make them) leaves both bounds; where they
/// meet the entry is exact. Bounds are held in 32 bits: one beyond them is weakened to the
/// nearest that fits (never wrong, at worst unknown).
///
/// Capacity is a power of two, fixed at construction; the table never allocates afterwards.
#[derive(Clone, Debug)]
pub struct BoundsTable<K, M> {
    /// The slots, two per bucket, where a bucket does not fill a cache line exactly (empty
    /// otherwise).
    slots: Vec<Option<TwoBounds<K, M>>>,
    /// The buckets, one per cache line, where two entries fill one exactly (`u128` keys; empty
    /// otherwise): a probe then reads one line, never two.
    lines: Vec<LinePair<TwoBounds<K, M>>>,
    /// `64 - log2(number of buckets)`: the bucket is the top bits of the multiplied key.
    shift: u32,
}

/// The two slots of a bucket, aligned to a 64-byte cache line.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
struct LinePair<E>([Option<E>; 2]);

/// An entry of [`BoundsTable`]: both bounds of a position in 32 bits each, `i32::MIN`
/// (`i32::MAX`) for an unknown lower (upper) bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TwoBounds<K, M> {
    key: K,
    lo: i32,
    hi: i32,
    best: Option<M>,
    work: u32,
}

impl<K: Copy, M: Copy> TwoBounds<K, M> {
    /// The bounds of `entry` (a bound beyond 32 bits weakened to one that fits).
    fn from_entry(entry: &TtEntry<K, M>) -> Self {
        let lower = |v: Value| v.clamp(Value::from(i32::MIN), Value::from(i32::MAX - 1)) as i32;
        let upper = |v: Value| v.clamp(Value::from(i32::MIN + 1), Value::from(i32::MAX)) as i32;
        let (lo, hi) = match entry.bound {
            Bound::Exact => (lower(entry.value), upper(entry.value)),
            Bound::Lower => (lower(entry.value), i32::MAX),
            Bound::Upper => (i32::MIN, upper(entry.value)),
        };
        TwoBounds { key: entry.key, lo, hi, best: entry.best, work: entry.work }
    }

    /// The lower and upper bound, `-INFINITY` / `INFINITY` where unknown.
    fn bounds(&self) -> (Value, Value) {
        let lo = if self.lo == i32::MIN { -INFINITY } else { Value::from(self.lo) };
        let hi = if self.hi == i32::MAX { INFINITY } else { Value::from(self.hi) };
        (lo, hi)
    }

    /// The entry as one [`TtEntry`]: exact where the bounds meet, else the lower bound if it
    /// is known (the upper one otherwise).
    fn entry(&self) -> TtEntry<K, M> {
        let (lo, hi) = self.bounds();
        let (value, bound) = if lo == hi {
            (lo, Bound::Exact)
        } else if lo > -INFINITY {
            (lo, Bound::Lower)
        } else {
            (hi, Bound::Upper)
        };
        TtEntry { key: self.key, value, bound, best: self.best, work: self.work }
    }
}

impl<K: TtKey, M: Copy> BoundsTable<K, M> {
    /// A table of `2^bits` entries (`bits` at most [`MAX_TT_BITS`]). Memory: `2^bits`
    /// entries of [`BoundsTable::entry_bytes`] bytes each (about 24–32, depending on
    /// the key and move types).
    #[must_use]
    ///
    /// `bits == 0` gives a disabled table: it stores nothing and finds nothing (plain
    /// alpha-beta, for teaching and comparison).
    pub fn with_bits(bits: u32) -> Self {
        if Self::LINED {
            // The same buckets as `two_slot_buckets` makes, one per line.
            if bits == 0 {
                return BoundsTable { slots: Vec::new(), lines: Vec::new(), shift: 64 };
            }
            let bits = bits.min(MAX_TT_BITS);
            let lines = vec![LinePair([None; 2]); 1usize << (bits - 1)];
            BoundsTable { slots: Vec::new(), lines, shift: 64 - (bits - 1) }
        } else {
            let (slots, shift) = two_slot_buckets(bits);
            BoundsTable { slots, lines: Vec::new(), shift }
        }
    }

    /// Whether two entries fill a cache line exactly (the buckets are then `lines`).
    const LINED: bool = 2 * std::mem::size_of::<Option<TwoBounds<K, M>>>() == 64;

    /// Whether the table is disabled (no bucket).
    #[inline]
    fn is_disabled(&self) -> bool {
        if Self::LINED {
            self.lines.is_empty()
        } else {
            self.slots.is_empty()
        }
    }

    /// The two slots of bucket `b` (an index from [`BoundsTable::bucket`]).
    #[inline]
    fn pair(&self, b: usize) -> &[Option<TwoBounds<K, M>>] {
        if Self::LINED {
            &self.lines[b].0
        } else {
            &self.slots[2 * b..2 * b + 2]
        }
    }

    /// The two slots of bucket `b`, to write.
    #[inline]
    fn pair_mut(&mut self, b: usize) -> &mut [Option<TwoBounds<K, M>>] {
        if Self::LINED {
            &mut self.lines[b].0
        } else {
            &mut self.slots[2 * b..2 * b + 2]
        }
    }

    /// Bytes one entry takes (the table takes `2^bits` of them).
    #[must_use]
    pub const fn entry_bytes() -> usize {
        std::mem::size_of::<Option<TwoBounds<K, M>>>()
    }

    #[inline]
    fn bucket(&self, key: K) -> usize {
        bucket_index(key, self.shift)
    }

    /// Asks the processor to bring `key`'s bucket into the cache (a hint: no effect on the
    /// table; see [`crate::SearchOptions::prefetch_children`]).
    #[inline]
    pub fn prefetch(&self, key: K) {
        if self.is_disabled() {
            return;
        }
        mem_prefetch::prefetch_read_data::<_, 3>(&self.pair(self.bucket(key))[0]);
    }

    #[inline]
    fn find(&self, key: K) -> Option<&TwoBounds<K, M>> {
        if self.is_disabled() {
            return None;
        }
        self.pair(self.bucket(key)).iter().flatten().find(|e| e.key == key)
    }

    /// The entry stored for `key`, if any, as one bound (exact where both bounds meet, else
    /// the lower bound if known; [`BoundsTable::probe_bounds`] gives both).
    #[inline]
    #[must_use]
    pub fn probe(&self, key: K) -> Option<TtEntry<K, M>> {
        self.find(key).map(TwoBounds::entry)
    }

    /// Both bounds stored for `key` (`-INFINITY` / `INFINITY` where unknown) and its best move,
    /// if there is an entry.
    #[inline]
    #[must_use]
    pub fn probe_bounds(&self, key: K) -> Option<(Value, Value, Option<M>)> {
        self.find(key).map(|e| {
            let (lo, hi) = e.bounds();
            (lo, hi, e.best)
        })
    }

    /// Every stored entry whose subtree took at least `min_work` nodes, in table order: the
    /// expensive results worth saving beside a [`crate::Checkpoint`] (see
    /// [`crate::tt_entries_to_text`]). An entry with two bounds that do not meet gives two
    /// (a lower and an upper bound; storing both again merges them).
    #[must_use]
    pub fn heavy_entries(&self, min_work: u32) -> Vec<TtEntry<K, M>> {
        let mut out = Vec::new();
        let lines = self.lines.iter().flat_map(|pair| pair.0.iter());
        for e in self.slots.iter().chain(lines).flatten().filter(|e| e.work >= min_work) {
            let (lo, hi) = e.bounds();
            let entry = e.entry();
            if lo > -INFINITY && hi < INFINITY && lo < hi {
                out.push(TtEntry { value: hi, bound: Bound::Upper, ..entry });
            }
            out.push(entry);
        }
        out
    }

    /// Stores `entry`: merged into the entry with the same key (both bounds narrowed to what
    /// either proves; the new best move, or the old one if the new has none; the new work),
    /// or else into the depth-preferred slot if `entry.work` is at least its work, or else
    /// the always-replace slot.
    #[inline]
    pub fn store(&mut self, entry: TtEntry<K, M>) {
        if self.is_disabled() {
            return;
        }
        let b = self.bucket(entry.key);
        let pair = self.pair_mut(b);
        let slot = take_slot(pair, 0, entry.key, entry.work, |e| (e.key, e.work));
        let mut new = TwoBounds::from_entry(&entry);
        if let Some(old) = pair[slot].filter(|e| e.key == entry.key) {
            let (lo, hi) = (new.lo.max(old.lo), new.hi.min(old.hi));
            // Proven bounds always overlap; should they not, the newer result stands.
            if lo <= hi {
                new.lo = lo;
                new.hi = hi;
            }
            new.best = new.best.or(old.best);
        }
        pair[slot] = Some(new);
    }
}

/// A bucket of [`PackedTable`]: two keys and their data words (the layout of
/// [`crate::SharedTable`]'s buckets without the version), aligned so that a bucket of `u64`
/// keys never straddles two cache lines.
#[derive(Clone, Copy, Debug)]
#[repr(align(32))]
struct PackedBucket<K> {
    keys: [K; 2],
    /// Value, bound, move and work packed as in the shared table; 0 for an empty slot.
    data: [u64; 2],
}

/// The one-thread table of [`crate::Engine::with_packed_tt`]: the replacement of
/// [`TranspositionTable`] (two entries per bucket, the larger subtree kept in the first) with
/// the entries packed as in [`crate::SharedTable`] (the value in 32 bits, the best move as a
/// [`PackedMove`] code of 10 bits, the work saturated at `2^20 - 1`): 16 bytes an entry for
/// `u64` keys instead of 24, a bucket 32 bytes aligned on 32, so that a look-up reads one cache
/// line (the table is mostly cache misses on large solves). A value outside `i32` is not
/// stored, a move without a code is stored as none.
#[derive(Clone, Debug)]
pub struct PackedTable<K, M> {
    buckets: Vec<PackedBucket<K>>,
    /// `64 - log2(number of buckets)`.
    shift: u32,
    _moves: PhantomData<fn() -> M>,
}

impl<K: TtKey, M: PackedMove> PackedTable<K, M> {
    /// A table of `2^bits` entries (`bits` at most [`MAX_TT_BITS`]; 0: no table, it stores
    /// nothing and finds nothing), [`PackedTable::entry_bytes`] bytes each.
    #[must_use]
    pub fn with_bits(bits: u32) -> Self {
        if bits == 0 {
            return PackedTable { buckets: Vec::new(), shift: 64, _moves: PhantomData };
        }
        let bits = bits.min(MAX_TT_BITS);
        // The zero key (of an empty slot: its data word is 0, whatever the key).
        let zero = K::load(&K::Atoms::default());
        let empty = PackedBucket { keys: [zero; 2], data: [0; 2] };
        PackedTable { buckets: vec![empty; 1 << (bits - 1)], shift: 64 - (bits - 1), _moves: PhantomData }
    }

    /// Bytes one entry takes (16 for `u64` keys).
    #[must_use]
    pub const fn entry_bytes() -> usize {
        std::mem::size_of::<PackedBucket<K>>() / 2
    }

    #[inline]
    fn bucket(&self, key: K) -> usize {
        bucket_index(key, self.shift)
    }

    /// Asks the processor to bring `key`'s bucket into the cache (a hint: no effect on the
    /// table; see [`crate::SearchOptions::prefetch_children`]).
    #[inline]
    pub fn prefetch(&self, key: K) {
        if !self.buckets.is_empty() {
            mem_prefetch::prefetch_read_data::<_, 3>(&self.buckets[self.bucket(key)]);
        }
    }

    /// The entry stored for `key`, if any.
    #[inline]
    #[must_use]
    pub fn probe(&self, key: K) -> Option<TtEntry<K, M>> {
        let b = self.buckets.get(self.bucket(key))?;
        (0..2).find(|&i| b.keys[i] == key && b.data[i] != 0).map(|i| unpack(key, b.data[i]))
    }

    /// Every stored entry whose subtree took at least `min_work` nodes (capped at
    /// `2^20 - 1`, where stored works saturate), in table order.
    #[must_use]
    pub fn heavy_entries(&self, min_work: u32) -> Vec<TtEntry<K, M>> {
        let min_work = u64::from(min_work).min(MAX_PACKED_WORK);
        let slots = self.buckets.iter().flat_map(|b| b.keys.into_iter().zip(b.data));
        slots.filter(|&(_, d)| d != 0 && d >> WORK_SHIFT >= min_work).map(|(k, d)| unpack(k, d)).collect()
    }

    /// Stores `entry` as [`TranspositionTable::store`] does (the works compared saturated),
    /// unless its value does not fit 32 bits.
    #[inline]
    pub fn store(&mut self, entry: TtEntry<K, M>) {
        let Some(data) = pack(&entry) else { return };
        let i = self.bucket(entry.key);
        let Some(b) = self.buckets.get_mut(i) else { return };
        let key = |i: usize| (b.data[i] != 0).then_some(b.keys[i]);
        let outworks = || data >> WORK_SHIFT >= b.data[0] >> WORK_SHIFT;
        let slot = match choose_slot(key(0), key(1), entry.key, outworks) {
            Slot::First { demote } => {
                if demote {
                    b.keys[1] = b.keys[0];
                    b.data[1] = b.data[0];
                }
                0
            }
            Slot::Second => 1,
        };
        b.keys[slot] = entry.key;
        b.data[slot] = data;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys that differ only in their high bits (sparse bit paths) must spread over the table:
    /// storing fewer keys than buckets keeps nearly all of them.
    #[test]
    fn high_bit_keys_spread_over_the_buckets() {
        let keys: Vec<u64> = (0..64).flat_map(|a| (0..a).map(move |b| 1u64 << a | 1u64 << b)).collect();
        let mut tt = TranspositionTable::<u64, u8>::with_bits(16);
        for &key in &keys {
            tt.store(TtEntry { key, value: 0, bound: Bound::Exact, best: None, work: 1 });
        }
        let kept = keys.iter().filter(|&&k| tt.probe(k).is_some()).count();
        assert!(kept * 100 >= keys.len() * 95, "kept {kept} of {}", keys.len());
    }

    fn entry(key: u64, value: Value, bound: Bound, best: Option<u8>, work: u32) -> TtEntry<u64, u8> {
        TtEntry { key, value, bound, best, work }
    }

    /// The packed table returns what was stored (the work saturated at `2^20 - 1`), keeps the
    /// larger subtree of a bucket as the plain table does, stores no value beyond 32 bits, and
    /// with 0 bits stores nothing.
    #[test]
    fn packed_table_round_trips_and_replaces_as_the_plain_one() {
        let mut tt = PackedTable::<u64, u8>::with_bits(10);
        let cases = [
            entry(0, 0, Bound::Exact, None, 0),
            entry(1, -1, Bound::Lower, Some(0), 1),
            entry(u64::MAX, Value::from(i32::MIN), Bound::Upper, Some(254), u32::MAX),
            entry(1 << 63, Value::from(i32::MAX), Bound::Exact, Some(7), 12345),
        ];
        for e in cases {
            tt.store(e);
            assert_eq!(tt.probe(e.key), Some(TtEntry { work: e.work.min((1 << 20) - 1), ..e }));
        }
        assert!(tt.probe(2).is_none());
        tt.store(entry(5, 1 << 40, Bound::Exact, None, 1));
        assert!(tt.probe(5).is_none(), "a value beyond 32 bits is not stored");
        assert_eq!(tt.heavy_entries(12345).len(), 2);

        // One bucket: the same sequence in the plain table and the packed one.
        let mut plain = TranspositionTable::<u64, u8>::with_bits(1);
        let mut packed = PackedTable::<u64, u8>::with_bits(1);
        let sequence = [(1, 100), (2, 5), (3, 7), (4, 200), (1, 1), (5, 0), (4, 3)];
        for (step, &(key, work)) in sequence.iter().enumerate() {
            let e = entry(key, step as Value, Bound::Lower, Some(key as u8), work);
            plain.store(e);
            packed.store(e);
            for k in 0..7 {
                assert_eq!(packed.probe(k), plain.probe(k).copied(), "step {step} key {k}");
            }
        }
        let mut off = PackedTable::<u64, u8>::with_bits(0);
        off.store(entry(7, 3, Bound::Exact, None, 5));
        assert!(off.probe(7).is_none());
        assert!(off.heavy_entries(0).is_empty());
    }

    /// A store for a key already held narrows its bounds: a lower and an upper bound are both
    /// kept (two entries for a checkpoint), an exact entry results where they meet, a fail-low
    /// keeps the best move of the earlier fail-high, and bounds beyond 32 bits are weakened,
    /// never wrong.
    #[test]
    fn both_bounds_of_a_position_are_kept() {
        let mut tt = BoundsTable::<u64, u8>::with_bits(4);
        tt.store(entry(9, 3, Bound::Lower, Some(2), 10));
        tt.store(entry(9, 7, Bound::Upper, None, 4));
        assert_eq!(tt.probe_bounds(9), Some((3, 7, Some(2))));
        assert_eq!(tt.probe(9), Some(entry(9, 3, Bound::Lower, Some(2), 4)));
        let heavy = tt.heavy_entries(0);
        assert_eq!(heavy, vec![entry(9, 7, Bound::Upper, Some(2), 4), entry(9, 3, Bound::Lower, Some(2), 4)]);
        let mut seeded = BoundsTable::<u64, u8>::with_bits(4);
        for e in heavy {
            seeded.store(e);
        }
        assert_eq!(seeded.probe_bounds(9), Some((3, 7, Some(2))));
        tt.store(entry(9, 5, Bound::Upper, None, 4));
        tt.store(entry(9, 5, Bound::Lower, Some(1), 4));
        assert_eq!(tt.probe(9), Some(entry(9, 5, Bound::Exact, Some(1), 4)));
        assert_eq!(tt.probe_bounds(9), Some((5, 5, Some(1))));
        // A weaker bound stored later does not loosen the entry.
        tt.store(entry(9, 2, Bound::Lower, None, 4));
        assert_eq!(tt.probe_bounds(9), Some((5, 5, Some(1))));
        tt.store(entry(4, 1 << 40, Bound::Lower, None, 1));
        tt.store(entry(4, 1 << 41, Bound::Upper, None, 1));
        assert_eq!(tt.probe_bounds(4), Some((Value::from(i32::MAX - 1), INFINITY, None)));
        tt.store(entry(5, -(1 << 40), Bound::Exact, None, 1));
        assert_eq!(tt.probe_bounds(5), Some((-INFINITY, Value::from(i32::MIN + 1), None)));
    }

    /// With `u128` keys two entries fill a cache line: the buckets are the aligned lines, with
    /// the same stores, merges, replacement and heavy entries.
    #[test]
    fn bounds_tables_of_u128_keys_use_aligned_lines() {
        const { assert!(BoundsTable::<u128, u8>::LINED) };
        const { assert!(!BoundsTable::<u64, u8>::LINED) };
        let mut tt = BoundsTable::<u128, u8>::with_bits(4);
        assert_eq!(tt.lines.len(), 8);
        assert_eq!(std::mem::align_of_val(&tt.lines[0]), 64);
        let e = |key: u128, value, bound, best, work| TtEntry { key, value, bound, best, work };
        tt.store(e(9 << 64, 3, Bound::Lower, Some(2), 10));
        tt.store(e(9 << 64, 7, Bound::Upper, None, 4));
        assert_eq!(tt.probe_bounds(9 << 64), Some((3, 7, Some(2))));
        assert_eq!(tt.heavy_entries(0).len(), 2);
        // Three keys in one bucket: the third displaces one of the first two.
        let same_bucket: Vec<u128> =
            (1..10_000u128).filter(|&k| tt.bucket(k) == tt.bucket(9 << 64)).take(2).collect();
        tt.store(e(same_bucket[0], 1, Bound::Exact, None, 1));
        tt.store(e(same_bucket[1], 2, Bound::Exact, None, 1));
        let found =
            [9 << 64, same_bucket[0], same_bucket[1]].iter().filter(|&&k| tt.probe(k).is_some()).count();
        assert_eq!(found, 2);
        assert!(BoundsTable::<u128, u8>::with_bits(0).probe(1).is_none());
    }

    #[test]
    fn tiny_tables_work() {
        let mut tt = TranspositionTable::<u64, u8>::with_bits(1);
        tt.store(TtEntry { key: 7, value: 3, bound: Bound::Lower, best: Some(1), work: 5 });
        assert_eq!(tt.probe(7).map(|e| (e.value, e.bound)), Some((3, Bound::Lower)));
        assert!(tt.probe(8).is_none());
        let mut off = TranspositionTable::<u64, u8>::with_bits(0);
        off.store(TtEntry { key: 7, value: 3, bound: Bound::Exact, best: None, work: 5 });
        assert!(off.probe(7).is_none());
    }
}
