//! Solves the empty board of each size given and prints its value (first player's net boxes),
//! the engine's nodes and the time: `cargo run --release -p dots-and-boxes --example
//! boxes_empty -- [--driver full|bisection|zero|mtdf] [--root] [--no-pvs] [--tt-bits N] [--threads N]
//! [--etc SPAN] [--etc-moves N] [--no-etc] [--no-prefetch] [--defer-plies N] [--no-twins] [--no-split] [--no-loony] [--no-openings] [--no-chain-ends] [--no-loony-offers] [--window LO,HI] [--time-limit SECONDS] 3x3 3x4 ...` (`--etc`: enhanced
//! transposition cutoff at nodes with at least SPAN boxes left (`--etc 0`: any) and, with
//! `--etc-moves`, at least N moves; default: the solvers' `dots_and_boxes::search_options`, ETC
//! from `ETC_MIN_MOVES` moves; `--no-etc`: none; `--no-prefetch`: without the children's TT
//! buckets prefetched a move ahead (`SearchOptions::prefetch_children`); `--defer-plies`: with
//! several threads, busy moves put off below ply N (`SearchOptions::defer_plies`, default
//! `dots_and_boxes::DEFER_PLIES`); `--no-twins`: without the
//! twin-strings rule; `--no-split`: without graph and split keys; `--no-loony`: without the
//! values of simple loony endgames; `--no-openings`: without the simple-openings rule; `--window`: one search with
//! that window instead of the driver, the value exact when strictly inside it; `--time-limit`:
//! stop after that long and print the nodes and the bounds proven; `--root`: the root driver of
//! `games-cli --checkpoint` (`Engine::solve_root`, value only) instead of the driver, each step
//! on stderr).

use std::time::Instant;

use dots_and_boxes::{Geometry, Position, Pruning, Solver};
use search_core::{Driver, SearchOptions};

fn main() {
    let mut driver = Driver::BisectionTowardZero;
    let mut tt_bits = 22;
    let mut pvs = true;
    let mut threads = 1;
    let defaults = dots_and_boxes::search_options(0, 1);
    let mut etc = defaults.enhanced_transposition_cutoff;
    let mut etc_moves = defaults.etc_min_moves;
    let mut prefetch = defaults.prefetch_children;
    let mut defer_plies = defaults.defer_plies;
    let mut rules = Pruning::ALL;
    let mut window = None;
    let mut time_limit = None;
    let mut root = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--driver" => {
                driver = match args.next().as_deref() {
                    Some("full") => Driver::FullWindow,
                    Some("bisection") => Driver::Bisection,
                    Some("zero") => Driver::BisectionTowardZero,
                    Some("mtdf") => Driver::Mtdf { guess: 0 },
                    other => panic!("unknown driver {other:?}"),
                }
            }
            "--no-pvs" => pvs = false,
            "--root" => root = true,
            "--no-twins" => rules.twins = false,
            "--no-split" => rules.graph_keys = false,
            "--no-loony" => rules.loony_values = false,
            "--no-openings" => rules.simple_openings = false,
            "--no-chain-ends" => rules.chain_ends = false,
            "--no-loony-offers" => rules.loony_offers = false,
            "--no-twin-moves" => rules.twin_moves = false,
            "--threads" => threads = args.next().and_then(|t| t.parse().ok()).expect("--threads N"),
            "--no-etc" => (etc, etc_moves) = (None, 0),
            "--no-prefetch" => prefetch = false,
            "--defer-plies" => {
                defer_plies = args.next().and_then(|t| t.parse().ok()).expect("--defer-plies N");
            }
            "--etc" => etc = Some(args.next().and_then(|t| t.parse().ok()).expect("--etc SPAN")),
            "--etc-moves" => {
                etc_moves = args.next().and_then(|t| t.parse().ok()).expect("--etc-moves N");
            }
            "--window" => {
                let w = args.next().expect("--window LO,HI");
                let (lo, hi) = w.split_once(',').expect("--window LO,HI");
                window = Some((lo.parse::<i64>().expect("LO"), hi.parse::<i64>().expect("HI")));
            }
            "--time-limit" => {
                let secs: f64 = args.next().and_then(|t| t.parse().ok()).expect("--time-limit SECONDS");
                time_limit = Some(std::time::Duration::from_secs_f64(secs));
            }
            "--tt-bits" => tt_bits = args.next().and_then(|t| t.parse().ok()).expect("--tt-bits N"),
            size => {
                let (r, c) = dots_and_boxes::parse_size(size).expect("a size RxC");
                let options = SearchOptions {
                    tt_bits,
                    driver,
                    principal_variation_search: pvs,
                    threads,
                    enhanced_transposition_cutoff: etc,
                    etc_min_moves: etc_moves,
                    prefetch_children: prefetch,
                    defer_plies,
                    peer_defer_plies: defaults.peer_defer_plies,
                    one_thread_table: search_core::OneThreadTable::BothBounds,
                };
                let mut solver = Solver::with_options(Geometry::new(r, c).unwrap(), rules, options);
                solver.set_limits(search_core::Limits { time: time_limit, ..search_core::Limits::default() });
                let t = Instant::now();
                // A window search whose fail-soft result lies strictly inside the window is the
                // exact value; one at or beyond an end bounds it.
                let result = match window {
                    Some((lo, hi)) => solver.engine().try_search(&Position::start(), lo, hi).map(|v| {
                        if v <= lo {
                            format!("at most {v:+} (window {lo},{hi})")
                        } else if v >= hi {
                            format!("at least {v:+} (window {lo},{hi})")
                        } else {
                            format!("{v:+}")
                        }
                    }),
                    None if root => {
                        // The root driver of `games-cli --checkpoint`: one null window per step,
                        // each step printed to stderr.
                        let r = solver
                            .engine()
                            .solve_root(&Position::start(), None, false, |p| eprintln!("  {p}"));
                        let r = r.expect("a fresh checkpoint");
                        match r.finished {
                            true => Ok(format!("{:+}", r.bounds.0)),
                            false => Err(search_core::Interrupted { lo: r.bounds.0, hi: r.bounds.1 }),
                        }
                    }
                    None => solver.try_value(&Position::start()).map(|v| format!("{v:+}")),
                };
                let v = match result {
                    Ok(v) => v,
                    Err(e) => format!("unknown, stopped by the time limit (proven in [{}, {}])", e.lo, e.hi),
                };
                let s = solver.stats();
                println!(
                    "{r}x{c} value {v} nodes {} time {:.2} s ({}, pvs {pvs}, tt_bits {tt_bits}, threads {threads}, defer plies {defer_plies}, etc {etc:?} from {etc_moves} moves, prefetch {prefetch}, twins {}, graph keys {}, loony values {}, simple openings {}, chain ends {})",
                    s.nodes,
                    t.elapsed().as_secs_f64(),
                    if root { "root driver".to_string() } else { format!("{driver:?}") },
                    rules.twins,
                    rules.graph_keys,
                    rules.loony_values,
                    rules.simple_openings,
                    rules.chain_ends
                );
            }
        }
    }
}
