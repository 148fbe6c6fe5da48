//! The four lines through a square (its row, its column, its diagonal and anti-diagonal),
//! each gathered from a bitboard into a byte of eight squares, and the tables that answer a
//! move on such a line: the discs it turns over ([`line_flips`]) and, on a full line, how
//! many ([`last_flip_count`]). A row is gathered by a shift, a column and the diagonals by a
//! multiplication that moves each of their squares to a bit of its own (no two products
//! meet, so no carry spoils the byte); squares of a byte off the board or off a short
//! diagonal are empty, which no run of discs crosses.

/// Per square `i` of a line of eight and the opponent's discs on squares 1 to 6 (the ends
/// can only outflank), the squares just past the opponent's run on each side of `i` (if the
/// run is not empty): where the mover's disc must be for the run to turn over.
static OUTFLANK: [[u8; 64]; 8] = outflank();

/// Per square `i` of a line of eight and the squares that outflank a move there (at most one
/// on each side), the squares strictly between: what turns over.
static FLIPPED: [[u8; 256]; 8] = flipped();

/// Per square `i` of a line of eight and the mover's discs `m` on it (square `i` empty, every
/// other square the opponent's or off the line), how many of the opponent's discs a move on
/// `i` turns over: in each direction, the run of the opponent's squares next to `i` if one of
/// the mover's ends it.
static FULL_LINE_FLIPS: [[u8; 256]; 8] = full_line_flips();

/// Per square of the 8x8 layout, the squares of its diagonal (column - row constant).
static DIAGONALS: [u64; 64] = diagonals(false);
/// Per square of the 8x8 layout, the squares of its anti-diagonal (column + row constant).
static ANTI_DIAGONALS: [u64; 64] = diagonals(true);

/// Column a of the 8x8 layout.
const FILE_A: u64 = 0x0101_0101_0101_0101;

const fn outflank() -> [[u8; 64]; 8] {
    let mut table = [[0u8; 64]; 8];
    let mut i = 0;
    while i < 8 {
        let mut inner = 0;
        while inner < 64 {
            let o = inner << 1;
            let mut out = 0u32;
            let mut j = i + 1;
            while j < 8 && (o >> j) & 1 == 1 {
                j += 1;
            }
            if j > i + 1 && j < 8 {
                out |= 1 << j;
            }
            let mut j = i;
            while j > 0 && (o >> (j - 1)) & 1 == 1 {
                j -= 1;
            }
            if j < i && j > 0 {
                out |= 1 << (j - 1);
            }
            table[i][inner] = out as u8;
            inner += 1;
        }
        i += 1;
    }
    table
}

const fn flipped() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut i = 0;
    while i < 8 {
        let mut out = 0;
        while out < 256 {
            let mut f = 0u32;
            let mut j = 0;
            while j < 8 {
                if (out >> j) & 1 == 1 {
                    let (lo, hi) = if j > i { (i + 1, j) } else { (j + 1, i) };
                    let mut k = lo;
                    while k < hi {
                        f |= 1 << k;
                        k += 1;
                    }
                }
                j += 1;
            }
            table[i][out] = f as u8;
            out += 1;
        }
        i += 1;
    }
    table
}

const fn full_line_flips() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut i = 0;
    while i < 8 {
        let mut m = 0;
        while m < 256 {
            let mut n = 0;
            // Up the line, then down.
            let mut j = i + 1;
            while j < 8 && (m >> j) & 1 == 0 {
                j += 1;
            }
            if j < 8 {
                n += j - i - 1;
            }
            let mut j = i;
            while j > 0 && (m >> (j - 1)) & 1 == 0 {
                j -= 1;
            }
            if j > 0 {
                n += i - j;
            }
            table[i][m] = n as u8;
            m += 1;
        }
        i += 1;
    }
    table
}

const fn diagonals(anti: bool) -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut mask = 0u64;
        let mut t = 0usize;
        while t < 64 {
            let (tr, tc) = ((t / 8) as i32, (t % 8) as i32);
            if (anti && tr + tc == r + c) || (!anti && tc - tr == c - r) {
                mask |= 1 << t;
            }
            t += 1;
        }
        out[sq] = mask;
        sq += 1;
    }
    out
}

/// Row `r` of `b` as a byte (bit `c` for column `c`).
#[inline(always)]
fn row(b: u64, r: u32) -> u8 {
    (b >> (8 * r)) as u8
}

/// Column `c` of `b` as a byte (bit `k` for row `k`).
#[inline(always)]
fn column(b: u64, c: u32) -> u8 {
    (((b >> c) & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// The squares of `b` in `mask` (a diagonal or an anti-diagonal, one square a column) as a
/// byte (bit `c` for column `c`).
#[inline(always)]
fn diagonal(b: u64, mask: u64) -> u8 {
    ((b & mask).wrapping_mul(FILE_A) >> 56) as u8
}

/// What a move on square `i` of a line turns over, the mover's discs `p` and the opponent's
/// `o` on the line as bytes.
#[inline(always)]
fn on_line(i: usize, p: u8, o: u8) -> u8 {
    let out = OUTFLANK[i][usize::from((o >> 1) & 63)] & p;
    FLIPPED[i][usize::from(out)]
}

/// The discs of `o` that a disc of `p` played on the empty square `sq` turns over (empty if
/// the move is not legal), line by line from the tables. `p` and `o` are disjoint squares of
/// a board in the 8x8 layout (of any size: squares off the board are empty).
#[inline(always)]
pub(crate) fn line_flips(p: u64, o: u64, sq: u8) -> u64 {
    let (r, c) = (u32::from(sq / 8), u32::from(sq % 8));
    let (ri, ci) = (r as usize, c as usize);
    let d = DIAGONALS[usize::from(sq & 63)];
    let a = ANTI_DIAGONALS[usize::from(sq & 63)];
    let h = u64::from(on_line(ci, row(p, r), row(o, r))) << (8 * r);
    // Only the inner squares (rows 1 to 6) of a column ever turn over: spreading their bits
    // back to the column's squares meets no other product.
    let v = (u64::from(on_line(ri, column(p, c), column(o, c))).wrapping_mul(0x0002_0408_1020_4081) & FILE_A)
        << c;
    let dg = u64::from(on_line(ci, diagonal(p, d), diagonal(o, d))).wrapping_mul(FILE_A) & d;
    let ag = u64::from(on_line(ci, diagonal(p, a), diagonal(o, a))).wrapping_mul(FILE_A) & a;
    h | v | dg | ag
}

/// On a full 8x8 board but the square `sq`, how many discs a move of the side with discs `m`
/// on `sq` turns over (0: not legal): every square but `sq` not in `m` is the opponent's.
#[inline(always)]
pub(crate) fn last_flip_count(m: u64, sq: u8) -> u32 {
    let (r, c) = (u32::from(sq / 8), u32::from(sq % 8));
    let (ri, ci) = (r as usize, c as usize);
    let d = DIAGONALS[usize::from(sq & 63)];
    let a = ANTI_DIAGONALS[usize::from(sq & 63)];
    u32::from(FULL_LINE_FLIPS[ci][usize::from(row(m, r))])
        + u32::from(FULL_LINE_FLIPS[ri][usize::from(column(m, c))])
        + u32::from(FULL_LINE_FLIPS[ci][usize::from(diagonal(m, d))])
        + u32::from(FULL_LINE_FLIPS[ci][usize::from(diagonal(m, a))])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Geometry;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// The discs a move of `p` on `sq` turns over against `o` on `g`'s board, walked square
    /// by square along the eight directions: the independent reference of the tables.
    fn walked_flips(g: &Geometry, p: u64, o: u64, sq: u8) -> u64 {
        let n = g.size() as i32;
        let (c, r) = (i32::from(sq % 8), i32::from(sq / 8));
        let mut flipped = 0;
        for (dc, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)] {
            let (mut x, mut y, mut run) = (c + dc, r + dr, 0u64);
            while (0..n).contains(&x) && (0..n).contains(&y) && o >> (8 * y + x) & 1 == 1 {
                run |= 1 << (8 * y + x);
                x += dc;
                y += dr;
            }
            if (0..n).contains(&x) && (0..n).contains(&y) && p >> (8 * y + x) & 1 == 1 {
                flipped |= run;
            }
        }
        flipped
    }

    /// A random board of `g` with the square `sq` empty: each other square empty, the
    /// mover's or the opponent's, the empties `empty` of the time.
    fn random_board(rng: &mut SmallRng, g: &Geometry, sq: u8, empty: f64) -> (u64, u64) {
        let (mut p, mut o) = (0u64, 0u64);
        for t in g.board() {
            if t.0 != sq && !rng.gen_bool(empty) {
                if rng.gen_bool(0.5) {
                    p |= 1 << t.0;
                } else {
                    o |= 1 << t.0;
                }
            }
        }
        (p, o)
    }

    /// The line tables turn over what the walk along the eight directions finds, on boards of
    /// every size and density, on every square.
    #[test]
    fn line_flips_are_the_flips_of_the_ray_walk() {
        let mut rng = SmallRng::seed_from_u64(11);
        let mut legal = 0;
        for size in [4, 6, 8] {
            let g = Geometry::new(size).unwrap();
            let squares: Vec<u8> = g.board().map(|s| s.0).collect();
            for round in 0..20_000 {
                let sq = squares[rng.gen_range(0..squares.len())];
                let (p, o) = random_board(&mut rng, g, sq, f64::from(round % 5) / 5.0);
                let f = walked_flips(g, p, o, sq);
                assert_eq!(line_flips(p, o, sq), f, "size {size}, square {sq}, {p:#x} against {o:#x}");
                legal += usize::from(f != 0);
            }
        }
        assert!(legal > 10_000, "{legal} legal moves");
    }

    /// On full 8x8 boards but one square, the counts are those of the discs turned over, for
    /// either side.
    #[test]
    fn the_last_flip_count_is_the_number_of_discs_turned() {
        let g = Geometry::standard();
        let mut rng = SmallRng::seed_from_u64(7);
        let mut legal = 0;
        for _ in 0..20_000 {
            let sq = rng.gen_range(0..64u8);
            let (p, o) = random_board(&mut rng, g, sq, 0.0);
            for (m, n) in [(p, o), (o, p)] {
                let f = walked_flips(g, m, n, sq);
                assert_eq!(last_flip_count(m, sq), f.count_ones(), "square {sq}, mover {m:#x}");
                legal += usize::from(f != 0);
            }
        }
        assert!(legal > 10_000, "{legal} legal moves");
    }
}
