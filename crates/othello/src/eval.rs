//! Move ordering far from the end: a static evaluation of a position (on 8x8, seven global
//! terms — mobility, corners, the squares next to empty corners, frontier, discs, potential
//! mobility — and the edge, corner and line patterns of [`crate::pattern_features`], all fitted
//! to exact scores) and a shallow alpha-beta search over it. [`crate::Othello`]'s move
//! ordering sorts the moves of positions with many empties by the shallow search's value of
//! each; no value the engine proves depends on it.

use arrayvec::ArrayVec;

use crate::position::final_score;
use crate::{Geometry, Position};

/// The evaluation's unit: one disc of the final score is worth this much in the scale of
/// [`EVAL_WEIGHTS`] (a finished game found by the ordering's shallow search scores its disc
/// difference times this).
pub const DISC: i32 = 64;

/// The diagonal neighbours of `b`'s squares (the X-squares of corners).
#[inline]
fn diagonal_neighbours(g: &Geometry, b: u64) -> u64 {
    let mut n = 0;
    for d in 4..8 {
        n |= g.shift(b, d);
    }
    n
}

/// How many terms [`evaluation_terms`] gives.
pub const EVAL_TERMS: usize = 7;

/// The weights of [`evaluation_terms`] in the 8x8 evaluation, in its units ([`DISC`] = 64 a
/// disc of the final score, scaled so that a point of mobility is worth 16): fitted by least
/// squares to the exact scores of 108,000 positions of 12 to 20 empties played out from the
/// FFO positions (`cargo run --release -p othello-solver --example fit_eval` prints them).
pub const EVAL_WEIGHTS: [i32; EVAL_TERMS] = [16, 90, -36, -15, -10, 2, -9];

/// The 8x8 evaluation counts the patterns' fitted weights divided by this: at their full
/// weight they make a better predictor of the exact score (a correlation of 0.91 on 12,000
/// held-out positions, against 0.82 for the seven terms alone) but a worse move order, which
/// wants the moves that leave the opponent few replies first; at half, the FFO positions'
/// solves take fewer nodes (one thread, FFO 40-46 562 M against 679 M for the seven terms
/// alone, 775 M at full weight; FFO 47-52 2.31 G against 2.84 G).
pub const PATTERN_DIVISOR: i32 = 2;

/// The terms of the evaluation of `pos` for its side to move, each the side to move's count
/// less the opponent's: mobility (moves to corners counted twice), corners held, discs on
/// the X-squares of empty corners (their diagonal neighbours, which give the corner away),
/// discs on their C-squares (the edge neighbours), frontier discs (next to an empty square),
/// discs, and potential mobility (empty squares next to the other side's discs, the
/// opponent's counted for the side to move). Any board size.
#[must_use]
pub fn evaluation_terms(pos: &Position) -> [i32; EVAL_TERMS] {
    terms(pos.geometry(), pos.player().0, pos.opponent().0)
}

/// [`evaluation_terms`] for the side with discs `p` against `o`.
#[inline]
fn terms(g: &Geometry, p: u64, o: u64) -> [i32; EVAL_TERMS] {
    let diff = |b: u64| (p & b).count_ones() as i32 - (o & b).count_ones() as i32;
    let corners = g.corners().0;
    let empty = g.board().0 & !(p | o);
    let (mp, mo) = (g.moves(p, o), g.moves(o, p));
    let mobility = (mp.count_ones() + (mp & corners).count_ones()) as i32
        - (mo.count_ones() + (mo & corners).count_ones()) as i32;
    let open = corners & empty;
    let c_squares = (0..4).fold(0, |n, d| n | g.shift(open, d));
    let potential =
        (g.neighbours(o) & empty).count_ones() as i32 - (g.neighbours(p) & empty).count_ones() as i32;
    [
        mobility,
        diff(corners),
        diff(diagonal_neighbours(g, open)),
        diff(c_squares),
        diff(g.neighbours(empty)),
        diff(g.board().0),
        potential,
    ]
}

/// A heuristic value of the position for the side to move (`p` its discs, `o` the
/// opponent's), in [`DISC`] units of an expected final disc difference, scaled as
/// [`EVAL_WEIGHTS`]. On 8x8, [`EVAL_WEIGHTS`] times [`evaluation_terms`] plus the patterns
/// ([`crate::pattern_evaluation`] with the crate's weights) divided by [`PATTERN_DIVISOR`];
/// on the smaller boards (whose solves were tuned with it) the first three terms weighted 16,
/// 48 and -24.
#[inline]
pub(crate) fn evaluate(g: &Geometry, p: u64, o: u64) -> i32 {
    if g.size() == 8 {
        let t = terms(g, p, o);
        return t.iter().zip(EVAL_WEIGHTS).map(|(&t, w)| t * w).sum::<i32>()
            + crate::patterns::patterns(p, o) / PATTERN_DIVISOR;
    }
    let corners = g.corners().0;
    let empty = g.board().0 & !(p | o);
    let (mp, mo) = (g.moves(p, o), g.moves(o, p));
    let mobility = (mp.count_ones() + (mp & corners).count_ones()) as i32
        - (mo.count_ones() + (mo & corners).count_ones()) as i32;
    let held = (p & corners).count_ones() as i32 - (o & corners).count_ones() as i32;
    let x_squares = diagonal_neighbours(g, corners & empty);
    let exposed = (p & x_squares).count_ones() as i32 - (o & x_squares).count_ones() as i32;
    16 * mobility + 48 * held - 24 * exposed
}

/// From this many plies left on, [`shallow_value`] searches the moves fewest replies first
/// (below, in square order: sorting costs more than it saves there).
const SORTED_DEPTH: u32 = 3;

/// The negamax value, `depth` plies deep, of [`evaluate`] for the side with `p` against
/// `o`, fail-soft in `(alpha, beta)`; a finished game is worth its final score in [`DISC`]
/// units. `passed`: the opponent has just passed.
pub(crate) fn shallow_value(
    g: &Geometry,
    p: u64,
    o: u64,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    passed: bool,
) -> i32 {
    if depth == 0 {
        return evaluate(g, p, o);
    }
    let mut rest = g.moves(p, o);
    if rest == 0 {
        if passed || g.moves(o, p) == 0 {
            return final_score(p, o, g.squares()) as i32 * DISC;
        }
        return -shallow_value(g, o, p, depth, -beta, -alpha, true);
    }
    let mut best = i32::MIN + 1;
    if depth >= SORTED_DEPTH {
        // The children first, fewest replies first (corner replies twice), for more cut-offs.
        let mut children = ArrayVec::<(u32, u64, u64), 64>::new();
        while rest != 0 {
            let sq = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let f = g.flips(p, o, sq);
            let (cp, co) = (o ^ f, p | f | 1 << sq);
            let r = g.moves(cp, co);
            children.push((r.count_ones() + (r & g.corners().0).count_ones(), cp, co));
        }
        children.sort_unstable_by_key(|c| c.0);
        for &(_, cp, co) in children.iter() {
            let v = -shallow_value(g, cp, co, depth - 1, -beta, -alpha, false);
            if raise(v, &mut best, &mut alpha, beta) {
                break;
            }
        }
        return best;
    }
    while rest != 0 {
        let sq = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let f = g.flips(p, o, sq);
        let v = -shallow_value(g, o ^ f, p | f | 1 << sq, depth - 1, -beta, -alpha, false);
        if raise(v, &mut best, &mut alpha, beta) {
            break;
        }
    }
    best
}

/// Negamax's step after a move's value `v`: `best` and `alpha` raised to it; whether it
/// reaches `beta` (a cut-off).
#[inline(always)]
fn raise(v: i32, best: &mut i32, alpha: &mut i32, beta: i32) -> bool {
    if v > *best {
        *best = v;
        if v > *alpha {
            *alpha = v;
            return v >= beta;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::Position;

    /// Deep enough to reach the end everywhere, the shallow search is the exact negamax:
    /// [`crate::solve_endgame`]'s value in [`DISC`] units, whatever the evaluation says.
    #[test]
    fn a_shallow_search_to_the_end_is_the_exact_value() {
        let mut rng = SmallRng::seed_from_u64(12);
        for size in [4, 6, 8] {
            let g = Geometry::new(size).unwrap();
            let mut checked = 0;
            while checked < 200 {
                let mut pos = Position::start(g);
                let stop = rng.gen_range(1..7);
                while pos.empty().count() > stop && !pos.is_over() {
                    let moves = pos.legal_moves();
                    pos = pos.play(moves[rng.gen_range(0..moves.len())]);
                }
                let (p, o) = (pos.player().0, pos.opponent().0);
                let mut nodes = 0;
                let exact = crate::solve_endgame(&pos, -100, 100, &mut nodes) as i32;
                // One more than the moves left: no leaf is cut off before the end.
                let depth = pos.empty().count() + 1;
                assert_eq!(
                    shallow_value(g, p, o, depth, -i32::MAX, i32::MAX, false),
                    exact * DISC,
                    "{pos:?}"
                );
                checked += 1;
            }
        }
    }

    /// The evaluation is antisymmetric in the two sides' discs (what one side gains the other
    /// loses), so that negamax over it is consistent.
    #[test]
    fn the_evaluation_is_antisymmetric() {
        let mut rng = SmallRng::seed_from_u64(13);
        let g = Geometry::standard();
        for _ in 0..500 {
            let mut pos = Position::start(g);
            for _ in 0..rng.gen_range(0..60) {
                if pos.is_over() {
                    break;
                }
                let moves = pos.legal_moves();
                pos = pos.play(moves[rng.gen_range(0..moves.len())]);
            }
            let (p, o) = (pos.player().0, pos.opponent().0);
            assert_eq!(evaluate(g, p, o), -evaluate(g, o, p));
            assert_eq!(terms(g, p, o), terms(g, o, p).map(|t| -t));
        }
    }
}
