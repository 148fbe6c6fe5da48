//! Criterion benchmarks: the judge's 10,000-game batch, and the empty side-3 board by table and
//! by search. (The empty side-4 board takes seconds: see `cargo xtask bench`.)

#![allow(missing_docs)] // criterion_group! generates undocumented items.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use triangle_war::{parse_games, Geometry, Position, RetrogradeTable, Solver};

const BATCH: &str = include_str!("../../../testdata/triangle-war/batch-10000.in");

fn benches(c: &mut Criterion) {
    let g = Geometry::new(3).unwrap();
    c.bench_function("side3 retrograde table build", |b| b.iter(|| RetrogradeTable::build(black_box(&g))));
    c.bench_function("side3 batch 10000 (parse + table)", |b| {
        b.iter(|| {
            let table = RetrogradeTable::build(&g).unwrap();
            parse_games(black_box(BATCH), &g).map(|r| table.final_margin(&r.unwrap().position)).sum::<i64>()
        });
    });
    c.bench_function("side3 batch 10000 (parse + search, shared TT)", |b| {
        b.iter(|| {
            let mut solver = Solver::new(g.clone(), 20);
            parse_games(black_box(BATCH), &g).map(|r| solver.final_margin(&r.unwrap().position)).sum::<i64>()
        });
    });
    c.bench_function("side3 empty board (search, fresh TT)", |b| {
        b.iter(|| Solver::new(g.clone(), 20).final_margin(black_box(&Position::start())));
    });
}

criterion_group!(name = group; config = Criterion::default().sample_size(20); targets = benches);
criterion_main!(group);
