//! [`crate::SharedTable`]: a transposition table that several search threads share without locks and
//! without `unsafe`, for the [`crate::Engine`] on more than one thread: buckets of the key
//! type's layout ([`crate::SharedBucket`]: [`crate::PairBucket`] for `u64` keys,
//! [`crate::LineBucket`] for `u128` keys), each guarded by a version word so that a torn read
//! is always detected, and optionally a narrow part (`narrow_line.rs`) for the keys below
//! `2^W`.

use std::marker::PhantomData;

use crate::entry::{bucket_index, PackedMove, TtEntry};
use crate::narrow_line::Narrow;
use crate::narrow_line::{NarrowLine, NARROW_SLOTS};
use crate::SharedBucket;
use crate::{TtKey, MAX_TT_BITS};

/// A transposition table of exact keys shared by threads (`&SharedTable` is `Sync`): the same
/// probes and stores as [`crate::TranspositionTable`], through `&self`.
#[derive(Debug)]
pub struct SharedTable<K: TtKey, M> {
    buckets: Vec<K::Bucket>,
    /// `64 - log2(number of buckets)`.
    shift: u32,
    /// The part of the keys below `2^W`, if the table has one.
    narrow: Option<Narrow>,
    _moves: PhantomData<fn() -> M>,
}

impl<K: TtKey, M: PackedMove> SharedTable<K, M> {
    /// A table of `2^(bits - 1)` buckets (`bits` at most [`MAX_TT_BITS`]): `2^bits` entries of
    /// 20 bytes for `u64` keys, `1.5 * 2^bits` entries (three to a 64-byte line) for `u128`
    /// keys; [`SharedTable::entry_bytes`] bytes for each of the `2^bits`. `bits == 0` gives a
    /// disabled table that stores nothing.
    #[must_use]
    pub fn with_bits(bits: u32) -> Self {
        Self::with_bits_narrow(bits, 0)
    }

    /// [`SharedTable::with_bits`] with a narrow part for the keys below `2^narrow_bits`
    /// (`narrow_bits` 8 to 64; 0: none), seven entries to a line in seven eighths of the same
    /// memory (see the module documentation); the other keys share the remaining eighth. Where
    /// every key is narrow (`narrow_bits` at least [`TtKey::BITS`]: `u64` keys with 64) the
    /// narrow part takes all the memory. The narrow part is left out (every key in the buckets
    /// of [`SharedTable::with_bits`]) where the table is too small for a key's stored bits to
    /// fit a slot, below `2^(narrow_bits - 43)` lines, or has fewer than 8 buckets.
    #[must_use]
    pub fn with_bits_narrow(bits: u32, narrow_bits: u32) -> Self {
        if bits == 0 {
            return SharedTable { buckets: Vec::new(), shift: 64, narrow: None, _moves: PhantomData };
        }
        let bits = bits.min(MAX_TT_BITS);
        // Seven eighths of the memory of `2^(bits - 1)` buckets in narrow lines, or all of it.
        let every_key = narrow_bits >= K::BITS;
        let eighths = if every_key { 8 } else { 7 };
        let bucket_bytes = std::mem::size_of::<K::Bucket>();
        let narrow_lines = (eighths << (bits - 1) >> 3) * bucket_bytes / std::mem::size_of::<NarrowLine>();
        let narrow = if bits >= 4 { Narrow::new(narrow_bits, narrow_lines) } else { None };
        if narrow.is_some() && every_key {
            return SharedTable { buckets: Vec::new(), shift: 64, narrow, _moves: PhantomData };
        }
        let wide_bits = if narrow.is_some() { bits - 4 } else { bits - 1 };
        let buckets = (0..1usize << wide_bits).map(|_| K::Bucket::default()).collect();
        SharedTable { buckets, shift: 64 - wide_bits, narrow, _moves: PhantomData }
    }

    /// The narrow part's slots, or 0 without one.
    #[must_use]
    pub fn narrow_entries(&self) -> usize {
        self.narrow.as_ref().map_or(0, |n| n.lines.len() * NARROW_SLOTS)
    }

    /// The narrow part and `key` as a narrow key, if the table has that part and the key fits.
    #[inline]
    fn narrow_key(&self, key: K) -> Option<(&Narrow, u64)> {
        let narrow = self.narrow.as_ref()?;
        Some((narrow, key.narrow(narrow.mix.width)?))
    }

    /// Bytes the table takes for each of the `2^bits` of [`SharedTable::with_bits`] (half a
    /// bucket: 20 for `u64` keys, 32 for `u128` keys, whose buckets hold three entries).
    #[must_use]
    pub const fn entry_bytes() -> usize {
        std::mem::size_of::<K::Bucket>() / 2
    }

    #[inline]
    fn bucket(&self, key: K) -> &K::Bucket {
        &self.buckets[bucket_index(key, self.shift)]
    }

    /// Asks the processor to bring `key`'s bucket into the cache (a hint: no effect on the
    /// table; see [`crate::SearchOptions::prefetch_children`]).
    #[inline]
    pub fn prefetch(&self, key: K) {
        if let Some((narrow, k)) = self.narrow_key(key) {
            mem_prefetch::prefetch_read_data::<_, 3>(&narrow.lines[narrow.place(k).0]);
        } else if !self.buckets.is_empty() {
            mem_prefetch::prefetch_read_data::<_, 3>(self.bucket(key));
        }
    }

    /// The entry stored for `key`, if any (and if no writer was changing its bucket at the
    /// same moment).
    #[inline]
    #[must_use]
    pub fn probe(&self, key: K) -> Option<TtEntry<K, M>> {
        if let Some((narrow, k)) = self.narrow_key(key) {
            return narrow.probe(key, k);
        }
        if self.buckets.is_empty() {
            return None;
        }
        self.bucket(key).probe(key)
    }

    /// Every entry whose subtree took at least `min_work` nodes (as stored: saturated at
    /// `2^20 - 1` in the buckets of `u64` keys, rounded up to `2^k - 1` in those of `u128`
    /// keys and in the narrow part, whatever the key type), read bucket by bucket; a bucket
    /// that a writer is changing at the same moment is skipped.
    #[must_use]
    pub fn heavy_entries(&self, min_work: u32) -> Vec<TtEntry<K, M>> {
        let mut out = Vec::new();
        for b in &self.buckets {
            b.heavy(min_work, &mut out);
        }
        if let Some(narrow) = &self.narrow {
            narrow.heavy(min_work, &mut out);
        }
        out
    }

    /// Stores `entry` by the bucket's replacement scheme (the two tiers of
    /// [`crate::TranspositionTable::store`]), unless another thread is writing the same bucket
    /// (then the entry is dropped) or its value does not fit the layout (then it is dropped, or
    /// kept as a weaker bound that still holds: see the module documentation).
    #[inline]
    pub fn store(&self, entry: TtEntry<K, M>) {
        if let Some((narrow, k)) = self.narrow_key(entry.key) {
            return narrow.store(&entry, k);
        }
        if self.buckets.is_empty() {
            return;
        }
        self.bucket(entry.key).store(&entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::{Bound, MAX_WORK};
    use crate::line_bucket::LineBucket;
    use crate::Value;
    use std::sync::atomic::{AtomicU64, Ordering};

    use crate::narrow_line::Mix;
    use crate::shared_bucket::{read_locked, write_locked};

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

    /// Four threads hammer a one-bucket table with the entries `make(k)` of 64 keys, storing
    /// and probing; every probe that hits must return `stored(make(k))`, never a mix of two
    /// writes.
    fn hammer<K: TtKey>(
        tt: &SharedTable<K, u8>,
        make: impl Fn(u64) -> TtEntry<K, u8> + Sync,
        stored: impl Fn(TtEntry<K, u8>) -> TtEntry<K, u8> + Sync,
    ) {
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let (make, stored) = (&make, &stored);
                s.spawn(move || {
                    for i in 0..200_000u64 {
                        tt.store(make((i * 4 + t) % 64));
                        let p = make((i * 7 + t) % 64);
                        if let Some(e) = tt.probe(p.key) {
                            assert_eq!(e, stored(p));
                        }
                    }
                });
            }
        });
    }

    /// Entries whose value and work are derived from the key: a hit is always consistent.
    #[test]
    fn concurrent_writers_never_yield_a_torn_entry() {
        let tt = SharedTable::<u64, u8>::with_bits(1);
        let make = |k: u64| entry(k, (k as i64) * 3 - 7, Bound::Lower, Some((k % 200) as u8), k as u32);
        hammer(&tt, make, |e| e);
    }

    fn wide(key: u128, value: Value, bound: Bound, best: Option<u8>, work: u32) -> TtEntry<u128, u8> {
        TtEntry { key, value, bound, best, work }
    }

    /// A `u128` bucket is one aligned cache line of three entries: a table of `2^bits` takes
    /// 32 bytes for each and holds one and a half times as many entries.
    #[test]
    fn wide_keys_take_three_entries_to_an_aligned_line() {
        assert_eq!(std::mem::size_of::<LineBucket>(), 64);
        assert_eq!(std::mem::align_of::<LineBucket>(), 64);
        assert_eq!(SharedTable::<u128, u8>::entry_bytes(), 32);
        let tt = SharedTable::<u128, u8>::with_bits(1); // one bucket
        for k in 1..=3u128 {
            tt.store(wide(k << 100 | k, 1, Bound::Exact, None, 1));
        }
        for k in 1..=3u128 {
            assert_eq!(tt.probe(k << 100 | k).map(|e| e.value), Some(1), "key {k}");
        }
        assert_eq!(tt.heavy_entries(0).len(), 3);
    }

    #[test]
    fn wide_entries_round_trip_through_the_packing() {
        let tt = SharedTable::<u128, u8>::with_bits(10);
        // Work comes back as the largest number of its bit length.
        let cases = [
            (wide(0, 0, Bound::Exact, None, 0), 0),
            (wide(1, -1, Bound::Lower, Some(0), 1), 1),
            (wide(u128::MAX, -64, Bound::Upper, Some(126), u32::MAX), (1 << 31) - 1),
            (wide(1 << 127, 63, Bound::Exact, Some(7), 12345), (1 << 14) - 1),
            (wide(u128::from(u64::MAX) << 64, 5, Bound::Lower, Some(127), 2), 3),
        ];
        for (e, work) in cases {
            tt.store(e);
            let got = tt.probe(e.key).expect("stored");
            // A move code above 126 is stored as no move.
            let best = e.best.filter(|&m| m <= 126);
            assert_eq!(got, TtEntry { work, best, ..e });
        }
        let heavy = tt.heavy_entries(12_000);
        assert_eq!(heavy.len(), 2, "works 12345 and u32::MAX: {heavy:?}");
    }

    /// Values outside 7 bits are kept as the bound that still holds (a win scored by empty
    /// cells on a large m,n,k board), or not stored where none does.
    #[test]
    fn wide_values_outside_7_bits_are_stored_as_the_bound_that_holds() {
        let tt = SharedTable::<u128, u8>::with_bits(4);
        let stored = |e: TtEntry<u128, u8>| {
            tt.store(e);
            tt.probe(e.key).map(|got| (got.value, got.bound))
        };
        assert_eq!(stored(wide(1, 64, Bound::Exact, None, 1)), Some((63, Bound::Lower)));
        assert_eq!(stored(wide(2, 1000, Bound::Lower, None, 1)), Some((63, Bound::Lower)));
        assert_eq!(stored(wide(3, -65, Bound::Exact, None, 1)), Some((-64, Bound::Upper)));
        assert_eq!(stored(wide(4, -1000, Bound::Upper, None, 1)), Some((-64, Bound::Upper)));
        assert_eq!(stored(wide(5, 64, Bound::Upper, None, 1)), None);
        assert_eq!(stored(wide(6, -65, Bound::Lower, None, 1)), None);
        tt.store(wide(5, 3, Bound::Exact, None, 1));
        assert!(tt.probe(5 | 1 << 64).is_none());
        assert_eq!(tt.probe(5).map(|e| e.value), Some(3));
    }

    /// Two slots keep the larger subtrees, the third is always replaced; a key already held
    /// is replaced in its slot.
    #[test]
    fn wide_replacement_keeps_the_larger_subtrees() {
        let tt = SharedTable::<u128, u8>::with_bits(1); // one bucket, three slots
        tt.store(wide(1, 1, Bound::Exact, None, 100));
        tt.store(wide(2, 2, Bound::Exact, None, 1000));
        tt.store(wide(3, 3, Bound::Exact, None, 5));
        tt.store(wide(4, 4, Bound::Exact, None, 7));
        assert_eq!(tt.probe(1).map(|e| e.value), Some(1), "kept by work");
        assert_eq!(tt.probe(2).map(|e| e.value), Some(2), "kept by work");
        assert!(tt.probe(3).is_none(), "always-replace slot replaced");
        assert_eq!(tt.probe(4).map(|e| e.value), Some(4));
        tt.store(wide(5, 5, Bound::Exact, None, 300));
        assert_eq!(tt.probe(5).map(|e| e.value), Some(5));
        assert_eq!(tt.probe(1).map(|e| e.value), Some(1), "demoted, not lost");
        assert_eq!(tt.probe(2).map(|e| e.value), Some(2));
        assert!(tt.probe(4).is_none());
        tt.store(wide(2, -2, Bound::Lower, Some(3), 1));
        assert_eq!(tt.probe(2).map(|e| (e.value, e.bound, e.best)), Some((-2, Bound::Lower, Some(3))));
        assert_eq!(tt.heavy_entries(0).len(), 3);
    }

    /// As for `u64` keys: threads hammering one three-slot bucket never read a torn entry.
    #[test]
    fn concurrent_writers_never_yield_a_torn_wide_entry() {
        let tt = SharedTable::<u128, u8>::with_bits(1);
        let make = |k: u64| {
            let key = u128::from(k) << 64 | u128::from(k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            wide(key, (k as i64 % 100) - 50, Bound::Lower, Some((k % 100) as u8), k as u32)
        };
        // The work comes back as the largest number of its bit length.
        hammer(&tt, make, |p| TtEntry { work: ((1u64 << (32 - p.work.leading_zeros())) - 1) as u32, ..p });
    }

    /// The mix is a bijection of `width`-bit numbers: `backward` undoes `forward`.
    #[test]
    fn the_narrow_mix_is_a_bijection() {
        for width in [8, 13, 30, 43, 49, 63, 64] {
            let mix = Mix::new(width);
            let mut x = 0x1234_5678_9ABC_DEF1u64;
            for _ in 0..2000 {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let k = x & mix.mask;
                let m = mix.forward(k);
                assert!(m <= mix.mask, "width {width}");
                assert_eq!(mix.backward(m), k, "width {width}");
            }
            // Small widths: every number once.
            if width <= 13 {
                let mut seen = vec![false; 1 << width];
                for k in 0..1u64 << width {
                    let m = mix.forward(k) as usize;
                    assert!(!seen[m], "width {width}: {k} collides");
                    seen[m] = true;
                }
            }
        }
    }

    /// The line and the stored bits give the key back, for any number of lines.
    #[test]
    fn a_narrow_key_is_its_line_and_stored_bits() {
        for (width, lines) in
            [(8, 1), (8, 3), (8, 256), (8, 1000), (20, 7), (30, 1000), (49, 1 << 20), (64, 7 << 21)]
        {
            let narrow = Narrow::new(width, lines).expect("stored bits fit a slot");
            assert_eq!(narrow.remainder_bits, width.saturating_sub((lines as u64).ilog2()));
            let mut x = 99u64;
            for _ in 0..3000 {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let k = x >> (64 - width);
                let (line, r) = narrow.place(k);
                assert!(line < lines, "width {width}, {lines} lines");
                assert!(r < 1 << narrow.remainder_bits);
                assert_eq!(narrow.key_of(line, r), k, "width {width}, {lines} lines");
            }
        }
        // Stored bits that do not fit a slot: no narrow part.
        assert!(Narrow::new(64, 1 << 20).is_none());
        assert!(Narrow::new(4, 16).is_none());
    }

    fn narrow_entry(key: u128, work: u32) -> TtEntry<u128, u8> {
        let v = (key % 101) as Value - 50;
        wide(key, v, Bound::Lower, Some((key % 97) as u8), work)
    }

    /// Keys below `2^W` go to the narrow lines, the others to the `u128` lines; both are exact
    /// (a probe of another key misses) and `heavy_entries` gives the whole keys back.
    #[test]
    fn narrow_and_wide_keys_share_a_table_exactly() {
        let tt = SharedTable::<u128, u8>::with_bits_narrow(10, 24); // 512 lines
        assert_eq!(tt.narrow_entries(), 448 * 7);
        assert_eq!(tt.buckets.len(), 64);
        let keys = [0u128, 1, 5, (1 << 24) - 1, 1 << 24, 1 << 100 | 3, u128::MAX];
        for (i, &k) in keys.iter().enumerate() {
            tt.store(narrow_entry(k, 1 << (i + 5)));
        }
        for (i, &k) in keys.iter().enumerate() {
            let work = ((1u64 << (i + 6)) - 1) as u32;
            assert_eq!(tt.probe(k), Some(TtEntry { work, ..narrow_entry(k, 0) }), "key {k:#x}");
        }
        for k in [2u128, 6, 1 << 23, (1 << 24) + 1, 1 << 101 | 3] {
            assert!(tt.probe(k).is_none(), "key {k:#x} was never stored");
        }
        let mut heavy: Vec<u128> = tt.heavy_entries(0).into_iter().map(|e| e.key).collect();
        heavy.sort_unstable();
        assert_eq!(heavy, keys);
        assert_eq!(tt.heavy_entries(1 << 10).len(), 2, "works 2^11 and 2^10 - 1 rounded up");
        // Too small a table for 50-bit keys' stored bits: every key in the u128 lines.
        let small = SharedTable::<u128, u8>::with_bits_narrow(6, 50);
        assert_eq!(small.narrow_entries(), 0);
        assert_eq!(small.buckets.len(), 32);
    }

    /// `u64` keys with a narrow width of 64: every key is narrow, so the narrow part takes all
    /// the memory and there are no buckets; keys at both ends of the range (graph keys set bit
    /// 63) are stored and found exactly. Below the size where a slot holds the stored bits, the
    /// buckets take it all.
    #[test]
    fn u64_keys_all_narrow_take_the_whole_table() {
        let tt = SharedTable::<u64, u8>::with_bits_narrow(23, 64);
        // 2^22 buckets of 40 bytes, as 64-byte lines of seven slots.
        assert_eq!(tt.narrow_entries(), (40 << 22) / 64 * 7);
        assert!(tt.buckets.is_empty());
        let keys = [0u64, 1, 0x1234_5678_9abc, 1 << 63, (1 << 63) | 77, u64::MAX];
        for (i, &k) in keys.iter().enumerate() {
            tt.store(TtEntry {
                key: k,
                value: i as Value - 3,
                bound: Bound::Exact,
                best: Some(i as u8),
                work: 100,
            });
        }
        for (i, &k) in keys.iter().enumerate() {
            let e = tt.probe(k).unwrap_or_else(|| panic!("key {k:#x} lost"));
            assert_eq!((e.key, e.value, e.bound, e.best), (k, i as Value - 3, Bound::Exact, Some(i as u8)));
        }
        for k in [2u64, (1 << 63) | 78, u64::MAX - 1] {
            assert!(tt.probe(k).is_none(), "key {k:#x} was never stored");
        }
        let mut heavy: Vec<u64> = tt.heavy_entries(0).into_iter().map(|e| e.key).collect();
        heavy.sort_unstable();
        assert_eq!(heavy, keys);
        let small = SharedTable::<u64, u8>::with_bits_narrow(22, 64);
        assert_eq!(small.narrow_entries(), 0);
        assert_eq!(small.buckets.len(), 1 << 21);
    }

    /// Many narrow keys through few lines: a hit is always the last entry stored for that key,
    /// never another key's (the stored bits and the line name the key exactly).
    #[test]
    fn colliding_narrow_keys_never_answer_for_each_other() {
        // 14 narrow lines, 98 slots, for every key below 2^10: the stored bits of the keys of a
        // line (7 of them) are all taken, so a comparison that misses one bit is caught.
        let tt = SharedTable::<u128, u8>::with_bits_narrow(5, 10);
        assert_eq!(tt.narrow_entries(), 98);
        let mut last = std::collections::HashMap::new();
        let mut x = 7u64;
        let (mut hits, mut probes) = (0, 0);
        for round in 0..20_000u32 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let k = u128::from(x >> 54);
            if round % 3 == 0 {
                let e = wide(k, Value::from(round % 100) - 50, Bound::Exact, None, round % 64);
                tt.store(e);
                last.insert(k, e);
            } else {
                probes += 1;
                if let Some(got) = tt.probe(k) {
                    hits += 1;
                    let want = last[&k];
                    assert_eq!((got.key, got.value, got.bound), (want.key, want.value, want.bound));
                }
            }
        }
        assert!(hits > probes / 20, "{hits} hits of {probes}");
    }

    /// A full narrow line replaces the slot of the smallest subtree; a key already held is
    /// replaced in its slot.
    #[test]
    fn a_full_narrow_line_replaces_the_smallest_subtree() {
        let narrow = Narrow::new(16, 1).expect("one line");
        let works = [100, 1000, 5, 300, 70, 2000, 40];
        for (k, &w) in works.iter().enumerate() {
            narrow.store(&narrow_entry(k as u128, w), k as u64);
        }
        let probe = |k: u64| narrow.probe::<u128, u8>(u128::from(k), k);
        assert!((0..7).all(|k| probe(k).is_some()));
        narrow.store(&narrow_entry(7, 3), 7);
        assert!(probe(2).is_none(), "work 5, the smallest, replaced");
        assert!(probe(7).is_some());
        narrow.store(&narrow_entry(8, 50), 8);
        assert!(probe(7).is_none(), "work 3 now the smallest");
        narrow.store(&narrow_entry(1, 1), 1);
        assert_eq!(probe(1).map(|e| e.work), Some(1), "replaced in its own slot");
        assert!([0, 3, 4, 5, 6, 8].iter().all(|&k| probe(k).is_some()));
    }

    /// Threads hammering a table of seven narrow lines never read a torn entry.
    #[test]
    fn concurrent_writers_never_yield_a_torn_narrow_entry() {
        let tt = SharedTable::<u128, u8>::with_bits_narrow(4, 12); // 7 narrow lines
        let make = |k: u64| {
            let key = u128::from(k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52);
            wide(key, (key as i64 % 100) - 50, Bound::Lower, Some((key % 100) as u8), key as u32)
        };
        hammer(&tt, make, |p| TtEntry { work: ((1u64 << (32 - p.work.leading_zeros())) - 1) as u32, ..p });
    }

    /// The seqlock, deterministically (the hammer tests above rarely make threads overlap):
    /// a read under an odd version, or one that a write overlaps, gives nothing; a write under
    /// an odd version is dropped; a write publishes the next even version.
    #[test]
    fn the_seqlock_refuses_reads_that_a_write_overlaps() {
        let version = AtomicU64::new(4);
        assert_eq!(read_locked(&version, || 7), Some(7), "a quiet read");
        assert_eq!(version.load(Ordering::Relaxed), 4);
        version.store(5, Ordering::Relaxed);
        assert_eq!(read_locked(&version, || panic!("read under a writer's odd version")), None::<u8>);
        let mut ran = false;
        write_locked(&version, || ran = true);
        assert!(!ran, "a second writer is dropped");
        assert_eq!(version.load(Ordering::Relaxed), 5);
        version.store(6, Ordering::Relaxed);
        // A writer that claims and publishes the bucket while the read is under way.
        let overlapped = read_locked(&version, || {
            write_locked(&version, || {});
            1
        });
        assert_eq!(overlapped, None, "a read overlapped by a whole write");
        assert_eq!(version.load(Ordering::Relaxed), 8, "the write published the next even version");
        let claimed = read_locked(&version, || {
            version.fetch_add(1, Ordering::Relaxed);
            1
        });
        assert_eq!(claimed, None, "a read overlapped by a write still under way");
        version.store(10, Ordering::Relaxed);
        write_locked(&version, || {
            assert_eq!(version.load(Ordering::Relaxed), 11, "odd while the write runs");
            ran = true;
        });
        assert!(ran);
        assert_eq!(version.load(Ordering::Relaxed), 12);
    }
}
