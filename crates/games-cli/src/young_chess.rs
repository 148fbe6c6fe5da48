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

use anyhow::Result;
use search_core::{Analysis, Engine, Player, Value};
use young_chess::dp;
use young_chess::{Board, Cell, ScoredGame, ScoredPosition, Staircase, SCORED_MAX_CELLS};

use crate::common::{AlgorithmArgs, InputArgs, OutputArgs};
use crate::front::{self, Front, Setup};
use crate::memory::{human_bytes, mem_available};
use crate::report::CaseReport;
use crate::serve::sketch::{self, Sketch};

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
    if !args.output.explains() {
        let value = if args.algorithm.algorithm.is_some() {
            let game = young_chess::YoungGame::new(&board);
            args.algorithm.value(1, &game, &board.start(), young_chess::YoungGame::SEARCH_OPTIONS.tt_bits)
        } else {
            check_memory(&board, dp::memory_estimate(&board), "solving it")?;
            solve(&board)?
        };
        writeln!(out, "{value}")?;
        return Ok(());
    }
    let analysis = analyze(&board)?;
    // Judge boards may exceed a session's size: the notation is the front's, without a front.
    let report =
        CaseReport::with_notation(1, analysis.value.to_string(), &analysis, player_name, Cell::to_string);
    report.write(&args.output, out, &diagram(&board, &analysis), "Black 0, White 0", VALUE_NOTE)?;
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
const VALUE_NOTE: &str = "Black's score minus White's";

/// Black (first player) and White.
fn player_name(player: Player) -> &'static str {
    match player {
        Player::First => "Black",
        Player::Second => "White",
    }
}

/// Options of `play young-chess`.
#[derive(clap::Args, Debug, Clone)]
pub struct Options {
    /// Board size `ROWSxCOLS` (at most 128 cells), with random values 0 to 9.
    #[arg(long, value_parser = front::parse_size, default_value = "3x3", conflicts_with = "file")]
    pub size: (usize, usize),
    /// Seed of the random values.
    #[arg(long, default_value_t = 1, conflicts_with = "file")]
    pub seed: u64,
    /// Read the board and its values from a file in the judge's format instead.
    #[arg(long)]
    pub file: Option<std::path::PathBuf>,
}

/// The Young-diagram game as games-cli shows it: cells `row,col`, Black's and White's values
/// `a/b` on the empty cells.
pub struct YoungChessFront {
    game: ScoredGame,
}

impl YoungChessFront {
    /// A `rows` x `cols` board with values 0 to 9 drawn from `seed` (deterministic).
    fn random_board(rows: usize, cols: usize, seed: u64) -> Result<Board> {
        anyhow::ensure!(
            rows.checked_mul(cols).is_some_and(|cells| cells <= SCORED_MAX_CELLS),
            "play young-chess takes boards of 1 to {SCORED_MAX_CELLS} cells, found {rows} x {cols}"
        );
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut values = || (0..rows * cols).map(|_| rng.gen_range(0..10)).collect::<Vec<i64>>();
        let (a, b) = (values(), values());
        Ok(Board::new(rows, cols, a, b)?)
    }

    fn board(&self) -> &Board {
        self.game.board()
    }
}

impl Front for YoungChessFront {
    type G = ScoredGame;
    type Options = Options;

    fn new(options: &Options) -> Result<Self> {
        let board = match &options.file {
            Some(path) => young_chess::parse_from(InputArgs { file: Some(path.clone()) }.reader()?)?,
            None => Self::random_board(options.size.0, options.size.1, options.seed)?,
        };
        Ok(YoungChessFront { game: ScoredGame::new(board)? })
    }

    fn solver(&self) -> Engine<ScoredGame> {
        self.game.clone().solver()
    }

    fn start(&self) -> ScoredPosition {
        self.game.start()
    }

    fn player_name(&self, player: Player) -> &'static str {
        player_name(player)
    }

    fn move_text(&self, mv: &Cell) -> String {
        mv.to_string()
    }

    fn parse_move(&self, pos: &ScoredPosition, text: &str) -> Result<Cell, String> {
        let cell = young_chess::parse_cell_text(self.board(), text).map_err(|e| e.to_string())?;
        let (r, c) = (usize::from(cell.row), usize::from(cell.col));
        if pos.staircase().is_filled(r, c) {
            return Err(format!("cell {r},{c} is already filled"));
        }
        if pos.staircase().moves().any(|m| m == cell) {
            return Ok(cell);
        }
        let legal: Vec<String> = pos.staircase().moves().map(|m| m.to_string()).collect();
        Err(format!(
            "cell {r},{c} cannot take a stone now (the cells above and to its left must be filled); legal: {}",
            legal.join(" ")
        ))
    }

    fn move_help(&self) -> &'static str {
        "a cell as `row,col`, 0-based, e.g. `0,0`"
    }

    /// Filled cells show `B` or `W`; empty ones Black's and White's values `a/b`.
    fn draw(&self, pos: &ScoredPosition) -> String {
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
                let cell = match pos.owner(r, c, m) {
                    None => format!("{}/{}", board.a(r, c), board.b(r, c)),
                    Some(Player::First) => "B".to_string(),
                    Some(Player::Second) => "W".to_string(),
                };
                s.push_str(&format!(" {cell:>width$}"));
            }
            s.push('\n');
        }
        s
    }

    fn score_text(&self, pos: &ScoredPosition) -> String {
        format!("Black minus White {:+}", pos.margin())
    }

    fn result_text(&self, value: Value) -> String {
        front::margin_words(value, "Black", "White")
    }

    fn value_note(&self) -> &'static str {
        VALUE_NOTE
    }

    /// Cells of 100 units with row and column numbers: Black's cells dark, White's white, each
    /// with the value its owner took; empty cells show `a/b`; the playable corners are moves.
    fn board_json(&self, pos: &ScoredPosition) -> serde_json::Value {
        const CELL: f64 = 100.0;
        const HEAD: f64 = 36.0;
        let board = self.board();
        let (n, m) = (board.rows(), board.cols());
        let mut s = Sketch::new(HEAD + CELL * m as f64 + 8.0, HEAD + CELL * n as f64 + 8.0, 26.0);
        s.player("Black", sketch::INK);
        s.player("White", "#ffffff");
        for c in 0..m {
            s.text((HEAD + CELL * (c as f64 + 0.5), HEAD / 2.0), &c.to_string(), 20.0, sketch::MUTED, false);
        }
        let moves: Vec<Cell> = pos.staircase().moves().collect();
        for r in 0..n {
            let y = HEAD + CELL * r as f64;
            s.text((HEAD / 2.0, y + CELL / 2.0), &r.to_string(), 20.0, sketch::MUTED, false);
            for c in 0..m {
                let x = HEAD + CELL * c as f64;
                let centre = (x + CELL / 2.0, y + CELL / 2.0);
                match pos.owner(r, c, m) {
                    Some(Player::First) => {
                        s.add(sketch::rect(x, y, CELL, CELL, sketch::INK, "#9ca3af"));
                        s.text(centre, &format!("B +{}", board.a(r, c)), 28.0, "#ffffff", true);
                    }
                    Some(Player::Second) => {
                        s.add(sketch::rect(x, y, CELL, CELL, "#ffffff", "#9ca3af"));
                        s.text(centre, &format!("W +{}", board.b(r, c)), 28.0, sketch::INK, true);
                    }
                    None => {
                        s.add(sketch::rect(x, y, CELL, CELL, "#fdf6e3", "#9ca3af"));
                        let ab = format!("{}/{}", board.a(r, c), board.b(r, c));
                        s.text((centre.0, y + 20.0), &ab, 20.0, sketch::MUTED, false);
                        let cell = Cell { row: r as u8, col: c as u8 };
                        if moves.contains(&cell) {
                            let target =
                                sketch::rect(x + 4.0, y + 4.0, CELL - 8.0, CELL - 8.0, "#fdf6e3", "none");
                            s.legal_move(cell.to_string(), (centre.0, y + 62.0), target);
                        }
                    }
                }
            }
        }
        s.into_json()
    }

    /// A board in LOJ 2471's format (`n m`, n rows of Black's values, n rows of White's): the
    /// empty board with those values (the format has no filled cells).
    fn parse_setup(&self, text: &str) -> Result<Setup<Self>, String> {
        let board = young_chess::parse(text).map_err(|e| e.to_string())?;
        let front = YoungChessFront { game: ScoredGame::new(board).map_err(|e| e.to_string())? };
        let start = front.start();
        Ok(Setup { front: Some(front), start, moves: Vec::new() })
    }

    /// The board's values in LOJ 2471's format (the moves played are not part of it).
    fn setup_text(&self, _start: &ScoredPosition, _moves: &[Cell]) -> String {
        let board = self.board();
        let (n, m) = (board.rows(), board.cols());
        let mut s = format!("{n} {m}\n");
        for value in [Board::a, Board::b] {
            for r in 0..n {
                let row: Vec<String> = (0..m).map(|c| value(board, r, c).to_string()).collect();
                s.push_str(&row.join(" "));
                s.push('\n');
            }
        }
        s
    }
}

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
