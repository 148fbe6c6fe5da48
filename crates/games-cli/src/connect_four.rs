//! `games-cli connect-four [FILE]`: Connect Four positions, one per line as a move string
//! (`4453`: columns 1-based from the left, first player first), each answered `MOVES SCORE` with
//! the exact score for the side to move in Pascal Pons' convention, as in his test sets.
//!
//! A line may carry a second field (an expected score, as in the test sets); it must be an
//! integer and is not used. An empty line is the empty board. `--weak` prints the sign of the
//! score only (1 win, 0 draw, -1 loss), found with cheaper searches; `--analyze` and
//! `--format json` explain each answer (values from the first player's side, X).

use std::io::Write;

use anyhow::{anyhow, Result};
use connect_four::{parse_line, Column, Geometry, Position, Solver};
use search_core::Player;

use crate::common::{InputArgs, OutputArgs};
use crate::report::CaseReport;

/// Arguments of `connect-four`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Input: one position per line, the columns played from the empty board (1 = leftmost, first
player first), optionally followed by a score that is ignored (Pons' test-set lines). Output:
`MOVES SCORE` per line, SCORE for the side to move: a win with one's k-th stone scores 22 - k on
7x6 ((W*H + 1 - n) / 2 for a win with the next stone, n stones on the board), a draw 0, a loss
the negative of the winner's score.

Example:
  $ printf '4453\\n2252576253462244111563365343671351441\\n' | games-cli connect-four
  4453 ...
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
        Some(w) => format!("{} has four in a row after {n} stones (game over)", player_name(w)),
        None if pos.is_full() => "board full, no line (draw)".to_string(),
        None => format!("{n} stones played, no line yet"),
    }
}

/// Runs the subcommand.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<()> {
    let (w, h) = args.size;
    let geom = Geometry::new(w, h).map_err(|e| anyhow!("--size {w}x{h}: {e}"))?;
    let text = args.input.read()?;
    let mut solver = Solver::new(geom);
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
