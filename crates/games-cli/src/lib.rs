//! The library half of `games-cli`: the judge subcommands, built from the registry's problems
//! ([`judge`], over each game crate's `game_front::Problem` and the `long-solve` library),
//! and `play`, behind the thin binary in `main.rs` (`serve` is the `games-web` crate's).

pub mod common;
pub mod huge_pages;
pub mod judge;
pub mod memory;
pub mod play;
