//! The layer loop: values layer `k` from layer `k + 1`, one block row at a time, rows shared
//! among threads with rayon.
//!
//! A row of block `(a, iL, iR)` holds the staircases with one low half `L` and every high half
//! `R` of class `(n - a, iR)`. Its moves are of three kinds (see [`super::ranker`]):
//! - inside `R`: the successors lie in one row of layer `k + 1`, at ranks read from the
//!   precomputed successor lists of the class (shared by every row of the block);
//! - across the middle: one row of another block, at the rank of `R | 1` (also precomputed);
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

/// Moves inside `R` for two rows at once: `out0`/`out1` take the maximum with
/// `gain - next_row[succ]` over every slot; `gains[j][rr]` is the cell value of move `j` of the
/// `rr`-th high half (decoded once per task).
fn r_moves_pair<V: DpValue>(
    slots: &[(&[u32], Vec<V>)],
    (out0, next0): (&mut [V], &[V]),
    (out1, next1): (&mut [V], &[V]),
) {
    for (succ, gains) in slots {
        for (((o0, o1), &s), &g) in out0.iter_mut().zip(out1.iter_mut()).zip(succ.iter()).zip(gains) {
            let s = s as usize;
            *o0 = (*o0).max(g - next0[s]);
            *o1 = (*o1).max(g - next1[s]);
        }
    }
}

/// [`r_moves_pair`] for one row.
fn r_moves_one<V: DpValue>(slots: &[(&[u32], Vec<V>)], out: &mut [V], next: &[V]) {
    for (succ, gains) in slots {
        for ((o, &s), &g) in out.iter_mut().zip(succ.iter()).zip(gains) {
            *o = (*o).max(g - next[s as usize]);
        }
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
    let slots: Vec<(&[u32], Vec<V>)> = ranker
        .r_slots(b, ir)
        .map(|(succ, cell)| (succ, cell.iter().map(|&c| gb[c as usize]).collect()))
        .collect();
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

    task.out.fill(V::MIN);
    // Moves inside R: one branch-free pass per slot, two rows at a time (the slot data is read
    // once for both).
    if r_block != usize::MAX {
        let last_row = task.first_row + task.out.len() / rcount - 1;
        let mut pairs = task.out.chunks_exact_mut(2 * rcount);
        for (i, pair) in pairs.by_ref().enumerate() {
            let rl = task.first_row + 2 * i;
            let (out0, out1) = pair.split_at_mut(rcount);
            r_moves_pair(&slots, (out0, r_row(rl)), (out1, r_row(rl + 1)));
        }
        let last = pairs.into_remainder();
        if !last.is_empty() {
            r_moves_one(&slots, last, r_row(last_row));
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
