//! Solves the empty board of a given side (default 4) and prints the final margin and the
//! search statistics: `cargo run --release -p triangle-war --example solve_empty -- 4`.

use triangle_war::{Geometry, Position, Solver};

fn main() {
    let side = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    let geometry = Geometry::new(side).expect("side 1 to 6");
    let mut solver = Solver::new(geometry, 22);
    let margin = solver.final_margin(&Position::start());
    let stats = solver.engine().stats();
    println!(
        "side {side}: final margin {margin:+} (A minus B); {} nodes, {} TT probes, {} hits, {} cutoffs, {:.2?}",
        stats.nodes, stats.tt_probes, stats.tt_hits, stats.cutoffs, stats.elapsed
    );
}
