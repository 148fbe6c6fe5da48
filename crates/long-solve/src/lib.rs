#![doc = include_str!("../README.md")]
pub mod entries;
pub mod game;
pub mod mpi;
pub mod options;
pub mod outcome;
pub mod root;
pub mod snapshot;
pub mod split;
pub mod store;

pub use game::solve_game;
pub use options::{parse_seconds, parse_shard, LongSolveArgs, SplitArgs, MAX_SECONDS};
pub use outcome::{stopped, unfinished_error, EntryCheck, Incomplete, PartDone, RootSolve, Solved, Stop};
pub use root::solve;
