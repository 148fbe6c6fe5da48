//! The bitboard of drawn segments and the full game position.

use search_core::{Outcome, Player};

use crate::Geometry;

/// A set of segments as a bitboard: bit `i` is segment `i` of a [`Geometry`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SegmentSet(pub u64);

impl SegmentSet {
    /// No segment.
    pub const EMPTY: SegmentSet = SegmentSet(0);

    /// The first `len` segments (`len <= 64`).
    #[must_use]
    pub const fn full(len: usize) -> Self {
        if len >= 64 {
            SegmentSet(u64::MAX)
        } else {
            SegmentSet((1 << len) - 1)
        }
    }

    /// This set with segment `s` added.
    #[must_use]
    pub const fn with(self, s: usize) -> Self {
        SegmentSet(self.0 | 1 << s)
    }

    /// Whether segment `s` is in the set.
    #[must_use]
    pub const fn contains(self, s: usize) -> bool {
        self.0 >> s & 1 == 1
    }

    /// Whether every segment of `other` is in the set.
    #[must_use]
    pub const fn contains_all(self, other: SegmentSet) -> bool {
        self.0 & other.0 == other.0
    }

    /// Number of segments in the set.
    #[must_use]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The segment indices in the set, increasing.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                s
            })
        })
    }
}

/// Errors of [`Position::try_play`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The segment index is not on the board.
    #[error("segment {0} is not on the board")]
    NoSuchSegment(usize),
    /// The segment is already drawn.
    #[error("segment {0} is already drawn")]
    AlreadyDrawn(usize),
    /// [`Position::from_parts`]: A is said to own triangle `0` (an index into
    /// [`Geometry::triangles`]), which the drawn segments do not complete.
    #[error("triangle {0} is not completed, so nobody owns it")]
    NotCompleted(usize),
}

/// A Triangle War position: drawn segments, triangles owned by each player, player to move.
///
/// Small and `Copy` (copy-make). Ownership is history: the value of the remaining play depends
/// on the drawn segments only. Invariant (kept by [`Position::play`] from [`Position::start`],
/// checked by [`Position::from_parts`]; the fields are private so nothing else can break it):
/// the owned triangles are exactly the completed ones, each owned by one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    drawn: SegmentSet,
    to_move: Player,
    /// Triangles owned by A (the first player): bit `i` is `Geometry::triangles()[i]`.
    owned_by_a: u64,
    /// Triangles owned by B, as for `owned_by_a`.
    owned_by_b: u64,
}

/// The judge's words for a final result from A's side ([`Outcome`], A the first player):
/// `A wins.`, `B wins.` or `Draw.`
#[must_use]
pub fn judge_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win => "A wins.",
        Outcome::Loss => "B wins.",
        Outcome::Draw => "Draw.",
    }
}

impl Position {
    /// The empty board, A to move.
    #[must_use]
    pub const fn start() -> Self {
        Position { drawn: SegmentSet::EMPTY, to_move: Player::First, owned_by_a: 0, owned_by_b: 0 }
    }

    /// A position from its parts, validated: `drawn` must lie on `geometry`, and `owned_by_a`
    /// (bit `i` is `geometry.triangles()[i]`) must be completed triangles; B owns the other
    /// completed triangles. Who made which triangle is history: the value of the remaining play
    /// depends on `drawn` only.
    ///
    /// # Errors
    /// [`PositionError::NoSuchSegment`] for the first segment off the board;
    /// [`PositionError::NotCompleted`] for the first triangle A owns that is not completed.
    pub fn from_parts(
        geometry: &Geometry,
        drawn: SegmentSet,
        to_move: Player,
        owned_by_a: u64,
    ) -> Result<Position, PositionError> {
        let off = drawn.0 & !geometry.all_segments().0;
        if off != 0 {
            return Err(PositionError::NoSuchSegment(off.trailing_zeros() as usize));
        }
        let completed = geometry
            .triangles()
            .iter()
            .enumerate()
            .filter(|(_, &t)| drawn.contains_all(t))
            .fold(0u64, |acc, (i, _)| acc | 1 << i);
        let stray = owned_by_a & !completed;
        if stray != 0 {
            return Err(PositionError::NotCompleted(stray.trailing_zeros() as usize));
        }
        Ok(Position { drawn, to_move, owned_by_a, owned_by_b: completed & !owned_by_a })
    }

    /// The segments drawn so far.
    #[must_use]
    pub const fn drawn(&self) -> SegmentSet {
        self.drawn
    }

    /// The player to move.
    #[must_use]
    pub const fn to_move(&self) -> Player {
        self.to_move
    }

    /// The triangles `player` owns, as a bitboard: bit `i` is `Geometry::triangles()[i]`.
    #[must_use]
    pub const fn owned(&self, player: Player) -> u64 {
        match player {
            Player::First => self.owned_by_a,
            Player::Second => self.owned_by_b,
        }
    }

    /// Number of triangles owned by A.
    #[must_use]
    pub const fn owned_a(&self) -> u32 {
        self.owned_by_a.count_ones()
    }

    /// Number of triangles owned by B.
    #[must_use]
    pub const fn owned_b(&self) -> u32 {
        self.owned_by_b.count_ones()
    }

    /// Triangles owned by A minus triangles owned by B.
    #[must_use]
    pub fn margin(&self) -> i64 {
        i64::from(self.owned_a()) - i64::from(self.owned_b())
    }

    /// Whether every segment of `geometry` is drawn.
    #[must_use]
    pub fn is_over(&self, geometry: &Geometry) -> bool {
        self.drawn == geometry.all_segments()
    }

    /// Draws segment `s` (which must be on the board and undrawn) and returns the new position
    /// and the number of triangles (0, 1 or 2) it completed; the mover moves again if that is
    /// not 0. See [`Position::try_play`] for the checked version.
    #[must_use]
    pub fn play(&self, geometry: &Geometry, s: usize) -> (Position, u8) {
        let drawn = self.drawn.with(s);
        let won = geometry.border(s).completed(drawn.0);
        let mut next = Position { drawn, ..*self };
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
        if s >= geometry.segments().len() {
            return Err(PositionError::NoSuchSegment(s));
        }
        if self.drawn.contains(s) {
            return Err(PositionError::AlreadyDrawn(s));
        }
        Ok(self.play(geometry, s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions rebuilt from their parts equal the played ones; bad parts are refused.
    #[test]
    fn from_parts_round_trips_played_positions_and_refuses_bad_parts() {
        let g = Geometry::new(3).unwrap();
        let mut pos = Position::start();
        // Draw every segment in index order: the completed triangles go to whoever completed them.
        for s in 0..g.segments().len() {
            pos = pos.play(&g, s).0;
            let rebuilt = Position::from_parts(&g, pos.drawn(), pos.to_move(), pos.owned(Player::First));
            assert_eq!(rebuilt, Ok(pos));
        }
        assert_eq!(pos.owned_a() + pos.owned_b(), 9);
        let off = SegmentSet::EMPTY.with(g.segments().len());
        assert_eq!(
            Position::from_parts(&g, off, Player::First, 0),
            Err(PositionError::NoSuchSegment(g.segments().len()))
        );
        assert_eq!(
            Position::from_parts(&g, SegmentSet::EMPTY, Player::First, 0b100),
            Err(PositionError::NotCompleted(2))
        );
    }
}
