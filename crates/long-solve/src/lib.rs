//! Long solves for every game, below the front ends: the root driver with checkpoints and TT
//! snapshots ([`root::solve`]), the split into null-window jobs over a durable store
//! ([`split`], [`store`]), its shards and its MPI manager / workers ([`mpi`]), and the options
//! that ask for them ([`options::LongSolveArgs`]).
//!
//! A game's front end describes one solve as a [`RootSolve`] (what the files belong to, which
//! TT entries are possible on the board, how its moves and bounds read) and calls
//! [`root::solve`]; the [`Solved`] it gets back holds the bounds proven, what stopped the solve
//! if a limit did, and the statistics of the run.
//!
//! Unlike the engine and the game crates, this crate touches the file system (checkpoints,
//! snapshots, the store), MPI and standard error (progress lines, warnings about damaged
//! records; `--count-frontier`, `--sample-jobs` and `--recheck` print their tables on standard
//! output); it never reads standard input and never exits the process: the front end maps
//! [`Incomplete`] to exit status 3 and [`PartDone`] to 0.

pub mod mpi;
pub mod options;
pub mod outcome;
pub mod root;
pub mod snapshot;
pub mod split;
pub mod store;

pub use options::{parse_seconds, LongSolveArgs, SplitArgs, MAX_SECONDS};
pub use outcome::{stopped, unfinished_error, EntryCheck, Incomplete, PartDone, RootSolve, Solved, Stop};
pub use root::solve;
