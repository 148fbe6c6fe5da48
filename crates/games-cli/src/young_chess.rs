//! `games-cli young-chess [FILE]`: the Young-diagram game (LOJ 2471), Black's score minus
//! White's under perfect play.
//!
//! Prints exactly one integer. Before solving, the memory the solve needs
//! ([`young_chess::dp::memory_estimate`]) is compared with `MemAvailable` from `/proc/meminfo`, and
//! a board that would not fit is refused with the estimate instead of being killed. Long solves
//! show a progress bar on stderr when stderr is a terminal. `--analyze` and `--format json`
//! explain the answer: judge-sized boards (up to 10 x 10) through the search-core engine, larger
//! ones from the DP table of every staircase.

use std::io::{IsTerminal, Write};

use search_core::Analysis;
use young_chess::dp;
use young_chess::{Board, Cell, Staircase};

use crate::common::{AlgorithmArgs, InputArgs, OutputArgs};
use crate::memory::{human_bytes, mem_available};
use crate::report::CaseReport;

/// Arguments of `young-chess`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Input (LOJ 2471): `n m`, then n lines of m values A (Black's), then n lines of m values B
(White's); values 0 to 100000. Output: Black's score minus White's under perfect play.

Example:
  $ printf '2 3\\n2 7 3\\n9 1 2\\n3 7 2\\n2 3 1\\n' | games-cli young-chess
  2")]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    output: OutputArgs,
    #[command(flatten)]
    algorithm: AlgorithmArgs,
}

/// Solves show a progress bar above this many staircases (15 x 15 and up: a second or more).
const PROGRESS_STATES: u128 = 100_000_000;

/// Runs the subcommand.
pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<()> {
    let board = young_chess::parse_from(args.input.reader()?)?;
    if !args.output.analyze {
        let value = if args.algorithm.algorithm.is_some() {
            let game = young_chess::YoungGame::new(&board);
            args.algorithm.value(1, &game, &board.start(), young_chess::YoungGame::SEARCH_OPTIONS.tt_bits)
        } else {
            check_memory(&board, dp::memory_estimate(&board), "solving it")?;
            solve(&board)?
        };
        crate::report::write_answer(&args.output, out, 1, "Black", Some(value), &value.to_string())?;
        return Ok(());
    }
    let analysis = analyze(&board)?;
    // Judge boards may exceed a session's size: the notation is the front's, without a front.
    let report = CaseReport::with_notation(
        1,
        analysis.value.to_string(),
        &analysis,
        young_chess::player_name,
        Cell::to_string,
    );
    report.write(
        &args.output,
        out,
        &diagram(&board, &analysis),
        "Black 0, White 0",
        young_chess::VALUE_NOTE,
    )?;
    Ok(())
}

/// The layered DP, with a progress bar on a terminal for long solves.
fn solve(board: &Board) -> anyhow::Result<i64> {
    let states = dp::staircase_count(board.rows(), board.cols());
    if states < PROGRESS_STATES || !std::io::stderr().is_terminal() {
        return Ok(dp::solve(board)?);
    }
    let bar = indicatif::ProgressBar::new(u64::try_from(states).unwrap_or(u64::MAX));
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} {wide_bar} {percent}% of {len} staircases, eta {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let value = dp::solve_with_progress(board, &mut |done, _| bar.set_position(done));
    bar.finish_and_clear();
    Ok(value?)
}

/// The analysis of the empty board, from the DP table of every staircase (the same values and
/// order as the search-core engine's `analyze`, which the tests check, and far faster).
fn analyze(board: &Board) -> anyhow::Result<Analysis<Cell>> {
    check_memory(board, dp::table_memory_estimate(board), "analysing it (every staircase kept)")?;
    Ok(young_chess::analyze_start(board)?)
}

/// The empty board, and the board filled along the PV with who took each cell.
fn diagram(board: &Board, analysis: &Analysis<Cell>) -> String {
    let (n, m) = (board.rows(), board.cols());
    let mut owner = vec!['.'; n * m];
    let mut pos = board.start();
    for &c in &analysis.pv {
        owner[c.row as usize * m + c.col as usize] = if pos.black_to_move() { 'B' } else { 'W' };
        pos = pos.fill(c).unwrap_or(pos);
    }
    let start: Staircase = board.start();
    let mut s = String::from("board (# filled, . empty):\n");
    for line in start.diagram().lines() {
        s.push_str(&spaced(line.chars()));
    }
    s.push_str("after the PV (B Black, W White):\n");
    for row in owner.chunks(m) {
        s.push_str(&spaced(row.iter().copied()));
    }
    s
}

fn spaced(cells: impl Iterator<Item = char>) -> String {
    let mut line: String = cells.flat_map(|c| [c, ' ']).collect();
    line.pop();
    line.push('\n');
    line
}

/// Refuses, before allocating, a board for which `what` (e.g. "solving it") would need more
/// memory than is available (see [`mem_available`]), with a margin of 5% + 64 MiB.
fn check_memory(board: &Board, need: u128, what: &str) -> anyhow::Result<()> {
    check_memory_against(board, need, what, mem_available())
}

fn check_memory_against(
    board: &Board,
    need: u128,
    what: &str,
    available: Option<u128>,
) -> anyhow::Result<()> {
    let Some(available) = available else { return Ok(()) };
    if need + need / 20 + (64 << 20) <= available {
        return Ok(());
    }
    let states = dp::staircase_count(board.rows(), board.cols());
    anyhow::bail!(
        "board {} x {} has {} staircases; {what} needs about {}, more than the memory available",
        board.rows(),
        board.cols(),
        if states == u128::MAX { "too many".to_string() } else { states.to_string() },
        human_bytes(need)
    )
}

/// What the game's values mean.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_is_checked_before_solving() {
        let n = 30;
        let board = Board::new(n, n, vec![0; n * n], vec![0; n * n]).unwrap();
        let need = dp::memory_estimate(&board);
        let err = check_memory_against(&board, need, "solving it", Some(1 << 40)).unwrap_err().to_string();
        assert!(err.contains("needs about 6.6 EiB, more than the memory available"), "{err}");
        // A board that fits, with the margin, is accepted; unknown availability is not checked.
        let small = Board::new(2, 2, vec![1; 4], vec![1; 4]).unwrap();
        assert!(
            check_memory_against(&small, dp::memory_estimate(&small), "solving it", Some(1 << 30)).is_ok()
        );
        assert!(check_memory_against(&board, need, "solving it", None).is_ok());
    }
}
