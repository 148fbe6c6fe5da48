//! The library half of `games-cli`: the judge subcommands, built from the registry's problems
//! ([`judge`], over each game crate's `game_front::Problem` and the `long-solve` library),
//! `play` and the `serve` web server, behind the thin binary in `main.rs`. A library so that
//! the fuzz targets reach the same code.

pub mod common;
pub mod huge_pages;
pub mod judge;
pub mod memory;
pub mod play;
pub mod serve;
