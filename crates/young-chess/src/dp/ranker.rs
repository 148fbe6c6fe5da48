//! Ranking staircases without hashing: the half-path tables, the layout of a layer in blocks,
//! and the precomputed successor lists of high half-paths.
//!
//! A staircase is the lattice path of [`crate::Staircase`]: `n + m` bits, `n` of them set,
//! whose number of (0 below 1) bit pairs (inversions) is the number of filled cells `k`. The
//! path is split into a low half `L` (bits `0..h`, `h = (n + m) / 2`) and a high half `R` (the
//! other `h2` bits). With `a` ones in `L`:
//!
//! ```text
//! k = inv(L) + inv(R) + zeros(L) * ones(R) = iL + iR + (h - a) * (n - a)
//! ```
//!
//! Within layer `k` staircases are ordered by `(a, iL)` blocks, then by the rank of `L` among
//! the half-paths with the same (ones, inversions) ("class"), then by the rank of `R` likewise:
//! `index = offset[k][a][iL] + rank(L) * count(n - a, iR) + rank(R)`. A block is a matrix: one
//! row per `L`, one column per `R`.
//!
//! Filling a cell swaps two adjacent bits `(1, 0)` (low, high) into `(0, 1)`, inside `L`, inside
//! `R`, or across the middle. For a move inside `R` the successor lies in the same row of block
//! `(a, iL)` of layer `k + 1`, at the rank of `R'` in class `(n - a, iR + 1)`: the same for every
//! row. So each `R`, in class order, carries its list of successors once ([`Ranker::r_moves`]),
//! and the layer loop reads them sequentially instead of re-deriving ranks per staircase.

use super::{DpError, MAX_DP_SIDE_SUM};
use crate::staircase::low_bits;

/// Bits of a packed successor entry holding the cell's base index ([`Ranker::r_moves`]).
pub(super) const CELL_BITS: u32 = 10;
/// Mask of the cell part of a packed successor entry.
pub(super) const CELL_MASK: u32 = (1 << CELL_BITS) - 1;
/// [`Ranker::cross`] entry of a high half whose bit 0 is set (no move across the middle).
pub(super) const NO_CROSS: u32 = u32::MAX;

/// Inversions of a half-path: pairs (0 bit below a 1 bit).
pub(super) fn inversions(p: u64) -> usize {
    let (mut inv, mut ones, mut q) = (0, 0, p);
    while q != 0 {
        let t = q.trailing_zeros() as usize;
        inv += t - ones;
        ones += 1;
        q &= q - 1;
    }
    inv
}

/// The half-path tables and layer layout of one board size.
pub(super) struct Ranker {
    pub(super) n: usize,
    pub(super) m: usize,
    /// Width of the low half `L`.
    pub(super) h: usize,
    /// Width of the high half `R` (`h2 >= h`).
    h2: usize,
    /// Rank of each `h2`-bit pattern among the patterns with its (ones, inversions).
    rank: Vec<u32>,
    /// All `h2`-bit patterns sorted by (ones, inversions, value).
    patterns: Vec<u32>,
    /// First index in `patterns` of class (ones, inv): `class_start[cls_base[ones] + inv]`.
    class_start: Vec<usize>,
    cls_base: Vec<usize>,
    /// Class sizes among `h`-bit patterns (those below `2^h`: the first ones of each class).
    cnt_l: Vec<usize>,
    /// Class sizes among `h2`-bit patterns.
    cnt_r: Vec<usize>,
    /// Row stride of a layer's offset table (indexed `a * stride + iL`).
    pub(super) stride: usize,
    /// Moves inside `R` of the pattern at position `i` of `patterns`:
    /// `r_move_list[r_move_start[i]..r_move_start[i + 1]]`, each packed as
    /// `rank(R') << CELL_BITS | c0`, where the filled cell's row-major index on the board is
    /// `c0 - a * (m + 1)` for a low half with `a` ones. Empty for patterns with more than `n`
    /// ones (they never occur).
    r_move_start: Vec<u32>,
    r_move_list: Vec<u32>,
    /// Move across the middle for the pattern at position `i` of `patterns`: the rank of
    /// `R | 1` in its class, or [`NO_CROSS`] if bit 0 of `R` is set.
    cross: Vec<u32>,
}

impl Ranker {
    /// The tables for an `n x m` board.
    ///
    /// # Errors
    /// [`DpError::TooLarge`] if `n + m > MAX_DP_SIDE_SUM`.
    pub(super) fn new(n: usize, m: usize) -> Result<Self, DpError> {
        if n + m > MAX_DP_SIDE_SUM {
            return Err(DpError::TooLarge { n, m });
        }
        let h = (n + m) / 2;
        let h2 = n + m - h;
        let mut cls_base = Vec::with_capacity(h2 + 2);
        let mut nclasses = 0;
        for ones in 0..=h2 {
            cls_base.push(nclasses);
            nclasses += ones * (h2 - ones) + 1;
        }
        let cls = |p: u64| cls_base[p.count_ones() as usize] + inversions(p);
        let mut cnt_r = vec![0usize; nclasses];
        let mut cnt_l = vec![0usize; nclasses];
        for p in 0..1u64 << h2 {
            let c = cls(p);
            cnt_r[c] += 1;
            if p < 1 << h {
                cnt_l[c] += 1;
            }
        }
        let mut class_start = Vec::with_capacity(nclasses + 1);
        let mut acc = 0;
        for &c in &cnt_r {
            class_start.push(acc);
            acc += c;
        }
        class_start.push(acc);
        let mut fill = class_start.clone();
        let mut patterns = vec![0u32; 1 << h2];
        let mut rank = vec![0u32; 1 << h2];
        for p in 0..1u64 << h2 {
            let c = cls(p);
            patterns[fill[c]] = p as u32;
            rank[p as usize] = (fill[c] - class_start[c]) as u32;
            fill[c] += 1;
        }
        // Successor lists, in pattern (class) order.
        let mut r_move_start = Vec::with_capacity((1 << h2) + 1);
        let mut r_move_list = Vec::with_capacity(Self::r_move_entries(h2));
        let mut cross = Vec::with_capacity(1 << h2);
        for &p in &patterns {
            let p = u64::from(p);
            r_move_start.push(r_move_list.len() as u32);
            cross.push(if p & 1 == 0 { rank[(p | 1) as usize] } else { NO_CROSS });
            if p.count_ones() as usize > n {
                continue;
            }
            let mut mask = p & !(p >> 1) & low_bits(h2.saturating_sub(1));
            while mask != 0 {
                let u = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let below = (p & low_bits(u)).count_ones() as usize;
                // Cell (n - 1 - a - below, h + u - a - below) for `a` ones in L.
                let c0 = (n - 1 - below) * m + h + u - below;
                let r2 = rank[(p ^ (0b11 << u)) as usize];
                debug_assert!(c0 <= CELL_MASK as usize && r2 < 1 << (32 - CELL_BITS));
                r_move_list.push(r2 << CELL_BITS | c0 as u32);
            }
        }
        r_move_start.push(r_move_list.len() as u32);
        let stride = h * h / 4 + 1;
        Ok(Ranker {
            n,
            m,
            h,
            h2,
            rank,
            patterns,
            class_start,
            cls_base,
            cnt_l,
            cnt_r,
            stride,
            r_move_start,
            r_move_list,
            cross,
        })
    }

    /// Number of (pattern, move) pairs among `h2`-bit patterns: a move is a `(1, 0)` pair of
    /// adjacent bits, `h2 - 1` places each set in a quarter of the patterns.
    fn r_move_entries(h2: usize) -> usize {
        (h2.saturating_sub(1) << h2) / 4
    }

    /// Bytes of the tables of an `n x m` board, without building them.
    pub(super) fn table_bytes(n: usize, m: usize) -> usize {
        let h2 = (n + m).div_ceil(2);
        // rank, patterns, r_move_start, cross: 4 bytes per pattern each; 4 per move.
        (16 << h2) + 4 * Self::r_move_entries(h2)
    }

    /// Size of class (ones, inv) among `h`-bit patterns; 0 outside the valid range.
    #[inline]
    pub(super) fn count_l(&self, ones: usize, inv: usize) -> usize {
        if ones > self.h || inv > ones * (self.h - ones) {
            0
        } else {
            self.cnt_l[self.cls_base[ones] + inv]
        }
    }

    /// Size of class (ones, inv) among `h2`-bit patterns; 0 outside the valid range.
    #[inline]
    pub(super) fn count_r(&self, ones: usize, inv: usize) -> usize {
        if ones > self.h2 || inv > ones * (self.h2 - ones) {
            0
        } else {
            self.cnt_r[self.cls_base[ones] + inv]
        }
    }

    /// Position in `patterns` of the first pattern of class (ones, inv).
    #[inline]
    pub(super) fn class_start(&self, ones: usize, inv: usize) -> usize {
        self.class_start[self.cls_base[ones] + inv]
    }

    /// The pattern at position `i` of the class-ordered pattern list.
    #[inline]
    pub(super) fn pattern(&self, i: usize) -> u64 {
        u64::from(self.patterns[i])
    }

    /// Rank of an `h2`-bit (or `h`-bit) pattern within its class.
    #[inline]
    pub(super) fn rank(&self, p: u64) -> usize {
        self.rank[p as usize] as usize
    }

    /// For the patterns at positions `range` of the class-ordered list: the start of each one's
    /// move list relative to the first (`range.len() + 1` entries, absolute), the packed moves,
    /// and the cross ranks.
    pub(super) fn r_moves(&self, start: usize, len: usize) -> (&[u32], &[u32], &[u32]) {
        let starts = &self.r_move_start[start..=start + len];
        let (lo, hi) = (starts[0] as usize, starts[len] as usize);
        (starts, &self.r_move_list[lo..hi], &self.cross[start..start + len])
    }

    /// The `(a, iL)` blocks of layer `k`, in layout order: `(a, iL, iR)`.
    pub(super) fn blocks(&self, k: usize) -> Vec<(usize, usize, usize)> {
        let (n, h, h2) = (self.n, self.h, self.h2);
        let mut out = Vec::new();
        for a in n.saturating_sub(h2)..=n.min(h) {
            let b = n - a;
            let cross = (h - a) * b;
            for il in 0..=a * (h - a) {
                let Some(ir) = k.checked_sub(cross + il) else { break };
                if ir <= b * (h2 - b) && self.count_l(a, il) > 0 && self.count_r(b, ir) > 0 {
                    out.push((a, il, ir));
                }
            }
        }
        out
    }

    /// Offsets of layer `k`'s blocks (indexed `a * stride + iL`, `usize::MAX` where empty) and
    /// the layer's size.
    pub(super) fn layer_offsets(&self, k: usize) -> (Vec<usize>, usize) {
        let mut off = vec![usize::MAX; (self.n + 1) * self.stride];
        let mut total = 0;
        for (a, il, ir) in self.blocks(k) {
            off[a * self.stride + il] = total;
            total += self.count_l(a, il) * self.count_r(self.n - a, ir);
        }
        (off, total)
    }

    /// Index within its layer of the staircase with lattice path `path`, given its layer's
    /// offsets.
    pub(super) fn index(&self, path: u64, off: &[usize]) -> usize {
        let l = path & low_bits(self.h);
        let r = path >> self.h;
        let a = l.count_ones() as usize;
        let (il, ir) = (inversions(l), inversions(r));
        off[a * self.stride + il] + self.rank(l) * self.count_r(self.n - a, ir) + self.rank(r)
    }
}

#[cfg(test)]
mod tests {
    use super::super::count::{layer_sizes, staircase_count};
    use super::*;

    #[test]
    fn offsets_cover_each_layer() {
        for (n, m) in [(1, 1), (2, 3), (4, 4), (5, 7), (7, 5), (10, 10)] {
            let r = Ranker::new(n, m).unwrap();
            for (k, &s) in layer_sizes(n, m).iter().enumerate() {
                assert_eq!(r.layer_offsets(k).1 as u128, s, "{n}x{m} layer {k}");
            }
        }
    }

    #[test]
    fn ranks_are_a_bijection_per_layer() {
        for (n, m) in [(1, 3), (3, 1), (2, 2), (3, 4), (4, 3), (5, 5)] {
            let r = Ranker::new(n, m).unwrap();
            let mut seen: Vec<Vec<bool>> = (0..=n * m).map(|k| vec![false; r.layer_offsets(k).1]).collect();
            for path in 0..1u64 << (n + m) {
                if path.count_ones() as usize != n {
                    continue;
                }
                let k = inversions(path);
                let i = r.index(path, &r.layer_offsets(k).0);
                assert!(!seen[k][i], "{n}x{m}: duplicate index");
                seen[k][i] = true;
            }
            assert!(seen.iter().flatten().all(|&s| s));
            assert_eq!(seen.iter().map(Vec::len).sum::<usize>() as u128, staircase_count(n, m));
        }
    }

    /// Every packed successor entry, decoded, is the high half with one more filled cell, and
    /// its cell is the one that move fills on the board.
    #[test]
    fn successor_lists_match_the_staircase_moves() {
        for (n, m) in [(3, 4), (4, 3), (5, 5), (6, 8)] {
            let r = Ranker::new(n, m).unwrap();
            assert_eq!(r.r_move_list.len(), Ranker::r_move_entries(r.h2) - skipped(&r));
            for ones in 0..=r.h2.min(n) {
                for inv in 0..=ones * (r.h2 - ones) {
                    let (start, len) = (r.class_start(ones, inv), r.count_r(ones, inv));
                    let (starts, list, cross) = r.r_moves(start, len);
                    for i in 0..len {
                        let p = r.pattern(start + i);
                        let moves =
                            &list[(starts[i] - starts[0]) as usize..(starts[i + 1] - starts[0]) as usize];
                        let mut want = Vec::new();
                        for u in 0..r.h2 - 1 {
                            if p >> u & 0b11 == 0b01 {
                                let p2 = p ^ (0b11 << u);
                                assert_eq!(inversions(p2), inv + 1);
                                want.push((r.rank(p2), u));
                            }
                        }
                        assert_eq!(moves.len(), want.len());
                        for (&e, &(rk, u)) in moves.iter().zip(&want) {
                            assert_eq!((e >> CELL_BITS) as usize, rk);
                            // With `a` ones in L, the cell is (n - 1 - a - below, h + u - a - below).
                            let below = (p & low_bits(u)).count_ones() as usize;
                            for a in 0..=n - ones {
                                let cell = (e & CELL_MASK) as usize - a * (m + 1);
                                assert_eq!(cell, (n - 1 - a - below) * m + r.h + u - a - below);
                            }
                        }
                        if p & 1 == 0 {
                            assert_eq!(cross[i] as usize, r.rank(p | 1));
                            assert_eq!(inversions(p | 1) + ones, inv);
                        } else {
                            assert_eq!(cross[i], NO_CROSS);
                        }
                    }
                }
            }
        }
    }

    /// Moves of patterns with more than `n` ones, which have no list.
    fn skipped(r: &Ranker) -> usize {
        (0..1u64 << r.h2)
            .filter(|p| p.count_ones() as usize > r.n)
            .map(|p| (p & !(p >> 1) & low_bits(r.h2 - 1)).count_ones() as usize)
            .sum()
    }

    #[test]
    fn packed_entries_fit_at_the_largest_board() {
        // Largest cell base: (n - 1) * m + h + h2 - 2 over n + m <= MAX_DP_SIDE_SUM.
        let max_c0 =
            (1..MAX_DP_SIDE_SUM).map(|n| (n - 1) * (MAX_DP_SIDE_SUM - n) + MAX_DP_SIDE_SUM - 2).max();
        assert!(max_c0.unwrap() <= CELL_MASK as usize);
        // Largest class of 24-bit patterns is below 2^(32 - CELL_BITS).
        let h2 = MAX_DP_SIDE_SUM.div_ceil(2);
        let largest = layer_sizes(h2 / 2, h2 - h2 / 2).into_iter().max().unwrap();
        assert!(largest < 1 << (32 - CELL_BITS), "{largest}");
    }
}
