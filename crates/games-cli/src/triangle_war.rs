//! Triangle War's front: `games-cli triangle-war` (POJ 1085 input in, `Game k: A wins.` lines
//! out) and `games-cli play triangle-war`.
//!
//! The crate's [`Judge`] answers each game (a retrograde table on the judge's board, the
//! search engine on larger ones); `--analyze` and `--format json` explain each answer with the
//! engine.

use std::io::Write;

use anyhow::Result;
use search_core::{Player, Solver, Value};
use triangle_war::{diagram, parse_games, Geometry, Judge, Outcome, Position, TriangleWar};

use crate::common::{InputArgs, OutputArgs};
use crate::front::{self, Front};
use crate::report::CaseReport;

/// Arguments of `triangle-war`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Input (POJ 1085): the number of games T, then for each game the number of moves m and m lines
`i j`, the dots joined by each move (dots numbered row by row from the apex, 1 to 10 on the
judge's side-3 board). Output: `Game k: A wins.` or `Game k: B wins.` (`Draw.` on boards with an
even number of triangles).

Example:
  $ printf '1\\n6\\n2 4\\n4 5\\n5 9\\n3 6\\n2 5\\n3 5\\n' | games-cli triangle-war
  Game 1: B wins.")]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// Side of the triangle (3 is the judge's board; 1 to 6).
    #[arg(long, default_value_t = 3)]
    side: u8,
    /// Answer the empty board as one game, without reading input.
    #[arg(long, conflicts_with = "file")]
    empty: bool,
    /// TT size as a power of two (entries of about 32 bytes), for boards solved by search.
    /// Default: 18 up to side 3 (8 MiB), 22 above (128 MiB).
    #[arg(long, value_parser = clap::value_parser!(u32).range(10..=30))]
    tt_bits: Option<u32>,
    #[command(flatten)]
    output: OutputArgs,
}

/// Runs `triangle-war`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<()> {
    let front = TriangleWarFront::new(&Options { side: args.side })?;
    let mut judge = Judge::new(front.geometry.clone(), args.tt_bits);
    if args.empty {
        return answer(&front, &mut judge, 1, &Position::start(), &args.output, out);
    }
    let text = args.input.read()?;
    for record in parse_games(&text, &front.geometry) {
        let record = record?;
        answer(&front, &mut judge, record.number, &record.position, &args.output, out)?;
    }
    Ok(())
}

fn answer(
    front: &TriangleWarFront,
    judge: &mut Judge,
    number: usize,
    pos: &Position,
    output: &OutputArgs,
    out: &mut dyn Write,
) -> Result<()> {
    let line = |outcome: Outcome| format!("Game {number}: {}", outcome.judge_text());
    if !output.explains() {
        writeln!(out, "{}", line(judge.outcome(pos)))?;
        return Ok(());
    }
    let analysis = judge.analyze(pos);
    let report = CaseReport::new(front, number, line(Outcome::from_margin(analysis.value)), &analysis);
    report.write(output, out, &front.draw(pos), &front.score_text(pos), front.value_note())?;
    Ok(())
}

/// Options of `play triangle-war`.
#[derive(clap::Args, Debug, Clone)]
pub struct Options {
    /// Side of the triangle (1 to 6).
    #[arg(long, default_value_t = 3)]
    pub side: u8,
}

/// Triangle War as games-cli shows it: dots numbered from the apex, moves `i-j`.
pub struct TriangleWarFront {
    geometry: Geometry,
}

impl Front for TriangleWarFront {
    type G = TriangleWar;
    type Options = Options;

    fn new(options: &Options) -> Result<Self> {
        Ok(TriangleWarFront { geometry: Geometry::new(options.side)? })
    }

    fn solver(&self) -> Solver<TriangleWar> {
        let bits = Judge::new(self.geometry.clone(), None).tt_bits();
        Solver::new(TriangleWar::new(self.geometry.clone()), bits)
    }

    fn start(&self) -> Position {
        Position::start()
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "A",
            Player::Second => "B",
        }
    }

    fn move_text(&self, mv: &u8) -> String {
        self.geometry.segments()[usize::from(*mv)].to_string()
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<u8, String> {
        let g = &self.geometry;
        let bad = || {
            format!(
                "expected a segment as two dot numbers like `2 5` or `2-5`, found {}",
                front::quoted(text)
            )
        };
        // `i j`, or `i-j` with the dash between two numbers (so `-1 3` is not `1 3`).
        let words: Vec<&str> = match text.split_whitespace().collect::<Vec<_>>()[..] {
            [one] => one.split_once('-').map(|(a, b)| vec![a, b]).ok_or_else(bad)?,
            [a, b] => vec![a, b],
            _ => return Err(bad()),
        };
        let dots: Vec<u8> = words.iter().map(|w| w.parse().map_err(|_| bad())).collect::<Result<_, _>>()?;
        let [i, j] = dots[..] else { return Err(bad()) };
        if let Some(d) = [i, j].into_iter().find(|&d| d == 0 || d > g.dots()) {
            return Err(format!("dot {d} is not on the board: dots are numbered 1 to {}", g.dots()));
        }
        let s =
            g.segment_index(i, j).ok_or_else(|| format!("dots {i} and {j} are not joined by a segment"))?;
        if pos.drawn.contains(s) {
            return Err(format!("segment {} is already drawn", g.segments()[s]));
        }
        Ok(s as u8)
    }

    fn move_help(&self) -> &'static str {
        "a segment as two dot numbers, e.g. `2 5` or `2-5`"
    }

    fn draw(&self, pos: &Position) -> String {
        diagram(&self.geometry, pos)
    }

    fn score_text(&self, pos: &Position) -> String {
        format!("A {}, B {}", pos.owned_a(), pos.owned_b())
    }

    fn result_text(&self, value: Value) -> String {
        front::margin_words(value, "A", "B")
    }

    fn value_note(&self) -> &'static str {
        "A's triangles minus B's at the end"
    }
}
