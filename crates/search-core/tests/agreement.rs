//! Alpha-beta + TT must give exactly the value of plain minimax, under full and narrow windows,
//! on random game trees whose turns do not simply alternate and whose positions transpose.

use rand::{rngs::SmallRng, Rng, SeedableRng};
use search_core::reference::minimax;
use search_core::{
    analyze_with, Engine, Exchange, Expansion, Game, Player, SearchOptions, SearchVisitor, Value,
};

/// A random game tree: positions are `(depth, id)`, ids folded into a small key space so that
/// many lines transpose; moves bank small gains; some moves keep the turn.
#[derive(Clone, Copy)]
struct RandomTree {
    seed: u64,
    depth: u8,
    key_space: u64,
    with_bounds: bool,
    /// Orders its moves only once the TT's best move has not ended a node
    /// (`Game::order_after_hint`) at half of the positions, and skips enhanced transposition
    /// cutoff's look-ups at a third (`Game::children_in_table`).
    late_hooks: bool,
}

/// How many times a [`RandomTree`]'s `order_moves` got only some of a position's moves.
static LATE_ORDERS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

#[derive(Clone, Copy, Debug)]
struct Pos {
    depth: u8,
    id: u64,
    player: Player,
    banked: Value,
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

impl RandomTree {
    fn h(&self, depth: u8, id: u64, salt: u64) -> u64 {
        mix(self.seed ^ mix(id.wrapping_mul(131) ^ (u64::from(depth) << 48) ^ salt.wrapping_mul(0x9E37)))
    }
    fn root(&self) -> Pos {
        Pos { depth: 0, id: 1, player: Player::First, banked: 0 }
    }
}

impl Game for RandomTree {
    type Position = Pos;
    type Move = u8;
    type Key = u64;

    fn to_move(&self, pos: &Pos) -> Player {
        pos.player
    }
    fn terminal_value(&self, pos: &Pos) -> Option<Value> {
        (pos.depth == self.depth).then(|| (self.h(pos.depth, pos.id, 7) % 11) as Value - 5)
    }
    fn generate_moves(&self, pos: &Pos, moves: &mut Vec<u8>) {
        let n = 1 + self.h(pos.depth, pos.id, 1) % 4;
        moves.extend(0..n as u8);
    }
    fn play(&self, pos: &Pos, mv: u8) -> (Pos, Value) {
        let r = self.h(pos.depth, pos.id, 100 + u64::from(mv));
        let gain = (r % 5) as Value - 2;
        let keep_turn = (r >> 8) % 3 == 0;
        let player = if keep_turn { pos.player } else { pos.player.opponent() };
        let id = (r >> 16) % self.key_space;
        (Pos { depth: pos.depth + 1, id, player, banked: pos.banked + pos.player.sign() * gain }, gain)
    }
    fn key(&self, pos: &Pos) -> u64 {
        (u64::from(pos.depth) << 56) | pos.id
    }
    fn value_bounds(&self, pos: &Pos) -> (Value, Value) {
        if self.with_bounds {
            let r = 2 * Value::from(self.depth - pos.depth) + 5;
            (-r, r)
        } else {
            (-search_core::INFINITY, search_core::INFINITY)
        }
    }
    fn order_moves(&self, pos: &Pos, moves: &mut [u8]) {
        if self.late_hooks {
            let mut all = Vec::new();
            self.generate_moves(pos, &mut all);
            if moves.len() < all.len() {
                LATE_ORDERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        }
        moves.reverse();
    }
    fn order_after_hint(&self, pos: &Pos) -> bool {
        self.late_hooks && pos.id % 2 == 0
    }
    fn children_in_table(&self, pos: &Pos) -> bool {
        !self.late_hooks || pos.depth % 3 != 0
    }
    fn banked(&self, pos: &Pos) -> Value {
        pos.banked
    }
}

/// Deeper trees (12 to 14 plies), large enough for limits checked every few thousand nodes.
fn deep_trees() -> impl Iterator<Item = RandomTree> {
    trees().take(16).map(|t| RandomTree { depth: 12 + (t.seed % 3) as u8, ..t })
}

fn trees() -> impl Iterator<Item = RandomTree> {
    (0..60u64).map(|seed| RandomTree {
        seed,
        depth: 6 + (seed % 5) as u8,
        key_space: [3, 8, 50, 1 << 40][(seed % 4) as usize],
        with_bounds: seed % 2 == 0,
        late_hooks: false,
    })
}

#[test]
fn full_window_matches_minimax() {
    for game in trees() {
        let expected = minimax(&game, &game.root());
        // A tiny TT forces replacements; a large one keeps everything. With and without PVS,
        // with the plain table and the packed one.
        for bits in [2, 16] {
            for pvs in [true, false] {
                for packed in [false, true] {
                    let options = SearchOptions {
                        principal_variation_search: pvs,
                        tt_bits: bits,
                        ..SearchOptions::DEFAULT
                    };
                    let mut solver = if packed {
                        Engine::with_packed_tt(game, options)
                    } else {
                        Engine::with_options(game, options)
                    };
                    let got = solver.solve(&game.root());
                    assert_eq!(got, expected, "seed {} bits {bits} pvs {pvs} packed {packed}", game.seed);
                }
            }
        }
    }
}

#[test]
fn narrow_windows_respect_fail_soft_contract_with_shared_tt() {
    let mut rng = SmallRng::seed_from_u64(42);
    for game in trees() {
        let root = game.root();
        let exact = minimax(&game, &root);
        let options = SearchOptions {
            principal_variation_search: game.seed % 3 != 0,
            tt_bits: 10,
            ..SearchOptions::DEFAULT
        };
        let mut solver = if game.seed % 2 == 1 {
            Engine::with_packed_tt(game, options)
        } else {
            Engine::with_options(game, options)
        };
        for _ in 0..40 {
            let a: Value = rng.gen_range(-12..12);
            let b = a + rng.gen_range(1..4);
            let r = solver.search(&root, a, b);
            if r <= a {
                assert!(exact <= r, "fail-low {r} must bound {exact} (window {a},{b})");
            } else if r >= b {
                assert!(exact >= r, "fail-high {r} must bound {exact} (window {a},{b})");
            } else {
                assert_eq!(r, exact, "inside window ({a},{b})");
            }
        }
        // Whatever bounds the TT now holds, a full-window search is still exact.
        assert_eq!(solver.solve(&root), exact, "seed {}", game.seed);
    }
}

#[test]
fn every_interior_position_matches_minimax() {
    // Walk random lines and compare at each position, reusing one solver (and TT) per game.
    let mut rng = SmallRng::seed_from_u64(7);
    for game in trees().take(20) {
        let mut solver = Engine::new(game, 12);
        for _ in 0..10 {
            let mut pos = game.root();
            let mut moves = Vec::new();
            while game.terminal_value(&pos).is_none() {
                assert_eq!(solver.solve(&pos), minimax(&game, &pos));
                moves.clear();
                game.generate_moves(&pos, &mut moves);
                pos = game.play(&pos, moves[rng.gen_range(0..moves.len())]).0;
            }
        }
    }
}

#[test]
fn analysis_is_consistent_and_pv_replays_to_value() {
    for game in trees() {
        let root = game.root();
        let mut solver = Engine::new(game, 12);
        let a = solver.analyze(&root);
        assert_eq!(a.value, minimax(&game, &root), "root side is First, nothing banked");
        // The best move value for the side to move is the value.
        let best = a.moves.iter().map(|m| m.value * a.to_move.sign()).max().unwrap() * a.to_move.sign();
        assert_eq!(best, a.value);
        assert_eq!(a.moves[0].value, a.value, "sorted best first");
        // Each move value agrees with minimax of the child.
        for mv in &a.moves {
            let (child, _) = game.play(&root, mv.mv);
            let v = child.banked + child.player.sign() * minimax(&game, &child);
            assert_eq!(mv.value, v);
        }
        // The PV starts with a best move, and replaying it ends with the value banked.
        assert!(a.best_moves().any(|m| m.mv == a.pv[0]));
        let mut pos = root;
        for &m in &a.pv {
            pos = game.play(&pos, m).0;
        }
        let end = game.terminal_value(&pos).expect("PV reaches the end");
        assert_eq!(pos.banked + pos.player.sign() * end, a.value);
        assert!(a.stats.nodes > 0);
    }
}

#[test]
fn null_window_drivers_match_minimax() {
    let mut rng = SmallRng::seed_from_u64(3);
    for game in trees() {
        let root = game.root();
        let exact = minimax(&game, &root);
        for bits in [2, 12] {
            let mut solver = Engine::new(game, bits);
            assert_eq!(solver.solve_bisection(&root), exact, "bisection, seed {}", game.seed);
            // MTD(f) from a good, a bad and a random guess, all on the same TT.
            for guess in [exact, exact + 9, rng.gen_range(-30..30)] {
                assert_eq!(solver.solve_mtdf(&root, guess), exact, "mtdf from {guess}, seed {}", game.seed);
            }
        }
    }
}

#[test]
fn analysis_from_an_oracle_equals_the_engines() {
    for game in trees().take(30) {
        let root = game.root();
        let mut solver = Engine::new(game, 12);
        let engine = solver.analyze(&root);
        let mut calls = 0;
        let oracle = analyze_with(&game, &root, |p| {
            calls += 1;
            minimax(&game, p)
        });
        assert_eq!((oracle.to_move, oracle.value), (engine.to_move, engine.value), "seed {}", game.seed);
        assert_eq!(oracle.moves, engine.moves, "seed {}", game.seed);
        assert_eq!(oracle.pv, engine.pv, "seed {}", game.seed);
        assert!(calls > oracle.moves.len());
    }
}

/// The same trees keyed by `u128`, the id in the high half: keys that differ only in their high
/// 64 bits must neither collide nor crowd one bucket. With a narrow width `W` (the second
/// field, 0 for none) the positions of ids below `2^6` get small keys instead, `depth << 6 |
/// id` (below `2^W` for `W = 10`, most of them used), which the shared table keeps seven to a
/// line as the stored bits of a mixed key.
#[derive(Clone, Copy)]
struct WideKeys(RandomTree, u32);

/// The narrow width of [`WideKeys`] with small keys.
const NARROW_BITS: u32 = 10;

impl Game for WideKeys {
    type Position = Pos;
    type Move = u8;
    type Key = u128;

    fn to_move(&self, pos: &Pos) -> Player {
        self.0.to_move(pos)
    }
    fn terminal_value(&self, pos: &Pos) -> Option<Value> {
        self.0.terminal_value(pos)
    }
    fn generate_moves(&self, pos: &Pos, moves: &mut Vec<u8>) {
        self.0.generate_moves(pos, moves);
    }
    fn play(&self, pos: &Pos, mv: u8) -> (Pos, Value) {
        self.0.play(pos, mv)
    }
    fn key(&self, pos: &Pos) -> u128 {
        if self.1 > 0 && pos.id < 1 << 6 {
            u128::from(pos.depth) << 6 | u128::from(pos.id)
        } else {
            u128::from(self.0.key(pos)) << 64
        }
    }
    fn narrow_key_bits(&self) -> u32 {
        self.1
    }
}

#[test]
fn wide_keys_give_the_same_values() {
    for game in trees() {
        let root = game.root();
        let mut solver = Engine::new(WideKeys(game, 0), 8);
        assert_eq!(solver.solve(&root), minimax(&game, &root), "seed {}", game.seed);
    }
}

#[test]
fn proof_number_search_matches_minimax() {
    use search_core::reference::{Proof, ProofSearch};
    for game in trees() {
        let root = game.root();
        let exact = minimax(&game, &root);
        let mut pns = ProofSearch::new(game);
        for t in [exact - 2, exact - 1, exact, exact + 1] {
            let want = if exact > t { Proof::Proved } else { Proof::Disproved };
            assert_eq!(pns.value_exceeds(&root, t), want, "seed {} threshold {t}", game.seed);
        }
        // Interior positions too, on the same search (its TT is reset per question).
        let mut pos = root;
        let mut moves = Vec::new();
        while game.terminal_value(&pos).is_none() {
            let v = minimax(&game, &pos);
            assert_eq!(pns.value_exceeds(&pos, v), Proof::Disproved);
            assert_eq!(pns.value_exceeds(&pos, v - 1), Proof::Proved);
            moves.clear();
            game.generate_moves(&pos, &mut moves);
            pos = game.play(&pos, moves[moves.len() / 2]).0;
        }
    }
}

#[test]
fn proof_number_search_stops_at_its_budget() {
    use search_core::reference::{Proof, ProofSearch};
    let game = trees().find(|g| g.depth >= 9 && g.key_space > 1000).unwrap();
    let mut pns = ProofSearch::new(game);
    pns.set_node_budget(3);
    assert_eq!(pns.value_exceeds(&game.root(), 0), Proof::Unknown);
    assert!(pns.stats().nodes <= 4);
}

#[test]
fn every_algorithm_gives_the_exact_value() {
    use search_core::reference::{solve_with, Algorithm};
    for game in trees() {
        let root = game.root();
        let exact = minimax(&game, &root);
        let mut nodes = Vec::new();
        for algorithm in Algorithm::ALL {
            let (v, stats) = solve_with(algorithm, &game, &root, 12);
            assert_eq!(v, exact, "{} on seed {}", algorithm.name(), game.seed);
            nodes.push(stats.nodes);
        }
        // Alpha-beta never visits more positions than minimax.
        assert!(nodes[1] <= nodes[0], "seed {}: {nodes:?}", game.seed);
    }
}

/// `Engine::root_analysis_from` keeps a known start of the PV (up to a move that is not
/// legal) and goes on with moves that each keep their position's minimax value to the end.
#[test]
fn analysis_from_a_known_pv_start_keeps_it_and_replays_to_value() {
    // A move's value from its position's side to move, by minimax.
    let move_value = |game: &RandomTree, pos: &Pos, mv: u8| {
        let (child, gain) = game.play(pos, mv);
        let v = minimax(game, &child);
        if child.player == pos.player {
            gain + v
        } else {
            gain - v
        }
    };
    for game in trees() {
        let root = game.root();
        let expected = minimax(&game, &root);
        // The known start: the last best move (generation order) at each of `k` plies by
        // minimax, then a move that is not legal, which ends it.
        let k = (game.seed % 4) as usize;
        let (mut known, mut pos) = (Vec::new(), root);
        while known.len() < k && game.terminal_value(&pos).is_none() {
            let (mut moves, v) = (Vec::new(), minimax(&game, &pos));
            game.generate_moves(&pos, &mut moves);
            let mv = *moves.iter().rev().find(|&&m| move_value(&game, &pos, m) == v).unwrap();
            known.push(mv);
            pos = game.play(&pos, mv).0;
        }
        let kept = known.clone();
        known.push(200);
        let mut solver = Engine::new(game, 12);
        let before = solver.stats();
        let full = solver.solve_root(&root, None, true, |_| {}).unwrap();
        let a = solver.root_analysis_from(&game, &root, &full, &known, &before, None).unwrap();
        assert_eq!(a.value, expected, "seed {}", game.seed);
        assert_eq!(&a.pv[..kept.len()], &kept[..], "seed {}: the known start is kept", game.seed);
        // Every PV move keeps its position's value, and the PV ends the game.
        let mut pos = root;
        for &mv in &a.pv {
            assert_eq!(move_value(&game, &pos, mv), minimax(&game, &pos), "seed {} move {mv}", game.seed);
            pos = game.play(&pos, mv).0;
        }
        let end = game.terminal_value(&pos).expect("PV reaches the end");
        assert_eq!(pos.banked + pos.player.sign() * end, a.value, "seed {}", game.seed);
    }
}

/// The bounds a value-only root solve of `root` ends with when it is stopped again and again by
/// a tiny node budget and resumed from its checkpoint in a fresh engine from `engine`; every
/// stop's bounds must hold `expected`.
fn value_only_resumed(
    root: &Pos,
    expected: Value,
    engine: impl Fn() -> Engine<RandomTree>,
) -> (Value, Value) {
    use search_core::Limits;
    let mut cp = None;
    (0..10_000)
        .find_map(|_| {
            let mut s = engine();
            s.set_limits(Limits { max_nodes: Some(4096 * 3), ..Limits::default() });
            let r = s.solve_root(root, cp.take(), false, |_| {}).unwrap();
            assert!(r.bounds.0 <= expected && expected <= r.bounds.1);
            let done = r.finished.then_some(r.bounds);
            cp = Some(r.checkpoint);
            done
        })
        .expect("progress")
}

/// The root driver of an engine whose driver is MTD(f) from a guess (its rounds then step by
/// MTD(f) from that guess): the value is minimax's whatever the guess, with `exact_all` every
/// move's exact value, and a value-only solve stopped again and again by a tiny node budget
/// resumes to the same value.
#[test]
fn root_driver_of_an_mtdf_engine_matches_minimax() {
    use search_core::Driver;
    for game in trees() {
        let root = game.root();
        let expected = minimax(&game, &root);
        let values = Engine::new(game, 12).move_values(&root);
        for guess in [-9, 0, 4] {
            let options =
                SearchOptions { tt_bits: 12, driver: Driver::Mtdf { guess }, ..SearchOptions::DEFAULT };
            let best = Engine::with_options(game, options).solve_root(&root, None, false, |_| {}).unwrap();
            assert!(best.finished);
            assert_eq!(best.bounds, (expected, expected), "seed {} guess {guess}", game.seed);
            let full = Engine::with_options(game, options).solve_root(&root, None, true, |_| {}).unwrap();
            for (m, (mv, v)) in full.checkpoint.moves.iter().zip(&values) {
                assert_eq!((m.mv, m.lo, m.hi), (*mv, *v, *v), "seed {} guess {guess}", game.seed);
            }
            let resumed = value_only_resumed(&root, expected, || Engine::with_options(game, options));
            assert_eq!(resumed, (expected, expected), "seed {} guess {guess}", game.seed);
        }
    }
}

/// The root driver gives minimax's value, with `exact_all` every move's exact value, and a
/// driver stopped again and again by a tiny node budget, resumed from its checkpoint's text in
/// a fresh solver, ends with the same result; a raised stop flag interrupts at once.
#[test]
fn root_driver_limits_and_checkpoints_match_minimax() {
    use search_core::{Checkpoint, Limits};
    use std::sync::{atomic::AtomicBool, Arc};
    for game in trees() {
        let root = game.root();
        let expected = minimax(&game, &root);
        let mut solver = Engine::new(game, 12);
        let values = solver.move_values(&root);
        let full = Engine::new(game, 12).solve_root(&root, None, true, |_| {}).unwrap();
        assert!(full.finished);
        assert_eq!(full.bounds, (expected, expected), "seed {}", game.seed);
        for (m, (mv, v)) in full.checkpoint.moves.iter().zip(&values) {
            assert_eq!((m.mv, m.lo, m.hi), (*mv, *v, *v), "seed {}", game.seed);
        }
        let best = Engine::new(game, 12).solve_root(&root, None, false, |_| {}).unwrap();
        assert_eq!(best.bounds, (expected, expected), "seed {}", game.seed);
        // Value only: every move's bounds hold its value, none is above the root's.
        for (m, (_, v)) in best.checkpoint.moves.iter().zip(&values) {
            assert!(m.lo <= *v && *v <= m.hi && m.hi <= expected, "seed {}: {m:?} {v}", game.seed);
        }
        // ...and a value-only solve stopped again and again resumes to the same value.
        let resumed = value_only_resumed(&root, expected, || Engine::new(game, 12));
        assert_eq!(resumed, (expected, expected), "seed {}", game.seed);

        let mut text = None;
        for _ in 0..10_000 {
            let mut s = Engine::new(game, 12);
            s.set_limits(Limits { max_nodes: Some(4096 * 3), ..Limits::default() });
            let cp = text.as_deref().map(|t| Checkpoint::<u8>::from_text(t).unwrap());
            let r = s.solve_root(&root, cp, true, |_| {}).unwrap();
            assert!(r.bounds.0 <= expected && expected <= r.bounds.1);
            text = Some(r.checkpoint.to_text());
            if r.finished {
                assert_eq!(r.checkpoint, full.checkpoint, "seed {}", game.seed);
                break;
            }
        }
        assert_eq!(Checkpoint::<u8>::from_text(text.as_deref().unwrap()).unwrap(), full.checkpoint);

        let stop = Arc::new(AtomicBool::new(true));
        let mut s = Engine::new(game, 12);
        s.set_limits(Limits { stop: Some(stop), ..Limits::default() });
        assert!(s.try_search(&root, -100, 100).is_err());
        assert_eq!(s.solve(&root), expected, "plain search ignores limits");
    }
}

/// The parallel solver (lazy SMP over the shared TT) gives minimax's value with 1, 2 and 4
/// threads, helpers started at once, on a tiny TT (constant replacement and bucket contention)
/// and a large one.
#[test]
fn parallel_solver_matches_minimax() {
    for game in trees() {
        let expected = minimax(&game, &game.root());
        for threads in [1, 2, 4] {
            for bits in [2, 16] {
                let options = SearchOptions {
                    principal_variation_search: game.seed % 3 != 0,
                    tt_bits: bits,
                    ..SearchOptions::DEFAULT
                };
                let mut solver = Engine::with_options(game, SearchOptions { threads, ..options });
                solver.set_solo_nodes(0);
                assert_eq!(
                    solver.solve(&game.root()),
                    expected,
                    "seed {} threads {threads} bits {bits}",
                    game.seed
                );
            }
        }
    }
}

/// Narrow windows on the parallel solver keep the fail-soft contract, and the null-window
/// drivers find the exact value, on one TT.
#[test]
fn parallel_null_windows_and_drivers_match_minimax() {
    let mut rng = SmallRng::seed_from_u64(99);
    for game in trees() {
        let root = game.root();
        let exact = minimax(&game, &root);
        for threads in [1, 2, 4] {
            let options = SearchOptions {
                principal_variation_search: game.seed % 2 == 0,
                tt_bits: 10,
                ..SearchOptions::DEFAULT
            };
            let mut solver = Engine::with_options(game, SearchOptions { threads, ..options });
            solver.set_solo_nodes(if game.seed % 4 == 0 { 50 } else { 0 });
            // Classic lazy SMP (perturbed helpers) on some trees, deferral off on others.
            solver.set_perturb(game.seed % 3 == 1);
            solver.set_defer_plies([0, 3, 64][(game.seed % 3) as usize]);
            for _ in 0..20 {
                let a: Value = rng.gen_range(-12..12);
                let b = a + rng.gen_range(1..4);
                let r = solver.search(&root, a, b);
                if r <= a {
                    assert!(exact <= r, "fail-low {r} must bound {exact} (window {a},{b})");
                } else if r >= b {
                    assert!(exact >= r, "fail-high {r} must bound {exact} (window {a},{b})");
                } else {
                    assert_eq!(r, exact, "inside window ({a},{b})");
                }
            }
            assert!(solver.value_exceeds(&root, exact - 1) && !solver.value_exceeds(&root, exact));
            assert_eq!(solver.solve_bisection(&root), exact, "bisection, seed {}", game.seed);
            for guess in [exact, exact + 9, rng.gen_range(-30..30)] {
                assert_eq!(solver.solve_mtdf(&root, guess), exact, "mtdf from {guess}, seed {}", game.seed);
            }
            assert!(solver.stats().nodes > 0);
        }
    }
}

/// Every interior position on random lines, one parallel solver (and TT) per game.
#[test]
fn parallel_interior_positions_match_minimax() {
    let mut rng = SmallRng::seed_from_u64(17);
    for game in trees().take(20) {
        let mut solver = Engine::with_options(
            game,
            SearchOptions { threads: 2, ..SearchOptions { tt_bits: 8, ..SearchOptions::DEFAULT } },
        );
        solver.set_solo_nodes(0);
        for _ in 0..5 {
            let mut pos = game.root();
            let mut moves = Vec::new();
            while game.terminal_value(&pos).is_none() {
                assert_eq!(solver.solve(&pos), minimax(&game, &pos));
                moves.clear();
                game.generate_moves(&pos, &mut moves);
                pos = game.play(&pos, moves[rng.gen_range(0..moves.len())]).0;
            }
        }
    }
}

/// The root driver on the parallel solver (2 threads, helpers at once): uninterrupted it gives
/// the one-thread driver's checkpoint (every move's exact value); stopped again and again by a
/// small node budget (all threads together) and resumed, from the checkpoint's text in a fresh
/// solver or in the same solver with its TT, it ends with the same checkpoint; a raised stop
/// flag interrupts at once.
#[test]
fn parallel_root_driver_limits_and_checkpoints_match_the_serial_one() {
    use search_core::{Checkpoint, Limits};
    use std::sync::{atomic::AtomicBool, Arc};
    let mut interrupted = 0;
    for game in deep_trees() {
        let root = game.root();
        let expected = minimax(&game, &root);
        let serial = Engine::new(game, 12).solve_root(&root, None, true, |_| {}).unwrap();
        let options = SearchOptions {
            principal_variation_search: game.seed % 3 != 0,
            tt_bits: 12,
            ..SearchOptions::DEFAULT
        };
        let fresh = || {
            let mut s = Engine::with_options(game, SearchOptions { threads: 2, ..options });
            s.set_solo_nodes(0);
            s
        };
        let full = fresh().solve_root(&root, None, true, |_| {}).unwrap();
        assert!(full.finished);
        assert_eq!(full.checkpoint, serial.checkpoint, "seed {}", game.seed);
        let best = fresh().solve_root(&root, None, false, |_| {}).unwrap();
        assert_eq!(best.bounds, (expected, expected), "seed {}", game.seed);

        // Odd seeds keep one solver (and its TT) across the slices, even seeds start afresh.
        let keep = game.seed % 2 == 1;
        let mut kept = fresh();
        let mut text = None;
        let mut done = false;
        for slice in 0..10_000u64 {
            let mut new = fresh();
            let s = if keep { &mut kept } else { &mut new };
            let base = if keep { s.stats().nodes } else { 0 };
            s.set_limits(Limits { max_nodes: Some(base + 4096 * 2), ..Limits::default() });
            let cp = text.as_deref().map(|t| Checkpoint::<u8>::from_text(t).unwrap());
            let r = s.solve_root(&root, cp, true, |_| {}).unwrap();
            assert!(r.bounds.0 <= expected && expected <= r.bounds.1, "seed {} slice {slice}", game.seed);
            text = Some(r.checkpoint.to_text());
            if r.finished {
                assert_eq!(r.checkpoint, serial.checkpoint, "seed {}", game.seed);
                done = true;
                break;
            }
            interrupted += 1;
        }
        assert!(done, "seed {}: no progress", game.seed);

        let stop = Arc::new(AtomicBool::new(true));
        let mut s = fresh();
        s.set_limits(Limits { stop: Some(stop), ..Limits::default() });
        assert!(s.try_search(&root, -100, 100).is_err());
    }
    assert!(interrupted > 0, "the node budget never stopped a search");
}

/// A parallel search stopped by its node budget returns `Interrupted`, and the same solver
/// (its TT keeping only what was proven before the stop) then gives the exact value of every
/// interior position.
#[test]
fn parallel_interrupted_searches_leave_only_proven_results() {
    use search_core::Limits;
    let mut rng = SmallRng::seed_from_u64(5);
    let mut stopped = 0;
    for game in deep_trees() {
        let root = game.root();
        let mut solver = Engine::with_options(
            game,
            SearchOptions { threads: 2, ..SearchOptions { tt_bits: 10, ..SearchOptions::DEFAULT } },
        );
        solver.set_solo_nodes(0);
        for round in 0..4 {
            // A full window first (the largest search, on an empty TT), then null windows.
            let a: Value = if round == 0 { -100 } else { rng.gen_range(-12..12) };
            let b = if round == 0 { 100 } else { a + 1 };
            // Limits are checked once per 4096-node block of each thread: any search longer
            // than one block is stopped.
            let budget = solver.stats().nodes + 1;
            solver.set_limits(Limits { max_nodes: Some(budget), ..Limits::default() });
            if solver.try_search(&root, a, b).is_err() {
                stopped += 1;
            }
        }
        solver.set_limits(Limits::default());
        let mut pos = root;
        let mut moves = Vec::new();
        while game.terminal_value(&pos).is_none() {
            assert_eq!(solver.try_search(&pos, -100, 100), Ok(minimax(&game, &pos)), "seed {}", game.seed);
            moves.clear();
            game.generate_moves(&pos, &mut moves);
            pos = game.play(&pos, moves[rng.gen_range(0..moves.len())]).0;
        }
    }
    assert!(stopped > 0, "no search was stopped");
}

/// A root solve cut into slices by a tiny node budget, each slice a fresh engine seeded with
/// the heavy TT entries of the one before (through their text), ends with the uninterrupted
/// solve's values; the seeded entries make the slices' total work smaller than starting each
/// slice with an empty TT. Serial and two-thread parallel engines.
#[test]
fn tt_snapshots_resume_root_solves_with_the_same_values() {
    use search_core::{tt_entries_from_text, tt_entries_to_text, Checkpoint, Limits};
    fn slices(
        game: &RandomTree,
        fresh: &dyn Fn(Limits) -> Engine<RandomTree>,
        seeded: bool,
    ) -> (Checkpoint<u8>, u64, usize) {
        let root = game.root();
        let (mut text, mut tt_text, mut total, mut seen) = (None::<String>, String::new(), 0, 0);
        for _ in 0..10_000 {
            let mut s = fresh(Limits { max_nodes: Some(4096 * 2), ..Limits::default() });
            if seeded {
                let entries = tt_entries_from_text::<u64, u8>(&tt_text).unwrap();
                seen = seen.max(entries.len());
                s.seed_tt(&entries);
            }
            let cp = text.as_deref().map(|t| Checkpoint::<u8>::from_text(t).unwrap());
            let r = s.solve_root(&root, cp, true, |_| {}).unwrap();
            total += s.stats().nodes;
            text = Some(r.checkpoint.to_text());
            tt_text = tt_entries_to_text(&s.heavy_entries(64));
            if r.finished {
                return (r.checkpoint, total, seen);
            }
        }
        panic!("seed {}: no progress", game.seed);
    }
    let (mut plain_nodes, mut seeded_nodes, mut saved) = (0, 0, 0);
    for game in deep_trees() {
        let root = game.root();
        let full = Engine::new(game, 12).solve_root(&root, None, true, |_| {}).unwrap();
        let serial = |limits| {
            let mut s = Engine::new(game, 12);
            s.set_limits(limits);
            s
        };
        let (cp, plain, _) = slices(&game, &serial, false);
        assert_eq!(cp, full.checkpoint, "seed {}", game.seed);
        let (cp, seeded, seen) = slices(&game, &serial, true);
        assert_eq!(cp, full.checkpoint, "seed {}", game.seed);
        saved += seen;
        plain_nodes += plain;
        seeded_nodes += seeded;
        let parallel = |limits| {
            let mut s = Engine::with_options(
                game,
                SearchOptions { threads: 2, ..SearchOptions { tt_bits: 12, ..SearchOptions::DEFAULT } },
            );
            s.set_solo_nodes(0);
            s.set_limits(limits);
            s
        };
        let (cp, _, _) = slices(&game, &parallel, true);
        assert_eq!(cp, full.checkpoint, "seed {}", game.seed);
    }
    assert!(saved > 0, "no heavy entry was ever saved");
    assert!(seeded_nodes < plain_nodes, "seeded {seeded_nodes} nodes, plain {plain_nodes}");
}

/// `u128` keys on two threads (the shared table keeps two words per key), with and without
/// helpers from the first node: the same values as minimax.
#[test]
fn wide_keys_on_two_threads_give_the_same_values() {
    for game in trees() {
        let root = game.root();
        let options = SearchOptions { tt_bits: 8, threads: 2, ..SearchOptions::DEFAULT };
        let mut solver = Engine::with_options(WideKeys(game, 0), options);
        solver.set_solo_nodes(game.seed % 2 * 40);
        assert_eq!(solver.solve(&root), minimax(&game, &root), "seed {}", game.seed);
    }
}

/// Every driver, as the engine's own ([`SearchOptions::driver`]) and clamped to a window, on one
/// and two threads: the exact value, and the value clamped to `[lo, hi]`.
#[test]
fn every_driver_and_clamp_gives_the_exact_value() {
    use search_core::Driver;
    let mut rng = SmallRng::seed_from_u64(23);
    for game in trees().take(30) {
        let root = game.root();
        let exact = minimax(&game, &root);
        for driver in [
            Driver::FullWindow,
            Driver::Mtdf { guess: rng.gen_range(-9..9) },
            Driver::Bisection,
            Driver::BisectionTowardZero,
            Driver::MtdfMidpoint,
            Driver::ZeroThenBisection,
            // The walk from the ends: never past its first test, stopped part way, to the end.
            Driver::EndsThenBisection { budget: 0 },
            Driver::EndsThenBisection { budget: rng.gen_range(1..60) },
            Driver::EndsThenBisection { budget: u64::MAX },
        ] {
            for threads in [1, 2] {
                let options = SearchOptions { tt_bits: 10, threads, driver, ..SearchOptions::DEFAULT };
                let mut solver = Engine::with_options(game, options);
                solver.set_solo_nodes(0);
                assert_eq!(solver.solve(&root), exact, "seed {} {driver:?}", game.seed);
                let lo: Value = rng.gen_range(-8..8);
                let hi = lo + rng.gen_range(0..4);
                assert_eq!(
                    solver.solve_within(&root, lo, hi),
                    exact.clamp(lo, hi),
                    "seed {} {driver:?} clamp [{lo}, {hi}]",
                    game.seed
                );
                let analysis = solver.analyze(&root);
                assert_eq!(analysis.value, exact, "seed {} {driver:?}", game.seed);
            }
        }
    }
}

/// A limited analysis stopped by its node budget returns `Interrupted` (never a value), with
/// bounds that hold the searched position's value; without limits the same engine then
/// analyses exactly.
#[test]
fn interrupted_analyses_return_an_error_with_true_bounds() {
    use search_core::Limits;
    let mut stopped = 0;
    for game in deep_trees() {
        let root = game.root();
        let exact = minimax(&game, &root);
        for threads in [1, 2] {
            let options = SearchOptions { tt_bits: 10, threads, ..SearchOptions::DEFAULT };
            let mut solver = Engine::with_options(game, options);
            solver.set_solo_nodes(0);
            solver.set_limits(Limits { max_nodes: Some(1), ..Limits::default() });
            match solver.try_solve(&root) {
                Ok(v) => assert_eq!(v, exact),
                Err(e) => {
                    stopped += 1;
                    assert!(e.lo <= exact && exact <= e.hi, "seed {}: {e:?} vs {exact}", game.seed);
                }
            }
            assert!(solver.try_analyze(&root).is_err(), "seed {}: the budget is spent", game.seed);
            // Plain searches ignore the limits.
            assert_eq!(solver.analyze(&root).value, exact + game.banked(&root), "seed {}", game.seed);
            assert_eq!(solver.solve(&root), exact);
        }
    }
    assert!(stopped > 0, "no search was stopped");
}

/// The trees of [`RandomTree`] with a window-aware ordering ([`Expansion::order_in_window`]) that
/// moves a different move first depending on the window and the bounds, and checks what the
/// engine passes it: a window inside the node's bounds widened by one, bounds in order, no memo
/// (the game does not expand with its terminal test), at least two moves.
struct WindowOrdered {
    tree: RandomTree,
    calls: std::sync::atomic::AtomicUsize,
}

impl Game for WindowOrdered {
    type Position = Pos;
    type Move = u8;
    type Key = u64;

    fn to_move(&self, pos: &Pos) -> Player {
        self.tree.to_move(pos)
    }
    fn terminal_value(&self, pos: &Pos) -> Option<Value> {
        self.tree.terminal_value(pos)
    }
    fn generate_moves(&self, pos: &Pos, moves: &mut Vec<u8>) {
        self.tree.generate_moves(pos, moves);
    }
    fn play(&self, pos: &Pos, mv: u8) -> (Pos, Value) {
        self.tree.play(pos, mv)
    }
    fn key(&self, pos: &Pos) -> u64 {
        self.tree.key(pos)
    }
    fn value_bounds(&self, pos: &Pos) -> (Value, Value) {
        self.tree.value_bounds(pos)
    }
    fn order_moves(&self, pos: &Pos, moves: &mut [u8]) {
        self.tree.order_moves(pos, moves);
    }
    fn banked(&self, pos: &Pos) -> Value {
        pos.banked
    }
    fn visit_search<V: SearchVisitor<Self>>(visitor: V) -> V::Output {
        visitor.expanded()
    }
}

impl Expansion for WindowOrdered {
    fn order_in_window(
        &self,
        _pos: &Pos,
        moves: &mut [u8],
        memo: &[u64],
        (alpha, beta): (Value, Value),
        (lo, hi): (Value, Value),
    ) {
        assert!(!moves.is_empty() && memo.is_empty());
        assert!(lo <= hi && alpha < beta && alpha >= lo - 1 && beta <= hi + 1, "{alpha} {beta} {lo} {hi}");
        self.calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let i = (alpha + 3 * beta + lo).rem_euclid(moves.len() as Value) as usize;
        moves[..=i].rotate_right(1);
    }
}

/// A game that reorders its moves by the window gives minimax's value under every driver, with
/// and without PVS, on a tiny and a large TT; the engine calls the hook.
#[test]
fn window_aware_ordering_keeps_the_exact_value() {
    use search_core::Driver;
    let mut calls = 0;
    for tree in trees() {
        let root = tree.root();
        let exact = minimax(&tree, &root);
        for (bits, pvs) in [(2, true), (16, false), (10, true)] {
            let options =
                SearchOptions { principal_variation_search: pvs, tt_bits: bits, ..SearchOptions::DEFAULT };
            for driver in [
                Driver::FullWindow,
                Driver::Bisection,
                Driver::BisectionTowardZero,
                Driver::EndsThenBisection { budget: 20 },
            ] {
                let game = WindowOrdered { tree, calls: 0.into() };
                let mut solver = Engine::with_options(game, SearchOptions { driver, ..options });
                assert_eq!(solver.solve(&root), exact, "seed {} {driver:?} bits {bits}", tree.seed);
                calls += solver.game().calls.load(std::sync::atomic::Ordering::Relaxed);
            }
        }
    }
    assert!(calls > 1000, "the hook was called {calls} times");
}

/// `SearchOptions::prefetch_children` plays and keys each next child a move early and hands
/// its key down: the same tree is searched, so one thread gives minimax's value with the same
/// nodes and TT probes as without it (plain, packed and `u128`-keyed tables, tiny and large),
/// and two threads give the value.
#[test]
fn prefetching_children_changes_no_value_and_no_node() {
    fn run<G: Game>(game: G, root: &G::Position, options: SearchOptions, packed: bool) -> (Value, u64, u64) {
        let mut solver =
            if packed { Engine::with_packed_tt(game, options) } else { Engine::with_options(game, options) };
        let v = solver.solve(root);
        let s = solver.stats();
        (v, s.nodes, s.tt_probes)
    }
    for game in trees() {
        let root = game.root();
        let expected = minimax(&game, &root);
        for bits in [2, 16] {
            for pvs in [true, false] {
                let off = SearchOptions {
                    principal_variation_search: pvs,
                    tt_bits: bits,
                    ..SearchOptions::DEFAULT
                };
                let on = SearchOptions { prefetch_children: true, ..off };
                for packed in [false, true] {
                    let (a, b) = (run(game, &root, off, packed), run(game, &root, on, packed));
                    assert_eq!(a.0, expected, "seed {} bits {bits} pvs {pvs} packed {packed}", game.seed);
                    assert_eq!(b, a, "seed {} bits {bits} pvs {pvs} packed {packed}", game.seed);
                }
                let (a, b) =
                    (run(WideKeys(game, 0), &root, off, false), run(WideKeys(game, 0), &root, on, false));
                assert_eq!(b, a, "wide keys, seed {} bits {bits} pvs {pvs}", game.seed);
                let mut solver = Engine::with_options(game, SearchOptions { threads: 2, ..on });
                solver.set_solo_nodes(0);
                assert_eq!(solver.solve(&root), expected, "two threads, seed {} bits {bits}", game.seed);
            }
        }
    }
}

/// Narrow keys on one thread through the shared table (`Engine::with_shared_tt`) and on two
/// threads, with tables small enough that lines are replaced again and again: the same values
/// as minimax.
#[test]
fn narrow_keys_in_the_shared_table_give_the_same_values() {
    for game in trees() {
        let root = game.root();
        let expected = minimax(&game, &root);
        for bits in [5, 7, 14] {
            for threads in [1, 2] {
                let options = SearchOptions { tt_bits: bits, threads, ..SearchOptions::DEFAULT };
                let mut solver = if threads == 1 {
                    Engine::with_shared_tt(WideKeys(game, NARROW_BITS), options)
                } else {
                    Engine::with_options(WideKeys(game, NARROW_BITS), options)
                };
                assert_eq!(solver.solve(&root), expected, "seed {} bits {bits} threads {threads}", game.seed);
            }
        }
    }
}

/// Moves ordered only once the TT's best move has not ended a node, and ETC's look-ups
/// skipped at some positions: the work changes, never a value nor a best move.
#[test]
fn ordering_after_the_tt_move_and_skipped_etc_look_ups_give_the_same_values() {
    let before = LATE_ORDERS.load(std::sync::atomic::Ordering::Relaxed);
    for game in trees().chain(deep_trees()) {
        let game = RandomTree { late_hooks: true, ..game };
        let root = game.root();
        let expected = minimax(&game, &root);
        for bits in [2, 16] {
            for etc in [None, Some(0)] {
                for prefetch_children in [false, true] {
                    let options = SearchOptions {
                        tt_bits: bits,
                        enhanced_transposition_cutoff: etc,
                        prefetch_children,
                        ..SearchOptions::DEFAULT
                    };
                    let mut solver = Engine::with_options(game, options);
                    assert_eq!(solver.solve(&root), expected, "seed {} bits {bits} etc {etc:?}", game.seed);
                    assert_eq!(
                        solver.solve_mtdf(&root, 0),
                        expected,
                        "MTD(f), seed {} bits {bits}",
                        game.seed
                    );
                    // The best move stored with a lower bound (or an exact value) reaches it.
                    for e in solver.heavy_entries(0) {
                        let (Some(best), search_core::Bound::Lower | search_core::Bound::Exact) =
                            (e.best, e.bound)
                        else {
                            continue;
                        };
                        let pos = Pos {
                            depth: (e.key >> 56) as u8,
                            id: e.key & ((1 << 56) - 1),
                            player: Player::First,
                            banked: 0,
                        };
                        let (child, gain) = game.play(&pos, best);
                        let v = minimax(&game, &child);
                        let worth = if child.player == pos.player { gain + v } else { gain - v };
                        assert!(
                            worth >= e.value,
                            "seed {}: best move {best} of {:?} worth {worth} < {}",
                            game.seed,
                            (pos.depth, pos.id),
                            e.value
                        );
                    }
                }
            }
        }
    }
    let late = LATE_ORDERS.load(std::sync::atomic::Ordering::Relaxed) - before;
    assert!(late > 1000, "moves ordered after the TT move {late} times");
}

/// Moves put off because other engines search their positions (the exchange's peer paths,
/// here random positions of the tree) change no value: the full solve, and null windows
/// around the value, on one thread and two, with a tiny table and a large one.
#[test]
fn moves_put_off_for_peer_paths_give_the_same_values() {
    let mut rng = SmallRng::seed_from_u64(77);
    for game in trees() {
        let expected = minimax(&game, &game.root());
        // Two peers' paths: random walks from the root.
        let paths: Vec<Vec<u64>> = (0..2)
            .map(|_| {
                let mut pos = game.root();
                let mut keys = vec![game.key(&pos)];
                while game.terminal_value(&pos).is_none() {
                    let mut moves = Vec::new();
                    game.generate_moves(&pos, &mut moves);
                    pos = game.play(&pos, moves[rng.gen_range(0..moves.len())]).0;
                    keys.push(game.key(&pos));
                }
                keys
            })
            .collect();
        for threads in [1, 2] {
            for bits in [2, 16] {
                let exchange =
                    std::sync::Arc::new(Exchange::new(1).with_defer_plies(usize::from(game.depth)));
                for (peer, keys) in paths.iter().enumerate() {
                    exchange.set_peer_path(peer as u64, keys);
                }
                let options = SearchOptions { tt_bits: bits, threads, ..SearchOptions::DEFAULT };
                let mut solver = Engine::with_options(game, options);
                solver.set_exchange(Some(exchange));
                let what = format!("seed {} threads {threads} bits {bits}", game.seed);
                assert_eq!(solver.solve(&game.root()), expected, "{what}");
                assert!(solver.search(&game.root(), expected - 1, expected) >= expected, "{what}");
                assert!(solver.search(&game.root(), expected, expected + 1) <= expected, "{what}");
            }
        }
    }
}
