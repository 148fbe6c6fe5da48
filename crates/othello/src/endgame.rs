//! The last few empties: a dedicated negamax over raw bitboards, with no engine overhead (no
//! shared TT, no move list on the heap), ordered by mobility from [`SORT_EMPTIES`] empties
//! and by parity below (squares of quadrants with an odd number of empties first), with a
//! small memo per thread from [`MEMO_EMPTIES`] empties. [`solve_endgame`] is exact for any
//! number of empties; [`crate::Othello`] calls it for the positions with at most
//! [`crate::ENDGAME_EMPTIES`] empties, where it is faster than the engine's search.

use std::cell::Cell;

use arrayvec::ArrayVec;
use search_core::Value;

use crate::position::final_score;
use crate::{Geometry, Position};

/// The exact score of `pos` for its side to move (final disc difference, empty squares to the
/// winner), fail-soft within `(alpha, beta)`: a result at most `alpha` is an upper bound, one
/// at least `beta` a lower bound, one in between exact. `nodes` counts the positions visited.
///
/// Meant for few empties (its memo is small and per thread: beyond a dozen empties its tree
/// grows about as the factorial of the empties). What it stores in this thread's memo is
/// proven for the very position stored, so a call never depends on earlier ones' windows.
#[must_use]
pub fn solve_endgame(pos: &Position, alpha: Value, beta: Value, nodes: &mut u64) -> Value {
    let g = pos.geometry();
    let (p, o) = (pos.player().0, pos.opponent().0);
    let empty = g.board().0 & !(p | o);
    let odd = g.odd_quadrants(empty);
    search(g, p, o, odd, alpha, beta, false, nodes)
}

/// The one-empty case: the square `sq` played by whoever can, or the board as it stands.
#[inline]
fn last_square(g: &Geometry, p: u64, o: u64, sq: u8, nodes: &mut u64) -> Value {
    let squares = g.squares();
    if squares == 64 {
        // Every other square is the mover's or the opponent's: the counts alone decide.
        let bit = 1u64 << sq;
        let n = crate::lines::last_flip_count(p & !bit, sq);
        if n != 0 {
            *nodes += 1;
            return 2 * Value::from(p.count_ones() + n + 1) - 64;
        }
        let n = crate::lines::last_flip_count(o & !bit, sq);
        if n != 0 {
            *nodes += 1;
            return 64 - 2 * Value::from(o.count_ones() + n + 1);
        }
        return final_score(p, o, squares);
    }
    // After a move on the last square the board is full: the score is the disc difference,
    // `2 (mover's discs + flips + 1) - squares`.
    let f = g.flips(p, o, sq);
    if f != 0 {
        *nodes += 1;
        return 2 * Value::from(p.count_ones() + f.count_ones() + 1) - Value::from(squares);
    }
    let f = g.flips(o, p, sq);
    if f != 0 {
        *nodes += 1;
        return Value::from(squares) - 2 * Value::from(o.count_ones() + f.count_ones() + 1);
    }
    final_score(p, o, squares)
}

/// [`search`] with the two empty squares of `empty` left (the opponent has not just passed),
/// the node counted: each move played, then the last square ([`last_square`]); `None` if the
/// side to move cannot play (the caller passes). Both squares are in one quadrant or in two
/// with one empty each: their parity is the same, and they are tried in square order, as
/// [`search`] would.
#[inline]
fn two_squares(g: &Geometry, p: u64, o: u64, empty: u64, beta: Value, nodes: &mut u64) -> Option<Value> {
    let first = empty.trailing_zeros() as u8;
    let second = (empty & (empty - 1)).trailing_zeros() as u8;
    let mut best = None;
    let f = g.flips(p, o, first);
    if f != 0 {
        *nodes += 1;
        let v = -last_square(g, o ^ f, p | f | 1 << first, second, nodes);
        if v >= beta {
            return Some(v);
        }
        best = Some(v);
    }
    let f = g.flips(p, o, second);
    if f != 0 {
        *nodes += 1;
        let v = -last_square(g, o ^ f, p | f | 1 << second, first, nodes);
        best = Some(best.map_or(v, |b: Value| b.max(v)));
    }
    best
}

/// From this many empties on, [`search`] tries the stability cut-off (with `s` of the
/// opponent's discs stable, the score is at most `n² - 2 s`) where alpha is at least
/// `2 e - 2` for `e` empties (6 at 4 empties, 8 at 5; from [`SORT_EMPTIES`] on,
/// `search_sorted` tries it from a quarter of the board). FFO 40-46: 15 % fewer nodes, 3 %
/// less time than without it below [`SORT_EMPTIES`]; from alpha 4 and 6, or 8 and 10, no
/// less time.
const STABILITY_FROM: u32 = 4;

/// The stability cut-off at a node where the side to move has `p` against `o`: with `s` of
/// the opponent's discs stable, the score is at most `n² - 2 s`; that bound if it is at most
/// `alpha` (a fail-low). Tried only where alpha is at least `from` and high enough for the
/// opponent's discs, all stable, to bring the bound down to it: counting the stable discs
/// costs more than a node of the last few empties.
#[inline(always)]
fn stability_cut(g: &Geometry, p: u64, o: u64, alpha: Value, from: Value) -> Option<Value> {
    let all = Value::from(g.squares());
    if alpha < from || alpha < all - 2 * Value::from(o.count_ones()) {
        return None;
    }
    let hi = all - 2 * Value::from(g.stable(o, p).count_ones());
    (hi <= alpha).then_some(hi)
}

/// From this many empties on, [`search`] orders moves by the opponent's mobility after them
/// (fewest replies first), then parity; below, by parity alone (cheaper than counting).
const SORT_EMPTIES: u32 = 6;

/// [`search`] at a node with `empties` empty squares, at least [`SORT_EMPTIES`]: the moves
/// played first, then searched by fewest replies, ties to squares of odd quadrants.
#[allow(clippy::too_many_arguments)]
fn search_sorted(
    g: &Geometry,
    p: u64,
    o: u64,
    odd: u64,
    empties: u32,
    mut alpha: Value,
    beta: Value,
    passed: bool,
    moves: Option<u64>,
    nodes: &mut u64,
) -> Value {
    // The stability cut-off from a quarter of the board.
    if let Some(hi) = stability_cut(g, p, o, alpha, Value::from(g.squares()) / 4) {
        return hi;
    }
    // The memo: a bound that settles the node, or the best move of an earlier search first.
    let slot = (empties >= MEMO_EMPTIES).then(|| position_slot(p, o, 0, MEMO_BITS));
    let mut hint = None;
    if let Some(slot) = slot {
        let e = MEMO.with(|m| m[slot].get());
        if e.player == p && e.opponent == o && usize::from(e.size) == g.size() {
            let (lower, upper) = (Value::from(e.lower), Value::from(e.upper));
            if lower >= beta || lower == upper {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            hint = Some(e.best);
        }
    }
    let alpha0 = alpha;
    // (key, child's player, child's opponent, child's odd quadrants), one per legal square.
    let mut children = ArrayVec::<(u32, u64, u64, u64, u64), 64>::new();
    let mut rest = moves.unwrap_or_else(|| g.moves(p, o));
    while rest != 0 {
        let sq = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let bit = 1u64 << sq;
        let f = g.flips(p, o, sq);
        let (cp, co) = (o ^ f, p | f | bit);
        let replies = g.moves(cp, co);
        let key =
            (replies.count_ones() + (replies & g.corners().0).count_ones()) * 2 + u32::from(odd & bit == 0);
        // The memo's move first; the square in the key's low bits, to know which was best.
        let key = if hint == Some(sq) { 0 } else { (key + 1) << 6 | u32::from(sq) };
        children.push((key, cp, co, odd ^ g.quadrant_of(sq), replies));
    }
    if children.is_empty() {
        return if passed {
            final_score(p, o, g.squares())
        } else {
            -search(g, o, p, odd, -beta, -alpha, true, nodes)
        };
    }
    children.sort_unstable_by_key(|c| c.0);
    let mut best = -search_core::INFINITY;
    let mut best_key = 0u32;
    for &(k, cp, co, codd, replies) in children.iter() {
        let v = if empties > SORT_EMPTIES {
            // The child's moves are known: `search`'s node, then its sorted search.
            *nodes += 1;
            -search_sorted(g, cp, co, codd, empties - 1, -beta, -alpha, false, Some(replies), nodes)
        } else {
            -search(g, cp, co, codd, -beta, -alpha, false, nodes)
        };
        if v > best {
            best = v;
            best_key = k;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    if let Some(slot) = slot {
        let best_square = if best_key == 0 { hint.unwrap_or(0) } else { (best_key & 63) as u8 };
        // Fail-soft: at most the window's low end an upper bound, at least its high end a
        // lower bound, in between exact (-127 and 127: no bound).
        let (lower, upper) = if best <= alpha0 {
            (-127, best as i8)
        } else if best >= beta {
            (best as i8, 127)
        } else {
            (best as i8, best as i8)
        };
        let e = MemoEntry { player: p, opponent: o, size: g.size() as u8, lower, upper, best: best_square };
        MEMO.with(|m| m[slot].set(e));
    }
    best
}

/// From this many empties on, [`search_sorted`] keeps what it proves in this thread's memo
/// ([`MEMO`]) and looks there first: positions of the last empties meet again by
/// transposition, below the engine's TT. FFO 40-46 (one thread, TT 2^22, memo of 2^15
/// entries): from 7 empties 524 M nodes and 15.6 s, from 8 548 M and 15.7 s, from 6 481 M
/// and 15.7 s (2^18 entries), none 656 M and 17.3 s.
const MEMO_EMPTIES: u32 = 7;

/// The memo holds `2^MEMO_BITS` entries (24 bytes each: 1.5 MiB a thread). FFO 40-46, from 7
/// empties: 2^14 532 M nodes 15.3 s, 2^18 512 M 15.8 s, 2^20 506 M 18.0 s (the larger, the
/// more cache misses).
const MEMO_BITS: u32 = 16;

/// A position [`search_sorted`] searched: its discs, board side, bounds on its value for the
/// side to move, and the square of its best move (or of the move that cut).
#[derive(Clone, Copy, Default)]
struct MemoEntry {
    player: u64,
    opponent: u64,
    size: u8,
    lower: i8,
    upper: i8,
    best: u8,
}

thread_local! {
    /// This thread's memo: one entry per slot, the last position stored there kept. An entry
    /// is believed only for the very position it holds (both bitboards and the board side
    /// compared), so its bounds are proven whatever overwrote what.
    static MEMO: Box<[Cell<MemoEntry>]> = vec![Cell::new(MemoEntry::default()); 1 << MEMO_BITS].into_boxed_slice();
}

/// A slot among `2^bits` for the position with discs `p` to move against `o` and `salt`
/// (0, or what else the entry is keyed on): a multiplicative hash. The memo's slots
/// ([`MEMO`]) and the move orders' ([`crate::game`]'s table).
#[inline]
pub(crate) fn position_slot(p: u64, o: u64, salt: u64, bits: u32) -> usize {
    let h = (p.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ salt.wrapping_mul(0xD6E8_FEB8_6659_FD93))
    .rotate_left(29);
    (h.wrapping_mul(0x1656_67B1_9E37_79F9) >> (64 - bits)) as usize
}

/// Negamax with alpha-beta over the side to move's discs `p` and the opponent's `o`; `odd`:
/// the squares of the quadrants with an odd number of empties (kept along the moves: a move
/// flips its quadrant's parity); `passed`: the opponent has just passed (so no move here
/// ends the game).
#[allow(clippy::too_many_arguments)]
fn search(
    g: &Geometry,
    p: u64,
    o: u64,
    odd: u64,
    mut alpha: Value,
    beta: Value,
    passed: bool,
    nodes: &mut u64,
) -> Value {
    *nodes += 1;
    let empty = g.board().0 & !(p | o);
    if empty & (empty.wrapping_sub(1)) == 0 && empty != 0 && !passed {
        return last_square(g, p, o, empty.trailing_zeros() as u8, nodes);
    }
    let count = empty.count_ones();
    if count >= SORT_EMPTIES {
        return search_sorted(g, p, o, odd, count, alpha, beta, passed, None, nodes);
    }
    if count == 2 && !passed {
        if let Some(v) = two_squares(g, p, o, empty, beta, nodes) {
            return v;
        }
        return -search(g, o, p, odd, -beta, -alpha, true, nodes);
    }
    if count >= STABILITY_FROM {
        // The stability cut-off from a lower alpha than in `search_sorted`: here a node costs
        // little more than the stable discs' count, which is worth trying only where alpha
        // is within reach of a cut.
        if let Some(hi) = stability_cut(g, p, o, alpha, 2 * count as Value - 2) {
            return hi;
        }
    }
    let mut best = -search_core::INFINITY;
    let mut moved = false;
    for set in [empty & odd, empty & !odd] {
        let mut rest = set;
        while rest != 0 {
            let sq = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let f = g.flips(p, o, sq);
            if f == 0 {
                continue;
            }
            moved = true;
            let v = -search(g, o ^ f, p | f | 1 << sq, odd ^ g.quadrant_of(sq), -beta, -alpha, false, nodes);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        return best;
                    }
                }
            }
        }
    }
    if moved {
        best
    } else if passed {
        // Neither side can move: the game is over.
        final_score(p, o, g.squares())
    } else {
        -search(g, o, p, odd, -beta, -alpha, true, nodes)
    }
}
