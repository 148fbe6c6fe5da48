//! Compares alpha-beta (null windows, TT) with df-pn on the empty m,n,k board:
//! `cargo run --release -p tic-tac-toe --example pns_vs_alphabeta -- ROWS COLS K [NODE_BUDGET]`.
//! Prints, for the two questions "does x win?" and "does o win?", each algorithm's answer,
//! nodes and time (alpha-beta only without a budget).

use std::time::Instant;

use search_core::reference::{Proof, ProofSearch};
use search_core::Engine;
use tic_tac_toe::{default_tt_bits, Geometry, MnkGame, Position, Scoring};

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().expect("a number")).collect();
    let (rows, cols, k) = (args[0], args[1], args[2]);
    let budget = args.get(3).map_or(u64::MAX, |&b| b as u64);
    let geometry = Geometry::new(rows, cols, k).expect("a board up to 8x8");
    let game = MnkGame::new(geometry, Scoring::WinLoss);
    let root = Position::empty(geometry);
    // "x wins" is value > 0 for x; "o wins" is value <= -1, i.e. not (value > -1).
    for (question, t) in [("x wins", 0), ("o wins", -1)] {
        let mut pns = ProofSearch::new(game.clone());
        pns.set_node_budget(budget);
        let start = Instant::now();
        let answer = match pns.value_exceeds(&root, t) {
            Proof::Unknown => "unknown".to_string(),
            p => ((p == Proof::Proved) == (t == 0)).to_string(),
        };
        println!(
            "df-pn      {question}: {answer:7} {:>12} nodes {:>9.3} s  ({} TT entries)",
            pns.stats().nodes,
            start.elapsed().as_secs_f64(),
            pns.tt_len()
        );
        if budget == u64::MAX {
            let mut ab = Engine::new(game.clone(), default_tt_bits(geometry).max(22));
            let start = Instant::now();
            let answer = ab.value_exceeds(&root, t) == (t == 0);
            println!(
                "alpha-beta {question}: {answer:7} {:>12} nodes {:>9.3} s",
                ab.stats().nodes,
                start.elapsed().as_secs_f64()
            );
        }
    }
}
