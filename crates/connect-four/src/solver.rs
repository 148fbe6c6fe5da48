//! [`Solver`]: exact scores, win/draw/loss, and per-column analysis of [`Position`]s, by
//! null-window bisection over the score leaning towards 0 ([`Driver::BisectionTowardZero`]) on
//! search-core's [`Engine`] with [`ConnectFour`].

use std::sync::Arc;

use search_core::{
    unlimited, Analysis, Book, BookError, Driver, Engine, Game, Interrupted, Limits, MoveValue, Outcome,
    PackedTable, Player, SearchOptions, Stats, Value, INFINITY,
};

use crate::{Board, Column, ConnectFour, Geometry, Position};

/// One thread searches with the packed TT ([`Engine::with_packed_tt`]: 16-byte entries, a
/// bucket per half cache line, fewer cache misses) from `2^19` entries on, where the plain
/// table (24-byte entries, 12 MiB) no longer fits an 8 MiB L3 cache (a 2-core x86-64 VM's);
/// below, with the table in cache, packing and unpacking cost more than they save. Test_L1_R3
/// first 6, alternating runs on a loaded 2-core x86-64 VM, user seconds: TT 2^16 plain 7.85-8.15, packed
/// 8.23-8.28; TT 2^20 plain 11.50-11.52, packed 8.92-10.71 (with the batched cutoff
/// look-ups 9.78-10.14).
pub const PACKED_TT_BITS: u32 = 19;

/// Default TT size: `2^20` entries (16 MiB packed on one thread). The search is bound by TT cache
/// misses, so a table that stays in cache is often faster than a larger one with fewer nodes
/// (Test_L1_R3, first 6 positions: 2^16 entries 17.8M nodes 3.6 s, 2^22 entries 13.4M nodes
/// 5.4 s, same run); `cargo xtask c4-bench` uses 2^14 to 2^18 by set.
pub const DEFAULT_TT_BITS: u32 = 20;

/// The number of threads [`Solver::new`] and [`Solver::with_tt_bits`] search with: 1, because
/// a second thread pays only where it gets a core of its own (`cargo xtask c4-bench --threads
/// 1,2` on a 2-core x86-64 VM busy with other jobs, first 6 positions: L1_R2 46.4 ms / 50.9 ms
/// mean, 147k / 157k mean nodes; L1_R3 3.60 s / 4.58 s, 11.9M / 14.3M: the second thread got
/// no more CPU time than one; on the same VM idle, L1_R3 runs 1.73x faster on two). Ask for more with
/// [`Solver::with_threads`] (e.g. [`all_cores`]).
pub const DEFAULT_THREADS: usize = 1;

/// Every core the OS grants ([`std::thread::available_parallelism`]), 1 if unknown.
#[must_use]
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// An exact Connect Four solver. Scores are Pons' (see the crate documentation), from the side
/// to move.
///
/// Keeps its TT between calls (positions of one game share work); [`Solver::clear`] forgets it.
/// A position of another geometry than the solver's makes it start over on that geometry.
/// With more than one thread ([`Solver::with_threads`]) every search runs as lazy SMP over a
/// shared TT; the scores are the same.
pub struct Solver {
    engine: Engine<ConnectFour>,
    /// The plain rules of the same board: what sessions play by ([`game_front::Solver::game`]).
    plain: crate::PlainConnectFour,
    tt_bits: u32,
    threads: usize,
    /// The reply book [`Solver::try_best_column`] answers from first ([`Solver::set_replies`]).
    replies: Option<Arc<crate::Replies>>,
}

impl Default for Solver {
    fn default() -> Self {
        Self::new(Geometry::STANDARD)
    }
}

impl Solver {
    /// A solver for `geom` with a TT of `2^DEFAULT_TT_BITS` entries on [`DEFAULT_THREADS`]
    /// threads.
    #[must_use]
    pub fn new(geom: Geometry) -> Self {
        Self::with_tt_bits(geom, DEFAULT_TT_BITS)
    }

    /// A solver for `geom` with a TT of `2^tt_bits` entries on [`DEFAULT_THREADS`] threads.
    #[must_use]
    pub fn with_tt_bits(geom: Geometry, tt_bits: u32) -> Self {
        Self::with_threads(geom, tt_bits, DEFAULT_THREADS)
    }

    /// A solver for `geom` with a TT of `2^tt_bits` entries (on one thread 24 bytes each, 16 in
    /// the packed table from [`PACKED_TT_BITS`] on; 20 bytes in the shared table of several)
    /// searching on `threads` threads (at least 1).
    #[must_use]
    pub fn with_threads(geom: Geometry, tt_bits: u32, threads: usize) -> Self {
        let (game, options) = (ConnectFour::new(geom), search_options(tt_bits, threads));
        let mut engine = if tt_bits >= PACKED_TT_BITS {
            Engine::with_packed_tt(game, options)
        } else {
            Engine::with_options(game, options)
        };
        engine.set_etc_min_reach(ETC_MIN_REACH);
        Solver {
            engine,
            plain: crate::PlainConnectFour::new(geom),
            tt_bits,
            threads: threads.max(1),
            replies: None,
        }
    }

    /// The largest TT size `tt_bits` (`2^tt_bits` entries) of a [`Solver::with_threads`]
    /// solver on `threads` threads whose table fits in `bytes`: one thread's table is the
    /// packed one (16-byte entries) from [`PACKED_TT_BITS`] on and the plain one (24 bytes)
    /// below, several threads share the engine's shared table
    /// ([`Engine::tt_bits_within`]). 0 when not even a bucket fits (no TT).
    #[must_use]
    pub fn tt_bits_within(bytes: u64, threads: usize) -> u32 {
        let plain = Engine::<ConnectFour>::tt_bits_within(bytes, threads);
        if threads > 1 {
            return plain;
        }
        let entry = PackedTable::<u64, Column>::entry_bytes() as u64;
        let packed = (bytes / entry).checked_ilog2().unwrap_or(0).min(search_core::MAX_TT_BITS);
        if packed >= PACKED_TT_BITS {
            packed
        } else {
            plain
        }
    }

    /// Number of search threads.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The plain rules of the board solved ([`crate::PlainConnectFour`]: what sessions play
    /// by).
    #[must_use]
    pub fn plain_rules(&self) -> &crate::PlainConnectFour {
        &self.plain
    }

    /// The geometry solved.
    #[must_use]
    pub fn geometry(&self) -> &Geometry {
        self.engine.game().geometry()
    }

    /// Search statistics since construction or [`Solver::reset_stats`] (nodes: calls of the
    /// negamax routine, summed over the threads; elapsed: wall-clock time).
    #[must_use]
    pub fn stats(&self) -> Stats {
        self.engine.stats()
    }

    /// Zeroes the statistics.
    pub fn reset_stats(&mut self) {
        self.engine.reset_stats();
    }

    /// Forgets the TT and zeroes the statistics (a fresh engine with a new table, the opening
    /// book and the reply book kept).
    pub fn clear(&mut self) {
        let book = self.engine.book().cloned();
        let replies = self.replies.take();
        // The old table freed before the new one is allocated: never both at once.
        self.engine.release_table();
        *self = Self::with_threads(*self.geometry(), self.tt_bits, self.threads);
        self.engine.set_book(book);
        self.replies = replies;
    }

    /// Answers [`Solver::try_best_column`] from `replies` (`None`: none) in the positions it
    /// holds: the same columns, at once. A reply book of another board is never consulted.
    pub fn set_replies(&mut self, replies: Option<Arc<crate::Replies>>) {
        self.replies = replies;
    }

    /// The reply book the solver answers from, if any ([`Solver::set_replies`]).
    #[must_use]
    pub fn replies(&self) -> Option<&Arc<crate::Replies>> {
        self.replies.as_ref()
    }

    /// Reads `book` (`None`: none) in every search from now on: the exact scores of the
    /// positions within its depth of the empty board, each answered in one node. The scores
    /// never change, only the time. A position of another geometry makes the solver start over
    /// without it.
    ///
    /// # Errors
    /// [`BookError::Mismatch`] for a book of another board or key scheme,
    /// [`BookError::ValueOutOfRange`] for a score no position of the board has; the book is
    /// then not read.
    pub fn set_book(&mut self, book: Option<Arc<Book>>) -> Result<(), BookError> {
        if let Some(book) = &book {
            book.check(&self.engine.game().book_identity())?;
        }
        self.engine.set_book(book);
        Ok(())
    }

    /// The opening book the solver reads, if any ([`Solver::set_book`]).
    #[must_use]
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.engine.book()
    }

    /// The exact score of `board` (a position of the solver's geometry that is not finished:
    /// [`search_core::Game::terminal_value`] is `None`) for the side to move, by the driver
    /// [`Solver::score`] would use: what an opening book's positions are solved with.
    pub fn score_board(&mut self, board: &Board) -> i32 {
        let driver = driver_for_stones(board.moves() as usize, self.geometry().cells());
        self.engine.set_driver(driver);
        self.engine.solve(board) as i32
    }

    /// Sets the [`Limits`] (stop flag, node budget, time) that [`Solver::try_score`] and
    /// [`Solver::try_analyze`] obey, on any number of threads.
    pub fn set_limits(&mut self, limits: Limits) {
        self.engine.set_limits(limits);
    }

    /// The underlying engine (for custom searches on [`crate::Board`]s of this geometry).
    pub fn engine(&mut self) -> &mut Engine<ConnectFour> {
        &mut self.engine
    }

    fn adopt(&mut self, pos: &Position) {
        if pos.geometry() != self.geometry() {
            self.engine.release_table();
            *self = Self::with_threads(*pos.geometry(), self.tt_bits, self.threads);
        }
        self.engine.set_driver(driver_for(pos));
    }

    /// Score of a finished position, from the side to move: minus the winner's score, or 0.
    fn finished_score(pos: &Position) -> Option<i32> {
        if pos.is_won() {
            // The winner's stone was stone number n: it won "with the next stone" at n - 1.
            Some(-((pos.geometry().cells() as i32 + 2 - pos.moves_played() as i32) / 2))
        } else if pos.is_full() {
            Some(0)
        } else {
            None
        }
    }

    /// The exact score of `pos` for the side to move (Pons' convention): positive for a win
    /// (larger = sooner), 0 for a draw, negative for a loss. A finished position scores minus the
    /// winner's score (or 0 for a full board).
    pub fn score(&mut self, pos: &Position) -> i32 {
        unlimited(self.score_as(pos, None, false))
    }

    /// [`Solver::score`] under the limits of [`Solver::set_limits`].
    ///
    /// # Errors
    /// [`Interrupted`] (with the bounds proven, in the engine's values) when a limit stopped it.
    pub fn try_score(&mut self, pos: &Position) -> Result<i32, Interrupted> {
        self.score_as(pos, None, true)
    }

    /// The outcome of `pos` for the side to move: only the sign of [`Solver::score`], found with
    /// the window (-1, 1), usually faster.
    pub fn weak(&mut self, pos: &Position) -> Outcome {
        Outcome::of_value(Value::from(unlimited(self.score_as(pos, Some((-1, 1)), false))))
    }

    /// [`Solver::weak`] under the limits of [`Solver::set_limits`].
    ///
    /// # Errors
    /// [`Interrupted`] when a limit stopped it.
    pub fn try_weak(&mut self, pos: &Position) -> Result<Outcome, Interrupted> {
        self.score_as(pos, Some((-1, 1)), true).map(|s| Outcome::of_value(Value::from(s)))
    }

    /// The score of `pos` clamped to `window` if given, under the limits if `limited`.
    fn score_as(
        &mut self,
        pos: &Position,
        window: Option<(Value, Value)>,
        limited: bool,
    ) -> Result<i32, Interrupted> {
        let clamp = |s: i32| match window {
            Some((lo, hi)) => s.clamp(lo as i32, hi as i32),
            None => s,
        };
        if let Some(s) = Self::finished_score(pos) {
            return Ok(clamp(s));
        }
        self.adopt(pos);
        let b = pos.board();
        let (mut lo, hi) = window.unwrap_or((-INFINITY, INFINITY));
        if let Some(floor) = self.book_floor(pos) {
            if floor >= hi {
                return Ok(hi as i32);
            }
            // The score is at least `floor`: clamping it to `[max(lo, floor), hi]` changes nothing.
            lo = lo.max(floor);
        }
        let v = if limited {
            self.engine.try_solve_within(b, lo, hi)?
        } else {
            self.engine.solve_within(b, lo, hi)
        };
        Ok(v as i32)
    }

    /// A lower bound on the score of `pos` (not finished) from the opening book: `pos` is a
    /// child of every position it has without one of the last mover's top stones, and a
    /// child's score is at least minus its parent's (the parent has this move among others).
    /// `None` without a book or when no parent is in it (the book holds the positions within
    /// its depth that no forced reply was folded into, [`search_core::BookPlan`]). Pays one
    /// stone beyond the book: after a random reply to a book position (`525553161`, score 2;
    /// the parent `52555316` scores -2) the search for the exact score shrinks from 16.3 M to
    /// 8.0 M nodes (one thread, TT 2^20).
    fn book_floor(&self, pos: &Position) -> Option<Value> {
        let book = self.engine.book()?;
        let geom = pos.geometry();
        let game = self.engine.game();
        (0..geom.width())
            .filter_map(|c| pos.board().unplay(geom, c))
            .filter_map(|parent| book.value(game.key(&parent)))
            .map(|v| -v)
            .max()
    }

    /// The score of every legal column of `pos` and a principal variation.
    ///
    /// Values in the [`Analysis`] are from the *first* player's side, as everywhere in
    /// [`search_core`]: Pons' score of the position for the first player, and for each move the
    /// score after it (a move that wins at once is worth the win with that stone). Moves are
    /// best first for the side to move, ties left to right; the PV plays the leftmost best move
    /// at every step until the game ends. A finished position has no moves and an empty PV.
    pub fn analyze(&mut self, pos: &Position) -> Analysis<Column> {
        unlimited(self.analyze_as(pos, false))
    }

    /// [`Solver::analyze`] under the limits of [`Solver::set_limits`] (the web page's budget).
    ///
    /// # Errors
    /// [`Interrupted`] when a limit stopped one of its searches.
    pub fn try_analyze(&mut self, pos: &Position) -> Result<Analysis<Column>, Interrupted> {
        self.analyze_as(pos, true)
    }

    fn analyze_as(&mut self, pos: &Position, limited: bool) -> Result<Analysis<Column>, Interrupted> {
        let before = self.stats();
        let sign = match pos.to_move() {
            Player::First => 1,
            Player::Second => -1,
        };
        let moves: Vec<MoveValue<Column>> = self
            .column_scores_as(pos, limited)?
            .into_iter()
            .map(|(mv, s)| MoveValue { mv, value: sign * Value::from(s) })
            .collect();
        let mut sorted = moves.clone();
        sorted.sort_by_key(|m| -sign * m.value);
        let value = match sorted.first() {
            Some(m) => m.value,
            None => sign * Value::from(self.score_as(pos, None, limited)?),
        };
        let pv = self.principal_variation_as(pos, limited)?;
        let after = self.stats();
        let stats = after.since(&before);
        Ok(Analysis { to_move: pos.to_move(), value, moves: sorted, pv, stats })
    }

    /// The score, for the side to move of `pos`, of playing each legal column (left to right).
    pub fn column_scores(&mut self, pos: &Position) -> Vec<(Column, i32)> {
        unlimited(self.column_scores_as(pos, false))
    }

    /// [`Solver::column_scores`] under the limits of [`Solver::set_limits`].
    ///
    /// # Errors
    /// [`Interrupted`] when a limit stopped one of its searches.
    pub fn try_column_scores(&mut self, pos: &Position) -> Result<Vec<(Column, i32)>, Interrupted> {
        self.column_scores_as(pos, true)
    }

    fn column_scores_as(&mut self, pos: &Position, limited: bool) -> Result<Vec<(Column, i32)>, Interrupted> {
        let mut scores = Vec::new();
        for c in pos.legal_columns() {
            let child = pos.play(c.index());
            scores.push((c, -self.score_as(&child, None, limited)?));
        }
        Ok(scores)
    }

    /// A principal variation: from `pos`, the leftmost move keeping the score, to the end.
    pub fn principal_variation(&mut self, pos: &Position) -> Vec<Column> {
        unlimited(self.principal_variation_as(pos, false))
    }

    fn principal_variation_as(&mut self, pos: &Position, limited: bool) -> Result<Vec<Column>, Interrupted> {
        let mut pv = Vec::new();
        let mut pos = *pos;
        while !pos.is_over() {
            let best = self.best_column_as(&pos, limited)?;
            pv.push(best);
            pos = pos.play(best.index());
        }
        Ok(pv)
    }

    /// The leftmost column of the best score of `pos` (a position that is not finished), under
    /// the limits of [`Solver::set_limits`]: the column [`Solver::column_scores`]' best score
    /// comes first at, found with the position's score and one null-window test per column
    /// up to it ("is the column worth at least the score?") instead of every column's exact
    /// score.
    ///
    /// # Errors
    /// [`Interrupted`] when a limit stopped one of its searches.
    pub fn try_best_column(&mut self, pos: &Position) -> Result<Column, Interrupted> {
        self.best_column_as(pos, true)
    }

    fn best_column_as(&mut self, pos: &Position, limited: bool) -> Result<Column, Interrupted> {
        if let Some(c) = self.replies.as_ref().and_then(|r| r.reply(pos)) {
            return Ok(c);
        }
        let target = self.score_as(pos, None, limited)?;
        for c in pos.legal_columns() {
            if self.keeps(pos, c, target, limited)? {
                return Ok(c);
            }
        }
        unreachable!("some move keeps the score")
    }

    /// Whether playing `c` in `pos` is worth at least `target` (the score of `pos`): a
    /// null-window test of the child ("is its score at most `-target`?").
    fn keeps(&mut self, pos: &Position, c: Column, target: i32, limited: bool) -> Result<bool, Interrupted> {
        let child = pos.play(c.index());
        Ok(match Self::finished_score(&child) {
            Some(s) => -s >= target,
            None => {
                let t = Value::from(-target);
                let r = if limited {
                    self.engine.try_search(child.board(), t, t + 1)?
                } else {
                    self.engine.search(child.board(), t, t + 1)
                };
                r <= t
            }
        })
    }
}

/// Positions with at most this many stones are solved by [`Driver::ZeroThenBisection`] (is
/// the score above 0? then: is it beyond the bound that proved?), the others by
/// [`Driver::BisectionTowardZero`]. Openings have scores next to 0, which the first two tests
/// settle; later positions may have large scores, which bisection reaches in fewer and cheaper
/// searches. Nodes by bisection / by the two tests first, TT 2^24: empty 7 x 6 169.0 M /
/// 131.5 M; `44` 45.7 M / 33.8 M; `43` 47.1 M / 60.5 M; `445` 16.50 M / 16.43 M; `4453`
/// 13.08 M / 13.02 M. TT 2^16, the first 9 positions of Test_L1_R3 with at most 4 stones:
/// 369.3 M / 342.6 M (-7 %; -44 % and -31 % on the scores 0 and 1, +3 % to +17 % on scores
/// of 2 to 4). Every position of the sets by the two tests: Test_L1_R3 first 20 -4.6 %, L2_R2
/// -6 %, L1_R2 first 20 +2 %, but L1_R1 (scores of 8 to 18 from 6 stones on) 1.61 M -> 5.96 M.
pub const OPENING_STONES: usize = 4;

/// The budget of [`Driver::EndsThenBisection`], by which [`Solver`] solves positions of more
/// than [`OPENING_STONES`] stones with at least [`ENDS_MIN_EMPTY`] empty cells: tests walk in
/// from both ends of the score's interval while each costs at most this many nodes, then Pons'
/// bisection leaning towards 0 takes over. A score next to an end (a quick win or loss) takes
/// a few cheap tests there, where bisection's first tests, far from it, cost the most
/// (`65225331`, score 11 in [-16, 15]: the tests at -8 and 7 cost 4,830 and 17,399 of its
/// 25,319 nodes; the walk without a budget 9,428 in all). Nodes by bisection / by the walk,
/// TT 2^16, TT cleared before each position: Test_L1_R1 first 100 148,913 / 90,576 (all 1000
/// 1,173,313 / 785,154; budget 500 106,818, 3,000 63,302 but Test_L2_R2 first 300 +10 %);
/// see `docs/results/connect-four.md`.
pub const ENDS_BUDGET: u64 = 1000;

/// The fewest empty cells with which [`Solver`] walks in from the ends ([`ENDS_BUDGET`]): on
/// the narrower score intervals of later positions the walk crosses most of the interval in
/// tests that bisection does not need (Test_L2_R1 first 100: 9,556 / 11,911 nodes, 1.24 times
/// the time; Test_L2_R2 first 300 4,227,334 / 4,519,048), so they keep
/// [`Driver::BisectionTowardZero`]. 28 on 7 x 6: positions of at most 14 stones.
pub const ENDS_MIN_EMPTY: usize = 28;

/// The driver [`Solver`] solves `pos` with (see [`OPENING_STONES`], [`ENDS_BUDGET`] and
/// [`ENDS_MIN_EMPTY`]).
fn driver_for(pos: &Position) -> Driver {
    driver_for_stones(pos.moves_played(), pos.geometry().cells())
}

/// [`driver_for`] a position of `stones` stones on a board of `cells` cells.
fn driver_for_stones(stones: usize, cells: usize) -> Driver {
    if stones <= OPENING_STONES {
        Driver::ZeroThenBisection
    } else if cells - stones >= ENDS_MIN_EMPTY {
        Driver::EndsThenBisection { budget: ENDS_BUDGET }
    } else {
        Driver::BisectionTowardZero
    }
}

/// Enhanced transposition cutoff at nodes whose score bounds are at least this far apart
/// (about 15 empty cells or more, as in `c4`); see
/// [`search_core::SearchOptions::enhanced_transposition_cutoff`]. One run, TT 2^16, Test_L1_R3
/// first 6: 61.5M nodes without, 48.4M with (45.0M from 8 apart, 50.4M from 14, slower);
/// the empty 7 x 6 board, TT 2^24: 235.5M nodes 106 s without, 169.0M 97 s with.
pub const ETC_SPAN: search_core::Value = 12;

/// Enhanced transposition cutoff only where the window is at least this far inside the node's
/// bounds ([`search_core::Engine::set_etc_min_reach`]): not where the search asks whether
/// the score is its upper bound (the fastest win left) or its lower one, whose subtrees the
/// bounds cut within a few plies. Test_L1_R1 first 100, TT 2^16: 218,075 nodes and 453,617
/// children looked up without this gate, 218,373 and 202,264 with it (callgrind: 372 M / 327 M
/// instructions); Test_L1_R3 first 6: 49,439,872 / 49,439,346 nodes.
pub const ETC_MIN_REACH: search_core::Value = 2;

/// The engine options of a [`Solver`]: a TT of `2^tt_bits` entries, `threads` threads, PVS, and
/// Pons' bisection leaning towards 0, which pays here (first positions of the test sets, TT
/// 2^16, one run): L1_R3 (4) 12.5M nodes against 13.9M for plain bisection and 18.9M for
/// MTD(f) from 0; L1_R2 (20) 349k against 381k and 419k; L1_R1 (100) 2.5k against 16.3k and
/// 31.3k. Enhanced transposition cutoff from [`ETC_SPAN`]. [`Solver`] switches to
/// [`Driver::ZeroThenBisection`] for openings ([`OPENING_STONES`]). A [`Solver`] on one thread
/// searches with the packed TT ([`Engine::with_packed_tt`]: 16-byte entries, a bucket per half
/// cache line) from [`PACKED_TT_BITS`] on: the same nodes, fewer cache misses (position `4453`, TT 2^24: 13.0M
/// nodes, 3.6-3.9 s against 3.9-4.3 s user time with the plain table, alternating runs on
/// a loaded 2-core x86-64 VM; cachegrind: 23 % fewer last-level read misses on L1_R3 positions 6 and 14).
#[must_use]
pub fn search_options(tt_bits: u32, threads: usize) -> SearchOptions {
    SearchOptions {
        tt_bits,
        threads,
        driver: Driver::BisectionTowardZero,
        enhanced_transposition_cutoff: Some(ETC_SPAN),
        ..SearchOptions::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use search_core::{SharedTable, TranspositionTable};

    use super::*;

    /// Bytes of the table a solver of `2^bits` entries on `threads` threads builds.
    fn table_bytes(bits: u32, threads: usize) -> u64 {
        let entry = if threads > 1 {
            SharedTable::<u64, Column>::entry_bytes()
        } else if bits >= PACKED_TT_BITS {
            PackedTable::<u64, Column>::entry_bytes()
        } else {
            TranspositionTable::<u64, Column>::entry_bytes()
        };
        (entry as u64) << bits
    }

    /// The best column by null-window tests is the leftmost column of the best exact score
    /// ([`Solver::column_scores`]) on random positions of 5x4 and 6x5, each with a fresh solver
    /// (no TT left from the exact scores).
    #[test]
    fn the_best_column_is_the_leftmost_of_the_best_score() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for (w, h) in [(5, 4), (6, 5)] {
            let geom = Geometry::new(w, h).unwrap();
            let mut checked = 0;
            while checked < 60 {
                let mut pos = Position::empty(geom);
                for _ in 0..next(w * h - 4) {
                    let cols: Vec<usize> = pos.legal_columns().map(|c| c.index()).collect();
                    if pos.is_over() || cols.is_empty() {
                        break;
                    }
                    pos = pos.play(cols[next(cols.len())]);
                }
                if pos.is_over() {
                    continue;
                }
                let scores = Solver::with_tt_bits(geom, 16).column_scores(&pos);
                let best = scores.iter().map(|&(_, s)| s).max().unwrap();
                let leftmost = scores.iter().find(|&&(_, s)| s == best).unwrap().0;
                assert_eq!(
                    Solver::with_tt_bits(geom, 16).try_best_column(&pos),
                    Ok(leftmost),
                    "{}",
                    pos.moves_string()
                );
                checked += 1;
            }
        }
    }

    /// The size a budget buys is the largest whose table (packed, plain or shared, as the
    /// solver builds it) fits the budget.
    #[test]
    fn tt_bits_within_is_the_largest_table_in_the_budget() {
        for threads in [1, 2] {
            for budget in (8..34).flat_map(|b| [(1u64 << b) - 1, 1 << b, 3 << (b - 1)]) {
                let bits = Solver::tt_bits_within(budget, threads);
                assert!(
                    bits == 0 || table_bytes(bits, threads) <= budget,
                    "{budget} bytes, {threads} threads: 2^{bits}"
                );
                assert!(
                    table_bytes(bits + 1, threads) > budget,
                    "{budget} bytes, {threads} threads: 2^{bits}"
                );
            }
        }
        // 16 MiB hold 2^20 packed entries, where 24-byte entries would give 2^19.
        assert_eq!(Solver::tt_bits_within(16 << 20, 1), 20);
    }
}
