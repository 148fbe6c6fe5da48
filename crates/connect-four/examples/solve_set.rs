//! Solves `MOVES SCORE` lines from stdin one by one with a cleared TT, as Pons' test protocol
//! does, and prints `MOVES EXPECTED GOT NODES NANOSECONDS` per line (the format of the
//! reference harness used by `cargo xtask c4-bench`); clearing is not timed.
//!
//! Usage: `solve_set [--weak] [--tt-bits N] [--threads N] [--book FILE] <
//! testdata/connect-four/Test_L1_R2` (threads: default `DEFAULT_THREADS`; nodes are summed over
//! the threads; `--book`: an opening book of 7 x 6, kept when the TT is cleared).

use std::io::{BufRead, Write};
use std::time::Instant;

use connect_four::{parse_line, Geometry, Outcome, Solver};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let weak = args.iter().any(|a| a == "--weak");
    let bits = match args.iter().position(|a| a == "--tt-bits") {
        Some(i) => args.get(i + 1).ok_or("--tt-bits needs a value")?.parse()?,
        None => connect_four::DEFAULT_TT_BITS,
    };
    let threads = match args.iter().position(|a| a == "--threads") {
        Some(i) => args.get(i + 1).ok_or("--threads needs a value")?.parse()?,
        None => connect_four::DEFAULT_THREADS,
    };
    let mut solver = Solver::with_threads(Geometry::STANDARD, bits, threads);
    if let Some(i) = args.iter().position(|a| a == "--book") {
        let path = args.get(i + 1).ok_or("--book needs a file")?;
        let book = search_core::Book::from_bytes(&std::fs::read(path)?)
            .map_err(|e| format!("--book {path}: {e}"))?;
        solver.set_book(Some(std::sync::Arc::new(book))).map_err(|e| format!("--book {path}: {e}"))?;
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (i, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line?;
        let l = parse_line(Geometry::STANDARD, &line).map_err(|e| format!("line {}: {e}", i + 1))?;
        solver.clear();
        solver.reset_stats();
        let t = Instant::now();
        let got = if weak { solver.weak(&l.position).sign() } else { i64::from(solver.score(&l.position)) };
        let ns = t.elapsed().as_nanos();
        let expected = if weak { Outcome::of_value(i64::from(l.score)).sign() } else { i64::from(l.score) };
        writeln!(out, "{} {expected} {got} {} {ns}", l.position.moves_string(), solver.stats().nodes)?;
        out.flush()?;
    }
    Ok(())
}
