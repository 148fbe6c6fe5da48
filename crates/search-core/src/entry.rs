//! A transposition-table entry and what every table shares: the [`Bound`] of a stored value,
//! [`TtEntry`], the move codes of [`PackedMove`], the 64-bit data word of packed entries
//! ([`pack`] / [`unpack`]), the bucket of a key ([`bucket_index`]) and the replacement scheme
//! of two-slot buckets ([`choose_slot`]). Below both tables: the one-thread tables of `tt.rs`
//! and the shared table of `atomic_tt.rs` build on it, and neither on the other.

use crate::{TtKey, Value};

/// `2^64 / phi`, odd: Fibonacci hashing's multiplier.
const FIBONACCI: u64 = 0x9E37_79B9_7F4A_7C15;

/// The bucket of `key` in every table here: Fibonacci hashing, the key's 64-bit hash
/// multiplied by `2^64 / phi`, of which the top `64 - shift` bits are kept (they depend on every
/// bit of the key; the middle bits do not depend on its high bits). `shift` 64 is a table of
/// one bucket.
#[inline]
pub(crate) fn bucket_index<K: TtKey>(key: K, shift: u32) -> usize {
    let h = key.hash64().wrapping_mul(FIBONACCI);
    // `checked_shr` covers a one-bucket table (shift 64).
    h.checked_shr(shift).unwrap_or(0) as usize
}

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

/// Largest work stored (20 bits); larger subtrees are stored as this.
pub(crate) const MAX_WORK: u64 = (1 << 20) - 1;

/// Bits of the move field of a data word.
const MOVE_BITS: u32 = 10;

/// Largest code of [`PackedMove::pack`]: the move field holds the code plus one (0 = none).
pub const MAX_MOVE_CODE: u16 = (1 << MOVE_BITS) - 2;

/// A move as a code of the 10-bit move field of a [`crate::SharedTable`] entry, so that any game can
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

/// Where a two-slot bucket takes a new entry ([`choose_slot`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// The first, depth-preferred slot; `demote`: its old entry moves to the second slot first.
    First {
        /// Whether the first slot's entry is kept in the second slot.
        demote: bool,
    },
    /// The second, always-replaced slot.
    Second,
}

/// The replacement scheme of every table here ([`crate::TranspositionTable`], [`crate::PackedTable`],
/// [`crate::SharedTable`]): the slot that takes an entry for `key`, given the keys the two
/// slots hold (`None`: empty) and `outworks_first`, whether the new entry's subtree took at
/// least the work of the first slot's entry (asked only when needed). The slot already holding
/// `key`; else an empty first slot; else the first slot, its old entry demoted to the second,
/// when the new entry outworks it; else the second.
#[inline]
pub(crate) fn choose_slot<K: PartialEq>(
    first: Option<K>,
    second: Option<K>,
    key: K,
    outworks_first: impl FnOnce() -> bool,
) -> Slot {
    match (first, second) {
        (Some(k), _) if k == key => Slot::First { demote: false },
        (_, Some(k)) if k == key => Slot::Second,
        (None, _) => Slot::First { demote: false },
        _ if outworks_first() => Slot::First { demote: true },
        _ => Slot::Second,
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
