//! The [`Game`] trait, the hooks of a game that expands a node with its terminal test
//! ([`Expansion`], reached through [`Game::visit_search`] and a [`SearchVisitor`]), the
//! [`Player`] enum, the [`Value`] type and the TT key types ([`TtKey`]).

use std::fmt::Debug;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::PackedMove;

/// A game value: a margin in the game's own points (triangles, stones' scores, CCF points, …).
///
/// `i64` so that generalised boards with large point values cannot overflow.
pub type Value = i64;

/// A value larger than any real game value; `-INFINITY..INFINITY` is the full alpha-beta window.
///
/// Kept far below `i64::MAX` so that adding a move's gain to a window bound cannot overflow.
pub const INFINITY: Value = i64::MAX / 4;

/// `mv` played in `game` from `pos`, a move worth `value` to `pos`'s side to move: the child,
/// and its value to its own side to move (a move is worth its gain plus the child's value when
/// the same side moves again, its gain minus it otherwise). For walking a principal variation
/// (PV) down from a known value.
pub fn play_keeping<G: Game>(game: &G, pos: &G::Position, mv: G::Move, value: Value) -> (G::Position, Value) {
    let (child, gain) = game.play(pos, mv);
    let same = game.to_move(&child) == game.to_move(pos);
    (child, if same { value - gain } else { gain - value })
}

/// Who wins under perfect play, from one player's side: the side to move's (Connect Four's
/// weak solve) or the first player's (Triangle War's judge answer), as the function that
/// returns it says. Ordered from that player's view: `Loss < Draw < Win`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// The other player wins.
    Loss,
    /// Neither player can force a win (or the margin ends level).
    Draw,
    /// This player wins.
    Win,
}

impl Outcome {
    /// The outcome of an exact value or margin from this player's side: its sign.
    #[must_use]
    pub const fn of_value(value: Value) -> Outcome {
        if value > 0 {
            Outcome::Win
        } else if value < 0 {
            Outcome::Loss
        } else {
            Outcome::Draw
        }
    }

    /// `1`, `0` or `-1`.
    #[must_use]
    pub const fn sign(self) -> Value {
        match self {
            Outcome::Loss => -1,
            Outcome::Draw => 0,
            Outcome::Win => 1,
        }
    }

    /// The same result from the other player's side.
    #[must_use]
    pub const fn flipped(self) -> Outcome {
        match self {
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Win => Outcome::Loss,
        }
    }
}

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
///
/// A game, its positions and moves can be shared by threads (`Sync`, `Send`), and a move packs
/// into the shared TT's 10-bit field ([`PackedMove`]), so that any game can be searched on any
/// number of threads.
pub trait Game: Sync {
    /// A position: everything needed to continue the game. Small and `Copy`.
    type Position: Copy + Debug + Send + Sync;
    /// A move. Small and `Copy`; compared for equality when the TT suggests a best move.
    type Move: Copy + Eq + Debug + Send + Sync + PackedMove;
    /// The TT key: `u64`, or `u128` for games whose positions need more bits (an m,n,k board
    /// larger than 40 cells in base 3).
    type Key: TtKey;

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
    /// for the player who made it (possibly 0, never counted again by the search). A game may
    /// fold forced continuations into one call (Triangle War's forced captures); the points are
    /// then net, the mover's minus the opponent's, and may be negative.
    fn play(&self, pos: &Self::Position, mv: Self::Move) -> (Self::Position, Value);

    /// The TT key of `pos`; see the trait's contract. Collisions of distinct positions under
    /// one key are not allowed (the TT compares keys, not positions).
    fn key(&self, pos: &Self::Position) -> Self::Key;

    /// The TT key of `pos` and the [`Symmetry`] that maps `pos` onto the key's canonical
    /// orientation. The TT stores best moves in the canonical orientation, so that a hint found
    /// through a symmetric position is mapped back onto a move of this one
    /// ([`Game::move_to_canonical`], [`Game::move_from_canonical`]); under
    /// [`Symmetry::Unmapped`] no best move is stored or used. Default: [`Game::key`] and the
    /// identity, for games whose keys fold no symmetry.
    fn canonical_key(&self, pos: &Self::Position) -> (Self::Key, Symmetry) {
        (self.key(pos), Symmetry::IDENTITY)
    }

    /// `mv`, a move of a position, as the same move of its canonical image under the board
    /// symmetry `symmetry` (the index of a [`Symmetry::Map`] from [`Game::canonical_key`]).
    /// Default: unchanged.
    fn move_to_canonical(&self, mv: Self::Move, _symmetry: u8) -> Self::Move {
        mv
    }

    /// The inverse of [`Game::move_to_canonical`]. Default: unchanged.
    fn move_from_canonical(&self, mv: Self::Move, _symmetry: u8) -> Self::Move {
        mv
    }

    /// Bounds `(lo, hi)` on the value of the remaining play from the side to move, used to prune
    /// (e.g. ± the number of triangles still open). The default knows nothing.
    fn value_bounds(&self, _pos: &Self::Position) -> (Value, Value) {
        (-INFINITY, INFINITY)
    }

    /// The positions the game's own code has visited so far, on every thread, outside the
    /// engine's negamax: a dedicated solver of the last plies that [`Game::value_bounds`]
    /// calls, say. A counter that only grows; [`crate::Engine::stats`] adds what it grew by
    /// since the engine was built (or its statistics reset) to [`crate::Stats::nodes`], and
    /// [`crate::Limits::max_nodes`] counts it, so that a node means a position visited
    /// whichever code visited it. The work of a TT entry (its subtree's size, which decides
    /// what a full table and a snapshot keep) counts the negamax's nodes alone: Othello's FFO
    /// 40-52 take the same nodes either way. Default: 0 (the negamax visits every position).
    fn own_nodes(&self) -> u64 {
        0
    }

    /// Whether the children of `pos` can have TT entries: `false` where [`Game::value_bounds`]
    /// values every child outright (bounds that meet, or that the window cannot fall between),
    /// so that the search never stores them. Enhanced transposition cutoff then skips the
    /// children's look-ups at `pos` (each a likely cache miss that cannot hit). Only work
    /// depends on it, never a value. Default: `true`.
    fn children_in_table(&self, _pos: &Self::Position) -> bool {
        true
    }

    /// What a TT key of this game names: a version of [`Game::key`] and the settings that change
    /// it (e.g. rules that fold symmetric positions into one key). A TT snapshot (see
    /// [`crate::tt_snapshot_to_text`]) is saved with it and refused under another scheme, whose
    /// keys may name other positions. Bump the version whenever a change of the key function
    /// makes an old key name another position. Default: `1`.
    fn key_scheme(&self) -> String {
        "1".to_string()
    }

    /// Keys below `2^narrow_key_bits()` (8 to 64) are kept in the narrow part of the
    /// [`crate::SharedTable`] of several threads, seven entries to a cache line instead of the
    /// three of the `u128` lines ([`crate::SharedTable::with_bits_narrow`]): a game with `u128`
    /// keys whose common keys are small says how small. Default: 0 (no narrow part).
    fn narrow_key_bits(&self) -> u32 {
        0
    }

    /// Move-ordering hook: reorder `moves` (legal in `pos`) best-first by a cheap guess. The TT's
    /// remembered best move, when there is one, is tried before all of them. Default: keep order.
    fn order_moves(&self, _pos: &Self::Position, _moves: &mut [Self::Move]) {}

    /// Whether the search may put [`Game::order_moves`] off at `pos` while it has the TT's best
    /// move to search first: the other moves are then ordered only if that move does not end
    /// the node (`order_moves` gets the slice of the others). For a game whose ordering costs
    /// more than a TT look-up, at the positions where it does. Only work depends on it, never
    /// a value. Default: `false`.
    fn order_after_hint(&self, _pos: &Self::Position) -> bool {
        false
    }

    /// Points already banked before `pos`, from the first player's side (e.g. A's triangles minus
    /// B's). Only used when reporting values ([`crate::Analysis`]); never by the search. Default 0.
    fn banked(&self, _pos: &Self::Position) -> Value {
        0
    }

    /// How the engine's search reaches this game's [`Expansion`] hooks: a game that implements
    /// [`Expansion`] returns `visitor.expanded()`; the default, `visitor.plain()`, searches
    /// without hooks. Called once per search, so that the search is compiled for the hooks.
    fn visit_search<V: SearchVisitor<Self>>(visitor: V) -> V::Output
    where
        Self: Sized,
    {
        visitor.plain()
    }
}

/// What the engine runs on a game, as [`Game::visit_search`] picks it: the search without
/// hooks ([`SearchVisitor::plain`]) or with the game's [`Expansion`]
/// ([`SearchVisitor::expanded`]). Implemented by the engine; a game only calls one of the two.
pub trait SearchVisitor<G: Game> {
    /// What the visit returns.
    type Output;
    /// The search of a game without hooks.
    fn plain(self) -> Self::Output;
    /// The search of a game with its [`Expansion`] hooks.
    fn expanded(self) -> Self::Output
    where
        G: Expansion;
}

/// The search hooks of a game whose terminal test computes what ordering and play need
/// (Connect Four): the moves made with the terminal test, a memo of words per node, the TT
/// probed before the expansion, and a reordering that sees the window. A game without them
/// implements [`Game`] alone; a game with them implements this trait (every item has a
/// default) and returns `visitor.expanded()` from [`Game::visit_search`].
pub trait Expansion: Game {
    /// Whether the engine's search asks [`Expansion::terminal_or_moves`] for a node's terminal value
    /// and its ordered moves in one call, instead of [`Game::terminal_value`] first and
    /// [`Game::generate_moves`] and [`Game::order_moves`] after the bounds and the TT probe.
    /// Worth it for games whose terminal test computes most of what ordering needs (Connect
    /// Four's winning spots after each move), although the moves are then made at nodes that
    /// the bounds or the TT cut. Default: false.
    const EXPANDS_WITH_TERMINAL_TEST: bool = false;

    /// [`Game::terminal_value`] of `pos`; for a position that is not terminal, also writes its
    /// legal moves into `moves` (cleared by the caller) in the order to search them, as
    /// [`Game::generate_moves`] then [`Game::order_moves`] would. The game may also leave in
    /// `memo` (a buffer of the search's for this node, in whatever state the game left it at
    /// an earlier node of the same depth) what it computed for the moves, which
    /// [`Expansion::play_memo`] then reads back when the search plays them. The search calls it when
    /// [`Expansion::EXPANDS_WITH_TERMINAL_TEST`] is true. Default: those three calls, no memo.
    fn terminal_or_moves(
        &self,
        pos: &Self::Position,
        moves: &mut Vec<Self::Move>,
        _memo: &mut Vec<u64>,
    ) -> Option<Value> {
        if let Some(v) = self.terminal_value(pos) {
            return Some(v);
        }
        self.generate_moves(pos, moves);
        self.order_moves(pos, moves);
        None
    }

    /// Whether the search, for a game with [`Expansion::EXPANDS_WITH_TERMINAL_TEST`], probes the TT
    /// before [`Expansion::terminal_or_moves`]: first [`Expansion::quick_terminal_value`] and the bounds
    /// of [`Expansion::early_value_bounds`], then the TT probe, and only at the nodes these do not
    /// end the moves with the rest of the terminal test, then the bounds of
    /// [`Expansion::expanded_value_bounds`]. Worth it where the expansion is the costly part of a
    /// node and the bounds and the TT end many nodes (Connect Four). Default: false.
    const PROBES_BEFORE_EXPANSION: bool = false;

    /// With [`Expansion::PROBES_BEFORE_EXPANSION`]: `Some` value for a position a cheap part of the
    /// terminal test settles (the value [`Game::terminal_value`] gives), `None` when the rest
    /// of the test ([`Expansion::terminal_or_moves`]) is still to come. Default: the whole test.
    fn quick_terminal_value(&self, pos: &Self::Position) -> Option<Value> {
        self.terminal_value(pos)
    }

    /// With [`Expansion::PROBES_BEFORE_EXPANSION`]: bounds on the value of a position
    /// [`Expansion::quick_terminal_value`] does not settle that hold whether or not the rest of the
    /// terminal test would settle it. Default: [`Game::value_bounds`].
    fn early_value_bounds(&self, pos: &Self::Position) -> (Value, Value) {
        self.value_bounds(pos)
    }

    /// With [`Expansion::PROBES_BEFORE_EXPANSION`]: the bounds `early` (from
    /// [`Expansion::early_value_bounds`]), tightened by what holds once [`Expansion::terminal_or_moves`]
    /// found `pos` not terminal (no wider than [`Game::value_bounds`] would be). Default:
    /// `early`.
    fn expanded_value_bounds(&self, _pos: &Self::Position, early: (Value, Value)) -> (Value, Value) {
        early
    }

    /// [`Game::play`] of `mv`, one of the moves that [`Expansion::terminal_or_moves`] wrote for `pos`,
    /// with the `memo` it left: the search plays a node's moves through this when
    /// [`Expansion::EXPANDS_WITH_TERMINAL_TEST`] is true. Must return what `play` does. Default:
    /// `play`.
    fn play_memo(&self, pos: &Self::Position, mv: Self::Move, _memo: &[u64]) -> (Self::Position, Value) {
        self.play(pos, mv)
    }

    /// Move-ordering hook that sees the window: called at every node that searches its moves,
    /// one move or more (after the terminal test, the bounds and the TT probe have not ended
    /// it), with its moves in the order they will be searched (the TT's best move first, if
    /// any), the window `(alpha, beta)` the node searches with and the bounds `(lo, hi)` the
    /// game and the TT gave it; `memo` is what [`Expansion::terminal_or_moves`] left for the
    /// moves (empty for a game without [`Expansion::EXPANDS_WITH_TERMINAL_TEST`]). A game may
    /// reorder `moves` (e.g. look harder for a quick win only where the window asks for one).
    /// Ordering only: the value is the same whatever it does. Default: keep order.
    fn order_in_window(
        &self,
        _pos: &Self::Position,
        _moves: &mut [Self::Move],
        _memo: &[u64],
        _window: (Value, Value),
        _bounds: (Value, Value),
    ) {
    }
}

/// How a position maps onto the canonical orientation of its TT key ([`Game::canonical_key`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// The board symmetry with this game-defined index (0 is the identity): best moves are
    /// mapped through it ([`Game::move_to_canonical`], [`Game::move_from_canonical`]).
    Map(u8),
    /// The key names a class of positions that moves do not map between (an isomorphism class,
    /// such as Triangle War's strings-and-coins graph keys): no best move is stored or used.
    Unmapped,
}

impl Symmetry {
    /// The identity: the position is its own canonical orientation.
    pub const IDENTITY: Symmetry = Symmetry::Map(0);
}

/// A TT key type: compared in full on every probe, hashed to 64 bits to pick a bucket, and
/// stored in atomic words in the table that threads share ([`crate::SharedTable`]).
///
/// Implemented for `u64` (one word) and `u128` (two words).
pub trait TtKey: Copy + Eq + std::hash::Hash + Debug + Send + Sync {
    /// The atomic words that hold a key in the shared table.
    type Atoms: Default + Debug + Send + Sync;

    /// The [`crate::SharedTable`]'s bucket for this key type: two entries for `u64`
    /// ([`crate::PairBucket`]), three to a cache line for `u128` ([`crate::LineBucket`]).
    type Bucket: crate::SharedBucket<Self>;

    /// 64 bits that depend on every bit of the key (the TT multiplies them by a Fibonacci
    /// constant and keeps the top bits).
    fn hash64(self) -> u64;

    /// Reads a key from its words (relaxed loads; the shared table's version check orders
    /// them).
    fn load(atoms: &Self::Atoms) -> Self;

    /// Writes the key into its words (relaxed stores).
    fn store(self, atoms: &Self::Atoms);

    /// The key's width in bits: a narrow part at least this wide holds every key
    /// ([`crate::SharedTable::with_bits_narrow`] then gives it all the memory).
    const BITS: u32;

    /// The key as a `u64` if it is below `2^bits` (`bits` 1 to 64), for the narrow part of a
    /// [`crate::SharedTable`] ([`crate::SharedTable::with_bits_narrow`]).
    fn narrow(self, bits: u32) -> Option<u64>;

    /// The key whose [`TtKey::narrow`] is `low`.
    fn from_narrow(low: u64) -> Self;

    /// The key widened to 128 bits, as an opening book ([`crate::Book`]) stores it.
    fn to_u128(self) -> u128;

    /// The key whose [`TtKey::to_u128`] is `wide`, if there is one (a message or file read
    /// back).
    fn from_u128(wide: u128) -> Option<Self>;
}

impl TtKey for u64 {
    type Atoms = AtomicU64;
    type Bucket = crate::PairBucket<u64>;
    const BITS: u32 = 64;

    #[inline]
    fn hash64(self) -> u64 {
        self
    }
    #[inline]
    fn load(atoms: &AtomicU64) -> u64 {
        atoms.load(Ordering::Relaxed)
    }
    #[inline]
    fn store(self, atoms: &AtomicU64) {
        atoms.store(self, Ordering::Relaxed);
    }
    #[inline]
    fn narrow(self, bits: u32) -> Option<u64> {
        (self.checked_shr(bits).unwrap_or(0) == 0).then_some(self)
    }
    fn from_narrow(low: u64) -> u64 {
        low
    }
    #[inline]
    fn to_u128(self) -> u128 {
        u128::from(self)
    }
    fn from_u128(wide: u128) -> Option<u64> {
        u64::try_from(wide).ok()
    }
}

impl TtKey for u128 {
    type Atoms = [AtomicU64; 2];
    type Bucket = crate::LineBucket;
    const BITS: u32 = 128;

    #[inline]
    fn hash64(self) -> u64 {
        // Fold the high half in with an odd multiplier, so that keys differing only in their
        // high 64 bits still differ here.
        let (lo, hi) = (self as u64, (self >> 64) as u64);
        lo ^ hi.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
    }
    #[inline]
    fn load(atoms: &[AtomicU64; 2]) -> u128 {
        u128::from(atoms[0].load(Ordering::Relaxed)) | u128::from(atoms[1].load(Ordering::Relaxed)) << 64
    }
    #[inline]
    fn store(self, atoms: &[AtomicU64; 2]) {
        atoms[0].store(self as u64, Ordering::Relaxed);
        atoms[1].store((self >> 64) as u64, Ordering::Relaxed);
    }
    #[inline]
    fn narrow(self, bits: u32) -> Option<u64> {
        (self >> bits == 0).then_some(self as u64)
    }
    fn from_narrow(low: u64) -> u128 {
        u128::from(low)
    }
    #[inline]
    fn to_u128(self) -> u128 {
        self
    }
    fn from_u128(wide: u128) -> Option<u128> {
        Some(wide)
    }
}
