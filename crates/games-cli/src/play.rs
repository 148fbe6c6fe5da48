//! `games-cli play` (not written yet).

use std::io::Write;

/// Arguments of `play`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs the subcommand.
pub fn run(_args: &Args, _out: &mut dyn Write) -> anyhow::Result<()> {
    anyhow::bail!("play is not implemented yet")
}
