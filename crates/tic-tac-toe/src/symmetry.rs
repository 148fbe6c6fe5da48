//! [`BoardSymmetries`]: the symmetries of a board applied to whole [`crate::Bitboard`]s by
//! byte-wise table look-ups, shared by the TT keys of [`crate::MnkGame`] and
//! [`crate::MakerBreaker`].

use crate::Geometry;

/// The images of every byte of a board under each of its symmetries
/// ([`Geometry::symmetries`], the identity first), so that a whole board maps in
/// `ceil(cells / 8)` look-ups.
#[derive(Clone, Debug)]
pub(crate) struct BoardSymmetries {
    /// Number of symmetries (the identity first).
    count: usize,
    /// Bytes of a board (`ceil(cells / 8)`).
    bytes: usize,
    /// `table[(s * bytes + j) * 256 + v]`: the image under symmetry `s` of the cells whose bits
    /// are byte `v` at byte `j` of a board.
    table: Vec<u64>,
    /// `inverses[s]`: the index of the inverse of symmetry `s`.
    inverses: Vec<usize>,
}

impl BoardSymmetries {
    /// The tables of `geometry`'s symmetries.
    pub(crate) fn new(geometry: Geometry) -> Self {
        let cells = geometry.cells();
        let perms = geometry.symmetries();
        let bytes = cells.div_ceil(8);
        let mut table = vec![0u64; perms.len() * bytes * 256];
        for (s, perm) in perms.iter().enumerate() {
            for j in 0..bytes {
                for v in 0..256usize {
                    let mut image = 0u64;
                    for bit in 0..8 {
                        let cell = j * 8 + bit;
                        if v >> bit & 1 == 1 && cell < cells {
                            image |= 1u64 << perm[cell];
                        }
                    }
                    table[(s * bytes + j) * 256 + v] = image;
                }
            }
        }
        let inverses = perms
            .iter()
            .map(|p| {
                perms
                    .iter()
                    .position(|q| (0..cells).all(|c| q[p[c] as usize] as usize == c))
                    .expect("a symmetry group holds every inverse")
            })
            .collect();
        BoardSymmetries { count: perms.len(), bytes, table, inverses }
    }

    /// The index of the inverse of symmetry `s`: `image(inverse(s), image(s, b)) == b`.
    pub(crate) fn inverse(&self, s: usize) -> usize {
        self.inverses[s]
    }

    /// Number of symmetries, the identity (index 0) included.
    pub(crate) fn count(&self) -> usize {
        self.count
    }

    /// The image of the cell set `b` under symmetry `s`.
    #[inline]
    pub(crate) fn image(&self, s: usize, b: u64) -> u64 {
        let base = s * self.bytes * 256;
        (0..self.bytes).fold(0, |acc, j| acc | self.table[base + j * 256 + (b >> (8 * j) & 0xff) as usize])
    }
}
