//! [`MakerBreaker`]: the Maker-Breaker version of an m,n,k board as a [`search_core::Game`], a
//! fast exact prover of "this player has no forced win" in the real game.
//!
//! In the Maker-Breaker game on the same lines, Maker wins by completing a line of `k` and
//! Breaker wins by stopping that (taking a cell on every line); Breaker's own lines count for
//! nothing. If Breaker wins it from some position, the real m,n,k player in Maker's seat has
//! no forced win there: the opponent plays Breaker's strategy, and completing a line of its
//! own earlier only ends the real game sooner in its favour. Where Maker wins, the real game
//! may still be a draw or a loss (the opponent's threats were ignored), so the answer is only
//! an upper bound; [`crate::WinningMove`] asks it first and falls back to the full search.
//! From the empty board, "x has no forced win" means a draw under perfect play: by strategy
//! stealing the first player of an m,n,k-game never loses (an extra stone never hurts).
//!
//! The reduction that makes it fast (Beck, *Combinatorial Games: Tic-Tac-Toe Theory*, 2008,
//! ch. 1-4; Hefetz, Krivelevich, Stojaković and Szabó, *Positional Games*, 2014, ch. 1):
//! - A line holding a Breaker stone is gone for good: only *live* lines (no Breaker stone)
//!   matter. A [`MbPosition`] keeps Maker's stones and the empty cells on live lines only.
//! - A cell on no live line is *dead*: playing it is a pass. Maker-Breaker games are monotone
//!   (an extra stone never hurts its owner: the owner's strategy ignores it, and when the
//!   strategy asks for that cell any move will do), so neither side ever needs a dead cell
//!   or a pass, and moves are the empty cells of live lines.
//! - Breaker to move must take the empty cell of a live line with `k - 1` Maker stones (an
//!   immediate threat); two distinct threat cells win for Maker.
//! - TT keys are the reduced position (Maker's live stones, the live empty cells, who moves)
//!   canonicalised over the board's symmetries: positions differing in dead stones share one
//!   entry.

use search_core::{Game, Player, Value};

use crate::symmetry::BoardSymmetries;
use crate::{Bitboard, Cell, Geometry, Mark, Position};

/// A reduced Maker-Breaker position: Maker's stones on live lines, the empty cells on live
/// lines (the only cells worth playing), whose turn it is, and whether Maker has completed a
/// line. Everything else on the board is as good as Breaker's. Build one with
/// [`MakerBreaker::position`] or [`MakerBreaker::from_game`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MbPosition {
    maker: Bitboard,
    free: Bitboard,
    maker_to_move: bool,
    maker_won: bool,
}

impl MbPosition {
    /// Maker's stones on live lines (all of them once Maker has won).
    #[must_use]
    pub const fn maker(&self) -> Bitboard {
        self.maker
    }

    /// The empty cells on live lines: the moves.
    #[must_use]
    pub const fn free(&self) -> Bitboard {
        self.free
    }

    /// Whether Maker is to move.
    #[must_use]
    pub const fn maker_to_move(&self) -> bool {
        self.maker_to_move
    }

    /// Whether Maker has completed a line (the game is over, Maker won).
    #[must_use]
    pub const fn maker_won(&self) -> bool {
        self.maker_won
    }
}

/// The Maker-Breaker game on the lines of one [`Geometry`], for [`search_core::Engine`] or
/// [`search_core::reference::ProofSearch`].
///
/// Values are from the side to move: `+1` if it wins, `-1` if it loses (there are no draws:
/// Breaker wins when no live line is left). Maker is [`Player::First`], Breaker
/// [`Player::Second`], whoever moves first in the real game.
///
/// - [`Game::value_bounds`]: exact when Maker to move can complete a line, when Breaker to
///   move faces two threat cells, and when Maker has fewer moves left than the stones its
///   best live line still needs.
/// - [`Game::generate_moves`]: the live empty cells; only the threat cell when Breaker must
///   block.
/// - [`Game::order_moves`]: threats first, then cells on many live lines holding many Maker
///   stones (good for both sides).
#[derive(Clone, Debug)]
pub struct MakerBreaker {
    geometry: Geometry,
    k: u32,
    pub(crate) lines: Vec<Bitboard>,
    /// `lines_through[cell]`: the lines containing that cell.
    pub(crate) lines_through: Vec<Vec<Bitboard>>,
    pub(crate) syms: BoardSymmetries,
    /// `spread[v]`: the byte `v` read as base-3 digits 0/1 (for 64-cell boards' keys).
    spread: [u32; 256],
}

/// What the live lines of a position say: the least number of stones Maker still needs on
/// one line (`u32::MAX` if none is live) and the cells completing a line of Maker's at once.
pub(crate) struct LineScan {
    pub(crate) need: u32,
    pub(crate) threats: Bitboard,
    /// Erdős–Selfridge potential: the sum over live lines of `2^(k - need)` (a line's weight
    /// `2^-need` in units of `2^-k`).
    pub(crate) potential: u64,
    /// Number of live lines.
    pub(crate) live: u32,
}

impl MakerBreaker {
    /// The Maker-Breaker game on the lines of `geometry`.
    #[must_use]
    pub fn new(geometry: Geometry) -> Self {
        let lines = geometry.lines();
        let lines_through = (0..geometry.cells() as u32)
            .map(|i| lines.iter().copied().filter(|l| l.contains(i)).collect())
            .collect();
        let mut spread = [0u32; 256];
        for (v, s) in spread.iter_mut().enumerate() {
            *s = (0..8).filter(|b| v >> b & 1 == 1).map(|b| 3u32.pow(b)).sum();
        }
        MakerBreaker {
            geometry,
            k: geometry.k() as u32,
            lines,
            lines_through,
            syms: BoardSymmetries::new(geometry),
            spread,
        }
    }

    /// The board's geometry.
    #[must_use]
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The reduced position with `maker`'s and `breaker`'s stones on the board (disjoint, on
    /// the board) and `maker_to_move`.
    #[must_use]
    pub fn position(&self, maker: Bitboard, breaker: Bitboard, maker_to_move: bool) -> MbPosition {
        let free = self.geometry.full().without(maker | breaker);
        let maker_won = self.lines.iter().any(|&l| maker.is_superset(l));
        self.reduce(MbPosition { maker, free, maker_to_move, maker_won })
    }

    /// The Maker-Breaker position of the real position `pos` with `maker` in Maker's seat
    /// (usually the side to move, asking "can I still win?").
    #[must_use]
    pub fn from_game(&self, pos: &Position, maker: Mark) -> MbPosition {
        self.position(pos.stones(maker), pos.stones(maker.opponent()), pos.to_move() == maker)
    }

    /// `pos` with the free cells `cells` gone (as if Breaker held them), reduced again.
    pub(crate) fn without_cells(&self, pos: &MbPosition, cells: Bitboard) -> MbPosition {
        self.reduce(MbPosition { free: pos.free.without(cells), ..*pos })
    }

    /// Drops dead cells and Maker stones on no live line (unless Maker has won).
    pub(crate) fn reduce(&self, mut pos: MbPosition) -> MbPosition {
        if pos.maker_won {
            return pos;
        }
        let open = pos.maker | pos.free;
        let live = self.lines.iter().filter(|&&l| open.is_superset(l)).fold(Bitboard::EMPTY, |a, &l| a | l);
        pos.maker &= live;
        pos.free &= live;
        pos
    }

    pub(crate) fn scan(&self, pos: &MbPosition) -> LineScan {
        let open = pos.maker | pos.free;
        let mut scan = LineScan { need: u32::MAX, threats: Bitboard::EMPTY, potential: 0, live: 0 };
        for &l in &self.lines {
            if open.is_superset(l) {
                let need = self.k - (l & pos.maker).count();
                scan.need = scan.need.min(need);
                scan.potential += 1 << (self.k - need);
                scan.live += 1;
                if need == 1 {
                    scan.threats |= l & pos.free;
                }
            }
        }
        scan
    }

    /// The Erdős–Selfridge criterion (Erdős and Selfridge, "On a combinatorial game", *J.
    /// Combinatorial Theory A* 14, 1973): with Breaker to move and a potential below 1 (sum of
    /// `2^-need` over live lines), Breaker can keep it below 1 for ever (taking the cell of
    /// greatest weight removes at least as much as Maker's next stone adds), so no line is
    /// ever completed (a complete line weighs 1). With Maker to move, Maker's stone adds the
    /// weight of the lines through it: Breaker wins if the potential plus the heaviest cell's
    /// weight stays below 1.
    pub(crate) fn erdos_selfridge(&self, pos: &MbPosition, scan: &LineScan) -> bool {
        let one = 1u64 << self.k;
        if !pos.maker_to_move {
            return scan.potential < one;
        }
        if scan.potential >= one {
            return false;
        }
        let open = pos.maker | pos.free;
        let heaviest = pos
            .free
            .iter()
            .map(|c| {
                self.lines_through[c as usize]
                    .iter()
                    .filter(|&&l| open.is_superset(l))
                    .map(|&l| 1u64 << (l & pos.maker).count())
                    .sum::<u64>()
            })
            .max()
            .unwrap_or(0);
        scan.potential + heaviest < one
    }

    /// The position's canonical code: Maker's stones and the free cells, the least over the
    /// symmetries, with the side to move; exact (no collisions).
    pub(crate) fn code(&self, maker: u64, free: u64, maker_to_move: bool) -> u128 {
        let turn = u128::from(maker_to_move);
        if self.geometry.cells() < 64 {
            // Bit 63 of `maker` is off the board.
            u128::from(free) << 64 | u128::from(maker) | turn << 63
        } else {
            // Base 3 (0 breaker or dead, 1 Maker, 2 free): 3^64 * 2 < 2^128.
            let mut code = 0u128;
            for j in (0..8).rev() {
                let (m, f) = ((maker >> (8 * j)) & 0xff, (free >> (8 * j)) & 0xff);
                let digit = self.spread[m as usize] + 2 * self.spread[f as usize];
                code = code * 6561 + u128::from(digit);
            }
            code << 1 | turn
        }
    }
}

/// Most search steps one pairing search may take at a node of the game search before giving up
/// (the static check is only a shortcut: giving up costs exactness nothing).
const PAIRING_BUDGET: u32 = 32;

/// The pairing search runs at nodes with at most this many live lines: with more, it rarely
/// succeeds within its budget and costs more than it saves (7 x 7, k = 5: 12 times slower per
/// node with no limit).
const PAIRING_MAX_LINES: u32 = 20;

impl MakerBreaker {
    /// A pairing strategy for Breaker in `pos` if one is found within `budget` search steps:
    /// disjoint pairs of free cells such that every live line holds both cells of some pair.
    /// Breaker then wins whoever is to move: whenever Maker takes a cell of a pair, Breaker
    /// takes the other (any cell otherwise), so every live line keeps a Breaker stone
    /// (Hales and Jewett 1963; Beck 2008, ch. 1). `None` when there is none or the budget ran
    /// out.
    #[must_use]
    pub fn pairing(&self, pos: &MbPosition, budget: u32) -> Option<Vec<(Cell, Cell)>> {
        if pos.maker_won {
            return None;
        }
        let open = pos.maker | pos.free;
        let lines: Vec<u64> =
            self.lines.iter().filter(|&&l| open.is_superset(l)).map(|&l| (l & pos.free).0).collect();
        let mut pairs = Vec::new();
        let mut budget = budget;
        pair_lines(&lines, 0, &mut pairs, &mut budget).then_some(pairs)
    }
}

/// A pairing of `lines` (each a line's free cells): disjoint pairs of cells, one inside each
/// line, pushed onto `pairs`; `false` when there is none or `budget` steps ran out.
///
/// More than 128 lines have none: at most 32 disjoint pairs fit on 64 cells and a pair lies in
/// at most `k - 1` lines (collinear ones), while more than 128 lines on a board of at most
/// 8 x 8 means `k <= 4` (8 x 8 has 130 lines of 4), more than the 96 lines that 32 pairs of at
/// most 3 lines each can cover.
pub(crate) fn pair_lines(lines: &[u64], used: u64, pairs: &mut Vec<(Cell, Cell)>, budget: &mut u32) -> bool {
    if lines.len() > 128 {
        return false;
    }
    // on[c]: the lines through cell c.
    let mut on = [0u128; 64];
    for (i, &l) in lines.iter().enumerate() {
        let mut rest = l;
        while rest != 0 {
            on[rest.trailing_zeros() as usize] |= 1u128 << i;
            rest &= rest - 1;
        }
    }
    let all = if lines.len() == 128 { u128::MAX } else { (1u128 << lines.len()) - 1 };
    pair_line_sets(lines, &on, all, used, pairs, budget)
}

/// `pair_lines` over the set `uncovered` of line indices: each time the uncovered line with
/// the fewest unused cells, one of whose pairs of unused cells must be in the pairing, tried
/// those covering the most uncovered lines first.
fn pair_line_sets(
    lines: &[u64],
    on: &[u128; 64],
    uncovered: u128,
    used: u64,
    pairs: &mut Vec<(Cell, Cell)>,
    budget: &mut u32,
) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let (mut best, mut best_count) = (0u64, u32::MAX);
    let mut rest = uncovered;
    while rest != 0 {
        let avail = lines[rest.trailing_zeros() as usize] & !used;
        rest &= rest - 1;
        let c = avail.count_ones();
        if c < 2 {
            return false;
        }
        if c < best_count {
            best = avail;
            best_count = c;
        }
    }
    if best_count == u32::MAX {
        return true;
    }
    let mut candidates = [(0u32, 0u64, 0u128); 28];
    let mut n = 0;
    let mut rest = best;
    while rest != 0 {
        let a = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let mut others = rest;
        while others != 0 {
            let b = others.trailing_zeros() as usize;
            others &= others - 1;
            let covered = on[a] & on[b] & uncovered;
            if n < candidates.len() {
                candidates[n] = (covered.count_ones(), 1u64 << a | 1u64 << b, covered);
                n += 1;
            }
        }
    }
    let candidates = &mut candidates[..n];
    candidates.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    for &(_, pair, covered) in candidates.iter() {
        let (a, b) = (pair.trailing_zeros(), 63 - pair.leading_zeros());
        pairs.push((Cell(a as u8), Cell(b as u8)));
        if pair_line_sets(lines, on, uncovered & !covered, used | pair, pairs, budget) {
            return true;
        }
        pairs.pop();
        if *budget == 0 {
            return false;
        }
    }
    false
}

/// Move-ordering score of a cell completing a line of Maker's (Maker wins on it; Breaker must
/// take it): above any sum of the other terms.
const THREAT: u32 = 1 << 24;

impl Game for MakerBreaker {
    type Position = MbPosition;
    type Move = Cell;
    type Key = u128;

    fn to_move(&self, pos: &MbPosition) -> Player {
        if pos.maker_to_move {
            Player::First
        } else {
            Player::Second
        }
    }

    fn terminal_value(&self, pos: &MbPosition) -> Option<Value> {
        // Maker won (completed a line) or Breaker won (no live line, so no free cell left).
        let maker_wins = if pos.maker_won {
            true
        } else if pos.free.is_empty() {
            false
        } else {
            return None;
        };
        Some(if maker_wins == pos.maker_to_move { 1 } else { -1 })
    }

    fn generate_moves(&self, pos: &MbPosition, moves: &mut Vec<Cell>) {
        let cells = if pos.maker_to_move {
            pos.free
        } else {
            // Breaker must block an immediate threat (with two, every move loses).
            let threats = self.scan(pos).threats;
            if threats.is_empty() {
                pos.free
            } else {
                threats
            }
        };
        moves.extend(cells.iter().map(|i| Cell(i as u8)));
    }

    fn play(&self, pos: &MbPosition, mv: Cell) -> (MbPosition, Value) {
        let bit = mv.bit();
        let mut next = *pos;
        next.free = pos.free.without(bit);
        next.maker_to_move = !pos.maker_to_move;
        if pos.maker_to_move {
            next.maker |= bit;
            if self.lines_through[mv.index()].iter().any(|&l| next.maker.is_superset(l)) {
                next.maker_won = true;
                return (next, 0);
            }
        }
        (self.reduce(next), 0)
    }

    fn key(&self, pos: &MbPosition) -> u128 {
        let (m, f) = (pos.maker.0, pos.free.0);
        let mut best = (f, m);
        for s in 1..self.syms.count() {
            best = best.min((self.syms.image(s, f), self.syms.image(s, m)));
        }
        self.code(best.1, best.0, pos.maker_to_move)
    }

    fn value_bounds(&self, pos: &MbPosition) -> (Value, Value) {
        let scan = self.scan(pos);
        let free = pos.free.count();
        // Maker wins: value +1 for Maker to move, -1 for Breaker to move.
        let maker_wins = if pos.maker_to_move { (1, 1) } else { (-1, -1) };
        let breaker_wins = (-maker_wins.0, -maker_wins.1);
        if pos.maker_to_move && scan.need == 1 {
            return maker_wins;
        }
        if !pos.maker_to_move && scan.threats.count() >= 2 {
            return maker_wins;
        }
        let maker_moves = if pos.maker_to_move { free.div_ceil(2) } else { free / 2 };
        if scan.need > maker_moves || self.erdos_selfridge(pos, &scan) {
            return breaker_wins;
        }
        if scan.live <= PAIRING_MAX_LINES && self.pairing(pos, PAIRING_BUDGET).is_some() {
            return breaker_wins;
        }
        (-1, 1)
    }

    fn order_moves(&self, pos: &MbPosition, moves: &mut [Cell]) {
        let open = pos.maker | pos.free;
        let mut scored = [(0u32, Cell(0)); Bitboard::BITS];
        let n = moves.len();
        for (slot, &m) in scored.iter_mut().zip(moves.iter()) {
            let mut score = 0u32;
            for &l in &self.lines_through[m.index()] {
                if open.is_superset(l) {
                    let mine = (l & pos.maker).count();
                    score += if mine + 1 == self.k { THREAT } else { 1 << (2 * mine) };
                }
            }
            *slot = (score, m);
        }
        let scored = &mut scored[..n];
        scored.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        for (dst, &(_, m)) in moves.iter_mut().zip(scored.iter()) {
            *dst = m;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use search_core::reference::minimax;

    fn board(g: Geometry, grid: &str) -> (Bitboard, Bitboard) {
        let (mut x, mut o) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for (i, ch) in grid.chars().filter(|c| !c.is_whitespace()).enumerate() {
            match ch {
                'x' => x |= Bitboard::single(i as u32),
                'o' => o |= Bitboard::single(i as u32),
                _ => {}
            }
        }
        assert_eq!(g.cells(), grid.chars().filter(|c| !c.is_whitespace()).count());
        (x, o)
    }

    #[test]
    fn dead_cells_and_dead_maker_stones_are_dropped() {
        let g = Geometry::CCF;
        let mb = MakerBreaker::new(g);
        // o in the centre and the top right corner: every line through them is gone.
        let (x, o) = board(g, "x.o .o. ...");
        let p = mb.position(x, o, true);
        // Lines without o: left column (0,3,6) and bottom row (6,7,8).
        assert_eq!(p.maker(), Bitboard::single(0));
        assert_eq!(p.free(), Bitboard(1 << 3 | 1 << 6 | 1 << 7 | 1 << 8));
        // Breaker to move with no live line left: Breaker has won.
        let (x, o) = board(g, "xox oxo oxo");
        let p = mb.position(x, o, true);
        assert_eq!(mb.terminal_value(&p), Some(-1));
    }

    #[test]
    fn keys_fold_symmetries_and_dead_cells() {
        let g = Geometry::new(4, 4, 3).unwrap();
        let mb = MakerBreaker::new(g);
        let (x1, o1) = board(g, "x... .... .... ...o");
        let (x2, o2) = board(g, "...o .... .... x...");
        assert_eq!(mb.key(&mb.position(x1, o1, true)), mb.key(&mb.position(x2, o2, true)));
        assert_ne!(mb.key(&mb.position(x1, o1, true)), mb.key(&mb.position(x1, o1, false)));
        // 8 x 8 keys (base 3) are exact too: distinct reduced positions, distinct keys.
        let big = Geometry::new(8, 8, 5).unwrap();
        let mb = MakerBreaker::new(big);
        let a = mb.position(Bitboard::single(63), Bitboard::EMPTY, true);
        let b = mb.position(Bitboard::EMPTY, Bitboard::single(63), true);
        let c = mb.position(Bitboard::single(0), Bitboard::EMPTY, true);
        assert_ne!(mb.key(&a), mb.key(&b));
        assert_eq!(mb.key(&a), mb.key(&c));
        assert_ne!(mb.key(&a), mb.key(&mb.position(Bitboard::single(63), Bitboard::EMPTY, false)));
    }

    #[test]
    fn classic_small_verdicts() {
        // Tic-tac-toe: Maker wins the Maker-Breaker game (the real game is a draw only because
        // of o's threats). Two rows of three: Breaker blocks each row in turn.
        for (g, maker_wins) in [
            (Geometry::CCF, true),
            (Geometry::new(3, 3, 2).unwrap(), true),
            (Geometry::new(2, 3, 3).unwrap(), false),
        ] {
            let mb = MakerBreaker::new(g);
            let root = mb.position(Bitboard::EMPTY, Bitboard::EMPTY, true);
            assert_eq!(minimax(&mb, &root) == 1, maker_wins, "{g}");
        }
    }
}
