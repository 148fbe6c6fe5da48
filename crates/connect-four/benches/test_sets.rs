//! Criterion benchmark: Pons' test sets, a few positions each, solved one by one with a cleared
//! TT (as in his test protocol). Prints the mean nodes per position beside criterion's times;
//! `cargo xtask c4-bench` runs whole sets beside the reference solver.

// `criterion_group!` generates an undocumented public function.
#![allow(missing_docs)]

use std::path::PathBuf;

use connect_four::{parse_line, Geometry, Position, Solver};
use criterion::{criterion_group, criterion_main, Criterion};

fn positions(set: &str, count: usize) -> Vec<(Position, i32)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/connect-four").join(set);
    let text = std::fs::read_to_string(&path).expect("test set present");
    text.lines()
        .take(count)
        .map(|l| {
            let j = parse_line(Geometry::STANDARD, l).expect("valid line");
            (j.position, j.score)
        })
        .collect()
}

fn test_sets(c: &mut Criterion) {
    // (set, positions, TT bits)
    for (set, count, bits) in [
        ("Test_L3_R1", 100, 14),
        ("Test_L2_R1", 100, 14),
        ("Test_L1_R1", 20, 16),
        ("Test_L2_R2", 20, 16),
        ("Test_L1_R2", 4, 18),
    ] {
        let cases = positions(set, count);
        let mut solver = Solver::with_tt_bits(Geometry::STANDARD, bits);
        let mut nodes = 0;
        for (pos, score) in &cases {
            solver.clear();
            solver.reset_stats();
            assert_eq!(solver.score(pos), *score, "{set} {pos:?}");
            nodes += solver.stats().nodes;
        }
        eprintln!("{set}: {count} positions, mean nodes {:.0}", nodes as f64 / count as f64);
        c.bench_function(&format!("{set} first {count} (whole batch)"), |b| {
            b.iter(|| {
                for (pos, _) in &cases {
                    solver.clear();
                    std::hint::black_box(solver.score(std::hint::black_box(pos)));
                }
            });
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = test_sets
}
criterion_main!(benches);
