//! [`Bitboard`]: a set of cells of a board of at most 64 cells, one bit per cell.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// A set of cells: bit `r * cols + c` stands for the cell in row `r`, column `c` (0-based,
/// row-major). Boards have at most 64 cells (8 x 8), so one `u64` holds any set.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// Cells a bitboard can hold (an 8 x 8 board at most).
    pub const BITS: usize = 64;

    /// The set of the first `cells` cells (`cells <= 64`): the whole board of that many cells.
    #[must_use]
    pub const fn first(cells: u32) -> Bitboard {
        if cells >= 64 {
            Bitboard(u64::MAX)
        } else {
            Bitboard((1u64 << cells) - 1)
        }
    }

    /// The set holding only cell `index` (`index < 64`).
    #[must_use]
    pub const fn single(index: u32) -> Bitboard {
        Bitboard(1u64 << index)
    }

    /// Whether cell `index` is in the set (`false` for `index >= 64`).
    #[must_use]
    pub const fn contains(self, index: u32) -> bool {
        index < 64 && self.0 >> index & 1 == 1
    }

    /// Number of cells in the set.
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The union of two sets.
    #[must_use]
    pub const fn union(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }

    /// The intersection of two sets.
    #[must_use]
    pub const fn intersection(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & other.0)
    }

    /// The cells of `self` not in `other`.
    #[must_use]
    pub const fn without(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    /// Whether every cell of `other` is in `self`.
    #[must_use]
    pub const fn is_superset(self, other: Bitboard) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether the two sets share a cell.
    #[must_use]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// The lowest cell index in the set, if any.
    #[must_use]
    pub const fn first_index(self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros())
        }
    }

    /// The cell indices in the set, lowest (row-major first) first.
    pub fn iter(self) -> impl Iterator<Item = u32> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let i = bits.trailing_zeros();
                bits &= bits - 1;
                Some(i)
            }
        })
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#x})", self.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        self.union(rhs)
    }
}

impl BitOrAssign for Bitboard {
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        self.intersection(rhs)
    }
}

impl BitAndAssign for Bitboard {
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_set_operations() {
        let a = Bitboard(0b1011);
        assert_eq!(a.count(), 3);
        assert!(a.contains(3) && !a.contains(2) && !a.contains(64));
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![0, 1, 3]);
        assert_eq!(a.first_index(), Some(0));
        assert_eq!(Bitboard::EMPTY.first_index(), None);
        assert_eq!(Bitboard::first(64), Bitboard(u64::MAX));
        assert_eq!(Bitboard::first(4), Bitboard(0b1111));
        assert!(Bitboard::first(4).is_superset(a));
        assert_eq!(a.without(Bitboard::single(1)), Bitboard(0b1001));
    }
}
