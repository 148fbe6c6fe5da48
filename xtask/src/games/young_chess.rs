//! Generator and benchmark cases for the Young-diagram game (`games-cli young-chess`).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::bench_case::BenchCase;

/// Largest generated cell value (the judge's bound).
const MAX_VALUE: u32 = 100_000;

/// A random board in the judge's format: `n m`, then matrices A and B with values in
/// `0..=100000`, deterministic for a given seed.
pub fn board(n: usize, m: usize, seed: u64) -> String {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut s = format!("{n} {m}\n");
    for _ in 0..2 * n {
        let row: Vec<String> = (0..m).map(|_| rng.gen_range(0..=MAX_VALUE).to_string()).collect();
        s.push_str(&row.join(" "));
        s.push('\n');
    }
    s
}

/// Parses `--size NxM` (default `10x10`).
fn size(text: Option<&str>) -> anyhow::Result<(usize, usize)> {
    let (n, m) = super::gen_args::parse_size(text, (10, 10))?;
    anyhow::ensure!(n >= 1 && m >= 1 && n + m <= 64, "--size {n}x{m}: need n, m >= 1 and n + m <= 64");
    Ok((n, m))
}

/// The generated input: one random board of `--size NxM` (default 10x10) from `--seed`.
pub fn generate(args: &super::gen_args::GenArgs) -> anyhow::Result<String> {
    let (n, m) = size(args.size.as_deref())?;
    Ok(board(n, m, args.seed))
}

/// Whole-process benchmark cases: random judge-valued boards of 10 x 10 (the golden
/// `random-10x10-a.in`), then 14 x 14 and 16 x 16 generated here (not stored), and 18 x 18 when
/// the environment has `XTASK_BENCH_XL=1`.
pub fn bench_cases() -> anyhow::Result<Vec<BenchCase>> {
    let case = |side: usize, reference: &str| {
        BenchCase::new(&format!("young {side}x{side}"), &["young-chess"], board(side, side, 2471), reference)
    };
    let mut cases = vec![
        BenchCase::from_testdata(
            "young 10x10",
            &["young-chess"],
            "young-chess/random-10x10-a.in",
            "textbook memo 0.46 s / C DP 7 ms",
        )?,
        case(14, "C DP 1.2 s"),
        case(16, "ranked C DP 80 s CPU (one thread); this DP 2.2 s CPU, 75 MiB"),
    ];
    // About 40 s of CPU and 0.9 GiB per run: only when asked for.
    if std::env::var_os("XTASK_BENCH_XL").is_some_and(|v| v == "1") {
        cases.push(case(18, "none (9.1e9 staircases); 38 s CPU, 0.9 GiB"));
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_well_formed() {
        let a = board(3, 4, 7);
        assert_eq!(a, board(3, 4, 7));
        let lines: Vec<&str> = a.lines().collect();
        assert_eq!(lines[0], "3 4");
        assert_eq!(lines.len(), 7);
        assert!(lines[1..].iter().all(|l| l.split(' ').count() == 4));
        assert_eq!(size(Some("12x5")).unwrap(), (12, 5));
        assert!(size(Some("12")).is_err());
    }
}
