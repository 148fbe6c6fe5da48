//! [`Setup`] (an unvalidated board: discs, side to move) and [`Position`] (validated), with
//! [`Move`] (a square or a pass) and the rules: legal moves, [`Position::play`] /
//! [`Position::try_play`], the end of the game and its score (FFO / WOF rule).

use std::fmt;

use search_core::{Player, Value};

use crate::{Bitboard, Geometry, Square};

/// A move: a disc played on a square, or a pass (legal only when the side to move has no
/// square to play and the game is not over).
///
/// Shown as in the FFO files: the square in upper case (`G8`), or `PASS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A disc on this square.
    Play(Square),
    /// No disc: the turn goes to the opponent.
    Pass,
}

impl Move {
    /// The move named `text`: a square `a1` to `h8` (either case) or `pass` / `PS` (either
    /// case), if it is one; legality is [`Position::try_play`]'s question.
    #[must_use]
    pub fn parse(text: &str) -> Option<Move> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("pass") || text.eq_ignore_ascii_case("ps") {
            return Some(Move::Pass);
        }
        Square::parse(text).map(Move::Play)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(sq) => write!(f, "{}", sq.to_string().to_ascii_uppercase()),
            Move::Pass => f.write_str("PASS"),
        }
    }
}

/// The TT code of a move: the square's bit index, 64 for a pass.
impl search_core::PackedMove for Move {
    #[inline]
    fn pack(self) -> Option<u16> {
        Some(match self {
            Move::Play(sq) => u16::from(sq.0),
            Move::Pass => 64,
        })
    }
    #[inline]
    fn unpack(code: u16) -> Move {
        if code >= 64 {
            Move::Pass
        } else {
            Move::Play(Square(code as u8))
        }
    }
}

/// The name of a player's colour: Black ([`Player::First`], `X`, moves first) or White
/// ([`Player::Second`], `O`).
#[must_use]
pub fn colour_name(p: Player) -> &'static str {
    match p {
        Player::First => "Black",
        Player::Second => "White",
    }
}

/// An unvalidated position: a board side, Black's and White's discs, the side to move
/// (Black is [`Player::First`]). [`Position::try_from`] checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The board side n.
    pub size: usize,
    /// Black's discs (`X`).
    pub black: Bitboard,
    /// White's discs (`O`).
    pub white: Bitboard,
    /// The side to move.
    pub to_move: Player,
}

/// Why a [`Setup`] is not a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The board side is not 4, 6 or 8.
    #[error(transparent)]
    Size(#[from] crate::SizeError),
    /// A disc off the n x n board.
    #[error("a disc on {0}, off the board")]
    OffBoard(Square),
    /// A square with both colours.
    #[error("{0} holds both a black and a white disc")]
    BothColours(Square),
    /// A centre square empty: the game starts with the four centre squares occupied and
    /// discs are never removed.
    #[error("the centre square {0} is empty: every game starts with the four centre squares occupied")]
    EmptyCentre(Square),
}

/// Why a move cannot be played ([`Position::try_play`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game is over: neither side can move.
    #[error("the game is over")]
    GameOver,
    /// A square off the board.
    #[error("{0} is off the board")]
    OffBoard(Square),
    /// An occupied square.
    #[error("{0} is occupied")]
    Occupied(Square),
    /// A square that turns over no disc.
    #[error("{0} turns over no disc")]
    NoFlip(Square),
    /// A pass while the side to move has a square to play.
    #[error("a pass is legal only with no square to play")]
    PassWithMoves,
    /// A square while the side to move has none (it must pass).
    #[error("no square to play: the only move is PASS")]
    MustPass,
}

/// A validated Othello position: the discs of the side to move and of its opponent on an
/// n x n board, and which colour is to move. Small and `Copy` (copy-make). Shown by `Debug`
/// as its OBF line.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    geometry: &'static Geometry,
    player: u64,
    opponent: u64,
    to_move: Player,
}

impl TryFrom<Setup> for Position {
    type Error = SetupError;

    fn try_from(s: Setup) -> Result<Position, SetupError> {
        let geometry = Geometry::new(s.size)?;
        let board = geometry.board();
        if let Some(sq) = ((s.black | s.white) & !board).first() {
            return Err(SetupError::OffBoard(sq));
        }
        if let Some(sq) = (s.black & s.white).first() {
            return Err(SetupError::BothColours(sq));
        }
        if let Some(sq) = (geometry.centre() & !(s.black | s.white)).first() {
            return Err(SetupError::EmptyCentre(sq));
        }
        let (player, opponent) = match s.to_move {
            Player::First => (s.black.0, s.white.0),
            Player::Second => (s.white.0, s.black.0),
        };
        Ok(Position { geometry, player, opponent, to_move: s.to_move })
    }
}

/// The final disc difference for the side with `p` against `o` on a board of `squares`
/// squares, empty squares given to the winner (FFO / World Othello Federation rule).
#[inline]
pub(crate) fn final_score(p: u64, o: u64, squares: u32) -> Value {
    let (mine, theirs) = (Value::from(p.count_ones()), Value::from(o.count_ones()));
    let empty = Value::from(squares) - mine - theirs;
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => mine - theirs + empty,
        std::cmp::Ordering::Less => mine - theirs - empty,
        std::cmp::Ordering::Equal => 0,
    }
}

impl Position {
    /// The standard start on `geometry`'s board: the four centre squares, the top-left and
    /// bottom-right ones White (d4 and e5 on 8x8), the others Black; Black to move.
    #[must_use]
    pub fn start(geometry: &'static Geometry) -> Position {
        let h = geometry.size() / 2;
        let white =
            Bitboard::from_square(Square::new(h - 1, h - 1)) | Bitboard::from_square(Square::new(h, h));
        let black = geometry.centre() & !white;
        Position { geometry, player: black.0, opponent: white.0, to_move: Player::First }
    }

    /// The board.
    #[must_use]
    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.geometry
    }

    /// The colour to move (Black is [`Player::First`]).
    #[must_use]
    #[inline]
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The discs of the side to move.
    #[must_use]
    #[inline]
    pub fn player(&self) -> Bitboard {
        Bitboard(self.player)
    }

    /// The discs of the side not to move.
    #[must_use]
    #[inline]
    pub fn opponent(&self) -> Bitboard {
        Bitboard(self.opponent)
    }

    /// The discs of `colour`.
    #[must_use]
    pub fn discs(&self, colour: Player) -> Bitboard {
        if colour == self.to_move {
            self.player()
        } else {
            self.opponent()
        }
    }

    /// The empty squares.
    #[must_use]
    #[inline]
    pub fn empty(&self) -> Bitboard {
        Bitboard(self.geometry.board().0 & !(self.player | self.opponent))
    }

    /// The colour on `sq`, if any.
    #[must_use]
    pub fn colour_at(&self, sq: Square) -> Option<Player> {
        if self.player().contains(sq) {
            Some(self.to_move)
        } else if self.opponent().contains(sq) {
            Some(self.to_move.opponent())
        } else {
            None
        }
    }

    /// The position as an unvalidated [`Setup`].
    #[must_use]
    pub fn setup(&self) -> Setup {
        Setup {
            size: self.geometry.size(),
            black: self.discs(Player::First),
            white: self.discs(Player::Second),
            to_move: self.to_move,
        }
    }

    /// The squares the side to move can play (empty when it must pass or the game is over).
    #[must_use]
    #[inline]
    pub fn legal_squares(&self) -> Bitboard {
        Bitboard(self.geometry.moves(self.player, self.opponent))
    }

    /// Whether the side to move has no square to play but the opponent has: its only move
    /// is [`Move::Pass`].
    #[must_use]
    pub fn must_pass(&self) -> bool {
        self.legal_squares().is_empty() && self.geometry.moves(self.opponent, self.player) != 0
    }

    /// Whether the game is over: neither side can play a square.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.legal_squares().is_empty() && self.geometry.moves(self.opponent, self.player) == 0
    }

    /// Every legal move: the squares in bit order (row by row from a1), or the one
    /// [`Move::Pass`]; none once the game is over.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let squares = self.legal_squares();
        if squares.is_empty() {
            if self.is_over() {
                Vec::new()
            } else {
                vec![Move::Pass]
            }
        } else {
            squares.map(Move::Play).collect()
        }
    }

    /// The final disc difference for the side to move, empty squares given to the winner
    /// (FFO / WOF rule), as the board stands: the score of a finished game.
    #[must_use]
    pub fn final_score(&self) -> Value {
        final_score(self.player, self.opponent, self.geometry.squares())
    }

    /// Black's discs minus White's, as the board stands.
    #[must_use]
    pub fn disc_difference(&self) -> i32 {
        self.discs(Player::First).count() as i32 - self.discs(Player::Second).count() as i32
    }

    /// `mv` played: the discs it turns over turned, the turn to the opponent.
    ///
    /// `mv` must be legal (see [`Position::try_play`]); an illegal square is played as a
    /// disc that turns nothing over (checked in debug builds).
    #[must_use]
    #[inline]
    pub fn play(&self, mv: Move) -> Position {
        match mv {
            Move::Pass => self.passed(),
            Move::Play(sq) => self.play_square(sq.0, self.geometry.flips(self.player, self.opponent, sq.0)),
        }
    }

    /// The position after the side to move passes.
    #[inline]
    pub(crate) fn passed(&self) -> Position {
        Position {
            geometry: self.geometry,
            player: self.opponent,
            opponent: self.player,
            to_move: self.to_move.opponent(),
        }
    }

    /// The position after a disc on `sq` turning over `flipped`.
    #[inline]
    pub(crate) fn play_square(&self, sq: u8, flipped: u64) -> Position {
        debug_assert!(flipped != 0 && (self.player | self.opponent) >> sq & 1 == 0, "illegal move {sq}");
        Position {
            geometry: self.geometry,
            player: self.opponent ^ flipped,
            opponent: self.player | flipped | 1 << sq,
            to_move: self.to_move.opponent(),
        }
    }

    /// `mv` played if it is legal.
    ///
    /// # Errors
    /// [`PlayError`]: the game is over, the square is off the board, occupied or turns
    /// nothing over, a pass with a square to play, a square with none.
    pub fn try_play(&self, mv: Move) -> Result<Position, PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        let squares = self.legal_squares();
        match mv {
            Move::Pass if squares.is_empty() => Ok(self.passed()),
            Move::Pass => Err(PlayError::PassWithMoves),
            Move::Play(sq) if !self.geometry.contains(sq) => Err(PlayError::OffBoard(sq)),
            Move::Play(_) if squares.is_empty() => Err(PlayError::MustPass),
            Move::Play(sq) if !self.empty().contains(sq) => Err(PlayError::Occupied(sq)),
            Move::Play(sq) if !squares.contains(sq) => Err(PlayError::NoFlip(sq)),
            Move::Play(_) => Ok(self.play(mv)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_has_four_moves_and_black_to_move() {
        let pos = Position::start(Geometry::standard());
        assert_eq!(pos.to_move(), Player::First);
        assert_eq!(pos.colour_at(Square::parse("d4").unwrap()), Some(Player::Second));
        assert_eq!(pos.colour_at(Square::parse("e4").unwrap()), Some(Player::First));
        let names: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
        assert_eq!(names, ["D3", "C4", "F5", "E6"]);
        let next = pos.try_play(Move::parse("f5").unwrap()).unwrap();
        assert_eq!(next.disc_difference(), 3);
        assert_eq!(next.to_move(), Player::Second);
        assert_eq!(pos.try_play(Move::Pass), Err(PlayError::PassWithMoves));
        assert_eq!(pos.try_play(Move::parse("a1").unwrap()), Err(PlayError::NoFlip(Square(0))));
        assert_eq!(pos.try_play(Move::parse("d4").unwrap()), Err(PlayError::Occupied(Square(27))));
        let small = Position::start(Geometry::new(4).unwrap());
        assert_eq!(small.try_play(Move::parse("e1").unwrap()), Err(PlayError::OffBoard(Square(4))));
    }

    #[test]
    fn scores_give_empty_squares_to_the_winner() {
        assert_eq!(final_score(0b111, 0b1, 16), 2 + 12);
        assert_eq!(final_score(0b1, 0b111, 16), -14);
        assert_eq!(final_score(0b11, 0b1100, 16), 0);
    }
}
