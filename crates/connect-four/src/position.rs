//! [`Board`] (the search state: two bitboards and a move count), [`Position`] (a validated
//! game with its geometry and move history), move strings and their errors, and [`Setup`] (an
//! unvalidated position).

use std::fmt;

use search_core::Player;
use thiserror::Error;

use crate::{Geometry, GeometryError};

/// A column, 0-based from the left. Shown 1-based, as in move strings: `Column(0)` is `1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Column(pub u8);

impl Column {
    /// The 0-based index.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The character of this column in a move string: `1`-`9`, then `a`-`z` for columns 10-35.
    #[must_use]
    pub fn to_char(self) -> char {
        match self.0 {
            0..=8 => char::from(b'1' + self.0),
            _ => char::from(b'a' + self.0 - 9),
        }
    }

    /// The column of a move-string character (`1`-`9`, `a`-`z` / `A`-`Z` for 10-35), whatever
    /// the board's width; `None` for any other character.
    #[must_use]
    pub fn from_char(c: char) -> Option<Column> {
        match c {
            '1'..='9' => Some(Column(c as u8 - b'1')),
            'a'..='z' => Some(Column(c as u8 - b'a' + 9)),
            'A'..='Z' => Some(Column(c as u8 - b'A' + 9)),
            _ => None,
        }
    }
}

/// Columns fit the move field of search-core's shared TT (a board has at most 63).
impl search_core::PackedMove for Column {
    #[inline]
    fn pack(self) -> Option<u16> {
        Some(u16::from(self.0))
    }
    #[inline]
    fn unpack(code: u16) -> Self {
        Column(code as u8)
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// The search state of a position: the stones of the side to move, all stones, the number of
/// stones, and both players' winning spots (cells completing `k` in a row, gravity ignored),
/// kept up to date by [`Board::play`]. `current + mask` is a unique code of the position
/// (Pons' key), which needs no hashing.
///
/// Its geometry lives elsewhere ([`crate::ConnectFour`], [`Position`]); a `Board` is only
/// meaningful with the geometry it was made with. Made from [`Board::default`] (the empty
/// board) by [`Board::play`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Board {
    current: u64,
    mask: u64,
    moves: u32,
    /// Winning spots of the side to move.
    mine: u64,
    /// Winning spots of the player who moved last.
    theirs: u64,
}

impl Board {
    /// Stones of the player to move.
    #[inline]
    #[must_use]
    pub const fn current(&self) -> u64 {
        self.current
    }

    /// All stones.
    #[inline]
    #[must_use]
    pub const fn mask(&self) -> u64 {
        self.mask
    }

    /// Number of stones on the board.
    #[inline]
    #[must_use]
    pub const fn moves(&self) -> u32 {
        self.moves
    }

    /// Empty cells that would complete `k` in a row for the side to move.
    #[inline]
    #[must_use]
    pub const fn my_spots(&self) -> u64 {
        self.mine
    }

    /// Empty cells that would complete `k` in a row for the player who moved last.
    #[inline]
    #[must_use]
    pub const fn their_spots(&self) -> u64 {
        self.theirs
    }

    /// The stones of the player who moved last.
    #[inline]
    #[must_use]
    pub const fn opponent(&self) -> u64 {
        self.current ^ self.mask
    }

    /// The position code `current + mask`: unique for a position (every column's code is its
    /// stones plus a 1 just above them), at most `width * (height + 1)` bits.
    #[inline]
    #[must_use]
    pub const fn code(&self) -> u64 {
        self.current.wrapping_add(self.mask)
    }

    /// The cell where a stone dropped in `column` lands (0 if the column is full).
    #[inline]
    #[must_use]
    pub const fn landing_cell(&self, geom: &Geometry, column: usize) -> u64 {
        self.mask.wrapping_add(geom.bottom_cell(column)) & geom.column_mask(column)
    }

    /// Drops a stone of the side to move in `column` (not full; unchecked) and passes the turn.
    #[inline]
    #[must_use]
    pub fn play(&self, geom: &Geometry, column: usize) -> Board {
        self.play_cell(geom, self.landing_cell(geom, column))
    }

    /// Puts a stone of the side to move on `cell` (a single playable bit) and passes the turn.
    #[inline]
    #[must_use]
    pub fn play_cell(&self, geom: &Geometry, cell: u64) -> Board {
        self.play_cell_with_spots(cell, geom.winning_spots(self.current | cell, self.mask | cell))
    }

    /// The position before the last mover's top stone in `column` was dropped (a parent of
    /// this one in the game tree), or `None` when `column` is empty or its top stone is the
    /// side to move's. Every parent of a position nobody has won is itself unfinished.
    #[must_use]
    pub fn unplay(&self, geom: &Geometry, column: usize) -> Option<Board> {
        let stones = self.mask & geom.column_mask(column);
        if stones == 0 {
            return None;
        }
        let top = 1u64 << (63 - stones.leading_zeros());
        if top & self.opponent() == 0 {
            return None;
        }
        let (current, mask) = (self.opponent() ^ top, self.mask ^ top);
        Some(Board {
            current,
            mask,
            moves: self.moves - 1,
            mine: geom.winning_spots(current, mask),
            theirs: geom.winning_spots(self.current, mask),
        })
    }

    /// [`Board::play_cell`] given the mover's winning spots after the stone, `spots`
    /// (`geom.winning_spots(current | cell, mask | cell)`, computed by the caller).
    #[inline]
    #[must_use]
    pub(crate) fn play_cell_with_spots(&self, cell: u64, spots: u64) -> Board {
        Board {
            current: self.current ^ self.mask,
            mask: self.mask | cell,
            moves: self.moves + 1,
            // The opponent's spots only lose the cell just filled.
            mine: self.theirs & !cell,
            theirs: spots,
        }
    }
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum PlayError {
    /// The column index is not on the board.
    #[error("column {} is off the board (columns 1 to {width})", column + 1)]
    OffBoard {
        /// The 0-based column asked for.
        column: usize,
        /// The board's width.
        width: usize,
    },
    /// The column has no empty cell.
    #[error("column {} is full", column + 1)]
    ColumnFull {
        /// The 0-based column.
        column: usize,
    },
    /// Someone already has `k` in a row, or the board is full.
    #[error("the game is over")]
    GameOver,
}

/// Why a move string is refused; `index` is the 1-based position of the offending character.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum MoveError {
    /// A character that is not a column (`1`-`9`, then `a`-`z` on boards wider than 9).
    #[error("move {index}: {found:?} is not a column (expected 1 to {width})")]
    NotAColumn {
        /// 1-based position in the string.
        index: usize,
        /// The character found.
        found: char,
        /// The board's width.
        width: usize,
    },
    /// A column beyond the board's width.
    #[error("move {index}: column {column} is off the board (columns 1 to {width})")]
    OffBoard {
        /// 1-based position in the string.
        index: usize,
        /// The 1-based column asked for.
        column: usize,
        /// The board's width.
        width: usize,
    },
    /// A column that is already full.
    #[error("move {index}: column {column} is full")]
    ColumnFull {
        /// 1-based position in the string.
        index: usize,
        /// The 1-based column.
        column: usize,
    },
    /// A move after a player already has `k` in a row.
    #[error("move {index}: the game was already won by move {won_at}")]
    AfterWin {
        /// 1-based position in the string.
        index: usize,
        /// 1-based position of the winning move.
        won_at: usize,
    },
}

impl MoveError {
    /// The 1-based position in the move string of the refused character.
    #[must_use]
    pub const fn index(&self) -> usize {
        match *self {
            MoveError::NotAColumn { index, .. }
            | MoveError::OffBoard { index, .. }
            | MoveError::ColumnFull { index, .. }
            | MoveError::AfterWin { index, .. } => index,
        }
    }
}

/// Longest game on any board that fits in 64 bits.
const MAX_MOVES: usize = 64;

/// A validated Connect Four position: the geometry, the stones, and the moves that led here
/// (so that it can be written back as a move string). Reached by legal play from the empty
/// board; it may be finished (won, or a full board).
///
/// Copy-make: [`Position::play`] and [`Position::try_play`] return a new position.
#[derive(Clone, Copy)]
pub struct Position {
    geom: Geometry,
    board: Board,
    history: [u8; MAX_MOVES],
    won: bool,
}

impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.geom == other.geom && self.board == other.board && self.history().eq(other.history())
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Position({}x{}, k={}, \"{}\")",
            self.geom.width(),
            self.geom.height(),
            self.geom.k(),
            self.moves_string()
        )
    }
}

impl Default for Position {
    fn default() -> Self {
        Self::empty(Geometry::STANDARD)
    }
}

impl Position {
    /// The empty board of `geom`.
    #[must_use]
    pub const fn empty(geom: Geometry) -> Self {
        Position {
            geom,
            board: Board { current: 0, mask: 0, moves: 0, mine: 0, theirs: 0 },
            history: [0; MAX_MOVES],
            won: false,
        }
    }

    /// The standard 7 x 6 position reached by the move string `moves` (`"4453"`: columns
    /// 1-based from the left, first player first).
    ///
    /// # Errors
    /// [`MoveError`] naming the 1-based index of the first refused character.
    pub fn from_moves(moves: &str) -> Result<Self, MoveError> {
        Self::parse(Geometry::STANDARD, moves)
    }

    /// The position of `geom` reached by the move string `moves`.
    ///
    /// # Errors
    /// [`MoveError`]: a character that is not a column, a column off the board, a full column,
    /// or a move after the game was won, with its 1-based index in `moves`.
    pub fn parse(geom: Geometry, moves: &str) -> Result<Self, MoveError> {
        let mut pos = Self::empty(geom);
        let mut won_at = 0;
        for (i, ch) in moves.chars().enumerate() {
            let index = i + 1;
            let width = geom.width();
            let col = Column::from_char(ch)
                .filter(|c| width > 9 || c.index() < 9)
                .ok_or(MoveError::NotAColumn { index, found: ch, width })?;
            if col.index() >= width {
                return Err(MoveError::OffBoard { index, column: col.index() + 1, width });
            }
            if pos.won {
                return Err(MoveError::AfterWin { index, won_at });
            }
            pos = pos.try_play(col.index()).map_err(|e| match e {
                PlayError::ColumnFull { .. } | PlayError::GameOver => {
                    MoveError::ColumnFull { index, column: col.index() + 1 }
                }
                PlayError::OffBoard { .. } => unreachable!("checked above"),
            })?;
            if pos.won {
                won_at = index;
            }
        }
        Ok(pos)
    }

    /// The geometry.
    #[must_use]
    pub const fn geometry(&self) -> &Geometry {
        &self.geom
    }

    /// The search state (bitboards and stone count).
    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// Number of stones on the board.
    #[must_use]
    pub const fn moves_played(&self) -> usize {
        self.board.moves as usize
    }

    /// The columns played so far, in order.
    pub fn history(&self) -> impl ExactSizeIterator<Item = Column> + '_ {
        self.history[..self.moves_played()].iter().map(|&c| Column(c))
    }

    /// The move string of this position (`"4453"`), as parsed by [`Position::parse`].
    #[must_use]
    pub fn moves_string(&self) -> String {
        self.history().map(Column::to_char).collect()
    }

    /// The player to move (the first player on an even number of stones).
    #[must_use]
    pub const fn to_move(&self) -> Player {
        if self.board.moves % 2 == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    /// Whether the player who moved last has `k` in a row.
    #[must_use]
    pub const fn is_won(&self) -> bool {
        self.won
    }

    /// Whether the board is full.
    #[must_use]
    pub const fn is_full(&self) -> bool {
        self.board.moves as usize == self.geom.cells()
    }

    /// Whether the game is over: won or full.
    #[must_use]
    pub const fn is_over(&self) -> bool {
        self.won || self.is_full()
    }

    /// The winner, if the game is won.
    #[must_use]
    pub const fn winner(&self) -> Option<Player> {
        if self.won {
            Some(self.to_move().opponent())
        } else {
            None
        }
    }

    /// Whether a stone can be dropped in the 0-based `column` (on the board, not full, game not
    /// over).
    #[must_use]
    pub fn can_play(&self, column: usize) -> bool {
        column < self.geom.width() && !self.is_over() && self.board.mask & self.geom.top_cell(column) == 0
    }

    /// The columns where a stone can be dropped, left to right.
    pub fn legal_columns(&self) -> impl Iterator<Item = Column> + '_ {
        (0..self.geom.width()).filter(|&c| self.can_play(c)).map(|c| Column(c as u8))
    }

    /// Whether dropping a stone in the playable 0-based `column` makes `k` in a row.
    #[must_use]
    pub fn is_winning_move(&self, column: usize) -> bool {
        self.can_play(column)
            && self.board.mine & self.geom.playable(self.board.mask) & self.geom.column_mask(column) != 0
    }

    /// Whether the side to move can make `k` in a row with its next stone.
    #[must_use]
    pub fn can_win_next(&self) -> bool {
        !self.is_over() && self.board.mine & self.geom.playable(self.board.mask) != 0
    }

    /// The owner of cell (`column`, `row`) (0-based, row 0 at the bottom), `None` if empty or off
    /// the board.
    #[must_use]
    pub fn cell(&self, column: usize, row: usize) -> Option<Player> {
        if column >= self.geom.width() || row >= self.geom.height() {
            return None;
        }
        let bit = self.geom.cell_bit(column, row);
        if self.board.mask & bit == 0 {
            None
        } else if self.board.current & bit != 0 {
            Some(self.to_move())
        } else {
            Some(self.to_move().opponent())
        }
    }

    /// Plays the 0-based `column` and returns the new position.
    ///
    /// # Errors
    /// [`PlayError`] if the column is off the board or full, or the game is over.
    pub fn try_play(&self, column: usize) -> Result<Position, PlayError> {
        if column >= self.geom.width() {
            return Err(PlayError::OffBoard { column, width: self.geom.width() });
        }
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        if self.board.mask & self.geom.top_cell(column) != 0 {
            return Err(PlayError::ColumnFull { column });
        }
        let mut next = *self;
        next.board = self.board.play(&self.geom, column);
        next.history[self.moves_played()] = column as u8;
        next.won = self.geom.has_line(next.board.opponent());
        Ok(next)
    }

    /// Plays the 0-based `column` and returns the new position.
    ///
    /// # Panics
    /// If the move is illegal (see [`Position::try_play`]); check with [`Position::can_play`].
    #[must_use]
    pub fn play(&self, column: usize) -> Position {
        match self.try_play(column) {
            Ok(p) => p,
            Err(e) => panic!("illegal move in {self:?}: {e}"),
        }
    }

    /// The position code folded over the left-right mirror: equal for a position and its
    /// mirror image.
    #[must_use]
    pub fn symmetric_key(&self) -> u64 {
        let code = self.board.code();
        code.min(self.geom.mirror(code))
    }
}

/// Draws the board, top row first: `X` for the first player, `O` for the second, `.` empty,
/// then the column numbers.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..self.geom.height()).rev() {
            for col in 0..self.geom.width() {
                let c = match self.cell(col, row) {
                    Some(Player::First) => 'X',
                    Some(Player::Second) => 'O',
                    None => '.',
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        for col in 0..self.geom.width() {
            write!(f, "{}", Column(col as u8))?;
        }
        writeln!(f)
    }
}

/// An unvalidated position: a board size, `k` and a move string, as read from input. Turn it
/// into a [`Position`] with `Position::try_from(&setup)`, which checks everything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Stones in a row needed to win.
    pub k: usize,
    /// Columns played, 1-based characters (`"4453"`).
    pub moves: String,
}

impl Default for Setup {
    fn default() -> Self {
        Setup { width: 7, height: 6, k: 4, moves: String::new() }
    }
}

/// Why a [`Setup`] is not a position.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum SetupError {
    /// The board size or `k` is refused.
    #[error(transparent)]
    Geometry(#[from] GeometryError),
    /// The move string is refused.
    #[error(transparent)]
    Move(#[from] MoveError),
}

impl TryFrom<&Setup> for Position {
    type Error = SetupError;

    fn try_from(setup: &Setup) -> Result<Self, SetupError> {
        let geom = Geometry::with_k(setup.width, setup.height, setup.k)?;
        Ok(Position::parse(geom, &setup.moves)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_strings_round_trip() {
        for s in ["", "4", "4453", "12345671234567", "444444"] {
            assert_eq!(Position::from_moves(s).unwrap().moves_string(), s);
        }
    }

    #[test]
    fn bad_move_strings_name_their_index() {
        assert_eq!(
            Position::from_moves("44x"),
            Err(MoveError::NotAColumn { index: 3, found: 'x', width: 7 })
        );
        assert_eq!(Position::from_moves("48"), Err(MoveError::OffBoard { index: 2, column: 8, width: 7 }));
        assert_eq!(Position::from_moves("40"), Err(MoveError::NotAColumn { index: 2, found: '0', width: 7 }));
        assert_eq!(Position::from_moves("4444444"), Err(MoveError::ColumnFull { index: 7, column: 4 }));
        // First player wins vertically with the 7th move; the 8th is refused.
        assert_eq!(Position::from_moves("1212121"), Position::from_moves("1212121"));
        assert!(Position::from_moves("1212121").unwrap().is_won());
        assert_eq!(Position::from_moves("12121213"), Err(MoveError::AfterWin { index: 8, won_at: 7 }));
    }

    #[test]
    fn setup_is_validated() {
        let s = Setup { width: 9, height: 7, k: 4, moves: "1".into() };
        assert!(matches!(Position::try_from(&s), Err(SetupError::Geometry(_))));
        let s = Setup { width: 4, height: 4, k: 3, moves: "5".into() };
        assert!(matches!(
            Position::try_from(&s),
            Err(SetupError::Move(MoveError::OffBoard { index: 1, .. }))
        ));
        let s = Setup { width: 4, height: 4, k: 3, moves: "112".into() };
        assert_eq!(Position::try_from(&s).unwrap().moves_string(), "112");
    }

    #[test]
    fn display_draws_the_board() {
        let p = Position::from_moves("4453").unwrap();
        let text = p.to_string();
        assert!(text.ends_with("...O...\n..OXX..\n1234567\n"), "{text}");
    }
}
