//! The two contest questions over one shared [`Solver`] per batch: [`WinningMove`] (UVa 10111)
//! and [`BoardEval`] (CCF CSP 201803-4).

use search_core::{Analysis, Game, Solver, Stats, Value};

use crate::{Cell, Geometry, MnkGame, Position, Scoring, SolveError};

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
    solver: Solver<MnkGame>,
}

impl Shared {
    fn new(geometry: Geometry, scoring: Scoring, tt_bits: u32) -> Self {
        Shared { geometry, solver: Solver::new(MnkGame::new(geometry, scoring), tt_bits) }
    }

    /// The solver, once `pos` is known to be on its board.
    fn prepare(&mut self, pos: &Position) -> Result<&mut Solver<MnkGame>, SolveError> {
        if pos.geometry != self.geometry {
            return Err(SolveError::GeometryMismatch { expected: self.geometry, found: pos.geometry });
        }
        Ok(&mut self.solver)
    }
}

/// Finds, for positions of one geometry, the first cell in row-major order after which the
/// side to move wins against every reply (UVa 10111, where x is to move). One instance answers
/// a whole batch with a shared transposition table.
pub struct WinningMove {
    shared: Shared,
}

impl WinningMove {
    /// A solver for boards of `geometry`, with [`default_tt_bits`].
    #[must_use]
    pub fn new(geometry: Geometry) -> Self {
        Self::with_tt_bits(geometry, default_tt_bits(geometry))
    }

    /// A solver for boards of `geometry` with a TT of `2^tt_bits` entries.
    #[must_use]
    pub fn with_tt_bits(geometry: Geometry, tt_bits: u32) -> Self {
        WinningMove { shared: Shared::new(geometry, Scoring::WinLoss, tt_bits) }
    }

    /// The first cell (row-major) after which the side to move of `pos` has a forced win, or
    /// `None` (also for a finished position). An immediate win counts like any other forced
    /// win: the order of the cells decides.
    ///
    /// First asks whether `pos` is won at all (one null-window search), then tests the cells
    /// in order with null-window searches, sharing the TT.
    ///
    /// # Errors
    /// [`SolveError::GeometryMismatch`] if `pos` is on another board.
    pub fn find(&mut self, pos: &Position) -> Result<Option<Cell>, SolveError> {
        let solver = self.shared.prepare(pos)?;
        if pos.is_over() || !solver.value_exceeds(pos, 0) {
            return Ok(None);
        }
        for cell in pos.legal_moves() {
            let (child, _) = solver.game().play(pos, cell);
            // The child's value is from the opponent's side: -1 means the mover wins.
            if !solver.value_exceeds(&child, -1) {
                return Ok(Some(cell));
            }
        }
        debug_assert!(false, "a won position has a winning move");
        Ok(None)
    }

    /// The value of `pos` for x (+1 win, 0 draw, -1 loss), every move's value and a principal
    /// variation ([`Solver::analyze`]).
    ///
    /// # Errors
    /// As [`WinningMove::find`].
    pub fn analyze(&mut self, pos: &Position) -> Result<Analysis<Cell>, SolveError> {
        Ok(self.shared.prepare(pos)?.analyze(pos))
    }

    /// Search statistics of the current solver.
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
    /// ([`Solver::analyze`]).
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
