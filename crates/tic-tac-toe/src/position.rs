//! Positions: an unvalidated [`Setup`] and the validated [`Position`] built from it
//! (`Position::try_from(setup)`), with [`Mark`], [`Cell`] and the errors of validation and play.

use std::fmt;

use crate::{Bitboard, Geometry};

/// A player's mark. `X` moves first (x in UVa 10111, Alice / `1` in CCF 201803-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mark {
    /// The first player.
    X,
    /// The second player.
    O,
}

impl Mark {
    /// The other player's mark.
    #[must_use]
    pub const fn opponent(self) -> Mark {
        match self {
            Mark::X => Mark::O,
            Mark::O => Mark::X,
        }
    }

    /// The mark as a lower-case letter, `'x'` or `'o'`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Mark::X => 'x',
            Mark::O => 'o',
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A cell of the board: its row-major index `row * cols + col` (below 64). Turn it into a row
/// and column with [`Geometry::row_col`], build one with [`Geometry::cell`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u8);

/// Cells (below 64) fit the move field of search-core's shared TT.
impl search_core::PackedMove for Cell {
    #[inline]
    fn pack(self) -> Option<u16> {
        Some(u16::from(self.0))
    }
    #[inline]
    fn unpack(code: u16) -> Self {
        Cell(code as u8)
    }
}

impl Cell {
    /// The row-major index.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The cell as a one-cell [`Bitboard`].
    #[must_use]
    pub const fn bit(self) -> Bitboard {
        Bitboard::single(self.0 as u32)
    }
}

/// Why a [`Setup`] is not a position that can arise in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A stone lies outside the board.
    #[error("a stone lies outside the {rows}x{cols} board")]
    OffBoard {
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
    /// A cell holds both an x and an o.
    #[error("a cell holds both x and o")]
    Overlap,
    /// The piece counts do not fit the side to move (x moves first, then turns alternate).
    #[error(
        "{x} x and {o} o cannot have {to_move} to move (x moves first: {})",
        if *to_move == Mark::X { "x to move needs as many x as o" } else { "o to move needs one x more than o" }
    )]
    Counts {
        /// Stones of x.
        x: u32,
        /// Stones of o.
        o: u32,
        /// The side to move claimed.
        to_move: Mark,
    },
    /// Both players have a line: the game ended at the first one.
    #[error("both x and o have a line")]
    BothWon,
    /// The player with a line is the one to move, so the game went on after it was won.
    #[error("{winner} has a line but is to move: the game ended when {winner} completed it")]
    WinnerNotLastMover {
        /// The player with a line.
        winner: Mark,
    },
    /// The winner's lines share no cell, so no single last move completed them all.
    #[error("{winner} has lines that no single last move could have completed")]
    DisjointLines {
        /// The player with the lines.
        winner: Mark,
    },
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game is over (a line was completed or the board is full).
    #[error("the game is over")]
    GameOver,
    /// The cell is not on the board.
    #[error("cell {0} is not on the board")]
    OffBoard(usize),
    /// The cell is taken.
    #[error("cell {row},{col} is not empty")]
    Occupied {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
    },
}

/// An unvalidated position: any two sets of stones and a side to move. Turn it into a
/// [`Position`] with `Position::try_from`, which checks that it can arise in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Board shape and winning line length.
    pub geometry: Geometry,
    /// Cells holding an x.
    pub x: Bitboard,
    /// Cells holding an o.
    pub o: Bitboard,
    /// The player to move.
    pub to_move: Mark,
}

impl Setup {
    /// The empty board of `geometry`, x to move.
    #[must_use]
    pub const fn empty(geometry: Geometry) -> Setup {
        Setup { geometry, x: Bitboard::EMPTY, o: Bitboard::EMPTY, to_move: Mark::X }
    }
}

/// A position that can arise in play from the empty board (x first, turns alternating, the game
/// stopping at the first line): two [`Bitboard`]s, the side to move and, when the game was won,
/// the winner (always the player who moved last). Small and `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) geometry: Geometry,
    pub(crate) x: Bitboard,
    pub(crate) o: Bitboard,
    pub(crate) to_move: Mark,
    pub(crate) winner: Option<Mark>,
}

impl TryFrom<Setup> for Position {
    type Error = PositionError;

    /// Validates `setup`: stones on the board and not overlapping, piece counts fitting the side
    /// to move, at most one player with a line, that player the last to move, and all of that
    /// player's lines sharing a cell (the last move).
    fn try_from(setup: Setup) -> Result<Self, PositionError> {
        let Setup { geometry, x, o, to_move } = setup;
        let full = geometry.full();
        if !full.is_superset(x | o) {
            return Err(PositionError::OffBoard { rows: geometry.rows(), cols: geometry.cols() });
        }
        if x.intersects(o) {
            return Err(PositionError::Overlap);
        }
        let (nx, no) = (x.count(), o.count());
        let counts_ok = match to_move {
            Mark::X => nx == no,
            Mark::O => nx == no + 1,
        };
        if !counts_ok {
            return Err(PositionError::Counts { x: nx, o: no, to_move });
        }
        let lines = geometry.lines();
        let common = |stones: Bitboard| {
            // The cells common to every completed line; `None` if there is no line.
            lines
                .iter()
                .filter(|&&l| stones.is_superset(l))
                .fold(None, |acc: Option<Bitboard>, &l| Some(acc.map_or(l, |a| a & l)))
        };
        let winner = match (common(x), common(o)) {
            (Some(_), Some(_)) => return Err(PositionError::BothWon),
            (Some(c), None) => Some((Mark::X, c)),
            (None, Some(c)) => Some((Mark::O, c)),
            (None, None) => None,
        };
        if let Some((w, c)) = winner {
            if w == to_move {
                return Err(PositionError::WinnerNotLastMover { winner: w });
            }
            if c.is_empty() {
                return Err(PositionError::DisjointLines { winner: w });
            }
        }
        Ok(Position { geometry, x, o, to_move, winner: winner.map(|(w, _)| w) })
    }
}

impl Position {
    /// The empty board of `geometry`, x to move.
    #[must_use]
    pub const fn empty(geometry: Geometry) -> Position {
        Position { geometry, x: Bitboard::EMPTY, o: Bitboard::EMPTY, to_move: Mark::X, winner: None }
    }

    /// Board shape and winning line length.
    #[must_use]
    pub const fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Cells holding an x.
    #[must_use]
    pub const fn x(&self) -> Bitboard {
        self.x
    }

    /// Cells holding an o.
    #[must_use]
    pub const fn o(&self) -> Bitboard {
        self.o
    }

    /// The stones of `mark`.
    #[must_use]
    pub const fn stones(&self, mark: Mark) -> Bitboard {
        match mark {
            Mark::X => self.x,
            Mark::O => self.o,
        }
    }

    /// The player to move (even when the game is over: the one who would move next).
    #[must_use]
    pub const fn to_move(&self) -> Mark {
        self.to_move
    }

    /// The player who completed a line, if any (always the one who moved last).
    #[must_use]
    pub const fn winner(&self) -> Option<Mark> {
        self.winner
    }

    /// The empty cells.
    #[must_use]
    pub const fn empty_cells(&self) -> Bitboard {
        self.geometry.full().without(self.x.union(self.o))
    }

    /// Whether the game is over: a line was completed or the board is full.
    #[must_use]
    pub const fn is_over(&self) -> bool {
        self.winner.is_some() || self.empty_cells().is_empty()
    }

    /// The legal moves (the empty cells, none once the game is over), row-major.
    pub fn legal_moves(&self) -> impl Iterator<Item = Cell> {
        let cells = if self.is_over() { Bitboard::EMPTY } else { self.empty_cells() };
        cells.iter().map(|i| Cell(i as u8))
    }

    /// The mark on `cell`, if any.
    #[must_use]
    pub const fn mark_at(&self, cell: Cell) -> Option<Mark> {
        if self.x.contains(cell.0 as u32) {
            Some(Mark::X)
        } else if self.o.contains(cell.0 as u32) {
            Some(Mark::O)
        } else {
            None
        }
    }

    /// Plays `cell` for the side to move.
    ///
    /// # Errors
    /// [`PlayError::GameOver`], [`PlayError::OffBoard`] or [`PlayError::Occupied`].
    pub fn try_play(&self, cell: Cell) -> Result<Position, PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        if cell.index() >= self.geometry.cells() {
            return Err(PlayError::OffBoard(cell.index()));
        }
        if !self.empty_cells().contains(u32::from(cell.0)) {
            let (row, col) = self.geometry.row_col(cell);
            return Err(PlayError::Occupied { row, col });
        }
        let mut next = *self;
        let mover = self.to_move;
        match mover {
            Mark::X => next.x |= cell.bit(),
            Mark::O => next.o |= cell.bit(),
        }
        next.to_move = mover.opponent();
        if completes_line(self.geometry, next.stones(mover), cell) {
            next.winner = Some(mover);
        }
        Ok(next)
    }

    /// Plays `cell` for the side to move.
    ///
    /// # Panics
    /// If the move is illegal (see [`Position::try_play`]); use that for untrusted moves.
    #[must_use]
    pub fn play(&self, cell: Cell) -> Position {
        match self.try_play(cell) {
            Ok(p) => p,
            Err(e) => panic!("illegal move {cell:?}: {e}"),
        }
    }

    /// The board as `rows` lines of `cols` characters from `.`, `x`, `o` (UVa's format), each
    /// line ending in `\n`.
    #[must_use]
    pub fn grid(&self) -> String {
        let g = self.geometry;
        let mut s = String::with_capacity(g.cells() + g.rows());
        for r in 0..g.rows() {
            for c in 0..g.cols() {
                let cell = Cell((r * g.cols() + c) as u8);
                s.push(self.mark_at(cell).map_or('.', Mark::letter));
            }
            s.push('\n');
        }
        s
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.grid())
    }
}

/// Whether `stones` (which hold `cell`) have `k` in a row through `cell`.
pub(crate) fn completes_line(geometry: Geometry, stones: Bitboard, cell: Cell) -> bool {
    let (rows, cols, k) = (geometry.rows() as isize, geometry.cols() as isize, geometry.k());
    let (r, c) = geometry.row_col(cell);
    let (r, c) = (r as isize, c as isize);
    let has = |r: isize, c: isize| {
        (0..rows).contains(&r) && (0..cols).contains(&c) && stones.contains((r * cols + c) as u32)
    };
    [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
        let mut run = 1;
        for sign in [1, -1] {
            let (mut rr, mut cc) = (r + sign * dr, c + sign * dc);
            while has(rr, cc) {
                run += 1;
                rr += sign * dr;
                cc += sign * dc;
            }
        }
        run >= k
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bb(cells: &[u32]) -> Bitboard {
        cells.iter().fold(Bitboard::EMPTY, |b, &i| b | Bitboard::single(i))
    }

    #[test]
    fn validation() {
        let g = Geometry::CCF;
        let ok = Setup { geometry: g, x: bb(&[0, 4]), o: bb(&[1, 2]), to_move: Mark::X };
        assert!(Position::try_from(ok).is_ok());
        let counts = Setup { to_move: Mark::O, ..ok };
        assert!(matches!(Position::try_from(counts), Err(PositionError::Counts { .. })));
        let overlap = Setup { o: bb(&[0, 2]), ..ok };
        assert_eq!(Position::try_from(overlap), Err(PositionError::Overlap));
        let off = Setup { x: bb(&[0, 9]), ..ok };
        assert!(matches!(Position::try_from(off), Err(PositionError::OffBoard { .. })));
        // o won on the top row with x to move: legal.
        let o_won = Setup { geometry: g, x: bb(&[3, 4, 8]), o: bb(&[0, 1, 2]), to_move: Mark::X };
        assert_eq!(Position::try_from(o_won).unwrap().winner(), Some(Mark::O));
        // x won with x to move: x kept playing after winning? No: o moved after x won.
        let x_won = Setup { geometry: g, x: bb(&[0, 1, 2]), o: bb(&[3, 4, 8]), to_move: Mark::X };
        assert_eq!(Position::try_from(x_won), Err(PositionError::WinnerNotLastMover { winner: Mark::X }));
        let both = Setup {
            geometry: Geometry::UVA,
            x: bb(&[0, 1, 2, 3, 8, 9]),
            o: bb(&[4, 5, 6, 7, 12, 13]),
            to_move: Mark::X,
        };
        assert_eq!(Position::try_from(both), Err(PositionError::BothWon));
        // Two parallel o rows on 5x5, k = 4: no single move completes both.
        let two = Setup {
            geometry: Geometry::new(5, 5, 4).unwrap(),
            x: bb(&[5, 6, 7, 15, 16, 17, 20, 22]),
            o: bb(&[0, 1, 2, 3, 10, 11, 12, 13]),
            to_move: Mark::X,
        };
        assert_eq!(Position::try_from(two), Err(PositionError::DisjointLines { winner: Mark::O }));
    }

    #[test]
    fn play_detects_lines() {
        let g = Geometry::CCF;
        let mut p = Position::empty(g);
        for i in [0, 3, 4, 5, 8] {
            assert!(!p.is_over());
            p = p.play(Cell(i));
        }
        assert_eq!(p.winner(), Some(Mark::X));
        assert_eq!(p.try_play(Cell(1)), Err(PlayError::GameOver));
        let q = Position::empty(g).play(Cell(4));
        assert_eq!(q.try_play(Cell(4)), Err(PlayError::Occupied { row: 1, col: 1 }));
        assert_eq!(q.try_play(Cell(9)), Err(PlayError::OffBoard(9)));
        assert_eq!(q.grid(), "...\n.x.\n...\n");
    }
}
