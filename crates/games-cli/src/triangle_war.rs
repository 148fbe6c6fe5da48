//! `games-cli triangle-war`: POJ 1085 input in, `Game k: A wins.` lines out.
//!
//! Side 3 (the judge's board) and smaller are answered from a retrograde table of every segment
//! set, built once per run; larger sides by the search-core engine with one TT for the batch.
//! `--analyze` and `--format json` use the engine on every board.

use std::io::Write;

use anyhow::Context;
use triangle_war::{parse_games, Geometry, Player, Position, RetrogradeTable, Solver};

use crate::common::{Format, InputArgs, OutputArgs};
use crate::report::CaseReport;

/// Arguments of `triangle-war`.
#[derive(clap::Args, Debug)]
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

/// How positions are solved in this run.
enum Engine {
    Table(RetrogradeTable),
    Search(Box<Solver>),
}

/// Largest segment count answered from a retrograde table (side 3: 18 segments, 256 KiB).
const TABLE_MAX_SEGMENTS: usize = 18;

/// The default TT size for a side: the judge's board has only 2^18 segment sets.
fn default_tt_bits(side: u8) -> u32 {
    if side <= 3 {
        18
    } else {
        22
    }
}

/// Runs the subcommand.
pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<()> {
    let geometry = Geometry::new(args.side)?;
    let explain = args.output.analyze || args.output.format == Format::Json;
    let mut engine = if geometry.segments().len() <= TABLE_MAX_SEGMENTS && !explain {
        Engine::Table(RetrogradeTable::build(&geometry).context("building the retrograde table")?)
    } else {
        Engine::Search(Box::new(Solver::new(
            geometry.clone(),
            args.tt_bits.unwrap_or(default_tt_bits(args.side)),
        )))
    };
    if args.empty {
        return answer(1, &Position::start(), &geometry, &mut engine, &args.output, out);
    }
    let text = args.input.read()?;
    for record in parse_games(&text, &geometry) {
        let record = record?;
        answer(record.number, &record.position, &geometry, &mut engine, &args.output, out)?;
    }
    Ok(())
}

fn player_name(p: Player) -> &'static str {
    match p {
        Player::First => "A",
        Player::Second => "B",
    }
}

fn answer(
    number: usize,
    pos: &Position,
    geometry: &Geometry,
    engine: &mut Engine,
    output: &OutputArgs,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let solver = match engine {
        Engine::Table(table) => {
            writeln!(out, "Game {number}: {}", table.outcome(pos).judge_text())?;
            return Ok(());
        }
        Engine::Search(solver) => solver,
    };
    if !output.analyze && output.format == Format::Judge {
        writeln!(out, "Game {number}: {}", solver.outcome(pos).judge_text())?;
        return Ok(());
    }
    let analysis = solver.analyze(pos);
    let line = format!("Game {number}: {}", triangle_war::Outcome::from_margin(analysis.value).judge_text());
    let segment = |m: &u8| geometry.segments()[usize::from(*m)].to_string();
    let report = CaseReport::new(number, line.clone(), &analysis, player_name, segment);
    if output.format == Format::Json {
        report.write_json(out)?;
    } else {
        writeln!(out, "{line}")?;
        let score = format!("A {}, B {}", pos.owned_a(), pos.owned_b());
        report.write_text(out, &draw(geometry, pos), &score, "A's triangles minus B's at the end")?;
    }
    Ok(())
}

/// The board as text: dots by number, drawn segments as lines, owned triangles by their
/// owner's letter.
///
/// Dot `(r, c)` sits at text row `3r`, column `6c + 3(n - r)`; segments use the cells between.
pub fn draw(geometry: &Geometry, pos: &Position) -> String {
    let n = usize::from(geometry.side());
    let (rows, cols) = (3 * n + 1, 6 * n + 3);
    let mut grid = vec![vec![b' '; cols]; rows];
    let at = |d: u8| {
        let d = usize::from(d) - 1;
        let r = (0..=n).rev().find(|&r| r * (r + 1) / 2 <= d).unwrap_or(0);
        let c = d - r * (r + 1) / 2;
        (3 * r, 6 * c + 3 * (n - r) + 1)
    };
    for s in pos.drawn.iter() {
        let seg = geometry.segments()[s];
        let ((y0, x0), (y1, x1)) = (at(seg.a), at(seg.b));
        if y0 == y1 {
            grid[y0][x0 + 1..x1].fill(b'-');
        } else if x1 < x0 {
            grid[y0 + 1][x0 - 1] = b'/';
            grid[y0 + 2][x0 - 2] = b'/';
        } else {
            grid[y0 + 1][x0 + 1] = b'\\';
            grid[y0 + 2][x0 + 2] = b'\\';
        }
    }
    // Owned triangles show their owner's letter at their centre.
    for (i, &t) in geometry.triangles().iter().enumerate() {
        let owner = if pos.owned_by_a >> i & 1 == 1 {
            b'A'
        } else if pos.owned_by_b >> i & 1 == 1 {
            b'B'
        } else {
            continue;
        };
        {
            let mut dots: Vec<u8> =
                t.iter().flat_map(|s| [geometry.segments()[s].a, geometry.segments()[s].b]).collect();
            dots.sort_unstable();
            dots.dedup();
            let ys: Vec<usize> = dots.iter().map(|&d| at(d).0).collect();
            let xs: Vec<usize> = dots.iter().map(|&d| at(d).1).collect();
            let (ymin, ymax) = (*ys.iter().min().unwrap(), *ys.iter().max().unwrap());
            let top_count = ys.iter().filter(|&&y| y == ymin).count();
            let x = (xs.iter().min().unwrap() + xs.iter().max().unwrap()) / 2;
            // Upward triangles have one top dot (centre two rows down), downward ones two.
            let y = if top_count == 2 { ymin + 1 } else { ymax - 1 };
            grid[y][x] = owner;
        }
    }
    for d in 1..=geometry.dots() {
        let (y, x) = at(d);
        let label = d.to_string();
        let start = x + 1 - label.len();
        grid[y][start..=x].copy_from_slice(label.as_bytes());
    }
    grid.iter().map(|row| String::from_utf8_lossy(row).trim_end().to_string() + "\n").collect()
}

/// Triangle War for `games-cli play`.
pub struct PlayTriangleWar {
    solver: search_core::Solver<triangle_war::TriangleWar>,
}

impl PlayTriangleWar {
    /// A session on the triangle of side `side`.
    pub fn new(side: u8) -> anyhow::Result<Self> {
        let geometry = Geometry::new(side)?;
        let tt_bits = default_tt_bits(side);
        Ok(PlayTriangleWar {
            solver: search_core::Solver::new(triangle_war::TriangleWar::new(geometry), tt_bits),
        })
    }

    fn geometry(&self) -> &Geometry {
        self.solver.game().geometry()
    }
}

impl crate::play::Playable for PlayTriangleWar {
    type G = triangle_war::TriangleWar;

    fn solver(&mut self) -> &mut search_core::Solver<Self::G> {
        &mut self.solver
    }

    fn draw(&self, pos: &Position) -> String {
        draw(self.geometry(), pos)
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<u8, String> {
        let g = self.geometry();
        let bad = || format!("expected a segment as two dot numbers like `2 5` or `2-5`, found `{text}`");
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

    fn move_text(&self, mv: &u8) -> String {
        self.geometry().segments()[usize::from(*mv)].to_string()
    }

    fn player_name(&self, p: Player) -> &'static str {
        player_name(p)
    }

    fn score_text(&self, pos: &Position) -> String {
        format!("A {}, B {}", pos.owned_a(), pos.owned_b())
    }

    fn result_text(&self, value: i64) -> String {
        crate::play::margin_words(value, "A", "B")
    }

    fn move_help(&self) -> &'static str {
        "a segment as two dot numbers, e.g. `2 5` or `2-5`"
    }
}
