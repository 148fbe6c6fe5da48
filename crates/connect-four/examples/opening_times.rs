//! How deep an opening book must be: the time and nodes of what `games-cli play connect-four`
//! computes for a reply (the leftmost best column: the score, then null-window tests), with
//! `--scores` also every column's exact score by another fresh solver, and with `--pv` then a
//! hint (the analysis: the scores and the principal variation), on random positions after a
//! number of stones, each by a fresh solver with the default TT; and the replies of the solver
//! in random games (the other side plays uniformly random columns), one session solver per
//! game, as `play` keeps it. The solvers read the book given, or the bundled one
//! (`--no-book`: none). A reference, the score of `4453` by a fresh solver without a book, is
//! measured in the same run.
//!
//! Usage: `opening_times [--book FILE | --no-book] [--plies 6,8,10,12] [--count 10] [--games 0]
//! [--seed 76] [--threads 1] [--scores] [--pv] [--skip-reference]` (7 x 6).

use std::sync::Arc;
use std::time::Instant;

use connect_four::{ConnectFourFront, Geometry, Position, Solver};
use game_front::{Front, Solver as _, SolverSettings};
use rand::{Rng, SeedableRng};
use search_core::{Book, Limits};

/// A position of `stones` random moves that nobody has won (retried otherwise).
fn random_position(rng: &mut impl Rng, geom: Geometry, stones: usize) -> Position {
    'retry: loop {
        let mut pos = Position::empty(geom);
        for _ in 0..stones {
            let cols: Vec<usize> = pos.legal_columns().map(|c| c.index()).collect();
            if cols.is_empty() || pos.is_won() {
                continue 'retry;
            }
            pos = pos.play(cols[rng.gen_range(0..cols.len())]);
        }
        if !pos.is_won() && !pos.is_full() {
            return pos;
        }
    }
}

/// The median and the largest of `xs` (sorted here).
fn median_max(xs: &mut [f64]) -> (f64, f64) {
    xs.sort_by(f64::total_cmp);
    (xs[xs.len() / 2], xs[xs.len() - 1])
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value_of = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let plies: Vec<usize> = value_of("--plies")
        .unwrap_or_else(|| "6,8,10,12".into())
        .split(',')
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    let count: usize = value_of("--count").map_or(Ok(10), |v| v.parse())?;
    let games: usize = value_of("--games").map_or(Ok(0), |v| v.parse())?;
    let seed: u64 = value_of("--seed").map_or(Ok(76), |v| v.parse())?;
    let geom = Geometry::STANDARD;
    let book = match value_of("--book") {
        Some(path) => {
            let book = Book::from_bytes(&std::fs::read(&path)?).map_err(|e| format!("--book {path}: {e}"))?;
            Some(Arc::new(book))
        }
        None => None,
    };
    let front = ConnectFourFront::with_geometry(geom);
    if let Some(b) = &book {
        front.check_book(b)?;
        println!("book: {} entries, {} plies", b.len(), b.plies());
    }
    let no_bundled_book = args.iter().any(|a| a == "--no-book");
    let threads = value_of("--threads").map(|v| v.parse()).transpose()?;
    let settings =
        SolverSettings { book: book.clone(), no_bundled_book, threads, ..SolverSettings::default() };
    if let Some(b) = front.solver(settings.clone()).book() {
        println!("the solvers read a book of {} entries, {} plies", b.len(), b.plies());
    }
    if !args.iter().any(|a| a == "--skip-reference") {
        let mut reference = Solver::new(geom);
        let t = Instant::now();
        let score = reference.score(&Position::parse(geom, "4453")?);
        println!(
            "reference: 4453 scored {score} without a book, {} nodes, {:.2} s",
            reference.stats().nodes,
            t.elapsed().as_secs_f64()
        );
    }
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    for &stones in &plies {
        let (mut times, mut nodes, mut hits) = (Vec::new(), Vec::new(), 0);
        let (mut score_times, mut score_nodes) = (Vec::new(), Vec::new());
        let (mut pv_times, mut pv_nodes) = (Vec::new(), Vec::new());
        for _ in 0..count {
            let pos = random_position(&mut rng, geom, stones);
            let mut leftmost = None;
            if args.iter().any(|a| a == "--scores") {
                let mut solver = front.solver(settings.clone());
                let t = Instant::now();
                let scores = solver.column_scores(&pos);
                score_times.push(t.elapsed().as_secs_f64());
                score_nodes.push(solver.stats().nodes as f64);
                let best = scores.iter().map(|&(_, s)| s).max().expect("moves");
                leftmost = scores.iter().find(|&&(_, s)| s == best).map(|&(c, _)| c);
            }
            let mut solver = front.solver(settings.clone());
            let t = Instant::now();
            let reply = solver.try_best_column(&pos).expect("no limits");
            times.push(t.elapsed().as_secs_f64());
            if let Some(leftmost) = leftmost {
                assert_eq!(reply, leftmost, "{}", pos.moves_string());
            }
            nodes.push(solver.stats().nodes as f64);
            if args.iter().any(|a| a == "--pv") {
                let analysis = solver.analyze(&pos);
                assert!(analysis.moves.iter().any(|m| m.mv == reply));
            }
            pv_times.push(t.elapsed().as_secs_f64());
            pv_nodes.push(solver.stats().nodes as f64);
            hits += solver.stats().book_hits;
        }
        let (tm, tx) = median_max(&mut times);
        let (nm, nx) = median_max(&mut nodes);
        let (am, ax) = median_max(&mut pv_times);
        let (anm, anx) = median_max(&mut pv_nodes);
        print!(
            "{stones:2} stones, {count} positions: the reply median {tm:.3} s, max {tx:.3} s, nodes median {nm:.0}, max {nx:.0}"
        );
        if !score_times.is_empty() {
            let (sm, sx) = median_max(&mut score_times);
            let (snm, snx) = median_max(&mut score_nodes);
            print!(
                "; every column's score median {sm:.3} s, max {sx:.3} s, nodes median {snm:.0}, max {snx:.0}"
            );
        }
        if args.iter().any(|a| a == "--pv") {
            print!(
                "; with the analysis median {am:.3} s, max {ax:.3} s, nodes median {anm:.0}, max {anx:.0}"
            );
        }
        println!("; book hits {hits}");
    }
    if games > 0 {
        let (mut times, mut nodes) = (Vec::new(), Vec::new());
        let mut worst = (0.0, String::new());
        for _ in 0..games {
            let mut solver = front.solver(settings.clone());
            let mut pos = Position::empty(geom);
            let solver_moves = rng.gen_range(0..2);
            while !pos.is_won() && !pos.is_full() {
                let col = if pos.moves_played() % 2 == solver_moves {
                    let before = solver.stats().nodes;
                    let t = Instant::now();
                    let mv = solver.try_best_move(&pos, Limits::default()).expect("no limits");
                    let secs = t.elapsed().as_secs_f64();
                    if secs > worst.0 {
                        worst = (secs, pos.moves_string());
                    }
                    times.push(secs);
                    nodes.push((solver.stats().nodes - before) as f64);
                    mv.index()
                } else {
                    let cols: Vec<usize> = pos.legal_columns().map(|c| c.index()).collect();
                    cols[rng.gen_range(0..cols.len())]
                };
                pos = pos.play(col);
            }
        }
        let replies = times.len();
        let slow = times.iter().filter(|&&t| t > 1.0).count();
        let (tm, tx) = median_max(&mut times);
        let (nm, nx) = median_max(&mut nodes);
        println!(
            "{games} random games, {replies} replies: median {tm:.3} s, worst {tx:.3} s (after \"{}\"), {slow} over 1 s; nodes median {nm:.0}, max {nx:.0}",
            worst.1
        );
    }
    Ok(())
}
