//! Solves the empty board of each size given and prints its value (first player's net boxes),
//! the engine's nodes and the time: `cargo run --release -p dots-and-boxes --example
//! boxes_empty -- [--driver full|bisection|zero|mtdf] [--no-pvs] [--tt-bits N] [--threads N]
//! [--etc SPAN] [--no-twins] [--no-split] [--no-loony] 3x3 3x4 ...` (`--etc`: enhanced
//! transposition cutoff at nodes with at least SPAN boxes left; `--no-twins`: without the
//! twin-strings rule; `--no-split`: without graph and split keys; `--no-loony`: without the
//! values of simple loony endgames).

use std::time::Instant;

use dots_and_boxes::{Geometry, Position, Rules, Solver};
use search_core::{Driver, SearchOptions};

fn main() {
    let mut driver = Driver::BisectionTowardZero;
    let mut tt_bits = 22;
    let mut pvs = true;
    let mut threads = 1;
    let mut etc = None;
    let mut rules = Rules::ALL;
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
            "--no-twins" => rules.twins = false,
            "--no-split" => rules.graph_keys = false,
            "--no-loony" => rules.loony_values = false,
            "--threads" => threads = args.next().and_then(|t| t.parse().ok()).expect("--threads N"),
            "--etc" => etc = Some(args.next().and_then(|t| t.parse().ok()).expect("--etc SPAN")),
            "--tt-bits" => tt_bits = args.next().and_then(|t| t.parse().ok()).expect("--tt-bits N"),
            size => {
                let (r, c) = dots_and_boxes::parse_size(size).expect("a size RxC");
                let options = SearchOptions {
                    tt_bits,
                    driver,
                    principal_variation_search: pvs,
                    threads,
                    enhanced_transposition_cutoff: etc,
                };
                let mut solver = Solver::with_options(Geometry::new(r, c).unwrap(), rules, options);
                let t = Instant::now();
                let v = solver.value(&Position::start());
                let s = solver.stats();
                println!(
                    "{r}x{c} value {v:+} nodes {} time {:.2} s ({driver:?}, pvs {pvs}, tt_bits {tt_bits}, threads {threads}, etc {etc:?}, twins {}, graph keys {}, loony values {})",
                    s.nodes,
                    t.elapsed().as_secs_f64(),
                    rules.twins,
                    rules.graph_keys,
                    rules.loony_values
                );
            }
        }
    }
}
