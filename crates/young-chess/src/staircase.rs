//! [`Staircase`]: a position of the Young-diagram game as a bit-packed lattice path, and
//! [`Cell`], a move.

use std::fmt;

/// A cell of the board: 0-based row (top to bottom) and column (left to right). Also the move
/// "fill this cell"; written `r,c` as in the judge-style notation of `games-cli`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// 0-based row, `0..n`.
    pub row: u8,
    /// 0-based column, `0..m`.
    pub col: u8,
}

/// Cells of rows and columns below 32 pack into search-core's shared TT as `row * 32 + col`;
/// others (boards of a side above 31) are stored without a best move.
impl search_core::PackedMove for Cell {
    #[inline]
    fn pack(self) -> Option<u16> {
        (self.row < 32 && self.col < 32)
            .then(|| u16::from(self.row) * 32 + u16::from(self.col))
            .filter(|&c| c <= search_core::MAX_MOVE_CODE)
    }
    #[inline]
    fn unpack(code: u16) -> Self {
        Cell { row: (code / 32) as u8, col: (code % 32) as u8 }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.row, self.col)
    }
}

/// A position: which cells of an `n x m` board are filled, as the staircase boundary between the
/// filled (top-left) and empty (bottom-right) regions. Copy-make: [`Staircase::fill`] returns a
/// new position.
///
/// # Bit order
/// The boundary is a lattice path from the bottom-left corner of the board to the top-right one,
/// made of `n` up-steps (bit 1) and `m` right-steps (bit 0). Bit `t` of [`Staircase::path`] is
/// step `t`, bit 0 being the first step from the bottom-left corner. Example, `n = 2`, `m = 3`,
/// row lengths `[2, 1]` (3 filled cells):
///
/// ```text
///   col  0 1 2           steps from the bottom-left corner: R U R U R
/// row 0  # # .           bit:                               0 1 2 3 4
/// row 1  # . .           path = 0b01010 (bits 1 and 3 set: the two up-steps)
/// ```
///
/// The up-step of row `i` is the `(n - 1 - i)`-th set bit, and the number of 0 bits below it is
/// the length of row `i`. So the number of filled cells is the number of pairs (0 bit, 1 bit)
/// with the 0 below the 1, and a fillable cell is a pair of bits `t, t + 1` equal to `1, 0`
/// (an inner corner of the path); filling it swaps them to `0, 1`. The empty board is
/// `(1 << n) - 1`, the full one `((1 << n) - 1) << m`.
///
/// The side to move follows from the number of filled cells: Black when it is even.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Staircase {
    path: u64,
    n: u8,
    m: u8,
    cells: u16,
}

impl fmt::Debug for Staircase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Staircase({}x{}, rows {:?})", self.n, self.m, self.row_lengths())
    }
}

impl Staircase {
    /// The empty `n x m` board. Requires `1 <= n`, `1 <= m`, `n + m <= 64` (as guaranteed by a
    /// [`crate::Board`]); panics otherwise.
    #[must_use]
    pub fn empty(n: usize, m: usize) -> Self {
        assert!(n >= 1 && m >= 1 && n + m <= 64, "board {n} x {m} out of range");
        Staircase { path: low_bits(n), n: n as u8, m: m as u8, cells: 0 }
    }

    /// The staircase with the given row lengths (top row first), or `None` if there are not `n`
    /// of them, they are not non-increasing, or one exceeds `m`. Same size limits as
    /// [`Staircase::empty`].
    #[must_use]
    pub fn from_row_lengths(n: usize, m: usize, rows: &[usize]) -> Option<Self> {
        if rows.len() != n || rows.windows(2).any(|w| w[0] < w[1]) || rows.iter().any(|&l| l > m) {
            return None;
        }
        let mut s = Staircase::empty(n, m);
        // Build from the bottom row up: right-steps to the row's length, then its up-step.
        let mut path = 0u64;
        let mut t = 0;
        let mut col = 0;
        for &len in rows.iter().rev() {
            t += len - col;
            col = len;
            path |= 1 << t;
            t += 1;
        }
        s.path = path;
        s.cells = rows.iter().sum::<usize>() as u16;
        Some(s)
    }

    /// Number of rows `n`.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.n as usize
    }

    /// Number of columns `m`.
    #[must_use]
    pub fn cols(&self) -> usize {
        self.m as usize
    }

    /// The lattice path, `n + m` bits with `n` set (see the type's documentation).
    #[must_use]
    pub fn path(&self) -> u64 {
        self.path
    }

    /// Number of filled cells.
    #[must_use]
    pub fn filled(&self) -> usize {
        self.cells as usize
    }

    /// Whether every cell is filled (the game is over).
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.filled() == self.rows() * self.cols()
    }

    /// Whether Black (the first player) is to move: an even number of cells is filled.
    #[must_use]
    pub fn black_to_move(&self) -> bool {
        self.cells % 2 == 0
    }

    /// Length of row `i` (number of filled cells in it), `0..=m`. Panics if `i >= n`.
    #[must_use]
    pub fn row_len(&self, i: usize) -> usize {
        assert!(i < self.rows(), "row {i} out of range");
        // Position of the (n - 1 - i)-th set bit.
        let mut p = self.path;
        for _ in 0..(self.rows() - 1 - i) {
            p &= p - 1;
        }
        let t = p.trailing_zeros() as usize;
        t - (self.rows() - 1 - i)
    }

    /// All row lengths, top row first.
    #[must_use]
    pub fn row_lengths(&self) -> Vec<usize> {
        (0..self.rows()).map(|i| self.row_len(i)).collect()
    }

    /// Whether cell `(r, c)` is filled (`false` outside the board).
    #[must_use]
    pub fn is_filled(&self, r: usize, c: usize) -> bool {
        r < self.rows() && c < self.row_len(r)
    }

    /// The cell filled by swapping bits `t, t + 1` of the path (which must be `1, 0`).
    fn cell_at(&self, t: u32) -> Cell {
        let ones_below = (self.path & low_bits(t as usize)).count_ones();
        Cell { row: (u32::from(self.n) - 1 - ones_below) as u8, col: (t - ones_below) as u8 }
    }

    /// Bit mask of the inner corners: bit `t` set when bits `t, t + 1` are `1, 0`.
    fn corners(&self) -> u64 {
        self.path & !(self.path >> 1) & low_bits(self.rows() + self.cols() - 1)
    }

    /// The fillable cells (legal moves), bottom-left first; empty when the board is full.
    pub fn moves(&self) -> impl Iterator<Item = Cell> + '_ {
        let mut mask = self.corners();
        std::iter::from_fn(move || {
            if mask == 0 {
                return None;
            }
            let t = mask.trailing_zeros();
            mask &= mask - 1;
            Some(self.cell_at(t))
        })
    }

    /// The position after filling `cell`, or `None` if `cell` is not fillable (outside the board,
    /// already filled, or with an empty cell above or to its left).
    #[must_use]
    pub fn fill(&self, cell: Cell) -> Option<Self> {
        let (r, c) = (cell.row as usize, cell.col as usize);
        if r >= self.rows() || c >= self.cols() || self.row_len(r) != c {
            return None;
        }
        // The up-step of row r sits at bit t = c + (n - 1 - r); the cell is fillable iff the
        // next step is a right-step.
        let t = c + (self.rows() - 1 - r);
        if self.path >> (t + 1) & 1 != 0 {
            return None;
        }
        Some(Staircase { path: self.path ^ (0b11 << t), cells: self.cells + 1, ..*self })
    }

    /// The board as text, one line per row: `#` for a filled cell, `.` for an empty one.
    #[must_use]
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for r in 0..self.rows() {
            let len = self.row_len(r);
            for c in 0..self.cols() {
                s.push(if c < len { '#' } else { '.' });
            }
            s.push('\n');
        }
        s
    }
}

/// A mask of the `k` lowest bits (`k <= 64`).
pub(crate) fn low_bits(k: usize) -> u64 {
    if k >= 64 {
        u64::MAX
    } else {
        (1u64 << k) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_example_bits() {
        let s = Staircase::from_row_lengths(2, 3, &[2, 1]).unwrap();
        assert_eq!(s.path(), 0b01010);
        assert_eq!(s.filled(), 3);
        assert_eq!(s.row_lengths(), vec![2, 1]);
        let moves: Vec<Cell> = s.moves().collect();
        assert_eq!(moves, vec![Cell { row: 1, col: 1 }, Cell { row: 0, col: 2 }]);
        assert!(s.fill(Cell { row: 1, col: 2 }).is_none());
        assert!(s.fill(Cell { row: 1, col: 0 }).is_none());
        let t = s.fill(Cell { row: 0, col: 2 }).unwrap();
        assert_eq!(t.row_lengths(), vec![3, 1]);
        assert!(!s.black_to_move());
        assert!(t.black_to_move());
    }

    #[test]
    fn empty_and_full() {
        let e = Staircase::empty(3, 4);
        assert_eq!(e.path(), 0b111);
        assert_eq!(e.moves().collect::<Vec<_>>(), vec![Cell { row: 0, col: 0 }]);
        let f = Staircase::from_row_lengths(3, 4, &[4, 4, 4]).unwrap();
        assert_eq!(f.path(), 0b111 << 4);
        assert!(f.is_full());
        assert_eq!(f.moves().count(), 0);
        assert!(Staircase::from_row_lengths(3, 4, &[1, 2, 0]).is_none());
        assert!(Staircase::from_row_lengths(3, 4, &[5, 2, 0]).is_none());
    }

    #[test]
    fn filling_in_any_order_reaches_full() {
        let mut s = Staircase::empty(4, 5);
        while let Some(c) = s.moves().last() {
            s = s.fill(c).unwrap();
        }
        assert!(s.is_full());
        assert_eq!(s.filled(), 20);
    }
}
