//! [`Bitboard`]: a set of squares in a `u64`, and [`Square`]: one square by its bit index.
//!
//! Every board size uses the 8x8 layout: the square in column `c` (0 = `a`, left) and row `r`
//! (0 = row 1, top) is bit `8 r + c`, so that a board smaller than 8x8 is the top-left corner
//! of the 8x8 one and every direction is the same shift on every board.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// A set of squares: bit `8 r + c` is the square of column `c`, row `r` (both 0-based, a1 the
/// top-left square is bit 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set of the one square `sq` (empty for an index above 63, which is no square).
    #[must_use]
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        if sq.0 < 64 {
            Bitboard(1 << sq.0)
        } else {
            Bitboard(0)
        }
    }

    /// Whether `sq` is in the set (never for an index above 63).
    #[must_use]
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        sq.0 < 64 && self.0 >> sq.0 & 1 != 0
    }

    /// The number of squares in the set.
    #[must_use]
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest square of the set, if any.
    #[must_use]
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(self.0.trailing_zeros() as u8))
        }
    }

    /// Whether the two sets share a square.
    #[must_use]
    #[inline]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    /// The squares in increasing bit order (row by row from a1).
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// The complement in the 64 bits of the 8x8 layout (mask it with a board's squares).
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

/// One square of the 8x8 layout: bit `8 r + c` of a [`Bitboard`] (column `c`, row `r`,
/// 0-based; `a1`, the top-left square, is 0). Shown as its name, `a1` to `h8` (column letter,
/// row number from the top).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The square of column `col` and row `row` (0-based, each below 8).
    #[must_use]
    #[inline]
    pub const fn new(col: usize, row: usize) -> Square {
        Square((row * 8 + col) as u8)
    }

    /// The 0-based column (0 = `a`).
    #[must_use]
    #[inline]
    pub const fn col(self) -> usize {
        (self.0 % 8) as usize
    }

    /// The 0-based row (0 = row 1, the top).
    #[must_use]
    #[inline]
    pub const fn row(self) -> usize {
        (self.0 / 8) as usize
    }

    /// The bit index, 0 to 63.
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square named `text` (`a1` to `h8`, the letter in either case), if it is one of the
    /// 8x8 layout's (whether it is on a smaller board is the board's question).
    #[must_use]
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let col = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = b[1].wrapping_sub(b'1');
        (col < 8 && row < 8).then(|| Square::new(col.into(), row.into()))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.col() as u8), self.row() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_named_by_column_letter_and_row_from_the_top() {
        assert_eq!(Square(0).to_string(), "a1");
        assert_eq!(Square(7).to_string(), "h1");
        assert_eq!(Square(63).to_string(), "h8");
        assert_eq!(Square::parse("G8"), Some(Square::new(6, 7)));
        assert_eq!(Square::parse("d5"), Some(Square(35)));
        for bad in ["", "a", "a9", "i1", "a0", "a10", "é1"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
        let set = Bitboard(0b1010_0000_0001);
        assert_eq!(set.map(|s| s.0).collect::<Vec<_>>(), vec![0, 9, 11]);
        assert!(!Bitboard(u64::MAX).contains(Square(200)));
        assert!(Bitboard::from_square(Square(64)).is_empty());
    }
}
