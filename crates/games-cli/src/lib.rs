//! The library half of `games-cli`: the judge subcommands' readers and writers (one module per
//! problem family, over the game crates' solvers and fronts and the `long-solve` library),
//! `play` and the `serve` web server, behind the thin binary in `main.rs`. A library so that
//! the fuzz targets reach the same code.

pub mod common;
pub mod huge_pages;
pub mod judge;
pub mod memory;
pub mod play;
pub mod report;
pub mod serve;
