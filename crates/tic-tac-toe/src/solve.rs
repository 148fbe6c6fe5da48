//! The two contest questions over one shared [`Engine`] per batch: [`WinningMove`] (UVa 10111)
//! and [`BoardEval`] (CCF CSP 201803-4).

use std::time::{Duration, Instant};

use search_core::reference::{Proof, ProofSearch};
use search_core::{Analysis, Engine, Game, Interrupted, Limits, Stats, Value};

use crate::{Cell, Geometry, Mark, MbPosition, MnkGame, Position, Scoring, SolveError, ZoneProver};

/// TT size (log2 of entries) suited to a board: small boards need few entries, and a smaller
/// table is faster to allocate for a one-shot process.
#[must_use]
pub fn default_tt_bits(geometry: Geometry) -> u32 {
    match geometry.cells() {
        0..=9 => 14,
        10..=16 => 18,
        17..=25 => 20,
        _ => 22,
    }
}

/// One solver for one geometry and scoring, shared by every position of a batch (and its TT).
struct Shared {
    geometry: Geometry,
    solver: Engine<MnkGame>,
}

impl Shared {
    fn new(geometry: Geometry, scoring: Scoring, tt_bits: u32) -> Self {
        Shared { geometry, solver: Engine::new(MnkGame::new(geometry, scoring), tt_bits) }
    }

    /// [`Shared::new`] searching on `threads` threads (lazy SMP over a shared TT above 1).
    fn with_threads(geometry: Geometry, scoring: Scoring, tt_bits: u32, threads: usize) -> Self {
        let options = search_core::SearchOptions {
            tt_bits,
            threads: threads.max(1),
            ..search_core::SearchOptions::DEFAULT
        };
        Shared { geometry, solver: Engine::with_options(MnkGame::new(geometry, scoring), options) }
    }

    /// The solver, once `pos` is known to be on its board.
    fn prepare(&mut self, pos: &Position) -> Result<&mut Engine<MnkGame>, SolveError> {
        if pos.geometry != self.geometry {
            return Err(SolveError::GeometryMismatch { expected: self.geometry, found: pos.geometry });
        }
        Ok(&mut self.solver)
    }
}

/// What [`WinningMove::find_with_progress`] is proving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// The Maker-Breaker question: can the side to move complete a line at all, the
    /// opponent only blocking?
    MakerBreaker,
    /// Does the side to move win the real game?
    Win,
    /// Does the side to move win after playing this cell (a winning cell is being looked for)?
    WinAfter(Cell),
}

/// A progress report of [`WinningMove::find_with_progress`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FindProgress {
    /// The question being proven.
    pub question: Question,
    /// Positions searched since the call started (both solvers).
    pub nodes: u64,
    /// Wall-clock time since the call started.
    pub elapsed: Duration,
}

impl FindProgress {
    /// Nodes per second since the call started.
    #[must_use]
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The progress callback of one [`WinningMove::find_with_progress`] call and its counters.
struct Reporter<'a> {
    callback: &'a mut dyn FnMut(&FindProgress),
    /// Nodes between two reports.
    every: u64,
    start: Instant,
    /// Nodes of the finished questions.
    done: u64,
}

/// How one [`WinningMove`] question is watched: progress reports, and a deadline.
#[derive(Default)]
struct Watch<'a> {
    reporter: Option<Reporter<'a>>,
    deadline: Option<Instant>,
}

/// Whether `pos`'s value for its side to move exceeds `threshold`, by null-window searches of
/// at most `every` nodes each with a report between them when `watch` has a reporter (an
/// interrupted search keeps what it proved in the TT, so the next one goes on from there);
/// `Ok(None)` once `max_nodes` more nodes are searched without an answer; [`Interrupted`] when
/// the watch's deadline passes first.
fn exceeds<G: Game>(
    solver: &mut Engine<G>,
    pos: &G::Position,
    threshold: Value,
    question: Question,
    watch: &mut Watch<'_>,
    max_nodes: Option<u64>,
) -> Result<Option<bool>, Interrupted> {
    let deadline = watch.deadline;
    let time = || deadline.map(|d| d.saturating_duration_since(Instant::now()));
    let first = solver.stats().nodes;
    let cap = max_nodes.map(|n| first.saturating_add(n));
    let out_of_time = || deadline.is_some_and(|d| Instant::now() >= d);
    let Some(r) = &mut watch.reporter else {
        if deadline.is_none() && cap.is_none() {
            return Ok(Some(solver.value_exceeds(pos, threshold)));
        }
        solver.set_limits(Limits { time: time(), max_nodes: cap, ..Limits::default() });
        solver.restart_clock();
        let step = solver.try_search(pos, threshold, threshold + 1);
        solver.set_limits(Limits::default());
        return match step {
            Ok(v) => Ok(Some(v > threshold)),
            Err(e) if out_of_time() => Err(e),
            Err(_) => Ok(None),
        };
    };
    let v = loop {
        let next = solver.stats().nodes.saturating_add(r.every);
        let limit = cap.map_or(next, |c| c.min(next));
        solver.set_limits(Limits { max_nodes: Some(limit), time: time(), ..Limits::default() });
        solver.restart_clock();
        let step = solver.try_search(pos, threshold, threshold + 1);
        let nodes = r.done + (solver.stats().nodes - first);
        (r.callback)(&FindProgress { question, nodes, elapsed: r.start.elapsed() });
        match step {
            Ok(v) => break Some(v),
            Err(e) if out_of_time() => {
                solver.set_limits(Limits::default());
                r.done += solver.stats().nodes - first;
                return Err(e);
            }
            Err(_) if cap.is_some_and(|c| solver.stats().nodes >= c) => break None,
            Err(_) => {}
        }
    };
    solver.set_limits(Limits::default());
    r.done += solver.stats().nodes - first;
    Ok(v.map(|v| v > threshold))
}

/// Whether Maker wins the Maker-Breaker game from `pos`, proven by `prover`, with a report
/// every `every` positions when `watch` has a reporter; [`Interrupted`] when the watch's
/// deadline passes first (what was proven stays in the prover's table).
fn maker_breaker_wins(
    prover: &mut ZoneProver,
    pos: &MbPosition,
    watch: &mut Watch<'_>,
) -> Result<bool, Interrupted> {
    prover.set_limits(watch.deadline, None);
    let proof = match &mut watch.reporter {
        None => prover.prove(pos),
        Some(r) => {
            let first = prover.nodes();
            let (done, start) = (r.done, r.start);
            let callback = &mut r.callback;
            let proof = prover.prove_with_progress(pos, r.every, &mut |nodes| {
                let nodes = done + (nodes - first);
                callback(&FindProgress { question: Question::MakerBreaker, nodes, elapsed: start.elapsed() });
            });
            r.done += prover.nodes() - first;
            proof
        }
    };
    prover.set_limits(None, None);
    proof.map(|p| p.maker_wins)
}

/// Why a limited [`WinningMove`] question has no answer.
enum Stop {
    Solve(SolveError),
    Interrupted(Interrupted),
}

impl From<SolveError> for Stop {
    fn from(e: SolveError) -> Self {
        Stop::Solve(e)
    }
}

impl From<Interrupted> for Stop {
    fn from(e: Interrupted) -> Self {
        Stop::Interrupted(e)
    }
}

/// The answer of an unlimited question (which cannot be interrupted).
fn unlimited<T>(result: Result<T, Stop>) -> Result<T, SolveError> {
    match result {
        Ok(v) => Ok(v),
        Err(Stop::Solve(e)) => Err(e),
        Err(Stop::Interrupted(e)) => unreachable!("a search without limits was interrupted: {e}"),
    }
}

/// Finds, for positions of one geometry, the first cell in row-major order after which the
/// side to move wins against every reply (UVa 10111, where x is to move). One instance answers
/// a whole batch with shared transposition tables.
///
/// Each question is first put to the Maker-Breaker game ([`crate::MakerBreaker`], proven by
/// [`ZoneProver`]), a fast prover of "no forced win": if the player cannot complete a line even
/// against an opponent who only blocks, it has no forced win (and from the empty board the
/// game is a draw: by strategy stealing the first player never loses). Only where Maker wins
/// does the full m,n,k search run: on boards of at least 30 cells df-pn and alpha-beta take
/// turns on each question, with budgets that double each turn.
pub struct WinningMove {
    shared: Shared,
    maker_breaker: ZoneProver,
    /// df-pn over the same rules, taking turns with the alpha-beta search on large boards
    /// (`WinningMove::exceeds`): it finds the short forcing wins of either side that decide
    /// most questions there.
    proof: ProofSearch<MnkGame>,
}

/// Node expansions of df-pn's first turn on a question ([`WinningMove`]); each later turn
/// doubles it.
const PROOF_BUDGET: u64 = 20_000;

/// The largest df-pn turn: past it alpha-beta goes on alone (df-pn's table grows with its
/// expansions, about 64 bytes each).
const PROOF_MAX_BUDGET: u64 = 1 << 22;

/// df-pn's table is dropped before a turn when it holds more entries than this.
const PROOF_MAX_ENTRIES: usize = 1 << 23;

/// Alpha-beta nodes per df-pn expansion in a turn: about the ratio of their speeds, so that
/// both get about the same time.
const ALPHA_BETA_PER_PROOF_NODE: u64 = 80;

/// Boards with at least this many cells try df-pn first ([`WinningMove`]): on smaller ones the
/// alpha-beta search answers in milliseconds.
const PROOF_MIN_CELLS: usize = 30;

impl WinningMove {
    /// A solver for boards of `geometry`, with [`default_tt_bits`].
    #[must_use]
    pub fn new(geometry: Geometry) -> Self {
        Self::with_tt_bits(geometry, default_tt_bits(geometry))
    }

    /// A solver for boards of `geometry` with TTs of `2^tt_bits` entries.
    #[must_use]
    pub fn with_tt_bits(geometry: Geometry, tt_bits: u32) -> Self {
        Self::with_threads(geometry, tt_bits, 1)
    }

    /// A solver for boards of `geometry` with TTs of `2^tt_bits` entries (the full search's
    /// table shared by the threads; the Maker-Breaker prover's holding as many positions),
    /// the full search on `threads` threads (lazy SMP above 1; the answers do not depend on
    /// it).
    #[must_use]
    pub fn with_threads(geometry: Geometry, tt_bits: u32, threads: usize) -> Self {
        WinningMove {
            shared: Shared::with_threads(geometry, Scoring::WinLoss, tt_bits, threads),
            maker_breaker: ZoneProver::new(geometry, 1 << tt_bits.min(30)),
            proof: ProofSearch::new(MnkGame::new(geometry, Scoring::WinLoss)),
        }
    }

    /// The first cell (row-major) after which the side to move of `pos` has a forced win, or
    /// `None` (also for a finished position). An immediate win counts like any other forced
    /// win: the order of the cells decides.
    ///
    /// First asks whether the side to move can complete a line in the Maker-Breaker game
    /// ([`WinningMove::can_make_line`]; if not, it has no forced win), then whether `pos` is
    /// won at all (one null-window search), then tests the cells in order, each first by the
    /// Maker-Breaker game and then by a null-window search, sharing the TTs.
    ///
    /// # Errors
    /// [`SolveError::GeometryMismatch`] if `pos` is on another board.
    pub fn find(&mut self, pos: &Position) -> Result<Option<Cell>, SolveError> {
        unlimited(self.find_inner(pos, &mut Watch::default()))
    }

    /// [`WinningMove::find`] stopped after `time`: `Ok(Err(Interrupted))` when the time ran
    /// out first (its bounds are those of the search that was stopped, not of the answer);
    /// what was proven stays in the TTs for the next questions.
    ///
    /// # Errors
    /// As [`WinningMove::find`].
    pub fn try_find(
        &mut self,
        pos: &Position,
        time: Duration,
    ) -> Result<Result<Option<Cell>, Interrupted>, SolveError> {
        let mut watch = Watch { reporter: None, deadline: Some(Instant::now() + time) };
        match self.find_inner(pos, &mut watch) {
            Ok(found) => Ok(Ok(found)),
            Err(Stop::Interrupted(e)) => Ok(Err(e)),
            Err(Stop::Solve(e)) => Err(e),
        }
    }

    /// [`WinningMove::find`], calling `progress` after every search of about `every` nodes
    /// (at least 1; a million is about a second) and after each question, with the question
    /// being proven, the nodes so far and the time. The searches are cut into pieces of
    /// `every` nodes for it (an interrupted search keeps what it proved in the TT), so the
    /// node counts differ a little from [`WinningMove::find`]'s; the answer does not.
    ///
    /// # Errors
    /// As [`WinningMove::find`].
    pub fn find_with_progress(
        &mut self,
        pos: &Position,
        every: u64,
        progress: &mut dyn FnMut(&FindProgress),
    ) -> Result<Option<Cell>, SolveError> {
        let reporter = Reporter { callback: progress, every: every.max(1), start: Instant::now(), done: 0 };
        unlimited(self.find_inner(pos, &mut Watch { reporter: Some(reporter), deadline: None }))
    }

    /// Whether `maker` can complete a line from `pos` in the Maker-Breaker game (its opponent
    /// only blocking, the opponent's own lines not counting). `false` proves that `maker` has
    /// no forced win in `pos`; `true` proves nothing about the real game.
    ///
    /// # Errors
    /// [`SolveError::GeometryMismatch`] if `pos` is on another board.
    pub fn can_make_line(&mut self, pos: &Position, maker: Mark) -> Result<bool, SolveError> {
        self.shared.prepare(pos)?;
        unlimited(self.maker_wins(pos, maker, &mut Watch::default()).map_err(Stop::from))
    }

    /// [`WinningMove::can_make_line`] stopped after `time` (`Ok(Err(Interrupted))` when the
    /// time ran out first; what was proven stays in the prover's table), answered at once when
    /// the table already holds the position; `progress` is called every `every` positions
    /// (at least 1; about a million a second).
    ///
    /// # Errors
    /// [`SolveError::GeometryMismatch`] if `pos` is on another board.
    pub fn try_can_make_line(
        &mut self,
        pos: &Position,
        maker: Mark,
        time: Option<Duration>,
        every: u64,
        progress: &mut dyn FnMut(&FindProgress),
    ) -> Result<Result<bool, Interrupted>, SolveError> {
        self.shared.prepare(pos)?;
        let reporter = Reporter { callback: progress, every: every.max(1), start: Instant::now(), done: 0 };
        let mut watch = Watch { reporter: Some(reporter), deadline: time.map(|t| Instant::now() + t) };
        Ok(self.maker_wins(pos, maker, &mut watch))
    }

    /// The Maker-Breaker prover's table of proven positions as bytes
    /// ([`ZoneProver::table_bytes`]): what a long question has proven, to be read back by
    /// [`WinningMove::load_maker_breaker_table`] in a later run.
    #[must_use]
    pub fn maker_breaker_table(&self) -> Vec<u8> {
        self.maker_breaker.table_bytes()
    }

    /// Reads proofs written by [`WinningMove::maker_breaker_table`] into the prover's table;
    /// returns how many it added.
    ///
    /// # Errors
    /// [`crate::ProofTableError`] for another board or damaged bytes: none is read then.
    pub fn load_maker_breaker_table(&mut self, bytes: &[u8]) -> Result<usize, crate::ProofTableError> {
        self.maker_breaker.load_table(bytes)
    }

    fn maker_wins(
        &mut self,
        pos: &Position,
        maker: Mark,
        watch: &mut Watch<'_>,
    ) -> Result<bool, Interrupted> {
        let mb = self.maker_breaker.game().from_game(pos, maker);
        maker_breaker_wins(&mut self.maker_breaker, &mb, watch)
    }

    /// Whether `pos`'s value for its side to move exceeds `threshold`. On boards of at least
    /// [`PROOF_MIN_CELLS`] cells df-pn and the alpha-beta search take turns with budgets that
    /// double each turn (each keeping its table between turns): df-pn proves the short forcing
    /// wins of either side, alpha-beta the draws, so the question costs about twice what the
    /// better of the two needs. Elsewhere alpha-beta alone.
    fn exceeds(
        &mut self,
        pos: &Position,
        threshold: Value,
        question: Question,
        watch: &mut Watch<'_>,
    ) -> Result<bool, Interrupted> {
        let solver = &mut self.shared.solver;
        if pos.geometry.cells() < PROOF_MIN_CELLS {
            return exceeds(solver, pos, threshold, question, watch, None).map(|a| a.expect("no node cap"));
        }
        let mut budget = PROOF_BUDGET;
        while budget <= PROOF_MAX_BUDGET {
            if watch.deadline.is_some_and(|d| Instant::now() >= d) {
                // The alpha-beta search reports the interruption with its bounds.
                return exceeds(solver, pos, threshold, question, watch, None)
                    .map(|a| a.expect("no node cap"));
            }
            if self.proof.tt_len() > PROOF_MAX_ENTRIES {
                self.proof = ProofSearch::new(solver.game().clone());
            }
            let first = self.proof.stats().nodes;
            self.proof.set_node_budget(budget);
            self.proof.set_deadline(watch.deadline);
            let answer = self.proof.value_exceeds(pos, threshold);
            if let Some(r) = &mut watch.reporter {
                r.done += self.proof.stats().nodes - first;
                (r.callback)(&FindProgress { question, nodes: r.done, elapsed: r.start.elapsed() });
            }
            match answer {
                Proof::Proved => return Ok(true),
                Proof::Disproved => return Ok(false),
                Proof::Unknown => {}
            }
            let ab_nodes = budget.saturating_mul(ALPHA_BETA_PER_PROOF_NODE);
            if let Some(answer) = exceeds(solver, pos, threshold, question, watch, Some(ab_nodes))? {
                return Ok(answer);
            }
            budget = budget.saturating_mul(2);
        }
        // A long question: alpha-beta alone from here, df-pn's table kept small.
        exceeds(solver, pos, threshold, question, watch, None).map(|a| a.expect("no node cap"))
    }

    fn find_inner(&mut self, pos: &Position, watch: &mut Watch<'_>) -> Result<Option<Cell>, Stop> {
        self.shared.prepare(pos)?;
        let me = pos.to_move();
        if pos.is_over() || !self.maker_wins(pos, me, watch)? {
            return Ok(None);
        }
        if !self.exceeds(pos, 0, Question::Win, watch)? {
            return Ok(None);
        }
        for cell in pos.legal_moves() {
            let (child, _) = self.shared.solver.game().play(pos, cell);
            if !self.maker_wins(&child, me, watch)? {
                continue;
            }
            // The child's value is from the opponent's side: -1 means the mover wins.
            if !self.exceeds(&child, -1, Question::WinAfter(cell), watch)? {
                return Ok(Some(cell));
            }
        }
        debug_assert!(false, "a won position has a winning move");
        Ok(None)
    }

    /// The value of `pos` for x (+1 win, 0 draw, -1 loss), every move's value and a principal
    /// variation ([`Engine::analyze`]).
    ///
    /// # Errors
    /// As [`WinningMove::find`].
    pub fn analyze(&mut self, pos: &Position) -> Result<Analysis<Cell>, SolveError> {
        Ok(self.shared.prepare(pos)?.analyze(pos))
    }

    /// [`WinningMove::analyze`] stopped after `time`: `Ok(Err(Interrupted))` when the time ran
    /// out first.
    ///
    /// # Errors
    /// As [`WinningMove::find`].
    pub fn try_analyze(
        &mut self,
        pos: &Position,
        time: Duration,
    ) -> Result<Result<Analysis<Cell>, Interrupted>, SolveError> {
        let solver = self.shared.prepare(pos)?;
        solver.set_limits(Limits { time: Some(time), ..Limits::default() });
        solver.restart_clock();
        let analysis = solver.try_analyze(pos);
        solver.set_limits(Limits::default());
        Ok(analysis)
    }

    /// Search statistics of the full m,n,k solver.
    #[must_use]
    pub fn stats(&self) -> Stats {
        self.shared.solver.stats()
    }
}

/// Scores positions under CCF's rule: a win is worth the number of empty cells + 1, from x's
/// (Alice's) side, under perfect play. One instance answers a whole batch with a shared
/// transposition table.
pub struct BoardEval {
    shared: Shared,
}

impl BoardEval {
    /// An evaluator for boards of `geometry` ([`Geometry::CCF`] for the contest), with
    /// [`default_tt_bits`].
    ///
    #[must_use]
    pub fn new(geometry: Geometry) -> Self {
        BoardEval { shared: Shared::new(geometry, Scoring::EmptyPlusOne, default_tt_bits(geometry)) }
    }

    /// The score of `pos` under perfect play from x's (Alice's) side, whoever is to move:
    /// `empty + 1` at the end of a game x wins, `-(empty + 1)` if o wins, `0` for a draw.
    ///
    /// # Errors
    /// [`SolveError::GeometryMismatch`] if `pos` is on another board.
    pub fn evaluate(&mut self, pos: &Position) -> Result<Value, SolveError> {
        let solver = self.shared.prepare(pos)?;
        let sign = solver.game().to_move(pos).sign();
        Ok(sign * solver.solve(pos))
    }

    /// The CCF score of `pos` for x, every move's score and a principal variation
    /// ([`Engine::analyze`]).
    ///
    /// # Errors
    /// As [`BoardEval::evaluate`].
    pub fn analyze(&mut self, pos: &Position) -> Result<Analysis<Cell>, SolveError> {
        Ok(self.shared.prepare(pos)?.analyze(pos))
    }

    /// Search statistics of the current solver.
    #[must_use]
    pub fn stats(&self) -> Stats {
        self.shared.solver.stats()
    }
}
