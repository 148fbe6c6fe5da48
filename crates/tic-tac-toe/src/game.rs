//! [`MnkGame`]: the m,n,k-game as a [`search_core::Game`], under either [`Scoring`], with
//! precomputed lines, symmetry-canonical TT keys, cheap exact bounds and move ordering.

use search_core::{Game, Player, Value};

use crate::symmetry::BoardSymmetries;
use crate::{Bitboard, Cell, Geometry, Mark, Position};

/// How a finished game is scored (from the winner's side; the loser gets the negation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// `+1` for a win, `0` for a draw (UVa 10111).
    WinLoss,
    /// Number of empty cells `+ 1` for a win, `0` for a draw (CCF CSP 201803-4): a quicker win
    /// scores more.
    EmptyPlusOne,
}

/// Why a position cannot be solved by a given solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The position belongs to a board of another shape than the solver's.
    #[error("the position is for a {found}, the solver for a {expected}")]
    GeometryMismatch {
        /// The solver's geometry.
        expected: Geometry,
        /// The position's geometry.
        found: Geometry,
    },
}

/// The m,n,k-game of one [`Geometry`] under one [`Scoring`], for [`search_core::Engine`].
///
/// Values are from the side to move: a finished position lost by the side to move (the
/// opponent just completed a line) is worth `-1` ([`Scoring::WinLoss`]) or `-(empty + 1)`
/// ([`Scoring::EmptyPlusOne`]); a full board without a line is `0`. Moves bank no points.
///
/// - [`Game::key`]: the board canonicalised over the symmetries of the board (8 for a square,
///   4 for a rectangle), exactly encoded in a `u128`: `x | o << 32` up to 32 cells,
///   `x << 64 | o` up to 64 (8 x 8).
/// - [`Game::value_bounds`]: exact when the side to move can win at once or faces two
///   threats; otherwise `0` on the side of a player who can no longer complete a line or
///   whose live lines the opponent can pair, a win found by a short search for continuous
///   threats (VCF) as the lower bound, and the earliest possible win or loss under
///   [`Scoring::EmptyPlusOne`].
/// - [`Game::order_moves`]: winning cells, then blocks, then cells on many live lines.
#[derive(Clone, Debug)]
pub struct MnkGame {
    geometry: Geometry,
    scoring: Scoring,
    k: u32,
    lines: Vec<Bitboard>,
    /// `lines_through[cell]`: the lines containing that cell.
    lines_through: Vec<Vec<Bitboard>>,
    /// The board's symmetries, for canonical keys.
    syms: BoardSymmetries,
}

impl MnkGame {
    /// The game of `geometry` under `scoring`, for any position of that board.
    #[must_use]
    pub fn new(geometry: Geometry, scoring: Scoring) -> Self {
        let cells = geometry.cells();
        let lines = geometry.lines();
        let lines_through =
            (0..cells as u32).map(|i| lines.iter().copied().filter(|l| l.contains(i)).collect()).collect();
        MnkGame {
            geometry,
            scoring,
            k: geometry.k() as u32,
            lines,
            lines_through,
            syms: BoardSymmetries::new(geometry),
        }
    }

    /// The board's geometry.
    #[must_use]
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Value for the side to move of winning with its move now, `empty` cells being empty.
    fn win_now(&self, empty: u32) -> Value {
        match self.scoring {
            Scoring::WinLoss => 1,
            Scoring::EmptyPlusOne => Value::from(empty),
        }
    }
}

/// Move-ordering score of a cell that completes a line of the mover's: above any sum of
/// the other terms (at most 4 lines x 8 directions of small scores), so wins come first.
const WIN_NOW: u32 = 1 << 20;
/// Move-ordering score of a cell that blocks an opponent's line one stone from complete: below
/// [`WIN_NOW`], above every quiet score.
const BLOCK_NOW: u32 = 1 << 16;

/// The side to move's stones, the opponent's stones and the empty cells.
#[inline]
fn sides(pos: &Position) -> (Bitboard, Bitboard, Bitboard) {
    let (me, opp) = match pos.to_move {
        Mark::X => (pos.x, pos.o),
        Mark::O => (pos.o, pos.x),
    };
    (me, opp, pos.empty_cells())
}

/// Positions a [`MnkGame::vcf`] call may visit: enough for the short forcing sequences that
/// decide m,n,k endgames, small beside the node that asks.
const VCF_BUDGET: u32 = 64;

impl MnkGame {
    /// A victory by continuous threats (VCF, Allis's "victory by continuous fours"): `me`, to
    /// move, has neither a line to complete at once nor an opponent's threat to block, and
    /// wins by a sequence of moves each making a threat (a line one stone from complete) that
    /// the opponent must block, ending in two threats at once; each forced block must leave the
    /// opponent without a threat of its own. `Some(n)`: `me` completes a line with its `n`-th
    /// move from now, whatever the opponent does. `None`: no such sequence within `budget`
    /// positions (proves nothing).
    fn vcf(&self, me: Bitboard, opp: Bitboard, empty: Bitboard, budget: &mut u32) -> Option<u32> {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let mut makers = Bitboard::EMPTY;
        for &line in &self.lines {
            if !line.intersects(opp) && (line & me).count() + 2 == self.k {
                makers |= line & empty;
            }
        }
        for c in makers.iter() {
            let bit = Bitboard::single(c);
            let (me2, empty2) = (me | bit, empty & !bit);
            let mut threats = Bitboard::EMPTY;
            for &line in &self.lines_through[c as usize] {
                if !line.intersects(opp) && (line & me2).count() + 1 == self.k {
                    threats |= line & empty2;
                }
            }
            match threats.count() {
                0 => {}
                1 => {
                    let (opp2, empty3) = (opp | threats, empty2 & !threats);
                    let block = threats.iter().next().unwrap_or(0) as usize;
                    let counter = self.lines_through[block].iter().any(|&l| {
                        !l.intersects(me2) && (l & opp2).count() + 1 == self.k && l.intersects(empty3)
                    });
                    if !counter {
                        if let Some(n) = self.vcf(me2, opp2, empty3, budget) {
                            return Some(n + 1);
                        }
                    }
                }
                _ => return Some(2),
            }
        }
        None
    }
}

/// Most live lines of a side for [`MnkGame::paired_against`] to look for a pairing.
const PAIRED_MAX_LINES: usize = 20;

/// Most steps of one pairing search of [`MnkGame::paired_against`].
const PAIRED_BUDGET: u32 = 32;

impl MnkGame {
    /// Whether the player with the stones `blocker` has a pairing strategy against the other
    /// player's live lines (those without `blocker`'s stones): disjoint pairs of `empty` cells,
    /// one inside each line, so that answering each move into a pair with the other cell keeps
    /// the other player from completing a line, whoever moves first (Hales and Jewett; extra
    /// stones never hurt the blocker). Searched for among at most [`PAIRED_MAX_LINES`] lines
    /// within [`PAIRED_BUDGET`] steps; `false` proves nothing.
    fn paired_against(&self, blocker: Bitboard, empty: Bitboard) -> bool {
        let mut lines = [0u64; PAIRED_MAX_LINES];
        let mut n = 0;
        for &line in &self.lines {
            if !line.intersects(blocker) {
                if n == PAIRED_MAX_LINES {
                    return false;
                }
                lines[n] = (line & empty).0;
                n += 1;
            }
        }
        let mut pairs = Vec::new();
        let mut budget = PAIRED_BUDGET;
        crate::maker_breaker::pair_lines(&lines[..n], 0, &mut pairs, &mut budget)
    }
}

impl Game for MnkGame {
    type Position = Position;
    type Move = Cell;
    type Key = u128;

    fn to_move(&self, pos: &Position) -> Player {
        match pos.to_move {
            Mark::X => Player::First,
            Mark::O => Player::Second,
        }
    }

    fn terminal_value(&self, pos: &Position) -> Option<Value> {
        let empty = pos.empty_cells().count();
        if pos.winner.is_some() {
            Some(match self.scoring {
                Scoring::WinLoss => -1,
                Scoring::EmptyPlusOne => -(Value::from(empty) + 1),
            })
        } else if empty == 0 {
            Some(0)
        } else {
            None
        }
    }

    fn generate_moves(&self, pos: &Position, moves: &mut Vec<Cell>) {
        moves.extend(pos.empty_cells().iter().map(|i| Cell(i as u8)));
    }

    fn play(&self, pos: &Position, mv: Cell) -> (Position, Value) {
        let mut next = *pos;
        let bit = mv.bit();
        let mine = match pos.to_move {
            Mark::X => {
                next.x |= bit;
                next.x
            }
            Mark::O => {
                next.o |= bit;
                next.o
            }
        };
        if self.lines_through[mv.index()].iter().any(|&l| mine.is_superset(l)) {
            next.winner = Some(pos.to_move);
        }
        next.to_move = pos.to_move.opponent();
        (next, 0)
    }

    fn key(&self, pos: &Position) -> u128 {
        let (x, o) = (pos.x.0, pos.o.0);
        if self.geometry.cells() <= 32 {
            let mut best = x | o << 32;
            for s in 1..self.syms.count() {
                best = best.min(self.syms.image(s, x) | self.syms.image(s, o) << 32);
            }
            u128::from(best)
        } else {
            let mut best = (x, o);
            for s in 1..self.syms.count() {
                best = best.min((self.syms.image(s, x), self.syms.image(s, o)));
            }
            u128::from(best.0) << 64 | u128::from(best.1)
        }
    }

    fn value_bounds(&self, pos: &Position) -> (Value, Value) {
        let (me, opp, empty) = sides(pos);
        let e = empty.count();
        let (mut my_need, mut opp_need) = (u32::MAX, u32::MAX);
        let mut threats = Bitboard::EMPTY;
        for &line in &self.lines {
            if !line.intersects(opp) {
                my_need = my_need.min(self.k - (line & me).count());
            }
            if !line.intersects(me) {
                let need = self.k - (line & opp).count();
                opp_need = opp_need.min(need);
                if need == 1 {
                    threats |= line & empty;
                }
            }
        }
        if my_need == 1 {
            let v = self.win_now(e);
            return (v, v);
        }
        if threats.count() >= 2 {
            // Whatever the side to move plays, the opponent wins with its next move.
            let v = -self.win_now(e - 1);
            return (v, v);
        }
        // A forced win by continuous threats raises the lower bound (to a win: exact under
        // WinLoss).
        let mut budget = VCF_BUDGET;
        let forced = (threats.is_empty() && my_need == 2)
            .then(|| self.vcf(me, opp, empty, &mut budget))
            .flatten()
            // The side to move completes a line with its n-th move from now.
            .map(|n| self.win_now(e + 2 - 2 * n));
        let (my_moves, opp_moves) = (e.div_ceil(2), e / 2);
        let hi = if my_need <= my_moves {
            match self.scoring {
                Scoring::WinLoss => 1,
                // Winning with one's j-th move leaves e - (2j - 1) cells empty.
                Scoring::EmptyPlusOne => Value::from(e + 2) - 2 * Value::from(my_need),
            }
        } else {
            0
        };
        let lo = if opp_need <= opp_moves {
            match self.scoring {
                Scoring::WinLoss => -1,
                // Losing to the opponent's j-th move leaves e - 2j cells empty.
                Scoring::EmptyPlusOne => -(Value::from(e + 1) - 2 * Value::from(opp_need)),
            }
        } else {
            0
        };
        let lo = forced.map_or(lo, |f| f.max(lo));
        // A pairing strategy against a side's lines: that side never completes one.
        let hi = if hi > 0 && self.paired_against(opp, empty) { 0 } else { hi };
        let lo = if lo < 0 && self.paired_against(me, empty) { 0 } else { lo };
        (lo, hi)
    }

    fn order_moves(&self, pos: &Position, moves: &mut [Cell]) {
        let (me, opp, _) = sides(pos);
        let k = self.k;
        let mut scored = [(0u32, Cell(0)); Bitboard::BITS];
        let n = moves.len();
        for (slot, &m) in scored.iter_mut().zip(moves.iter()) {
            let mut score = 0u32;
            for &line in &self.lines_through[m.index()] {
                let (mine, theirs) = ((line & me).count(), (line & opp).count());
                if theirs == 0 {
                    score += if mine + 1 == k { WIN_NOW } else { 1 + 2 * mine * mine };
                }
                if mine == 0 {
                    score += if theirs + 1 == k { BLOCK_NOW } else { 1 + 2 * theirs * theirs };
                }
            }
            *slot = (score, m);
        }
        let scored = &mut scored[..n];
        // Stable: equal scores keep row-major order.
        scored.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        for (dst, &(_, m)) in moves.iter_mut().zip(scored.iter()) {
            *dst = m;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Setup;

    fn pos(g: Geometry, grid: &str) -> Position {
        let (mut x, mut o) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for (i, ch) in grid.chars().filter(|c| !c.is_whitespace()).enumerate() {
            match ch {
                'x' => x |= Bitboard::single(i as u32),
                'o' => o |= Bitboard::single(i as u32),
                _ => {}
            }
        }
        let to_move = if x.count() == o.count() { Mark::X } else { Mark::O };
        Position::try_from(Setup { geometry: g, x, o, to_move }).unwrap()
    }

    #[test]
    fn symmetric_positions_share_keys() {
        let game = MnkGame::new(Geometry::UVA, Scoring::WinLoss);
        let a = pos(Geometry::UVA, "x... .... .... ..o.");
        let b = pos(Geometry::UVA, "...x .... .... .o..");
        let c = pos(Geometry::UVA, "x... .... ..o. ....");
        assert_eq!(game.key(&a), game.key(&b));
        assert_ne!(game.key(&a), game.key(&c));
    }

    #[test]
    fn exact_keys_for_large_boards() {
        let g = Geometry::new(6, 6, 4).unwrap();
        let game = MnkGame::new(g, Scoring::WinLoss);
        let a = pos(g, "x..... ...... ...... ...... ...... .....o");
        let b = pos(g, "o..... ...... ...... ...... ...... .....x");
        let c = pos(g, ".....x ...... ...... ...... ...... o.....");
        assert_eq!(game.key(&a), game.key(&b));
        assert_eq!(game.key(&a), game.key(&c));
        assert_ne!(game.key(&a), game.key(&Position::empty(g)));
        // Up to 8 x 8 every board has exact keys, symmetries folded.
        let big = Geometry::new(8, 8, 5).unwrap();
        let game = MnkGame::new(big, Scoring::WinLoss);
        let root = pos(big, "xoxoxoxo oxoxoxox ........ ........ ........ ........ ........ ........");
        let mirror = pos(big, "........ ........ ........ ........ ........ ........ xoxoxoxo oxoxoxox");
        assert_eq!(game.key(&root), game.key(&mirror));
        let child = Game::play(&game, &root, Cell(18)).0;
        assert_ne!(game.key(&root), game.key(&child));
    }

    #[test]
    fn bounds_are_exact_for_immediate_wins_and_double_threats() {
        let g = Geometry::CCF;
        let game = MnkGame::new(g, Scoring::EmptyPlusOne);
        // x to move can complete the top row: wins leaving 4 empty, score 5.
        assert_eq!(game.value_bounds(&pos(g, "xx. oo. ...")), (5, 5));
        // o to move, x threatens twice (top row and the left column): o loses at once, leaving
        // 2 cells empty.
        let p = pos(g, "xx. .o. x.o");
        assert_eq!(p.to_move(), Mark::O);
        assert_eq!(game.value_bounds(&p), (-3, -3));
        // Nobody can win any more on this board: a draw whatever happens.
        let q = pos(g, "xox xoo o.x");
        assert_eq!(game.value_bounds(&q), (0, 0));
    }
}
