//! Deterministic input generators, one module per game crate.

pub mod connect_four;
mod dots_and_boxes;
mod tic_tac_toe;
mod triangle_war;
mod young_chess;

pub use tic_tac_toe::bench_cases as tic_tac_toe_bench;
pub use triangle_war::bench_cases as triangle_war_bench;
pub use young_chess::bench_cases as young_chess_bench;

/// Arguments of `cargo xtask gen`.
#[derive(clap::Args, Debug)]
pub struct GenArgs {
    /// Which generator: triangle-war, young-chess, winning-move, board-eval, dots-and-boxes.
    pub game: String,
    /// Seed of the pseudo-random generator.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of cases (for batch formats).
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Board size: side for triangle-war, `NxM` for young-chess, `RxC` boxes for dots-and-boxes.
    #[arg(long)]
    pub size: Option<String>,
}

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

/// Parses `--size ROWSxCOLS` (`x` or `X`, spaces allowed), `default` when absent.
pub fn parse_size(text: Option<&str>, default: (usize, usize)) -> anyhow::Result<(usize, usize)> {
    let Some(text) = text else { return Ok(default) };
    let bad = || anyhow::anyhow!("--size must be ROWSxCOLS such as 4x4, found {text:?}");
    let (r, c) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    Ok((r.trim().parse().map_err(|_| bad())?, c.trim().parse().map_err(|_| bad())?))
}
