//! The transposition table (TT): a fixed-size hash table of search results with their bounds.

use crate::{TtKey, Value};

/// `2^64 / phi`, odd: Fibonacci hashing's multiplier.
const FIBONACCI: u64 = 0x9E37_79B9_7F4A_7C15;

/// Largest `bits` accepted by [`TranspositionTable::with_bits`] (2^40 entries).
pub const MAX_TT_BITS: u32 = 40;

/// How a stored value relates to the true value of its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The stored value is the exact value.
    Exact,
    /// The true value is at least the stored value (the search failed high).
    Lower,
    /// The true value is at most the stored value (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry<K, M> {
    /// The full key of the position ([`crate::Game::key`]).
    pub key: K,
    /// The value found, from the side to move of the position.
    pub value: Value,
    /// How `value` bounds the true value.
    pub bound: Bound,
    /// The move that produced `value`, tried first on the next visit.
    pub best: Option<M>,
    /// Size of the subtree searched (nodes, saturated): the replacement priority.
    pub work: u32,
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
        if bits == 0 {
            return TranspositionTable { slots: Vec::new(), shift: 64 };
        }
        let bits = bits.min(MAX_TT_BITS);
        let len = 1usize << bits;
        TranspositionTable { slots: vec![None; len], shift: 64 - (bits - 1) }
    }

    /// Bytes one entry takes (the table takes `2^bits` of them).
    #[must_use]
    pub const fn entry_bytes() -> usize {
        std::mem::size_of::<Option<TtEntry<K, M>>>()
    }

    #[inline]
    fn bucket(&self, key: K) -> usize {
        // Fibonacci hashing: multiply by 2^64 / phi and keep the *top* bits, which depend on
        // every bit of the key (the middle bits do not depend on the key's high bits).
        let h = key.hash64().wrapping_mul(FIBONACCI);
        // `checked_shr` covers a one-bucket table (shift 64).
        (h.checked_shr(self.shift).unwrap_or(0) as usize) << 1
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
        let slot = match (&self.slots[b], &self.slots[b + 1]) {
            (Some(e), _) if e.key == entry.key => b,
            (_, Some(e)) if e.key == entry.key => b + 1,
            (None, _) => b,
            (Some(e), _) if entry.work >= e.work => {
                // Demote the old preferred entry to the always-replace slot.
                self.slots[b + 1] = self.slots[b];
                b
            }
            _ => b + 1,
        };
        self.slots[slot] = Some(entry);
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
