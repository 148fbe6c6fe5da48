//! The bitboard of drawn segments and the full game position.

use search_core::Player;

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
}

/// A Triangle War position: drawn segments, triangles owned by each player, player to move.
///
/// Small and `Copy` (copy-make). Ownership is history: the value of the remaining play depends
/// on `drawn` only. Invariant (kept by [`Position::play`] from [`Position::start`]): the owned
/// triangles are exactly the completed ones, each owned by one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Segments drawn so far.
    pub drawn: SegmentSet,
    /// Player to move.
    pub to_move: Player,
    /// Triangles owned by A (the first player): bit `i` is `Geometry::triangles()[i]`.
    pub owned_by_a: u64,
    /// Triangles owned by B, as for `owned_by_a`.
    pub owned_by_b: u64,
}

/// Final result of a game from A's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A owns more triangles.
    AWins,
    /// B owns more triangles.
    BWins,
    /// Equal (possible only with an even number of triangles).
    Draw,
}

impl Outcome {
    /// The outcome of a final margin `a_minus_b` (A's triangles minus B's).
    #[must_use]
    pub fn from_margin(a_minus_b: i64) -> Self {
        match a_minus_b.signum() {
            1 => Outcome::AWins,
            -1 => Outcome::BWins,
            _ => Outcome::Draw,
        }
    }

    /// The judge's words: `A wins.`, `B wins.` or `Draw.`
    #[must_use]
    pub fn judge_text(self) -> &'static str {
        match self {
            Outcome::AWins => "A wins.",
            Outcome::BWins => "B wins.",
            Outcome::Draw => "Draw.",
        }
    }
}

impl Position {
    /// The empty board, A to move.
    #[must_use]
    pub const fn start() -> Self {
        Position { drawn: SegmentSet::EMPTY, to_move: Player::First, owned_by_a: 0, owned_by_b: 0 }
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
