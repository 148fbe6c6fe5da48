//! The layer loop: values layer `k` from layer `k + 1`, block by block, rows shared among
//! threads with rayon (tasks of whole rows of one block).
//!
//! A row of block `(a, iL, iR)` holds the staircases with one low half `L` and every high half
//! `R` of class `(n - a, iR)` (the columns). Its moves are of three kinds (see
//! [`super::ranker`]):
//! - inside `R`: the successors lie in one row of layer `k + 1`, at ranks read from the class's
//!   precomputed slots (shared by every row of the block). Columns are grouped by their number
//!   of moves; each group runs a fixed-shape loop, two rows at a time, so one read of the slot
//!   data serves two rows. This gather is the bulk of the time;
//! - across the middle: one row of another block, at the rank of `R | 1` (a precomputed list);
//! - inside `L`: a whole row of block `(a, iL + 1)` of layer `k + 1`, in the same column order,
//!   so the update is an element-wise `max(out, gain - next_row)` that the compiler vectorises.

use std::ops::Sub;

use rayon::prelude::*;

use super::count::{layer_sizes, staircase_count};
use super::ranker::Ranker;
use crate::staircase::low_bits;
use crate::Board;

/// Boards with at least this many staircases are solved with rayon across all cores.
const PARALLEL_STATES: u128 = 1 << 20;

/// A parallel task holds at least this many staircases (whole rows of one block), so that
/// rayon's scheduling cost stays small against the work.
const MIN_TASK_STATES: usize = 1 << 14;

/// A DP cell value: `i32` when the board's values allow (see [`super::count`]'s `wide`), else
/// `i64`. Arithmetic happens in the same type: `gain - value(successor)` is a margin of some
/// line of play, bounded by [`Board::value_bound`], so it cannot overflow.
pub(super) trait DpValue: Copy + Send + Sync + Default + Ord + Sub<Output = Self> {
    /// Smaller than every margin: the starting point of a maximum.
    const MIN: Self;
    fn get(self) -> i64;
    /// `v` in this type; `v` is a cell value or margin, within the board's value bound.
    fn put(v: i64) -> Self;
}

impl DpValue for i32 {
    const MIN: Self = i32::MIN;
    #[inline]
    fn get(self) -> i64 {
        i64::from(self)
    }
    #[inline]
    fn put(v: i64) -> Self {
        i32::try_from(v).expect("value within the board's value bound, below i32::MAX")
    }
}

impl DpValue for i64 {
    const MIN: Self = i64::MIN;
    #[inline]
    fn get(self) -> i64 {
        self
    }
    #[inline]
    fn put(v: i64) -> Self {
        v
    }
}

/// The mover's cell values in the DP's value type, with `n * (m + 1)` leading zeros so that the
/// packed cell bases of [`Ranker`]'s successor lists index it directly: for a low half with `a`
/// ones, `gains.shifted(a)[c0]` is the value of cell `c0 - a * (m + 1)`.
struct Gains<V> {
    padded: Vec<V>,
    /// Length of the zero prefix: `n * (m + 1)`.
    pad: usize,
    m: usize,
}

impl<V: DpValue> Gains<V> {
    fn new(values: &[i64], n: usize, m: usize) -> Self {
        let pad = n * (m + 1);
        let mut padded = vec![V::default(); pad];
        padded.extend(values.iter().map(|&v| V::put(v)));
        Gains { padded, pad, m }
    }

    /// Value of cell `(row, col)`.
    #[inline]
    fn at(&self, row: usize, col: usize) -> V {
        self.padded[self.pad + row * self.m + col]
    }

    /// The table indexed by packed cell bases, for a low half with `a` ones.
    #[inline]
    fn shifted(&self, a: usize) -> &[V] {
        &self.padded[self.pad - a * (self.m + 1)..]
    }
}

/// One unit of parallel work: consecutive rows of one block.
struct Task<'a, V> {
    block: (usize, usize, usize),
    first_row: usize,
    out: &'a mut [V],
}

/// The slots of moves inside `R` of one class, with cell values decoded for one block: slot
/// `j` holds, for the first `len_j` ranks (`len_0 >= len_1 >= ...`), the successor rank and the
/// gain of the `j`-th move.
struct Slots<'a, V> {
    succ: Vec<&'a [u32]>,
    gain: Vec<Vec<V>>,
}

impl<V: DpValue> Slots<'_, V> {
    /// Writes the best move inside `R` of every column of two rows (`V::MIN` where there is
    /// none): `out[rr] = max over moves of gain - next_row[succ]`. Columns are grouped by their
    /// number of moves `j` (ranks `len_j..len_(j-1)`), so each group runs a loop of fixed shape
    /// that keeps the maxima in registers; groups of up to 6 moves (all but a few high halves of
    /// 12 bits and more) are unrolled at compile time.
    fn pair(&self, out: [&mut [V]; 2], next: [&[V]; 2]) {
        let [out0, out1] = out;
        let with_moves = self.succ.first().map_or(0, |s| s.len());
        out0[with_moves..].fill(V::MIN);
        out1[with_moves..].fill(V::MIN);
        for j in 1..=self.succ.len() {
            let lo = self.succ.get(j).map_or(0, |s| s.len());
            let hi = self.succ[j - 1].len();
            let (o0, o1) = (&mut out0[lo..hi], &mut out1[lo..hi]);
            match j {
                1 => self.group::<1>(lo, [o0, o1], next),
                2 => self.group::<2>(lo, [o0, o1], next),
                3 => self.group::<3>(lo, [o0, o1], next),
                4 => self.group::<4>(lo, [o0, o1], next),
                5 => self.group::<5>(lo, [o0, o1], next),
                6 => self.group::<6>(lo, [o0, o1], next),
                _ => self.group_generic(j, lo, [o0, o1], next),
            }
        }
    }

    /// Columns `lo..lo + out[0].len()`, each with exactly `J` moves.
    #[inline]
    fn group<const J: usize>(&self, lo: usize, out: [&mut [V]; 2], next: [&[V]; 2]) {
        let hi = lo + out[0].len();
        let succ: [&[u32]; J] = std::array::from_fn(|s| &self.succ[s][lo..hi]);
        let gain: [&[V]; J] = std::array::from_fn(|s| &self.gain[s][lo..hi]);
        let [out0, out1] = out;
        for (i, (o0, o1)) in out0.iter_mut().zip(out1.iter_mut()).enumerate() {
            let (mut b0, mut b1) = (V::MIN, V::MIN);
            for s in 0..J {
                let (x, g) = (succ[s][i] as usize, gain[s][i]);
                b0 = b0.max(g - next[0][x]);
                b1 = b1.max(g - next[1][x]);
            }
            *o0 = b0;
            *o1 = b1;
        }
    }

    /// [`Self::group`] for any number of moves `j`.
    fn group_generic(&self, j: usize, lo: usize, out: [&mut [V]; 2], next: [&[V]; 2]) {
        let [out0, out1] = out;
        for (i, (o0, o1)) in out0.iter_mut().zip(out1.iter_mut()).enumerate() {
            let (mut b0, mut b1) = (V::MIN, V::MIN);
            for s in 0..j {
                let (x, g) = (self.succ[s][lo + i] as usize, self.gain[s][lo + i]);
                b0 = b0.max(g - next[0][x]);
                b1 = b1.max(g - next[1][x]);
            }
            *o0 = b0;
            *o1 = b1;
        }
    }

    /// [`Self::pair`] for a single row (the second row's output is discarded).
    fn one(&self, out: &mut [V], next: &[V], scratch: &mut Vec<V>) {
        scratch.clear();
        scratch.resize(out.len(), V::MIN);
        self.pair([out, scratch], [next, next]);
    }
}

/// Values the rows `task.first_row..` of block `task.block` of layer `k` into `task.out`.
/// `next` is layer `k + 1` with block offsets `off1`.
fn fill_rows<V: DpValue>(ranker: &Ranker, task: Task<'_, V>, next: &[V], off1: &[usize], gains: &Gains<V>) {
    let (n, h, stride) = (ranker.n, ranker.h, ranker.stride);
    let (a, il, ir) = task.block;
    let b = n - a;
    let rcount = ranker.count_r(b, ir);
    let gb = gains.shifted(a);
    // The slots of moves inside R, with their cell values decoded for this block's `a`.
    let (succ, gain) = ranker
        .r_slots(b, ir)
        .map(|(succ, cell)| (succ, cell.iter().map(|&c| gb[c as usize]).collect()))
        .unzip();
    let slots = Slots { succ, gain };
    let cross_moves = ranker.cross_moves(b, ir);

    // Moves inside R land in row rl of block (a, iL) of layer k + 1 (class (b, iR + 1)).
    let r_width = ranker.count_r(b, ir + 1);
    let r_block = off1[a * stride + il];
    // The move across the middle (bits h-1, h = 1, 0) lands in block (a - 1, iL - (h - a)),
    // class (b + 1, iR - b) of R | 1; possible only if R's bit 0 is a zero, which then precedes
    // R's b ones (so iR >= b). An empty target block means no R of this class has one.
    let x_width = if ir >= b { ranker.count_r(b + 1, ir - b) } else { 0 };
    let x_block =
        if a >= 1 && ir >= b && il >= h - a { off1[(a - 1) * stride + il - (h - a)] } else { usize::MAX };
    let r_row = |rl: usize| &next[r_block + rl * r_width..][..r_width];

    // Moves inside R, two rows at a time (the slot data is read once for both).
    if r_block == usize::MAX {
        task.out.fill(V::MIN);
    } else {
        let last_row = task.first_row + task.out.len() / rcount - 1;
        let mut pairs = task.out.chunks_exact_mut(2 * rcount);
        for (i, pair) in pairs.by_ref().enumerate() {
            let rl = task.first_row + 2 * i;
            let (out0, out1) = pair.split_at_mut(rcount);
            slots.pair([out0, out1], [r_row(rl), r_row(rl + 1)]);
        }
        let last = pairs.into_remainder();
        if !last.is_empty() {
            slots.one(last, r_row(last_row), &mut Vec::new());
        }
    }

    for (i, out) in task.out.chunks_mut(rcount).enumerate() {
        let rl = task.first_row + i;
        let lpat = ranker.low_pattern(a, il, rl);

        // The move across the middle.
        if h >= 1 && lpat >> (h - 1) & 1 == 1 && x_block != usize::MAX {
            let l2 = lpat ^ (1 << (h - 1));
            let g = gains.at(n - a, h - a);
            let x_next = &next[x_block + ranker.rank_low(l2) * x_width..][..x_width];
            for &(rr, x) in cross_moves {
                let o = &mut out[rr as usize];
                *o = (*o).max(g - x_next[x as usize]);
            }
        }

        // Moves inside L: same R, next row at rank(L') of block (a, iL + 1), same class of R.
        let mut mask = lpat & !(lpat >> 1) & low_bits(h.saturating_sub(1));
        while mask != 0 {
            let t = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let l2 = lpat ^ (0b11 << t);
            let below = (lpat & low_bits(t)).count_ones() as usize;
            let g = gains.at(n - 1 - below, t - below);
            let base = off1[a * stride + il + 1] + ranker.rank_low(l2) * rcount;
            for (o, &x) in out.iter_mut().zip(&next[base..base + rcount]) {
                *o = (*o).max(g - x);
            }
        }
        debug_assert!(out.iter().all(|&v| v > V::MIN), "a non-full staircase has a move");
    }
}

/// Runs the DP from the full board down to the empty one. Returns the empty board's value and,
/// if `keep`, every layer (index `k`).
pub(super) fn run<V: DpValue>(
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
    let gains_black = Gains::<V>::new(board.a_values(), n, m);
    let gains_white = Gains::<V>::new(board.b_values(), n, m);
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
        let gains = if k % 2 == 0 { &gains_black } else { &gains_white };
        let mut tasks = Vec::new();
        let mut rest = &mut cur[..size];
        let min_states = if parallel { MIN_TASK_STATES } else { usize::MAX };
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
        let work = |task: Task<'_, V>| fill_rows(ranker, task, next_ref, &off1, gains);
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
    use crate::Memo;

    /// `Slots::pair` (every unrolled group and the generic one) against a plain maximum over
    /// each column's moves.
    #[test]
    fn slot_groups_take_the_maximum_of_each_columns_moves() {
        let mut seed = 12345u64;
        let mut rand = |k: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % k
        };
        // Columns with 10, 9, ..., 0 moves (three columns each); slot j covers those with more
        // than j moves.
        let moves: Vec<usize> = (0..=10).rev().flat_map(|j| [j; 3]).collect();
        let width = 40;
        let succ: Vec<Vec<u32>> =
            (0..10).map(|j| moves.iter().filter(|&&c| c > j).map(|_| rand(width) as u32).collect()).collect();
        let gain: Vec<Vec<i64>> =
            succ.iter().map(|s| s.iter().map(|_| rand(1000) as i64).collect()).collect();
        let next: Vec<Vec<i64>> =
            (0..2).map(|_| (0..width).map(|_| rand(5000) as i64 - 2500).collect()).collect();
        let slots = Slots { succ: succ.iter().map(Vec::as_slice).collect(), gain: gain.clone() };
        let (mut out0, mut out1) = (vec![7; moves.len()], vec![7; moves.len()]);
        slots.pair([&mut out0, &mut out1], [&next[0], &next[1]]);
        let mut single = vec![7; moves.len()];
        slots.one(&mut single, &next[1], &mut Vec::new());
        for (rr, &c) in moves.iter().enumerate() {
            for (row, out) in [(0, &out0), (1, &out1), (1, &single)] {
                let want =
                    (0..c).map(|j| gain[j][rr] - next[row][succ[j][rr] as usize]).max().unwrap_or(i64::MIN);
                assert_eq!(out[rr], want, "column {rr} ({c} moves), row {row}");
            }
        }
    }

    /// A board whose high halves have up to 7 moves (`n + m = 27`, 14-bit high halves), so the
    /// generic group runs: the DP against the memoised negamax.
    #[test]
    fn thin_board_with_long_high_halves_agrees_with_the_memo() {
        let (n, m) = (7, 20);
        let values = |mul: i64| (0..n * m).map(|i| (i as i64 * mul + 17) % 1009).collect::<Vec<i64>>();
        let board = Board::new(n, m, values(31), values(57)).unwrap();
        let ranker = Ranker::new(n, m).unwrap();
        let dp = run::<i32>(&ranker, &board, false, &mut |_, _| {}).0;
        assert_eq!(dp, Memo::new(&board).value(&board.start()));
        assert_eq!(run::<i64>(&ranker, &board, false, &mut |_, _| {}).0, dp);
    }
}
