//! `games-cli connect-four [FILE]`: Connect Four positions, one per line as a move string
//! (`4453`: columns 1-based from the left, first player first), each answered `MOVES SCORE` with
//! the exact score for the side to move in Pascal Pons' convention, as in his test sets.
//!
//! A line may carry a second field (an expected score, as in the test sets); it must be an
//! integer and is not used. Lines are read and answered one at a time (memory is one line, however
//! long the input); blank and whitespace-only lines are skipped, never solved: the empty board is
//! asked for with `--empty`. `--weak` prints the sign of the score only (1 win, 0 draw, -1 loss),
//! found with cheaper searches; `--analyze` and `--format json` explain each answer (values from
//! the first player's side, X). `--threads N` sets the number of search threads (default 1,
//! 0 = every core). `--time-limit SECONDS` stops each position's search after that long: its
//! line says `not finished` with the bounds proven on the score, the next positions are still
//! answered, and the exit status is 3. `--checkpoint FILE` (one position per run) solves it
//! move by move at the root with the shared long-solve driver ([`crate::long_solve`]), resumed
//! from the file when it exists.

use std::cell::RefCell;
use std::io::Write;

use anyhow::{anyhow, Result};
use connect_four::{parse_line, Column, Geometry, Position, Rules, Solver};
use search_core::{Analysis, Interrupted, Limits, Player, Value};

use crate::common::{Format, InputArgs, OutputArgs};
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
the negative of the winner's score. Blank and whitespace-only lines are skipped; `--empty`
answers the empty board.

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
    /// every core, at most 256.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::common::threads_parser())]
    threads: u16,
    /// Answer the empty board as one position, without reading input.
    #[arg(long, conflicts_with = "file")]
    empty: bool,
    /// `--time-limit` (per position: its line then gives the bounds proven on the score, the
    /// next positions are still answered, exit status 3), `--checkpoint` (one position per run,
    /// solved move by move at the root; resumed from the file) and `--save-every`.
    #[command(flatten)]
    long: crate::long_solve::LongSolveArgs,
}

/// Parses `WxH` (e.g. `7x6`).
fn parse_size(text: &str) -> Result<(usize, usize), String> {
    judge_text::parse_size(text, "COLUMNSxROWS", "7x6")
}

const VALUE_NOTE: &str = "Pons' score for X: a win with one's k-th stone is worth 22 - k on 7x6 \
                          (more for a quicker win), a loss the negative, a draw 0";

fn player_name(p: Player) -> &'static str {
    match p {
        Player::First => "X",
        Player::Second => "O",
    }
}

/// The position of one input line that is not blank, or what is wrong with it (with its
/// 1-based column). Fields are separated by ASCII white space ([`judge_text::is_space`]).
fn parse_position(geom: Geometry, line: &str) -> Result<Position, String> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let mut fields = line.split(judge_text::is_space).filter(|f| !f.is_empty());
    match (fields.next(), fields.next()) {
        (None, _) => Err("column 1: expected a move string such as 4453, found a blank line".to_string()),
        (Some(moves), None) => {
            let start = line.chars().take_while(|&c| judge_text::is_space(c)).count();
            Position::parse(geom, moves).map_err(|e| format!("column {}: {e}", start + e.index()))
        }
        _ => parse_line(geom, line).map(|j| j.position).map_err(|e| e.to_string()),
    }
}

/// The least and greatest scores the side to move can have in `pos` (Pons' convention): a win
/// with its next stone, a loss to the opponent's next one.
fn score_range(pos: &Position) -> (i64, i64) {
    let cells = pos.geometry().cells() as i64;
    let n = pos.moves_played() as i64;
    (-((cells - n) / 2), (cells + 1 - n) / 2)
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

/// Runs the subcommand: each line is answered (and flushed) as soon as it is read, so that
/// the answers before a bad line stay printed and endless input needs one line of memory.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<()> {
    let (w, h) = args.size;
    let geom = Geometry::new(w, h).map_err(|e| anyhow!("--size {w}x{h}: {e}"))?;
    let threads = crate::common::thread_count(args.threads);
    let mut solver = Solver::with_threads(geom, connect_four::DEFAULT_TT_BITS, threads);
    let mut unfinished = Vec::new();
    if args.empty {
        answer(args, &mut solver, 1, &Position::empty(geom), out, &mut unfinished)?;
    } else {
        let mut lines = judge_text::LineReader::new(args.input.reader()?);
        let mut answered = 0;
        while let Some(line) = lines.next_line()? {
            if line.is_blank() {
                continue;
            }
            let number = line.number;
            answered += 1;
            anyhow::ensure!(
                answered == 1 || args.long.checkpoint.is_none(),
                "line {number}: --checkpoint takes one position per run"
            );
            let pos = parse_position(geom, line.text).map_err(|e| anyhow!("line {number}, {e}"))?;
            answer(args, &mut solver, number, &pos, out, &mut unfinished)?;
        }
    }
    if unfinished.is_empty() {
        return Ok(());
    }
    Err(crate::common::Incomplete(format!(
        "stopped by the time limit before finishing line{} {}",
        if unfinished.len() == 1 { "" } else { "s" },
        unfinished.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
    ))
    .into())
}

/// Answers the position of line `number` (flushed at once); under `--time-limit` a position
/// stopped by the limit is printed as not finished and its number added to `unfinished`.
fn answer(
    args: &Args,
    solver: &mut Solver,
    number: usize,
    pos: &Position,
    out: &mut dyn Write,
    unfinished: &mut Vec<usize>,
) -> Result<()> {
    if let Some(time) = args.long.time_limit {
        solver.set_limits(Limits { time: Some(time), ..Limits::default() });
        solver.engine().restart_clock();
    }
    let limited = args.long.time_limit.is_some();
    let rooted = match args.long.checkpoint {
        Some(_) => Some(root_solve(args, solver, pos)?),
        None => None,
    };
    let found = (|| -> Result<(i32, Option<Analysis<Column>>), Interrupted> {
        let score = match (args.weak, limited) {
            _ if rooted.is_some() => {
                let score = rooted.expect("checked")?;
                if args.weak {
                    score.signum()
                } else {
                    score
                }
            }
            (true, false) => solver.weak(pos).sign(),
            (true, true) => solver.try_weak(pos)?.sign(),
            (false, false) => solver.score(pos),
            (false, true) => solver.try_score(pos)?,
        };
        let analysis = match (args.output.explains(), limited) {
            (false, _) => None,
            (true, false) => Some(solver.analyze(pos)),
            (true, true) => Some(solver.try_analyze(pos)?),
        };
        Ok((score, analysis))
    })();
    let moves = pos.moves_string();
    match found {
        Ok((score, None)) => writeln!(out, "{moves} {score}")?,
        Ok((score, Some(analysis))) => {
            let answer = format!("{moves} {score}");
            let report = CaseReport::with_notation(number, answer, &analysis, player_name, Column::to_string);
            report.write(&args.output, out, &pos.to_string(), &score_text(pos), VALUE_NOTE)?;
        }
        Err(Interrupted { lo, hi }) => {
            // The engine's bounds are Pons' scores for the side to move (or the search's
            // infinities where nothing is known): clamped to the scores possible here.
            let (min, max) = score_range(pos);
            let (lo, hi) = (lo.clamp(min, max), hi.clamp(min, max));
            if args.output.format == Format::Json {
                let line = serde_json::json!({
                    "case": number,
                    "moves": moves,
                    "finished": false,
                    "score_lo": lo,
                    "score_hi": hi,
                });
                writeln!(out, "{line}")?;
            } else {
                writeln!(out, "{moves} not finished: score in [{lo}, {hi}]")?;
            }
            unfinished.push(number);
        }
    }
    out.flush()?;
    Ok(())
}

/// The score of `pos` by the root driver ([`crate::long_solve::solve`]) with `--checkpoint`,
/// or the bounds proven when the time limit stops it (as the engine's values).
fn root_solve(args: &Args, solver: &mut Solver, pos: &Position) -> Result<Result<i32, Interrupted>> {
    if pos.is_won() || pos.is_full() {
        return Ok(Ok(solver.score(pos)));
    }
    let geom = *pos.geometry();
    let board = pos.board();
    let engine = solver.engine();
    if let Some(v) = search_core::Game::terminal_value(engine.game(), board) {
        return Ok(Ok(v as i32));
    }
    let (min, max) = score_range(pos);
    let (width, height) = (geom.width(), geom.height());
    // A TT entry is trusted as a proven bound: a score possible on the board, a column of it.
    let entry_ok = |e: &search_core::TtEntry<u64, Column>| {
        e.value.abs() <= max.max(-min) + 1 && e.best.map_or(true, |c| usize::from(c.0) < width)
    };
    let move_text = |c: Column| c.to_string();
    let bounds_text =
        |(lo, hi): (i64, i64)| format!("score in [{}, {}]", lo.clamp(min, max), hi.clamp(min, max));
    let spec = crate::long_solve::RootSolve {
        args: &args.long,
        identity: search_core::SolveIdentity {
            game: "connect-four".to_string(),
            options: format!("size {width}x{height}"),
            root: format!("moves {}", pos.moves_string()),
        },
        exact_all: false,
        entry_ok: &entry_ok,
        move_text: &move_text,
        bounds_text: &bounds_text,
    };
    let result = crate::long_solve::solve(engine, board, &spec)?.result;
    let (lo, hi) = result.bounds;
    Ok(if result.finished { Ok(lo as i32) } else { Err(Interrupted { lo, hi }) })
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

    /// The leftmost best column, from the fast solver under `limits`.
    fn try_best_move(
        &self,
        _: &mut search_core::Engine<Rules>,
        pos: &Position,
        limits: Limits,
    ) -> Result<Column, search_core::Interrupted> {
        let mut solver = self.solver.borrow_mut();
        solver.set_limits(limits);
        Ok(solver.try_analyze(pos)?.moves[0].mv)
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
    /// Blank lines are skipped as in the input; a text with no position is the empty board
    /// (the page's start), and a second position is refused: only one case is read.
    fn parse_setup(&self, text: &str) -> Result<Setup<Self>, String> {
        let is_blank = |l: &str| l.chars().all(judge_text::is_space);
        let mut lines = text.lines().enumerate().filter(|(_, l)| !is_blank(l));
        let pos = match lines.next() {
            None => Position::empty(self.geom),
            Some((i, line)) => parse_position(self.geom, line).map_err(|e| format!("line {}, {e}", i + 1))?,
        };
        if let Some((i, _)) = lines.next() {
            return Err(format!("line {}: expected one position: only one case of the text is read", i + 1));
        }
        Ok(Setup { front: None, start: Position::empty(self.geom), moves: pos.history().collect() })
    }

    fn setup_text(&self, start: &Position, moves: &[Column]) -> String {
        let pos = moves.iter().fold(*start, |p, c| p.play(c.index()));
        format!("{}\n", pos.moves_string())
    }
}
