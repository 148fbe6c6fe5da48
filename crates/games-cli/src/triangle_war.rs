//! `games-cli triangle-war` (being written).

use std::io::Write;

/// Arguments of `triangle-war`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    input: crate::common::InputArgs,
}

/// Runs the subcommand.
pub fn run(_args: &Args, _out: &mut dyn Write) -> anyhow::Result<()> {
    anyhow::bail!("triangle-war is not implemented yet")
}
