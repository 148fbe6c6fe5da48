//! How the work of a board grows with the lines left: random openings (lines drawn at random
//! among those that give no box its third side) with `L` lines left, each solved exactly with
//! a fresh TT, the median nodes per `L`, and the growth factor per line between the two
//! largest `L` solved within the node budget; then the estimate for the empty board (on 3x4,
//! where the empty board is solved in 12.5 M nodes, the estimate is about 3 times too high:
//! the empty board's symmetry and transpositions make it cheaper than a random opening). `cargo run --release -p dots-and-boxes --example boxes_growth -- SIZE
//! [--left L1,L2,..] [--samples N] [--tt-bits B] [--budget NODES] [--seed S]`.

use std::time::Instant;

use dots_and_boxes::{Geometry, Position, Solver};
use rand::{rngs::SmallRng, Rng, SeedableRng};
use search_core::Limits;

/// An opening with `left` lines left, drawn safely, or `None` when the safe lines run out first.
fn opening(g: &Geometry, rng: &mut SmallRng, left: usize) -> Option<u64> {
    let board = g.board();
    let mut drawn = 0u64;
    while g.line_count() - drawn.count_ones() as usize > left {
        let safe: Vec<usize> = (0..g.line_count())
            .filter(|&l| drawn >> l & 1 == 0)
            .filter(|&l| board.border(l).masks.iter().all(|&m| m == 0 || (m & drawn).count_ones() < 2))
            .collect();
        if safe.is_empty() {
            return None;
        }
        drawn |= 1 << safe[rng.gen_range(0..safe.len())];
    }
    Some(drawn)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let size = args.next().expect("a size RxC");
    let (r, c) = dots_and_boxes::parse_size(&size).expect("a size RxC");
    let g = Geometry::new(r, c).expect("a board of at most 64 lines");
    let mut lefts: Vec<usize> = Vec::new();
    let (mut samples, mut tt_bits, mut budget, mut seed) = (8usize, 22u32, 200_000_000u64, 1u64);
    while let Some(a) = args.next() {
        let mut value = || args.next().expect("a value after the option");
        match a.as_str() {
            "--left" => lefts = value().split(',').map(|l| l.parse().expect("a number")).collect(),
            "--samples" => samples = value().parse().expect("a number"),
            "--tt-bits" => tt_bits = value().parse().expect("a number"),
            "--budget" => budget = value().parse().expect("a number"),
            "--seed" => seed = value().parse().expect("a number"),
            other => panic!("unknown option {other}"),
        }
    }
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut medians = Vec::new();
    println!(
        "{size}: {} lines; {samples} safe openings per row, TT 2^{tt_bits}, budget {budget} nodes",
        g.line_count()
    );
    println!(
        "{:>5} {:>8} {:>14} {:>14} {:>14} {:>9}",
        "left", "solved", "min nodes", "median nodes", "max nodes", "seconds"
    );
    for &left in &lefts {
        let mut nodes = Vec::new();
        let mut unsolved = 0;
        let t = Instant::now();
        for _ in 0..samples {
            let Some(drawn) = (0..100).find_map(|_| opening(&g, &mut rng, left)) else { break };
            let mut solver = Solver::new(g.clone(), tt_bits);
            solver.set_limits(Limits { max_nodes: Some(budget), ..Limits::default() });
            let pos = Position::from_drawn(&g, drawn).expect("a line set of the board");
            match solver.try_value(&pos) {
                Ok(_) => nodes.push(solver.stats().nodes),
                Err(_) => unsolved += 1,
            }
        }
        nodes.sort_unstable();
        if nodes.is_empty() || unsolved > 0 {
            println!(
                "{left:>5} {:>8} {:>14}",
                format!("{}/{}", nodes.len(), nodes.len() + unsolved),
                "over budget"
            );
            continue;
        }
        let median = nodes[nodes.len() / 2];
        println!(
            "{left:>5} {:>8} {:>14} {:>14} {:>14} {:>9.1}",
            format!("{}/{}", nodes.len(), nodes.len()),
            nodes[0],
            median,
            nodes[nodes.len() - 1],
            t.elapsed().as_secs_f64()
        );
        medians.push((left, median as f64));
    }
    if let [.., (l0, n0), (l1, n1)] = medians[..] {
        if l1 > l0 {
            let factor = (n1 / n0).powf(1.0 / (l1 - l0) as f64);
            let estimate = n1 * factor.powi((g.line_count() - l1) as i32);
            println!(
                "growth {factor:.2}x per line; empty board ({} lines): about {estimate:.2e} nodes",
                g.line_count()
            );
        }
    }
}
