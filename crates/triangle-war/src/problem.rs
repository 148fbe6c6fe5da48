//! Triangle War as a judge subcommand ([`TriangleWarProblem`], POJ 1085 / UVa 751): who wins
//! each game under perfect play, `Game k: A wins.`.
//!
//! The crate's [`Judge`] answers each game (a retrograde table on the judge's board, the search
//! engine on larger ones). Boards solved by search are driven move by move at the root by the
//! long-solve driver when a long-solve option is given (or on a terminal, for the progress
//! line); `--analyze` explains each answer with the engine.

use std::time::Instant;

use game_front::{
    Explained, Features, Front, LongDone, LongJob, Numbered, OptionSpec, Problem, ProblemOptions, Reply,
    Request, Tables,
};
use search_core::{Analysis, Engine, Game, SearchOptions, Stats};

use crate::{
    parse_games_owned, parse_pruning, Geometry, Judge, Outcome, Position, Pruning, Solver, TriangleWar,
    TriangleWarFront, TABLE_MAX_SEGMENTS,
};

/// `games-cli triangle-war`: the POJ 1085 judge on boards of side 1 to 6.
pub struct TriangleWarProblem {
    front: TriangleWarFront,
    judge: Judge,
    rules: Pruning,
    threads: usize,
    /// Whether the board is solved by search (not by the retrograde table).
    searched: bool,
    /// Whether games are driven at the root by the long-solve driver.
    driven: bool,
    /// The root driver's solver and the statistics and deadline at its start.
    long: Option<(Solver, Stats, Option<Instant>)>,
}

fn check_side(text: &str) -> Result<(), String> {
    text.parse::<u8>().map(|_| ()).map_err(|e| e.to_string())
}

fn check_rules(text: &str) -> Result<(), String> {
    parse_pruning(text).map(|_| ()).map_err(|e| e.to_string())
}

impl TriangleWarProblem {
    /// Whether the root driver's move values at `pos` are an analysis: not asked for, or the
    /// pruning rules leave every legal move at the root (no triangle can be taken there).
    fn drivable(&self, pos: &Position, request: &Request) -> bool {
        let geometry = self.front.geometry();
        let game = TriangleWar::with_pruning(geometry.clone(), self.rules);
        !request.analyze || game.candidates(pos.drawn().0) == geometry.all_segments().0 & !pos.drawn().0
    }

    fn explained(
        &self,
        number: usize,
        answer: &str,
        pos: &Position,
        analysis: &Analysis<u8>,
    ) -> Box<Explained> {
        Explained::of(&self.front, number, answer, pos, analysis)
    }
}

fn line(number: usize, outcome: Outcome) -> String {
    format!("Game {number}: {}", crate::judge_text(outcome))
}

impl Problem for TriangleWarProblem {
    type Case = Position;
    type Search = TriangleWar;
    type Long = TriangleWarFront;

    const COMMAND: &'static str = "triangle-war";
    const ABOUT: &'static str = "Triangle War (POJ 1085 / UVa 751): who wins each game under perfect play.";
    const AFTER_HELP: &'static str = "\
Input (POJ 1085): the number of games T, then for each game the number of moves m and m lines
`i j`, the dots joined by each move (dots numbered row by row from the apex, 1 to 10 on the
judge's side-3 board). Output: `Game k: A wins.` or `Game k: B wins.` (`Draw.` on boards with an
even number of triangles). The TT (`--tt-bits`) defaults to 18 bits up to side 3 (8 MiB), 20 on
side 4 (32 MiB), 22 above (128 MiB).

Example:
  $ printf '1\\n6\\n2 4\\n4 5\\n5 9\\n3 6\\n2 5\\n3 5\\n' | games-cli triangle-war
  Game 1: B wins.";
    const OPTIONS: &'static [OptionSpec] = &[
        OptionSpec::value("side", "SIDE", "Side of the triangle (3 is the judge's board; 1 to 6).", Some("3"), check_side),
        OptionSpec::value(
            "rules",
            "all|none|LIST",
            "Pruning rules of the search: `all` (every proven rule, the default), `none` (the plain game \
             tree) or a comma-separated list of capture, capture-first, all-but-two, fold-forced, graph-keys, \
             twins, each optionally prefixed with `no-` (e.g. `all,no-twins`). The answers do not depend on \
             it, only the work.",
            Some("all"),
            check_rules,
        ),
    ];
    const FEATURES: Features =
        Features { empty: true, table: Tables::Full, long: true, algorithm: true, book: false, unit: "game" };

    fn new(options: &ProblemOptions, request: &Request) -> Result<Self, String> {
        let side = options.value("side").unwrap_or("3").parse::<u8>().map_err(|e| e.to_string())?;
        let rules = parse_pruning(options.value("rules").unwrap_or("all")).map_err(|e| e.to_string())?;
        let geometry = Geometry::new(side).map_err(|e| e.to_string())?;
        let front = TriangleWarFront::with_geometry(geometry.clone());
        let judge =
            Judge::new(geometry.clone(), request.tt_bits).with_threads(request.threads).with_pruning(rules);
        let searched = geometry.segments().len() > TABLE_MAX_SEGMENTS;
        let long = request.long || (searched && request.terminal && request.algorithm.is_none());
        let mut problem = TriangleWarProblem {
            front,
            judge,
            rules,
            threads: request.threads,
            searched,
            driven: false,
            long: None,
        };
        problem.driven =
            long && (request.empty || !request.analyze) && problem.drivable(&Position::start(), request);
        Ok(problem)
    }

    fn table_options() -> SearchOptions {
        crate::SEARCH_OPTIONS
    }

    fn table_bytes(&self) -> Option<u64> {
        let options =
            SearchOptions { tt_bits: self.judge.tt_bits(), threads: self.threads, ..crate::SEARCH_OPTIONS };
        self.searched.then(|| Engine::<TriangleWar>::table_bytes(&options))
    }

    fn read<'a>(
        &self,
        input: Box<dyn std::io::BufRead + 'a>,
    ) -> Box<dyn Iterator<Item = anyhow::Result<Numbered<Position>>> + 'a> {
        let games = parse_games_owned(input, self.front.geometry().clone());
        Box::new(games.map(|record| {
            let record = record?;
            Ok(Numbered { number: record.number, case: record.position })
        }))
    }

    fn empty_case(&self) -> Position {
        Position::start()
    }

    fn answer(
        &mut self,
        number: usize,
        pos: &Position,
        request: &Request,
        _progress: &mut dyn FnMut(&str),
    ) -> anyhow::Result<Reply> {
        if request.analyze {
            let analysis = self.judge.analyze(pos);
            let answer = line(number, Outcome::of_value(analysis.value));
            let explained = Some(self.explained(number, &answer, pos, &analysis));
            let to_move = self.front.player_name(pos.to_move()).to_string();
            return Ok(Reply::Answer {
                answer,
                to_move,
                value: Some(analysis.value),
                explained,
                algorithm: None,
                json: None,
            });
        }
        // The margin only where it is printed (JSON) or known anyway (`--algorithm`): the
        // judge's answer needs only who wins.
        let mut algorithm = None;
        let margin = if let Some(algo) = request.algorithm {
            let game = TriangleWar::with_pruning(self.front.geometry().clone(), self.rules);
            let (v, stats) = search_core::reference::solve_with(algo, &game, pos, self.judge.tt_bits());
            algorithm = Some((v, stats));
            Some(pos.margin() + pos.to_move().sign() * v)
        } else if request.json {
            Some(self.judge.final_margin(pos))
        } else {
            None
        };
        let outcome = margin.map_or_else(|| self.judge.outcome(pos), Outcome::of_value);
        let to_move = self.front.player_name(pos.to_move()).to_string();
        Ok(Reply::Answer {
            answer: line(number, outcome),
            to_move,
            value: margin,
            explained: None,
            algorithm,
            json: None,
        })
    }

    fn long_job(
        &mut self,
        pos: &Position,
        request: &Request,
        _progress: &mut dyn FnMut(&str),
    ) -> Option<LongJob<'_, TriangleWarFront>> {
        if !self.driven || !self.drivable(pos, request) {
            return None;
        }
        // The children's TT buckets prefetched a move ahead (the same nodes; measured on side 5
        // in docs/results/triangle-war-side5.md).
        let options = SearchOptions {
            tt_bits: self.judge.tt_bits(),
            principal_variation_search: true,
            prefetch_children: true,
            ..crate::SEARCH_OPTIONS
        };
        let geometry = self.front.geometry().clone();
        let mut solver =
            Solver::with_options(geometry, self.rules, SearchOptions { threads: self.threads, ..options });
        if solver.engine().game().terminal_value(pos).is_some() {
            return None;
        }
        let deadline = request.time_limit.map(|t| Instant::now() + t);
        let stats = solver.stats();
        let (solver, _, _) = self.long.insert((solver, stats, deadline));
        Some(LongJob {
            solvable: &self.front,
            root: *pos,
            engine: solver.engine(),
            pos: *pos,
            exact_all: request.analyze,
        })
    }

    fn long_reply(
        &mut self,
        number: usize,
        pos: &Position,
        request: &Request,
        done: LongDone<u8>,
    ) -> anyhow::Result<Reply> {
        let (margin, sign) = (pos.margin(), pos.to_move().sign());
        // Final margins (A minus B) from the root's value bounds for the side to move.
        let (lo, hi) = match done.result.bounds {
            (lo, hi) if sign == 1 => (margin + lo, margin + hi),
            (lo, hi) => (margin - hi, margin - lo),
        };
        let exact_all = request.analyze;
        let answer = line(number, Outcome::of_value(lo));
        let to_move = self.front.player_name(pos.to_move()).to_string();
        if done.result.finished && exact_all {
            // Every root move is exact: the analysis, with a principal variation found by a
            // root solve at each step (under what is left of the time limit), played without
            // folding forced captures so that it lists every segment.
            let plain = TriangleWar::with_pruning(
                self.front.geometry().clone(),
                Pruning { fold_forced: false, ..self.rules },
            );
            if let Some((solver, stats0, deadline)) = self.long.as_mut() {
                if let Ok(analysis) =
                    solver.engine().root_analysis(&plain, pos, &done.result, stats0, *deadline)
                {
                    let explained = Some(self.explained(number, &answer, pos, &analysis));
                    return Ok(Reply::Answer {
                        answer,
                        to_move,
                        value: Some(lo),
                        explained,
                        algorithm: None,
                        json: None,
                    });
                }
            }
        }
        let nodes = done.stats.nodes;
        if lo == hi && !exact_all {
            let json = serde_json::json!({
                "case": number, "finished": true, "value": lo, "answer": answer, "nodes": nodes,
            });
            return Ok(Reply::Answer {
                answer,
                to_move,
                value: Some(lo),
                explained: None,
                algorithm: None,
                json: Some(json),
            });
        }
        Ok(Reply::Unfinished {
            text: format!("Game {number}: not finished: final margin (A minus B) in [{lo:+}, {hi:+}]"),
            json: serde_json::json!({
                "case": number, "finished": false, "margin_lo": lo, "margin_hi": hi, "nodes": nodes,
            }),
            bounds: format!("the final margin in [{lo:+}, {hi:+}]"),
            // A finished split whose principal variation the time limit cut short is stopped by it.
            by_node_budget: done.stopped == Some(true),
        })
    }
}
