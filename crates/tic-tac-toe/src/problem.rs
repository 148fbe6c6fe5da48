//! The two tic-tac-toe judge subcommands: [`WinningMoveProblem`] (UVa 10111, and other m,n,k
//! boards with `--size` / `--k`: x's first forced-win move) and [`BoardEvalProblem`] (CCF CSP
//! 201803-4: the score of 3x3 boards).

use std::time::Instant;

use game_front::{
    Explained, Features, Front, LongDone, LongJob, NoLongSolve, Numbered, OptionSpec, Problem,
    ProblemOptions, Reply, Request, Tables,
};
use search_core::{Analysis, Engine, Game, SearchOptions, Stats, Value};

use crate::{
    default_tt_bits, parse_ccf_from, parse_uva_from, BoardEval, Cell, FindProgress, Geometry, MnkGame,
    Position, Question, Scoring, SolveError, TicTacToeFront, WinningMove,
};

/// What a Find the Winning Move value means.
const WIN_LOSS_NOTE: &str = "x's side: +1 x wins, 0 draw, -1 o wins";
/// What a board-evaluation value means.
const CCF_NOTE: &str = "CCF score, Alice's side: a win scores empty cells + 1";

/// The answer of one case, explained when `analysis` is given.
fn reply(
    number: usize,
    pos: &Position,
    answer: String,
    value: Option<i64>,
    analysis: Option<Analysis<Cell>>,
    note: &'static str,
    algorithm: Option<(Value, Stats)>,
) -> Reply {
    let front = TicTacToeFront::with_geometry(pos.geometry());
    let explained = analysis.map(|analysis| {
        let mut explained = Explained::of(&front, number, &answer, pos, &analysis);
        explained.note = note;
        explained
    });
    Reply::Answer { answer, to_move: pos.to_move().to_string(), value, explained, algorithm, json: None }
}

/// `games-cli winning-move`: UVa 10111 on m,n,k boards up to 8x8.
pub struct WinningMoveProblem {
    geometry: Geometry,
    front: TicTacToeFront,
    solver: WinningMove,
    tt_bits: u32,
    threads: usize,
    /// The root driver's engine (the win / draw / loss game).
    long: Option<Engine<MnkGame>>,
    /// A long job's Maker-Breaker question stopped by the time limit: the case is unfinished.
    maker_breaker_stopped: bool,
}

fn check_size(text: &str) -> Result<(), String> {
    game_front::parse_size(text, "ROWSxCOLS", "4x4").map(|_| ())
}

fn check_k(text: &str) -> Result<(), String> {
    text.parse::<usize>().map(|_| ()).map_err(|e| e.to_string())
}

/// The unfinished line of a case.
fn not_finished(number: usize, by_node_budget: bool) -> Reply {
    Reply::Unfinished {
        text: "not finished".to_string(),
        json: serde_json::json!({ "case": number, "finished": false }),
        bounds: "no winning move proven".to_string(),
        by_node_budget,
    }
}

impl WinningMoveProblem {
    fn answer_text(&self, found: Option<Cell>) -> String {
        match found {
            Some(cell) => format!("({})", self.front.move_text(&cell)),
            None => "#####".to_string(),
        }
    }

    /// The first cell (row-major) after which x, to move in `pos`, has a forced win, with every
    /// value computed by `algorithm`, and the value and statistics of the root's solve.
    fn first_winning_move(
        &self,
        algorithm: search_core::reference::Algorithm,
        pos: &Position,
    ) -> (Option<Cell>, (Value, Stats)) {
        let game = MnkGame::new(self.geometry, Scoring::WinLoss);
        let mut total = Stats::default();
        let mut value_of = |p: &Position| {
            let (v, stats) = search_core::reference::solve_with(algorithm, &game, p, self.tt_bits);
            total.nodes += stats.nodes;
            total.tt_probes += stats.tt_probes;
            total.tt_hits += stats.tt_hits;
            total.cutoffs += stats.cutoffs;
            total.elapsed += stats.elapsed;
            v
        };
        let value = if pos.is_over() { 0 } else { value_of(pos) };
        // The child's value is from o's side: -1 means x wins.
        let found = (value > 0)
            .then(|| pos.legal_moves().find(|&cell| value_of(&game.play(pos, cell).0) < 0))
            .flatten();
        (found, (value, total))
    }

    /// The answer once `found` is known: the analysis too when asked (under what is left of the
    /// time limit).
    fn found(
        &mut self,
        number: usize,
        pos: &Position,
        request: &Request,
        found: Option<Cell>,
        started: Instant,
        algorithm: Option<(Value, Stats)>,
    ) -> anyhow::Result<Reply> {
        // A winning move proves x's win; without one the answer does not tell a draw from a loss.
        let won = found.map(|_| 1);
        let analysis = match (request.analyze, request.time_limit) {
            (false, _) => None,
            (true, None) => Some(self.solver.analyze(pos)?),
            (true, Some(time)) => {
                match self.solver.try_analyze(pos, time.saturating_sub(started.elapsed()))? {
                    Ok(analysis) => Some(analysis),
                    Err(_) => return Ok(not_finished(number, false)),
                }
            }
        };
        Ok(reply(number, pos, self.answer_text(found), won, analysis, WIN_LOSS_NOTE, algorithm))
    }
}

impl Problem for WinningMoveProblem {
    type Case = Position;
    type Search = MnkGame;
    type Long = TicTacToeFront;

    const COMMAND: &'static str = "winning-move";
    const ABOUT: &'static str =
        "Find the Winning Move (UVa 10111): x's first forced-win move on 4x4 tic-tac-toe.";
    const AFTER_HELP: &'static str = "\
Input (UVa 10111): cases, each `?` followed by 4 rows of 4 characters `.`, `x`, `o`; `$` ends the
input. x is to move. Output per case: `(r,c)` (0-based) of the first cell in row-major order
that forces a win for x, or `#####` if there is none. With --size ROWSxCOLS (up to 8x8) each
case has ROWS rows of COLS characters.

Example:
  $ printf '?\\n....\\n.xo.\\n.ox.\\n....\\n$\\n' | games-cli winning-move
  #####";
    const OPTIONS: &'static [OptionSpec] = &[
        OptionSpec::value(
            "size",
            "MxN",
            "Board size as ROWSxCOLS (each 1 to 8); rows are given as ROWS lines of COLS characters.",
            Some("4x4"),
            check_size,
        ),
        OptionSpec::value(
            "k",
            "K",
            "Stones in a row needed to win [default: the shorter side of the board].",
            None,
            check_k,
        ),
    ];
    const FEATURES: Features = Features {
        empty: true,
        table: Tables::Threads,
        long: true,
        algorithm: true,
        book: false,
        unit: "case",
    };

    fn new(options: &ProblemOptions, request: &Request) -> Result<Self, String> {
        let (rows, cols) =
            game_front::parse_size(options.value("size").unwrap_or("4x4"), "ROWSxCOLS", "4x4")?;
        let k = match options.value("k") {
            Some(k) => k.parse::<usize>().map_err(|e| e.to_string())?,
            None => rows.min(cols),
        };
        let geometry = Geometry::new(rows, cols, k).map_err(|e| e.to_string())?;
        let tt_bits = default_tt_bits(geometry);
        Ok(WinningMoveProblem {
            geometry,
            front: TicTacToeFront::with_geometry(geometry),
            solver: WinningMove::with_threads(geometry, tt_bits, request.threads),
            tt_bits,
            threads: request.threads,
            long: None,
            maker_breaker_stopped: false,
        })
    }

    fn read<'a>(
        &self,
        input: Box<dyn std::io::BufRead + 'a>,
    ) -> Box<dyn Iterator<Item = anyhow::Result<Numbered<Position>>> + 'a> {
        Box::new(parse_uva_from(input, self.geometry).map(|case| {
            let case = case?;
            Ok(Numbered { number: case.number, case: case.position })
        }))
    }

    fn empty_case(&self) -> Position {
        Position::empty(self.geometry)
    }

    fn answer(
        &mut self,
        number: usize,
        pos: &Position,
        request: &Request,
        progress: &mut dyn FnMut(&str),
    ) -> anyhow::Result<Reply> {
        let started = Instant::now();
        if std::mem::take(&mut self.maker_breaker_stopped) {
            return Ok(not_finished(number, false));
        }
        if let Some(algorithm) = request.algorithm {
            let (found, stats) = self.first_winning_move(algorithm, pos);
            return self.found(number, pos, request, found, started, Some(stats));
        }
        let found = match request.time_limit {
            None if request.terminal => find_with_progress(&mut self.solver, &self.front, pos, progress)?,
            None => self.solver.find(pos)?,
            Some(time) => match self.solver.try_find(pos, time)? {
                Ok(found) => found,
                Err(_) => return Ok(not_finished(number, false)),
            },
        };
        self.found(number, pos, request, found, started, None)
    }

    /// With `--checkpoint` the Maker-Breaker question comes first, under the time limit, its
    /// proofs kept in `FILE.proofs` ([`Problem::proofs`]) so that a long one (8x8 with k = 5)
    /// goes on across runs: if the side to move cannot complete a line it has no winning move
    /// and [`Problem::answer`] says so from the proofs at once; if it can, the root driver
    /// proves every cell of the real game.
    fn long_job(
        &mut self,
        pos: &Position,
        request: &Request,
        progress: &mut dyn FnMut(&str),
    ) -> Option<LongJob<'_, TicTacToeFront>> {
        if !request.one_case || pos.is_over() {
            return None;
        }
        let (me, other) = (pos.to_move(), pos.to_move().opponent());
        let mut report = |p: &FindProgress| {
            progress(&format!(
                "proving: can {me} complete a line at all, {other} only blocking (Maker-Breaker)? {} positions, {:.0} positions/s, {:.0?}",
                p.nodes,
                p.nodes_per_second(),
                p.elapsed
            ));
        };
        match self.solver.try_can_make_line(pos, me, request.time_limit, 1 << 20, &mut report) {
            Ok(Ok(true)) => {}
            // No line: `answer` finds that in the proofs; a refused position: `answer` says why.
            Ok(Ok(false)) | Err(_) => return None,
            Ok(Err(_)) => {
                self.maker_breaker_stopped = true;
                return None;
            }
        }
        let options =
            SearchOptions { tt_bits: self.tt_bits, threads: self.threads, ..SearchOptions::DEFAULT };
        let engine =
            self.long.insert(Engine::with_options(MnkGame::new(self.geometry, Scoring::WinLoss), options));
        // Every root cell proven exactly: the answer is the first winning cell in row-major
        // order, not the first the search happens to prove (it tries the centre first).
        Some(LongJob { solvable: &self.front, root: *pos, engine, pos: *pos, exact_all: true })
    }

    const KEEPS_PROOFS: bool = true;

    /// The Maker-Breaker prover's proofs ([`WinningMove::maker_breaker_table`]).
    fn proofs(&self) -> Vec<u8> {
        self.solver.maker_breaker_table()
    }

    fn restore_proofs(&mut self, bytes: &[u8]) -> Result<usize, String> {
        self.solver.load_maker_breaker_table(bytes).map_err(|e| e.to_string())
    }

    fn long_reply(
        &mut self,
        number: usize,
        pos: &Position,
        request: &Request,
        done: LongDone<Cell>,
    ) -> anyhow::Result<Reply> {
        if let Some(by_node_budget) = done.stopped {
            return Ok(not_finished(number, by_node_budget));
        }
        // Generation order is row-major: the first move proven to win is the answer, once
        // every move before it is proven not to win.
        let moves = &done.result.checkpoint.moves;
        let first = moves.iter().position(|m| m.lo >= 1);
        if let Some(undecided) = moves[..first.unwrap_or(moves.len())].iter().find(|m| m.hi >= 1) {
            anyhow::bail!(
                "case {number}: the solve ended with {} not proven to win or not",
                self.front.move_text(&undecided.mv)
            );
        }
        let found = first.map(|i| moves[i].mv);
        let request = Request { time_limit: None, ..request.clone() };
        self.found(number, pos, &request, found, Instant::now(), None)
    }
}

/// [`WinningMove::find`], telling `progress` past a million nodes what is being proven, the
/// nodes, nodes per second and the time elapsed.
fn find_with_progress(
    solver: &mut WinningMove,
    front: &TicTacToeFront,
    pos: &Position,
    progress: &mut dyn FnMut(&str),
) -> Result<Option<Cell>, SolveError> {
    let me = pos.to_move();
    solver.find_with_progress(pos, 1 << 20, &mut |p: &FindProgress| {
        let question = match p.question {
            Question::MakerBreaker => {
                format!("can {me} complete a line at all, {} only blocking (Maker-Breaker)?", me.opponent())
            }
            Question::Win => format!("does {me} win?"),
            Question::WinAfter(cell) => format!("does {me} win after {}?", front.move_text(&cell)),
        };
        progress(&format!(
            "proving: {question} {} nodes, {:.0} nodes/s, {:.0?}",
            p.nodes,
            p.nodes_per_second(),
            p.elapsed
        ));
    })
}

/// `games-cli board-eval`: CCF CSP 201803-4 on the 3x3 board.
pub struct BoardEvalProblem {
    eval: BoardEval,
}

impl Problem for BoardEvalProblem {
    type Case = Position;
    type Search = MnkGame;
    type Long = NoLongSolve<MnkGame>;

    const COMMAND: &'static str = "board-eval";
    const ABOUT: &'static str = "Board evaluation (CCF CSP 201803-4): the score of 3x3 tic-tac-toe boards.";
    const AFTER_HELP: &'static str = "\
Input (CCF CSP 201803-4): the number of boards T, then for each board 3 lines of 3 numbers:
0 empty, 1 Alice's mark (x), 2 Bob's mark (o). Alice moves next unless she has more marks.
Output per board: the score under perfect play, from Alice's side: a win scores the number of
empty cells + 1 (negative if Bob wins), a draw 0.

Example:
  $ printf '1\\n1 2 1\\n2 1 2\\n0 0 0\\n' | games-cli board-eval
  2";
    const OPTIONS: &'static [OptionSpec] = &[];
    const FEATURES: Features = Features {
        empty: false,
        table: Tables::None,
        long: false,
        algorithm: true,
        book: false,
        unit: "case",
    };

    fn new(_: &ProblemOptions, _: &Request) -> Result<Self, String> {
        Ok(BoardEvalProblem { eval: BoardEval::new(Geometry::CCF) })
    }

    fn read<'a>(
        &self,
        input: Box<dyn std::io::BufRead + 'a>,
    ) -> Box<dyn Iterator<Item = anyhow::Result<Numbered<Position>>> + 'a> {
        Box::new(parse_ccf_from(input).map(|case| {
            let case = case?;
            Ok(Numbered { number: case.number, case: case.position })
        }))
    }

    fn empty_case(&self) -> Position {
        Position::empty(Geometry::CCF)
    }

    fn answer(
        &mut self,
        number: usize,
        pos: &Position,
        request: &Request,
        _progress: &mut dyn FnMut(&str),
    ) -> anyhow::Result<Reply> {
        let mut algorithm = None;
        let score = if let Some(algo) = request.algorithm {
            let game = MnkGame::new(Geometry::CCF, Scoring::EmptyPlusOne);
            let (v, stats) =
                search_core::reference::solve_with(algo, &game, pos, default_tt_bits(Geometry::CCF));
            algorithm = Some((v, stats));
            game.to_move(pos).sign() * v
        } else {
            self.eval.evaluate(pos)?
        };
        let analysis = if request.analyze { Some(self.eval.analyze(pos)?) } else { None };
        Ok(reply(number, pos, score.to_string(), Some(score), analysis, CCF_NOTE, algorithm))
    }
}
