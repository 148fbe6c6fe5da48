//! Solves every position of an FFO file (OBF lines) and prints, per position, its line, the
//! value for the side to move, whether it matches the file's best listed score, the nodes
//! (the engine's and the endgame code's) and the time; then the totals. The board side is the
//! first position's (OBF lines of 16, 36 or 64 squares: 4x4, 6x6 or 8x8).
//!
//! `cargo run --release -p othello-solver --example ffo -- FILE [MAX_EMPTIES] [TT_BITS] [THREADS]
//! [ENDGAME_EMPTIES] [STABILITY_EMPTIES] [etc|none] [mtdf|fw|bisect] [moves]`: positions with more
//! than `MAX_EMPTIES` empties are skipped (default: none); the defaults of the others are
//! the crate's ([`othello::search_options`]); `none` turns enhanced transposition cutoff
//! off, `fw` searches with one full window (PVS), `bisect` bisects towards 0; `moves` also
//! solves the child of every listed move exactly and compares its score with the file's,
//! printing a line per move. Each child is solved by MTD(f) from the listed score as its
//! first guess: the value is exact whatever the guess (a wrong listed score costs more
//! null-window searches, never a wrong value), and a right one costs two null-window searches.

use std::time::Instant;

use othello::{format_score, parse_move_scores, parse_obf_line, search_options, Geometry, Othello};
use search_core::Engine;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!(
            "usage: ffo FILE [MAX_EMPTIES] [TT_BITS] [THREADS] [ENDGAME_EMPTIES] [STABILITY_EMPTIES] [etc|none] [mtdf|fw|bisect] [moves]"
        );
        std::process::exit(2);
    };
    let max_empties: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(64);
    let tt_bits: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(othello::DEFAULT_TT_BITS);
    let threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let endgame: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(othello::ENDGAME_EMPTIES);
    let stability: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(othello::STABILITY_EMPTIES);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    // The board side from the first position's squares (36: 6x6, 64: 8x8).
    let squares = text.split_whitespace().next().map_or(64, str::len);
    let g = match (4..=8).find(|n| n * n == squares).map(Geometry::new) {
        Some(Ok(g)) => g,
        _ => {
            eprintln!("{path}: the first position has {squares} squares, not 16, 36 or 64");
            std::process::exit(1);
        }
    };
    let game = Othello::with_thresholds(g, endgame, stability);
    let mut options = search_options(tt_bits, threads);
    if let Some(a) = args.next() {
        options.enhanced_transposition_cutoff = (a == "etc").then_some(0);
    }
    if let Some(a) = args.next() {
        options.driver = match a.as_str() {
            "mtdf" => search_core::Driver::Mtdf { guess: 0 },
            "bisect" => search_core::Driver::BisectionTowardZero,
            _ => search_core::Driver::FullWindow,
        };
    }
    // `moves`: every listed move's score is checked too (one solve of each child).
    let check_moves = args.next().is_some_and(|a| a == "moves");
    let mut solver = Engine::with_options(game, options);
    let mut listed_moves = (0, 0);
    let (mut total_nodes, mut total_time, mut solved, mut agree) = (0u64, 0.0f64, 0, 0);
    println!("line empties value listed nodes seconds nodes/s");
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let pos = match parse_obf_line(g, line) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{path}: line {}: {e}", i + 1);
                continue;
            }
        };
        if pos.empty().count() > max_empties {
            continue;
        }
        let listed = parse_move_scores(g, line).ok().and_then(|s| s.first().map(|&(_, v)| v));
        let before = solver.stats().nodes;
        let before_endgame = solver.game().endgame_nodes();
        let start = Instant::now();
        let value = solver.solve(&pos);
        let seconds = start.elapsed().as_secs_f64();
        let nodes = solver.stats().nodes - before;
        let endgame_nodes = solver.game().endgame_nodes() - before_endgame;
        solved += 1;
        agree += usize::from(listed == Some(value));
        if check_moves {
            for (mv, score) in parse_move_scores(g, line).unwrap_or_default() {
                let Ok(child) = pos.try_play(mv) else {
                    println!("line {}: listed move {mv} is not legal", i + 1);
                    continue;
                };
                let before = solver.stats().nodes;
                let start = Instant::now();
                let ours = -solver.solve_mtdf(&child, -score);
                let nodes = solver.stats().nodes - before;
                listed_moves.0 += 1;
                listed_moves.1 += usize::from(ours == score);
                println!(
                    "line {}: move {mv} listed {}, solved {}{} ({nodes} nodes, {:.1} s)",
                    i + 1,
                    format_score(score),
                    format_score(ours),
                    if ours == score { "" } else { " DIFFERENT" },
                    start.elapsed().as_secs_f64()
                );
            }
        }
        total_nodes += nodes;
        total_time += seconds;
        println!(
            "{} {} {} {} {nodes} ({endgame_nodes} endgame) {seconds:.3} {:.0}",
            i + 1,
            pos.empty().count(),
            format_score(value),
            listed.map_or("-".to_string(), format_score),
            nodes as f64 / seconds.max(1e-9)
        );
    }
    if check_moves {
        println!("{} listed move scores, {} equal to ours", listed_moves.0, listed_moves.1);
    }
    println!(
        "{solved} positions, {agree} equal to the file's best score, {total_nodes} nodes, {total_time:.2} s, {:.0} nodes/s",
        total_nodes as f64 / total_time.max(1e-9)
    );
}
