//! The dedicated solver: a dynamic programme over staircases, layer by layer, ranked without
//! hashing.
//!
//! # Layers
//! Every move fills one cell, so the staircases with `k` filled cells (layer `k`) only lead to
//! layer `k + 1`. The programme computes layer `n * m` (the full board, value 0), then
//! `n * m - 1`, …, down to layer 0 (the empty board); the value of a staircase, from its side to
//! move, is `max over fillable cells c of (gain(c) - value(staircase + c))`, where the gain is
//! `A[c]` when Black is to move (`k` even) and `B[c]` otherwise. Only two layers live at once:
//! the largest layer of a 16 x 16 board holds about 9 million staircases (of 601 million).
//!
//! # Ranking without hashing
//! A staircase is the lattice path of [`Staircase`]: `n + m` bits, `n` of them set, whose number
//! of (0 below 1) bit pairs (inversions) is the number of filled cells `k`. The path is split into
//! a low half `L` (bits `0..h`, `h = (n + m) / 2`) and a high half `R` (the other `h2` bits).
//! With `a` ones in `L`:
//!
//! ```text
//! k = inv(L) + inv(R) + zeros(L) * ones(R) = iL + iR + (h - a) * (n - a)
//! ```
//!
//! Within layer `k` staircases are ordered by `(a, iL)` blocks, then by the rank of `L` among the
//! half-paths with the same (ones, inversions), then by the rank of `R` likewise:
//! `index = offset[k][a][iL] + rank(L) * count(n - a, iR) + rank(R)`. The half-path ranks come from
//! a lookup table of `2^h2` entries (64 K for 16 x 16), so ranking a successor is O(1): filling a
//! cell swaps two adjacent bits, inside `L`, inside `R`, or across the middle, and changes
//! `(a, iL, iR)` in a known way. A block's rows are contiguous, so one layer streams through
//! the next one row by row, and rows are independent: they are shared among threads with rayon.

use rayon::prelude::*;
use thiserror::Error;

use crate::staircase::low_bits;
use crate::{Board, Memo, Staircase};

/// Largest `n + m` the ranked DP handles (its half-path tables have `2^ceil((n + m) / 2)`
/// entries). Larger boards (necessarily thin, to fit in memory) are solved by the
/// plain memoised negamax ([`crate::Memo`]) instead; see [`solve`].
pub const MAX_DP_SIDE_SUM: usize = 48;

/// Boards with at least this many staircases are solved with rayon across all cores.
const PARALLEL_STATES: u128 = 1 << 20;

/// Why a DP could not run.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DpError {
    /// `n + m` exceeds [`MAX_DP_SIDE_SUM`].
    #[error("board {n} x {m} too large for the staircase DP (n + m must be at most {MAX_DP_SIDE_SUM})")]
    TooLarge {
        /// Rows.
        n: usize,
        /// Columns.
        m: usize,
    },
}

/// Number of staircases of an `n x m` board: `C(n + m, n)` (saturating; exact for `n + m <= 127`).
#[must_use]
pub fn staircase_count(n: usize, m: usize) -> u128 {
    let mut c: u128 = 1;
    for i in 0..n.min(m) as u128 {
        // c = C(n + m, i + 1) from C(n + m, i); the division is exact.
        c = match c.checked_mul((n + m) as u128 - i) {
            Some(x) => x / (i + 1),
            None => return u128::MAX,
        };
    }
    c
}

/// Layer sizes: entry `k` is the number of staircases of an `n x m` board with `k` filled cells
/// (`k` in `0..=n*m`; the coefficients of the Gaussian binomial `[n+m choose n]_q`).
#[must_use]
pub fn layer_sizes(n: usize, m: usize) -> Vec<u128> {
    // g[b][k]: paths with `a` ones (current row of the recurrence) and `b` zeros, k inversions.
    // A path ending in 1 gains `b` inversions from that 1; one ending in 0 gains none.
    let mut g: Vec<Vec<u128>> = (0..=m).map(|_| vec![1]).collect(); // a = 0
    for a in 1..=n {
        let mut row: Vec<Vec<u128>> = Vec::with_capacity(m + 1);
        for b in 0..=m {
            let mut v = vec![0u128; a * b + 1];
            for (k, &x) in g[b].iter().enumerate() {
                v[k + b] = v[k + b].saturating_add(x); // last bit 1
            }
            if b > 0 {
                for (k, &x) in row[b - 1].iter().enumerate() {
                    v[k] = v[k].saturating_add(x); // last bit 0
                }
            }
            row.push(v);
        }
        g = row;
    }
    g.swap_remove(m)
}

/// Whether values of `board` need 64-bit storage in the DP (else 32-bit: every margin is at
/// most [`Board::value_bound`] in absolute value).
fn wide(board: &Board) -> bool {
    board.value_bound() > i64::from(i32::MAX)
}

/// Bytes of the half-path tables for an `n x m` board.
fn table_bytes(n: usize, m: usize) -> u128 {
    let h2 = (n + m).div_ceil(2);
    (8u128 << h2) + (1 << 20)
}

/// Bytes of a [`Memo`] holding every staircase of an `n x m` board.
fn memo_bytes(n: usize, m: usize) -> u128 {
    staircase_count(n, m).saturating_mul(64).saturating_add(1 << 20)
}

/// Peak memory in bytes that [`solve`] needs for `board`, computed without allocating: two DP
/// layers (the largest two) of 4-byte values (8-byte if [`Board::value_bound`] exceeds
/// `i32::MAX`) plus the half-path tables; or, for `n + m > MAX_DP_SIDE_SUM`, a hash
/// memo of every staircase ([`Memo`]). Callers compare it with the memory available before solving.
#[must_use]
pub fn memory_estimate(board: &Board) -> u128 {
    let (n, m) = (board.rows(), board.cols());
    if n + m > MAX_DP_SIDE_SUM {
        return memo_bytes(n, m);
    }
    let width: u128 = if wide(board) { 8 } else { 4 };
    let sizes = layer_sizes(n, m);
    let max_pair = sizes.windows(2).map(|w| w[0].saturating_add(w[1])).max().unwrap_or(1);
    max_pair.saturating_mul(width).saturating_add(table_bytes(n, m))
}

/// Memory in bytes that [`crate::analyze_start`] needs for `board`, computed without
/// allocating: a [`DpTable`] (every layer kept) or, for `n + m > MAX_DP_SIDE_SUM`, a [`Memo`] of
/// every staircase.
#[must_use]
pub fn table_memory_estimate(board: &Board) -> u128 {
    let (n, m) = (board.rows(), board.cols());
    if n + m > MAX_DP_SIDE_SUM {
        return memo_bytes(n, m);
    }
    let width: u128 = if wide(board) { 8 } else { 4 };
    staircase_count(n, m).saturating_mul(width).saturating_add(table_bytes(n, m))
}

/// Black's score minus White's under perfect play from the empty board: the layered DP for
/// `n + m <= MAX_DP_SIDE_SUM` (with rayon on boards of a million staircases or more), the
/// memoised negamax ([`Memo`]) otherwise. Memory: [`memory_estimate`].
///
/// # Errors
/// None at present for a valid [`Board`]; the `Result` is kept for future limits.
pub fn solve(board: &Board) -> Result<i64, DpError> {
    solve_with_progress(board, &mut |_, _| {})
}

/// [`solve`], calling `progress(done, total)` (staircases valued so far, all staircases) after
/// each layer.
///
/// # Errors
/// As [`solve`].
pub fn solve_with_progress(board: &Board, progress: &mut dyn FnMut(u64, u64)) -> Result<i64, DpError> {
    let (n, m) = (board.rows(), board.cols());
    if n + m > MAX_DP_SIDE_SUM {
        return Ok(Memo::new(board).value(&board.start()));
    }
    let ranker = Ranker::new(n, m)?;
    Ok(if wide(board) {
        run::<i64>(&ranker, board, false, progress).0
    } else {
        run::<i32>(&ranker, board, false, progress).0
    })
}

/// The DP with every layer kept: the exact value of any staircase of the board by lookup, for
/// analysis (move values, principal variations). Memory: [`table_memory_estimate`].
pub struct DpTable {
    ranker: Ranker,
    layers: Layers,
    offsets: Vec<Vec<usize>>,
}

enum Layers {
    Narrow(Vec<Vec<i32>>),
    Wide(Vec<Vec<i64>>),
}

impl DpTable {
    /// Solves `board`, keeping every layer.
    ///
    /// # Errors
    /// [`DpError::TooLarge`] if `n + m > MAX_DP_SIDE_SUM`.
    pub fn build(board: &Board) -> Result<Self, DpError> {
        let ranker = Ranker::new(board.rows(), board.cols())?;
        let mut none = |_, _| {};
        let layers = if wide(board) {
            Layers::Wide(run::<i64>(&ranker, board, true, &mut none).1)
        } else {
            Layers::Narrow(run::<i32>(&ranker, board, true, &mut none).1)
        };
        let offsets = (0..=board.rows() * board.cols()).map(|k| ranker.layer_offsets(k).0).collect();
        Ok(DpTable { ranker, layers, offsets })
    }

    /// The value of `pos` (a staircase of this board's size) from its side to move: the margin
    /// of the remaining play under perfect play. Panics if `pos` has another size.
    #[must_use]
    pub fn value(&self, pos: &Staircase) -> i64 {
        assert_eq!((pos.rows(), pos.cols()), (self.ranker.n, self.ranker.m), "staircase of another board");
        let k = pos.filled();
        let i = self.ranker.index(pos.path(), &self.offsets[k]);
        match &self.layers {
            Layers::Narrow(l) => i64::from(l[k][i]),
            Layers::Wide(l) => l[k][i],
        }
    }
}

/// A DP cell value: `i32` when the board's values allow, else `i64`.
trait DpValue: Copy + Send + Sync + Default {
    fn get(self) -> i64;
    fn put(v: i64) -> Self;
}

impl DpValue for i32 {
    #[inline]
    fn get(self) -> i64 {
        i64::from(self)
    }
    #[inline]
    fn put(v: i64) -> Self {
        v as i32 // in range: |v| <= Board::value_bound() <= i32::MAX
    }
}

impl DpValue for i64 {
    #[inline]
    fn get(self) -> i64 {
        self
    }
    #[inline]
    fn put(v: i64) -> Self {
        v
    }
}

/// Inversions of a half-path: pairs (0 bit below a 1 bit).
fn inversions(p: u64) -> usize {
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
struct Ranker {
    n: usize,
    m: usize,
    /// Width of the low half `L`.
    h: usize,
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
    stride: usize,
}

impl Ranker {
    fn new(n: usize, m: usize) -> Result<Self, DpError> {
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
        let stride = h * h / 4 + 1;
        Ok(Ranker { n, m, h, h2, rank, patterns, class_start, cls_base, cnt_l, cnt_r, stride })
    }

    /// Size of class (ones, inv) among `h`-bit patterns; 0 outside the valid range.
    #[inline]
    fn count_l(&self, ones: usize, inv: usize) -> usize {
        if ones > self.h || inv > ones * (self.h - ones) {
            0
        } else {
            self.cnt_l[self.cls_base[ones] + inv]
        }
    }

    /// Size of class (ones, inv) among `h2`-bit patterns; 0 outside the valid range.
    #[inline]
    fn count_r(&self, ones: usize, inv: usize) -> usize {
        if ones > self.h2 || inv > ones * (self.h2 - ones) {
            0
        } else {
            self.cnt_r[self.cls_base[ones] + inv]
        }
    }

    /// The `(a, iL)` blocks of layer `k`, in layout order: `(a, iL, iR)`.
    fn blocks(&self, k: usize) -> Vec<(usize, usize, usize)> {
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
    fn layer_offsets(&self, k: usize) -> (Vec<usize>, usize) {
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
    fn index(&self, path: u64, off: &[usize]) -> usize {
        let l = path & low_bits(self.h);
        let r = path >> self.h;
        let a = l.count_ones() as usize;
        let (il, ir) = (inversions(l), inversions(r));
        off[a * self.stride + il]
            + self.rank[l as usize] as usize * self.count_r(self.n - a, ir)
            + self.rank[r as usize] as usize
    }

    /// Values one row of layer `k`: block `(a, iL, iR)`, low half of rank `rl`, every high half
    /// `R` of class `(n - a, iR)` in order, into `out`. `next` is layer `k + 1` with offsets
    /// `off1`; `gain` is the mover's value matrix.
    #[allow(clippy::too_many_arguments)]
    fn fill_row<V: DpValue>(
        &self,
        (a, il, ir): (usize, usize, usize),
        rl: usize,
        out: &mut [V],
        next: &[V],
        off1: &[usize],
        gain: &[i64],
    ) {
        let (n, m, h, h2) = (self.n, self.m, self.h, self.h2);
        let b = n - a;
        let lpat = u64::from(self.patterns[self.class_start[self.cls_base[a] + il] + rl]);
        let r_start = self.class_start[self.cls_base[b] + ir];
        let rcount = self.count_r(b, ir);
        debug_assert_eq!(out.len(), rcount);

        // Moves inside L: same R, next row at rank(L') of block (a, iL + 1), same class of R.
        let mut lmoves = [(0i64, 0usize); 32];
        let mut nl = 0;
        let mut mask = lpat & !(lpat >> 1) & low_bits(h.saturating_sub(1));
        while mask != 0 {
            let t = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let l2 = lpat ^ (0b11 << t);
            let below = (lpat & low_bits(t)).count_ones() as usize;
            let (row, col) = (n - 1 - below, t - below);
            let base = off1[a * self.stride + il + 1] + self.rank[l2 as usize] as usize * rcount;
            lmoves[nl] = (gain[row * m + col], base);
            nl += 1;
        }
        let lmoves = &lmoves[..nl];

        // The move across the middle (bits h-1, h = 1, 0): L loses its top one, R gains a one
        // at bit 0. Possible only if R's bit 0 is a zero, which then precedes R's b ones.
        let cross = if h >= 1 && lpat >> (h - 1) & 1 == 1 && ir >= b {
            let o = off1[(a - 1) * self.stride + il - (h - a)];
            let l2 = lpat ^ (1 << (h - 1));
            let (row, col) = (n - a, h - a);
            // An empty target block means no R of this class has a zero at bit 0.
            (o != usize::MAX).then(|| {
                (gain[row * m + col], o + self.rank[l2 as usize] as usize * self.count_r(b + 1, ir - b))
            })
        } else {
            None
        };

        // Moves inside R: same L, row rl of block (a, iL) of layer k + 1, class (b, iR + 1).
        let o = off1[a * self.stride + il];
        let rbase = if o != usize::MAX { o + rl * self.count_r(b, ir + 1) } else { 0 };
        let rmask_all = low_bits(h2.saturating_sub(1));

        for (rr, slot) in out.iter_mut().enumerate() {
            let rpat = u64::from(self.patterns[r_start + rr]);
            let mut best = i64::MIN;
            for &(g, base) in lmoves {
                best = best.max(g - next[base + rr].get());
            }
            if let Some((g, base)) = cross {
                if rpat & 1 == 0 {
                    best = best.max(g - next[base + self.rank[(rpat | 1) as usize] as usize].get());
                }
            }
            let mut mask = rpat & !(rpat >> 1) & rmask_all;
            while mask != 0 {
                let u = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let r2 = rpat ^ (0b11 << u);
                let below = a + (rpat & low_bits(u)).count_ones() as usize;
                let (row, col) = (n - 1 - below, h + u - below);
                best = best.max(gain[row * m + col] - next[rbase + self.rank[r2 as usize] as usize].get());
            }
            debug_assert!(best > i64::MIN, "a non-full staircase has a move");
            *slot = V::put(best);
        }
    }
}

/// One unit of parallel work: consecutive rows of one block.
struct Task<'a, V> {
    block: (usize, usize, usize),
    first_row: usize,
    out: &'a mut [V],
}

/// Runs the DP from the full board down to the empty one. Returns the empty board's value and,
/// if `keep`, every layer (index `k`).
fn run<V: DpValue>(
    ranker: &Ranker,
    board: &Board,
    keep: bool,
    progress: &mut dyn FnMut(u64, u64),
) -> (i64, Vec<Vec<V>>) {
    let (n, m) = (board.rows(), board.cols());
    let cells = n * m;
    let total = u64::try_from(staircase_count(n, m)).unwrap_or(u64::MAX);
    let parallel = staircase_count(n, m) >= PARALLEL_STATES;
    let max_layer = layer_sizes(n, m).into_iter().max().unwrap_or(1) as usize;
    let mut kept: Vec<Vec<V>> = Vec::new();
    let (mut next, mut cur): (Vec<V>, Vec<V>) = if keep {
        (vec![V::default(); 1], Vec::new())
    } else {
        (vec![V::default(); max_layer], vec![V::default(); max_layer])
    };
    // Layer n*m: the full board, value 0.
    next[0] = V::put(0);
    let (mut off1, _) = ranker.layer_offsets(cells);
    let mut done = 1u64;
    progress(done, total);
    for k in (0..cells).rev() {
        let (off0, size) = ranker.layer_offsets(k);
        if keep {
            cur = vec![V::default(); size];
        }
        let gain = if k % 2 == 0 { board.a_values() } else { board.b_values() };
        let mut tasks = Vec::new();
        let mut rest = &mut cur[..size];
        let min_states = if parallel { 1 << 14 } else { usize::MAX };
        for block in ranker.blocks(k) {
            let (a, il, ir) = block;
            let rows = ranker.count_l(a, il);
            let width = ranker.count_r(n - a, ir);
            let per_task = (min_states / width).clamp(1, rows);
            let mut r = 0;
            while r < rows {
                let nrows = per_task.min(rows - r);
                let (head, tail) = std::mem::take(&mut rest).split_at_mut(nrows * width);
                tasks.push(Task { block, first_row: r, out: head });
                rest = tail;
                r += nrows;
            }
        }
        let next_ref = if keep { kept.last().map_or(&next[..], |l| &l[..]) } else { &next[..] };
        let work = |task: Task<'_, V>| {
            let width = ranker.count_r(n - task.block.0, task.block.2);
            for (i, row) in task.out.chunks_mut(width).enumerate() {
                ranker.fill_row(task.block, task.first_row + i, row, next_ref, &off1, gain);
            }
        };
        if parallel {
            tasks.into_par_iter().for_each(work);
        } else {
            tasks.into_iter().for_each(work);
        }
        if keep {
            if kept.is_empty() {
                kept.push(std::mem::take(&mut next));
            }
            kept.push(std::mem::take(&mut cur));
        } else {
            std::mem::swap(&mut cur, &mut next);
        }
        off1 = off0;
        done += size as u64;
        progress(done, total);
    }
    let root = if keep { kept.last().expect("layer 0")[0] } else { next[0] };
    if keep {
        kept.reverse();
    }
    (root.get(), kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(staircase_count(10, 10), 184_756);
        assert_eq!(staircase_count(16, 16), 601_080_390);
        assert_eq!(staircase_count(1, 7), 8);
        for (n, m) in [(1, 1), (2, 3), (4, 4), (5, 7), (10, 10)] {
            let sizes = layer_sizes(n, m);
            assert_eq!(sizes.len(), n * m + 1);
            assert_eq!(sizes.iter().sum::<u128>(), staircase_count(n, m));
            let r = Ranker::new(n, m).unwrap();
            for (k, &s) in sizes.iter().enumerate() {
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
        }
    }
}
