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
//! row. So the successors of a class are listed once ([`Ranker::r_slots`]) and every row of the
//! block reads them sequentially instead of re-deriving ranks per staircase.
//!
//! The order of the high halves within a class is free (any bijection ranks), so they are
//! sorted by their number of moves, most first: then "the `j`-th move of each `R`" is a dense
//! list over the first ranks of the class (a "slot"), and the layer loop runs one branch-free
//! pass per slot instead of a loop of unpredictable length per staircase. Low halves keep the
//! plain (value) order within their class.

use std::ops::Range;

use super::error::{DpError, MAX_DP_SIDE_SUM};
use crate::staircase::low_bits;

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

/// Number of moves inside a half-path of `width` bits: `(1, 0)` (low, high) pairs of adjacent
/// bits.
fn moves_inside(p: u64, width: usize) -> usize {
    (p & !(p >> 1) & low_bits(width.saturating_sub(1))).count_ones() as usize
}

/// `C(n, k)` for the small arguments of the tables (`n <= 64`).
fn binomial(n: usize, k: usize) -> usize {
    (0..k).fold(1, |c, i| c * (n - i) / (i + 1))
}

/// Class-ordered patterns of `width` bits with their ranks: patterns sorted by (ones,
/// inversions, `key`, value), class sizes, and the first position of each class.
/// `cls_base[ones] + inv` is a class's id.
struct Classes {
    patterns: Vec<u32>,
    rank: Vec<u32>,
    count: Vec<usize>,
    start: Vec<usize>,
}

impl Classes {
    /// `key(p) < keys` for every pattern. A counting sort over (class, key) buckets, filled in
    /// increasing pattern order: linear in `2^width`.
    fn new(
        width: usize,
        cls_base: &[usize],
        nclasses: usize,
        keys: usize,
        key: impl Fn(u64) -> usize,
    ) -> Self {
        let bucket = |p: u64| (cls_base[p.count_ones() as usize] + inversions(p)) * keys + key(p);
        let buckets: Vec<u32> = (0..1u64 << width).map(|p| bucket(p) as u32).collect();
        let mut fill = vec![0usize; nclasses * keys + 1];
        for &b in &buckets {
            fill[b as usize + 1] += 1;
        }
        for i in 1..fill.len() {
            fill[i] += fill[i - 1];
        }
        let mut patterns = vec![0u32; 1 << width];
        for (p, &b) in buckets.iter().enumerate() {
            patterns[fill[b as usize]] = p as u32;
            fill[b as usize] += 1;
        }
        let cls = |p: u64| cls_base[p.count_ones() as usize] + inversions(p);
        let mut count = vec![0usize; nclasses];
        let mut start = vec![0usize; nclasses + 1];
        let mut rank = vec![0u32; 1 << width];
        for (i, &p) in patterns.iter().enumerate() {
            let c = cls(u64::from(p));
            if count[c] == 0 {
                start[c] = i;
            }
            rank[p as usize] = count[c] as u32;
            count[c] += 1;
        }
        start[nclasses] = patterns.len();
        Classes { patterns, rank, count, start }
    }
}

/// The half-path tables and layer layout of one board size.
pub(super) struct Ranker {
    pub(super) n: usize,
    pub(super) m: usize,
    /// Width of the low half `L`.
    pub(super) h: usize,
    /// Width of the high half `R` (`h2 >= h`).
    h2: usize,
    /// Low halves (`h` bits), value order within a class.
    low: Classes,
    /// High halves (`h2` bits), most moves first within a class.
    high: Classes,
    /// Class id of (ones, inv): `cls_base[ones] + inv` (the same for both widths' ones range).
    cls_base: Vec<usize>,
    /// Row stride of a layer's offset table (indexed `a * stride + iL`).
    pub(super) stride: usize,
    /// Moves inside `R`, by class and slot: `slot_succ[slots[class][j]]` holds, for the first
    /// ranks `rr` of the class (those with more than `j` moves), `rank(R')` after the `j`-th
    /// move of `R`, and `slot_cell[..]` the same move's cell base `c0`: the filled cell's
    /// row-major index on the board is `c0 - a * (m + 1)` for a low half with `a` ones. Empty
    /// for classes with more than `n` ones (they never occur).
    slots: Vec<Vec<Range<usize>>>,
    slot_succ: Vec<u32>,
    slot_cell: Vec<u16>,
    /// Moves across the middle, by class: `cross_list[cross[class]]` holds `(rr, rank(R | 1))`
    /// for every `R` of the class whose bit 0 is clear.
    cross: Vec<Range<usize>>,
    cross_list: Vec<(u32, u32)>,
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
        let low = Classes::new(h, &cls_base, nclasses, 1, |_| 0);
        let high = Classes::new(h2, &cls_base, nclasses, h2 + 1, |p| h2 - moves_inside(p, h2));
        let mut slots = Vec::with_capacity(nclasses);
        let mut slot_succ = Vec::with_capacity(Self::r_move_entries(n, h2));
        let mut slot_cell = Vec::with_capacity(Self::r_move_entries(n, h2));
        let mut cross = Vec::with_capacity(nclasses);
        let mut cross_list = Vec::with_capacity(Self::cross_entries(n, h2));
        for (ones, &base) in cls_base.iter().enumerate() {
            for inv in 0..=ones * (h2 - ones) {
                let c = base + inv;
                let members = &high.patterns[high.start[c]..high.start[c] + high.count[c]];
                let x0 = cross_list.len();
                if ones <= n {
                    for (rr, &p) in members.iter().enumerate() {
                        if p & 1 == 0 {
                            cross_list.push((rr as u32, high.rank[(p | 1) as usize]));
                        }
                    }
                }
                cross.push(x0..cross_list.len());
                let mut class_slots = Vec::new();
                if ones <= n {
                    for j in 0.. {
                        let s0 = slot_succ.len();
                        for &p in members {
                            let p = u64::from(p);
                            let mut mask = p & !(p >> 1) & low_bits(h2.saturating_sub(1));
                            for _ in 0..j {
                                mask &= mask.wrapping_sub(1);
                            }
                            if mask == 0 {
                                break; // later members have no more moves
                            }
                            let u = mask.trailing_zeros() as usize;
                            let below = (p & low_bits(u)).count_ones() as usize;
                            // Cell (n - 1 - a - below, h + u - a - below) for `a` ones in L.
                            let c0 = (n - 1 - below) * m + h + u - below;
                            slot_succ.push(high.rank[(p ^ (0b11 << u)) as usize]);
                            slot_cell.push(u16::try_from(c0).expect("n * m + n + m below 2^16"));
                        }
                        if slot_succ.len() == s0 {
                            break;
                        }
                        class_slots.push(s0..slot_succ.len());
                    }
                }
                slots.push(class_slots);
            }
        }
        let stride = h * h / 4 + 1;
        Ok(Ranker {
            n,
            m,
            h,
            h2,
            low,
            high,
            cls_base,
            stride,
            slots,
            slot_succ,
            slot_cell,
            cross,
            cross_list,
        })
    }

    /// Number of (pattern, move) pairs among `h2`-bit patterns with at most `n` ones (the only
    /// ones listed): a move is a `(1, 0)` pair of adjacent bits at one of `h2 - 1` places, with
    /// at most `n - 1` ones among the other `h2 - 2` bits.
    fn r_move_entries(n: usize, h2: usize) -> usize {
        if h2 < 2 || n == 0 {
            return 0;
        }
        (h2 - 1) * (0..n.min(h2 - 1)).map(|j| binomial(h2 - 2, j)).sum::<usize>()
    }

    /// Number of `h2`-bit patterns with at most `n` ones and bit 0 clear (moves across the
    /// middle listed).
    fn cross_entries(n: usize, h2: usize) -> usize {
        (0..=n.min(h2.saturating_sub(1))).map(|j| binomial(h2.saturating_sub(1), j)).sum()
    }

    /// Bytes of the tables of an `n x m` board, without building them.
    pub(super) fn table_bytes(n: usize, m: usize) -> usize {
        let (h, h2) = ((n + m) / 2, (n + m).div_ceil(2));
        // Patterns and ranks: 8 bytes per pattern of each width (plus 4 per pattern while the
        // high halves are sorted); moves inside R: 6 bytes each; moves across the middle: 8.
        (8 << h) + (12 << h2) + 6 * Self::r_move_entries(n, h2) + 8 * Self::cross_entries(n, h2)
    }

    /// The slots of moves inside `R` for class (ones, inv) of high halves: slot `j` lists the
    /// `j`-th move of the first ranks of the class: successor ranks and cell bases (see the
    /// field's documentation).
    pub(super) fn r_slots(&self, ones: usize, inv: usize) -> impl Iterator<Item = (&[u32], &[u16])> {
        self.slots[self.cls_base[ones] + inv]
            .iter()
            .map(|r| (&self.slot_succ[r.clone()], &self.slot_cell[r.clone()]))
    }

    /// The moves across the middle of class (ones, inv) of high halves: `(rr, rank(R | 1))`.
    pub(super) fn cross_moves(&self, ones: usize, inv: usize) -> &[(u32, u32)] {
        &self.cross_list[self.cross[self.cls_base[ones] + inv].clone()]
    }

    /// Size of class (ones, inv) among `h`-bit patterns; 0 outside the valid range.
    #[inline]
    pub(super) fn count_l(&self, ones: usize, inv: usize) -> usize {
        if ones > self.h || inv > ones * (self.h - ones) {
            0
        } else {
            self.low.count[self.cls_base[ones] + inv]
        }
    }

    /// Size of class (ones, inv) among `h2`-bit patterns; 0 outside the valid range.
    #[inline]
    pub(super) fn count_r(&self, ones: usize, inv: usize) -> usize {
        if ones > self.h2 || inv > ones * (self.h2 - ones) {
            0
        } else {
            self.high.count[self.cls_base[ones] + inv]
        }
    }

    /// The low half of rank `rank` in class (ones, inv).
    #[inline]
    pub(super) fn low_pattern(&self, ones: usize, inv: usize, rank: usize) -> u64 {
        u64::from(self.low.patterns[self.low.start[self.cls_base[ones] + inv] + rank])
    }

    /// Rank of an `h`-bit low half within its class.
    #[inline]
    pub(super) fn rank_low(&self, p: u64) -> usize {
        self.low.rank[p as usize] as usize
    }

    /// Rank of an `h2`-bit high half within its class.
    #[inline]
    pub(super) fn rank_high(&self, p: u64) -> usize {
        self.high.rank[p as usize] as usize
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
        off[a * self.stride + il] + self.rank_low(l) * self.count_r(self.n - a, ir) + self.rank_high(r)
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

    /// The table sizes that the memory estimate counts, against the built tables.
    #[test]
    fn table_sizes_match_the_estimate() {
        for (n, m) in [(1, 1), (1, 9), (2, 13), (3, 4), (5, 5), (6, 8), (8, 6), (4, 20), (10, 10)] {
            let r = Ranker::new(n, m).unwrap();
            assert_eq!(r.slot_succ.len(), Ranker::r_move_entries(n, r.h2), "{n}x{m}");
            assert_eq!(r.slot_cell.len(), r.slot_succ.len());
            assert_eq!(r.cross_list.len(), Ranker::cross_entries(n, r.h2), "{n}x{m}");
        }
        assert_eq!(binomial(20, 10), 184_756);
        assert_eq!(binomial(7, 0), 1);
    }

    /// Every packed successor entry, decoded, is the high half with one more filled cell, and
    /// its cell is the one that move fills on the board; every move appears once, in its slot.
    #[test]
    fn successor_slots_match_the_staircase_moves() {
        for (n, m) in [(3, 4), (4, 3), (5, 5), (6, 8), (8, 6)] {
            let r = Ranker::new(n, m).unwrap();
            for ones in 0..=r.h2 {
                for inv in 0..=ones * (r.h2 - ones) {
                    let len = r.count_r(ones, inv);
                    let members: Vec<u64> = (0..1u64 << r.h2)
                        .filter(|&p| p.count_ones() as usize == ones && inversions(p) == inv)
                        .collect();
                    assert_eq!(members.len(), len);
                    let mut by_rank = vec![0u64; len];
                    for &p in &members {
                        by_rank[r.rank_high(p)] = p;
                    }
                    // Most moves first within the class.
                    assert!(by_rank.windows(2).all(|w| moves_inside(w[0], r.h2) >= moves_inside(w[1], r.h2)));
                    let slots: Vec<(&[u32], &[u16])> = r.r_slots(ones, inv).collect();
                    if ones > n {
                        assert!(slots.is_empty());
                    } else {
                        for (rr, &p) in by_rank.iter().enumerate() {
                            let want: Vec<usize> = (0..r.h2 - 1).filter(|&u| p >> u & 0b11 == 0b01).collect();
                            assert_eq!(slots.iter().filter(|s| s.0.len() > rr).count(), want.len());
                            for (&(succ, cell), &u) in slots.iter().zip(&want) {
                                assert_eq!(succ.len(), cell.len());
                                let p2 = p ^ (0b11 << u);
                                assert_eq!(inversions(p2), inv + 1);
                                assert_eq!(succ[rr] as usize, r.rank_high(p2));
                                // With `a` ones in L: cell (n - 1 - a - below, h + u - a - below).
                                let below = (p & low_bits(u)).count_ones() as usize;
                                for a in 0..=n - ones {
                                    let board_cell = cell[rr] as usize - a * (m + 1);
                                    assert_eq!(board_cell, (n - 1 - a - below) * m + r.h + u - a - below);
                                }
                            }
                        }
                    }
                    let cross = r.cross_moves(ones, inv);
                    let want_cross =
                        if ones > n { 0 } else { by_rank.iter().filter(|&&p| p & 1 == 0).count() };
                    assert_eq!(cross.len(), want_cross);
                    for &(rr, x) in cross {
                        let p = by_rank[rr as usize];
                        assert_eq!(p & 1, 0);
                        assert_eq!(x as usize, r.rank_high(p | 1));
                        assert_eq!(inversions(p | 1) + ones, inv);
                    }
                }
            }
        }
    }
}
