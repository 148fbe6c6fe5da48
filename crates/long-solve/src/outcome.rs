//! What a long solve ends with ([`Solved`], [`Stop`]), what a game tells it ([`RootSolve`]),
//! and the errors a front end maps to its exit statuses ([`Incomplete`]: 3, [`PartDone`]: 0).

use search_core::{Game, RootResult, SolveIdentity, Stats, TtEntry, Value};

use crate::options::LongSolveArgs;

/// A check of a TT entry of game `G` read from a snapshot ([`RootSolve::entry_ok`]).
pub type EntryCheck<'a, G> = dyn Fn(&TtEntry<<G as Game>::Key, <G as Game>::Move>) -> bool + 'a;

/// One root solve as a game's subcommand describes it to [`crate::root::solve`].
pub struct RootSolve<'a, G: Game> {
    /// The user's options.
    pub args: &'a LongSolveArgs,
    /// What the checkpoint and TT snapshot belong to (game, board options, root position).
    pub identity: SolveIdentity,
    /// Make every root move's value exact (for `--analyze`), not only the best.
    pub exact_all: bool,
    /// Whether a TT entry read from a snapshot is possible on this board (its value within the
    /// game's range, its move one of the board's moves): an entry is trusted as a proven bound.
    pub entry_ok: &'a EntryCheck<'a, G>,
    /// A root move in the game's notation, for the progress line.
    pub move_text: &'a dyn Fn(G::Move) -> String,
    /// The root's value bounds (side to move) in the game's words, for the progress line, e.g.
    /// `final margin in [-2, +4]`.
    pub bounds_text: &'a dyn Fn((Value, Value)) -> String,
}

/// What stopped a long solve before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// `--time-limit`.
    TimeLimit,
    /// `--node-budget` (a distributed solve).
    NodeBudget,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stop::TimeLimit => "the time limit",
            Stop::NodeBudget => "the node budget",
        })
    }
}

/// What [`crate::root::solve`] ends with.
pub struct Solved<M> {
    /// The root driver's result: bounds (side to move), `finished`, the bounds per move.
    pub result: RootResult<M>,
    /// What stopped the solve when `result` is not finished.
    pub stop: Option<Stop>,
    /// The search statistics of this run (not of earlier runs of the checkpoint).
    pub stats: Stats,
    /// Whether the answer was read from a checkpoint that already held it (nothing searched).
    pub from_checkpoint: bool,
    /// The start of a principal variation already proven by a split's store (`--store`): each
    /// move the first, in the tree's order, whose bounds meet at its position's value, down to
    /// the frontier ([`crate::store::store_pv`]); empty without a store, or when the root
    /// is not exact.
    pub known_pv: Vec<M>,
}

/// A run that did its part and has no answer to print: a shard that filled its slice, an MPI
/// worker rank. `main` prints the message (if any) on stderr and exits with status 0.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct PartDone(pub String);

/// A solve stopped by its limits before finishing: reported with exit status 3, after the
/// bounds proven so far were printed.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Incomplete(pub String);

/// The error that ends a run whose `what` (e.g. `game 3`) `stop` stopped, with the bounds in
/// words: exit status 3.
pub fn stopped(what: &str, stop: Stop, bounds: &str) -> anyhow::Error {
    Incomplete(format!("{what}: stopped by {stop} with {bounds}")).into()
}

/// The error that ends a run whose cases `unfinished` (the number of each, in order, and what
/// stopped it) a limit stopped, each named as a `noun` (`line`, `case`, `game`): exit status 3,
/// e.g. `stopped by the time limit before finishing lines 2, 5`.
pub fn unfinished_error(noun: &str, unfinished: &[(usize, Stop)]) -> anyhow::Error {
    let mut parts = Vec::new();
    for stop in [Stop::TimeLimit, Stop::NodeBudget] {
        let numbers: Vec<String> =
            unfinished.iter().filter(|u| u.1 == stop).map(|u| u.0.to_string()).collect();
        if !numbers.is_empty() {
            let plural = if numbers.len() == 1 { "" } else { "s" };
            parts.push(format!("by {stop} before finishing {noun}{plural} {}", numbers.join(", ")));
        }
    }
    Incomplete(format!("stopped {}", parts.join(" and "))).into()
}
