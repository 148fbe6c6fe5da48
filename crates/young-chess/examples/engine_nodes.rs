//! Prints the search-core engine's statistics on a random board:
//! `cargo run --release -p young-chess --example engine_nodes -- 3 40`.

use young_chess::{Board, YoungGame};

fn main() {
    let arg = |i: usize, d: usize| std::env::args().nth(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (n, m) = (arg(1, 3), arg(2, 40));
    let mut x: u64 = 1;
    let mut next = || {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((x >> 33) % 1000) as i64
    };
    let a: Vec<i64> = (0..n * m).map(|_| next()).collect();
    let b: Vec<i64> = (0..n * m).map(|_| next()).collect();
    let board = Board::new(n, m, a, b).expect("valid board");
    let mut solver = YoungGame::new(&board).solver();
    let v = solver.solve(&board.start());
    let s = solver.stats();
    println!(
        "{n}x{m}: value {v}; {} nodes, {} probes, {} hits, {:.2?}",
        s.nodes, s.tt_probes, s.tt_hits, s.elapsed
    );
}
