//! Extends a principal variation (PV) from a position of known value to the end of the game,
//! printing each move as it is proven: `cargo run --release -p dots-and-boxes --example boxes_pv
//! -- [--tt-bits N] [--threads N] [--value V] RxC MOVE...` (MOVEs: OpenSpiel action ids played
//! from the empty board; V: the value of the position they reach, from its side to move, the
//! margin of the remaining play; without it one search finds it).
//!
//! At every step the first move in generation order whose value equals the position's is taken
//! (`Engine::principal_variation` takes the first in the game's move order instead), each move
//! one null-window test (a move's value
//! can never exceed its position's, so "at least the position's value" makes it exact) and the
//! position's value is carried down instead of searched again: the way the 4x5 solve's PV is
//! taken on from the store's frontier (`docs/results/dots-and-boxes-4x5.md`).

use std::time::Instant;

use dots_and_boxes::{DotsAndBoxes, Geometry, Position, Pruning, Solver};
use search_core::Game;

fn main() {
    let mut tt_bits = 22;
    let mut threads = 1;
    let mut value = None;
    let mut size = None;
    let mut line = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--tt-bits" => tt_bits = args.next().and_then(|t| t.parse().ok()).expect("--tt-bits N"),
            "--threads" => threads = args.next().and_then(|t| t.parse().ok()).expect("--threads N"),
            "--value" => value = Some(args.next().and_then(|t| t.parse::<i64>().ok()).expect("--value V")),
            s if size.is_none() => size = Some(dots_and_boxes::parse_size(s).expect("a size RxC")),
            m => line.push(m.parse::<u8>().expect("a move: an action id")),
        }
    }
    let (r, c) = size.expect("a size RxC");
    let options = dots_and_boxes::search_options(tt_bits, threads);
    let geometry = Geometry::new(r, c).expect("a board of at most 64 lines");
    // The searches use every rule; the line itself walks the plain game (every legal move, to
    // the last line), as `games-cli --analyze` prints it.
    let game = DotsAndBoxes::with_pruning(geometry.clone(), Pruning::NONE);
    let mut solver = Solver::with_options(geometry, Pruning::ALL, options);
    let t = Instant::now();
    let mut pos = Position::start();
    for &m in &line {
        let mut legal = Vec::new();
        game.generate_moves(&pos, &mut legal);
        assert!(legal.contains(&m), "move {m} is not legal after {line:?}");
        pos = game.play(&pos, m).0;
    }
    let mut v = value.unwrap_or_else(|| solver.engine().search(&pos, -100, 100));
    println!("start after {line:?}: value {v:+} for the side to move");
    let mut moves = Vec::new();
    while game.terminal_value(&pos).is_none() {
        let me = game.to_move(&pos);
        moves.clear();
        game.generate_moves(&pos, &mut moves);
        let mut next = None;
        for &m in &moves {
            let (child, gain) = game.play(&pos, m);
            let same = game.to_move(&child) == me;
            // The child's value, from its side to move, if `m` keeps the position's value.
            let target = if same { v - gain } else { gain - v };
            let ok = if same {
                solver.engine().search(&child, target - 1, target) >= target
            } else {
                solver.engine().search(&child, target, target + 1) <= target
            };
            if ok {
                next = Some((m, child, target));
                break;
            }
        }
        let (m, child, target) = next.expect("a move keeps the position's value");
        println!(
            "{m} (value {v:+} for {me:?}; {} nodes, {:.1} s)",
            solver.stats().nodes,
            t.elapsed().as_secs_f64()
        );
        pos = child;
        v = target;
    }
}
