//! What each reply at a node of the opponent costs to prove, one fresh TT per reply: the cost
//! a split solve's OR node pays when it tries the replies in move order, against the cheapest
//! reply that would have done (the question of the 4x5 solve's `at most 0` half:
//! `docs/results/dots-and-boxes-4x5.md`).
//!
//! `cargo run --release -p dots-and-boxes --example reply_costs -- RxC SAMPLES SEED [BUDGET]`:
//! `SAMPLES` random openings of three lines (seeded by `SEED`); at each, the side to move's
//! exact value `v` (a TT of 2^24 entries, at most `4 BUDGET` nodes, else the opening is
//! skipped), then for every reply in the engine's move order the null-window job "does this
//! reply keep `v`?" (the child searched with the window that answers it), a TT of 2^22 entries
//! each, at most `BUDGET` nodes (200,000,000 by default). One line per opening: the opening,
//! `v`, and `move:nodes:answer` per reply (`Y` keeps `v`, `n` does not, `?` over the budget),
//! then what trying the replies in order costs up to the first `Y` (a lower bound when a `?`
//! comes first) and the cheapest `Y`.

use dots_and_boxes::{DotsAndBoxes, Geometry, Position, Pruning, Solver};
use rand::{Rng, SeedableRng};
use search_core::{Game, Limits};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: reply_costs RxC SAMPLES SEED [BUDGET]";
    let (r, c) = args.first().and_then(|s| dots_and_boxes::parse_size(s).ok()).expect(usage);
    let samples: usize = args.get(1).and_then(|s| s.parse().ok()).expect(usage);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).expect(usage);
    let budget: u64 = args.get(3).map_or(Some(200_000_000), |b| b.parse().ok()).expect(usage);
    let geometry = Geometry::new(r, c).expect("a board of at most 64 lines");
    let game = DotsAndBoxes::new(geometry.clone());
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let lines = geometry.line_count();
    for _ in 0..samples {
        let mut pos = Position::start();
        let mut opening = Vec::new();
        while opening.len() < 3 {
            let m = rng.gen_range(0..lines) as u8;
            if !opening.contains(&m) {
                opening.push(m);
                pos = game.play(&pos, m).0;
            }
        }
        let mut solver =
            Solver::with_options(geometry.clone(), Pruning::ALL, dots_and_boxes::search_options(24, 1));
        solver.set_limits(Limits { max_nodes: Some(4 * budget), ..Limits::default() });
        let Ok(v) = solver.try_value(&pos) else {
            println!("opening {opening:?}: its value takes over {} nodes, skipped", 4 * budget);
            continue;
        };
        let value_nodes = solver.stats().nodes;
        let mut moves = Vec::new();
        game.generate_moves(&pos, &mut moves);
        game.order_moves(&pos, &mut moves);
        let mut replies = Vec::new();
        for &m in &moves {
            let (child, gain) = game.play(&pos, m);
            let same = game.to_move(&child) == game.to_move(&pos);
            // The child's value, from its side to move, if `m` keeps `v`.
            let target = if same { v - gain } else { gain - v };
            let mut s =
                Solver::with_options(geometry.clone(), Pruning::ALL, dots_and_boxes::search_options(22, 1));
            s.set_limits(Limits { max_nodes: Some(budget), ..Limits::default() });
            let keeps = if same {
                s.engine().try_search(&child, target - 1, target).map(|w| w >= target)
            } else {
                s.engine().try_search(&child, target, target + 1).map(|w| w <= target)
            };
            replies.push((m, s.stats().nodes, keeps.ok()));
        }
        // The replies a split tries in order: up to the first that keeps `v` (all, if none).
        let tried =
            &replies[..replies.iter().position(|r| r.2 == Some(true)).map_or(replies.len(), |i| i + 1)];
        let in_order: u64 = tried.iter().map(|r| r.1).sum();
        let censored = tried.iter().any(|r| r.2.is_none());
        let cheapest = replies.iter().filter(|&&(_, _, k)| k == Some(true)).map(|&(_, n, _)| n).min();
        let text: Vec<String> = replies
            .iter()
            .map(|&(m, n, k)| {
                format!(
                    "{m}:{n}:{}",
                    match k {
                        Some(true) => "Y",
                        Some(false) => "n",
                        None => "?",
                    }
                )
            })
            .collect();
        println!(
            "opening {opening:?} value {v} ({value_nodes} nodes) replies {}; in order {}{in_order} nodes, cheapest {}",
            text.join(" "),
            if censored { ">= " } else { "" },
            cheapest.map_or("none within the budget".to_string(), |n| format!("{n} nodes")),
        );
    }
}
