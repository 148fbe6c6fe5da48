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

/// The memory this process may still use, in bytes: the least of `MemAvailable`
/// (`/proc/meminfo`), the address-space limit (`ulimit -v`, from `/proc/self/limits`) and the
/// cgroup v2 limit less current usage (`/sys/fs/cgroup/memory.{max,current}`). `None` if none
/// of them is known.
fn mem_available() -> Option<u128> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let meminfo = read("/proc/meminfo").and_then(|info| {
        let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?.to_string();
        Some(line.split_whitespace().nth(1)?.parse::<u128>().ok()? * 1024)
    });
    let rlimit = read("/proc/self/limits").and_then(|limits| {
        let line = limits.lines().find(|l| l.starts_with("Max address space"))?.to_string();
        line.split_whitespace().nth(3)?.parse::<u128>().ok()
    });
    let cgroup = read("/sys/fs/cgroup/memory.max").and_then(|max| {
        let max: u128 = max.trim().parse().ok()?;
        let current: u128 = read("/sys/fs/cgroup/memory.current")?.trim().parse().ok()?;
        Some(max.saturating_sub(current))
    });
    [meminfo, rlimit, cgroup].into_iter().flatten().min()
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

/// A position of `games-cli play young-chess`: the staircase plus the history the engine does
/// not need: Black's score minus White's so far, and which cells Black filled.
#[derive(Clone, Copy, Debug)]
pub struct PlayPosition {
    stair: Staircase,
    margin: i64,
    /// Bit `r * cols + c` is set if Black filled cell `(r, c)` (boards of at most 128 cells).
    black: u128,
}

/// [`YoungGame`] with history in the position, for `play`: same key, moves and values.
#[derive(Clone, Copy, Debug)]
pub struct PlayGame {
    inner: YoungGame<'static>,
}

impl search_core::Game for PlayGame {
    type Position = PlayPosition;
    type Move = Cell;
    const PRINCIPAL_VARIATION_SEARCH: bool =
        <YoungGame<'static> as search_core::Game>::PRINCIPAL_VARIATION_SEARCH;

    fn to_move(&self, pos: &PlayPosition) -> Player {
        self.inner.to_move(&pos.stair)
    }
    fn terminal_value(&self, pos: &PlayPosition) -> Option<i64> {
        self.inner.terminal_value(&pos.stair)
    }
    fn generate_moves(&self, pos: &PlayPosition, moves: &mut Vec<Cell>) {
        self.inner.generate_moves(&pos.stair, moves);
    }
    fn play(&self, pos: &PlayPosition, mv: Cell) -> (PlayPosition, i64) {
        let mover = self.inner.to_move(&pos.stair);
        let (stair, gain) = self.inner.play(&pos.stair, mv);
        let bit = 1u128 << (usize::from(mv.row) * self.inner.board().cols() + usize::from(mv.col));
        let black = if mover == Player::First { pos.black | bit } else { pos.black };
        (PlayPosition { stair, margin: pos.margin + mover.sign() * gain, black }, gain)
    }
    fn key(&self, pos: &PlayPosition) -> u64 {
        self.inner.key(&pos.stair)
    }
    fn order_moves(&self, pos: &PlayPosition, moves: &mut [Cell]) {
        self.inner.order_moves(&pos.stair, moves);
    }
    fn banked(&self, pos: &PlayPosition) -> i64 {
        pos.margin
    }
}

/// The Young-diagram game for `games-cli play`.
pub struct PlayYoungChess {
    solver: Solver<PlayGame>,
}

/// Largest board `play young-chess` accepts (cells), so that stone owners fit a `u128`.
const PLAY_MAX_CELLS: usize = 128;

impl PlayYoungChess {
    /// A session on `board` (at most 128 cells). The board lives as long as the process.
    pub fn new(board: Board) -> anyhow::Result<Self> {
        anyhow::ensure!(
            board.rows() * board.cols() <= PLAY_MAX_CELLS,
            "play young-chess takes boards of at most {PLAY_MAX_CELLS} cells, found {} x {}",
            board.rows(),
            board.cols()
        );
        let board: &'static Board = Box::leak(Box::new(board));
        Ok(PlayYoungChess { solver: Solver::new(PlayGame { inner: YoungGame::new(board) }, 20) })
    }

    /// A `rows` x `cols` board with values 0 to 9 drawn from `seed` (deterministic).
    pub fn random_board(rows: usize, cols: usize, seed: u64) -> anyhow::Result<Board> {
        anyhow::ensure!(
            rows >= 1 && cols >= 1 && rows.checked_mul(cols).is_some_and(|cells| cells <= PLAY_MAX_CELLS),
            "play young-chess takes boards of 1 to {PLAY_MAX_CELLS} cells, found {rows} x {cols}"
        );
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut values = || (0..rows * cols).map(|_| rng.gen_range(0..10)).collect::<Vec<i64>>();
        let (a, b) = (values(), values());
        Ok(Board::new(rows, cols, a, b)?)
    }

    /// The empty board, Black to move.
    pub fn start(&self) -> PlayPosition {
        PlayPosition { stair: self.board().start(), margin: 0, black: 0 }
    }

    fn board(&self) -> &'static Board {
        self.solver.game().inner.board()
    }
}

impl crate::play::Playable for PlayYoungChess {
    type G = PlayGame;

    fn solver(&mut self) -> &mut Solver<PlayGame> {
        &mut self.solver
    }

    /// Filled cells show `B` or `W`; empty ones Black's and White's values `a/b`.
    fn draw(&self, pos: &PlayPosition) -> String {
        let board = self.board();
        let (n, m) = (board.rows(), board.cols());
        let width = (0..n)
            .flat_map(|r| (0..m).map(move |c| (r, c)))
            .map(|(r, c)| format!("{}/{}", board.a(r, c), board.b(r, c)).len())
            .max()
            .unwrap_or(1);
        let mut s = format!("{:>3}", "");
        for c in 0..m {
            s.push_str(&format!(" {c:>width$}"));
        }
        s.push('\n');
        for r in 0..n {
            s.push_str(&format!("{r:>3}"));
            for c in 0..m {
                let cell = if !pos.stair.is_filled(r, c) {
                    format!("{}/{}", board.a(r, c), board.b(r, c))
                } else if pos.black >> (r * m + c) & 1 == 1 {
                    "B".to_string()
                } else {
                    "W".to_string()
                };
                s.push_str(&format!(" {cell:>width$}"));
            }
            s.push('\n');
        }
        s
    }

    fn parse_move(&self, pos: &PlayPosition, text: &str) -> Result<Cell, String> {
        let (r, c) = crate::play::parse_cell(text)?;
        let board = self.board();
        if r >= board.rows() || c >= board.cols() {
            return Err(format!("cell {r},{c} is off the {} x {} board", board.rows(), board.cols()));
        }
        if pos.stair.is_filled(r, c) {
            return Err(format!("cell {r},{c} is already filled"));
        }
        // In range, so below 64 (a staircase has at most 64 rows plus columns).
        let cell = Cell { row: r as u8, col: c as u8 };
        if pos.stair.moves().any(|m| m == cell) {
            return Ok(cell);
        }
        let legal: Vec<String> = pos.stair.moves().map(|m| m.to_string()).collect();
        Err(format!(
            "cell {r},{c} cannot take a stone now (the cells above and to its left must be filled); legal: {}",
            legal.join(" ")
        ))
    }

    fn move_text(&self, mv: &Cell) -> String {
        mv.to_string()
    }

    fn player_name(&self, p: Player) -> &'static str {
        player_name(p)
    }

    fn score_text(&self, pos: &PlayPosition) -> String {
        format!("Black minus White {:+}", pos.margin)
    }

    fn result_text(&self, value: i64) -> String {
        crate::play::margin_words(value, "Black", "White")
    }

    fn move_help(&self) -> &'static str {
        "a cell as `row,col`, 0-based, e.g. `0,0`"
    }
}
