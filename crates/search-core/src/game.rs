//! The [`Game`] trait, the [`Player`] enum and the [`Value`] type.

use std::fmt::Debug;

/// A game value: a margin in the game's own points (triangles, stones' scores, CCF points, …).
///
/// `i64` so that generalised boards with large point values cannot overflow.
pub type Value = i64;

/// A value larger than any real game value; `-INFINITY..INFINITY` is the full alpha-beta window.
///
/// Kept far below `i64::MAX` so that adding a move's gain to a window bound cannot overflow.
pub const INFINITY: Value = i64::MAX / 4;

/// One of the two players. `First` moves first in the game's standard start position
/// (A in Triangle War, Black in the Young-diagram game, x / Alice in tic-tac-toe).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The player who moves first from the empty board.
    First,
    /// The other player.
    Second,
}

impl Player {
    /// The other player.
    #[must_use]
    pub const fn opponent(self) -> Self {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// `+1` for [`Player::First`], `-1` for [`Player::Second`]: multiplies a value seen from this
    /// player's side to give it from the first player's side (and back).
    #[must_use]
    pub const fn sign(self) -> Value {
        match self {
            Player::First => 1,
            Player::Second => -1,
        }
    }
}

/// A two-player, zero-sum game of perfect information, as seen by the engine.
///
/// Immutable data shared by all positions (board geometry, value matrices) lives in the
/// implementing type; a [`Game::Position`] is a small `Copy` state (copy-make: playing a move
/// returns a new position and never mutates the old one).
///
/// # Contract
/// - [`Game::terminal_value`] is `Some` exactly for finished positions; every other position has
///   at least one legal move.
/// - [`Game::key`] identifies the *value* of a position: two positions with the same key must
///   have the same remaining value from the side to move. It may ignore history (banked points,
///   absolute player) and may canonicalise symmetries; the TT's remembered move is then only an
///   ordering hint, used only if it is among the position's legal moves.
/// - Values are integers; the game must end on every line of play.
pub trait Game {
    /// Whether [`crate::Solver`] starts with principal variation search (PVS: a null window
    /// for every move after the first) switched on. PVS pays when the move ordering usually
    /// finds the best move first (Triangle War: 16.1M -> 11.7M nodes on the empty side-4 board);
    /// with weak ordering and widely spread values its re-searches cost more than they save
    /// (Young-diagram 10x10: 3.7M -> 47M nodes), so such games set this to `false`.
    const PRINCIPAL_VARIATION_SEARCH: bool = true;

    /// A position: everything needed to continue the game. Small and `Copy`.
    type Position: Copy + Debug;
    /// A move. Small and `Copy`; compared for equality when the TT suggests a best move.
    type Move: Copy + Eq + Debug;

    /// The player to move in `pos`.
    fn to_move(&self, pos: &Self::Position) -> Player;

    /// `Some(v)` if `pos` is finished, where `v` is the value of the (empty) remaining play from
    /// the side to move: `0` for games scored by move gains (Triangle War, Young diagrams),
    /// the final score for games scored at the end (tic-tac-toe). `None` otherwise.
    fn terminal_value(&self, pos: &Self::Position) -> Option<Value>;

    /// Writes the legal moves of the non-terminal position `pos` into `moves` (cleared first by
    /// the caller). The order written is the default move ordering.
    fn generate_moves(&self, pos: &Self::Position, moves: &mut Vec<Self::Move>);

    /// Plays `mv` (legal in `pos`) and returns the new position and the points the move banks
    /// for the player who made it (possibly 0, never counted again by the search).
    fn play(&self, pos: &Self::Position, mv: Self::Move) -> (Self::Position, Value);

    /// A 64-bit key for the TT; see the trait's contract. Collisions of distinct positions under
    /// one key are not allowed (the TT compares keys, not positions).
    fn key(&self, pos: &Self::Position) -> u64;

    /// Bounds `(lo, hi)` on the value of the remaining play from the side to move, used to prune
    /// (e.g. ± the number of triangles still open). The default knows nothing.
    fn value_bounds(&self, _pos: &Self::Position) -> (Value, Value) {
        (-INFINITY, INFINITY)
    }

    /// Move-ordering hook: reorder `moves` (legal in `pos`) best-first by a cheap guess. The TT's
    /// remembered best move, when there is one, is tried before all of them. Default: keep order.
    fn order_moves(&self, _pos: &Self::Position, _moves: &mut [Self::Move]) {}

    /// Points already banked before `pos`, from the first player's side (e.g. A's triangles minus
    /// B's). Only used when reporting values ([`crate::Analysis`]); never by the search. Default 0.
    fn banked(&self, _pos: &Self::Position) -> Value {
        0
    }
}
