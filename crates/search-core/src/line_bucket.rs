//! [`crate::LineBucket`]: the bucket of `u128` keys of a [`crate::SharedTable`], three entries in one
//! cache line under the version word of [`crate::SharedBucket`].
//!
//! `u128` keys: three entries in one 64-byte cache line: the version, three
//! keys of two words and one word holding three 21-bit data fields (the bound, the value in 7
//! bits, the move code in 7, the work as its bit length in 5), so that a probe reads one line
//! and a table holds half again as many entries as buckets of two would in about the same
//! memory. Two slots keep the larger subtrees, the third is always replaced. A value outside
//! `-64..=63` is stored as the weaker bound that still holds (63 as a lower bound, -64 as an
//! upper one) or not at all, a move code above [`crate::MAX_LINE_MOVE_CODE`] is stored as no move
//! (dots-and-boxes: at most 25 boxes and 64 lines).

use std::sync::atomic::{AtomicU64, Ordering};

use crate::entry::{Bound, PackedMove, TtEntry};
use crate::shared_bucket::{read_locked, write_locked, SharedBucket};
use crate::{TtKey, Value};

/// Largest move code a [`crate::LineBucket`] stores (7 bits, 0 = none); a larger code is stored as
/// no best move.
pub const MAX_LINE_MOVE_CODE: u16 = 126;

/// Bits of one entry's data field in a [`crate::LineBucket`].
pub(crate) const FIELD_BITS: u32 = 21;
pub(crate) const FIELD_MASK: u64 = (1 << FIELD_BITS) - 1;

/// The bucket of `u128` keys: three entries in one 64-byte cache line, the version, three keys
/// and one word of three 21-bit data fields (see the module documentation). Slots 0 and 1 keep
/// the larger subtrees, slot 2 is always replaced.
#[derive(Debug, Default)]
#[repr(align(64))]
pub struct LineBucket {
    version: AtomicU64,
    keys: [[AtomicU64; 2]; 3],
    data: AtomicU64,
}

/// The data field of `e` in a [`crate::LineBucket`]: bound (2 bits, 1 to 3), value (7 bits, two's
/// complement), move code plus one (7 bits, 0 = none), work as its bit length (5 bits,
/// at most 31).
///
/// A value outside `-64..=63` is stored as the weaker bound that still holds where there is
/// one: an exact value or a lower bound above 63 as "at least 63", an exact value or an upper
/// bound below -64 as "at most -64"; `None` (nothing stored) for a lower bound below -64 or an
/// upper bound above 63, which say nothing within the field's range.
#[inline]
pub(crate) fn pack_field<K, M: PackedMove>(e: &TtEntry<K, M>) -> Option<u64> {
    let (value, bound) = match (e.value, e.bound) {
        (v, b) if (-64..=63).contains(&v) => (v, b),
        (v, Bound::Exact | Bound::Lower) if v > 63 => (63, Bound::Lower),
        (v, Bound::Exact | Bound::Upper) if v < -64 => (-64, Bound::Upper),
        _ => return None,
    };
    let bound: u64 = match bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    let value = (value as u64) & 0x7F;
    let mv = e
        .best
        .and_then(PackedMove::pack)
        .filter(|&c| c <= MAX_LINE_MOVE_CODE)
        .map_or(0, |c| u64::from(c) + 1);
    let work = u64::from(32 - e.work.leading_zeros()).min(31);
    Some(bound | value << 2 | mv << 9 | work << 16)
}

/// The work class (bit length of the work) of a data field.
#[inline]
pub(crate) fn field_work(f: u64) -> u64 {
    f >> 16
}

/// The entry of `key` whose data field is `f` (its bound not 0); the work comes back as the
/// largest of its bit length.
#[inline]
pub(crate) fn unpack_field<K, M: PackedMove>(key: K, f: u64) -> TtEntry<K, M> {
    let bound = match f & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    // Sign-extends the 7-bit value.
    let value = Value::from(((((f >> 2) & 0x7F) as u8) << 1) as i8 >> 1);
    let mv = ((f >> 9) & 0x7F) as u16;
    TtEntry {
        key,
        value,
        bound,
        best: mv.checked_sub(1).map(M::unpack),
        work: ((1u64 << field_work(f)) - 1) as u32,
    }
}

impl LineBucket {
    /// The three keys and the data word.
    #[inline]
    fn words(&self) -> ([u128; 3], u64) {
        ([0, 1, 2].map(|i| u128::load(&self.keys[i])), self.data.load(Ordering::Relaxed))
    }
}

impl SharedBucket<u128> for LineBucket {
    #[inline]
    fn probe<M: PackedMove>(&self, key: u128) -> Option<TtEntry<u128, M>> {
        let (keys, data) = read_locked(&self.version, || self.words())?;
        (0..3).find_map(|i| {
            let f = data >> (FIELD_BITS * i as u32) & FIELD_MASK;
            (f != 0 && keys[i] == key).then(|| unpack_field(key, f))
        })
    }

    #[inline]
    fn store<M: PackedMove>(&self, entry: &TtEntry<u128, M>) {
        let Some(new) = pack_field(entry) else { return };
        write_locked(&self.version, || {
            let (keys, mut data) = self.words();
            let field = |data: u64, i: usize| data >> (FIELD_BITS * i as u32) & FIELD_MASK;
            let set = |data: &mut u64, i: usize, f: u64| {
                let shift = FIELD_BITS * i as u32;
                *data = (*data & !(FIELD_MASK << shift)) | f << shift;
            };
            // The slot holding the key, else an empty one, else the smaller subtree of slots 0
            // and 1 if the new one is at least as large (moved to slot 2 first), else slot 2.
            let target = (0..3)
                .find(|&i| field(data, i) != 0 && keys[i] == entry.key)
                .or_else(|| (0..3).find(|&i| field(data, i) == 0))
                .unwrap_or_else(|| {
                    let low = usize::from(field_work(field(data, 1)) < field_work(field(data, 0)));
                    if field_work(new) >= field_work(field(data, low)) {
                        keys[low].store(&self.keys[2]);
                        let f = field(data, low);
                        set(&mut data, 2, f);
                        low
                    } else {
                        2
                    }
                });
            entry.key.store(&self.keys[target]);
            set(&mut data, target, new);
            self.data.store(data, Ordering::Relaxed);
        });
    }

    fn heavy<M: PackedMove>(&self, min_work: u32, out: &mut Vec<TtEntry<u128, M>>) {
        let Some((keys, data)) = read_locked(&self.version, || self.words()) else { return };
        for (i, &key) in keys.iter().enumerate() {
            let f = data >> (FIELD_BITS * i as u32) & FIELD_MASK;
            if f != 0 {
                let e = unpack_field(key, f);
                if e.work >= min_work.min((1 << 31) - 1) {
                    out.push(e);
                }
            }
        }
    }
}
