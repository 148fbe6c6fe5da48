//! Triangle War's front: `games-cli triangle-war` (POJ 1085 input in, `Game k: A wins.` lines
//! out) and `games-cli play triangle-war`.
//!
//! The crate's [`Judge`] answers each game (a retrograde table on the judge's board, the
//! search engine on larger ones); `--analyze` and `--format json` explain each answer with the
//! engine.

use std::io::{IsTerminal, Write};

use anyhow::Result;
use game_front::Front;
use search_core::Game;
use triangle_war::{
    parse_games_from, Geometry, Judge, Outcome, Position, Rules, TriangleWar, TriangleWarFront,
};

use crate::common::{AlgorithmArgs, InputArgs, OutputArgs};
use crate::report::CaseReport;
use long_solve::Stop;

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
#[command(group(clap::ArgGroup::new("root_driver").args(["time_limit", "checkpoint", "store"]).multiple(true).conflicts_with_all(["algorithm", "stats"])))]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// Side of the triangle (3 is the judge's board; 1 to 6).
    #[arg(long, default_value_t = 3)]
    side: u8,
    /// Answer the empty board as one game, without reading input.
    #[arg(long, conflicts_with = "file")]
    empty: bool,
    /// `--tt-bits` (default: 18 up to side 3, 8 MiB; 20 on side 4, 32 MiB; 22 above, 128
    /// MiB), `--tt-mib`, `--threads`.
    #[command(flatten)]
    table: crate::common::TableArgs,
    /// Pruning rules of the search: `all` (every proven rule, the default), `none` (the plain
    /// game tree) or a comma-separated list of capture, capture-first, all-but-two,
    /// fold-forced, graph-keys, twins, each optionally prefixed with `no-` (e.g.
    /// `all,no-twins`). The answers do not depend on it, only the work (side 3 is answered
    /// from a table without search unless solved at the root).
    #[arg(long, value_name = "all|none|LIST", default_value = "all", value_parser = triangle_war::parse_rules)]
    rules: Rules,
    #[command(flatten)]
    long: long_solve::LongSolveArgs,
    #[command(flatten)]
    output: OutputArgs,
    #[command(flatten)]
    algorithm: AlgorithmArgs,
}

/// Runs `triangle-war`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<()> {
    let front = TriangleWarFront::with_geometry(Geometry::new(args.side)?);
    let tt_bits = args.table.tt_bits_with::<TriangleWar>(&triangle_war::SEARCH_OPTIONS)?;
    let threads = args.table.threads();
    let mut judge =
        Judge::new(front.geometry().clone(), tt_bits).with_threads(threads).with_rules(args.rules);
    let searched = front.geometry().segments().len() > triangle_war::TABLE_MAX_SEGMENTS;
    if searched {
        let options =
            search_core::SearchOptions { tt_bits: judge.tt_bits(), threads, ..triangle_war::SEARCH_OPTIONS };
        crate::huge_pages::reexec_for_table(search_core::Engine::<TriangleWar>::table_bytes(&options));
    }
    let long = args.long.is_set()
        || (searched && std::io::stderr().is_terminal() && args.algorithm.algorithm.is_none());
    // The root driver answers `--analyze` too (every root move made exact), where the pruning
    // rules leave every legal move at the root (no triangle can be taken there): the analysis
    // lists every legal move.
    let game = TriangleWar::with_rules(front.geometry().clone(), args.rules);
    let driven = |pos: &Position| {
        !args.output.analyze
            || game.candidates(pos.drawn().0) == front.geometry().all_segments().0 & !pos.drawn().0
    };
    if long && (args.empty || !args.output.analyze) && driven(&Position::start()) {
        let mut seen = 0;
        let mut solve = |number: usize, pos: &Position, out: &mut dyn Write| -> Result<Option<Stopped>> {
            seen += 1;
            anyhow::ensure!(
                seen == 1 || !args.long.one_case(),
                "--checkpoint and --store take one game per run"
            );
            if driven(pos) {
                long_solve(&front, args, judge.tt_bits(), threads, number, pos, out)
            } else {
                answer(&front, &mut judge, number, pos, args, out).map(|()| None)
            }
        };
        if args.empty {
            return match solve(1, &Position::start(), out)? {
                None => Ok(()),
                Some(Stopped { stop, bounds }) => Err(long_solve::stopped("game 1", stop, &bounds)),
            };
        }
        // The time limit is per game: a game it stops is reported, and the later games are
        // still answered; the run then ends with exit status 3 naming the unfinished ones.
        let mut unfinished = Vec::new();
        for record in parse_games_from(args.input.reader()?, front.geometry()) {
            let record = record?;
            if let Some(stopped) = solve(record.number, &record.position, out)? {
                unfinished.push((record.number, stopped.stop));
            }
        }
        if !unfinished.is_empty() {
            return Err(long_solve::unfinished_error("game", &unfinished));
        }
        return Ok(());
    }
    if args.empty {
        return answer(&front, &mut judge, 1, &Position::start(), args, out);
    }
    for record in parse_games_from(args.input.reader()?, front.geometry()) {
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
    if !output.analyze {
        // The margin only where it is printed (JSON) or known anyway (`--algorithm`): the
        // judge's answer needs only who wins.
        let margin = if args.algorithm.algorithm.is_some() {
            let game = TriangleWar::with_rules(front.geometry().clone(), args.rules);
            let v = args.algorithm.value(number, &game, pos, judge.tt_bits());
            Some(pos.margin() + pos.to_move().sign() * v)
        } else if output.format == crate::common::Format::Json {
            Some(judge.final_margin(pos))
        } else {
            None
        };
        let outcome = margin.map_or_else(|| judge.outcome(pos), Outcome::from_margin);
        let to_move = front.player_name(pos.to_move());
        crate::report::write_answer(output, out, number, to_move, margin, &line(outcome))?;
        return Ok(());
    }
    let analysis = judge.analyze(pos);
    let report = CaseReport::new(front, number, line(Outcome::from_margin(analysis.value)), &analysis);
    report.write(output, out, &front.draw(pos), &front.score_text(pos), front.value_note())?;
    Ok(())
}

/// A game that a limit stopped: what stopped it and the bounds proven, in words.
struct Stopped {
    stop: Stop,
    bounds: String,
}

/// Solves one game move by move at the root ([`long_solve::solve`], on `threads`
/// threads) under the time limit, with progress on a terminal and the checkpoint file; prints
/// the judge's line, or the bounds proven when a limit stops it (then returned as
/// [`Stopped`]).
fn long_solve(
    front: &TriangleWarFront,
    args: &Args,
    tt_bits: u32,
    threads: usize,
    number: usize,
    pos: &Position,
    out: &mut dyn Write,
) -> Result<Option<Stopped>> {
    use search_core::SearchOptions;
    let geometry = front.geometry();
    // The children's TT buckets prefetched a move ahead (the same nodes; measured on side 5 in
    // docs/results/triangle-war-side5.md).
    let options = SearchOptions {
        tt_bits,
        principal_variation_search: true,
        prefetch_children: true,
        ..triangle_war::SEARCH_OPTIONS
    };
    let mut solver = triangle_war::Solver::with_options(geometry.clone(), args.rules, options)
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
        return Ok(None);
    }
    let exact_all = args.output.analyze;
    let stats0 = solver.stats();
    let deadline = args.long.time_limit.map(|t| std::time::Instant::now() + t);
    let solved = long_solve::solve_game(front, pos, solver.engine(), pos, &args.long, exact_all)?;
    let result = solved.result;
    let (lo, hi) = margins(result.bounds);
    if result.finished && exact_all {
        // Every root move is exact: the analysis, with a principal variation found by a root
        // solve at each step (under what is left of the time limit), played without folding
        // forced captures so that it lists every segment.
        let plain = TriangleWar::with_rules(geometry.clone(), Rules { fold_forced: false, ..args.rules });
        if let Ok(analysis) = solver.engine().root_analysis(&plain, pos, &result, &stats0, deadline) {
            let report = CaseReport::new(front, number, outcome_line(lo), &analysis);
            report.write(&args.output, out, &front.draw(pos), &front.score_text(pos), front.value_note())?;
            return Ok(None);
        }
    }
    let finished = lo == hi && !exact_all;
    if args.output.format == crate::common::Format::Json {
        let mut line = serde_json::json!({ "case": number, "finished": finished });
        if finished {
            line["value"] = lo.into();
            line["answer"] = outcome_line(lo).into();
        } else {
            line["margin_lo"] = lo.into();
            line["margin_hi"] = hi.into();
        }
        line["nodes"] = solved.stats.nodes.into();
        writeln!(out, "{line}")?;
    } else if finished {
        writeln!(out, "{}", outcome_line(lo))?;
    } else {
        writeln!(out, "Game {number}: not finished: final margin (A minus B) in [{lo:+}, {hi:+}]")?;
    }
    if finished {
        return Ok(None);
    }
    // A finished split whose principal variation the time limit cut short is stopped by it.
    let stop = solved.stop.unwrap_or(Stop::TimeLimit);
    Ok(Some(Stopped { stop, bounds: format!("the final margin in [{lo:+}, {hi:+}]") }))
}
