//! `games-cli winning-move` and `games-cli board-eval` (not written yet).

use std::io::Write;

/// Arguments of `winning-move`.
#[derive(clap::Args, Debug)]
pub struct WinningMoveArgs {
    #[command(flatten)]
    input: crate::common::InputArgs,
}

/// Arguments of `board-eval`.
#[derive(clap::Args, Debug)]
pub struct BoardEvalArgs {
    #[command(flatten)]
    input: crate::common::InputArgs,
}

/// Runs `winning-move`.
pub fn run_winning_move(_args: &WinningMoveArgs, _out: &mut dyn Write) -> anyhow::Result<()> {
    anyhow::bail!("winning-move is not implemented yet")
}

/// Runs `board-eval`.
pub fn run_board_eval(_args: &BoardEvalArgs, _out: &mut dyn Write) -> anyhow::Result<()> {
    anyhow::bail!("board-eval is not implemented yet")
}
