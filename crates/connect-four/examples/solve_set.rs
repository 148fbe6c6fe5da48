//! Solves `MOVES SCORE` lines from stdin, checking every score; prints per-position nodes and
//! time, then the mean. Usage: `solve_set [--weak] [--tt-bits N] < testdata/connect-four/Test_L1_R2`.

use std::io::BufRead;
use std::time::Instant;

use connect_four::{parse_line, Geometry, Outcome, Solver};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let weak = args.iter().any(|a| a == "--weak");
    let bits = args.iter().position(|a| a == "--tt-bits").map_or(24, |i| args[i + 1].parse().unwrap());
    let verbose = args.iter().any(|a| a == "-v");
    let mut solver = Solver::with_tt_bits(Geometry::STANDARD, bits);
    let (mut n, mut nodes, mut secs, mut bad) = (0u64, 0u64, 0f64, 0);
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let l = parse_line(Geometry::STANDARD, &line).unwrap();
        solver.clear();
        solver.reset_stats();
        let t = Instant::now();
        let got = if weak { solver.weak(&l.position).sign() } else { solver.score(&l.position) };
        let dt = t.elapsed().as_secs_f64();
        let expect = if weak { Outcome::of_score(l.score).sign() } else { l.score };
        if got != expect {
            bad += 1;
            eprintln!("WRONG {line}: got {got}");
        }
        let nd = solver.stats().nodes;
        if verbose {
            println!("{line} {got} {nd} {:.0}", dt * 1e9);
        }
        n += 1;
        nodes += nd;
        secs += dt;
    }
    println!("{n} positions, {bad} wrong, mean {:.3} ms, mean nodes {:.0}", secs / n as f64 * 1e3, nodes as f64 / n as f64);
}
