//! [`Geometry`]: the board size `rows x cols` and the line length `k` of an m,n,k-game, its
//! winning lines and its symmetries.

use std::fmt;

use crate::{Bitboard, Cell};

/// Why a board size or line length is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GeometryError {
    /// Rows or columns outside `1..=8`.
    #[error("board size {rows}x{cols} is not supported (rows and columns must be 1 to 8)")]
    Size {
        /// Requested rows.
        rows: usize,
        /// Requested columns.
        cols: usize,
    },
    /// `k` is 0 or longer than both sides, so nobody could ever win.
    #[error("line length k = {k} does not fit a {rows}x{cols} board (need 1 <= k <= max(rows, cols))")]
    LineLength {
        /// Requested rows.
        rows: usize,
        /// Requested columns.
        cols: usize,
        /// Requested line length.
        k: usize,
    },
}

/// The shape of an m,n,k-game: `rows x cols` cells (each 1 to 8), and `k` in a row (in a row,
/// a column or either diagonal direction) wins.
///
/// Cells are numbered row-major: cell `(r, c)` is bit `r * cols + c` of a [`Bitboard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    rows: u8,
    cols: u8,
    k: u8,
}

impl Geometry {
    /// UVa 10111's board: 4 x 4, four in a row wins.
    pub const UVA: Geometry = Geometry { rows: 4, cols: 4, k: 4 };
    /// CCF CSP 201803-4's board (and classic tic-tac-toe): 3 x 3, three in a row wins.
    pub const CCF: Geometry = Geometry { rows: 3, cols: 3, k: 3 };

    /// A `rows x cols` board where `k` in a row wins.
    ///
    /// # Errors
    /// [`GeometryError::Size`] unless both sides are in `1..=8`; [`GeometryError::LineLength`]
    /// unless `1 <= k <= max(rows, cols)`.
    pub fn new(rows: usize, cols: usize, k: usize) -> Result<Self, GeometryError> {
        if !(1..=8).contains(&rows) || !(1..=8).contains(&cols) {
            return Err(GeometryError::Size { rows, cols });
        }
        if k == 0 || k > rows.max(cols) {
            return Err(GeometryError::LineLength { rows, cols, k });
        }
        // In range: all three fit in a u8.
        Ok(Geometry { rows: rows as u8, cols: cols as u8, k: k as u8 })
    }

    /// Number of rows.
    #[must_use]
    pub const fn rows(self) -> usize {
        self.rows as usize
    }

    /// Number of columns.
    #[must_use]
    pub const fn cols(self) -> usize {
        self.cols as usize
    }

    /// Stones in a row needed to win.
    #[must_use]
    pub const fn k(self) -> usize {
        self.k as usize
    }

    /// Number of cells, `rows * cols` (at most 64).
    #[must_use]
    pub const fn cells(self) -> usize {
        self.rows as usize * self.cols as usize
    }

    /// Every cell of the board.
    #[must_use]
    pub const fn full(self) -> Bitboard {
        Bitboard::first(self.cells() as u32)
    }

    /// The cell at 0-based `row`, `col`, or `None` off the board.
    #[must_use]
    pub const fn cell(self, row: usize, col: usize) -> Option<Cell> {
        if row < self.rows() && col < self.cols() {
            Some(Cell((row * self.cols() + col) as u8))
        } else {
            None
        }
    }

    /// The 0-based `(row, col)` of `cell`.
    #[must_use]
    pub const fn row_col(self, cell: Cell) -> (usize, usize) {
        (cell.0 as usize / self.cols(), cell.0 as usize % self.cols())
    }

    /// Every winning line, as the set of its `k` cells: rows, then columns, then diagonals
    /// going down-right, then diagonals going down-left; each family in row-major order of its
    /// first cell. For 4 x 4 with `k = 4`: 4 rows, 4 columns and the 2 main diagonals.
    #[must_use]
    pub fn lines(self) -> Vec<Bitboard> {
        let (rows, cols, k) = (self.rows() as isize, self.cols() as isize, self.k() as isize);
        let mut lines = Vec::new();
        for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
            for r in 0..rows {
                for c in 0..cols {
                    let (er, ec) = (r + dr * (k - 1), c + dc * (k - 1));
                    if !(0..rows).contains(&er) || !(0..cols).contains(&ec) {
                        continue;
                    }
                    let mut line = Bitboard::EMPTY;
                    for i in 0..k {
                        line |= Bitboard::single(((r + dr * i) * cols + c + dc * i) as u32);
                    }
                    // k = 1: every direction gives the same one-cell line; keep it once.
                    if !lines.contains(&line) {
                        lines.push(line);
                    }
                }
            }
        }
        lines
    }

    /// The symmetries of the board as cell permutations (`perm[i]` is the image of cell `i`):
    /// the 8 of the square's dihedral group for a square board, the 4 that keep the shape
    /// (identity, both mirrors, half turn) for a rectangle. The identity comes first.
    #[must_use]
    pub fn symmetries(self) -> Vec<Vec<u8>> {
        let (rows, cols) = (self.rows(), self.cols());
        let square = rows == cols;
        /// Maps `(row, col)` on a `rows x cols` board to its image.
        type Map = fn(usize, usize, usize, usize) -> (usize, usize);
        let maps: [Map; 8] = [
            |r, c, _, _| (r, c),
            |r, c, _, n| (r, n - 1 - c),
            |r, c, m, _| (m - 1 - r, c),
            |r, c, m, n| (m - 1 - r, n - 1 - c),
            |r, c, _, _| (c, r),
            |r, c, m, _| (c, m - 1 - r),
            |r, c, _, n| (n - 1 - c, r),
            |r, c, m, n| (n - 1 - c, m - 1 - r),
        ];
        let count = if square { 8 } else { 4 };
        maps[..count]
            .iter()
            .map(|map| {
                (0..self.cells())
                    .map(|i| {
                        let (r2, c2) = map(i / cols, i % cols, rows, cols);
                        (r2 * cols + c2) as u8
                    })
                    .collect()
            })
            .collect()
    }
}

impl fmt::Display for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{} board, {} in a row", self.rows, self.cols, self.k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_counts() {
        assert_eq!(Geometry::UVA.lines().len(), 10);
        assert_eq!(Geometry::CCF.lines().len(), 8);
        // 5x5, k = 4: 10 in rows, 10 in columns, 4 per diagonal direction.
        assert_eq!(Geometry::new(5, 5, 4).unwrap().lines().len(), 28);
        // 3x4, k = 3: 6 in rows, 4 in columns, 2 + 2 diagonals.
        assert_eq!(Geometry::new(3, 4, 3).unwrap().lines().len(), 14);
        assert_eq!(Geometry::new(2, 2, 1).unwrap().lines().len(), 4);
        for line in Geometry::new(8, 8, 5).unwrap().lines() {
            assert_eq!(line.count(), 5);
        }
    }

    #[test]
    fn symmetries_are_permutations_preserving_lines() {
        for g in [Geometry::UVA, Geometry::CCF, Geometry::new(3, 5, 3).unwrap()] {
            let lines = g.lines();
            let syms = g.symmetries();
            assert_eq!(syms.len(), if g.rows() == g.cols() { 8 } else { 4 });
            for perm in &syms {
                let mut seen = perm.clone();
                seen.sort_unstable();
                assert_eq!(seen, (0..g.cells() as u8).collect::<Vec<_>>());
                for line in &lines {
                    let image = line
                        .iter()
                        .fold(Bitboard::EMPTY, |b, i| b | Bitboard::single(u32::from(perm[i as usize])));
                    assert!(lines.contains(&image));
                }
            }
        }
    }

    #[test]
    fn bad_geometry_is_refused() {
        assert!(matches!(Geometry::new(9, 3, 3), Err(GeometryError::Size { .. })));
        assert!(matches!(Geometry::new(0, 3, 3), Err(GeometryError::Size { .. })));
        assert!(matches!(Geometry::new(3, 3, 4), Err(GeometryError::LineLength { .. })));
        assert!(matches!(Geometry::new(3, 3, 0), Err(GeometryError::LineLength { .. })));
    }
}
