//! Othello as a judge subcommand ([`OthelloProblem`]): one OBF position per line (the board row
//! by row from a1, `X` Black, `O` White, `-` empty, a space, the side to move; anything after
//! `;` ignored), each answered `BOARD SIDE SCORE` with the exact final disc difference for the
//! side to move, empty squares given to the winner (the FFO / WOF rule).
//!
//! `--analyze` gives every move's exact score (the moves named as in OBF, `G8`, and `PASS`);
//! `--time-limit` stops each position's search (its line then says `not finished` with the
//! bounds proven); `--checkpoint` and `--store` solve one position move by move at the root
//! with the long-solve driver.

use std::time::Instant;

use game_front::{
    Explained, Features, Front, LongDone, LongJob, Numbered, OptionSpec, Problem, ProblemOptions, Reply,
    Request, Tables,
};
use search_core::{Analysis, Engine, Game, Interrupted, Stats, Value};

use crate::{
    answer_line, format_score, obf_line, parse_obf_line, parse_size, Geometry, Move, Othello, OthelloFront,
    Position,
};

/// `games-cli othello`: the exact scores of OBF positions.
pub struct OthelloProblem {
    geometry: &'static Geometry,
    front: OthelloFront,
    engine: Engine<Othello>,
    /// The statistics and deadline at the start of a long solve, for the analysis after it.
    long_start: Option<(Stats, Option<Instant>)>,
}

fn check_size(text: &str) -> Result<(), String> {
    parse_size(text).map(|_| ())
}

/// MTD(f)'s first guess (`--first-guess`), a score from -64 to 64.
fn parse_first_guess(text: &str) -> Result<Value, String> {
    let expected = || "expected a score from -64 to 64".to_string();
    let guess: Value = text.trim().parse().map_err(|_| expected())?;
    if guess.abs() > 64 {
        return Err(expected());
    }
    Ok(guess)
}

fn check_first_guess(text: &str) -> Result<(), String> {
    parse_first_guess(text).map(|_| ())
}

impl OthelloProblem {
    fn set_limits(&mut self, request: &Request) {
        request.start_time_limit(&mut self.engine);
    }

    /// The reply once the score for the side to move is known, with the analysis when
    /// `request` asks for one; the bounds proven when a limit stopped the search.
    fn reply(
        &mut self,
        number: usize,
        pos: &Position,
        found: Result<(Value, Option<Analysis<Move>>), Interrupted>,
        algorithm: Option<(Value, Stats)>,
        by_node_budget: bool,
    ) -> Reply {
        let sign = self.engine.game().to_move(pos).sign();
        match found {
            Ok((score, analysis)) => {
                let answer = answer_line(pos, score);
                let explained = analysis.map(|a| Explained::of(&self.front, number, &answer, pos, &a));
                let to_move = self.front.player_name(pos.to_move()).to_string();
                Reply::Answer { answer, to_move, value: Some(sign * score), explained, algorithm, json: None }
            }
            Err(Interrupted { lo, hi }) => {
                let all = Value::from(self.geometry.squares());
                let (lo, hi) = (lo.clamp(-all, all), hi.clamp(-all, all));
                let board = obf_line(pos);
                Reply::Unfinished {
                    text: format!(
                        "{board} not finished: score in [{}, {}]",
                        format_score(lo),
                        format_score(hi)
                    ),
                    json: serde_json::json!({
                        "case": number,
                        "board": board,
                        "finished": false,
                        "score_lo": lo,
                        "score_hi": hi,
                    }),
                    bounds: format!("the score in [{}, {}]", format_score(lo), format_score(hi)),
                    by_node_budget,
                }
            }
        }
    }
}

impl Problem for OthelloProblem {
    type Case = Position;
    type Search = Othello;
    type Long = OthelloFront;

    const COMMAND: &'static str = "othello";
    const ABOUT: &'static str =
        "Othello: the exact final disc difference of each position, one OBF line per line.";
    const AFTER_HELP: &'static str = "\
Input: one position per line in the OBF format of the FFO test files: the N*N squares row by
row from a1 (top left), `X` Black, `O` White, `-` empty, a space, then the side to move `X` or
`O`; anything after `;` is ignored. Output: the position as read and its exact score for the
side to move, `BOARD SIDE SCORE`: the final disc difference under perfect play, empty squares
given to the winner (`+4`, `0`, `-2`). Blank lines are skipped; `--empty` answers the start.

Example:
  $ printf -- '--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X\\n' | games-cli othello
  --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X +18";
    const OPTIONS: &'static [OptionSpec] = &[
        OptionSpec::value(
            "size",
            "N",
            "Board side N (an N x N board), even, from 4 to 8.",
            Some("8"),
            check_size,
        ),
        OptionSpec::value(
            "first-guess",
            "SCORE",
            "MTD(f)'s first guess at each score, for the side to move, from -64 to 64: a score near \
             it takes fewer null-window searches (a listed score being checked, say); the scores \
             found are the same whatever it is.",
            Some("0"),
            check_first_guess,
        ),
    ];
    const FEATURES: Features =
        Features { empty: true, table: Tables::Full, long: true, algorithm: true, book: false, unit: "line" };

    fn new(options: &ProblemOptions, request: &Request) -> Result<Self, String> {
        let geometry =
            parse_size(options.value("size").unwrap_or("8")).map_err(|e| format!("--size: {e}"))?;
        let guess = parse_first_guess(options.value("first-guess").unwrap_or("0"))
            .map_err(|e| format!("--first-guess: {e}"))?;
        let tt_bits = request.tt_bits.unwrap_or(crate::DEFAULT_TT_BITS);
        let mut search = crate::search_options(tt_bits, request.threads);
        search.driver = search_core::Driver::Mtdf { guess };
        Ok(OthelloProblem {
            geometry,
            front: OthelloFront::with_geometry(geometry),
            engine: Engine::with_options(Othello::new(geometry), search),
            long_start: None,
        })
    }

    fn table_options() -> search_core::SearchOptions {
        crate::search_options(0, 1)
    }

    fn table_bytes(&self) -> Option<u64> {
        Some(Engine::<Othello>::table_bytes(&self.engine.options()))
    }

    fn read<'a>(
        &self,
        input: Box<dyn std::io::BufRead + 'a>,
    ) -> Box<dyn Iterator<Item = anyhow::Result<Numbered<Position>>> + 'a> {
        let geometry = self.geometry;
        game_front::read_lines(input, move |number, text| {
            Ok(parse_obf_line(geometry, text).map_err(|e| e.with_line(number))?)
        })
    }

    fn empty_case(&self) -> Position {
        Position::start(self.geometry)
    }

    fn answer(
        &mut self,
        number: usize,
        pos: &Position,
        request: &Request,
        _progress: &mut dyn FnMut(&str),
    ) -> anyhow::Result<Reply> {
        if let Some(algo) = request.algorithm {
            let game = Othello::new(self.geometry);
            let (v, stats) =
                search_core::reference::solve_with(algo, &game, pos, self.engine.options().tt_bits);
            let found = match request.analyze {
                true => Ok((v, Some(self.engine.analyze(pos)))),
                false => Ok((v, None)),
            };
            return Ok(self.reply(number, pos, found, Some((v, stats)), false));
        }
        self.set_limits(request);
        let sign = self.engine.game().to_move(pos).sign();
        let found = match (request.analyze, request.time_limit.is_some()) {
            (true, false) => {
                let analysis = self.engine.analyze(pos);
                Ok((sign * analysis.value, Some(analysis)))
            }
            (true, true) => self.engine.try_analyze(pos).map(|a| (sign * a.value, Some(a))),
            (false, false) => Ok((self.engine.solve(pos), None)),
            (false, true) => self.engine.try_solve(pos).map(|v| (v, None)),
        };
        Ok(self.reply(number, pos, found, None, false))
    }

    fn long_job(
        &mut self,
        pos: &Position,
        request: &Request,
        _progress: &mut dyn FnMut(&str),
    ) -> Option<LongJob<'_, OthelloFront>> {
        if !request.one_case || self.engine.game().terminal_value(pos).is_some() {
            return None;
        }
        self.set_limits(request);
        self.long_start = Some((self.engine.stats(), request.time_limit.map(|t| Instant::now() + t)));
        Some(LongJob {
            solvable: &self.front,
            root: *pos,
            engine: &mut self.engine,
            pos: *pos,
            exact_all: request.analyze,
        })
    }

    fn long_reply(
        &mut self,
        number: usize,
        pos: &Position,
        request: &Request,
        done: LongDone<Move>,
    ) -> anyhow::Result<Reply> {
        let (lo, hi) = done.result.bounds;
        if let Some(by_node_budget) = done.stopped {
            return Ok(self.reply(number, pos, Err(Interrupted { lo, hi }), None, by_node_budget));
        }
        let found = if request.analyze {
            let game = Othello::new(self.geometry);
            let (before, deadline) = self.long_start.take().unwrap_or_default();
            let analysis =
                self.engine.root_analysis_from(&game, pos, &done.result, &done.known_pv, &before, deadline);
            analysis.map(|a| (lo, Some(a)))
        } else {
            Ok((lo, None))
        };
        Ok(self.reply(number, pos, found, None, false))
    }
}
