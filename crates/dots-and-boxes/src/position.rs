//! A dots-and-boxes position: the drawn lines, the boxes each player owns, the player to move.

use search_core::Player;

use strings_and_coins::CoinClasses;

use crate::Geometry;

/// A position: drawn lines (bit `i` is line `i` of a [`Geometry`], OpenSpiel's action id), the
/// boxes each player owns (bit `r * cols + c` is box `(r, c)`), and the player to move.
///
/// Small and `Copy` (copy-make). Ownership is history: the value of the remaining play depends
/// on the drawn lines only. A position set up from a DBN string ([`Position::from_drawn`]) has
/// completed boxes that nobody owns (a DBN string carries no score); boxes completed by
/// [`Position::play`] go to the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    drawn: u64,
    to_move: Player,
    owned_by_a: u64,
    owned_by_b: u64,
    /// How many sides of each box are drawn (0 to 4), bit-sliced: bit `b` of `sides[k]` is
    /// bit `k` of box `b`'s count. A function of `drawn`, kept up to date by every move so
    /// that the boxes' classes ([`Position::coin_classes`]) cost no pass over the boxes.
    sides: [u64; 3],
}

/// Errors of [`Position::try_play`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The line index is not on the board.
    #[error("line {0} is not on the board")]
    NoSuchLine(usize),
    /// The line is already drawn.
    #[error("line {0} is already drawn")]
    AlreadyDrawn(usize),
}

/// `sides` with one more side drawn on each box of `boxes` (one box, or the two a line
/// separates): a bit-sliced increment.
#[inline]
const fn add_side(sides: [u64; 3], boxes: u64) -> [u64; 3] {
    let [d0, d1, d2] = sides;
    let carry0 = d0 & boxes;
    let carry1 = d1 & carry0;
    [d0 ^ boxes, d1 ^ carry0, d2 | carry1]
}

impl Position {
    /// The empty board, A (the first player) to move.
    #[must_use]
    pub const fn start() -> Self {
        Position { drawn: 0, to_move: Player::First, owned_by_a: 0, owned_by_b: 0, sides: [0; 3] }
    }

    /// The lines `drawn` (a set on `geometry`, e.g. from [`crate::parse_dbn`]), A to move,
    /// nobody owning the boxes they complete: values from here are the boxes A will still take
    /// minus B's.
    ///
    /// # Errors
    /// [`PositionError::NoSuchLine`] for the first line off the board.
    pub fn from_drawn(geometry: &Geometry, drawn: u64) -> Result<Position, PositionError> {
        let off = drawn & !geometry.all_lines();
        if off != 0 {
            return Err(PositionError::NoSuchLine(off.trailing_zeros() as usize));
        }
        let mut sides = [0; 3];
        let mut left = drawn;
        while left != 0 {
            let border = geometry.board().border(left.trailing_zeros() as usize);
            sides = add_side(sides, border.bits[0] | border.bits[1]);
            left &= left - 1;
        }
        Ok(Position { drawn, sides, ..Position::start() })
    }

    /// The lines drawn so far.
    #[must_use]
    pub const fn drawn(&self) -> u64 {
        self.drawn
    }

    /// The player to move.
    #[must_use]
    pub const fn to_move(&self) -> Player {
        self.to_move
    }

    /// The boxes `player` owns, as a bitboard (bit `r * cols + c` is box `(r, c)`).
    #[must_use]
    pub const fn owned(&self, player: Player) -> u64 {
        match player {
            Player::First => self.owned_by_a,
            Player::Second => self.owned_by_b,
        }
    }

    /// A's boxes minus B's.
    #[must_use]
    pub fn margin(&self) -> i64 {
        i64::from(self.owned_by_a.count_ones()) - i64::from(self.owned_by_b.count_ones())
    }

    /// The open boxes by their number of undrawn sides, as
    /// [`strings_and_coins::Board::coin_classes`] gives them for [`Position::drawn`], without a
    /// pass over the boxes.
    #[inline]
    #[must_use]
    pub fn coin_classes(&self, geometry: &Geometry) -> CoinClasses {
        let [d0, d1, d2] = self.sides;
        // Three sides drawn: one left; two drawn: two left; none or one: three or four left.
        let classes = CoinClasses { one: d0 & d1, two: d1 & !d0, many: !(d1 | d2) & geometry.all_boxes() };
        debug_assert_eq!(classes, geometry.board().coin_classes(self.drawn));
        classes
    }

    /// Whether every line of `geometry` is drawn.
    #[must_use]
    pub fn is_over(&self, geometry: &Geometry) -> bool {
        self.drawn == geometry.all_lines()
    }

    /// Draws line `s` (on the board and undrawn) and returns the new position and the number of
    /// boxes (0, 1 or 2) it completed; the mover moves again if that is not 0. See
    /// [`Position::try_play`] for the checked version.
    #[must_use]
    pub fn play(&self, geometry: &Geometry, s: usize) -> (Position, u8) {
        let drawn = self.drawn | 1 << s;
        let border = geometry.board().border(s);
        let won = border.completed(drawn);
        let sides = add_side(self.sides, border.bits[0] | border.bits[1]);
        let mut next = Position { drawn, sides, ..*self };
        if won == 0 {
            next.to_move = self.to_move.opponent();
        } else if self.to_move == Player::First {
            next.owned_by_a |= won;
        } else {
            next.owned_by_b |= won;
        }
        (next, won.count_ones() as u8)
    }

    /// [`Position::play`] with checks.
    ///
    /// # Errors
    /// [`PositionError`] if `s` is off the board or already drawn.
    pub fn try_play(&self, geometry: &Geometry, s: usize) -> Result<(Position, u8), PositionError> {
        if s >= geometry.line_count() {
            return Err(PositionError::NoSuchLine(s));
        }
        if self.drawn >> s & 1 == 1 {
            return Err(PositionError::AlreadyDrawn(s));
        }
        Ok(self.play(geometry, s))
    }
}
