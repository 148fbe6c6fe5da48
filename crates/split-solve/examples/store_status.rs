//! Where a dots-and-boxes solve through a store stands, without searching: the records of a
//! store file applied to the empty board's frontier tree (the same tree `games-cli
//! dots-and-boxes --empty --store DIR --split-depth D` builds), then the root's bounds, each
//! root move's bounds, the jobs the current question still needs (every one, and the first
//! alpha-beta order's: the fewest if every guess is right) and the nodes the records cost
//! (in all, and for each threshold, which tells the questions of a proof apart):
//! `cargo run --release -p split-solve --example store_status -- RxC STORE_FILE [depth]
//! [--tree PLIES]` (depth 6 by default, the depth `cargo xtask solve-4x5` writes at since stop
//! 49; a record of a shallower depth bounds the interior node with its key), e.g. `4x5
//! testdata/dots-and-boxes/solve-4x5/store/main.rec --tree 2`. `--tree` also prints the proven
//! part of the frontier tree to `PLIES` plies: every move whose bounds the records narrowed,
//! under the moves that lead to it (a move's bounds are from the side to move before it;
//! every move in the coordinates of the position the moves above it reach, even where the
//! tree keeps a symmetric image of it: [`Split::move_bounds_after`]). `--under MOVES` (comma-separated,
//! e.g. `--under 6,12`) prints that part of the tree below the node those moves reach, down to
//! `PLIES` plies below the root (`--tree`, or 4 by default), even where the moves above it are
//! not narrowed yet: how a class of first moves still open is getting on. `--first-moves`
//! asks what `games-cli --format json` asks (every first move's exact value,
//! [`SplitOptions::exact_moves`]): the jobs counted are then those questions', and the classes
//! of first moves already exact are counted. `--history` prints, in record order, the record
//! at which each root move's value became exact, with the records and nodes spent since the
//! previous such record: what each class of first moves cost.

use std::io::Write as _;

use dots_and_boxes::{DotsAndBoxes, Geometry, Position, Pruning};
use split_solve::record::decode_store;
use split_solve::{RoundKind, Split, SplitOptions};

/// `writeln!` into the report, which is written out at the end (so that a closed pipe, as
/// under `| head`, is not an error).
macro_rules! say {
    ($out:expr, $($fmt:tt)*) => {{
        $out.push_str(&format!($($fmt)*));
        $out.push('\n');
    }};
}

fn main() {
    let mut report = String::new();
    run(&mut report);
    if let Err(err) = std::io::stdout().lock().write_all(report.as_bytes()) {
        if err.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("store_status: {err}");
            std::process::exit(1);
        }
    }
}

fn run(out: &mut String) {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut tree_plies = 0;
    if let Some(i) = args.iter().position(|a| a == "--tree") {
        tree_plies = args.get(i + 1).and_then(|p| p.parse().ok()).unwrap_or_else(|| usage());
        args.drain(i..i + 2);
    }
    let mut under: Option<Vec<u8>> = None;
    if let Some(i) = args.iter().position(|a| a == "--under") {
        let moves = args.get(i + 1).unwrap_or_else(|| usage());
        let parsed = moves.split(',').map(|m| m.trim().parse().ok()).collect::<Option<Vec<u8>>>();
        under = Some(parsed.unwrap_or_else(|| usage()));
        args.drain(i..i + 2);
    }
    let first_moves = take_flag(&mut args, "--first-moves");
    let history = take_flag(&mut args, "--history");
    let [size, file, rest @ ..] = args.as_slice() else { usage() };
    let (r, c) = dots_and_boxes::parse_size(size).expect("a size such as 4x5");
    let geometry = Geometry::new(r, c).expect("a board size");
    let depth: u32 = rest.first().map_or(6, |d| d.parse().expect("a depth"));
    let bytes = std::fs::read(file).expect("a readable store file");
    let store = decode_store(&bytes).expect("a store file");
    let boxes = search_core::Value::try_from(geometry.boxes()).expect("at most 64 boxes");
    let game = DotsAndBoxes::with_pruning(geometry, Pruning::ALL);
    let options = SplitOptions { depth, exact_moves: first_moves, ..SplitOptions::default() };
    let mut split = Split::new(game, &Position::start(), options);
    // One pass over the records: apply each, and tally nodes in all, by answer (above its
    // threshold or at most it) and by threshold. At the frontier's depth a threshold belongs to
    // one root question (its sign flips with the side to move), so the last tally splits the
    // "at most t?" half of a proof from the "at least t?" half.
    let (mut applied, mut biggest) = (0, Vec::new());
    let (mut above, mut at_most) = ((0usize, 0u64), (0usize, 0u64));
    let mut by_threshold = std::collections::BTreeMap::<search_core::Value, (usize, u64)>::new();
    // With `--history`: the root moves already exact, and the record count and nodes at the
    // last record that made one exact.
    let mut exact_moves: Vec<u8> = Vec::new();
    let (mut last_record, mut last_nodes) = (0usize, 0u64);
    let mut history_lines = Vec::new();
    for (i, rec) in store.records.iter().enumerate().filter_map(|(i, r)| Some((i, r.as_ref().ok()?))) {
        applied += usize::from(split.apply(rec).expect("a record of this solve"));
        biggest.push(rec.nodes);
        for tally in [
            if rec.is_above() { &mut above } else { &mut at_most },
            by_threshold.entry(rec.threshold).or_default(),
        ] {
            tally.0 += 1;
            tally.1 += rec.nodes;
        }
        if history {
            let nodes_so_far = above.1 + at_most.1;
            let newly: Vec<(u8, search_core::Value)> = split
                .move_bounds()
                .into_iter()
                .filter(|&(mv, lo, hi)| lo == hi && !exact_moves.contains(&mv))
                .map(|(mv, lo, _)| (mv, lo))
                .collect();
            if !newly.is_empty() {
                let records = i + 1;
                let moves: Vec<String> = newly.iter().map(|&(mv, v)| format!("{mv} = {v}")).collect();
                history_lines.push(format!(
                    "  record {records}: {} exact ({} records, {} nodes since record {last_record})",
                    moves.join(", "),
                    records - last_record,
                    nodes_so_far - last_nodes
                ));
                exact_moves.extend(newly.iter().map(|&(mv, _)| mv));
                (last_record, last_nodes) = (records, nodes_so_far);
            }
        }
    }
    biggest.sort_unstable_by(|a, b| b.cmp(a));
    let nodes = above.1 + at_most.1;
    say!(
        out,
        "{}: {} records ({applied} on this tree, whose frontier holds {} jobs), {nodes} nodes",
        store.identity,
        store.records.len(),
        split.frontier_len()
    );
    say!(out, "largest jobs (nodes): {:?}", &biggest[..biggest.len().min(10)]);
    say!(
        out,
        "answers: {} above their threshold ({} nodes), {} at most it ({} nodes)",
        above.0,
        above.1,
        at_most.0,
        at_most.1
    );
    let parts: Vec<String> = by_threshold
        .iter()
        .map(|(t, (n, nodes))| format!("threshold {t}: {n} jobs, {nodes} nodes"))
        .collect();
    say!(out, "by threshold: {}", parts.join("; "));
    say!(out, "root: {:?}", split.root_bounds());
    if history {
        say!(out, "root moves made exact, in record order:");
        for line in &history_lines {
            say!(out, "{line}");
        }
    }
    let moves = split.move_bounds();
    let narrowed = moves.iter().filter(|&&(_, lo, hi)| lo > -boxes || hi < boxes).count();
    say!(out, "root moves with bounds inside [-{boxes}, {boxes}]: {narrowed} of {}", moves.len());
    for (mv, lo, hi) in moves {
        say!(out, "  move {mv:>2}: [{lo}, {hi}]");
    }
    if tree_plies > 0 {
        say!(out, "proven part of the frontier tree ({tree_plies} plies; moves whose bounds are narrowed):");
        print_tree(out, &split, &mut Vec::new(), tree_plies, false);
    }
    if let Some(mut path) = under {
        let plies = if tree_plies > 0 { tree_plies } else { depth as usize };
        let line: Vec<String> = path.iter().map(u8::to_string).collect();
        match split.move_bounds_after(&path) {
            Some(_) => {
                say!(
                    out,
                    "below {} ({plies} plies from the root; moves whose bounds are narrowed):",
                    line.join(" ")
                );
                print_tree(out, &split, &mut path, plies, true);
            }
            None => say!(out, "below {}: no such node of the frontier tree", line.join(" ")),
        }
    }
    let progress = split.progress();
    if let Some((exact, all)) = progress.first_moves {
        say!(out, "first moves exact: {exact} of {all} classes");
    }
    let first = split.round_of(RoundKind::FirstOrder).len();
    say!(out, "jobs the current question needs: {} (first alpha-beta order: {first})", progress.left);
}

/// Removes `flag` from `args` and says whether it was there.
fn take_flag(args: &mut Vec<String>, flag: &str) -> bool {
    let at = args.iter().position(|a| a == flag);
    if let Some(i) = at {
        args.remove(i);
    }
    at.is_some()
}

fn usage() -> ! {
    eprintln!("usage: store_status RxC STORE_FILE [depth] [--tree PLIES] [--under MOVES] [--first-moves] [--history]");
    std::process::exit(2);
}

/// Prints the moves below the node that `path` leads to whose bounds are narrower than the
/// widest of that node's moves (those no record touched) or exact, one per line with its
/// whole path, indented by ply, down to `plies` plies. With `every`, goes down every move,
/// narrowed or not, so that a narrowed node below moves not narrowed yet is printed too.
fn print_tree(out: &mut String, split: &Split<DotsAndBoxes>, path: &mut Vec<u8>, plies: usize, every: bool) {
    if path.len() == plies {
        return;
    }
    let Some((_, moves)) = split.move_bounds_after(path) else { return };
    // The widest bounds at this node: a move that no record touched.
    let widest = moves.iter().map(|&(_, lo, hi)| hi - lo).max().unwrap_or(0);
    for (mv, lo, hi) in moves {
        let narrowed = hi - lo < widest || lo == hi;
        path.push(mv);
        if narrowed {
            let line: Vec<String> = path.iter().map(u8::to_string).collect();
            say!(out, "{}{}: [{lo}, {hi}]", "  ".repeat(path.len() - 1), line.join(" "));
        }
        if narrowed || every {
            print_tree(out, split, path, plies, every);
        }
        path.pop();
    }
}
