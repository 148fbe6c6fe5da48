//! Fits the weights of the 8x8 evaluation ([`othello::EVAL_WEIGHTS`]): plays positions out
//! from the FFO positions to a random number of empties, labels each with its exact score
//! (the engine), and fits the score in [`othello::DISC`] units as a linear sum of
//! [`othello::evaluation_terms`] by least squares (no constant: the evaluation is
//! antisymmetric). Prints the weights scaled so that mobility is worth 16 (the crate's
//! scale), and the correlation of the fitted and of the crate's evaluation with the scores.
//!
//! `cargo run --release -p othello-solver --example fit_eval -- [COUNT] [SEED] [MIN_EMPTIES]
//! [MAX_EMPTIES] [OBF_DIR]`, defaults 2000, 2, 10, 20 and `../shared/othello` (the files
//! `fforum-1-19.obf` ... `fforum-60-79.obf`): the crate's weights, in about a minute and a
//! half on one core.

use othello::{
    evaluation_terms, parse_obf_line, search_options, Geometry, Move, Othello, Position, DISC, EVAL_TERMS,
    EVAL_WEIGHTS,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use search_core::Engine;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut number = |default: u64| args.next().and_then(|a| a.parse().ok()).unwrap_or(default);
    let (count, seed, lo, hi) = (number(2000) as usize, number(2), number(10) as u32, number(20) as u32);
    let dir = std::env::args().nth(5).unwrap_or_else(|| "../shared/othello".to_string());
    let g = Geometry::standard();
    let mut starts = Vec::new();
    for name in ["fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf", "fforum-60-79.obf"] {
        let path = format!("{dir}/{name}");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            eprintln!("{path}: {e}");
            std::process::exit(1)
        });
        starts.extend(text.lines().filter_map(|l| parse_obf_line(g, l).ok()));
    }
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut solver = Engine::with_options(Othello::new(g), search_options(20, 1));
    // One row per position: its terms and its exact score in DISC units.
    let mut rows: Vec<([f64; EVAL_TERMS], f64)> = Vec::with_capacity(count);
    while rows.len() < count {
        let mut pos: Position = starts[rng.gen_range(0..starts.len())];
        let target = rng.gen_range(lo..=hi);
        if pos.empty().count() < target {
            continue;
        }
        while pos.empty().count() > target && !pos.is_over() {
            let moves = pos.legal_moves();
            // Mostly a move that leaves the opponent few replies (a plausible game), ties
            // broken at random; now and then any move.
            let mv = if rng.gen_bool(0.3) {
                moves[rng.gen_range(0..moves.len())]
            } else {
                *moves
                    .iter()
                    .min_by_key(|&&m| evaluation_terms(&pos.play(m))[0] * 4 + rng.gen_range(0..6))
                    .unwrap()
            };
            pos = pos.play(mv);
        }
        if pos.is_over() || pos.legal_moves() == vec![Move::Pass] {
            continue;
        }
        let score = (solver.solve(&pos) * i64::from(DISC)) as f64;
        rows.push((evaluation_terms(&pos).map(f64::from), score));
    }
    // The normal equations (X^T X) w = X^T y, solved by Gaussian elimination.
    let mut a = [[0.0f64; EVAL_TERMS + 1]; EVAL_TERMS];
    for (x, y) in &rows {
        for i in 0..EVAL_TERMS {
            for j in 0..EVAL_TERMS {
                a[i][j] += x[i] * x[j];
            }
            a[i][EVAL_TERMS] += x[i] * y;
        }
    }
    for col in 0..EVAL_TERMS {
        let pivot = (col..EVAL_TERMS).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs())).unwrap();
        a.swap(col, pivot);
        let pivot_row = a[col];
        for (row, line) in a.iter_mut().enumerate() {
            if row != col {
                let f = line[col] / pivot_row[col];
                for (x, p) in line.iter_mut().zip(pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    let w: Vec<f64> = (0..EVAL_TERMS).map(|i| a[i][EVAL_TERMS] / a[i][i]).collect();
    let correlation = |weights: &[f64]| {
        let predicted: Vec<f64> =
            rows.iter().map(|(x, _)| x.iter().zip(weights).map(|(x, w)| x * w).sum()).collect();
        let scores: Vec<f64> = rows.iter().map(|r| r.1).collect();
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let (mp, ms) = (mean(&predicted), mean(&scores));
        let cov: f64 = predicted.iter().zip(&scores).map(|(p, s)| (p - mp) * (s - ms)).sum();
        let var = |v: &[f64], m: f64| v.iter().map(|x| (x - m) * (x - m)).sum::<f64>();
        cov / (var(&predicted, mp) * var(&scores, ms)).sqrt()
    };
    let scaled: Vec<i64> = w.iter().map(|x| (x * 16.0 / w[0]).round() as i64).collect();
    println!("{} positions of {lo} to {hi} empties", rows.len());
    println!("fitted (DISC units): {:?}", w.iter().map(|x| (x * 10.0).round() / 10.0).collect::<Vec<_>>());
    println!("weights scaled to mobility 16: {scaled:?}");
    println!(
        "correlation with the scores: fitted {:.3}, the crate's {:.3}",
        correlation(&w),
        correlation(&EVAL_WEIGHTS.map(f64::from))
    );
}
