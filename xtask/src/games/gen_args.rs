//! The arguments of `cargo xtask gen` and the size parser every generator uses.

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

/// Parses `--size ROWSxCOLS` (`x` or `X`, spaces allowed), `default` when absent.
pub fn parse_size(text: Option<&str>, default: (usize, usize)) -> anyhow::Result<(usize, usize)> {
    let Some(text) = text else { return Ok(default) };
    let bad = || anyhow::anyhow!("--size must be ROWSxCOLS such as 4x4, found {text:?}");
    let (r, c) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    Ok((r.trim().parse().map_err(|_| bad())?, c.trim().parse().map_err(|_| bad())?))
}
