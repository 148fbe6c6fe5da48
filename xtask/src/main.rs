//! `cargo xtask`: project automation, run through the cargo alias in `.cargo/config.toml`.
//!
//! - `cargo xtask golden [--check]`: run `games-cli` on every `testdata/<dir>/*.in` and write (or
//!   check) its insta snapshot `<name>.snap` beside it.
//! - `cargo xtask gen <game> …`: deterministic input generators (seeded), printing to stdout.
//! - `cargo xtask bench`: whole-process timings of `games-cli` on the benchmark instances, as a
//!   table.
//! - `cargo xtask mnk-table`: which empty m,n,k boards up to 8 x 8 are solved, by which
//!   algorithm, in how long.
//! - `cargo xtask c4-bench`: Connect Four on Pons' test sets, checking every score, beside a
//!   reference solver in the same run.
//! - `cargo xtask test`: the README's test command (installs what the tests need when missing,
//!   then `cargo test --workspace`, the Python module's pytest suite and the MPI check).
//! - `cargo xtask solve-4x5 [--minutes N]`: one more run of the empty 4x5 dots-and-boxes solve
//!   through its committed store (`testdata/dots-and-boxes/solve-4x5/store`), copied back for a
//!   commit.
//! - `cargo xtask c4-table`: Connect Four's empty boards with width + height <= 13, each result
//!   (winner, move on which the game ends) beside the published one.
//! - `cargo xtask ffo-bench [--max-empties N] [--baseline BIN] [FILE...]`: Othello's exact
//!   endgame on the FFO positions, per position nodes, seconds and nodes per second.
//! - `cargo xtask book GAME --plies N [--out FILE]`: an opening book of every position within N
//!   plies of the start, built resumably (see `book.rs`).
//! - `cargo xtask dist-bench [--solve NAME] [--workers 1,2,4,8,16]`: one distributed solve by
//!   one process and by MPI workers (oversubscribed): nodes, the longest chain of work, what
//!   the workers sent each other, efficiency.
//! - `cargo xtask process-words`: every word of the work's history (a step's number, a commit
//!   hash, a branch, a machine named by anything but its class) in the documents and
//!   comments, as `file:line`.

mod bench;
mod bench_case;
mod book;
mod dist_bench;
mod ffo_bench;
mod games;
mod golden;
mod mnk_table;
mod process_words;
mod solve_4x5;
mod test;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "xtask", about = "Project automation for the game-solver workspace")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Regenerate (or with --check, verify) the golden outputs in testdata/.
    Golden {
        /// Do not write; fail, naming the files, if any golden output is stale.
        #[arg(long)]
        check: bool,
    },
    /// Print a generated input (deterministic for a given seed).
    Gen(games::GenArgs),
    /// Time whole `games-cli` runs on the benchmark instances and print a table.
    Bench(bench::Args),
    /// Solve the empty m,n,k boards up to 8x8 with a time limit each and print a table.
    MnkTable(mnk_table::Args),
    /// Connect Four test sets: mean time and nodes per position, scores checked, beside a reference.
    C4Bench(games::connect_four::Args),
    /// Install what the tests need when missing (Chromium as root; maturin, pytest and
    /// OpenSpiel in target/py-venv; Open MPI), then run every test, Rust, Python and MPI.
    Test(test::Args),
    /// Connect Four: solve the empty board of every size with width + height <= 13 and print
    /// the winner and the move on which the game ends beside the published results.
    C4Table(games::connect_four::TableArgs),
    /// Dots-and-boxes 4x5: go on with the empty board's solve through the committed store for
    /// some minutes, then copy the store back.
    #[command(name = "solve-4x5")]
    Solve4x5(solve_4x5::Args),
    /// Build an opening book: the exact value of every position within N plies of the start,
    /// resumably (run again with the same arguments to go on).
    Book(book::Args),
    /// List the words of the work's history (steps by number, commit hashes, branches, a
    /// machine not named by its class) in every document and comment; fails if there is one.
    ProcessWords,
    /// Othello's exact endgame on the FFO positions: per position nodes, seconds and nodes
    /// per second, optionally beside a baseline `ffo` binary.
    FfoBench(ffo_bench::Args),
    /// How a distributed solve scales: one solve by one process and by 1 to 16 MPI workers
    /// (oversubscribed): nodes, the longest chain of work, what the workers sent each other.
    DistBench(dist_bench::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Golden { check } => golden::run(check),
        Command::Gen(args) => games::generate(&args).map(|text| print!("{text}")),
        Command::Bench(args) => bench::run(&args),
        Command::MnkTable(args) => mnk_table::run(&args),
        Command::C4Bench(args) => games::connect_four::bench(&args),
        Command::Test(args) => test::run(&args),
        Command::C4Table(args) => games::connect_four::table(&args),
        Command::Solve4x5(args) => solve_4x5::run(&args),
        Command::Book(args) => book::run(&args),
        Command::ProcessWords => process_words::run(),
        Command::FfoBench(args) => ffo_bench::run(&args),
        Command::DistBench(args) => dist_bench::run_bench(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root (the parent of this crate's folder).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace root").to_path_buf()
}

/// Builds `games-cli` in release mode and returns the binary's path.
fn build_games_cli() -> anyhow::Result<PathBuf> {
    build_games_cli_with(&[])
}

/// Builds `games-cli` in release mode with the cargo `features` and returns the binary's path.
fn build_games_cli_with(features: &[&str]) -> anyhow::Result<PathBuf> {
    let root = workspace_root();
    let mut cmd = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.args(["build", "--release", "--quiet", "-p", "games-cli"]);
    if !features.is_empty() {
        cmd.args(["--features", &features.join(",")]);
    }
    let status = cmd.current_dir(&root).status()?;
    anyhow::ensure!(status.success(), "cargo build --release -p games-cli {features:?} failed");
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    Ok(target.join("release").join("games-cli"))
}
