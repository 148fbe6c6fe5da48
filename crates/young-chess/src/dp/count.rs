//! Counting staircases (per board and per layer) and the memory the DP needs, without
//! allocating anything: callers compare these with the memory available before solving.

use super::error::MAX_DP_SIDE_SUM;
use super::ranker::Ranker;
use crate::Board;

/// Bytes a [`crate::Memo`] uses per staircase it stores (hash-map entry with its overhead).
const MEMO_BYTES_PER_STATE: u128 = 64;

/// Fixed overhead assumed for small allocations (offset tables, vectors of blocks, rayon).
const FIXED_OVERHEAD_BYTES: u128 = 1 << 20;

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

/// Whether values of `board` need 64-bit storage in the DP (else 32-bit: every margin, and
/// every candidate `gain - value(successor)`, is at most [`Board::value_bound`] in absolute
/// value, so `i32` arithmetic cannot overflow).
pub(super) fn wide(board: &Board) -> bool {
    board.value_bound() > i64::from(i32::MAX)
}

/// Bytes of a value of `board` in a DP layer: 4, or 8 if [`wide`].
fn value_bytes(board: &Board) -> u128 {
    if wide(board) {
        8
    } else {
        4
    }
}

/// Bytes of a [`crate::Memo`] holding every staircase of an `n x m` board.
fn memo_bytes(n: usize, m: usize) -> u128 {
    staircase_count(n, m).saturating_mul(MEMO_BYTES_PER_STATE).saturating_add(FIXED_OVERHEAD_BYTES)
}

/// Bytes of the half-path tables (with successor lists) for an `n x m` board, plus overhead.
fn table_bytes(n: usize, m: usize) -> u128 {
    Ranker::table_bytes(n, m) as u128 + FIXED_OVERHEAD_BYTES
}

/// Peak memory in bytes that [`super::solve`] needs for `board`, computed without allocating:
/// two DP layers (each as large as the largest layer) of 4-byte values (8-byte if
/// [`Board::value_bound`] exceeds `i32::MAX`) plus the half-path tables; or, for
/// `n + m > MAX_DP_SIDE_SUM`, a hash memo of every staircase ([`crate::Memo`]).
#[must_use]
pub fn memory_estimate(board: &Board) -> u128 {
    let (n, m) = (board.rows(), board.cols());
    if n + m > MAX_DP_SIDE_SUM {
        return memo_bytes(n, m);
    }
    let max_layer = layer_sizes(n, m).into_iter().max().unwrap_or(1);
    max_layer.saturating_mul(2 * value_bytes(board)).saturating_add(table_bytes(n, m))
}

/// Memory in bytes that [`crate::analyze_start`] needs for `board`, computed without
/// allocating: a [`super::DpTable`] (every layer kept) or, for `n + m > MAX_DP_SIDE_SUM`, a
/// [`crate::Memo`] of every staircase.
#[must_use]
pub fn table_memory_estimate(board: &Board) -> u128 {
    let (n, m) = (board.rows(), board.cols());
    if n + m > MAX_DP_SIDE_SUM {
        return memo_bytes(n, m);
    }
    staircase_count(n, m).saturating_mul(value_bytes(board)).saturating_add(table_bytes(n, m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(staircase_count(10, 10), 184_756);
        assert_eq!(staircase_count(16, 16), 601_080_390);
        assert_eq!(staircase_count(20, 20), 137_846_528_820);
        assert_eq!(staircase_count(1, 7), 8);
        assert_eq!(layer_sizes(20, 20).into_iter().max(), Some(1_470_597_342));
        for (n, m) in [(1, 1), (2, 3), (4, 4), (5, 7), (10, 10)] {
            let sizes = layer_sizes(n, m);
            assert_eq!(sizes.len(), n * m + 1);
            assert_eq!(sizes.iter().sum::<u128>(), staircase_count(n, m));
        }
    }

    #[test]
    fn twenty_by_twenty_fits_in_twelve_gib() {
        let board = Board::new(20, 20, vec![100_000; 400], vec![100_000; 400]).unwrap();
        assert!(!wide(&board));
        let need = memory_estimate(&board);
        assert!(need < 12 << 30, "{need} bytes");
        assert!(need > 2 * 4 * 1_470_597_342, "{need} bytes");
    }
}
