//! `games-cli young-chess` (not written yet).

use std::io::Write;

/// Arguments of `young-chess`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    input: crate::common::InputArgs,
}

/// Runs the subcommand.
pub fn run(_args: &Args, _out: &mut dyn Write) -> anyhow::Result<()> {
    anyhow::bail!("young-chess is not implemented yet")
}
