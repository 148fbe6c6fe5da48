//! `games-cli winning-move` (UVa 10111, and other m,n,k boards with `--size` / `--k`) and
//! `games-cli board-eval` (CCF CSP 201803-4): read the judge's input, print one answer per case
//! as soon as it is solved; with `--analyze` explain each answer, with `--format json` print one
//! JSON line per case instead.

use std::io::Write;

use anyhow::Context;
use search_core::{Analysis, Player};
use tic_tac_toe::{parse_ccf, parse_uva, BoardEval, Cell, Geometry, Position, SolveError, WinningMove};

use crate::common::{Format, InputArgs, OutputArgs};
use crate::report::CaseReport;

/// Arguments of `winning-move`.
#[derive(clap::Args, Debug)]
pub struct WinningMoveArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    output: OutputArgs,
    /// Board size as ROWSxCOLS (each 1 to 8); rows are given as ROWS lines of COLS characters.
    #[arg(long, value_name = "MxN", value_parser = parse_size, default_value = "4x4")]
    size: (usize, usize),
    /// Stones in a row needed to win [default: the shorter side of the board].
    #[arg(long, value_name = "K")]
    k: Option<usize>,
    /// Answer the empty board (x to move) without reading any input.
    #[arg(long, conflicts_with = "file")]
    empty: bool,
}

/// Arguments of `board-eval`.
#[derive(clap::Args, Debug)]
pub struct BoardEvalArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    output: OutputArgs,
}

/// Parses `MxN` (e.g. `5x5`) into rows and columns.
pub fn parse_size(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected ROWSxCOLS such as 4x4, found {text:?}");
    let (r, c) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    Ok((r.trim().parse().map_err(|_| bad())?, c.trim().parse().map_err(|_| bad())?))
}

/// The grid with 0-based row and column numbers, one line per row.
fn draw(pos: &Position) -> String {
    let g = pos.geometry();
    let mut s = String::from(" ");
    for c in 0..g.cols() {
        s.push_str(&format!(" {c}"));
    }
    s.push('\n');
    for (r, row) in pos.grid().lines().enumerate() {
        s.push_str(&r.to_string());
        for ch in row.chars() {
            s.push(' ');
            s.push(ch);
        }
        s.push('\n');
    }
    s
}

fn player_name(p: Player) -> &'static str {
    match p {
        Player::First => "x",
        Player::Second => "o",
    }
}

fn score_so_far(pos: &Position) -> String {
    let empty = pos.empty_cells().count();
    match pos.winner() {
        Some(w) => format!("{w} has completed a line, {empty} empty cells (game over)"),
        None if empty == 0 => "board full without a line (draw)".to_string(),
        None => format!("no line yet, {empty} empty cells"),
    }
}

/// Writes the `--analyze` block or the JSON line of one case (nothing in plain judge mode).
fn explain(
    output: &OutputArgs,
    out: &mut dyn Write,
    analyze: impl FnOnce(&Position) -> Result<Analysis<Cell>, SolveError>,
    case: usize,
    pos: &Position,
    answer: &str,
    value_note: &str,
) -> anyhow::Result<()> {
    if output.format == Format::Judge && !output.analyze {
        return Ok(());
    }
    let g = pos.geometry();
    let analysis = analyze(pos)?;
    let report = CaseReport::new(case, answer.to_string(), &analysis, player_name, |&cell: &Cell| {
        let (r, c) = g.row_col(cell);
        format!("{r},{c}")
    });
    match output.format {
        Format::Json => report.write_json(out)?,
        Format::Judge => report.write_text(out, &draw(pos), &score_so_far(pos), value_note)?,
    }
    Ok(())
}

/// Runs `winning-move`.
pub fn run_winning_move(args: &WinningMoveArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let (rows, cols) = args.size;
    let k = args.k.unwrap_or(rows.min(cols));
    let geometry = Geometry::new(rows, cols, k)?;
    let mut solver = WinningMove::new(geometry)?;
    let mut answer = |case: usize, pos: &Position, out: &mut dyn Write| -> anyhow::Result<()> {
        let text = match solver.find(pos)? {
            Some(cell) => {
                let (r, c) = geometry.row_col(cell);
                format!("({r},{c})")
            }
            None => "#####".to_string(),
        };
        if args.output.format == Format::Judge {
            writeln!(out, "{text}")?;
        }
        let note = "x's side: +1 x wins, 0 draw, -1 o wins";
        explain(&args.output, out, |p| solver.analyze(p), case, pos, &text, note)
    };
    if args.empty {
        return answer(1, &Position::empty(geometry), out);
    }
    let input = args.input.read()?;
    for case in parse_uva(&input, geometry) {
        let case = case?;
        answer(case.number, &case.position, out)
            .with_context(|| format!("line {}: case {}", case.line, case.number))?;
    }
    Ok(())
}

/// Runs `board-eval`.
pub fn run_board_eval(args: &BoardEvalArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut eval = BoardEval::new(Geometry::CCF)?;
    let input = args.input.read()?;
    for case in parse_ccf(&input) {
        let case = case?;
        let score = eval.evaluate(&case.position)?;
        if args.output.format == Format::Judge {
            writeln!(out, "{score}")?;
        }
        let note = "CCF score, Alice's side: a win scores empty cells + 1";
        explain(
            &args.output,
            out,
            |p| eval.analyze(p),
            case.number,
            &case.position,
            &score.to_string(),
            note,
        )?;
    }
    Ok(())
}

/// Tic-tac-toe for `games-cli play`, scored as CCF 201803-4 (a quicker win is worth more).
pub struct PlayTicTacToe {
    solver: search_core::Solver<tic_tac_toe::MnkGame>,
    geometry: Geometry,
}

impl PlayTicTacToe {
    /// A session on a `rows` x `cols` board with `k` in a row to win (at most 40 cells).
    pub fn new(rows: usize, cols: usize, k: usize) -> anyhow::Result<Self> {
        let geometry = Geometry::new(rows, cols, k)?;
        let game = tic_tac_toe::MnkGame::new(geometry, tic_tac_toe::Scoring::EmptyPlusOne)?;
        Ok(PlayTicTacToe {
            solver: search_core::Solver::new(game, tic_tac_toe::default_tt_bits(geometry)),
            geometry,
        })
    }

    /// The empty board, x to move.
    pub fn start(&self) -> Position {
        Position::empty(self.geometry)
    }
}

impl crate::play::Playable for PlayTicTacToe {
    type G = tic_tac_toe::MnkGame;

    fn solver(&mut self) -> &mut search_core::Solver<Self::G> {
        &mut self.solver
    }

    fn draw(&self, pos: &Position) -> String {
        draw(pos)
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Cell, String> {
        let g = self.geometry;
        let (r, c) = crate::play::parse_cell(text)?;
        if r >= g.rows() || c >= g.cols() {
            return Err(format!("cell {r},{c} is off the {}x{} board", g.rows(), g.cols()));
        }
        let cell = g.cell(r, c).ok_or_else(|| format!("cell {r},{c} is off the board"))?;
        pos.try_play(cell).map(|_| cell).map_err(|e| e.to_string())
    }

    fn move_text(&self, mv: &Cell) -> String {
        let (r, c) = self.geometry.row_col(*mv);
        format!("{r},{c}")
    }

    fn player_name(&self, p: Player) -> &'static str {
        player_name(p)
    }

    fn score_text(&self, pos: &Position) -> String {
        score_so_far(pos)
    }

    fn result_text(&self, value: i64) -> String {
        match value.signum() {
            1 => format!("x wins, score {value}"),
            -1 => format!("o wins, score {value}"),
            _ => "draw, score 0".to_string(),
        }
    }

    fn move_help(&self) -> &'static str {
        "a cell as `row,col`, 0-based, e.g. `1,1`"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("5x4"), Ok((5, 4)));
        assert_eq!(parse_size("3X3"), Ok((3, 3)));
        assert!(parse_size("5").is_err());
        assert!(parse_size("ax3").is_err());
    }

    #[test]
    fn board_is_drawn_with_coordinates() {
        let p = Position::empty(Geometry::CCF).play(Cell(4));
        assert_eq!(draw(&p), "  0 1 2\n0 . . .\n1 . x .\n2 . . .\n");
    }
}
