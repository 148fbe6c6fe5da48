//! `games-cli`: exact answers to classic game-search contest problems, one subcommand each.
//!
//! A thin binary over the game crates: it reads input (a file or stdin), calls the library
//! solvers and prints the judge's output format, or with `--analyze` / `--format json` an
//! explanation of every answer. Errors are printed once on stderr as `games-cli: {err:#}` with
//! exit status 2; answers printed before an error are kept. A closed stdout pipe is not an error.

use games_cli::{common, connect_four, dots_and_boxes, play, serve, tic_tac_toe, triangle_war, young_chess};

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exact solvers for two-player, zero-sum games of perfect information.
#[derive(Parser, Debug)]
#[command(name = "games-cli", version, about = "Exact solvers for two-player, zero-sum games of perfect information: judge formats in and out", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Triangle War (POJ 1085 / UVa 751): who wins each game under perfect play.
    TriangleWar(triangle_war::Args),
    /// The Young-diagram game (LOJ 2471 "一双木棋"): Black's score minus White's.
    YoungChess(young_chess::Args),
    /// Connect Four: the exact score (Pons' convention) of each position, one move string per line.
    ConnectFour(connect_four::Args),
    /// Dots-and-boxes: the value of each position, one OpenSpiel DBN string per line.
    DotsAndBoxes(dots_and_boxes::Args),
    /// Find the Winning Move (UVa 10111): x's first forced-win move on 4x4 tic-tac-toe.
    WinningMove(tic_tac_toe::WinningMoveArgs),
    /// Board evaluation (CCF CSP 201803-4): the score of 3x3 tic-tac-toe boards.
    BoardEval(tic_tac_toe::BoardEvalArgs),
    /// Play a game in the terminal against the perfect solver: `play GAME [OPTIONS]`.
    Play(play::Args),
    /// A web page with every game on a board and the solver's values: `serve [--port] [--bind]`.
    Serve(serve::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut out = BufWriter::new(io::stdout().lock());
    let result = match &cli.command {
        Command::TriangleWar(args) => triangle_war::run(args, &mut out),
        Command::YoungChess(args) => young_chess::run(args, &mut out),
        Command::ConnectFour(args) => connect_four::run(args, &mut out),
        Command::DotsAndBoxes(args) => dots_and_boxes::run(args, &mut out),
        Command::WinningMove(args) => tic_tac_toe::run_winning_move(args, &mut out),
        Command::BoardEval(args) => tic_tac_toe::run_board_eval(args, &mut out),
        Command::Play(args) => play::run(args, &mut out),
        Command::Serve(args) => serve::run(args, &mut out),
    };
    // Flush what was answered before reporting any error, so nothing answered is lost.
    let result = result.and_then(|()| out.flush().map_err(Into::into));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if common::is_broken_pipe(&err) => ExitCode::SUCCESS,
        // A shard that filled its slice, an MPI worker rank: its part is in the store.
        Err(err) if err.downcast_ref::<long_solve::PartDone>().is_some() => {
            let message = err.to_string();
            if !message.is_empty() {
                eprintln!("games-cli: {message}");
            }
            ExitCode::SUCCESS
        }
        Err(err) if err.downcast_ref::<long_solve::Incomplete>().is_some() => {
            let _ = out.flush();
            eprintln!("games-cli: {err:#}");
            ExitCode::from(3)
        }
        Err(err) => {
            let _ = out.flush();
            eprintln!("games-cli: {err:#}");
            ExitCode::from(2)
        }
    }
}
