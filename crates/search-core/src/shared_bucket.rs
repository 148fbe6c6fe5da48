//! [`crate::SharedBucket`]: the bucket layout of a [`crate::SharedTable`] for one key type, guarded
//! by a version word (a sequence lock), and [`crate::PairBucket`], the two-entry bucket of `u64` keys.
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
//! # The pair bucket
//! A bucket is chosen by the key's hash ([`crate::entry::bucket_index`]) and guarded by one
//! version word; its layout depends on the key type ([`TtKey::Bucket`]):
//!
//! # Layout
//! A bucket is chosen by the key's hash ([`crate::tt::bucket_index`]) and guarded by one
//! version word; its layout depends on the key type ([`TtKey::Bucket`]):
//!
//! - `u64` keys ([`crate::PairBucket`]): two entries (the two-tier replacement of
//!   [`crate::TranspositionTable`]: the first slot keeps the larger subtree, the second is always
//!   replaced) in five words: the version, two keys and two data words. A data word packs the
//!   value (32 bits, two's complement), the bound (2 bits, 0 = empty slot), the best move
//!   ([`PackedMove`], 10 bits, 0 = none) and the subtree size ("work", 20 bits, saturated). A
//!   value outside `i32` is not stored.

use std::sync::atomic::{fence, AtomicU64, Ordering};

use crate::entry::{choose_slot, pack, unpack, PackedMove, Slot, TtEntry, MAX_WORK, WORK_SHIFT};
use crate::TtKey;

/// The layout of a [`crate::SharedTable`]'s buckets for one key type ([`TtKey::Bucket`]): entries
/// and the version word that guards them (see the module documentation). Every method goes
/// through the version: a probe that overlaps a write misses, a store that finds the bucket
/// claimed by another writer is dropped.
pub trait SharedBucket<K>: Default + std::fmt::Debug + Send + Sync {
    /// The entry stored for `key`, if any (and if no writer was changing the bucket).
    fn probe<M: PackedMove>(&self, key: K) -> Option<TtEntry<K, M>>;
    /// Stores `entry` by the bucket's replacement scheme, unless another thread is writing the
    /// bucket or the entry does not fit the layout (then nothing is stored; a layout may store
    /// a weaker bound that still holds instead, as [`crate::LineBucket`] does).
    fn store<M: PackedMove>(&self, entry: &TtEntry<K, M>);
    /// Appends to `out` every entry whose (stored) work is at least `min_work`; nothing if a
    /// writer is changing the bucket.
    fn heavy<M: PackedMove>(&self, min_work: u32, out: &mut Vec<TtEntry<K, M>>);
}

/// Reads under the seqlock of `version`: `read`'s result if no writer held or took the
/// version meanwhile.
#[inline]
pub(crate) fn read_locked<T>(version: &AtomicU64, read: impl FnOnce() -> T) -> Option<T> {
    let v1 = version.load(Ordering::Acquire);
    if v1 & 1 == 1 {
        return None;
    }
    let t = read();
    // Orders the loads of `read` before the second version load: if they saw any word of a
    // later write, this load sees that writer's odd (or a later) version.
    fence(Ordering::Acquire);
    (version.load(Ordering::Relaxed) == v1).then_some(t)
}

/// Writes under the seqlock of `version`: claims it (even to odd) by one compare-and-swap,
/// runs `write`, publishes the next even version; does nothing if another writer holds it.
#[inline]
pub(crate) fn write_locked(version: &AtomicU64, write: impl FnOnce()) {
    let v = version.load(Ordering::Relaxed);
    if v & 1 == 1 || version.compare_exchange(v, v + 1, Ordering::Acquire, Ordering::Relaxed).is_err() {
        return;
    }
    // The odd version is visible before any word written below.
    fence(Ordering::Release);
    write();
    version.store(v + 2, Ordering::Release);
}

/// The bucket of `u64` keys: two entries and the version that guards them (see the module
/// documentation).
#[derive(Debug)]
pub struct PairBucket<K: TtKey> {
    version: AtomicU64,
    keys: [K::Atoms; 2],
    data: [AtomicU64; 2],
}

impl<K: TtKey> Default for PairBucket<K> {
    fn default() -> Self {
        PairBucket { version: AtomicU64::new(0), keys: Default::default(), data: Default::default() }
    }
}

impl<K: TtKey> SharedBucket<K> for PairBucket<K> {
    #[inline]
    fn probe<M: PackedMove>(&self, key: K) -> Option<TtEntry<K, M>> {
        let words = read_locked(&self.version, || {
            [
                (K::load(&self.keys[0]), self.data[0].load(Ordering::Relaxed)),
                (K::load(&self.keys[1]), self.data[1].load(Ordering::Relaxed)),
            ]
        })?;
        words.into_iter().find(|&(k, d)| k == key && d != 0).map(|(k, d)| unpack(k, d))
    }

    #[inline]
    fn store<M: PackedMove>(&self, entry: &TtEntry<K, M>) {
        let Some(data) = pack(entry) else { return };
        write_locked(&self.version, || {
            let slot = |i: usize| (K::load(&self.keys[i]), self.data[i].load(Ordering::Relaxed));
            let (first, second) = (slot(0), slot(1));
            let key = |(k, d): (K, u64)| (d != 0).then_some(k);
            let outworks = || data >> WORK_SHIFT >= first.1 >> WORK_SHIFT;
            let target = match choose_slot(key(first), key(second), entry.key, outworks) {
                Slot::First { demote } => {
                    if demote {
                        first.0.store(&self.keys[1]);
                        self.data[1].store(first.1, Ordering::Relaxed);
                    }
                    0
                }
                Slot::Second => 1,
            };
            entry.key.store(&self.keys[target]);
            self.data[target].store(data, Ordering::Relaxed);
        });
    }

    fn heavy<M: PackedMove>(&self, min_work: u32, out: &mut Vec<TtEntry<K, M>>) {
        let min_work = u64::from(min_work).min(MAX_WORK);
        let Some(words) = read_locked(&self.version, || {
            [
                (K::load(&self.keys[0]), self.data[0].load(Ordering::Relaxed)),
                (K::load(&self.keys[1]), self.data[1].load(Ordering::Relaxed)),
            ]
        }) else {
            return;
        };
        out.extend(
            words
                .into_iter()
                .filter(|&(_, d)| d != 0 && d >> WORK_SHIFT >= min_work)
                .map(|(k, d)| unpack(k, d)),
        );
    }
}
