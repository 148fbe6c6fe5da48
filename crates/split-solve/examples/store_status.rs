//! Where a dots-and-boxes solve through a store stands, without searching: the records of a
//! store file applied to the empty board's frontier tree (the same tree `games-cli
//! dots-and-boxes --empty --store DIR --split-depth D` builds), then the root's bounds, each
//! root move's bounds, the jobs the current question still needs (every one, and the first
//! alpha-beta order's: the fewest if every guess is right) and the nodes the records cost:
//! `cargo run --release -p split-solve --example store_status -- RxC STORE_FILE [depth]
//! [--tree PLIES]` (depth 4 by default), e.g. `4x5
//! testdata/dots-and-boxes/solve-4x5/store/main.rec --tree 2`. `--tree` also prints the proven
//! part of the frontier tree to `PLIES` plies: every move whose bounds the records narrowed,
//! under the moves that lead to it (a move's bounds are from the side to move before it; a
//! node's moves are those of its position, which may be a symmetric image of the position
//! the moves above it reach: [`Split::move_bounds_after`]).

use dots_and_boxes::{DotsAndBoxes, Geometry, Position, Rules};
use split_solve::record::decode_store;
use split_solve::{RoundKind, Split, SplitOptions};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut tree_plies = 0;
    if let Some(i) = args.iter().position(|a| a == "--tree") {
        tree_plies = args.get(i + 1).and_then(|p| p.parse().ok()).unwrap_or_else(|| usage());
        args.drain(i..i + 2);
    }
    let [size, file, rest @ ..] = args.as_slice() else { usage() };
    let (r, c) = dots_and_boxes::parse_size(size).expect("a size such as 4x5");
    let geometry = Geometry::new(r, c).expect("a board size");
    let depth: u32 = rest.first().map_or(4, |d| d.parse().expect("a depth"));
    let bytes = std::fs::read(file).expect("a readable store file");
    let store = decode_store(&bytes).expect("a store file");
    let boxes = search_core::Value::try_from(geometry.boxes()).expect("at most 64 boxes");
    let game = DotsAndBoxes::with_rules(geometry, Rules::ALL);
    let mut split = Split::new(game, &Position::start(), SplitOptions { depth, ..SplitOptions::default() });
    let (mut applied, mut nodes, mut biggest) = (0, 0u64, Vec::new());
    for rec in store.records.iter().flatten() {
        applied += usize::from(split.apply(rec).expect("a record of this solve"));
        nodes += rec.nodes;
        biggest.push(rec.nodes);
    }
    biggest.sort_unstable_by(|a, b| b.cmp(a));
    println!(
        "{}: {} records ({applied} on this frontier of {}), {nodes} nodes",
        store.identity,
        store.records.len(),
        split.frontier_len()
    );
    println!("largest jobs (nodes): {:?}", &biggest[..biggest.len().min(10)]);
    println!("root: {:?}", split.root_bounds());
    let moves = split.move_bounds();
    let narrowed = moves.iter().filter(|&&(_, lo, hi)| lo > -boxes || hi < boxes).count();
    println!("root moves with bounds inside [-{boxes}, {boxes}]: {narrowed} of {}", moves.len());
    for (mv, lo, hi) in moves {
        println!("  move {mv:>2}: [{lo}, {hi}]");
    }
    if tree_plies > 0 {
        println!("proven part of the frontier tree ({tree_plies} plies; moves whose bounds are narrowed):");
        print_tree(&split, &mut Vec::new(), tree_plies);
    }
    let left = split.progress().left;
    let first = split.round_of(RoundKind::FirstOrder).len();
    println!("jobs the current question needs: {left} (first alpha-beta order: {first})");
}

fn usage() -> ! {
    eprintln!("usage: store_status RxC STORE_FILE [depth] [--tree PLIES]");
    std::process::exit(2);
}

/// Prints the moves below the node that `path` leads to whose bounds are narrower than the
/// widest of that node's moves (those no record touched) or exact, one per line, indented by
/// ply, down to `plies` plies.
fn print_tree(split: &Split<DotsAndBoxes>, path: &mut Vec<u8>, plies: usize) {
    if path.len() == plies {
        return;
    }
    let Some((_, moves)) = split.move_bounds_after(path) else { return };
    // The widest bounds at this node: a move that no record touched.
    let widest = moves.iter().map(|&(_, lo, hi)| hi - lo).max().unwrap_or(0);
    for (mv, lo, hi) in moves {
        if hi - lo < widest || lo == hi {
            let line: Vec<String> = path.iter().chain(Some(&mv)).map(u8::to_string).collect();
            println!("{}{}: [{lo}, {hi}]", "  ".repeat(path.len()), line.join(" "));
            path.push(mv);
            print_tree(split, path, plies);
            path.pop();
        }
    }
}
