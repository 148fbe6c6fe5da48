//! Solves the empty board of a given side and prints the final margin and the search
//! statistics:
//! `cargo run --release -p triangle-war --example solve_empty -- [side] [tt_bits] [method] [rules] [pvs] [threads] [etc] [prefetch] [narrow]`
//! with `method` one of `full` (one full-window search), `bisect` (null-window bisection, the
//! default), `mtdf` (MTD(f) from 0) or `winner` (one null-window search: who wins); `rules`
//! as [`triangle_war::parse_pruning`] reads them: `all` (default), `none` (the plain game tree)
//! or a list such as `all,no-twins` (every rule but twin strings); `pvs` `on` (default) or
//! `off`.
//! `threads` above 1 answers `full` and `bisect` with the parallel engine (statistics then sum
//! every thread's nodes). `etc` `off` (default) or N: enhanced transposition cutoff at the
//! nodes with at least N moves. `prefetch` `off` (default) or `on`: the children's TT buckets
//! prefetched a move ahead (`SearchOptions::prefetch_children`). `narrow` `on` (default) or
//! `off`: the keys in the narrow part of the table that several threads share
//! (`TriangleWar::with_narrow_keys`). Defaults: side 4, 2^22 TT entries, 1 thread.

use search_core::SearchOptions;
use triangle_war::{parse_pruning, Geometry, Position, Solver};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let side: u8 = arg(0, "4").parse().expect("side 1 to 6");
    let tt_bits: u32 = arg(1, "22").parse().expect("tt bits");
    let method = arg(2, "bisect");
    let rules = parse_pruning(&arg(3, "all")).unwrap_or_else(|e| panic!("{e}"));
    let pvs = arg(4, "on") == "on";
    let geometry = Geometry::new(side).expect("side 1 to 6");
    let threads: usize = arg(5, "1").parse().expect("threads");
    let etc: Option<usize> = match arg(6, "off").as_str() {
        "off" => None,
        n => Some(n.parse().expect("etc: off or a number of moves")),
    };
    let prefetch = arg(7, "off") == "on";
    let narrow = arg(8, "on") == "on";
    let options = SearchOptions {
        tt_bits,
        prefetch_children: prefetch,
        principal_variation_search: pvs,
        enhanced_transposition_cutoff: etc.map(|_| 0),
        etc_min_moves: etc.unwrap_or(0),
        ..triangle_war::SEARCH_OPTIONS
    };
    let mut solver =
        Solver::with_options(geometry, rules, SearchOptions { threads, ..options }).with_narrow_keys(narrow);
    let start = Position::start();
    let answer = match method.as_str() {
        "full" => format!("final margin {:+} (A minus B)", solver.final_margin(&start)),
        "bisect" => format!("final margin {:+} (A minus B)", solver.final_margin_bisection(&start)),
        "mtdf" => format!("final margin {:+} (A minus B)", solver.engine().solve_mtdf(&start, 0)),
        "winner" => format!("A wins: {}", solver.engine().value_exceeds(&start, 0)),
        other => panic!("unknown method {other}"),
    };
    let stats = solver.stats();
    println!(
        "side {side} tt_bits {tt_bits} {method} rules {rules:?} pvs {pvs} threads {threads} etc {etc:?} prefetch {prefetch} narrow {narrow}: {answer}; {} nodes, {} TT probes, {} hits, {} cutoffs, {:.2?}",
        stats.nodes, stats.tt_probes, stats.tt_hits, stats.cutoffs, stats.elapsed
    );
}
