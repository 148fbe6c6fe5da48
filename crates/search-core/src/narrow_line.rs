//! [`crate::NarrowLine`]: the narrow part of a [`crate::SharedTable`], seven one-word entries to a
//! cache line for the keys below `2^W`.
//!
//! A table built with a *narrow width* `W` ([`crate::SharedTable::with_bits_narrow`], from
//! [`crate::Game::narrow_key_bits`]) keeps a key below `2^W` in a part of its own, seven entries
//! to a line ([`crate::NarrowLine`]), which takes seven eighths of the memory; the other keys go to
//! the `u128` lines above. The key is mixed by a bijection of `W`-bit numbers; the line is
//! chosen from the high bits of the mixed key by a multiply-and-shift range reduction (any
//! number of lines), and the entry stores only the low `R` bits of the mixed key, `R = W -
//! floor(log2(lines))`: two mixed keys of one line differ by less than `2^R`, so the stored
//! bits and the line give back the whole key, and a probe compares them exactly. A slot is one
//! word: those `R` bits (at most 43) over the 21-bit data field of the `u128` lines. Where `R`
//! would exceed 43 (a small table) every key goes to the `u128` lines. Seven entries of 8 bytes
//! instead of three of 21: the 4x5 dots-and-boxes solve's 16 GiB hold 1.64 G narrow entries
//! and 0.1 G wide ones, against 0.81 G in all.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::entry::{PackedMove, TtEntry};
use crate::line_bucket::{field_work, pack_field, unpack_field, FIELD_BITS, FIELD_MASK};
use crate::shared_bucket::{read_locked, write_locked};
use crate::TtKey;

/// Slots of a [`crate::NarrowLine`].
pub(crate) const NARROW_SLOTS: usize = 7;

/// Largest number of stored key bits in a narrow slot (the rest of the word is the 21-bit data
/// field).
const MAX_REMAINDER_BITS: u32 = 64 - FIELD_BITS;

/// A line of the narrow part of a [`crate::SharedTable`]: the version and seven one-word slots, each
/// the stored bits of a mixed key over a 21-bit data field ([`pack_field`]; 0 = empty), in one
/// 64-byte cache line. See the module documentation.
#[derive(Debug, Default)]
#[repr(align(64))]
pub struct NarrowLine {
    pub(crate) version: AtomicU64,
    pub(crate) slots: [AtomicU64; NARROW_SLOTS],
}

impl NarrowLine {
    #[inline]
    pub(crate) fn words(&self) -> [u64; NARROW_SLOTS] {
        std::array::from_fn(|i| self.slots[i].load(Ordering::Relaxed))
    }
}

/// A bijection of the numbers below `2^width`: multiply, xorshift, multiply (odd multipliers
/// are invertible modulo a power of two), so that the high bits depend on every bit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mix {
    pub(crate) width: u32,
    pub(crate) mask: u64,
    pub(crate) shift: u32,
}

const MIX_1: u64 = 0x9E37_79B9_7F4A_7C15;
const MIX_2: u64 = 0xD6E8_FEB8_6659_FD93;
const MIX_1_INVERSE: u64 = odd_inverse(MIX_1);
const MIX_2_INVERSE: u64 = odd_inverse(MIX_2);

/// The inverse of odd `c` modulo `2^64` (Newton's iteration: each step doubles the correct
/// low bits, from 3 to 96).
const fn odd_inverse(c: u64) -> u64 {
    let mut inv = c;
    let mut i = 0;
    while i < 5 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(c.wrapping_mul(inv)));
        i += 1;
    }
    inv
}

impl Mix {
    pub(crate) fn new(width: u32) -> Self {
        let mask = if width == 64 { u64::MAX } else { (1 << width) - 1 };
        Mix { width, mask, shift: (width / 2).max(1) }
    }

    #[inline]
    pub(crate) fn forward(self, x: u64) -> u64 {
        let x = x.wrapping_mul(MIX_1) & self.mask;
        let x = x ^ (x >> self.shift);
        x.wrapping_mul(MIX_2) & self.mask
    }

    pub(crate) fn backward(self, m: u64) -> u64 {
        let y = m.wrapping_mul(MIX_2_INVERSE) & self.mask;
        // Undoes `x ^ (x >> shift)`: each pass fixes `shift` more high bits.
        let mut x = y;
        let mut done = self.shift;
        while done < self.width {
            x = y ^ (x >> self.shift);
            done += self.shift;
        }
        x.wrapping_mul(MIX_1_INVERSE) & self.mask
    }
}

/// The narrow part of a [`crate::SharedTable`] (see the module documentation).
#[derive(Debug)]
pub(crate) struct Narrow {
    pub(crate) lines: Vec<NarrowLine>,
    pub(crate) mix: Mix,
    /// Low bits of the mixed key stored in a slot.
    pub(crate) remainder_bits: u32,
}

impl Narrow {
    /// Narrow lines for keys below `2^width` in `lines` lines, if the stored bits fit a slot.
    pub(crate) fn new(width: u32, lines: usize) -> Option<Self> {
        if !(8..=64).contains(&width) || lines == 0 {
            return None;
        }
        let remainder_bits = width.saturating_sub(lines.ilog2());
        (remainder_bits <= MAX_REMAINDER_BITS).then(|| Narrow {
            lines: (0..lines).map(|_| NarrowLine::default()).collect(),
            mix: Mix::new(width),
            remainder_bits,
        })
    }

    /// The line index and stored bits of narrow key `k` (below `2^width`).
    #[inline]
    pub(crate) fn place(&self, k: u64) -> (usize, u64) {
        let m = self.mix.forward(k);
        let top = m << (64 - self.mix.width);
        let line = ((u128::from(top) * self.lines.len() as u128) >> 64) as usize;
        (line, m & ((1 << self.remainder_bits) - 1))
    }

    /// The narrow key stored as `remainder` in line `line` ([`Narrow::place`] undone): the line
    /// holds the mixed keys `m` with `line = floor(m * lines / 2^width)`, an interval shorter
    /// than `2^remainder_bits` starting at `ceil(line * 2^width / lines)`.
    pub(crate) fn key_of(&self, line: usize, remainder: u64) -> u64 {
        let n = self.lines.len() as u128;
        let start = ((line as u128) << self.mix.width).div_ceil(n) as u64;
        let mask = (1u64 << self.remainder_bits) - 1;
        let m = start.wrapping_add(remainder.wrapping_sub(start) & mask);
        self.mix.backward(m)
    }

    #[inline]
    pub(crate) fn probe<K: TtKey, M: PackedMove>(&self, key: K, k: u64) -> Option<TtEntry<K, M>> {
        let (i, r) = self.place(k);
        let line = &self.lines[i];
        let words = read_locked(&line.version, || line.words())?;
        words.iter().find_map(|&w| {
            let f = w & FIELD_MASK;
            (f != 0 && w >> FIELD_BITS == r).then(|| unpack_field(key, f))
        })
    }

    #[inline]
    pub(crate) fn store<K, M: PackedMove>(&self, entry: &TtEntry<K, M>, k: u64) {
        let Some(new) = pack_field(entry) else { return };
        let (i, r) = self.place(k);
        let line = &self.lines[i];
        write_locked(&line.version, || {
            let words = line.words();
            // The slot holding the key, else an empty one, else the one of the smallest
            // subtree (the last of equals).
            let target = words
                .iter()
                .position(|&w| w & FIELD_MASK != 0 && w >> FIELD_BITS == r)
                .or_else(|| words.iter().position(|&w| w & FIELD_MASK == 0))
                .unwrap_or_else(|| {
                    (0..NARROW_SLOTS).rev().min_by_key(|&j| field_work(words[j] & FIELD_MASK)).unwrap_or(0)
                });
            line.slots[target].store(r << FIELD_BITS | new, Ordering::Relaxed);
        });
    }

    pub(crate) fn heavy<K: TtKey, M: PackedMove>(&self, min_work: u32, out: &mut Vec<TtEntry<K, M>>) {
        for (i, line) in self.lines.iter().enumerate() {
            let Some(words) = read_locked(&line.version, || line.words()) else { continue };
            for w in words {
                let f = w & FIELD_MASK;
                // The work first: the key (a 128-bit division) only for the entries kept.
                if f != 0 && (1u64 << field_work(f)) > u64::from(min_work.min((1 << 31) - 1)) {
                    out.push(unpack_field(K::from_narrow(self.key_of(i, w >> FIELD_BITS)), f));
                }
            }
        }
    }
}
