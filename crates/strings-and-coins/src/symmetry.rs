//! [`Symmetries`]: a board's symmetries as permutations of its strings, applied to a drawn-set
//! bitboard a byte at a time, for canonical TT keys (the smallest image) and for mapping a TT
//! move hint through the symmetry that gave the key.

/// The symmetries of a board of at most 64 strings, each a permutation of the string indices
/// (`perms[0]` is the identity).
#[derive(Clone, Debug)]
pub struct Symmetries {
    perms: Vec<Vec<u8>>,
    /// For each symmetry but the identity and each byte of a drawn set, the image of that
    /// byte's bits.
    tables: Vec<[[u64; 256]; 8]>,
    /// Bytes of a drawn set that hold strings.
    bytes: usize,
    /// The inverse of each permutation.
    inverses: Vec<Vec<u8>>,
    /// [`Symmetries::with_twins`]: for each symmetry but the identity, the byte images of its
    /// twin-ordered form (the symmetry, then within each twin group the map that keeps the
    /// order of the strings; [`Symmetries::canonical_twins`]). Empty otherwise.
    twin_tables: Vec<[[u64; 256]; 8]>,
}

/// The smallest of `drawn` and its images under the byte `tables` (of the symmetries but the
/// identity), read `BYTES` bytes of `drawn` deep (the tables of the bytes beyond the strings
/// are all 0), and the index of the symmetry that gives it (0: the identity).
#[inline]
fn smallest_image<const BYTES: usize>(tables: &[[[u64; 256]; 8]], drawn: u64) -> (u64, u8) {
    let (mut best, mut symmetry) = (drawn, 0);
    for (i, t) in tables.iter().enumerate() {
        let mut image = 0;
        for (byte, table) in t.iter().enumerate().take(BYTES) {
            image |= table[(drawn >> (8 * byte)) as usize & 0xff];
        }
        if image < best {
            (best, symmetry) = (image, i as u8 + 1);
        }
    }
    (best, symmetry)
}

/// The byte tables of the permutations `perms` (each of the strings of `bytes` bytes).
fn byte_tables<'a>(perms: impl Iterator<Item = &'a Vec<u8>>, bytes: usize) -> Vec<[[u64; 256]; 8]> {
    perms
        .map(|perm| {
            let mut t = [[0u64; 256]; 8];
            for (byte, table) in t.iter_mut().enumerate().take(bytes) {
                for (v, image) in table.iter_mut().enumerate() {
                    for bit in 0..8 {
                        let s = byte * 8 + bit;
                        if v >> bit & 1 == 1 && s < perm.len() {
                            *image |= 1 << perm[s];
                        }
                    }
                }
            }
            t
        })
        .collect()
}

impl Symmetries {
    /// The symmetries `perms` of a board of `strings` strings: each a permutation of
    /// `0..strings`, the first the identity.
    ///
    /// # Panics
    /// If a permutation does not have `strings` entries below `strings`, or `strings > 64`
    /// (the caller's geometry derives them; this is not user input).
    #[must_use]
    pub fn new(perms: &[Vec<u8>], strings: usize) -> Self {
        assert!(strings <= 64, "at most 64 strings");
        assert!(perms.iter().all(|p| p.len() == strings && p.iter().all(|&s| usize::from(s) < strings)));
        let bytes = strings.div_ceil(8);
        let tables = byte_tables(perms.iter().skip(1), bytes);
        let inverses = perms
            .iter()
            .map(|perm| {
                let mut inverse = vec![0; perm.len()];
                for (s, &image) in perm.iter().enumerate() {
                    inverse[usize::from(image)] = s as u8;
                }
                inverse
            })
            .collect();
        Symmetries { perms: perms.to_vec(), tables, bytes, inverses, twin_tables: Vec::new() }
    }

    /// [`Symmetries::new`], ready for [`Symmetries::canonical_twins`] on a board whose twin
    /// groups are `twin_groups` ([`crate::Board::twin_groups`]).
    ///
    /// # Panics
    /// As [`Symmetries::new`], and if a symmetry does not map each twin group onto a twin
    /// group (a symmetry of the board always does: it maps the strings to the ground of a coin
    /// onto those of its image).
    #[must_use]
    pub fn with_twins(perms: &[Vec<u8>], strings: usize, twin_groups: &[u64]) -> Self {
        let mut symmetries = Self::new(perms, strings);
        // The twin-ordered form of each symmetry: the `i`-th lowest string of a group goes to
        // the `i`-th lowest string of the group's image.
        let ordered: Vec<Vec<u8>> = perms
            .iter()
            .map(|perm| {
                let mut ordered = perm.clone();
                for &group in twin_groups {
                    let image =
                        (0..strings).filter(|&s| group >> s & 1 == 1).fold(0u64, |m, s| m | 1 << perm[s]);
                    assert!(
                        twin_groups.contains(&image),
                        "a symmetry maps twin group {group:#x} onto {image:#x}"
                    );
                    let (mut from, mut to) = (group, image);
                    while from != 0 {
                        ordered[from.trailing_zeros() as usize] = to.trailing_zeros() as u8;
                        from &= from - 1;
                        to &= to - 1;
                    }
                }
                ordered
            })
            .collect();
        symmetries.twin_tables = byte_tables(ordered.iter().skip(1), symmetries.bytes);
        symmetries
    }

    /// The smallest image of the drawn set `drawn` under the symmetries, and the index of a
    /// symmetry that gives it (0: the identity).
    #[inline]
    #[must_use]
    pub fn canonical(&self, drawn: u64) -> (u64, u8) {
        self.canonical_by(drawn, |image| image)
    }

    /// The smallest of `normalise(image)` over the images of `drawn` under the symmetries, and
    /// the index of a symmetry whose image gives it. With `normalise` a map onto drawn sets of
    /// the same value that commutes with the symmetries up to its own classes (such as
    /// [`crate::Board::normalise_twins`]), the result names the class of `drawn` under both.
    #[inline]
    #[must_use]
    pub fn canonical_by(&self, drawn: u64, normalise: impl Fn(u64) -> u64) -> (u64, u8) {
        let (mut best, mut symmetry) = (normalise(drawn), 0);
        for (i, t) in self.tables.iter().enumerate() {
            let mut image = 0;
            for (byte, table) in t.iter().enumerate().take(self.bytes) {
                image |= table[(drawn >> (8 * byte)) as usize & 0xff];
            }
            let image = normalise(image);
            if image < best {
                (best, symmetry) = (image, i as u8 + 1);
            }
        }
        (best, symmetry)
    }

    /// [`Symmetries::canonical_by`] with [`crate::Board::normalise_twins`] as the normalisation,
    /// given `normalised`, the normalised drawn set (`board.normalise_twins(drawn)`): the same
    /// key and symmetry, by one normalisation instead of one per symmetry. The symmetries must
    /// come from [`Symmetries::with_twins`] with the board's twin groups.
    ///
    /// Why it is the same: a symmetry `g` maps each twin group onto a twin group, keeping how
    /// many of its strings are drawn; its twin-ordered form `h` (`g`, then the order-keeping
    /// map within each group's image; the same as `g` off the twin groups) maps the lowest `k`
    /// strings of a group onto the lowest `k` of its image. So `normalise(g(drawn)) =
    /// h(normalise(drawn))` for every drawn set, image by image.
    ///
    /// # Panics
    /// If the symmetries were not made by [`Symmetries::with_twins`] (and there are two or
    /// more).
    #[inline]
    #[must_use]
    pub fn canonical_twins(&self, normalised: u64) -> (u64, u8) {
        assert_eq!(self.twin_tables.len(), self.tables.len(), "symmetries made without the twin groups");
        // The number of bytes as a constant, so that the loop over them unrolls.
        match self.bytes {
            0..=3 => smallest_image::<3>(&self.twin_tables, normalised),
            4 => smallest_image::<4>(&self.twin_tables, normalised),
            5 => smallest_image::<5>(&self.twin_tables, normalised),
            6 => smallest_image::<6>(&self.twin_tables, normalised),
            _ => smallest_image::<8>(&self.twin_tables, normalised),
        }
    }

    /// The image of string `s` under symmetry `symmetry`.
    #[inline]
    #[must_use]
    pub fn forward(&self, symmetry: u8, s: u8) -> u8 {
        self.perms[usize::from(symmetry)][usize::from(s)]
    }

    /// The string whose image under symmetry `symmetry` is `s`.
    #[inline]
    #[must_use]
    pub fn inverse(&self, symmetry: u8, s: u8) -> u8 {
        self.inverses[usize::from(symmetry)][usize::from(s)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4-string cycle's rotations: the canonical image is the smallest rotation, and moves
    /// map back through the symmetry that gave it.
    #[test]
    fn canonical_images_and_move_maps() {
        let perms: Vec<Vec<u8>> = (0..4u8).map(|r| (0..4u8).map(|s| (s + r) % 4).collect()).collect();
        let sym = Symmetries::new(&perms, 4);
        for drawn in 0..16u64 {
            let (key, i) = sym.canonical(drawn);
            let image = (0..4u8).filter(|&s| drawn >> s & 1 == 1).fold(0, |m, s| m | 1 << sym.forward(i, s));
            assert_eq!(key, image);
            let smallest = (0..4u8)
                .map(|r| (0..4u8).filter(|&s| drawn >> s & 1 == 1).fold(0u64, |m, s| m | 1 << ((s + r) % 4)))
                .min();
            assert_eq!(Some(key), smallest);
            for s in 0..4 {
                assert_eq!(sym.inverse(i, sym.forward(i, s)), s);
            }
        }
    }
}
