//! [`Geometry`]: the board size, `k` in a row, and the bitboard layout with its masks.
//!
//! # Layout
//! The classic Connect Four bitboard (J. Tromp's Fhourstones, P. Pons' solver): one `u64`, one
//! column after another from the left, each column `height + 1` bits from the bottom up; the
//! spare bit on top of each column is never a stone. Cell `(column c, row r)` (both 0-based, row
//! 0 at the bottom) is bit `c * (height + 1) + r`. The spare bits stop every line (vertical,
//! horizontal, both diagonals) from wrapping from one column into the next, so "k in a row" is a
//! handful of shifts and ANDs. A board fits when `width * (height + 1) <= 64`.

use thiserror::Error;

/// Why a board size or `k` is refused.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum GeometryError {
    /// Zero columns or zero rows.
    #[error("a board needs at least one column and one row, found {width}x{height}")]
    Empty {
        /// Columns asked for.
        width: usize,
        /// Rows asked for.
        height: usize,
    },
    /// `width * (height + 1)` is more than 64 bits.
    #[error("a {width}x{height} board needs width x (height + 1) = {bits} bits, more than 64")]
    TooLarge {
        /// Columns asked for.
        width: usize,
        /// Rows asked for.
        height: usize,
        /// `width * (height + 1)`.
        bits: usize,
    },
    /// `k` below 2 (a single stone would win at once).
    #[error("k = {k}: a line needs at least 2 stones")]
    BadK {
        /// The `k` asked for.
        k: usize,
    },
}

/// A board: `width` columns by `height` rows, `k` stones in a row (vertically, horizontally or
/// diagonally) win; the standard game is 7 x 6 with `k = 4` ([`Geometry::STANDARD`]).
///
/// Holds the masks of the bitboard layout described in the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    width: u8,
    height: u8,
    k: u8,
    /// One bit at the bottom of every column.
    bottom: u64,
    /// Every playable cell (spare bits excluded).
    board: u64,
}

impl Default for Geometry {
    fn default() -> Self {
        Self::STANDARD
    }
}

const fn bottom_mask(width: u32, height: u32) -> u64 {
    let mut m = 0u64;
    let mut c = 0;
    while c < width {
        m |= 1 << (c * (height + 1));
        c += 1;
    }
    m
}

impl Geometry {
    /// The standard board: 7 columns, 6 rows, four in a row.
    pub const STANDARD: Geometry = Geometry {
        width: 7,
        height: 6,
        k: 4,
        bottom: bottom_mask(7, 6),
        board: bottom_mask(7, 6) * ((1 << 6) - 1),
    };

    /// A `width` x `height` board with four in a row.
    ///
    /// # Errors
    /// [`GeometryError`] if the board is empty or needs more than 64 bits.
    pub fn new(width: usize, height: usize) -> Result<Self, GeometryError> {
        Self::with_k(width, height, 4)
    }

    /// A `width` x `height` board where `k` in a row wins.
    ///
    /// # Errors
    /// [`GeometryError`] if the board is empty, needs more than 64 bits, or `k < 2`.
    pub fn with_k(width: usize, height: usize, k: usize) -> Result<Self, GeometryError> {
        if width == 0 || height == 0 {
            return Err(GeometryError::Empty { width, height });
        }
        let bits = width.saturating_mul(height.saturating_add(1));
        if bits > 64 {
            return Err(GeometryError::TooLarge { width, height, bits });
        }
        if k < 2 {
            return Err(GeometryError::BadK { k });
        }
        // Any k longer than both sides can never be made; cap it to keep it in a u8.
        let k = k.min(width.max(height) + 1);
        let (w, h) = (width as u32, height as u32);
        let bottom = bottom_mask(w, h);
        Ok(Geometry {
            width: width as u8,
            height: height as u8,
            k: k as u8,
            bottom,
            board: bottom * ((1u64 << h) - 1),
        })
    }

    /// Number of columns.
    #[must_use]
    pub const fn width(&self) -> usize {
        self.width as usize
    }

    /// Number of rows.
    #[must_use]
    pub const fn height(&self) -> usize {
        self.height as usize
    }

    /// Stones in a row needed to win.
    #[must_use]
    pub const fn k(&self) -> usize {
        self.k as usize
    }

    /// Number of cells, `width * height`.
    #[must_use]
    pub const fn cells(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// The bit of cell (`column`, `row`), both 0-based, row 0 at the bottom.
    #[inline]
    #[must_use]
    pub const fn cell_bit(&self, column: usize, row: usize) -> u64 {
        1 << (column * (self.height as usize + 1) + row)
    }

    /// Every cell of `column` (0-based).
    #[inline]
    #[must_use]
    pub const fn column_mask(&self, column: usize) -> u64 {
        ((1 << self.height) - 1) << (column * (self.height as usize + 1))
    }

    /// The bottom cell of `column`.
    #[inline]
    #[must_use]
    pub const fn bottom_cell(&self, column: usize) -> u64 {
        1 << (column * (self.height as usize + 1))
    }

    /// The top cell of `column`.
    #[inline]
    #[must_use]
    pub const fn top_cell(&self, column: usize) -> u64 {
        1 << (self.height as usize - 1 + column * (self.height as usize + 1))
    }

    /// One bit at the bottom of every column.
    #[inline]
    #[must_use]
    pub const fn bottom(&self) -> u64 {
        self.bottom
    }

    /// Every playable cell.
    #[inline]
    #[must_use]
    pub const fn board(&self) -> u64 {
        self.board
    }

    /// The cells where a stone can be dropped next, given all stones `mask`: one per non-full
    /// column.
    #[inline]
    #[must_use]
    pub const fn playable(&self, mask: u64) -> u64 {
        mask.wrapping_add(self.bottom) & self.board
    }

    /// Empty cells that would complete `k` in a row for the owner of `stones`, with all stones
    /// `mask` (gravity ignored: the cell need not be playable yet).
    #[inline(always)]
    #[must_use]
    pub fn winning_spots(&self, stones: u64, mask: u64) -> u64 {
        let h = u32::from(self.height);
        // The standard height by itself: its shifts are then constants.
        let r = if self.k == 4 && h == 6 {
            spots4(stones, 6)
        } else if self.k == 4 && 3 * (h + 2) < 64 {
            spots4(stones, h)
        } else {
            let mut r = 0;
            for d in [1, h + 1, h, h + 2] {
                r |= self.spots_along(stones, d);
            }
            r
        };
        r & self.board & !mask
    }

    /// Spots completing `k` in a row along one direction (a shift of `d` bits per step).
    fn spots_along(&self, p: u64, d: u32) -> u64 {
        let need = u32::from(self.k) - 1;
        // below[j]: stones at s - d, ..., s - j*d; above[j]: stones at s + d, ..., s + j*d.
        let mut below = [u64::MAX; 64];
        let mut above = [u64::MAX; 64];
        for j in 1..=need as usize {
            below[j] = below[j - 1] & shl(p, j as u32 * d);
            above[j] = above[j - 1] & shr(p, j as u32 * d);
        }
        let mut r = 0;
        for i in 0..=need as usize {
            r |= below[i] & above[need as usize - i];
        }
        r
    }

    /// Whether `stones` contain `k` in a row.
    #[inline(always)]
    #[must_use]
    pub fn has_line(&self, stones: u64) -> bool {
        // The standard board inline with constant shifts, the other boards in a call.
        if self.k == 4 && self.height == 6 {
            return has_line4(stones, 6);
        }
        self.has_line_other(stones)
    }

    /// [`Geometry::has_line`] off the standard board.
    #[inline(never)]
    fn has_line_other(&self, stones: u64) -> bool {
        let h = self.height as u32;
        if self.k == 4 && 3 * (h + 2) < 64 {
            return has_line4(stones, h);
        }
        [1, h + 1, h, h + 2].into_iter().any(|d| {
            let mut m = stones;
            for j in 1..u32::from(self.k) {
                m &= shr(stones, j * d);
            }
            m != 0
        })
    }

    /// The left-right mirror of a bitboard (columns reversed).
    #[inline]
    #[must_use]
    pub fn mirror(&self, bits: u64) -> u64 {
        if self.width == 7 && self.height == 6 {
            // The standard board by itself: two delta swaps (columns 0-2 with 4-6, then 0 with
            // 2 and 4 with 6 of the result) instead of moving the seven columns one by one.
            const COLUMN: u64 = (1 << 7) - 1;
            let t = ((bits >> 28) ^ bits) & ((1 << 21) - 1);
            let x = bits ^ t ^ (t << 28);
            let t = ((x >> 14) ^ x) & (COLUMN | COLUMN << 28);
            return x ^ t ^ (t << 14);
        }
        mirror_columns(bits, u32::from(self.width), u32::from(self.height) + 1)
    }
}

/// `bits` with its `w` columns of `s` bits each (`s * w <= 64`) in reverse order.
#[inline(always)]
fn mirror_columns(bits: u64, w: u32, s: u32) -> u64 {
    // One column of 63 rows fills all 64 bits (s = 64): its mask is every bit.
    let col = shl(1, s).wrapping_sub(1);
    let mut m = 0;
    for c in 0..w {
        m |= ((bits >> (c * s)) & col) << ((w - 1 - c) * s);
    }
    m
}

/// Whether `stones` hold four in a row, every shift below 64 bits (`h` rows): pairs two apart
/// along each direction, eight shifts and masks.
#[inline(always)]
fn has_line4(stones: u64, h: u32) -> bool {
    [1, h + 1, h, h + 2].into_iter().any(|d| {
        let m = stones & (stones >> d);
        m & (m >> (2 * d)) != 0
    })
}

/// Four in a row with every shift below 64 bits: J. Tromp's and P. Pons' formula (three stones
/// below, or three stones on a line through the spot in any of the two positions each way).
#[inline(always)]
fn spots4(p: u64, h: u32) -> u64 {
    let mut r = (p << 1) & (p << 2) & (p << 3);
    for d in [h + 1, h, h + 2] {
        let l12 = (p << d) & (p << (2 * d));
        let r12 = (p >> d) & (p >> (2 * d));
        r |= l12 & ((p << (3 * d)) | (p >> d)) | r12 & ((p >> (3 * d)) | (p << d));
    }
    r
}

#[inline]
fn shl(x: u64, n: u32) -> u64 {
    x.checked_shl(n).unwrap_or(0)
}

#[inline]
fn shr(x: u64, n: u32) -> u64 {
    x.checked_shr(n).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The k = 4 fast path agrees with the generic k-in-a-row code on random stone sets.
    #[test]
    fn fast_and_generic_winning_spots_agree() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        for (w, h) in [(7, 6), (4, 4), (5, 4), (8, 7), (9, 5), (6, 9)] {
            let g = Geometry::new(w, h).unwrap();
            for _ in 0..2000 {
                // Gravity: each column filled from the bottom to a random height.
                let mask = (0..w).fold(0, |m, c| {
                    let height = rng.gen_range(0..=h);
                    m | (((1u64 << height) - 1) << (c * (h + 1)))
                });
                let stones = rng.gen::<u64>() & mask;
                let generic: u64 = [1, h as u32 + 1, h as u32, h as u32 + 2]
                    .into_iter()
                    .fold(0, |r, d| r | g.spots_along(stones, d))
                    & g.board
                    & !mask;
                assert_eq!(g.winning_spots(stones, mask), generic, "{w}x{h}");
            }
        }
    }

    /// The standard board's constant-shift paths (`mirror`, `has_line`) agree with a cell by
    /// cell mirror and with the generic k-in-a-row loop on random bitboards, as do the other
    /// heights' paths.
    #[test]
    fn mirror_and_has_line_agree_with_plain_code() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        for (w, h) in [(7, 6), (7, 5), (6, 7), (4, 4), (8, 7), (9, 5)] {
            let g = Geometry::new(w, h).unwrap();
            for _ in 0..5000 {
                let bits = rng.gen::<u64>() & rng.gen::<u64>() & g.board;
                let mut plain = 0;
                for c in 0..w {
                    for r in 0..h {
                        if bits & g.cell_bit(c, r) != 0 {
                            plain |= g.cell_bit(w - 1 - c, r);
                        }
                    }
                }
                assert_eq!(g.mirror(bits), plain, "{w}x{h}");
                let generic = [1, h as u32 + 1, h as u32, h as u32 + 2]
                    .into_iter()
                    .any(|d| (1..4).fold(bits, |m, j| m & shr(bits, j * d)) != 0);
                assert_eq!(g.has_line(bits), generic, "{w}x{h}");
            }
        }
    }

    #[test]
    fn sizes_are_checked() {
        assert!(Geometry::new(8, 7).is_ok());
        assert_eq!(Geometry::new(9, 7), Err(GeometryError::TooLarge { width: 9, height: 7, bits: 72 }));
        assert!(matches!(Geometry::new(0, 3), Err(GeometryError::Empty { .. })));
        assert_eq!(Geometry::with_k(4, 4, 1), Err(GeometryError::BadK { k: 1 }));
        assert_eq!(Geometry::new(7, 6).unwrap(), Geometry::STANDARD);
    }

    /// Found by the `serve_api` fuzz target: one column of 63 rows (s = 64 bits per column)
    /// overflowed the column mask's shift. Its mirror is itself.
    #[test]
    fn the_one_column_board_of_63_rows_mirrors_to_itself() {
        let g = Geometry::new(1, 63).unwrap();
        for bits in [0, 1, g.cell_bit(0, 62), g.cell_bit(0, 5) | g.cell_bit(0, 40), u64::MAX >> 1] {
            assert_eq!(g.mirror(bits), bits);
        }
    }

    #[test]
    fn mirror_reverses_columns() {
        let g = Geometry::STANDARD;
        assert_eq!(g.mirror(g.cell_bit(0, 2)), g.cell_bit(6, 2));
        assert_eq!(g.mirror(g.cell_bit(3, 5)), g.cell_bit(3, 5));
        let x = g.cell_bit(1, 0) | g.cell_bit(5, 4);
        assert_eq!(g.mirror(g.mirror(x)), x);
    }
}
