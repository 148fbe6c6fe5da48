//! Solves one position given as a move string (empty for the empty board) and prints the score
//! (or the outcome with `--weak`), the nodes and the time.
//!
//! Usage: `solve_position [--weak] [--tt-bits N] [--threads N] [--size WxH] [MOVES]` (threads:
//! lazy SMP over the shared TT, 1 by default).

use std::time::Instant;

use connect_four::{Geometry, Position, Solver};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let weak = args.iter().any(|a| a == "--weak");
    let value_of = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let bits = value_of("--tt-bits").map_or(Ok(connect_four::DEFAULT_TT_BITS), |v| v.parse())?;
    let threads: usize = value_of("--threads").map_or(Ok(1), |v| v.parse())?;
    let geom = match value_of("--size") {
        Some(s) => {
            let (w, h) = s.split_once('x').ok_or("--size WxH")?;
            Geometry::new(w.parse()?, h.parse()?)?
        }
        None => Geometry::STANDARD,
    };
    let flags_with_values = ["--tt-bits", "--size", "--threads"];
    let moves = args
        .iter()
        .enumerate()
        .filter(|(i, a)| {
            !a.starts_with("--") && (*i == 0 || !flags_with_values.contains(&args[i - 1].as_str()))
        })
        .map(|(_, a)| a.clone())
        .next()
        .unwrap_or_default();
    let pos = Position::parse(geom, &moves)?;
    let mut solver = Solver::with_threads(geom, bits, threads);
    let t = Instant::now();
    let answer = if weak { format!("{:?}", solver.weak(&pos)) } else { solver.score(&pos).to_string() };
    let s = solver.stats();
    println!(
        "{}x{} \"{moves}\" {} {answer} nodes {} time {:.2} s tt 2^{bits} threads {threads}",
        geom.width(),
        geom.height(),
        if weak { "weak" } else { "score" },
        s.nodes,
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
