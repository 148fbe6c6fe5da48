//! `cargo xtask gen dots-and-boxes [--size RxC] [--count N] [--seed S]`: DBN strings of random
//! positions (uniform number of lines drawn, then a uniform set of that size), one per line,
//! with a blank line now and then, for `games-cli dots-and-boxes --size RxC`.

use rand::{rngs::SmallRng, seq::SliceRandom, Rng, SeedableRng};

/// The generated input: `count` DBN strings on the board `--size` (default 3x3, at most 64
/// lines).
pub fn generate(args: &super::gen_args::GenArgs) -> anyhow::Result<String> {
    let (rows, cols) = super::gen_args::parse_size(args.size.as_deref(), (3, 3))?;
    anyhow::ensure!(rows >= 1 && cols >= 1, "--size needs at least one box");
    let lines = (rows + 1) * cols + rows * (cols + 1);
    anyhow::ensure!(lines <= 64, "--size {rows}x{cols} has {lines} lines: at most 64");
    let mut rng = SmallRng::seed_from_u64(args.seed);
    let mut text = String::new();
    let mut order: Vec<usize> = (0..lines).collect();
    for _ in 0..args.count {
        if rng.gen_bool(0.05) {
            text.push('\n');
        }
        let k = rng.gen_range(0..=lines);
        order.shuffle(&mut rng);
        let mut dbn = vec![b'0'; lines];
        for &i in &order[..k] {
            dbn[i] = b'1';
        }
        text.push_str(std::str::from_utf8(&dbn).expect("ASCII"));
        text.push('\n');
    }
    Ok(text)
}
