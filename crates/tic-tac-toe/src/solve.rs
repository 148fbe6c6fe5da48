//! The two contest questions over one shared [`Solver`] per batch: [`WinningMove`] (UVa 10111)
//! and [`BoardEval`] (CCF CSP 201803-4).

use search_core::{Game, Solver, Value};

use crate::{Cell, Geometry, MnkGame, Position, Scoring, SolveError};

/// TT size (log2 of entries) suited to a board: small boards need few entries, and a smaller
/// table is faster to allocate for a one-shot process.
#[must_use]
pub fn default_tt_bits(geometry: Geometry) -> u32 {
    match geometry.cells() {
        0..=9 => 14,
        10..=16 => 18,
        _ => 22,
    }
}

/// Finds, for positions of one geometry, the first cell in row-major order after which the
/// side to move wins against every reply (UVa 10111, where x is to move). One instance answers
/// a whole batch with a shared transposition table.
pub struct WinningMove {
    solver: Solver<MnkGame>,
}

impl WinningMove {
    /// A solver for boards of `geometry`, with [`default_tt_bits`].
    ///
    /// # Errors
    /// [`SolveError::TooLarge`] for boards of more than 40 cells.
    pub fn new(geometry: Geometry) -> Result<Self, SolveError> {
        Self::with_tt_bits(geometry, default_tt_bits(geometry))
    }

    /// A solver for boards of `geometry` with a TT of `2^tt_bits` entries.
    ///
    /// # Errors
    /// [`SolveError::TooLarge`] for boards of more than 40 cells.
    pub fn with_tt_bits(geometry: Geometry, tt_bits: u32) -> Result<Self, SolveError> {
        Ok(WinningMove { solver: Solver::new(MnkGame::new(geometry, Scoring::WinLoss)?, tt_bits) })
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
        self.solver.game().check(pos)?;
        if pos.is_over() || !self.solver.value_exceeds(pos, 0) {
            return Ok(None);
        }
        for cell in pos.legal_moves() {
            let (child, _) = self.solver.game().play(pos, cell);
            // The child's value is from the opponent's side: -1 means the mover wins.
            if !self.solver.value_exceeds(&child, -1) {
                return Ok(Some(cell));
            }
        }
        debug_assert!(false, "a won position has a winning move");
        Ok(None)
    }

    /// The underlying solver (win = +1, draw = 0, loss = -1 from the side to move), e.g. for
    /// [`Solver::analyze`].
    pub fn solver(&mut self) -> &mut Solver<MnkGame> {
        &mut self.solver
    }
}

/// Scores positions under CCF's rule: a win is worth the number of empty cells + 1, from x's
/// (Alice's) side, under perfect play. One instance answers a whole batch with a shared
/// transposition table.
pub struct BoardEval {
    solver: Solver<MnkGame>,
}

impl BoardEval {
    /// An evaluator for boards of `geometry` ([`Geometry::CCF`] for the contest), with
    /// [`default_tt_bits`].
    ///
    /// # Errors
    /// [`SolveError::TooLarge`] for boards of more than 40 cells.
    pub fn new(geometry: Geometry) -> Result<Self, SolveError> {
        let game = MnkGame::new(geometry, Scoring::EmptyPlusOne)?;
        Ok(BoardEval { solver: Solver::new(game, default_tt_bits(geometry)) })
    }

    /// The score of `pos` under perfect play from x's (Alice's) side, whoever is to move:
    /// `empty + 1` at the end of a game x wins, `-(empty + 1)` if o wins, `0` for a draw.
    ///
    /// # Errors
    /// [`SolveError::GeometryMismatch`] if `pos` is on another board.
    pub fn evaluate(&mut self, pos: &Position) -> Result<Value, SolveError> {
        self.solver.game().check(pos)?;
        let sign = self.solver.game().to_move(pos).sign();
        Ok(sign * self.solver.solve(pos))
    }

    /// The underlying solver (values from the side to move), e.g. for [`Solver::analyze`].
    pub fn solver(&mut self) -> &mut Solver<MnkGame> {
        &mut self.solver
    }
}
