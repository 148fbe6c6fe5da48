//! `games-cli connect-four [FILE]`: Connect Four positions, one per line as a move string
//! (`4453`: columns 1-based from the left, first player first), each answered `MOVES SCORE` with
//! the exact score for the side to move in Pascal Pons' convention, as in his test sets.
//!
//! A line may carry a second field (an expected score, as in the test sets); it must be an
//! integer and is not used. An empty line is the empty board. `--weak` prints the sign of the
//! score only (1 win, 0 draw, -1 loss), found with cheaper searches; `--analyze` and
//! `--format json` explain each answer (values from the first player's side, X). `--threads N`
//! sets the number of search threads (default 1, 0 = every core).

use std::io::Write;

use std::cell::RefCell;

use anyhow::{anyhow, Result};
use connect_four::{parse_line, Column, Geometry, Position, Rules, Solver};
use search_core::{Analysis, Limits, Player, Value};

use crate::common::{InputArgs, OutputArgs};
use crate::front::{self, Front, Setup};
use crate::report::CaseReport;
use crate::serve::sketch::{self, Sketch};

/// Arguments of `connect-four`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Input: one position per line, the columns played from the empty board (1 = leftmost, first
player first), optionally followed by a score that is ignored (Pons' test-set lines). Output:
`MOVES SCORE` per line, SCORE for the side to move: a win with one's k-th stone scores 22 - k on
7x6 ((W*H + 1 - n) / 2 for a win with the next stone, n stones on the board), a draw 0, a loss
the negative of the winner's score.

Example:
  $ printf '2252576253462244111563365343671351441\\n' | games-cli connect-four
  2252576253462244111563365343671351441 -1")]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    output: OutputArgs,
    /// Board size as COLUMNSxROWS with columns x (rows + 1) <= 64.
    #[arg(long, value_name = "WxH", value_parser = parse_size, default_value = "7x6")]
    size: (usize, usize),
    /// Print only the sign of the score (1 win, 0 draw, -1 loss for the side to move).
    #[arg(long)]
    weak: bool,
    /// Search threads (lazy SMP over a shared TT; the scores do not depend on it); 0 means
    /// every core.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(0..=1024))]
    threads: u16,
}

/// Parses `WxH` (e.g. `7x6`).
fn parse_size(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected COLUMNSxROWS such as 7x6, found {text:?}");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    Ok((w.trim().parse().map_err(|_| bad())?, h.trim().parse().map_err(|_| bad())?))
}

const VALUE_NOTE: &str = "Pons' score for X: a win with one's k-th stone is worth 22 - k on 7x6 \
                          (more for a quicker win), a loss the negative, a draw 0";

fn player_name(p: Player) -> &'static str {
    match p {
        Player::First => "X",
        Player::Second => "O",
    }
}

/// The position of one input line, or what is wrong with it (with its 1-based column).
fn parse_position(geom: Geometry, line: &str) -> Result<Position, String> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let fields: Vec<&str> = line.split_whitespace().collect();
    match fields.len() {
        0 => Ok(Position::empty(geom)),
        1 => {
            let start = line.chars().take_while(|c| c.is_whitespace()).count();
            Position::parse(geom, fields[0]).map_err(|e| format!("column {}: {e}", start + e.index()))
        }
        _ => parse_line(geom, line).map(|j| j.position).map_err(|e| e.to_string()),
    }
}

fn score_text(pos: &Position) -> String {
    let n = pos.moves_played();
    match pos.winner() {
        Some(w) => format!(
            "{} has four in a row after {} (game over)",
            player_name(w),
            front::count(n, "stone", "stones")
        ),
        None if pos.is_full() => "board full, no line (draw)".to_string(),
        None => format!("{} played, no line yet", front::count(n, "stone", "stones")),
    }
}

/// Runs the subcommand.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<()> {
    let (w, h) = args.size;
    let geom = Geometry::new(w, h).map_err(|e| anyhow!("--size {w}x{h}: {e}"))?;
    let text = args.input.read()?;
    let threads = match args.threads {
        0 => connect_four::all_cores(),
        n => usize::from(n),
    };
    let mut solver = Solver::with_threads(geom, connect_four::DEFAULT_TT_BITS, threads);
    for (i, line) in text.lines().enumerate() {
        let pos = parse_position(geom, line).map_err(|e| anyhow!("line {}, {e}", i + 1))?;
        let answer = if args.weak {
            format!("{} {}", pos.moves_string(), solver.weak(&pos).sign())
        } else {
            format!("{} {}", pos.moves_string(), solver.score(&pos))
        };
        if args.output.explains() {
            let analysis = solver.analyze(&pos);
            let report = CaseReport::with_notation(i + 1, answer, &analysis, player_name, Column::to_string);
            report.write(&args.output, out, &pos.to_string(), &score_text(&pos), VALUE_NOTE)?;
        } else {
            writeln!(out, "{answer}")?;
        }
        out.flush()?;
    }
    Ok(())
}

/// Options of `play connect-four`.
#[derive(clap::Args, Debug, Clone)]
pub struct Options {
    /// Board size as COLUMNSxROWS with columns x (rows + 1) <= 64.
    #[arg(long, value_name = "WxH", value_parser = parse_size, default_value = "7x6")]
    pub size: (usize, usize),
}

/// Connect Four as games-cli shows it: columns 1 to W from the left, X moves first. Sessions
/// follow the plain rules ([`Rules`]); hints and the solver's moves come from the fast
/// [`Solver`].
pub struct ConnectFourFront {
    geom: Geometry,
    solver: RefCell<Solver>,
}

impl Front for ConnectFourFront {
    type G = Rules;
    type Options = Options;

    fn new(options: &Options) -> Result<Self> {
        let (w, h) = options.size;
        let geom = Geometry::new(w, h).map_err(|e| anyhow!("--size {w}x{h}: {e}"))?;
        Ok(ConnectFourFront { geom, solver: RefCell::new(Solver::new(geom)) })
    }

    fn solver(&self) -> search_core::Engine<Rules> {
        // Only the rules are used from it: values come from the fast solver (see `analyze`).
        search_core::Engine::new(Rules::new(self.geom), 1)
    }

    fn start(&self) -> Position {
        Position::empty(self.geom)
    }

    fn player_name(&self, player: Player) -> &'static str {
        player_name(player)
    }

    fn move_text(&self, mv: &Column) -> String {
        mv.to_string()
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Column, String> {
        let width = self.geom.width();
        let bad = || format!("expected a column number from 1 to {width}, found {}", judge_text::quote(text));
        let c: usize = text.trim().parse().map_err(|_| bad())?;
        if c == 0 || c > width {
            return Err(bad());
        }
        pos.try_play(c - 1).map(|_| Column((c - 1) as u8)).map_err(|e| e.to_string())
    }

    fn move_help(&self) -> &'static str {
        "a column number, 1 = leftmost"
    }

    fn draw(&self, pos: &Position) -> String {
        pos.to_string()
    }

    fn score_text(&self, pos: &Position) -> String {
        score_text(pos)
    }

    fn result_text(&self, value: Value) -> String {
        match value.signum() {
            1 => format!("X wins, score {value}"),
            -1 => format!("O wins, score {value}"),
            _ => "draw".to_string(),
        }
    }

    fn value_note(&self) -> &'static str {
        VALUE_NOTE
    }

    fn analyze(&self, _: &mut search_core::Engine<Rules>, pos: &Position) -> Analysis<Column> {
        self.solver.borrow_mut().analyze(pos)
    }

    fn best_move(&self, _: &mut search_core::Engine<Rules>, pos: &Position) -> Column {
        // Best first, ties left to right: the leftmost best column.
        self.solver.borrow_mut().analyze(pos).moves[0].mv
    }

    /// Values come from the fast solver: the limits go to its engine.
    fn try_analyze(
        &self,
        _: &mut search_core::Engine<Rules>,
        pos: &Position,
        limits: Limits,
    ) -> Result<Analysis<Column>, search_core::Interrupted> {
        let mut solver = self.solver.borrow_mut();
        solver.set_limits(limits);
        solver.try_analyze(pos)
    }

    /// Columns of 100-unit cells, X red and O yellow; each playable column is a move anchored
    /// in the row above the board; column numbers (the notation) below.
    fn board_json(&self, pos: &Position) -> serde_json::Value {
        const CELL: f64 = 100.0;
        const X: &str = "#dc2626";
        const O: &str = "#facc15";
        let (w, h) = (self.geom.width(), self.geom.height());
        let top = CELL;
        let mut s = Sketch::new(CELL * w as f64, top + CELL * h as f64 + 40.0, 30.0);
        s.player("X", X);
        s.player("O", O);
        s.add(sketch::rect(0.0, top, CELL * w as f64, CELL * h as f64, "#1e3a8a", "#1e3a8a"));
        for c in 0..w {
            let x = CELL * c as f64;
            for row in 0..h {
                let cy = top + CELL * (h - 1 - row) as f64 + CELL / 2.0;
                let fill = match pos.cell(c, row) {
                    Some(Player::First) => X,
                    Some(Player::Second) => O,
                    None => "#ffffff",
                };
                s.add(sketch::circle((x + CELL / 2.0, cy), 40.0, fill, "#0f172a", 2.0));
            }
            let label = (x + CELL / 2.0, top + CELL * h as f64 + 20.0);
            s.text(label, &(c + 1).to_string(), 22.0, sketch::MUTED, false);
            if !pos.is_over() && pos.can_play(c) {
                let target = sketch::rect(x + 6.0, 6.0, CELL - 12.0, CELL - 12.0, "#ffffff", "none");
                s.legal_move(Column(c as u8).to_string(), (x + CELL / 2.0, CELL / 2.0), target);
            }
        }
        s.into_json()
    }

    /// One line of the input (`connect-four`'s): the columns played from the empty board.
    fn parse_setup(&self, text: &str) -> Result<Setup<Self>, String> {
        let mut lines = text.lines();
        let line = lines.next().unwrap_or("");
        if lines.any(|l| !l.trim().is_empty()) {
            return Err("line 2: expected one position (one line)".to_string());
        }
        let pos = parse_position(self.geom, line).map_err(|e| format!("line 1, {e}"))?;
        Ok(Setup { front: None, start: Position::empty(self.geom), moves: pos.history().collect() })
    }

    fn setup_text(&self, start: &Position, moves: &[Column]) -> String {
        let pos = moves.iter().fold(*start, |p, c| p.play(c.index()));
        format!("{}\n", pos.moves_string())
    }
}
