//! Job arrays against one process: Triangle War's empty board split at a depth, solved by one
//! process (a serial worker taking the first needed job each time), and by `rounds` rounds of
//! `shards` independent shards, then the merge, as `games-cli --shard I/N` and the command
//! without `--shard` run them. The shards of one round all start from the records of the
//! rounds before (as a job array's tasks run at once), each with a fresh engine, and solve the
//! jobs of their slice of the round that their own results have not made unnecessary; the merge
//! reads every record and solves what is still missing with one engine. Prints the jobs and
//! nodes of each part for both ways of choosing a round (every job the question needs, and the
//! first alpha-beta order):
//! `cargo run -p split-solve --example shard_rounds -- [side] [depth] [shards] [rounds]`
//! (defaults: side 4, depth 3, 4 shards, up to 2 rounds).

use search_core::Engine;
use split_solve::{Job, Record, RoundKind, Split, SplitError, SplitOptions};
use triangle_war::{Geometry, Position, TriangleWar};

/// A fresh engine's fail-soft null-window result for `job` and its nodes.
fn search(engine: &mut Engine<TriangleWar>, job: &Job<Position>) -> (i64, u64) {
    let before = engine.stats().nodes;
    let v = engine.search(&job.position, job.threshold, job.threshold + 1);
    (v, engine.stats().nodes - before)
}

/// A split of `root` with `records` applied.
fn split_with(game: &TriangleWar, options: SplitOptions, records: &[Record]) -> Split<TriangleWar> {
    let mut split = Split::new(game.clone(), &Position::start(), options);
    for r in records {
        split.apply(r).expect("consistent records");
    }
    split
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u32| args.get(i).map_or(default, |a| a.parse().expect("a whole number"));
    let (side, depth, shards, rounds) = (arg(0, 4) as u8, arg(1, 3), arg(2, 4), arg(3, 2));
    let game = TriangleWar::new(Geometry::new(side).expect("side 1 to 6"));
    let tt_bits = 20;
    let options = SplitOptions { depth, ..SplitOptions::default() };

    let mut split = split_with(&game, options, &[]);
    let mut engine = Engine::new(game.clone(), tt_bits);
    let (mut jobs, nodes0) = (0u64, engine.stats().nodes);
    split
        .run_serial(
            |job| -> Result<(i64, u64), SplitError> {
                jobs += 1;
                Ok(search(&mut engine, job))
            },
            |_| Ok(()),
        )
        .expect("no error");
    let value = split.root_bounds().0;
    println!(
        "side {side} depth {depth} ({} frontier jobs): one process {jobs} jobs, {} nodes, value {value}",
        split.frontier_len(),
        engine.stats().nodes - nodes0
    );

    for kind in [RoundKind::Full, RoundKind::FirstOrder] {
        for r in 1..=rounds {
            let mut records: Vec<Record> = Vec::new();
            let mut line = format!("{kind:?}, {shards} shards x {r} round(s):");
            let (mut total_jobs, mut total_nodes) = (0u64, 0u64);
            for round in 0..r {
                let mut new = Vec::new();
                let mut counts = Vec::new();
                for i in 0..shards {
                    let mut split = split_with(&game, options, &records);
                    let mine: Vec<_> =
                        split.round_of(kind).into_iter().filter(|j| j.leaf % shards == i).collect();
                    let mut engine = Engine::new(game.clone(), tt_bits);
                    let mut n = 0;
                    for job in mine {
                        let id = (job.leaf, job.threshold);
                        if !split.is_needed(id) {
                            continue;
                        }
                        let (v, nodes) = search(&mut engine, &job);
                        new.push(split.finish(id, v, nodes).expect("consistent"));
                        total_nodes += nodes;
                        n += 1;
                    }
                    counts.push(n.to_string());
                    total_jobs += n;
                }
                line += &format!(" round {} {} jobs ({});", round + 1, new.len(), counts.join(" + "));
                records.extend(new);
            }
            let mut split = split_with(&game, options, &records);
            let mut engine = Engine::new(game.clone(), tt_bits);
            let mut merge_jobs = 0u64;
            let before = engine.stats().nodes;
            split
                .run_serial(
                    |job| -> Result<(i64, u64), SplitError> {
                        merge_jobs += 1;
                        Ok(search(&mut engine, job))
                    },
                    |_| Ok(()),
                )
                .expect("no error");
            assert_eq!(split.root_bounds(), (value, value));
            let merge_nodes = engine.stats().nodes - before;
            println!(
                "{line} merge {merge_jobs} jobs; {} jobs in all, {} nodes in the shards, {merge_nodes} in the merge",
                total_jobs + merge_jobs,
                total_nodes
            );
        }
    }
}
