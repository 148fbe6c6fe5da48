//! The board of a triangle of side `n`: dots, segments and unit triangles, derived from `n`.

use strings_and_coins::{Board, Border};

use crate::SegmentSet;

/// Largest supported side: the segments of side 6 (63) are the most that fit a `u64` bitboard.
pub const MAX_SIDE: u8 = 6;

/// A segment between two neighbouring dots, `a < b`, dots numbered from 1 row by row from the
/// apex as in POJ 1085.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Segment {
    /// The smaller dot number.
    pub a: u8,
    /// The larger dot number.
    pub b: u8,
}

impl std::fmt::Display for Segment {
    /// The judge's notation, `a-b` (e.g. `2-5`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.a, self.b)
    }
}

/// Errors building a [`Geometry`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GeometryError {
    /// The side is 0 or larger than [`MAX_SIDE`].
    #[error("side {0} is not supported: expected 1 to {MAX_SIDE}")]
    UnsupportedSide(u8),
}

/// The board of a triangle of side `n` (`1 <= n <= 6`).
///
/// - Dots: `(n+1)(n+2)/2`, dot `(r, c)` (row `r` from the apex, `0 <= c <= r <= n`) has number
///   `r(r+1)/2 + c + 1`.
/// - Segments: `3n(n+1)/2`, indexed `0..` in increasing `(a, b)` order; bit `i` of a
///   [`SegmentSet`] is segment `i`.
/// - Unit triangles: `n²`, upward `(r,c) (r+1,c) (r+1,c+1)` and downward `(r,c) (r,c+1)
///   (r+1,c+1)`, each stored as the set of its three segments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    side: u8,
    segments: Vec<Segment>,
    triangles: Vec<SegmentSet>,
    /// The triangles as coins, segments as strings: for each segment, the (one or two)
    /// triangles it borders.
    board: Board,
    /// For each symmetry of the triangle (identity first), the image of each segment index.
    symmetries: Vec<Vec<u8>>,
}

impl Geometry {
    /// The board of side `side`.
    ///
    /// # Errors
    /// [`GeometryError::UnsupportedSide`] unless `1 <= side <= MAX_SIDE`.
    pub fn new(side: u8) -> Result<Self, GeometryError> {
        if side == 0 || side > MAX_SIDE {
            return Err(GeometryError::UnsupportedSide(side));
        }
        let n = side;
        let dot = |r: u8, c: u8| r * (r + 1) / 2 + c + 1;
        let mut segments = Vec::new();
        for r in 0..=n {
            for c in 0..=r {
                if c < r {
                    segments.push(Segment { a: dot(r, c), b: dot(r, c + 1) });
                }
                if r < n {
                    segments.push(Segment { a: dot(r, c), b: dot(r + 1, c) });
                    segments.push(Segment { a: dot(r, c), b: dot(r + 1, c + 1) });
                }
            }
        }
        segments.sort_unstable();
        let index = |a: u8, b: u8| {
            let s = Segment { a: a.min(b), b: a.max(b) };
            segments.binary_search(&s).expect("neighbouring dots are joined")
        };
        let tri = |p: (u8, u8), q: (u8, u8), s: (u8, u8)| {
            let (p, q, s) = (dot(p.0, p.1), dot(q.0, q.1), dot(s.0, s.1));
            SegmentSet::EMPTY.with(index(p, q)).with(index(q, s)).with(index(p, s))
        };
        let mut triangles = Vec::new();
        for r in 0..n {
            for c in 0..=r {
                triangles.push(tri((r, c), (r + 1, c), (r + 1, c + 1)));
                if c < r {
                    triangles.push(tri((r, c), (r, c + 1), (r + 1, c + 1)));
                }
            }
        }
        let masks: Vec<u64> = triangles.iter().map(|t| t.0).collect();
        let board = Board::new(&masks, segments.len()).expect("unit triangles are a strings-and-coins board");

        // Symmetries: permutations of the barycentric coordinates (n - r, r - c, c).
        let coords = |d: u8| {
            let r = (1..=n + 1).find(|&r| dot(r, 0) > d).map_or(n, |r| r - 1);
            let c = d - dot(r, 0);
            [n - r, r - c, c]
        };
        let from_coords = |x: [u8; 3]| {
            let r = n - x[0];
            dot(r, x[2])
        };
        let perms = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]];
        let symmetries = perms
            .iter()
            .map(|p| {
                let map = |d: u8| {
                    let x = coords(d);
                    from_coords([x[p[0]], x[p[1]], x[p[2]]])
                };
                segments.iter().map(|s| index(map(s.a), map(s.b)) as u8).collect()
            })
            .collect();
        Ok(Geometry { side, segments, triangles, board, symmetries })
    }

    /// The side `n`.
    #[must_use]
    pub fn side(&self) -> u8 {
        self.side
    }

    /// Number of dots, `(n+1)(n+2)/2`.
    #[must_use]
    pub fn dots(&self) -> u8 {
        (self.side + 1) * (self.side + 2) / 2
    }

    /// The segments, in index order (increasing `(a, b)`).
    #[must_use]
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// The set of all segments.
    #[must_use]
    pub fn all_segments(&self) -> SegmentSet {
        SegmentSet::full(self.segments.len())
    }

    /// The unit triangles, each as the set of its three segments.
    #[must_use]
    pub fn triangles(&self) -> &[SegmentSet] {
        &self.triangles
    }

    /// The triangles that segment `s` borders (one on the rim, two inside).
    #[must_use]
    pub fn border(&self, s: usize) -> Border {
        self.board.border(s)
    }

    /// The board as strings and coins: triangle `i` of [`Geometry::triangles`] is coin `i`,
    /// segment `s` is string `s`.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The index of the segment joining dots `i` and `j` (in either order), if they are
    /// neighbours.
    #[must_use]
    pub fn segment_index(&self, i: u8, j: u8) -> Option<usize> {
        self.segments.binary_search(&Segment { a: i.min(j), b: i.max(j) }).ok()
    }

    /// The six symmetries of the triangle as segment permutations (identity first).
    #[must_use]
    pub fn symmetries(&self) -> &[Vec<u8>] {
        &self.symmetries
    }
}
