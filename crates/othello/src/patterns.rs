//! The pattern part of the 8x8 evaluation, in the manner of Buro's Logistello: the
//! configuration of each edge, corner region, inner line and diagonal (every square empty,
//! the side to move's or the opponent's) read as a base-3 number that indexes a table of
//! weights fitted to exact scores (`cargo run --release -p othello-solver --example
//! fit_eval`). The four edges share one table, as do the four corners and each kind of line.

use std::sync::LazyLock;

use crate::geometry::transpose;

/// The squares of one edge, inner line or diagonal: 3^8 configurations.
const LINE: usize = 6561;
/// The 3x3 squares of one corner: 3^9 configurations.
const CORNER: usize = 19683;

/// The tables, one after another: edges (row 1 and its images), the 3x3 corners, rows 2, 3
/// and 4 and their images, the two long diagonals.
const OFFSETS: [usize; 6] = [0, LINE, LINE + CORNER, 2 * LINE + CORNER, 3 * LINE + CORNER, 4 * LINE + CORNER];

/// How many weights the tables hold in all: five line tables and the corner table.
pub const PATTERN_WEIGHTS: usize = 5 * LINE + CORNER;

/// How many patterns one position has: four edges, four corners, four each of rows 2, 3 and
/// 4 (and their images), two diagonals.
pub const PATTERN_INSTANCES: usize = 22;

/// The weights the crate's evaluation uses, in [`crate::DISC`] units: little-endian `i16`,
/// [`PATTERN_WEIGHTS`] of them.
static WEIGHTS: LazyLock<Vec<i16>> = LazyLock::new(|| {
    include_bytes!("patterns.bin").chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect()
});

/// The base-3 value of each 9-bit mask: bit `i` a digit 1 at `3^i`.
static TERNARY: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let (mut v, mut p, mut i) = (0u16, 1u16, 0);
        while i < 9 {
            if m >> i & 1 == 1 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

/// `b` with its rows in reverse order (a mirror in the horizontal axis).
#[inline(always)]
fn flip_vertical(b: u64) -> u64 {
    b.swap_bytes()
}

/// `b` with each row's squares in reverse order (a mirror in the vertical axis).
#[inline(always)]
fn flip_horizontal(b: u64) -> u64 {
    b.reverse_bits().swap_bytes()
}

/// The squares of the a1-h8 diagonal of `b` as the 8 bits of a byte (bit `i`: column `i`).
#[inline(always)]
fn diagonal(b: u64) -> usize {
    ((b & 0x8040_2010_0804_0201).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
}

/// The 3x3 squares of `b`'s a1 corner as 9 bits, row by row.
#[inline(always)]
fn corner(b: u64) -> usize {
    ((b & 7) | (b >> 5 & 0x38) | (b >> 10 & 0x1c0)) as usize
}

/// Row `r` (0 the top) of `b` as 8 bits.
#[inline(always)]
fn row(b: u64, r: u32) -> usize {
    (b >> (8 * r) & 0xff) as usize
}

/// The base-3 index of the squares `p` and `o` hold in a pattern (`p`'s digit 1, `o`'s 2).
#[inline(always)]
fn index(p: usize, o: usize) -> u32 {
    u32::from(TERNARY[p]) + 2 * u32::from(TERNARY[o])
}

/// The index into the weight tables of each of the [`PATTERN_INSTANCES`] patterns of the 8x8
/// position with the side to move's discs `p` and the opponent's `o`.
#[must_use]
pub fn pattern_features(p: u64, o: u64) -> [u32; PATTERN_INSTANCES] {
    // Four images of the board put each edge in row 1 (the top, the bottom, the left and the
    // right edge), four put each corner at a1.
    let edges = [(p, o), (flip_vertical(p), flip_vertical(o)), (transpose(p), transpose(o))];
    let (tp, to) = edges[2];
    let edges = [edges[0], edges[1], edges[2], (flip_vertical(tp), flip_vertical(to))];
    let (hp, ho) = (flip_horizontal(p), flip_horizontal(o));
    let corners = [(p, o), edges[1], (hp, ho), (flip_vertical(hp), flip_vertical(ho))];
    let mut f = [0u32; PATTERN_INSTANCES];
    for (k, &(a, b)) in edges.iter().enumerate() {
        for r in 0..4 {
            let table = if r == 0 { 0 } else { 1 + r as usize };
            f[k * 4 + r as usize] = OFFSETS[table] as u32 + index(row(a, r), row(b, r));
        }
    }
    for (k, &(a, b)) in corners.iter().enumerate() {
        f[16 + k] = OFFSETS[1] as u32 + index(corner(a), corner(b));
    }
    f[20] = OFFSETS[5] as u32 + index(diagonal(p), diagonal(o));
    f[21] = OFFSETS[5] as u32 + index(diagonal(hp), diagonal(ho));
    f
}

/// The index, among all [`PATTERN_WEIGHTS`], of the weight of the configuration that is
/// weight `i`'s with the colours swapped (digits 1 and 2 exchanged, in the same table): the
/// evaluation being antisymmetric, the two weights are opposite.
#[must_use]
pub fn colour_swapped(i: usize) -> usize {
    let start = OFFSETS.iter().copied().filter(|&o| o <= i).max().unwrap_or(0);
    let (mut rest, mut j, mut place) = (i - start, 0, 1);
    while rest > 0 {
        j += [0, 2, 1][rest % 3] * place;
        (rest, place) = (rest / 3, place * 3);
    }
    start + j
}

/// The pattern part of the evaluation with `weights` (in [`crate::DISC`] units, as
/// [`PATTERN_WEIGHTS`] of them) of the 8x8 position with the side to move's discs `p` and
/// the opponent's `o`.
#[must_use]
pub fn pattern_evaluation(weights: &[i16], p: u64, o: u64) -> i32 {
    pattern_features(p, o).iter().map(|&i| i32::from(weights[i as usize])).sum()
}

/// [`pattern_evaluation`] with the crate's weights.
#[inline]
pub(crate) fn patterns(p: u64, o: u64) -> i32 {
    pattern_evaluation(&WEIGHTS, p, o)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit of square (column c, row r).
    fn bit(c: u32, r: u32) -> u64 {
        1 << (r * 8 + c)
    }

    #[test]
    fn the_images_move_each_square_where_they_should() {
        for r in 0..8 {
            for c in 0..8 {
                assert_eq!(flip_vertical(bit(c, r)), bit(c, 7 - r));
                assert_eq!(flip_horizontal(bit(c, r)), bit(7 - c, r));
                assert_eq!(transpose(bit(c, r)), bit(r, c));
                assert_eq!(diagonal(bit(c, r)), if c == r { 1 << c } else { 0 });
                let in_corner = c < 3 && r < 3;
                assert_eq!(corner(bit(c, r)), if in_corner { 1 << (r * 3 + c) } else { 0 });
            }
        }
    }

    /// The crate's table has every weight, and a configuration and its colour swap opposite
    /// weights (the evaluation is antisymmetric).
    #[test]
    fn the_weights_are_complete_and_antisymmetric() {
        assert_eq!(WEIGHTS.len(), PATTERN_WEIGHTS);
        for i in 0..PATTERN_WEIGHTS {
            assert_eq!(WEIGHTS[i], -WEIGHTS[colour_swapped(i)], "weight {i}");
        }
        assert!(WEIGHTS.iter().any(|&w| w != 0));
    }

    /// Every index is inside its own table, and swapping the colours swaps the digits 1 and
    /// 2 of each.
    #[test]
    fn indices_stay_in_their_tables() {
        let (p, o) = (0x0000_1818_2400_81ffu64, 0xff00_0024_0000_4200u64);
        for (k, (&a, &b)) in pattern_features(p, o).iter().zip(&pattern_features(o, p)).enumerate() {
            let t = match k {
                0..=15 if k % 4 == 0 => 0,
                0..=15 => 1 + k % 4,
                16..=19 => 1,
                _ => 5,
            };
            let size = if t == 1 { CORNER } else { LINE };
            let (mut a, mut b) = (a as usize - OFFSETS[t], b as usize - OFFSETS[t]);
            assert!(a < size && b < size, "pattern {k}");
            while a > 0 || b > 0 {
                assert!(matches!((a % 3, b % 3), (0, 0) | (1, 2) | (2, 1)), "pattern {k}");
                (a, b) = (a / 3, b / 3);
            }
        }
    }
}
