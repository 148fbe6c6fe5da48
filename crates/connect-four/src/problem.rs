//! Connect Four as a judge subcommand ([`ConnectFourProblem`]): one position per line as a
//! move string (`4453`: columns 1-based from the left, first player first), each answered
//! `MOVES SCORE` with the exact score for the side to move in Pascal Pons' convention, as in
//! his test sets.
//!
//! A line may carry a second field (an expected score, as in the test sets); it must be an
//! integer and is not used. `--weak` prints the sign of the score only (1 win, 0 draw, -1
//! loss), found with cheaper searches; `--time-limit` stops each position's search (its line
//! says `not finished` with the bounds proven on the score); `--checkpoint` and `--store` solve
//! one position move by move at the root with the long-solve driver.

use game_front::{
    Explained, Features, LongDone, LongJob, Numbered, OptionSpec, Problem, ProblemOptions, Reply, Request,
    Tables,
};
use search_core::{Analysis, Game, Interrupted};

use crate::{
    parse_position_line, parse_size, score_range, Column, ConnectFour, ConnectFourFront, Geometry, Position,
    Solver,
};

/// `games-cli connect-four`: Pons' scores of positions given as move strings.
pub struct ConnectFourProblem {
    front: ConnectFourFront,
    solver: Solver,
    weak: bool,
}

fn check_size(text: &str) -> Result<(), String> {
    parse_size(text).map(|_| ())
}

impl ConnectFourProblem {
    fn set_limits(&mut self, request: &Request) {
        request.start_time_limit(self.solver.engine());
    }

    /// The reply once the score is known (or the bounds proven when a limit stopped it).
    fn reply(
        &mut self,
        number: usize,
        pos: &Position,
        request: &Request,
        score: Result<i32, Interrupted>,
        by_node_budget: bool,
    ) -> Reply {
        let limited = request.time_limit.is_some();
        let found = score.and_then(|score| {
            let analysis = match (request.analyze, limited) {
                (false, _) => None,
                (true, false) => Some(self.solver.analyze(pos)),
                (true, true) => Some(self.solver.try_analyze(pos)?),
            };
            Ok((score, analysis))
        });
        let moves = pos.moves_string();
        match found {
            Ok((score, analysis)) => {
                // X moves first: the score for the side to move, from X's side.
                let x_to_move = pos.moves_played() % 2 == 0;
                let (to_move, value) = if x_to_move { ("X", score) } else { ("O", -score) };
                let answer = format!("{moves} {score}");
                let front = ConnectFourFront::with_geometry(*pos.geometry());
                let explained =
                    analysis.map(|a: Analysis<Column>| Explained::of(&front, number, &answer, pos, &a));
                Reply::Answer {
                    answer,
                    to_move: to_move.to_string(),
                    value: Some(value.into()),
                    explained,
                    algorithm: None,
                    json: None,
                }
            }
            Err(Interrupted { lo, hi }) => {
                // The engine's bounds are Pons' scores for the side to move (or the search's
                // infinities where nothing is known): clamped to the scores possible here.
                let (min, max) = score_range(pos);
                let (lo, hi) = (lo.clamp(min, max), hi.clamp(min, max));
                Reply::Unfinished {
                    text: format!("{moves} not finished: score in [{lo}, {hi}]"),
                    json: serde_json::json!({
                        "case": number,
                        "moves": moves,
                        "finished": false,
                        "score_lo": lo,
                        "score_hi": hi,
                    }),
                    bounds: format!("the score in [{lo}, {hi}]"),
                    by_node_budget,
                }
            }
        }
    }
}

impl Problem for ConnectFourProblem {
    type Case = Position;
    type Search = ConnectFour;
    type Long = ConnectFourFront;

    const COMMAND: &'static str = "connect-four";
    const ABOUT: &'static str =
        "Connect Four: the exact score (Pons' convention) of each position, one move string per line.";
    const AFTER_HELP: &'static str = "\
Input: one position per line, the columns played from the empty board (1 = leftmost, first
player first), optionally followed by a score that is ignored (Pons' test-set lines). Output:
`MOVES SCORE` per line, SCORE for the side to move: a win with one's k-th stone scores 22 - k on
7x6 ((W*H + 1 - n) / 2 for a win with the next stone, n stones on the board), a draw 0, a loss
the negative of the winner's score. Blank and whitespace-only lines are skipped; `--empty`
answers the empty board.

Example:
  $ printf '2252576253462244111563365343671351441\\n' | games-cli connect-four
  2252576253462244111563365343671351441 -1";
    const OPTIONS: &'static [OptionSpec] = &[
        OptionSpec::value(
            "size",
            "WxH",
            "Board size as COLUMNSxROWS with columns x (rows + 1) <= 64.",
            Some("7x6"),
            check_size,
        ),
        OptionSpec::flag(
            "weak",
            "Print only the sign of the score (1 win, 0 draw, -1 loss for the side to move).",
        ),
    ];
    const FEATURES: Features = Features {
        empty: true,
        table: Tables::Threads,
        long: true,
        algorithm: false,
        book: true,
        unit: "line",
    };

    fn new(options: &ProblemOptions, request: &Request) -> Result<Self, String> {
        let (w, h) = parse_size(options.value("size").unwrap_or("7x6"))?;
        let geom = Geometry::new(w, h).map_err(|e| format!("--size {w}x{h}: {e}"))?;
        let mut solver = Solver::with_threads(geom, crate::DEFAULT_TT_BITS, request.threads);
        let book = crate::bundled::book_to_read(geom, request.book.clone(), request.no_book);
        solver.set_book(book).map_err(|e| format!("--book: {e}"))?;
        solver.set_replies(crate::bundled::replies_to_read(geom, request.no_book));
        Ok(ConnectFourProblem {
            front: ConnectFourFront::with_geometry(geom),
            solver,
            weak: options.flag("weak"),
        })
    }

    fn read<'a>(
        &self,
        input: Box<dyn std::io::BufRead + 'a>,
    ) -> Box<dyn Iterator<Item = anyhow::Result<Numbered<Position>>> + 'a> {
        let geom = *self.solver.geometry();
        game_front::read_lines(input, move |number, text| {
            parse_position_line(geom, text).map_err(|e| anyhow::anyhow!("line {number}, {e}"))
        })
    }

    fn empty_case(&self) -> Position {
        Position::empty(*self.solver.geometry())
    }

    fn answer(
        &mut self,
        number: usize,
        pos: &Position,
        request: &Request,
        _progress: &mut dyn FnMut(&str),
    ) -> anyhow::Result<Reply> {
        self.set_limits(request);
        let score = match (self.weak, request.time_limit.is_some()) {
            (true, false) => Ok(self.solver.weak(pos).sign() as i32),
            (true, true) => self.solver.try_weak(pos).map(|w| w.sign() as i32),
            (false, false) => Ok(self.solver.score(pos)),
            (false, true) => self.solver.try_score(pos),
        };
        Ok(self.reply(number, pos, request, score, false))
    }

    fn long_job(
        &mut self,
        pos: &Position,
        request: &Request,
        _progress: &mut dyn FnMut(&str),
    ) -> Option<LongJob<'_, ConnectFourFront>> {
        if !request.one_case || pos.is_won() || pos.is_full() {
            return None;
        }
        self.set_limits(request);
        let board = pos.board();
        let engine = self.solver.engine();
        if engine.game().terminal_value(board).is_some() {
            return None;
        }
        Some(LongJob { solvable: &self.front, root: *pos, engine, pos: *board, exact_all: false })
    }

    fn long_reply(
        &mut self,
        number: usize,
        pos: &Position,
        request: &Request,
        done: LongDone<Column>,
    ) -> anyhow::Result<Reply> {
        let (lo, hi) = done.result.bounds;
        let score = match done.stopped {
            None if self.weak => Ok((lo as i32).signum()),
            None => Ok(lo as i32),
            Some(_) => Err(Interrupted { lo, hi }),
        };
        Ok(self.reply(number, pos, request, score, done.stopped == Some(true)))
    }
}
