//! Triangle War's front: `games-cli triangle-war` (POJ 1085 input in, `Game k: A wins.` lines
//! out) and `games-cli play triangle-war`.
//!
//! The crate's [`Judge`] answers each game (a retrograde table on the judge's board, the
//! search engine on larger ones); `--analyze` and `--format json` explain each answer with the
//! engine.

use std::io::{IsTerminal, Write};

use anyhow::Result;
use search_core::{Analysis, Engine, Game, Interrupted, Limits, Player, Value};
use triangle_war::{diagram, parse_games_from, Geometry, Judge, Outcome, Position, TriangleWar};

use crate::common::{AlgorithmArgs, InputArgs, OutputArgs};
use crate::front::{self, Front, Setup};
use crate::report::CaseReport;
use crate::serve::sketch::{self, Sketch};

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
#[command(group(clap::ArgGroup::new("root_driver").args(["time_limit", "checkpoint"]).multiple(true).conflicts_with_all(["algorithm", "stats"])))]
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
    /// Default: 18 up to side 3 (8 MiB), 20 on side 4 (32 MiB), 22 above (128 MiB).
    #[arg(long, value_parser = clap::value_parser!(u32).range(10..=30), conflicts_with = "tt_mib")]
    tt_bits: Option<u32>,
    /// TT size in MiB (the largest power-of-two table that fits); refused before allocating if
    /// the memory available is smaller.
    #[arg(long, value_name = "MIB")]
    tt_mib: Option<u64>,
    #[command(flatten)]
    long: crate::long_solve::LongSolveArgs,
    /// Search threads for boards solved by search (lazy SMP over a shared TT; the answers do
    /// not depend on it); 0 means every core, at most 256.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = crate::common::threads_parser())]
    threads: u16,
    #[command(flatten)]
    output: OutputArgs,
    #[command(flatten)]
    algorithm: AlgorithmArgs,
}

/// Runs `triangle-war`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<()> {
    let front = TriangleWarFront::new(&Options { side: args.side })?;
    let tt_bits = match args.tt_mib {
        Some(mib) => {
            let available = crate::memory::mem_available().map(|b| u64::try_from(b).unwrap_or(u64::MAX));
            Some(triangle_war::tt_bits_for_mib(mib, available)?)
        }
        None => args.tt_bits,
    };
    let threads = crate::common::thread_count(args.threads);
    let mut judge = Judge::new(front.geometry.clone(), tt_bits).with_threads(threads);
    let searched = front.geometry.segments().len() > triangle_war::TABLE_MAX_SEGMENTS;
    let long = args.long.is_set()
        || (searched && std::io::stderr().is_terminal() && args.algorithm.algorithm.is_none());
    // The root driver answers `--analyze` too (every root move made exact), where the pruning
    // rules leave every legal move at the root (no triangle can be taken there): the analysis
    // lists every legal move.
    let game = TriangleWar::new(front.geometry.clone());
    let driven = |pos: &Position| {
        !args.output.analyze
            || game.candidates(pos.drawn().0) == front.geometry.all_segments().0 & !pos.drawn().0
    };
    if long && (args.empty || !args.output.analyze) && driven(&Position::start()) {
        let mut seen = 0;
        let mut solve = |number: usize, pos: &Position, out: &mut dyn Write| -> Result<()> {
            seen += 1;
            anyhow::ensure!(
                seen == 1 || args.long.checkpoint.is_none(),
                "--checkpoint takes one game per run"
            );
            if driven(pos) {
                long_solve(&front, args, judge.tt_bits(), threads, number, pos, out)
            } else {
                answer(&front, &mut judge, number, pos, args, out)
            }
        };
        if args.empty {
            return solve(1, &Position::start(), out);
        }
        // The time limit is per game: a game it stops is reported, and the later games are
        // still answered; the run then ends with exit status 3 naming the unfinished ones.
        let mut unfinished = Vec::new();
        for record in parse_games_from(args.input.reader()?, &front.geometry) {
            let record = record?;
            match solve(record.number, &record.position, out) {
                Err(e) if e.downcast_ref::<crate::common::Incomplete>().is_some() => {
                    unfinished.push(record.number)
                }
                other => other?,
            }
        }
        if !unfinished.is_empty() {
            let list: Vec<String> = unfinished.iter().map(ToString::to_string).collect();
            return Err(crate::common::Incomplete(format!(
                "stopped by the time limit before finishing game(s) {}",
                list.join(", ")
            ))
            .into());
        }
        return Ok(());
    }
    if args.empty {
        return answer(&front, &mut judge, 1, &Position::start(), args, out);
    }
    for record in parse_games_from(args.input.reader()?, &front.geometry) {
        let record = record?;
        answer(&front, &mut judge, record.number, &record.position, args, out)?;
    }
    Ok(())
}

fn answer(
    front: &TriangleWarFront,
    judge: &mut Judge,
    number: usize,
    pos: &Position,
    args: &Args,
    out: &mut dyn Write,
) -> Result<()> {
    let output = &args.output;
    let line = |outcome: Outcome| format!("Game {number}: {}", outcome.judge_text());
    if !output.explains() {
        let outcome = if args.algorithm.algorithm.is_some() {
            let game = TriangleWar::new(front.geometry.clone());
            let v = args.algorithm.value(number, &game, pos, judge.tt_bits());
            Outcome::from_margin(pos.margin() + pos.to_move().sign() * v)
        } else {
            judge.outcome(pos)
        };
        writeln!(out, "{}", line(outcome))?;
        return Ok(());
    }
    let analysis = judge.analyze(pos);
    let report = CaseReport::new(front, number, line(Outcome::from_margin(analysis.value)), &analysis);
    report.write(output, out, &front.draw(pos), &front.score_text(pos), front.value_note())?;
    Ok(())
}

/// Solves one game move by move at the root ([`crate::long_solve::solve`], on `threads`
/// threads) under the time limit, with progress on a terminal and the checkpoint file; prints
/// the judge's line, or the bounds proven when the limit stops it
/// ([`crate::common::Incomplete`], exit status 3).
fn long_solve(
    front: &TriangleWarFront,
    args: &Args,
    tt_bits: u32,
    threads: usize,
    number: usize,
    pos: &Position,
    out: &mut dyn Write,
) -> Result<()> {
    use search_core::SearchOptions;
    let geometry = &front.geometry;
    let options = SearchOptions { tt_bits, principal_variation_search: true, ..SearchOptions::DEFAULT };
    let mut solver = triangle_war::Solver::with_options(geometry.clone(), triangle_war::Rules::ALL, options)
        .with_threads(threads, options);
    let (margin, sign) = (pos.margin(), pos.to_move().sign());
    // Final margins (A minus B) from the root's value bounds for the side to move.
    let margins = |(lo, hi): (i64, i64)| {
        if sign == 1 {
            (margin + lo, margin + hi)
        } else {
            (margin - hi, margin - lo)
        }
    };
    let outcome_line = |m: i64| format!("Game {number}: {}", Outcome::from_margin(m).judge_text());
    if solver.engine().game().terminal_value(pos).is_some() {
        writeln!(out, "{}", outcome_line(margin))?;
        return Ok(());
    }
    // A TT entry is trusted as a proven bound: its value must be a margin the board allows and
    // its move a segment of the board.
    let (triangles, segments) = (geometry.triangles().len() as i64, geometry.segments().len());
    let entry_ok = |e: &search_core::TtEntry<u64, u8>| {
        e.value.abs() <= triangles && e.best.map_or(true, |m| usize::from(m) < segments)
    };
    let move_text = |m: u8| geometry.segments()[usize::from(m)].to_string();
    let bounds_text = |b: (i64, i64)| {
        let (lo, hi) = margins(b);
        format!("final margin in [{lo:+}, {hi:+}]")
    };
    let exact_all = args.output.analyze;
    let spec = crate::long_solve::RootSolve {
        args: &args.long,
        identity: identity(geometry, pos),
        exact_all,
        entry_ok: &entry_ok,
        move_text: &move_text,
        bounds_text: &bounds_text,
    };
    let stats0 = solver.stats();
    let deadline = args.long.time_limit.map(|t| std::time::Instant::now() + t);
    let solved = crate::long_solve::solve(solver.engine(), pos, &spec)?;
    let result = solved.result;
    let (lo, hi) = margins(result.bounds);
    if result.finished && exact_all {
        // Every root move is exact: the analysis, with a principal variation found by a root
        // solve at each step (under what is left of the time limit).
        let mut pv = Vec::new();
        let mut p = *pos;
        while !p.is_over(geometry) {
            let time = deadline.map(|d| d.saturating_duration_since(std::time::Instant::now()));
            solver.set_limits(Limits { time, ..Limits::default() });
            let step = solver.solve_root(&p, None, false, |_| {}).map_err(|e| anyhow::anyhow!("{e}"))?;
            if !step.finished {
                break;
            }
            let best = step.checkpoint.moves.iter().find(|m| m.lo == step.bounds.0).expect("a best move");
            // The engine folds forced captures into the move that allows them: expand them.
            p = p.play(geometry, usize::from(best.mv)).0;
            pv.push(best.mv);
            let game = solver.engine().game();
            while let Some(s) = game.folded_move(p.drawn().0) {
                pv.push(s as u8);
                p = p.play(geometry, s).0;
            }
        }
        if p.is_over(geometry) {
            let mut moves: Vec<search_core::MoveValue<u8>> = result
                .checkpoint
                .moves
                .iter()
                .map(|m| search_core::MoveValue { mv: m.mv, value: margin + sign * m.lo })
                .collect();
            moves.sort_by_key(|m| -sign * m.value);
            let stats = solver.stats().since(&stats0);
            let analysis = Analysis { to_move: pos.to_move(), value: lo, moves, pv, stats };
            let report = CaseReport::new(front, number, outcome_line(lo), &analysis);
            report.write(&args.output, out, &front.draw(pos), &front.score_text(pos), front.value_note())?;
            return Ok(());
        }
    }
    let nodes = solved.stats.nodes;
    if lo == hi && !exact_all {
        if args.output.format == crate::common::Format::Json {
            writeln!(
                out,
                "{}",
                serde_json::json!({
                    "case": number,
                    "finished": true,
                    "value": lo,
                    "answer": outcome_line(lo),
                    "nodes": nodes,
                })
            )?;
        } else {
            writeln!(out, "{}", outcome_line(lo))?;
        }
        return Ok(());
    }
    if args.output.format == crate::common::Format::Json {
        writeln!(
            out,
            "{}",
            serde_json::json!({
                "case": number,
                "finished": false,
                "margin_lo": lo,
                "margin_hi": hi,
                "nodes": nodes,
            })
        )?;
    } else {
        writeln!(out, "Game {number}: not finished: final margin (A minus B) in [{lo:+}, {hi:+}]")?;
    }
    Err(crate::long_solve::stopped(
        &format!("game {number}"),
        &format!("the final margin in [{lo:+}, {hi:+}]"),
    ))
}

/// What a checkpoint of `pos` on `geometry` belongs to: a file of another board or position
/// is refused.
fn identity(geometry: &Geometry, pos: &Position) -> search_core::SolveIdentity {
    search_core::SolveIdentity {
        game: "triangle-war".to_string(),
        options: format!("side {}", geometry.side()),
        root: format!(
            "drawn {:#x}, {} to move",
            pos.drawn().0,
            if pos.to_move() == Player::First { "A" } else { "B" }
        ),
    }
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

    fn solver(&self) -> Engine<TriangleWar> {
        let bits = Judge::new(self.geometry.clone(), None).tt_bits();
        // Sessions play one segment at a time: no forced captures folded into a move.
        let rules = triangle_war::Rules { fold_forced: false, ..triangle_war::Rules::ALL };
        Engine::new(TriangleWar::with_rules(self.geometry.clone(), rules), bits)
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
        let s = triangle_war::parse_segment(g, text).map_err(|e| e.to_string())?;
        if pos.drawn().contains(s) {
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

    /// Every legal move valued, as `triangle-war --analyze` does: the engine's forced-capture
    /// rule would generate only the capture, so the moves come from the rules without pruning
    /// and each value from `solver`.
    fn analyze(&self, solver: &mut Engine<TriangleWar>, pos: &Position) -> Analysis<u8> {
        let before = solver.stats();
        let all = TriangleWar::with_rules(self.geometry.clone(), triangle_war::Rules::NONE);
        let mut analysis = search_core::analyze_with(&all, pos, |p| solver.solve(p));
        analysis.stats = solver.stats().since(&before);
        analysis
    }

    /// [`Front::analyze`]'s analysis with every search under `limits`.
    fn try_analyze(
        &self,
        solver: &mut Engine<TriangleWar>,
        pos: &Position,
        limits: Limits,
    ) -> Result<Analysis<u8>, Interrupted> {
        solver.set_limits(limits);
        let before = solver.stats();
        let all = TriangleWar::with_rules(self.geometry.clone(), triangle_war::Rules::NONE);
        let mut analysis = search_core::try_analyze_with(&all, pos, |p| solver.try_solve(p))?;
        analysis.stats = solver.stats().since(&before);
        Ok(analysis)
    }

    /// Dots numbered from the apex, drawn segments in ink, owned triangles in their owner's
    /// colour with its letter; every undrawn segment is a move anchored at its midpoint.
    fn board_json(&self, pos: &Position) -> serde_json::Value {
        board_json(&self.geometry, pos)
    }

    /// One game of POJ 1085's input (`1`, `m`, then `m` lines `i j`) on this side; a text
    /// with more games is refused (only one case is read).
    fn parse_setup(&self, text: &str) -> Result<Setup<Self>, String> {
        let mut games = triangle_war::parse_games(text, &self.geometry);
        let record = games.next().ok_or("no game in the text")?.map_err(|e| e.to_string())?;
        match games.next() {
            None => {}
            Some(Ok(second)) => {
                return Err(format!(
                    "game {}: only one case is read: expected one game (T = 1)",
                    second.number
                ))
            }
            Some(Err(e)) => return Err(e.to_string()),
        }
        Ok(Setup { front: None, start: Position::start(), moves: record.moves })
    }

    fn setup_text(&self, _start: &Position, moves: &[u8]) -> String {
        let mut s = format!("1\n{}\n", moves.len());
        for &m in moves {
            let seg = self.geometry.segments()[usize::from(m)];
            s.push_str(&format!("{} {}\n", seg.a, seg.b));
        }
        s
    }
}

/// The board of [`TriangleWarFront::board_json`]: edges of 100 units.
fn board_json(g: &Geometry, pos: &Position) -> serde_json::Value {
    const EDGE: f64 = 100.0;
    const MARGIN: f64 = 50.0;
    let n = f64::from(g.side());
    let height = 3f64.sqrt() / 2.0 * EDGE;
    let at = |d: u8| {
        let d = usize::from(d) - 1;
        let row = (0..=usize::from(g.side())).rev().find(|&r| r * (r + 1) / 2 <= d).unwrap_or(0);
        let col = d - row * (row + 1) / 2;
        let (row, col) = (row as f64, col as f64);
        (MARGIN + EDGE * (col + (n - row) / 2.0), MARGIN + height * row)
    };
    let mut s = Sketch::new(2.0 * MARGIN + EDGE * n, 2.0 * MARGIN + height * n, 22.0);
    s.player("A", sketch::FIRST);
    s.player("B", sketch::SECOND);
    for (i, &t) in g.triangles().iter().enumerate() {
        let owner = if pos.owned(Player::First) >> i & 1 == 1 {
            ("A", sketch::FIRST)
        } else if pos.owned(Player::Second) >> i & 1 == 1 {
            ("B", sketch::SECOND)
        } else {
            continue;
        };
        let mut dots: Vec<u8> = t.iter().flat_map(|k| [g.segments()[k].a, g.segments()[k].b]).collect();
        dots.sort_unstable();
        dots.dedup();
        let corners: Vec<_> = dots.iter().map(|&d| at(d)).collect();
        s.polygon(&corners, owner.1, 0.75);
        let c = corners.iter().fold((0.0, 0.0), |(x, y), p| (x + p.0 / 3.0, y + p.1 / 3.0));
        s.text(c, owner.0, 34.0, "#ffffff", true);
    }
    let over = pos.is_over(g);
    for (k, seg) in g.segments().iter().enumerate() {
        let (a, b) = (at(seg.a), at(seg.b));
        if pos.drawn().contains(k) {
            s.add(sketch::line(a, b, sketch::INK, 7.0));
        } else if over {
            s.add(sketch::line(a, b, "#d1d5db", 3.0));
        } else {
            let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            s.legal_move(seg.to_string(), mid, sketch::line(a, b, "#d1d5db", 3.0));
        }
    }
    for d in 1..=g.dots() {
        let p = at(d);
        s.add(sketch::circle(p, 8.0, sketch::INK, sketch::INK, 1.0));
        s.label((p.0, p.1 - 19.0), &d.to_string(), 17.0, sketch::MUTED);
    }
    s.into_json()
}
