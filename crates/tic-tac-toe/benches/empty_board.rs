//! Criterion benchmark: proving the empty 4 x 4 board (UVa 10111's size) a draw, i.e. that x
//! has no winning move, from a fresh solver (fresh TT) each iteration.

// `criterion_group!` generates an undocumented public function.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};
use tic_tac_toe::{Geometry, Position, WinningMove};

fn empty_4x4(c: &mut Criterion) {
    let empty = Position::empty(Geometry::UVA);
    c.bench_function("winning-move empty 4x4", |b| {
        b.iter(|| {
            let mut solver = WinningMove::new(Geometry::UVA);
            let answer = solver.find(std::hint::black_box(&empty)).expect("same geometry");
            assert_eq!(answer, None);
        });
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = empty_4x4
}
criterion_main!(benches);
