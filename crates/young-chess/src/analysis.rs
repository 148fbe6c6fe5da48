//! [`analyze_start`]: the value of every opening move and a principal variation, from the DP
//! table (or the memo on thin boards), for boards too large for the search-core engine's TT.

use std::time::Instant;

use search_core::{Analysis, MoveValue, Player, Stats};

use crate::dp::{DpError, DpTable, MAX_DP_SIDE_SUM};
use crate::{Board, Cell, Memo, Staircase};

/// Analyses the empty board exactly, as [`search_core::Solver::analyze`] would: the value
/// (Black's score minus White's under perfect play), every legal first move with its value
/// (best first for Black; ties in move-generation order, bottom-left first), and a principal
/// variation to the end of the game (at each step the first move in generation order that keeps
/// the value). Values come from a [`DpTable`] (memory: [`crate::dp::table_memory_estimate`]), or
/// from a [`Memo`] when `n + m > MAX_DP_SIDE_SUM`. `stats.nodes` counts the staircases valued;
/// there is no TT, so `tt_probes` and `tt_hits` are 0.
///
/// # Errors
/// None at present for a valid [`Board`] ([`DpError`] is kept for future limits).
pub fn analyze_start(board: &Board) -> Result<Analysis<Cell>, DpError> {
    let start = Instant::now();
    let (n, m) = (board.rows(), board.cols());
    let mut oracle = if n + m <= MAX_DP_SIDE_SUM {
        Oracle::Table(DpTable::build(board)?)
    } else {
        let mut memo = Memo::new(board);
        memo.value(&board.start());
        Oracle::Memo(memo)
    };
    let nodes = match &oracle {
        Oracle::Table(_) => u64::try_from(crate::dp::staircase_count(n, m)).unwrap_or(u64::MAX),
        Oracle::Memo(memo) => memo.len() as u64,
    };
    let mut value = |p: &Staircase| oracle.value(p);
    let root = board.start();
    // From Black's side at the root (Black to move): a move's value is A[c] - value(child).
    let root_value = value(&root);
    let mut moves: Vec<MoveValue<Cell>> = root
        .moves()
        .map(|c| {
            let child = root.fill(c).expect("legal move");
            MoveValue { mv: c, value: board.gain(&root, c) - value(&child) }
        })
        .collect();
    moves.sort_by_key(|mv| std::cmp::Reverse(mv.value));
    let mut pv = Vec::new();
    let mut pos = root;
    while !pos.is_full() {
        let v = value(&pos);
        let (c, child) = pos
            .moves()
            .map(|c| (c, pos.fill(c).expect("legal move")))
            .find(|(c, child)| board.gain(&pos, *c) - value(child) == v)
            .expect("some move keeps the value");
        pv.push(c);
        pos = child;
    }
    let stats = Stats { nodes, elapsed: start.elapsed(), ..Stats::default() };
    Ok(Analysis { to_move: Player::First, value: root_value, moves, pv, stats })
}

/// Where exact values come from.
enum Oracle<'a> {
    Table(DpTable),
    Memo(Memo<'a>),
}

impl Oracle<'_> {
    fn value(&mut self, pos: &Staircase) -> i64 {
        match self {
            Oracle::Table(t) => t.value(pos),
            Oracle::Memo(memo) => memo.value(pos),
        }
    }
}
