//! How the work of a strings-and-coins board grows with the strings left, for sizing a solve
//! too large for one machine: random safe openings (strings drawn at random among those that
//! leave every coin at least two undrawn strings, so nothing is offered) with `L` strings left,
//! each solved exactly with a fresh TT under a node budget; the least, median, largest and total
//! nodes per `L` (each opening's nodes on stderr as it is solved; a row with openings over the
//! budget keeps its median while fewer than half are over, its largest and total then given
//! as lower bounds), the growth factor per string between the two largest `L` solved (by the
//! medians), and the empty board extrapolated.
//!
//! `cargo run --release -p split-solve --example growth -- GAME BOARD [--left L1,L2,..]
//! [--samples N] [--tt-bits B] [--budget NODES] [--seed S] [--rules RULES] [--etc SPAN]
//! [--etc-moves N] [--prefetch] [--driver full|bisection|zero|mtdf] [--shared-tt [--no-narrow]]`,
//! with `GAME BOARD` either
//! `triangle-war SIDE` or `dots-and-boxes RxC`, and `RULES` the pruning rules as
//! `games-cli triangle-war --rules` reads them (`all`, the default, or `none`: the plain game tree),
//! and `--etc` / `--etc-moves` the engine's enhanced transposition cutoff
//! (`SearchOptions::enhanced_transposition_cutoff`, `SearchOptions::etc_min_moves`), `--prefetch`
//! the children's TT buckets prefetched a move ahead (`SearchOptions::prefetch_children`; off by
//! default, as the rows measured before it), `--driver` how
//! the dots-and-boxes value is found (one full window by default; Triangle War always searches
//! one full window). `--shared-tt` searches on one thread with the table that several threads
//! share (`Engine::with_shared_tt`: its layout, exact node counts), with the keys in that
//! table's narrow part (`DotsAndBoxes::with_narrow_keys`, `TriangleWar::with_narrow_keys`)
//! unless `--no-narrow`.
//!
//! Calibration: the empty board, with its symmetry and transpositions, is cheaper than the
//! extrapolation of random openings (3x4 dots-and-boxes: 10.0 M nodes against about 38 M; side-5
//! Triangle War: see `docs/results/distributed.md`), so run a board that is solved too.

use std::time::Instant;

use rand::{rngs::SmallRng, Rng, SeedableRng};
use search_core::{Limits, SearchOptions, INFINITY};
use strings_and_coins::{Board, Pruning};

/// A safe opening of `board` with `left` strings undrawn, or `None` when the safe strings run out
/// first.
fn opening(board: &Board, rng: &mut SmallRng, left: usize) -> Option<u64> {
    let mut drawn = 0u64;
    while board.strings() - drawn.count_ones() as usize > left {
        let safe: Vec<usize> = (0..board.strings())
            .filter(|&s| drawn >> s & 1 == 0)
            .filter(|&s| {
                let masks = board.border(s).masks;
                masks.iter().all(|&m| m == 0 || (m & drawn).count_ones() + 3 <= m.count_ones())
            })
            .collect();
        if safe.is_empty() {
            return None;
        }
        drawn |= 1 << safe[rng.gen_range(0..safe.len())];
    }
    Some(drawn)
}

/// One game's solver behind the sampler: the board and its pruning rules, and "solve this drawn
/// set exactly under a node budget with a fresh TT of 2^bits entries" giving the nodes, or
/// `None` over budget.
enum Game {
    /// The board, its rules, one thread on the shared TT (`--shared-tt`), its narrow part.
    TriangleWar(triangle_war::Geometry, Pruning, bool, bool),
    /// The same for dots-and-boxes.
    DotsAndBoxes(dots_and_boxes::Geometry, Pruning, bool, bool),
}

impl Game {
    fn board(&self) -> &Board {
        match self {
            Game::TriangleWar(g, ..) => g.board(),
            Game::DotsAndBoxes(g, ..) => g.board(),
        }
    }

    fn solve(&self, drawn: u64, options: SearchOptions, budget: u64) -> Option<u64> {
        let limits = Limits { max_nodes: Some(budget), ..Limits::default() };
        match self {
            Game::TriangleWar(g, rules, shared_tt, narrow) => {
                let game =
                    triangle_war::TriangleWar::with_pruning(g.clone(), *rules).with_narrow_keys(*narrow);
                let mut engine = if *shared_tt {
                    search_core::Engine::with_shared_tt(game, options)
                } else {
                    search_core::Engine::with_options(game, options)
                };
                engine.set_limits(limits);
                let pos = triangle_war::Position::from_parts(
                    g,
                    triangle_war::SegmentSet(drawn),
                    search_core::Player::First,
                    0,
                )
                .expect("a safe opening completes no triangle");
                engine.try_search(&pos, -INFINITY, INFINITY).ok()?;
                Some(engine.stats().nodes)
            }
            Game::DotsAndBoxes(g, rules, shared_tt, narrow) => {
                let game =
                    dots_and_boxes::DotsAndBoxes::with_pruning(g.clone(), *rules).with_narrow_keys(*narrow);
                let mut engine = if *shared_tt {
                    search_core::Engine::with_shared_tt(game, options)
                } else {
                    search_core::Engine::with_options(game, options)
                };
                engine.set_limits(limits);
                let pos = dots_and_boxes::Position::from_drawn(g, drawn).expect("a line set of the board");
                engine.try_solve(&pos).ok()?;
                Some(engine.stats().nodes)
            }
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: growth triangle-war SIDE | dots-and-boxes RxC [--left L1,L2,..] [--samples N] [--tt-bits B] [--budget NODES] [--seed S] [--rules all|none|LIST] [--etc SPAN] [--etc-moves N] [--prefetch] [--driver full|bisection|zero|mtdf] [--shared-tt [--no-narrow]]";
    let (game_name, board_name) = (args.next().expect(usage), args.next().expect(usage));
    let mut lefts: Vec<usize> = Vec::new();
    let mut rules = Pruning::ALL;
    let (mut samples, mut tt_bits, mut budget, mut seed) = (8usize, 22u32, 200_000_000u64, 1u64);
    let (mut etc, mut etc_moves, mut driver) = (None, 0usize, search_core::Driver::FullWindow);
    let (mut prefetch, mut shared_tt, mut narrow) = (false, false, true);
    while let Some(a) = args.next() {
        let mut value = || args.next().expect("a value after the option");
        match a.as_str() {
            "--left" => lefts = value().split(',').map(|l| l.parse().expect("a number")).collect(),
            "--samples" => samples = value().parse().expect("a number"),
            "--tt-bits" => tt_bits = value().parse().expect("a number"),
            "--budget" => budget = value().parse().expect("a number"),
            "--etc" => etc = Some(value().parse().expect("a number")),
            "--etc-moves" => etc_moves = value().parse().expect("a number"),
            "--prefetch" => prefetch = true,
            "--shared-tt" => shared_tt = true,
            "--no-narrow" => narrow = false,
            "--driver" => {
                driver = match value().as_str() {
                    "full" => search_core::Driver::FullWindow,
                    "bisection" => search_core::Driver::Bisection,
                    "zero" => search_core::Driver::BisectionTowardZero,
                    "mtdf" => search_core::Driver::Mtdf { guess: 0 },
                    other => panic!("unknown driver {other}: full, bisection, zero or mtdf"),
                }
            }
            "--seed" => seed = value().parse().expect("a number"),
            "--rules" => rules = triangle_war::parse_pruning(&value()).unwrap_or_else(|e| panic!("{e}")),
            other => panic!("unknown option {other}"),
        }
    }
    let game = match game_name.as_str() {
        "triangle-war" => {
            let side = board_name.parse().expect("a side 1 to 6");
            Game::TriangleWar(
                triangle_war::Geometry::new(side).expect("a side 1 to 6"),
                rules,
                shared_tt,
                narrow,
            )
        }
        "dots-and-boxes" => {
            let (r, c) = dots_and_boxes::parse_size(&board_name).expect("a size RxC");
            let g = dots_and_boxes::Geometry::new(r, c).expect("a board of at most 64 lines");
            Game::DotsAndBoxes(g, rules, shared_tt, narrow)
        }
        _ => panic!("{usage}"),
    };
    let strings = game.board().strings();
    let options = SearchOptions {
        tt_bits,
        enhanced_transposition_cutoff: etc,
        etc_min_moves: etc_moves,
        prefetch_children: prefetch,
        driver,
        ..SearchOptions::DEFAULT
    };
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut medians = Vec::new();
    println!("{game_name} {board_name}: {strings} strings; {samples} safe openings per row, TT 2^{tt_bits}, budget {budget} nodes, ETC {etc:?} from {etc_moves} moves, prefetch {prefetch}, driver {driver:?}");
    println!(
        "{:>5} {:>8} {:>14} {:>14} {:>14} {:>15} {:>9}",
        "left", "solved", "min nodes", "median nodes", "max nodes", "total nodes", "seconds"
    );
    for &left in &lefts {
        let t = Instant::now();
        let openings: Vec<u64> = (0..samples)
            .filter_map(|_| (0..100).find_map(|_| opening(game.board(), &mut rng, left)))
            .collect();
        // Each opening's nodes go to stderr as it is solved, so that a long row shows its
        // progress and a row stopped by hand keeps what it had.
        let mut nodes: Vec<u64> = Vec::new();
        for (i, &d) in openings.iter().enumerate() {
            let n = game.solve(d, options, budget);
            match n {
                Some(n) => eprintln!("  L = {left}: opening {}/{}: {n} nodes", i + 1, openings.len()),
                None => eprintln!(
                    "  L = {left}: opening {}/{}: over the budget of {budget} nodes",
                    i + 1,
                    openings.len()
                ),
            }
            nodes.extend(n);
        }
        let solved = format!("{}/{}", nodes.len(), openings.len());
        let over = openings.len() - nodes.len();
        // An opening over budget is larger than every solved one: the median still stands
        // while fewer than half are over (the max and total then only bound the row).
        if nodes.is_empty() || 2 * over >= openings.len() {
            println!(
                "{left:>5} {solved:>8} {:>14}",
                if openings.is_empty() { "no opening" } else { "over budget" }
            );
            continue;
        }
        nodes.sort_unstable();
        let median = nodes[openings.len() / 2];
        let (min, max, secs) = (nodes[0], nodes[nodes.len() - 1], t.elapsed().as_secs_f64());
        let total: u64 = nodes.iter().sum();
        let (max, total) = if over == 0 {
            (max.to_string(), total.to_string())
        } else {
            (format!(">{budget}"), format!(">{}", total + over as u64 * budget))
        };
        println!("{left:>5} {solved:>8} {min:>14} {median:>14} {max:>14} {total:>15} {secs:>9.1}");
        medians.push((left, median as f64));
    }
    if let [.., (l0, n0), (l1, n1)] = medians[..] {
        if l1 > l0 {
            let factor = (n1 / n0).powf(1.0 / (l1 - l0) as f64);
            let estimate = n1 * factor.powi((strings - l1) as i32);
            println!(
                "growth {factor:.2}x per string; empty board ({strings} strings): about {estimate:.2e} nodes"
            );
        }
    }
}
