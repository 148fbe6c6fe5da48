//! A long solve of the empty board that a person can live with: progress after every
//! null-window search at the root, an optional time limit, and a checkpoint file (written by
//! write-then-rename) that a restarted solve continues from.
//!
//! `cargo run --release -p triangle-war --example solve_root -- <side> <tt_mib> <checkpoint> [seconds]`

use std::time::Duration;

use search_core::{Checkpoint, Limits, SearchOptions};
use triangle_war::{Geometry, Position, Pruning, Solver, TriangleWar};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let side: u8 = args.first().map_or(4, |s| s.parse().expect("side"));
    let mib: u64 = args.get(1).map_or(256, |s| s.parse().expect("MiB"));
    let path = args.get(2).cloned().unwrap_or_else(|| format!("side{side}.checkpoint"));
    let seconds: Option<u64> = args.get(3).map(|s| s.parse().expect("seconds"));
    let tt_bits = match search_core::Engine::<TriangleWar>::table_bits_for_mib(
        mib,
        &triangle_war::SEARCH_OPTIONS,
        None,
    ) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let geometry = Geometry::new(side).expect("side 1 to 6");
    let mut solver = Solver::with_options(
        geometry,
        Pruning::ALL,
        SearchOptions { tt_bits, principal_variation_search: true, ..triangle_war::SEARCH_OPTIONS },
    );
    solver.engine().set_limits(Limits { time: seconds.map(Duration::from_secs), ..Limits::default() });
    let checkpoint =
        std::fs::read_to_string(&path).ok().map(|t| Checkpoint::from_text(&t).expect("checkpoint"));
    let save = |cp: &Checkpoint<u8>| {
        let tmp = format!("{path}.tmp");
        std::fs::write(&tmp, cp.to_text()).expect("write checkpoint");
        std::fs::rename(&tmp, &path).expect("rename checkpoint");
    };
    let result = solver
        .engine()
        .solve_root(&Position::start(), checkpoint, false, |p| {
            println!("{p}");
            save(&p.checkpoint);
        })
        .expect("checkpoint of this board");
    save(&result.checkpoint);
    // Empty board: A to move, nothing banked, so the root value is A's final margin.
    let (lo, hi) = result.bounds;
    if result.finished {
        println!("side {side}: final margin {lo:+} (A minus B); {:?}", solver.engine().stats());
    } else {
        println!("side {side}: stopped; final margin in [{lo:+}, {hi:+}]; resume with the same command");
    }
}
