//! Long searches a person can live with: the root proven move by move with null windows, a
//! progress callback, limits (stop flag, node budget, time) that stop cleanly with the best
//! proven bounds, and a [`Checkpoint`] of what the root has proven, so that a stopped solve
//! restarted from it continues and gives the same answer.
//!
//! The checkpoint records, for every root move, an interval known to contain the move's exact
//! value (from the root's side to move, the move's own gain included). Every step of
//! [`Engine::solve_root`] is one null-window search of one child; a finished step narrows one
//! interval and is never lost, an interrupted step is simply repeated on resume.
//!
//! The driver is written once, as [`Engine::solve_root`], on any number of threads.

use std::fmt::Display;
use std::str::FromStr;
use std::time::{Duration, Instant};

use crate::sealed::{seal, unseal, SealedKind, SolveIdentity, HEADER_LINES};
use crate::threshold::Threshold;
use crate::{Analysis, Bound, Driver, Engine, Game, Interrupted, Limits, Stats, TtEntry, Value, INFINITY};

/// Bounds proven on one root move's value, from the root's side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove<M> {
    /// The move.
    pub mv: M,
    /// The move's value is at least this.
    pub lo: Value,
    /// The move's value is at most this.
    pub hi: Value,
}

/// What a root solve has proven so far: bounds on every root move (generation order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint<M> {
    /// One entry per legal root move.
    pub moves: Vec<RootMove<M>>,
}

/// Errors reading a [`Checkpoint`] from text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointError {
    /// A line is not `move lo hi` with integers `lo <= hi`.
    #[error("line {line}: expected `move lo hi` with integers lo <= hi, found {found:?}")]
    BadLine {
        /// 1-based line number.
        line: usize,
        /// The line's text.
        found: String,
    },
    /// A line of a TT snapshot is not `key value bound best work`.
    #[error("line {line}: expected `key value exact|lower|upper move|- work`, found {found:?}")]
    BadTtLine {
        /// 1-based line number.
        line: usize,
        /// The line's text.
        found: String,
    },
    /// The checkpoint's moves are not the position's legal moves.
    #[error("the checkpoint's moves are not this position's legal moves")]
    WrongPosition,
    /// A sealed file ends without its checksum line (cut short).
    #[error("no checksum line at the end: the file is truncated or not a sealed file")]
    Truncated,
    /// A sealed file's content does not match its checksum.
    #[error("the checksum does not match the content: the file was damaged or edited")]
    Checksum,
    /// A sealed file of another format or version.
    #[error("expected a file starting `{expected}`, found {found:?}")]
    Format {
        /// The first line expected.
        expected: &'static str,
        /// The first line found.
        found: String,
    },
    /// A sealed file made for another game, board or position.
    #[error("made for {field} `{found}`, not `{expected}`")]
    Mismatch {
        /// The header field that differs: `game`, `options` or `root`.
        field: &'static str,
        /// This solve's value of the field.
        expected: String,
        /// The file's.
        found: String,
    },
    /// A checkpoint line's bounds fall outside the game's bounds on that move.
    #[error("line {line}: bounds [{lo}, {hi}] outside the game's range [{min}, {max}] for this move")]
    OutOfRange {
        /// 1-based line number.
        line: usize,
        /// The bounds read.
        lo: Value,
        /// The bounds read.
        hi: Value,
        /// The game's bounds on the move.
        min: Value,
        /// The game's bounds on the move.
        max: Value,
    },
    /// A TT snapshot entry with a value outside the game's range or an impossible best move.
    #[error("line {line}: a value or best move that no position of this game can have")]
    BadTtEntry {
        /// 1-based line number.
        line: usize,
    },
}

impl<M: Copy + Eq> Checkpoint<M> {
    /// Bounds `(lo, hi)` on the root's value (side to move): the best move is at least the
    /// largest lower bound and at most the largest upper bound.
    #[must_use]
    pub fn bounds(&self) -> (Value, Value) {
        let lo = self.moves.iter().map(|m| m.lo).max().unwrap_or(0);
        let hi = self.moves.iter().map(|m| m.hi).max().unwrap_or(0);
        (lo, hi)
    }

    /// Whether the root's value is proven: some move's value is known exactly and no other move
    /// can exceed it.
    #[must_use]
    pub fn is_solved(&self) -> bool {
        let (lo, hi) = self.bounds();
        lo == hi
    }
}

impl<M: Copy + Eq + Display + FromStr> Checkpoint<M> {
    /// The checkpoint as text, one `move lo hi` line per root move (the caller writes it to a
    /// file, preferably write-then-rename).
    #[must_use]
    pub fn to_text(&self) -> String {
        self.moves.iter().map(|m| format!("{} {} {}\n", m.mv, m.lo, m.hi)).collect()
    }

    /// Reads [`Checkpoint::to_text`]'s format (blank lines ignored).
    ///
    /// # Errors
    /// [`CheckpointError::BadLine`] naming the first bad line.
    pub fn from_text(text: &str) -> Result<Self, CheckpointError> {
        Self::from_lines(text, 1)
    }

    /// [`Checkpoint::from_text`] of text whose first line is line `first` of its file.
    fn from_lines(text: &str, first: usize) -> Result<Self, CheckpointError> {
        let mut moves = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let bad = || CheckpointError::BadLine { line: i + first, found: line.to_string() };
            let f: Vec<&str> = line.split_whitespace().collect();
            let [mv, lo, hi] = f[..] else { return Err(bad()) };
            let mv = mv.parse().map_err(|_| bad())?;
            let lo: Value = lo.parse().map_err(|_| bad())?;
            let hi: Value = hi.parse().map_err(|_| bad())?;
            if lo > hi {
                return Err(bad());
            }
            moves.push(RootMove { mv, lo, hi });
        }
        Ok(Checkpoint { moves })
    }
}

impl<M: Copy + Eq + Display + FromStr> Checkpoint<M> {
    /// The checkpoint as a sealed file's text ([`seal`]): header for `identity`, one
    /// `move lo hi` line per root move, checksum.
    #[must_use]
    pub fn to_sealed_text(&self, identity: &SolveIdentity) -> String {
        seal(SealedKind::Checkpoint, identity, &self.to_text())
    }

    /// Reads [`Checkpoint::to_sealed_text`]'s format for `identity`, verified against `fresh`
    /// (the [`root_checkpoint`] of the position: the same moves in the same order, every bound
    /// within the game's bounds on its move).
    ///
    /// # Errors
    /// Any error of [`unseal`], [`CheckpointError::BadLine`], [`CheckpointError::WrongPosition`]
    /// or [`CheckpointError::OutOfRange`].
    pub fn from_sealed_text(
        text: &str,
        identity: &SolveIdentity,
        fresh: &Checkpoint<M>,
    ) -> Result<Self, CheckpointError> {
        let body = unseal(SealedKind::Checkpoint, identity, text)?;
        let cp = Self::from_lines(body, HEADER_LINES + 1)?;
        let same = cp.moves.len() == fresh.moves.len()
            && cp.moves.iter().zip(&fresh.moves).all(|(a, b)| a.mv == b.mv);
        if !same {
            return Err(CheckpointError::WrongPosition);
        }
        for (i, (m, f)) in cp.moves.iter().zip(&fresh.moves).enumerate() {
            if m.lo < f.lo || m.hi > f.hi {
                return Err(CheckpointError::OutOfRange {
                    line: HEADER_LINES + 1 + i,
                    lo: m.lo,
                    hi: m.hi,
                    min: f.lo,
                    max: f.hi,
                });
            }
        }
        Ok(cp)
    }
}

/// TT entries as a sealed file's text ([`seal`]): header for `identity`, one line per entry as
/// [`tt_entries_to_text`] writes it, checksum.
#[must_use]
pub fn tt_snapshot_to_text<K: Display, M: Display>(
    identity: &SolveIdentity,
    entries: &[TtEntry<K, M>],
) -> String {
    seal(SealedKind::TtSnapshot, identity, &tt_entries_to_text(entries))
}

/// Reads [`tt_snapshot_to_text`]'s format for `identity`; every entry must pass `possible`
/// (its value within the game's range, its best move one of the game's moves), since a TT
/// entry is trusted as a proven bound.
///
/// # Errors
/// Any error of [`unseal`], [`CheckpointError::BadTtLine`], or [`CheckpointError::BadTtEntry`]
/// naming the first entry `possible` refuses.
pub fn tt_snapshot_from_text<K: FromStr, M: FromStr>(
    text: &str,
    identity: &SolveIdentity,
    possible: impl Fn(&TtEntry<K, M>) -> bool,
) -> Result<Vec<TtEntry<K, M>>, CheckpointError> {
    let body = unseal(SealedKind::TtSnapshot, identity, text)?;
    let entries = tt_entries_from_lines(body, HEADER_LINES + 1)?;
    // Entry `i` is the `i`-th non-blank line of the body.
    let lines = body.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).map(|(i, _)| i);
    for (e, i) in entries.iter().zip(lines) {
        if !possible(e) {
            return Err(CheckpointError::BadTtEntry { line: HEADER_LINES + 1 + i });
        }
    }
    Ok(entries)
}

/// How far from 0 [`Engine::solve_root`] (value only, an engine whose driver is not
/// [`Driver::Mtdf`]) steps its threshold one proven bound at a time (MTD(f) from 0) before it
/// bisects the root's interval: dots-and-boxes' and Triangle
/// War's values sit next to 0 (4x4 0, 3x5 -1, side 5 +1: two rounds), a large value (a quick
/// Connect Four win) is found by bisection.
pub const MTD_REACH: Value = 2;

/// The threshold policy of [`Engine::solve_root`]'s rounds on the root's value for an engine
/// whose own driver is `driver`: MTD(f) from the same guess for [`Driver::Mtdf`] (Othello:
/// disc differences spread over `-64..=64`, where bisection's first tests, far from the value,
/// fail low on every move), else MTD(f) from 0 while it stays within [`MTD_REACH`] of 0, then
/// bisection of what is left (the margin games' values sit next to 0; a quick Connect Four win
/// is found by bisection).
fn root_threshold(driver: Driver) -> Threshold {
    match driver {
        Driver::Mtdf { guess } => Threshold::mtdf_from(guess),
        _ => Threshold::MtdThenBisection { reach: MTD_REACH },
    }
}

/// How many tests [`Engine::solve_root`] with `exact_all` steps down from the root's value on
/// a move (each fail-soft result the next upper bound) before it bisects what is left of the
/// move's interval: a best move takes one test, a move a little worse a few, a move far
/// worse is found by bisection.
pub const EXACT_MTD_STEPS: u32 = 4;

/// A progress report of [`Engine::solve_root`], after each null-window search at the root and
/// when it stops.
#[derive(Clone, Debug)]
pub struct Progress<M> {
    /// The root move just searched (index into `checkpoint.moves`).
    pub move_index: usize,
    /// Number of root moves.
    pub moves: usize,
    /// Everything proven so far.
    pub checkpoint: Checkpoint<M>,
    /// Bounds on the root's value (side to move).
    pub bounds: (Value, Value),
    /// Nodes searched in this call.
    pub nodes: u64,
    /// Wall-clock time of this call.
    pub elapsed: Duration,
}

impl<M> Progress<M> {
    /// Nodes per second in this call.
    #[must_use]
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// One line: `move I/N (MOVE): [LO, HI]; root in [LO, HI]; NODES nodes, RATE nodes/s, TIME`
/// (I counted from 1).
impl<M: Copy + Display> Display for Progress<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let m = &self.checkpoint.moves[self.move_index];
        write!(
            f,
            "move {}/{} ({}): [{}, {}]; root in [{}, {}]; {} nodes, {:.0} nodes/s, {:.1?}",
            self.move_index + 1,
            self.moves,
            m.mv,
            m.lo,
            m.hi,
            self.bounds.0,
            self.bounds.1,
            self.nodes,
            self.nodes_per_second(),
            self.elapsed
        )
    }
}

/// What [`Engine::solve_root`] proved: the root's value, or bounds if a limit stopped it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootResult<M> {
    /// Bounds on the root's value from its side to move; equal when solved.
    pub bounds: (Value, Value),
    /// Whether the solve finished (`bounds.0 == bounds.1`, and with `exact_all` every move's
    /// value is exact).
    pub finished: bool,
    /// The state to save and resume from.
    pub checkpoint: Checkpoint<M>,
}

/// TT entries as text, one `key value bound best work` line each (`bound` is `exact`,
/// `lower` or `upper`; `best` is the move or `-`): the TT part of a checkpoint, read back by
/// [`tt_entries_from_text`].
#[must_use]
pub fn tt_entries_to_text<K: Display, M: Display>(entries: &[TtEntry<K, M>]) -> String {
    use std::fmt::Write;
    let mut text = String::new();
    for e in entries {
        let bound = match e.bound {
            Bound::Exact => "exact",
            Bound::Lower => "lower",
            Bound::Upper => "upper",
        };
        let _ = write!(text, "{} {} {bound} ", e.key, e.value);
        let _ = match &e.best {
            Some(m) => writeln!(text, "{m} {}", e.work),
            None => writeln!(text, "- {}", e.work),
        };
    }
    text
}

/// Reads [`tt_entries_to_text`]'s format (blank lines ignored).
///
/// # Errors
/// [`CheckpointError::BadTtLine`] naming the first bad line.
pub fn tt_entries_from_text<K: FromStr, M: FromStr>(
    text: &str,
) -> Result<Vec<TtEntry<K, M>>, CheckpointError> {
    tt_entries_from_lines(text, 1)
}

/// [`tt_entries_from_text`] of text whose first line is line `first` of its file.
fn tt_entries_from_lines<K: FromStr, M: FromStr>(
    text: &str,
    first: usize,
) -> Result<Vec<TtEntry<K, M>>, CheckpointError> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = || CheckpointError::BadTtLine { line: i + first, found: line.to_string() };
        let f: Vec<&str> = line.split_whitespace().collect();
        let [key, value, bound, best, work] = f[..] else { return Err(bad()) };
        let bound = match bound {
            "exact" => Bound::Exact,
            "lower" => Bound::Lower,
            "upper" => Bound::Upper,
            _ => return Err(bad()),
        };
        let best = match best {
            "-" => None,
            m => Some(m.parse().map_err(|_| bad())?),
        };
        entries.push(TtEntry {
            key: key.parse().map_err(|_| bad())?,
            value: value.parse().map_err(|_| bad())?,
            bound,
            best,
            work: work.parse().map_err(|_| bad())?,
        });
    }
    Ok(entries)
}

/// A fresh checkpoint for the non-terminal `pos` of `game`: every legal move, in generation
/// order, with the game's bounds.
pub fn root_checkpoint<G: Game>(game: &G, pos: &G::Position) -> Checkpoint<G::Move> {
    let mut moves = Vec::new();
    game.generate_moves(pos, &mut moves);
    let me = game.to_move(pos);
    let moves = moves
        .into_iter()
        .map(|mv| {
            let (child, gain) = game.play(pos, mv);
            let (lo, hi) = match game.terminal_value(&child) {
                Some(v) => (v, v),
                None => game.value_bounds(&child),
            };
            let (lo, hi) = (lo.max(-INFINITY / 2), hi.min(INFINITY / 2));
            let (lo, hi) =
                if game.to_move(&child) == me { (gain + lo, gain + hi) } else { (gain - hi, gain - lo) };
            RootMove { mv, lo, hi }
        })
        .collect();
    Checkpoint { moves }
}

impl<G: Game> Engine<G> {
    /// Solves the non-terminal `pos` move by move under the engine's limits, starting from
    /// `checkpoint` (or a fresh one), calling `progress` after every null-window search. Each
    /// step tests one root move against a threshold with a null window ("is its value above
    /// t?"). Rounds ask "is the root's value above t?" (t by MTD(f)'s steps from the guess of
    /// an engine whose [`Driver`] is [`Driver::Mtdf`]; else from 0 up to [`MTD_REACH`], then by
    /// bisection of the root's interval) and test the moves still
    /// undecided at t, the highest proven lower bound first, then in the game's move order
    /// ([`Game::order_moves`]), until one is above t. With `exact_all`, every move's value is
    /// then made exact (for analysis), one move after the other, by tests from the root's
    /// value down ([`EXACT_MTD_STEPS`] of them), then by bisection.
    ///
    /// When a limit stops the search, the result has the bounds proven so far and
    /// `finished == false`; calling again with its checkpoint continues and ends with the same
    /// values as an uninterrupted solve. The engine's clock ([`Engine::restart_clock`]) restarts
    /// at the call.
    ///
    /// # Errors
    /// [`CheckpointError::WrongPosition`] if `checkpoint`'s moves are not the legal moves of `pos`.
    pub fn solve_root(
        &mut self,
        pos: &G::Position,
        checkpoint: Option<Checkpoint<G::Move>>,
        exact_all: bool,
        mut progress: impl FnMut(&Progress<G::Move>),
    ) -> Result<RootResult<G::Move>, CheckpointError> {
        let engine = self;
        let fresh = root_checkpoint(engine.game(), pos);
        let mut cp = match checkpoint {
            Some(cp) => {
                let same = cp.moves.len() == fresh.moves.len()
                    && cp.moves.iter().zip(&fresh.moves).all(|(a, b)| a.mv == b.mv);
                if !same {
                    return Err(CheckpointError::WrongPosition);
                }
                cp
            }
            None => fresh,
        };
        let me = engine.game().to_move(pos);
        let start = Instant::now();
        let nodes0 = engine.stats().nodes;
        engine.restart_clock();
        let n = cp.moves.len();
        let mut finished = true;
        // Tests root move `i` against threshold `t` ("is its value > t?") with a null window
        // on the child and narrows the move's bounds by the fail-soft result; `false` when a
        // limit stopped it.
        let mut test = |engine: &mut Self, cp: &mut Checkpoint<G::Move>, i: usize, t: Value| -> bool {
            let mv = cp.moves[i].mv;
            let (child, gain) = engine.game().play(pos, mv);
            let same = engine.game().to_move(&child) == me;
            // Move value m = gain + v (same) or gain - v (other side to move).
            let c = if same { t - gain } else { gain - t - 1 };
            let Ok(r) = engine.try_search(&child, c, c + 1) else {
                return false;
            };
            let m = &mut cp.moves[i];
            match (same, r > c) {
                (true, true) => m.lo = m.lo.max(gain + r),
                (true, false) => m.hi = m.hi.min(gain + r),
                (false, true) => m.hi = m.hi.min(gain - r),
                (false, false) => m.lo = m.lo.max(gain - r),
            }
            progress(&Progress {
                move_index: i,
                moves: n,
                checkpoint: cp.clone(),
                bounds: cp.bounds(),
                nodes: engine.stats().nodes - nodes0,
                elapsed: start.elapsed(),
            });
            true
        };
        // The root's value alone, as a null-window search of the root would find it: each
        // round asks "is the root's value > t?", t chosen by `policy` (below), and tests the
        // moves still undecided at t, the highest proven lower bound first, then in the
        // game's order, until one is above t (the root's lower bound rises) or none is (its
        // upper bound falls). Only the best move's value is made exact.
        let policy = root_threshold(engine.options().driver);
        let mut ordered: Vec<G::Move> = cp.moves.iter().map(|m| m.mv).collect();
        engine.game().order_moves(pos, &mut ordered);
        let rank = |mv: G::Move| ordered.iter().position(|&m| m == mv).unwrap_or(n);
        'rounds: loop {
            let (lo, hi) = cp.bounds();
            if lo >= hi {
                break;
            }
            let t = policy.next(lo, hi);
            let mut undecided: Vec<usize> =
                (0..n).filter(|&i| cp.moves[i].lo <= t && cp.moves[i].hi > t).collect();
            undecided.sort_by_key(|&i| (std::cmp::Reverse(cp.moves[i].lo), rank(cp.moves[i].mv)));
            for i in undecided {
                if !test(engine, &mut cp, i, t) {
                    finished = false;
                    break 'rounds;
                }
                if cp.moves[i].lo > t {
                    break;
                }
            }
        }
        if exact_all && finished {
            // Then every other move made exact, one after the other: tests from the top of its
            // interval down (the root's value bounds every move from above, and a best move
            // is proven by one test, mostly answered by the TT), each fail-soft result the next
            // upper bound, for [`EXACT_MTD_STEPS`] tests; then bisection of what is left.
            let top = cp.bounds().1;
            'moves: for i in 0..n {
                let mut steps = 0;
                while cp.moves[i].lo != cp.moves[i].hi {
                    let RootMove { lo, hi, .. } = cp.moves[i];
                    let t = if steps < EXACT_MTD_STEPS {
                        Threshold::Mtd { first: top - 1 }.next(lo, hi)
                    } else {
                        Threshold::Bisection.next(lo, hi)
                    };
                    steps += 1;
                    if !test(engine, &mut cp, i, t) {
                        finished = false;
                        break 'moves;
                    }
                }
            }
        }
        let bounds = cp.bounds();
        let finished =
            finished && bounds.0 == bounds.1 && (!exact_all || cp.moves.iter().all(|m| m.lo == m.hi));
        Ok(RootResult { bounds, finished, checkpoint: cp })
    }

    /// The analysis of `pos` from `result`, a finished [`Engine::solve_root`] of `pos` with
    /// `exact_all` (every root move exact) of a position that is not over: the root moves'
    /// values as the checkpoint has them, and a principal variation that starts with the
    /// result's first best move and goes on by a root solve (the best value only) at each step,
    /// each under the engine's limits with what is left until `deadline`. The steps are played
    /// in `plain`, the same game without the rules that fold forced moves into one, so that
    /// the PV lists every move; the engine's rules find each step's best move. `stats` are the
    /// engine's statistics since `before`. Values are from the first player's side, boxes or
    /// points already banked counted ([`Game::banked`]), as [`Engine::analyze`] gives them.
    ///
    /// # Errors
    /// [`Interrupted`] with the bounds of the step's position when the limits or the deadline
    /// stop a step; [`Interrupted`] with `result`'s bounds if `result` is not finished.
    pub fn root_analysis(
        &mut self,
        plain: &G,
        pos: &G::Position,
        result: &RootResult<G::Move>,
        before: &Stats,
        deadline: Option<Instant>,
    ) -> Result<Analysis<G::Move>, Interrupted> {
        self.root_analysis_from(plain, pos, result, &[], before, deadline)
    }

    /// [`Engine::root_analysis`] with the PV's first moves already proven elsewhere: `known`,
    /// moves of the engine's game from `pos`, each keeping its position's value (a split's
    /// proven tree, `split_solve::Split::move_bounds_after`), is taken as the PV's start as far
    /// as each move is legal in `plain` and leads there to the position it leads to in the
    /// engine's game (the same TT key; a move the rules fold forced moves into ends it); an
    /// empty `known` starts with `result`'s first best move. Each later step knows its
    /// position's value `v` (carried down the PV through the moves' gains), so its root solve
    /// starts with every move at most `v` (no move is worth more than its position) and only
    /// looks for one move worth `v`: one null-window test per move tried.
    ///
    /// # Errors
    /// As [`Engine::root_analysis`].
    pub fn root_analysis_from(
        &mut self,
        plain: &G,
        pos: &G::Position,
        result: &RootResult<G::Move>,
        known: &[G::Move],
        before: &Stats,
        deadline: Option<Instant>,
    ) -> Result<Analysis<G::Move>, Interrupted> {
        let (lo, hi) = result.bounds;
        if !result.finished || result.checkpoint.moves.iter().any(|m| m.lo != m.hi) {
            return Err(Interrupted { lo, hi });
        }
        let limits = self.limits().clone();
        let best = |r: &RootResult<G::Move>| {
            r.checkpoint.moves.iter().find(|m| m.lo == r.bounds.0).expect("a best move").mv
        };
        // Plays `mv` in `plain` from `p` worth `v`, a move worth `v`: the child and its value.
        let step_to = |p: &G::Position, v: Value, mv: G::Move| crate::play_keeping(plain, p, mv, v);
        let (mut pv, mut p, mut v) = (Vec::new(), *pos, lo);
        for &mv in known {
            let mut legal = Vec::new();
            if plain.terminal_value(&p).is_none() {
                plain.generate_moves(&p, &mut legal);
            }
            if !legal.contains(&mv) {
                break;
            }
            let (child, child_value) = step_to(&p, v, mv);
            if self.game().key(&self.game().play(&p, mv).0) != self.game().key(&child) {
                break;
            }
            pv.push(mv);
            (p, v) = (child, child_value);
        }
        if pv.is_empty() {
            // The first step is the result's own best move.
            pv.push(best(result));
            (p, v) = step_to(pos, lo, pv[0]);
        }
        while plain.terminal_value(&p).is_none() {
            let time = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            self.set_limits(Limits { time: time.or(limits.time), ..limits.clone() });
            // Every move at most `v`; a checkpoint that says otherwise (it cannot, for a `v`
            // proven) is left out.
            let mut hinted = root_checkpoint(self.game(), &p);
            let fits = hinted.moves.iter().all(|m| m.lo <= v);
            for m in &mut hinted.moves {
                m.hi = m.hi.min(v);
            }
            let step = self.solve_root(&p, fits.then_some(hinted), false, |_| {});
            self.set_limits(limits.clone());
            let step = step.expect("a fresh checkpoint fits its position");
            if !step.finished {
                let (lo, hi) = step.bounds;
                return Err(Interrupted { lo, hi });
            }
            let mv = best(&step);
            pv.push(mv);
            (p, v) = step_to(&p, step.bounds.0, mv);
        }
        let (to_move, banked) = (self.game().to_move(pos), self.game().banked(pos));
        let sign = to_move.sign();
        let values = result.checkpoint.moves.iter().map(|m| (m.mv, m.lo)).collect();
        let moves = crate::analysis::ranked(values, banked, sign);
        let stats = self.stats().since(before);
        Ok(Analysis { to_move, value: banked + sign * lo, moves, pv, stats })
    }
}
