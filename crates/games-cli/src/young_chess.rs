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

use search_core::{Analysis, Player, Solver};
use young_chess::dp;
use young_chess::{Board, Cell, Staircase, YoungGame};

use crate::common::Format;
use crate::report::CaseReport;

/// Arguments of `young-chess`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    input: crate::common::InputArgs,
    #[command(flatten)]
    output: crate::common::OutputArgs,
}

/// Solves show a progress bar above this many staircases (15 x 15 and up: a second or more).
const PROGRESS_STATES: u128 = 100_000_000;

/// Boards up to this size are analysed by the search-core engine; larger ones by the DP table.
const ENGINE_SIDE: usize = 10;

/// Runs the subcommand.
pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<()> {
    let text = args.input.read()?;
    let board = young_chess::parse(&text)?;
    let explain = args.output.analyze || args.output.format == Format::Json;
    if !explain {
        check_memory(&board, dp::memory_estimate(&board), "solving it")?;
        let value = solve(&board)?;
        writeln!(out, "{value}")?;
        return Ok(());
    }
    let analysis = analyze(&board)?;
    let report =
        CaseReport::new(1, analysis.value.to_string(), &analysis, player_name, |c: &Cell| c.to_string());
    match args.output.format {
        Format::Json => report.write_json(out)?,
        Format::Judge => {
            writeln!(out, "{}", report.answer)?;
            let board_text = diagram(&board, &analysis);
            report.write_text(out, &board_text, "Black 0, White 0", "Black's score minus White's")?;
        }
    }
    Ok(())
}

fn player_name(p: Player) -> &'static str {
    match p {
        Player::First => "Black",
        Player::Second => "White",
    }
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

/// The analysis of the empty board: the engine for judge-sized boards, the DP table beyond.
fn analyze(board: &Board) -> anyhow::Result<Analysis<Cell>> {
    if board.rows() <= ENGINE_SIDE && board.cols() <= ENGINE_SIDE {
        // 184,756 staircases at most: a TT of 2^20 entries holds them all.
        let mut solver = Solver::new(YoungGame::new(board), 20);
        return Ok(solver.analyze(&board.start()));
    }
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
/// memory than is available.
fn check_memory(board: &Board, need: u128, what: &str) -> anyhow::Result<()> {
    let Some(available) = mem_available() else { return Ok(()) };
    if need <= available {
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

/// `MemAvailable` from `/proc/meminfo`, in bytes; `None` if unknown.
fn mem_available() -> Option<u128> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u128 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

fn human_bytes(b: u128) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut x = b as f64;
    let mut u = 0;
    while x >= 1024.0 && u + 1 < UNITS.len() {
        x /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{x:.1} {}", UNITS[u])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_sizes() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(3 << 29), "1.5 GiB");
    }

    #[test]
    fn memory_is_checked_before_solving() {
        let n = 30;
        let board = Board::new(n, n, vec![0; n * n], vec![0; n * n]).unwrap();
        let err = check_memory(&board, dp::memory_estimate(&board), "solving it").unwrap_err().to_string();
        assert!(err.contains("needs about"), "{err}");
    }
}
