//! Deterministic input generators, one module per game crate.

pub mod connect_four;
mod dots_and_boxes;
mod gen_args;
mod tic_tac_toe;
mod triangle_war;
mod young_chess;

pub use gen_args::GenArgs;
pub use tic_tac_toe::bench_cases as tic_tac_toe_bench;
pub use triangle_war::bench_cases as triangle_war_bench;
pub use young_chess::bench_cases as young_chess_bench;

/// The generated input text.
pub fn generate(args: &GenArgs) -> anyhow::Result<String> {
    match args.game.as_str() {
        "triangle-war" => triangle_war::generate(args),
        "young-chess" => young_chess::generate(args),
        "winning-move" | "board-eval" => tic_tac_toe::generate(args),
        "dots-and-boxes" => dots_and_boxes::generate(args),
        other => anyhow::bail!("unknown generator {other:?}"),
    }
}
