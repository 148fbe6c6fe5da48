//! Compares alpha-beta (null window, TT) with df-pn on the Maker-Breaker game of the empty
//! m,n,k board ("can x complete a line at all?"):
//! `cargo run --release -p tic-tac-toe --example maker_breaker -- ROWS COLS K [SECONDS]`.
//! Prints each algorithm's answer, nodes and time; each stops after SECONDS (default 60).

use std::time::{Duration, Instant};

use search_core::reference::{Proof, ProofSearch};
use search_core::{Engine, Limits};
use tic_tac_toe::{Bitboard, Geometry, MakerBreaker};

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().expect("a number")).collect();
    let (rows, cols, k) = (args[0], args[1], args[2]);
    let seconds = args.get(3).copied().unwrap_or(60) as u64;
    let geometry = Geometry::new(rows, cols, k).expect("a board up to 8x8");
    let game = MakerBreaker::new(geometry);
    let root = game.position(Bitboard::EMPTY, Bitboard::EMPTY, true);

    let start = Instant::now();
    let pairing = game.pairing(&root, 10_000_000);
    println!("pairing of the empty board: {pairing:?} ({:.3} s)", start.elapsed().as_secs_f64());

    let mut ab = Engine::new(game.clone(), 24);
    ab.set_limits(Limits { time: Some(Duration::from_secs(seconds)), ..Limits::default() });
    let start = Instant::now();
    let answer = match ab.try_search(&root, 0, 1) {
        Ok(v) => if v > 0 { "Maker wins" } else { "Breaker wins" }.to_string(),
        Err(_) => "unknown (time limit)".to_string(),
    };
    println!(
        "alpha-beta: {answer:20} {:>12} nodes {:>9.3} s",
        ab.stats().nodes,
        start.elapsed().as_secs_f64()
    );

    let mut pns = ProofSearch::new(game);
    // About a second's worth of expansions per second allowed.
    pns.set_node_budget(seconds * 300_000);
    let start = Instant::now();
    let answer = match pns.value_exceeds(&root, 0) {
        Proof::Proved => "Maker wins",
        Proof::Disproved => "Breaker wins",
        Proof::Unknown => "unknown (budget)",
    };
    println!(
        "df-pn:      {answer:20} {:>12} nodes {:>9.3} s  ({} TT entries)",
        pns.stats().nodes,
        start.elapsed().as_secs_f64(),
        pns.tt_len()
    );
}
