//! [`analyze_start`]: the value of every opening move and a principal variation, from the DP
//! table (or the memo on thin boards), for boards too large for the search-core engine's TT.

use std::time::Instant;

use search_core::{analyze_with, Analysis, Stats};

use crate::dp::{DpError, DpTable, MAX_DP_SIDE_SUM};
use crate::{Board, Cell, Memo, YoungGame};

/// Analyses the empty board exactly, as [`search_core::Engine::analyze`] would: the value
/// (Black's score minus White's under perfect play), every legal first move with its value
/// (best first for Black; ties in move-generation order, bottom-left first), and a principal
/// variation to the end of the game (at each step the first move in the game's move order,
/// [`search_core::Game::order_moves`], that keeps the value). Values come from a [`DpTable`] (memory: [`crate::dp::table_memory_estimate`]), or
/// from a [`Memo`] when `n + m > MAX_DP_SIDE_SUM`, through [`search_core::analyze_with`].
/// `stats.nodes` counts the staircases valued; there is no TT, so `tt_probes` and `tt_hits`
/// are 0.
///
/// # Errors
/// None at present for a valid [`Board`] ([`DpError`] is kept for future limits).
pub fn analyze_start(board: &Board) -> Result<Analysis<Cell>, DpError> {
    let start = Instant::now();
    let (n, m) = (board.rows(), board.cols());
    let game = YoungGame::new(board);
    let root = board.start();
    let mut analysis = if n + m <= MAX_DP_SIDE_SUM {
        let table = DpTable::build(board)?;
        let mut analysis = analyze_with(&game, &root, |p| table.value(p));
        analysis.stats.nodes = u64::try_from(crate::dp::staircase_count(n, m)).unwrap_or(u64::MAX);
        analysis
    } else {
        let mut memo = Memo::new(board);
        let mut analysis = analyze_with(&game, &root, |p| memo.value(p));
        analysis.stats.nodes = memo.len() as u64;
        analysis
    };
    analysis.stats = Stats { elapsed: start.elapsed(), ..analysis.stats };
    Ok(analysis)
}
