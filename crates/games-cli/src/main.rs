//! `games-cli`: exact answers to classic game-search contest problems, one subcommand each.
//!
//! A thin binary over the game crates: it reads input (a file or stdin), calls the library
//! solvers and prints the judge's output format, or with `--analyze` / `--format json` an
//! explanation of every answer. Errors are printed once on stderr as `games-cli: {err:#}` with
//! exit status 2; answers printed before an error are kept. A closed stdout pipe is not an error.

use games_cli::{common, judge, play};

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// Exact solvers for two-player, zero-sum games of perfect information.
#[derive(Parser, Debug)]
#[command(name = "games-cli", version, about = "Exact solvers for two-player, zero-sum games of perfect information: judge formats in and out", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a game in the terminal against the perfect solver: `play GAME [OPTIONS]`.
    Play(play::Args),
    /// A web page with every game on a board and the solver's values: `serve [--port] [--bind]`.
    Serve(games_web::Args),
}

/// Builds the subcommand of each registered problem.
struct MakeCommand;

impl game_front::VisitProblem for MakeCommand {
    type Output = clap::Command;
    fn visit<P: game_front::Problem>(self) -> clap::Command {
        judge::command::<P>()
    }
}

/// Runs a registered problem's subcommand.
struct RunProblem<'a> {
    matches: &'a clap::ArgMatches,
    out: &'a mut dyn Write,
}

impl game_front::VisitProblem for RunProblem<'_> {
    type Output = anyhow::Result<()>;
    fn visit<P: game_front::Problem>(self) -> anyhow::Result<()> {
        judge::run::<P>(self.matches, self.out)
    }
}

fn main() -> ExitCode {
    // The judge subcommands first, in the registry's order, then `play` and `serve`.
    let mut command = Cli::command()
        .mut_subcommand("play", |c| c.display_order(usize::MAX - 1))
        .mut_subcommand("serve", |c| c.display_order(usize::MAX));
    for (order, problem) in game_registry::PROBLEMS.iter().enumerate() {
        if let Some(sub) = game_registry::visit_problem(problem.command, MakeCommand) {
            command = command.subcommand(sub.display_order(order));
        }
    }
    let matches = command.get_matches();
    let mut out = BufWriter::new(io::stdout().lock());
    let registered = matches.subcommand().and_then(|(name, sub)| {
        game_registry::visit_problem(name, RunProblem { matches: sub, out: &mut out })
    });
    let result = match registered {
        Some(result) => result,
        None => run_command(&matches, &mut out),
    };
    finish(result, &mut out)
}

fn run_command(matches: &clap::ArgMatches, out: &mut dyn Write) -> anyhow::Result<()> {
    let cli = match Cli::from_arg_matches(matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match &cli.command {
        Command::Play(args) => play::run(args, out),
        Command::Serve(args) => games_web::run(args, out),
    }
}

/// The exit status of a run that ended with `result`, its error printed once on stderr. An MPI
/// coordinator that left worker ranks hanging ends the run here, with that status, once
/// everything is printed ([`long_solve::mpi::end_hung_run`]).
fn finish(result: anyhow::Result<()>, out: &mut dyn Write) -> ExitCode {
    let status = status(result, out);
    long_solve::mpi::end_hung_run(status);
    ExitCode::from(status)
}

/// The exit status of a run that ended with `result`, its error printed once on stderr.
fn status(result: anyhow::Result<()>, out: &mut dyn Write) -> u8 {
    // Flush what was answered before reporting any error, so nothing answered is lost.
    let result = result.and_then(|()| out.flush().map_err(Into::into));
    match result {
        Ok(()) => 0,
        Err(err) if common::is_broken_pipe(&err) => 0,
        // A shard that filled its slice, an MPI worker rank: its part is in the store.
        Err(err) if err.downcast_ref::<long_solve::PartDone>().is_some() => {
            let message = err.to_string();
            if !message.is_empty() {
                eprintln!("games-cli: {message}");
            }
            0
        }
        Err(err) if err.downcast_ref::<long_solve::Incomplete>().is_some() => {
            let _ = out.flush();
            eprintln!("games-cli: {err:#}");
            3
        }
        Err(err) => {
            let _ = out.flush();
            eprintln!("games-cli: {err:#}");
            2
        }
    }
}
