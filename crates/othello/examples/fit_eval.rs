//! Fits the 8x8 evaluation: the weights of its seven global terms ([`othello::EVAL_WEIGHTS`])
//! and of its edge, corner, line and diagonal patterns (the file
//! `crates/othello/src/patterns.bin`). Plays positions out from the FFO positions to a random
//! number of empties, labels each with its exact score (the engine, one per thread), then
//! fits the score in [`othello::DISC`] units: the global terms by least squares (no
//! constant: the evaluation is antisymmetric), the patterns on what the terms leave, by
//! gradient steps over every position and its colour-swapped image. A tenth of the positions
//! is held out: the correlation of the evaluation with their scores is printed.
//!
//! `cargo run --release -p othello-solver --example fit_eval -- [COUNT] [SEED] [MIN_EMPTIES]
//! [MAX_EMPTIES] [OBF_DIR] [DATA] [OUT]`, defaults 120000, 2, 12, 20, `../shared/othello`
//! (the files `fforum-1-19.obf` ... `fforum-60-79.obf`), no data file and no output: the
//! labelled positions are read from `DATA` if it exists (one `BOARD SIDE SCORE` line each)
//! and written to it otherwise; the pattern weights are written to `OUT` (little-endian
//! `i16`, [`othello::PATTERN_WEIGHTS`] of them). The crate's weights come from the defaults
//! with `OUT` = `crates/othello/src/patterns.bin`: about half an hour of labelling on two
//! threads (a 2-core x86-64 VM), then two seconds of fitting.

use std::io::Write;

use othello::{
    colour_swapped, evaluation_terms, obf_line, parse_obf_line, pattern_evaluation, pattern_features,
    search_options, Geometry, Move, Othello, Position, DISC, EVAL_TERMS, EVAL_WEIGHTS, PATTERN_INSTANCES,
    PATTERN_WEIGHTS,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use search_core::Engine;

/// Positions played out from the FFO positions in `dir`: `count` of them, each with a random
/// number of empties in `lo..=hi`, not finished and with a move.
fn positions(dir: &str, count: usize, seed: u64, lo: u32, hi: u32) -> Vec<Position> {
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
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
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
        out.push(pos);
    }
    out
}

/// The exact score of each position, by two threads with an engine each.
fn label(positions: &[Position]) -> Vec<i64> {
    let g = Geometry::standard();
    let half = positions.len().div_ceil(2);
    std::thread::scope(|s| {
        let parts: Vec<_> = positions
            .chunks(half.max(1))
            .map(|chunk| {
                s.spawn(move || {
                    let mut solver = Engine::with_options(Othello::new(g), search_options(20, 1));
                    chunk.iter().map(|p| solver.solve(p)).collect::<Vec<i64>>()
                })
            })
            .collect();
        parts.into_iter().flat_map(|h| h.join().unwrap()).collect()
    })
}

/// The Pearson correlation of `a` and `b`.
fn correlation(a: &[f64], b: &[f64]) -> f64 {
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (ma, mb) = (mean(a), mean(b));
    let cov: f64 = a.iter().zip(b).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let var = |v: &[f64], m: f64| v.iter().map(|x| (x - m) * (x - m)).sum::<f64>();
    cov / (var(a, ma) * var(b, mb)).sqrt()
}

/// The least-squares weights of `rows` (terms, score), no constant: the normal equations
/// solved by Gaussian elimination.
fn least_squares(rows: &[([f64; EVAL_TERMS], f64)]) -> [f64; EVAL_TERMS] {
    let mut a = [[0.0f64; EVAL_TERMS + 1]; EVAL_TERMS];
    for (x, y) in rows {
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
    std::array::from_fn(|i| a[i][EVAL_TERMS] / a[i][i])
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (count, seed, lo, hi) =
        (number(0, 120000) as usize, number(1, 2), number(2, 12) as u32, number(3, 20) as u32);
    let dir = args.get(4).cloned().unwrap_or_else(|| "../shared/othello".to_string());
    let data = args.get(5);
    let out = args.get(6);
    let g = Geometry::standard();

    // The labelled positions: read, or played out, solved and written.
    let mut samples: Vec<(Position, i64)> = Vec::new();
    if let Some(text) = data.and_then(|d| std::fs::read_to_string(d).ok()) {
        for line in text.lines() {
            let (board, score) = line.rsplit_once(' ').expect("a line BOARD SIDE SCORE");
            samples
                .push((parse_obf_line(g, board).expect("an OBF position"), score.parse().expect("a score")));
        }
    } else {
        let start = std::time::Instant::now();
        let found = positions(&dir, count, seed, lo, hi);
        let scores = label(&found);
        samples = found.into_iter().zip(scores).collect();
        eprintln!("labelled {} positions in {:.1} s", samples.len(), start.elapsed().as_secs_f64());
        if let Some(d) = data {
            let mut f = std::io::BufWriter::new(std::fs::File::create(d).expect("the data file"));
            for (p, s) in &samples {
                writeln!(f, "{} {s}", obf_line(p)).expect("write the data file");
            }
        }
    }
    let held = samples.len() / 10;
    let (test, train) = samples.split_at(held);

    // The global terms by least squares.
    let rows: Vec<([f64; EVAL_TERMS], f64)> = train
        .iter()
        .map(|(p, s)| (evaluation_terms(p).map(f64::from), (*s * i64::from(DISC)) as f64))
        .collect();
    let w = least_squares(&rows);
    let linear = |p: &Position, w: &[f64]| -> f64 {
        evaluation_terms(p).iter().zip(w).map(|(&t, w)| f64::from(t) * w).sum()
    };

    // The patterns on the rest, every position also with the colours swapped (the score
    // negated), so that the weights come out antisymmetric.
    let mut features: Vec<([u32; PATTERN_INSTANCES], f64)> = Vec::with_capacity(2 * train.len());
    for (p, s) in train {
        let rest = (*s * i64::from(DISC)) as f64 - linear(p, &w);
        let (b, o) = (p.player().0, p.opponent().0);
        features.push((pattern_features(b, o), rest));
        features.push((pattern_features(o, b), -rest));
    }
    let mut weights = vec![0.0f64; PATTERN_WEIGHTS];
    let mut seen = vec![0u32; PATTERN_WEIGHTS];
    for (f, _) in &features {
        for &i in f {
            seen[i as usize] += 1;
        }
    }
    // Each weight moves by a share of the mean residual of the positions it occurs in,
    // shrunk towards 0 where it occurs seldom.
    let (rate, shrink) = (1.0 / PATTERN_INSTANCES as f64 * 2.0, 4.0);
    let mut sums = vec![0.0f64; PATTERN_WEIGHTS];
    for epoch in 0..400 {
        sums.iter_mut().for_each(|s| *s = 0.0);
        let mut error = 0.0;
        for (f, y) in &features {
            let r = y - f.iter().map(|&i| weights[i as usize]).sum::<f64>();
            error += r * r;
            for &i in f {
                sums[i as usize] += r;
            }
        }
        for i in 0..PATTERN_WEIGHTS {
            weights[i] += rate * sums[i] / (f64::from(seen[i]) + shrink);
        }
        if epoch % 50 == 0 {
            eprintln!("epoch {epoch}: rms residual {:.1}", (error / features.len() as f64).sqrt());
        }
    }
    // Exactly antisymmetric: a configuration and its colour swap (digits 1 and 2 exchanged,
    // inside the same table) get opposite weights.
    for i in 0..PATTERN_WEIGHTS {
        let j = colour_swapped(i);
        if i < j {
            let v = (weights[i] - weights[j]) / 2.0;
            (weights[i], weights[j]) = (v, -v);
        } else if i == j {
            weights[i] = 0.0;
        }
    }
    // The crate's scale: a point of mobility is worth 16.
    let scale = 16.0 / w[0];
    let scaled: Vec<f64> = w.iter().map(|x| (x * scale).round()).collect();
    let table: Vec<i16> =
        weights.iter().map(|&x| (x * scale).round().clamp(-30000.0, 30000.0) as i16).collect();

    // Held-out positions: the correlation with their scores.
    let scores: Vec<f64> = test.iter().map(|(_, s)| *s as f64).collect();
    let crate_terms: Vec<f64> = test.iter().map(|(p, _)| linear(p, &EVAL_WEIGHTS.map(f64::from))).collect();
    let fitted_terms: Vec<f64> = test.iter().map(|(p, _)| linear(p, &w)).collect();
    let with_patterns: Vec<f64> = test
        .iter()
        .map(|(p, _)| {
            linear(p, &scaled) + f64::from(pattern_evaluation(&table, p.player().0, p.opponent().0))
        })
        .collect();
    println!("{} positions of {lo} to {hi} empties, {held} held out", samples.len());
    println!(
        "fitted terms (DISC units): {:?}",
        w.iter().map(|x| (x * 10.0).round() / 10.0).collect::<Vec<_>>()
    );
    println!("weights scaled to mobility 16: {scaled:?}");
    println!(
        "held-out correlation with the scores: the crate's terms {:.3}, fitted terms {:.3}, with patterns {:.3}",
        correlation(&crate_terms, &scores),
        correlation(&fitted_terms, &scores),
        correlation(&with_patterns, &scores)
    );
    if let Some(out) = out {
        let bytes: Vec<u8> = table.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(out, bytes).expect("write the pattern weights");
        println!("wrote {} pattern weights to {out}", table.len());
    }
}
