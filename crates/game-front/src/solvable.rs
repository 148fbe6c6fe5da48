//! [`Solvable`]: what a long solve of one position needs to know of its game, written once in
//! each game crate: what the solve is (for checkpoints and stores), which table entries are
//! possible on the board, and how its moves and bounds read.

use search_core::{Game, SolveIdentity, TtEntry, Value};

/// One game's side of a long solve (checkpoints, TT snapshots, the split's store), for the
/// engine of game [`Solvable::G`] (which may be another game type than the front's: Connect
/// Four's fast solver, the win / draw / loss m,n,k game of Find the Winning Move).
pub trait Solvable {
    /// The game the long solve searches.
    type G: Game;
    /// A root position as the judge reads it (it may carry more than the engine's position:
    /// Connect Four's moves in order).
    type Root;

    /// What a checkpoint, a TT snapshot or a store of a solve of `root` belongs to: the game,
    /// the board options, the root position. A file of another identity is refused.
    fn solve_identity(&self, root: &Self::Root) -> SolveIdentity;

    /// Whether a TT entry read from a snapshot of a solve of `root` is possible on its board:
    /// its value within the game's range below `root`, its move one of the board's. An entry
    /// is trusted as a proven bound only then.
    fn entry_possible(
        &self,
        root: &Self::Root,
        entry: &TtEntry<<Self::G as Game>::Key, <Self::G as Game>::Move>,
    ) -> bool;

    /// A root move in the game's notation, for the progress line.
    fn root_move_text(&self, mv: <Self::G as Game>::Move) -> String;

    /// The bounds `(lo, hi)` proven on the value of `root` (the engine's, side to move) in the
    /// game's words, e.g. `final margin in [-2, +4]`, for the progress line.
    fn bounds_text(&self, root: &Self::Root, bounds: (Value, Value)) -> String;
}

/// The [`Solvable`] of a problem the long-solve driver never runs (its
/// [`crate::Problem::long_job`] is always `None`): it names game `G` and nothing else.
pub struct NoLongSolve<G>(std::marker::PhantomData<G>);

impl<G: Game> Solvable for NoLongSolve<G> {
    type G = G;
    type Root = ();

    fn solve_identity(&self, (): &()) -> SolveIdentity {
        SolveIdentity { game: String::new(), options: String::new(), root: String::new() }
    }

    fn entry_possible(&self, (): &(), _: &TtEntry<G::Key, G::Move>) -> bool {
        false
    }

    fn root_move_text(&self, _: G::Move) -> String {
        String::new()
    }

    fn bounds_text(&self, (): &(), _: (Value, Value)) -> String {
        String::new()
    }
}
