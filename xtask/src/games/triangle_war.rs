//! Triangle War: random POJ 1085 batches and the benchmark cases.

use rand::{rngs::SmallRng, seq::SliceRandom, Rng, SeedableRng};

use crate::bench_case::BenchCase;

/// Dots joined by segments on a triangle of side `n`, numbered row by row from the apex.
fn segments(n: u32) -> Vec<(u32, u32)> {
    let dot = |r: u32, c: u32| r * (r + 1) / 2 + c + 1;
    let mut segs = Vec::new();
    for r in 0..=n {
        for c in 0..=r {
            if c < r {
                segs.push((dot(r, c), dot(r, c + 1)));
            }
            if r < n {
                segs.push((dot(r, c), dot(r + 1, c)));
                segs.push((dot(r, c), dot(r + 1, c + 1)));
            }
        }
    }
    segs
}

/// `count` games with random move counts (6 to all segments on side 3, 0 to all otherwise)
/// and random distinct segments, each written `i j` or `j i` at random, with a blank line
/// between some games.
pub fn generate(args: &super::gen_args::GenArgs) -> anyhow::Result<String> {
    let side: u32 = args.size.as_deref().unwrap_or("3").parse()?;
    anyhow::ensure!((1..=6).contains(&side), "side must be 1 to 6");
    let mut rng = SmallRng::seed_from_u64(args.seed);
    let mut segs = segments(side);
    let min_moves = if side == 3 { 6 } else { 0 };
    let mut text = format!("{}\n", args.count);
    for _ in 0..args.count {
        if rng.gen_bool(0.1) {
            text.push('\n');
        }
        let m = rng.gen_range(min_moves..=segs.len());
        segs.shuffle(&mut rng);
        text.push_str(&format!("{m}\n"));
        for &(a, b) in &segs[..m] {
            let (i, j) = if rng.gen_bool(0.5) { (a, b) } else { (b, a) };
            text.push_str(&format!("{i} {j}\n"));
        }
    }
    Ok(text)
}

/// Whole-process cases: the 10,000-game batch and the empty boards of sides 3 and 4.
pub fn bench_cases() -> anyhow::Result<Vec<BenchCase>> {
    Ok(vec![
        BenchCase::from_testdata(
            "triangle-war 10,000 games",
            &["triangle-war"],
            "triangle-war/batch-10000.in",
            "textbook alpha-beta 0.5 s",
        )?,
        BenchCase::new(
            "triangle-war empty side 3",
            &["triangle-war", "--empty"],
            String::new(),
            "textbook 4.5 s; C table 10 ms",
        ),
        BenchCase::new(
            "triangle-war empty side 3 (search)",
            &["triangle-war", "--empty", "--format", "json"],
            String::new(),
            "engine with analysis",
        ),
        BenchCase::new(
            "triangle-war empty side 4",
            &["triangle-war", "--side", "4", "--empty"],
            String::new(),
            "-",
        ),
    ])
}
