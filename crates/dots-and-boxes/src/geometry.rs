//! The board of R x C boxes: its lines in OpenSpiel's order, its boxes as strings and coins,
//! and the symmetries of the rectangle.

use strings_and_coins::Board;

/// Most lines a board may have: a set of lines is a `u64`.
pub const MAX_LINES: usize = 64;

/// A board size that is not supported ([`Geometry::new`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GeometryError {
    /// A side of 0 boxes.
    #[error("a board of {rows}x{cols} boxes has no box: both sides must be at least 1")]
    Empty {
        /// Rows of boxes asked for.
        rows: usize,
        /// Columns of boxes asked for.
        cols: usize,
    },
    /// More than [`MAX_LINES`] lines.
    #[error("a board of {rows}x{cols} boxes has {lines} lines: at most {MAX_LINES} are supported")]
    TooManyLines {
        /// Rows of boxes asked for.
        rows: usize,
        /// Columns of boxes asked for.
        cols: usize,
        /// Its number of lines, `(rows + 1) * cols + rows * (cols + 1)`.
        lines: usize,
    },
}

/// Which way a line runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Orientation {
    /// A horizontal line, from dot `(row, col)` to dot `(row, col + 1)`.
    Horizontal,
    /// A vertical line, from dot `(row, col)` to dot `(row + 1, col)`.
    Vertical,
}

/// One line of the board: its orientation and its first dot (`row` 0 at the top, `col` 0 at the
/// left, counted in dots).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Line {
    /// Horizontal or vertical.
    pub orientation: Orientation,
    /// The dot row of its top (or only) end, 0 to `rows`.
    pub row: usize,
    /// The dot column of its left (or only) end, 0 to `cols`.
    pub col: usize,
}

/// A board of `rows` x `cols` boxes (OpenSpiel's `num_rows` x `num_cols`), with its lines
/// numbered as OpenSpiel's action ids: the horizontal lines first, row by row (`rows + 1` rows
/// of `cols`), then the vertical lines row by row (`rows` rows of `cols + 1`). Box `(r, c)` is
/// coin `r * cols + c` of its strings-and-coins [`Board`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    rows: usize,
    cols: usize,
    lines: Vec<Line>,
    board: Board,
    /// Each symmetry of the rectangle as a permutation of the lines (index 0: the identity).
    symmetries: Vec<Vec<u8>>,
}

impl Geometry {
    /// The board of `rows` x `cols` boxes.
    ///
    /// # Errors
    /// [`GeometryError::Empty`] for a side of 0, [`GeometryError::TooManyLines`] beyond
    /// [`MAX_LINES`] lines (5x5 has 60, 4x6 58, 1x21 64).
    pub fn new(rows: usize, cols: usize) -> Result<Self, GeometryError> {
        if rows == 0 || cols == 0 {
            return Err(GeometryError::Empty { rows, cols });
        }
        let lines = rows
            .checked_mul(cols)
            .and_then(|rc| rc.checked_mul(2))
            .and_then(|n| n.checked_add(rows + cols))
            .unwrap_or(usize::MAX);
        if lines > MAX_LINES {
            return Err(GeometryError::TooManyLines { rows, cols, lines });
        }
        let mut all = Vec::with_capacity(lines);
        for row in 0..=rows {
            for col in 0..cols {
                all.push(Line { orientation: Orientation::Horizontal, row, col });
            }
        }
        for row in 0..rows {
            for col in 0..=cols {
                all.push(Line { orientation: Orientation::Vertical, row, col });
            }
        }
        let h = |r: usize, c: usize| r * cols + c;
        let v = |r: usize, c: usize| (rows + 1) * cols + r * (cols + 1) + c;
        let coins: Vec<u64> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .map(|(r, c)| 1u64 << h(r, c) | 1 << h(r + 1, c) | 1 << v(r, c) | 1 << v(r, c + 1))
            .collect();
        let board = Board::new(&coins, lines).expect("a grid of boxes is a strings-and-coins board");
        let mut geometry = Geometry { rows, cols, lines: all, board, symmetries: Vec::new() };
        geometry.symmetries = geometry.line_symmetries();
        Ok(geometry)
    }

    /// Rows of boxes.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns of boxes.
    #[must_use]
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Every line, by index (OpenSpiel's action id).
    #[must_use]
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// The number of lines, `(rows + 1) * cols + rows * (cols + 1)`.
    #[must_use]
    pub fn line_count(&self) -> usize {
        self.lines.len()
    }

    /// The number of boxes, `rows * cols`.
    #[must_use]
    pub fn boxes(&self) -> usize {
        self.rows * self.cols
    }

    /// The set of every box, as coin bits (bit `r * cols + c` for box `(r, c)`).
    #[inline]
    #[must_use]
    pub fn all_boxes(&self) -> u64 {
        if self.boxes() == 64 {
            u64::MAX
        } else {
            (1u64 << self.boxes()) - 1
        }
    }

    /// The set of every line.
    #[must_use]
    pub fn all_lines(&self) -> u64 {
        self.board.all_strings()
    }

    /// The index of `line`, if it is on the board.
    #[must_use]
    pub fn index(&self, line: Line) -> Option<usize> {
        let (r, c) = (line.row, line.col);
        match line.orientation {
            Orientation::Horizontal if r <= self.rows && c < self.cols => Some(r * self.cols + c),
            Orientation::Vertical if r < self.rows && c <= self.cols => {
                Some((self.rows + 1) * self.cols + r * (self.cols + 1) + c)
            }
            _ => None,
        }
    }

    /// The lines of box `(r, c)` (row and column of boxes) as a line set: top, bottom, left,
    /// right.
    #[must_use]
    pub fn box_lines(&self, r: usize, c: usize) -> u64 {
        self.board.coins()[r * self.cols + c]
    }

    /// The board as strings and coins: box `(r, c)` is coin `r * cols + c`, line `i` string `i`.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The symmetries of the rectangle as permutations of the line indices (image of line `i`
    /// at index `i`): 4 (identity, the two mirrors, the half turn) or 8 on a square board
    /// (with the diagonal mirrors and the quarter turns). Index 0 is the identity.
    #[must_use]
    pub fn symmetries(&self) -> &[Vec<u8>] {
        &self.symmetries
    }

    /// The dot-coordinate maps that send the grid of dots onto itself, applied to every line.
    fn line_symmetries(&self) -> Vec<Vec<u8>> {
        let (rr, cc) = (self.rows, self.cols);
        // A map of dots (row, col): mirror the rows, mirror the columns, then transpose
        // (square boards only).
        let mut maps: Vec<(bool, bool, bool)> =
            vec![(false, false, false), (false, true, false), (true, false, false), (true, true, false)];
        if rr == cc {
            maps.extend([(false, false, true), (true, true, true), (true, false, true), (false, true, true)]);
        }
        let apply = |&(flip_r, flip_c, transpose): &(bool, bool, bool), r: usize, c: usize| {
            let r = if flip_r { rr - r } else { r };
            let c = if flip_c { cc - c } else { c };
            if transpose {
                (c, r)
            } else {
                (r, c)
            }
        };
        maps.iter()
            .map(|f| {
                self.lines
                    .iter()
                    .map(|l| {
                        let (r2, c2) = match l.orientation {
                            Orientation::Horizontal => (l.row, l.col + 1),
                            Orientation::Vertical => (l.row + 1, l.col),
                        };
                        let (a, b) = (apply(f, l.row, l.col), apply(f, r2, c2));
                        let ((ar, ac), (br, bc)) = (a.min(b), a.max(b));
                        let orientation =
                            if ar == br { Orientation::Horizontal } else { Orientation::Vertical };
                        debug_assert!(ar == br && ac + 1 == bc || ac == bc && ar + 1 == br);
                        let image = Line { orientation, row: ar, col: ac };
                        self.index(image).expect("a symmetry maps lines onto lines") as u8
                    })
                    .collect()
            })
            .collect()
    }
}

impl std::fmt::Display for Line {
    /// `h r,c` or `v r,c` (dot row and column of its top-left end).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let o = match self.orientation {
            Orientation::Horizontal => 'h',
            Orientation::Vertical => 'v',
        };
        write!(f, "{o}{},{}", self.row, self.col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openspiel_numbering_and_limits() {
        let g = Geometry::new(2, 3).unwrap();
        assert_eq!(g.line_count(), 17);
        // Horizontal lines: 3 rows of 3; vertical lines: 2 rows of 4.
        assert_eq!(g.index(Line { orientation: Orientation::Horizontal, row: 2, col: 2 }), Some(8));
        assert_eq!(g.index(Line { orientation: Orientation::Vertical, row: 0, col: 0 }), Some(9));
        assert_eq!(g.index(Line { orientation: Orientation::Vertical, row: 1, col: 3 }), Some(16));
        // Box (1, 2): top 5, bottom 8, left 9 + 4 + 2 = 15, right 16.
        assert_eq!(g.box_lines(1, 2), 1 << 5 | 1 << 8 | 1 << 15 | 1 << 16);
        assert_eq!(Geometry::new(5, 5).unwrap().line_count(), 60);
        assert_eq!(Geometry::new(1, 21).unwrap().line_count(), 64);
        assert_eq!(Geometry::new(5, 6), Err(GeometryError::TooManyLines { rows: 5, cols: 6, lines: 71 }));
        assert_eq!(Geometry::new(0, 3), Err(GeometryError::Empty { rows: 0, cols: 3 }));
        assert!(Geometry::new(usize::MAX, 2).is_err());
    }

    #[test]
    fn symmetries_are_permutations_that_map_boxes_onto_boxes() {
        for (r, c, n) in [(1, 1, 8), (2, 3, 4), (3, 3, 8), (4, 5, 4), (1, 21, 4)] {
            let g = Geometry::new(r, c).unwrap();
            assert_eq!(g.symmetries().len(), n);
            assert!(g.symmetries()[0].iter().enumerate().all(|(i, &s)| usize::from(s) == i));
            let boxes: Vec<u64> = g.board().coins().to_vec();
            for perm in g.symmetries() {
                let mut seen = perm.clone();
                seen.sort_unstable();
                assert!(seen.iter().enumerate().all(|(i, &s)| usize::from(s) == i));
                for &b in &boxes {
                    let image = (0..64).filter(|&i| b >> i & 1 == 1).fold(0u64, |m, i| m | 1 << perm[i]);
                    assert!(boxes.contains(&image));
                }
            }
        }
    }

    /// The twin-ordered tables give the key of the normalisation applied to every image
    /// (`canonical_by` with `normalise_twins`), and the same symmetry, on boards whose twin
    /// groups hold two, three (1xN) and four (1x1) lines.
    #[test]
    fn canonical_twins_is_canonical_by_normalised_images() {
        for (r, c) in
            [(1, 1), (1, 2), (1, 4), (2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (3, 5), (4, 5), (5, 5), (4, 6)]
        {
            let g = Geometry::new(r, c).unwrap();
            let board = g.board();
            let sym = strings_and_coins::Symmetries::with_twins(
                g.symmetries(),
                g.line_count(),
                board.twin_groups(),
            );
            let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ (r * 8 + c) as u64;
            for _ in 0..4000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Sparse and dense sets alike.
                let drawn = (x & x >> 3 | x >> 40 & x) & g.all_lines();
                let drawn = if x & 1 == 1 { drawn } else { !drawn & g.all_lines() };
                assert_eq!(
                    sym.canonical_twins(board.normalise_twins(drawn)),
                    sym.canonical_by(drawn, |d| board.normalise_twins(d)),
                    "{r}x{c} {drawn:#x}"
                );
            }
        }
    }
}
