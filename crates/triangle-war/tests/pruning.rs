//! The pruning rules ([`Pruning`]) and the null-window drivers give exactly the values of the plain
//! engine: random and "hard" (safe moves exhausted) positions of sides 3, 4 and 5, checked
//! against the retrograde table (side 3), the unpruned engine (side 4) and an independent
//! memoised solver over subsets of the undrawn segments written here (side 5).

use std::collections::HashMap;

use rand::{rngs::SmallRng, seq::SliceRandom, Rng, SeedableRng};
use search_core::SearchOptions;
use triangle_war::{Geometry, Position, Pruning, RetrogradeTable, Solver, TriangleWar};

/// A position with `drawn` random segments drawn.
fn random_position(g: &Geometry, rng: &mut SmallRng, drawn: usize) -> Position {
    let mut order: Vec<usize> = (0..g.segments().len()).collect();
    order.shuffle(rng);
    order.iter().take(drawn).fold(Position::start(), |p, &s| p.play(g, s).0)
}

/// Whether drawing `s` in `drawn` leaves some triangle with exactly one undrawn segment.
fn offers(g: &Geometry, drawn: u64, s: usize) -> bool {
    let after = drawn | 1 << s;
    g.triangles().iter().any(|t| (t.0 & !after).count_ones() == 1)
}

/// A "hard" position: random safe moves (completing nothing, offering nothing) until none is
/// left, then `extra` random moves.
fn hard_position(g: &Geometry, rng: &mut SmallRng, extra: usize) -> Position {
    let mut pos = Position::start();
    loop {
        let safe: Vec<usize> = (0..g.segments().len())
            .filter(|&s| !pos.drawn().contains(s) && !offers(g, pos.drawn().0, s))
            .collect();
        match safe.choose(rng) {
            Some(&s) => pos = pos.play(g, s).0,
            None => break,
        }
    }
    for _ in 0..extra {
        let free: Vec<usize> = (0..g.segments().len()).filter(|&s| !pos.drawn().contains(s)).collect();
        if let Some(&s) = free.choose(rng) {
            pos = pos.play(g, s).0;
        }
    }
    pos
}

/// Independent solver: value of the remaining play from the side to move, memoised on the drawn
/// set, straight from the rules (a move completing triangles scores them and moves again).
struct Memo<'a> {
    triangles: Vec<u64>,
    all: u64,
    memo: HashMap<u64, i64>,
    _g: &'a Geometry,
}

impl<'a> Memo<'a> {
    fn new(g: &'a Geometry) -> Self {
        Memo {
            triangles: g.triangles().iter().map(|t| t.0).collect(),
            all: g.all_segments().0,
            memo: HashMap::new(),
            _g: g,
        }
    }

    fn value(&mut self, drawn: u64) -> i64 {
        if drawn == self.all {
            return 0;
        }
        if let Some(&v) = self.memo.get(&drawn) {
            return v;
        }
        let mut best = i64::MIN;
        let mut free = self.all & !drawn;
        while free != 0 {
            let s = free & free.wrapping_neg();
            free &= free - 1;
            let next = drawn | s;
            let won = self.triangles.iter().filter(|&&t| t & s != 0 && next & t == t).count() as i64;
            let child = self.value(next);
            best = best.max(if won > 0 { won + child } else { -child });
        }
        self.memo.insert(drawn, best);
        best
    }
}

fn solver(g: &Geometry, rules: Pruning, pvs: bool) -> Solver {
    Solver::with_options(
        g.clone(),
        rules,
        SearchOptions { tt_bits: 18, principal_variation_search: pvs, ..triangle_war::SEARCH_OPTIONS },
    )
}

#[test]
fn side3_rules_match_the_retrograde_table() {
    let g = Geometry::new(3).unwrap();
    let table = RetrogradeTable::build(&g).unwrap();
    let mut pruned = solver(&g, Pruning::ALL, true);
    let mut rng = SmallRng::seed_from_u64(3);
    for i in 0..3000 {
        let pos = if i % 2 == 0 {
            let k = rng.gen_range(0..=18);
            random_position(&g, &mut rng, k)
        } else {
            let k = rng.gen_range(0..4);
            hard_position(&g, &mut rng, k)
        };
        let want = table.final_margin(&pos);
        assert_eq!(pruned.final_margin(&pos), want, "{pos:?}");
        assert_eq!(pruned.final_margin_bisection(&pos), want, "{pos:?}");
    }
}

#[test]
fn side4_rules_match_the_plain_engine() {
    let g = Geometry::new(4).unwrap();
    let mut plain = solver(&g, Pruning::NONE, true);
    let mut pruned = solver(&g, Pruning::ALL, true);
    let mut pruned_no_pvs = solver(&g, Pruning::ALL, false);
    let mut capture_only = solver(
        &g,
        Pruning {
            capture: true,
            capture_first: false,
            all_but_two: false,
            fold_forced: false,
            graph_keys: false,
            twins: false,
            loony_values: false,
            simple_openings: false,
            chain_ends: false,
            loony_offers: false,
            twin_moves: false,
        },
        true,
    );
    let mut capture_first_only = solver(
        &g,
        Pruning {
            capture: false,
            capture_first: true,
            all_but_two: false,
            fold_forced: false,
            graph_keys: false,
            twins: false,
            loony_values: false,
            simple_openings: false,
            chain_ends: false,
            loony_offers: false,
            twin_moves: false,
        },
        true,
    );
    let mut chain_only = solver(
        &g,
        Pruning {
            capture: false,
            capture_first: true,
            all_but_two: true,
            fold_forced: false,
            graph_keys: false,
            twins: false,
            loony_values: false,
            simple_openings: false,
            chain_ends: false,
            loony_offers: false,
            twin_moves: false,
        },
        true,
    );
    let mut graph_keys_only = solver(&g, Pruning { graph_keys: true, ..Pruning::NONE }, true);
    let mut twins_only = solver(&g, Pruning { twins: true, ..Pruning::NONE }, true);
    let mut loony_only = solver(&g, Pruning { loony_values: true, ..Pruning::NONE }, true);
    let mut openings_only = solver(&g, Pruning { simple_openings: true, ..Pruning::NONE }, true);
    let mut chain_ends_only = solver(&g, Pruning { chain_ends: true, ..Pruning::NONE }, true);
    let mut loony_offers_only = solver(&g, Pruning { loony_offers: true, ..Pruning::NONE }, true);
    let mut twin_moves_only = solver(&g, Pruning { twin_moves: true, ..Pruning::NONE }, true);
    let mut rng = SmallRng::seed_from_u64(4);
    for i in 0..1500 {
        let pos = if i % 2 == 0 {
            let k = rng.gen_range(12..=30);
            random_position(&g, &mut rng, k)
        } else {
            let k = rng.gen_range(0..4);
            hard_position(&g, &mut rng, k)
        };
        let want = plain.final_margin(&pos);
        assert_eq!(pruned.final_margin_bisection(&pos), want, "{pos:?}");
        assert_eq!(pruned_no_pvs.final_margin(&pos), want, "{pos:?}");
        // Each rule alone.
        assert_eq!(capture_only.final_margin(&pos), want, "{pos:?}");
        assert_eq!(capture_first_only.final_margin(&pos), want, "{pos:?}");
        assert_eq!(chain_only.final_margin(&pos), want, "{pos:?}");
        assert_eq!(graph_keys_only.final_margin(&pos), want, "{pos:?}");
        assert_eq!(twins_only.final_margin(&pos), want, "{pos:?}");
        assert_eq!(loony_only.final_margin(&pos), want, "{pos:?}");
        assert_eq!(openings_only.final_margin(&pos), want, "{pos:?}");
        assert_eq!(chain_ends_only.final_margin(&pos), want, "{pos:?}");
        assert_eq!(loony_offers_only.final_margin(&pos), want, "{pos:?}");
        assert_eq!(twin_moves_only.final_margin(&pos), want, "{pos:?}");
    }
}

/// [`Pruning::chain_ends`] on every segment set of side 3 where it drops moves (nothing
/// capturable, a chain of two triangles or more with an end on a junction): the best of the
/// moves it keeps, valued by the retrograde table, is the set's value.
#[test]
fn chain_ends_keep_the_best_move_on_every_side3_position() {
    let g = Geometry::new(3).unwrap();
    let board = g.board();
    let table = strings_and_coins::RetrogradeTable::build(board).unwrap();
    let rules = Pruning { chain_ends: true, ..Pruning::NONE };
    let mut dropping = 0;
    for drawn in 0..1u64 << board.strings() {
        if board.capturing(drawn) != 0 || board.chain_cuts(drawn) == 0 {
            continue;
        }
        dropping += 1;
        let kept = board.candidates(drawn, rules);
        let best = (0..board.strings())
            .filter(|&s| kept >> s & 1 == 1)
            .map(|s| {
                let gain = i64::from(board.completed(drawn, s).count_ones());
                let child = table.value(drawn | 1 << s);
                if gain > 0 {
                    gain + child
                } else {
                    -child
                }
            })
            .max()
            .unwrap();
        assert_eq!(best, table.value(drawn), "{drawn:#x}");
    }
    assert!(dropping > 1000, "only {dropping} sets where the rule drops moves");
}

/// [`Pruning::chain_ends`] against the engine without it (every other rule) on side-4 positions
/// where it drops moves: hard positions with a few random segments added, nothing capturable.
/// `TRIANGLE_CHAIN_CASES=N` runs N positions (default 400).
#[test]
fn chain_ends_equal_the_search_without_them_on_side4() {
    let cases: usize = std::env::var("TRIANGLE_CHAIN_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(400);
    let g = Geometry::new(4).unwrap();
    let mut with_it = solver(&g, Pruning::ALL, true);
    let mut without = solver(&g, Pruning { chain_ends: false, ..Pruning::ALL }, true);
    let mut rng = SmallRng::seed_from_u64(2122);
    let mut done = 0;
    while done < cases {
        let pos = if done % 2 == 0 {
            let k = rng.gen_range(0..4);
            hard_position(&g, &mut rng, k)
        } else {
            let k = rng.gen_range(6..=24);
            random_position(&g, &mut rng, k)
        };
        let drawn = pos.drawn().0;
        if g.board().capturing(drawn) != 0 || g.board().chain_cuts(drawn) == 0 {
            continue;
        }
        done += 1;
        assert_eq!(with_it.final_margin(&pos), without.final_margin(&pos), "{pos:?}");
    }
}

/// Simple loony endgames (every open triangle with exactly two undrawn segments: chains and
/// loops, nothing capturable), reached by random safe segments until none is left and then
/// random segments, on side 4 with at most 22 segments left: [`strings_and_coins::Board::loony_value`]
/// gives the plain engine's value (and the independent memo's, up to 14 segments left), and
/// the engine with every rule the same final margin.
#[test]
fn loony_values_equal_the_plain_search_on_random_endgames() {
    let mut valued = 0;
    for (side, cases) in [(4u8, 2000)] {
        let g = Geometry::new(side).unwrap();
        let tri: Vec<u64> = g.triangles().iter().map(|t| t.0).collect();
        let mut plain = solver(&g, Pruning::NONE, true);
        let mut pruned = solver(&g, Pruning::ALL, true);
        let mut rng = SmallRng::seed_from_u64(2014 + u64::from(side));
        let (mut components, mut memo_checked) = ([0usize; 5], 0);
        let mut done = 0;
        while done < cases {
            // Every simple loony endgame met on one random line of play from a hard position.
            let mut pos = hard_position(&g, &mut rng, 0);
            let simple = |drawn: u64| {
                let open: Vec<u32> =
                    tri.iter().map(|&t| (t & !drawn).count_ones()).filter(|&k| k > 0).collect();
                !open.is_empty() && open.iter().all(|&k| k == 2)
            };
            while !pos.is_over(&g) && done < cases {
                let drawn = pos.drawn().0;
                let left = g.segments().len() - drawn.count_ones() as usize;
                if simple(drawn) && left <= 22 {
                    let v = i64::from(
                        g.board()
                            .loony_value(drawn)
                            .unwrap_or_else(|| panic!("side {side}: {drawn:#x} not valued")),
                    );
                    if left <= 14 {
                        assert_eq!(v, Memo::new(&g).value(drawn), "side {side}: {drawn:#x}");
                        memo_checked += 1;
                    }
                    let final_margin = plain.final_margin(&pos);
                    let sign = if pos.to_move() == search_core::Player::First { 1 } else { -1 };
                    assert_eq!(final_margin, pos.margin() + sign * v, "side {side}: {drawn:#x}");
                    assert_eq!(pruned.final_margin(&pos), final_margin, "side {side}: {drawn:#x}");
                    components[component_sizes(&g, drawn).len().min(4)] += 1;
                    done += 1;
                    valued += 1;
                }
                let free: Vec<usize> =
                    (0..g.segments().len()).filter(|&s| !pos.drawn().contains(s)).collect();
                pos = pos.play(&g, free[rng.gen_range(0..free.len())]).0;
            }
        }
        // One component, two or three, four or more: each met at least ten times. (Side 5
        // reaches 22 segments left late in play, with one component left: not tried.)
        let spread = [components[1], components[2] + components[3], components[4]];
        assert!(spread.iter().all(|&n| n >= 10), "side {side}: components {components:?}");
        assert!(memo_checked >= 30, "side {side}: only {memo_checked} checked by the memo");
    }
    assert_eq!(valued, 2000);
}

/// Graph keys ([`Pruning::graph_keys`]) name positions by their chains and loops: positions of
/// sides 4 and 5 with the same key, drawn at random until no triangle is untouched, have the
/// same value by the independent memo, and positions whose graphs differ (by their sorted
/// component sizes, computed here from scratch) never share a key.
#[test]
fn positions_with_the_same_graph_key_have_the_same_value() {
    for side in [4u8, 5] {
        let g = Geometry::new(side).unwrap();
        let game = TriangleWar::new(g.clone());
        let tri: Vec<u64> = g.triangles().iter().map(|t| t.0).collect();
        let mut rng = SmallRng::seed_from_u64(u64::from(side) * 7);
        let mut by_key: HashMap<u64, (u64, i64, Vec<u32>)> = HashMap::new();
        let (mut shared, mut tried) = (0, 0);
        while tried < 800 {
            // Random segments until no triangle is untouched, then a few more.
            let mut order: Vec<usize> = (0..g.segments().len()).collect();
            order.shuffle(&mut rng);
            let mut drawn = 0u64;
            let mut extra = rng.gen_range(0..6);
            for &s in &order {
                if tri.iter().all(|&t| t & drawn != 0) {
                    if extra == 0 {
                        break;
                    }
                    extra -= 1;
                }
                drawn |= 1 << s;
            }
            let undrawn = g.segments().len() as u32 - drawn.count_ones();
            if undrawn > 15 {
                continue;
            }
            tried += 1;
            let Some(key) = game.graph_key(drawn) else { continue };
            let sizes = component_sizes(&g, drawn);
            let value = Memo::new(&g).value(drawn);
            match by_key.get(&key) {
                Some((other, v, other_sizes)) => {
                    assert_eq!(&sizes, other_sizes, "side {side}: {drawn:#x} and {other:#x} share a key");
                    assert_eq!(value, *v, "side {side}: {drawn:#x} and {other:#x} share a key");
                    shared += u32::from(*other != drawn);
                }
                None => {
                    by_key.insert(key, (drawn, value, sizes));
                }
            }
        }
        assert!(shared > 50, "side {side}: only {shared} positions shared a key");
    }
}

/// The sizes of the components of the strings-and-coins graph of `drawn` (coins joined by
/// undrawn segments), sorted: a union-find over the open triangles, independent of the crate.
fn component_sizes(g: &Geometry, drawn: u64) -> Vec<u32> {
    let tri: Vec<u64> = g.triangles().iter().map(|t| t.0).collect();
    let open: Vec<usize> = (0..tri.len()).filter(|&i| tri[i] & !drawn != 0).collect();
    let mut parent = petgraph::unionfind::UnionFind::<usize>::new(tri.len());
    for &a in &open {
        for &b in &open {
            if a < b && tri[a] & tri[b] & !drawn != 0 {
                parent.union(a, b);
            }
        }
    }
    let mut sizes: HashMap<usize, u32> = HashMap::new();
    for &a in &open {
        *sizes.entry(parent.find_mut(a)).or_default() += 1;
    }
    let mut sizes: Vec<u32> = sizes.into_values().collect();
    sizes.sort_unstable();
    sizes
}

#[test]
fn side5_engine_matches_an_independent_memo() {
    let g = Geometry::new(5).unwrap();
    let mut pruned = solver(&g, Pruning::ALL, true);
    let mut rng = SmallRng::seed_from_u64(5);
    let mut checked = 0;
    let mut i = 0;
    while checked < 60 {
        i += 1;
        let pos = if i % 2 == 0 {
            let k = 45 - rng.gen_range(8..=18);
            random_position(&g, &mut rng, k)
        } else {
            let k = rng.gen_range(0..8);
            hard_position(&g, &mut rng, k)
        };
        let undrawn = 45 - pos.drawn().len();
        if undrawn > 18 {
            continue;
        }
        checked += 1;
        let mut memo = Memo::new(&g);
        let want = pos.margin() + pos.to_move().sign() * memo.value(pos.drawn().0);
        assert_eq!(pruned.final_margin_bisection(&pos), want, "{pos:?}");
    }
}

/// A side-4 solve stopped again and again by a node budget (smaller than some of its root
/// steps), each time resumed in a fresh solver from the text of its checkpoint and of its TT
/// snapshot, ends with the value of an uninterrupted solve; so does the exact analysis of every
/// root move.
#[test]
fn interrupted_side4_solves_resume_to_the_same_answer() {
    interrupted_side4_solves_resume(1, 44);
}

/// The same on the parallel engine (2 threads, the node budget counting both): the root driver
/// of [`Solver::solve_root`] gives the one-thread answers, also when stopped and resumed.
#[test]
fn interrupted_two_thread_side4_solves_resume_to_the_same_answer() {
    interrupted_side4_solves_resume(2, 45);
}

fn interrupted_side4_solves_resume(threads: usize, seed: u64) {
    use search_core::{Checkpoint, Limits};
    let g = Geometry::new(4).unwrap();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut interrupted_rounds = 0;
    let options =
        SearchOptions { tt_bits: 18, principal_variation_search: true, ..triangle_war::SEARCH_OPTIONS };
    // Helpers start at once: these searches are small.
    let fresh = || {
        let mut s = Solver::with_options(g.clone(), Pruning::ALL, SearchOptions { threads, ..options });
        s.engine().set_solo_nodes(0);
        s
    };
    for round in 0..10 {
        let pos = random_position(&g, &mut rng, 3 + round / 3);
        let exact_all = round % 2 == 0;
        let mut plain = solver(&g, Pruning::NONE, true);
        let want = plain.engine().solve(&pos);
        // The largest single step (one null-window search of one root child) bounds the budget
        // from below: a slice must be able to finish at least one step with a fresh TT.
        let (mut max_step, mut last) = (0, 0);
        let uninterrupted = fresh()
            .solve_root(&pos, None, exact_all, |p| {
                max_step = max_step.max(p.nodes - last);
                last = p.nodes;
            })
            .unwrap();
        // Limits are checked every 4096 nodes: smaller budgets would act as 4096.
        let mut budget = (last / 4).max(4096);
        assert!(uninterrupted.finished);
        assert_eq!(uninterrupted.bounds, (want, want));
        if exact_all {
            let mut serial = solver(&g, Pruning::ALL, true);
            assert_eq!(
                uninterrupted.checkpoint,
                serial.engine().solve_root(&pos, None, true, |_| {}).unwrap().checkpoint
            );
        }
        // Fresh solver (fresh TT) for every slice, as after a killed process, seeded with the
        // TT snapshot of the slice before (as `games-cli triangle-war --checkpoint` does), so
        // that a step larger than the budget still advances.
        let mut text: Option<String> = None;
        let mut snapshot = String::new();
        let mut slices = 0;
        loop {
            slices += 1;
            let mut s = fresh();
            s.seed_tt(&search_core::tt_entries_from_text(&snapshot).unwrap());
            s.set_limits(Limits { max_nodes: Some(budget), ..Limits::default() });
            let cp = text.as_deref().map(|t| Checkpoint::from_text(t).unwrap());
            let r = s.solve_root(&pos, cp, exact_all, |_| {}).unwrap();
            assert!(r.bounds.0 <= want && want <= r.bounds.1, "{:?} excludes {want}", r.bounds);
            snapshot = search_core::tt_entries_to_text(&s.heavy_entries(64));
            let new_text = r.checkpoint.to_text();
            if text.as_ref() == Some(&new_text) && slices % 8 == 0 {
                // Steps advance through the snapshot, but not necessarily to the end: widen the
                // budget now and then so that every solve finishes.
                budget *= 2;
            }
            text = Some(new_text);
            if r.finished {
                assert_eq!(r.bounds, (want, want));
                if exact_all {
                    assert_eq!(r.checkpoint, uninterrupted.checkpoint);
                }
                break;
            }
            assert!(slices < 1000, "no progress");
        }
        interrupted_rounds += usize::from(slices > 1);
    }
    assert!(interrupted_rounds >= 5, "only {interrupted_rounds} solves were interrupted");
}
