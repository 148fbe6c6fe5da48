//! The library half of `games-cli`: each game's front (what a person sees of it), the judge
//! subcommands' readers and writers, `play` and the `serve` web server, behind the thin binary
//! in `main.rs`. A library so that the fuzz targets (and later front ends) reach the same code.

pub mod common;
pub mod connect_four;
pub mod dots_and_boxes;
pub mod huge_pages;
pub mod memory;
pub mod play;
pub mod report;
pub mod serve;
pub mod tic_tac_toe;
pub mod triangle_war;
pub mod young_chess;
