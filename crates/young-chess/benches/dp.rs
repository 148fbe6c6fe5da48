//! Criterion benchmarks of the layered staircase DP ([`young_chess::dp::solve`]) on random
//! judge-valued boards (values up to 100000): 10 x 10 (184,756 staircases, one thread),
//! 14 x 14 (40 million staircases, rayon) and 16 x 16 (601 million staircases, about 2.2 s of
//! CPU). Run with `cargo bench -p young-chess`; `cargo bench -p young-chess -- 14x14` for one.

// `criterion_group!` generates an undocumented public function.
#![allow(missing_docs)]

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use young_chess::{dp, Board};

fn board(side: usize) -> Board {
    let mut rng = SmallRng::seed_from_u64(2471);
    let mut values = || (0..side * side).map(|_| rng.gen_range(0..=100_000)).collect::<Vec<i64>>();
    let a = values();
    let b = values();
    Board::new(side, side, a, b).expect("valid board")
}

fn bench_dp(c: &mut Criterion) {
    let b10 = board(10);
    c.bench_function("dp 10x10", |bench| bench.iter(|| dp::solve(std::hint::black_box(&b10))));
    let b14 = board(14);
    let mut group = c.benchmark_group("large");
    group.sample_size(10).measurement_time(Duration::from_secs(8));
    group.bench_function("dp 14x14", |bench| bench.iter(|| dp::solve(std::hint::black_box(&b14))));
    let b16 = board(16);
    group.measurement_time(Duration::from_secs(30));
    group.bench_function("dp 16x16", |bench| bench.iter(|| dp::solve(std::hint::black_box(&b16))));
    group.finish();
}

criterion_group!(benches, bench_dp);
criterion_main!(benches);
