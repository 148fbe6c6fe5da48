//! The coordinator's cost per result on a large frontier, without searching: Triangle War's
//! empty board split at a depth, every job answered at once by a made-up but consistent value
//! (each frontier position gets a fixed value inside its bounds, drawn from its key), as a
//! serial worker or `workers` parallel ones would see it (jobs finished oldest first, the
//! coordinator's cancellations honoured), with a progress count every `progress_every`
//! results as the front ends show one:
//! `cargo run -p split-solve --example plan_cost -- [side] [depth] [workers] [results] [progress_every]`
//! (defaults: side 5, depth 4, 1 worker, 2000 results, progress every 100 results).

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use search_core::{Game, Value};
use split_solve::{Job, Split, SplitOptions};
use triangle_war::{Geometry, Position, TriangleWar};

/// The made-up value of a frontier position: fixed by its key, inside its bounds.
fn fake_value(game: &TriangleWar, job: &Job<Position>) -> Value {
    let (lo, hi) = game.value_bounds(&job.position);
    let mut h = job.key as u64 ^ (job.key >> 64) as u64;
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 29;
    // Values near 0, as in real games, so that MTD(f) asks several questions.
    let v = (h % 7) as Value - 3;
    v.clamp(lo, hi)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| args.get(i).map_or(default, |a| a.parse().expect("a whole number"));
    let (side, depth, workers) = (arg(0, 5) as u8, arg(1, 4) as u32, arg(2, 1) as usize);
    let (max_results, progress_every) = (arg(3, 2000), arg(4, 100));
    let game = TriangleWar::new(Geometry::new(side).expect("side 1 to 6"));
    let start = Instant::now();
    let mut split =
        Split::new(game.clone(), &Position::start(), SplitOptions { depth, ..SplitOptions::default() });
    println!(
        "side {side} depth {depth}: {} frontier jobs, {} tree nodes, built in {:.2?}",
        split.frontier_len(),
        split.tree_len(),
        start.elapsed()
    );
    let mut in_flight: VecDeque<Job<Position>> = VecDeque::new();
    let (mut results, mut cancelled) = (0u64, 0u64);
    let (mut plan_time, mut progress_time) = (Duration::ZERO, Duration::ZERO);
    while results < max_results {
        let t = Instant::now();
        while in_flight.len() < workers {
            match split.next_job() {
                Some(j) => in_flight.push_back(j),
                None => break,
            }
        }
        plan_time += t.elapsed();
        let Some(job) = in_flight.pop_front() else { break };
        let value = fake_value(&game, &job);
        let t = Instant::now();
        split.finish((job.leaf, job.threshold), value, 1).expect("consistent made-up values");
        if workers > 1 {
            let gone = split.cancelled();
            cancelled += gone.len() as u64;
            in_flight.retain(|j| !gone.contains(&(j.leaf, j.threshold)));
        }
        plan_time += t.elapsed();
        results += 1;
        if results % progress_every == 0 {
            let t = Instant::now();
            let _ = split.progress();
            progress_time += t.elapsed();
        }
    }
    let p = split.progress();
    println!(
        "{workers} worker(s): {results} results, {cancelled} cancelled, root in [{}, {}], finished {}, {} jobs left",
        p.root.0,
        p.root.1,
        split.is_finished(),
        p.left
    );
    let per = |d: Duration, n: u64| d.as_secs_f64() * 1e6 / n.max(1) as f64;
    println!(
        "planning (next_job, finish, cancelled): {:.1?} in all, {:.1} us per result; progress: {:.1} us per call ({} calls)",
        plan_time,
        per(plan_time, results),
        per(progress_time, results / progress_every),
        results / progress_every
    );
}
