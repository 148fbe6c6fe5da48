//! [`Geometry`]: an n x n board (n even, 4 to 8) embedded in the 8x8 bitboard layout: its
//! squares, the masks that keep each direction's shift on the board, its lines (for full-line
//! stability) and its quadrants (for parity), all computed at compile time.

use crate::{Bitboard, Square};

/// The eight directions as `(column step, row step)`: east, west, south, north, south-east,
/// north-west, north-east, south-west. Directions `2 k` and `2 k + 1` are opposite (one
/// axis: horizontal, vertical, diagonal, anti-diagonal).
const DIRECTIONS: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)];

/// The shift of a bitboard that moves every square one step in each of [`DIRECTIONS`].
const SHIFTS: [i32; 8] = [1, -1, 8, -8, 9, -9, -7, 7];

/// The smallest board side.
pub const MIN_SIZE: usize = 4;
/// The largest board side.
pub const MAX_SIZE: usize = 8;

/// Why a board side is refused ([`Geometry::new`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected an even board side from 4 to 8, found {0}")]
pub struct SizeError(pub usize);

/// An n x n Othello board, n even from 4 to 8, in the 8x8 layout of [`Bitboard`] (the board
/// is the top-left n x n corner). Obtained by [`Geometry::new`] as a `&'static` table, so that
/// positions carry it as a pointer.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    size: usize,
    board: u64,
    /// Per direction, the squares whose neighbour one step back is on the board: a shift
    /// masked by it moves squares of the board onto squares of the board only.
    dest: [u64; 8],
    /// Per direction, the squares whose neighbours one and two steps back are on the board.
    dest2: [u64; 8],
    /// Per direction, the squares whose neighbours one to four steps back are on the board.
    dest4: [u64; 8],
    /// Per direction, the squares of the board whose neighbour in that direction is off it.
    edge: [u64; 8],
    quadrants: [u64; 4],
    /// Per square of the 8x8 layout, the quadrant it is in (0 for squares off the board):
    /// a move there changes the parity of that quadrant's empties.
    quadrant_of: [u64; 64],
    corners: u64,
    /// Per square, its neighbours on the board: a move there turns something over only if
    /// one of them is the opponent's.
    adjacent: [u64; 64],
}

/// `b` shifted by `s` bit places: towards the higher bits for positive `s`, the lower for
/// negative (squares leaving the board or wrapping around a row are the caller's to mask).
#[inline(always)]
const fn by(b: u64, s: i32) -> u64 {
    if s > 0 {
        b << s
    } else {
        b >> -s
    }
}

/// Bit of square `(c, r)` of the 8x8 layout.
const fn bit(c: i32, r: i32) -> u64 {
    1u64 << (r * 8 + c)
}

/// Whether `(c, r)` is on the board of side `n`.
const fn on(n: i32, c: i32, r: i32) -> bool {
    c >= 0 && c < n && r >= 0 && r < n
}

impl Geometry {
    const fn build(size: usize) -> Geometry {
        let n = size as i32;
        let mut board = 0;
        let mut dest = [0u64; 8];
        let mut edge = [0u64; 8];
        let mut quadrants = [0u64; 4];
        let mut r = 0;
        while r < n {
            let mut c = 0;
            while c < n {
                board |= bit(c, r);
                let q = (if c < n / 2 { 0 } else { 1 }) + (if r < n / 2 { 0 } else { 2 });
                quadrants[q] |= bit(c, r);
                let mut d = 0;
                while d < 8 {
                    let (dc, dr) = DIRECTIONS[d];
                    if on(n, c - dc, r - dr) {
                        dest[d] |= bit(c, r);
                    }
                    if !on(n, c + dc, r + dr) {
                        edge[d] |= bit(c, r);
                    }
                    d += 1;
                }
                c += 1;
            }
            r += 1;
        }
        let mut dest2 = [0u64; 8];
        let mut dest4 = [0u64; 8];
        let mut d = 0;
        while d < 8 {
            let s = SHIFTS[d];
            dest2[d] = dest[d] & by(dest[d], s);
            dest4[d] = dest2[d] & by(dest2[d], 2 * s);
            d += 1;
        }
        let corners = bit(0, 0) | bit(n - 1, 0) | bit(0, n - 1) | bit(n - 1, n - 1);
        let mut quadrant_of = [0u64; 64];
        let mut q = 0;
        while q < 4 {
            let mut sq = 0;
            while sq < 64 {
                if quadrants[q] >> sq & 1 == 1 {
                    quadrant_of[sq] = quadrants[q];
                }
                sq += 1;
            }
            q += 1;
        }
        let mut adjacent = [0u64; 64];
        let mut r = 0;
        while r < n {
            let mut c = 0;
            while c < n {
                let mut d = 0;
                while d < 8 {
                    let (dc, dr) = DIRECTIONS[d];
                    if on(n, c + dc, r + dr) {
                        adjacent[(r * 8 + c) as usize] |= bit(c + dc, r + dr);
                    }
                    d += 1;
                }
                c += 1;
            }
            r += 1;
        }
        Geometry { size, board, dest, dest2, dest4, edge, quadrants, quadrant_of, corners, adjacent }
    }

    /// The board of side `size`.
    ///
    /// # Errors
    /// [`SizeError`] unless `size` is 4, 6 or 8.
    pub fn new(size: usize) -> Result<&'static Geometry, SizeError> {
        match size {
            4 => Ok(&GEOMETRIES[0]),
            6 => Ok(&GEOMETRIES[1]),
            8 => Ok(&GEOMETRIES[2]),
            _ => Err(SizeError(size)),
        }
    }

    /// The standard 8x8 board.
    #[must_use]
    pub fn standard() -> &'static Geometry {
        &GEOMETRIES[2]
    }

    /// The side n of the board.
    #[must_use]
    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The number of squares, n².
    #[must_use]
    #[inline]
    pub fn squares(&self) -> u32 {
        (self.size * self.size) as u32
    }

    /// Every square of the board.
    #[must_use]
    #[inline]
    pub fn board(&self) -> Bitboard {
        Bitboard(self.board)
    }

    /// Whether `sq` (a square of the 8x8 layout) is on this board.
    #[must_use]
    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        Bitboard(self.board).contains(sq)
    }

    /// The four corners.
    #[must_use]
    #[inline]
    pub fn corners(&self) -> Bitboard {
        Bitboard(self.corners)
    }

    /// The four n/2 x n/2 quadrants (top-left, top-right, bottom-left, bottom-right): the
    /// regions whose empty squares' parity orders moves.
    #[must_use]
    pub fn quadrants(&self) -> [Bitboard; 4] {
        self.quadrants.map(Bitboard)
    }

    /// The squares of the quadrants holding an odd number of the squares of `empty`.
    #[inline]
    pub(crate) fn odd_quadrants(&self, empty: u64) -> u64 {
        let mut odd = 0;
        for &q in &self.quadrants {
            if (empty & q).count_ones() & 1 == 1 {
                odd |= q;
            }
        }
        odd
    }

    /// The quadrant of square `sq` of the 8x8 layout, as a mask (0 off the board).
    #[inline]
    pub(crate) fn quadrant_of(&self, sq: u8) -> u64 {
        self.quadrant_of[usize::from(sq & 63)]
    }

    /// The four centre squares: on the standard start, d4 and e5 White, d5 and e4 Black.
    #[must_use]
    pub fn centre(&self) -> Bitboard {
        let h = self.size as i32 / 2;
        Bitboard(bit(h - 1, h - 1) | bit(h, h) | bit(h - 1, h) | bit(h, h - 1))
    }

    /// `b` moved one step in direction `d` (0 to 7), squares leaving the board dropped.
    #[inline]
    pub(crate) fn shift(&self, b: u64, d: usize) -> u64 {
        by(b, SHIFTS[d]) & self.dest[d]
    }

    /// The squares next to `b`'s (one step in any of the eight directions, on the board).
    #[inline]
    pub(crate) fn neighbours(&self, b: u64) -> u64 {
        let mut n = 0;
        for d in 0..8 {
            n |= self.shift(b, d);
        }
        n
    }

    /// The squares where the side with discs `p` can play against `o`: empty squares from
    /// which a line of `o`'s discs ends in one of `p`'s, in some direction.
    #[inline]
    pub(crate) fn moves(&self, p: u64, o: u64) -> u64 {
        let empty = self.board & !(p | o);
        let mut m = 0;
        for (&s, &dest) in SHIFTS.iter().zip(&self.dest) {
            // The opponent's discs whose neighbour one step back is on the board: a shift
            // masked by them never wraps or leaves the board.
            let od = o & dest;
            // Lines of the opponent's discs after one of `p`'s, grown two steps at a time
            // (a line is at most n - 2 = 6 long).
            let mut x = od & by(p, s);
            x |= od & by(x, s);
            let pairs = od & by(od, s);
            x |= pairs & by(x, 2 * s);
            x |= pairs & by(x, 2 * s);
            m |= by(x, s) & dest & empty;
        }
        m
    }

    /// The discs of `o` that a disc of `p` played on the empty square `sq` turns over (empty
    /// if the move is not legal): nothing if no neighbour of `sq` is the opponent's, else the
    /// four lines through `sq` looked up in tables ([`crate::lines`]).
    #[inline(always)]
    pub(crate) fn flips(&self, p: u64, o: u64, sq: u8) -> u64 {
        if self.adjacent[usize::from(sq & 63)] & o == 0 {
            return 0;
        }
        crate::lines::line_flips(p, o, sq)
    }

    /// `b` (squares of the board) under the board symmetry `s` (0 to 7, 0 the identity):
    /// mirrored left to right if bit 0 of `s` is set, then upside down if bit 1 is, then
    /// transposed (column and row swapped) if bit 2 is. [`Geometry::unsymmetry`] undoes it.
    #[inline]
    pub(crate) fn symmetry(&self, mut b: u64, s: u8) -> u64 {
        let pad = 8 - self.size as u32;
        if s & 1 != 0 {
            // Each row's bits reversed (the row order kept), then moved back to columns 0..n.
            b = b.reverse_bits().swap_bytes() >> pad;
        }
        if s & 2 != 0 {
            b = b.swap_bytes() >> (8 * pad);
        }
        if s & 4 != 0 {
            b = transpose(b);
        }
        b
    }

    /// The inverse of [`Geometry::symmetry`]`(_, s)`: each step is its own inverse, undone in
    /// the reverse order.
    #[inline]
    pub(crate) fn unsymmetry(&self, mut b: u64, s: u8) -> u64 {
        for step in [4, 2, 1] {
            b = self.symmetry(b, s & step);
        }
        b
    }

    /// The discs of `p` that can never be turned over, whatever is played (a subset of the
    /// stable discs): those that, on each of the four axes, lie on a full line or next to
    /// the board's edge or to such a disc of `p`. Found as a fixed point from no disc.
    pub(crate) fn stable(&self, p: u64, o: u64) -> u64 {
        let full = self.full_lines(p | o);
        // Direction by direction (both of an axis hold the axis'), what holds whatever the
        // stable set is.
        let fixed: [u64; 8] = std::array::from_fn(|d| full[d / 2] | self.edge[d & !1] | self.edge[d | 1]);
        let candidates = p & self.board;
        let mut s = 0u64;
        loop {
            // Per direction: held, or the neighbour that way is a stable disc of `p`.
            let mut held = [0u64; 8];
            for (d, h) in held.iter_mut().enumerate() {
                *h = fixed[d] | self.shift(s, d);
            }
            let next = candidates
                & (held[0] | held[1])
                & (held[2] | held[3])
                & (held[4] | held[5])
                & (held[6] | held[7]);
            if next == s {
                return s;
            }
            s = next;
        }
    }

    /// Per axis (rows, columns, diagonals, anti-diagonals: the directions `2a` and `2a + 1`
    /// of [`DIRECTIONS`]), the squares of the lines of that axis with no empty square:
    /// the board's empty squares spread along each direction (1, 2 then 4 steps, a line
    /// being at most 8 long), what they do not reach.
    #[inline]
    pub(crate) fn full_lines(&self, filled: u64) -> [u64; 4] {
        let empty = self.board & !filled;
        let mut spread = [0u64; 8];
        for (d, x) in spread.iter_mut().enumerate() {
            let s = SHIFTS[d];
            let mut e = empty;
            e |= by(e, s) & self.dest[d];
            e |= by(e, 2 * s) & self.dest2[d];
            e |= by(e, 4 * s) & self.dest4[d];
            *x = e;
        }
        std::array::from_fn(|a| self.board & !(spread[2 * a] | spread[2 * a + 1]))
    }
}

/// `b` transposed: square `(c, r)` moved to `(r, c)` (the top-left n x n corner onto
/// itself), by three exchanges of bit blocks across the diagonal.
#[inline]
pub(crate) fn transpose(mut b: u64) -> u64 {
    let t = 0x0f0f_0f0f_0000_0000 & (b ^ (b << 28));
    b ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (b ^ (b << 14));
    b ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

/// The three boards, 4x4, 6x6 and 8x8.
static GEOMETRIES: [Geometry; 3] = [Geometry::build(4), Geometry::build(6), Geometry::build(8)];

#[cfg(test)]
mod tests {
    use super::*;

    /// One step of `(c, r)` in direction `d`, if it stays on the board of side `n`.
    fn step(n: i32, c: i32, r: i32, d: usize) -> Option<(i32, i32)> {
        let (dc, dr) = DIRECTIONS[d];
        let (c, r) = (c + dc, r + dr);
        (c >= 0 && c < n && r >= 0 && r < n).then_some((c, r))
    }

    #[test]
    fn shifts_move_each_square_one_step_on_every_board() {
        for size in [4, 6, 8] {
            let g = Geometry::new(size).unwrap();
            let n = size as i32;
            assert_eq!(g.board().count(), g.squares());
            for r in 0..n {
                for c in 0..n {
                    for d in 0..8 {
                        let want = step(n, c, r, d).map_or(0, |(c, r)| bit(c, r));
                        assert_eq!(g.shift(bit(c, r), d), want, "size {size} ({c}, {r}) dir {d}");
                        assert_eq!(g.edge[d] & bit(c, r) != 0, want == 0);
                    }
                }
            }
        }
        assert!(Geometry::new(5).is_err());
        assert!(Geometry::new(10).is_err());
        assert_eq!(Geometry::new(2), Err(SizeError(2)));
    }

    /// Each symmetry moves every square `(c, r)` where the plane's symmetry moves it, and
    /// `unsymmetry` moves it back.
    #[test]
    fn symmetries_move_each_square_as_the_square_s_symmetries() {
        for size in [4, 6, 8] {
            let g = Geometry::new(size).unwrap();
            let n = size as i32;
            for s in 0..8u8 {
                let mut all = 0;
                for r in 0..n {
                    for c in 0..n {
                        let (mut x, mut y) = (c, r);
                        if s & 1 != 0 {
                            x = n - 1 - x;
                        }
                        if s & 2 != 0 {
                            y = n - 1 - y;
                        }
                        if s & 4 != 0 {
                            (x, y) = (y, x);
                        }
                        assert_eq!(
                            g.symmetry(bit(c, r), s),
                            bit(x, y),
                            "size {size} symmetry {s} ({c}, {r})"
                        );
                        assert_eq!(g.unsymmetry(bit(x, y), s), bit(c, r));
                        all |= bit(c, r);
                    }
                }
                assert_eq!(g.symmetry(all, s), g.board);
            }
        }
    }

    /// Per axis of the board of side `n`, its lines: rows, columns, diagonals (c - r
    /// constant), anti-diagonals (c + r constant); zero masks pad the shorter lists.
    fn lines(n: i32) -> [[u64; 15]; 4] {
        let mut lines = [[0u64; 15]; 4];
        for r in 0..n {
            for c in 0..n {
                lines[0][r as usize] |= bit(c, r);
                lines[1][c as usize] |= bit(c, r);
                lines[2][(c - r + n - 1) as usize] |= bit(c, r);
                lines[3][(c + r) as usize] |= bit(c, r);
            }
        }
        lines
    }

    /// The full lines found by spreading the empty squares are those of the line lists.
    #[test]
    fn full_lines_are_the_lines_with_no_empty_square() {
        let mut seed = 7u64;
        let mut found = 0;
        for size in [4, 6, 8] {
            let g = Geometry::new(size).unwrap();
            for _ in 0..3000 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                // Mostly filled boards, so that full lines are common.
                let filled =
                    g.board & !(seed >> 7 & seed >> 23 & seed >> 31 | (seed >> 40) & (seed >> 2) & 0xff);
                let mut want = [0u64; 4];
                for (axis, lines) in lines(size as i32).iter().enumerate() {
                    for &line in lines {
                        if line != 0 && filled & line == line {
                            want[axis] |= line;
                        }
                    }
                }
                assert_eq!(g.full_lines(filled), want, "size {size} filled {filled:#x}");
                found += want.iter().filter(|&&w| w != 0).count();
            }
        }
        assert!(found > 3000, "only {found} axes with a full line");
    }

    #[test]
    fn lines_cover_each_axis_once() {
        for size in [4, 6, 8] {
            let g = Geometry::new(size).unwrap();
            for lines in &lines(size as i32) {
                assert_eq!(lines.iter().fold(0, |a, &l| a | l), g.board);
                assert_eq!(lines.iter().map(|l| l.count_ones()).sum::<u32>(), g.squares());
            }
        }
    }
}
