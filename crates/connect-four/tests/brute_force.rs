//! Cross-checks of the solver against an independent reference: a plain memoised negamax over
//! the full game tree on a naive grid (no bitboards, no pruning, no move ordering, lines found
//! by walking the grid), on small boards; and the known results of small empty boards.

use std::collections::HashMap;

use connect_four::{Geometry, Outcome, Position, Solver};
use rand::{Rng, SeedableRng};
use search_core::Expansion;

/// A naive grid: `cells[c][r]` is 0 (empty), 1 (first player) or 2 (second player).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Grid {
    w: usize,
    h: usize,
    k: usize,
    cells: [[u8; 8]; 8],
    stones: usize,
}

impl Grid {
    fn new(w: usize, h: usize, k: usize) -> Self {
        Grid { w, h, k, cells: [[0; 8]; 8], stones: 0 }
    }

    fn height_of(&self, c: usize) -> usize {
        self.cells[c][..self.h].iter().take_while(|&&x| x != 0).count()
    }

    /// Drops a stone of the side to move in column `c`; returns whether it made k in a row.
    fn drop(&mut self, c: usize) -> bool {
        let r = self.height_of(c);
        let me = if self.stones % 2 == 0 { 1 } else { 2 };
        self.cells[c][r] = me;
        self.stones += 1;
        for (dc, dr) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
            let mut run = 1;
            for sign in [1, -1] {
                let (mut x, mut y) = (c as i32 + sign * dc, r as i32 + sign * dr);
                while x >= 0
                    && y >= 0
                    && (x as usize) < self.w
                    && (y as usize) < self.h
                    && self.cells[x as usize][y as usize] == me
                {
                    run += 1;
                    x += sign * dc;
                    y += sign * dr;
                }
            }
            if run >= self.k {
                return true;
            }
        }
        false
    }

    /// Pons' score of the side to move by full-tree negamax, memoised on the grid.
    fn score(&self, memo: &mut HashMap<Grid, i32>) -> i32 {
        if let Some(&v) = memo.get(self) {
            return v;
        }
        let n = self.stones as i32;
        let cells = (self.w * self.h) as i32;
        let mut best = None;
        for c in 0..self.w {
            if self.height_of(c) == self.h {
                continue;
            }
            let mut child = *self;
            let v = if child.drop(c) { (cells + 1 - n) / 2 } else { -child.score(memo) };
            best = Some(best.map_or(v, |b: i32| b.max(v)));
        }
        let v = best.unwrap_or(0); // full board: draw
        memo.insert(*self, v);
        v
    }
}

/// Plays a random game prefix of `stones` moves that ends nobody's game (retries otherwise).
fn random_prefix(rng: &mut impl Rng, geom: Geometry, stones: usize) -> (Position, Grid) {
    'retry: loop {
        let mut pos = Position::empty(geom);
        let mut grid = Grid::new(geom.width(), geom.height(), geom.k());
        for _ in 0..stones {
            let cols: Vec<usize> = pos.legal_columns().map(|c| c.index()).collect();
            if cols.is_empty() {
                continue 'retry;
            }
            let c = cols[rng.gen_range(0..cols.len())];
            pos = pos.play(c);
            let won = grid.drop(c);
            assert_eq!(won, pos.is_won());
            if won {
                continue 'retry;
            }
        }
        return (pos, grid);
    }
}

#[test]
fn random_positions_match_full_tree_negamax() {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(2024);
    // (width, height, k, stones already played, positions)
    let cases = [
        (4, 4, 4, 0, 1),
        (4, 4, 4, 4, 60),
        (5, 4, 4, 6, 40),
        (4, 5, 4, 6, 40),
        (5, 5, 4, 13, 30),
        (6, 5, 4, 20, 30),
        (7, 6, 4, 32, 40),
        (4, 4, 3, 2, 60),
        (5, 4, 3, 3, 40),
        (3, 3, 3, 0, 1),
        (6, 3, 4, 4, 40),
    ];
    for (w, h, k, stones, count) in cases {
        let geom = Geometry::with_k(w, h, k).unwrap();
        let mut solver = Solver::with_tt_bits(geom, 16);
        let mut memo = HashMap::new();
        for _ in 0..count {
            let (pos, grid) = random_prefix(&mut rng, geom, stones);
            let expected = grid.score(&mut memo);
            assert_eq!(solver.score(&pos), expected, "{w}x{h} k={k} {pos:?}");
            assert_eq!(solver.weak(&pos), Outcome::of_value(i64::from(expected)), "{w}x{h} k={k} {pos:?}");
            // Every column's score, as the analysis gives it.
            for (col, s) in solver.column_scores(&pos) {
                let mut g = grid;
                let exp = if g.drop(col.index()) {
                    (geom.cells() as i32 + 1 - stones as i32) / 2
                } else {
                    -g.score(&mut memo)
                };
                assert_eq!(s, exp, "{w}x{h} k={k} {pos:?} column {col}");
            }
        }
    }
}

/// The principal variation plays out to the end with the announced score.
#[test]
fn analysis_is_consistent_with_its_principal_variation() {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(99);
    let geom = Geometry::new(5, 4).unwrap();
    let mut solver = Solver::with_tt_bits(geom, 16);
    for _ in 0..40 {
        let (pos, _) = random_prefix(&mut rng, geom, 5);
        let a = solver.analyze(&pos);
        let sign = if pos.moves_played() % 2 == 0 { 1 } else { -1 };
        assert_eq!(a.value, sign * i64::from(solver.score(&pos)));
        assert_eq!(a.moves[0].value, a.value);
        assert!(a.moves.windows(2).all(|m| sign * m[0].value >= sign * m[1].value));
        let mut end = pos;
        for c in &a.pv {
            end = end.play(c.index());
        }
        assert!(end.is_over());
        // The final position's value, seen from the first player.
        let last_sign = if end.moves_played() % 2 == 0 { 1 } else { -1 };
        assert_eq!(last_sign * i64::from(solver.score(&end)), a.value, "{pos:?} pv ends {end:?}");
    }
}

/// Known results of empty boards (J. Tromp's table for width + height <= 15, with the length of
/// the perfect game from C. Steininger's table): draws on 4x4, 5x4, 4x5, 5x5, 6x5, 4x6 and
/// 7x4; a second-player win with the last stone on 6x4 (score -1 for the first player).
#[test]
fn empty_small_boards_have_their_known_results() {
    for (w, h, score) in
        [(4, 4, 0), (5, 4, 0), (4, 5, 0), (5, 5, 0), (6, 4, -1), (4, 6, 0), (6, 5, 0), (7, 4, 0)]
    {
        let geom = Geometry::new(w, h).unwrap();
        let mut solver = Solver::with_tt_bits(geom, 20);
        assert_eq!(solver.score(&Position::empty(geom)), score, "{w}x{h}");
    }
}

/// The empty 4x4 and 5x4 boards against the full-tree reference, and every first move.
#[test]
fn empty_boards_match_full_tree_negamax() {
    for (w, h) in [(4, 4), (5, 4)] {
        let geom = Geometry::new(w, h).unwrap();
        let mut solver = Solver::with_tt_bits(geom, 18);
        let mut memo = HashMap::new();
        let grid = Grid::new(w, h, 4);
        assert_eq!(solver.score(&Position::empty(geom)), grid.score(&mut memo), "{w}x{h}");
        for c in 0..w {
            let mut g = grid;
            g.drop(c);
            assert_eq!(
                solver.score(&Position::empty(geom).play(c)),
                g.score(&mut memo),
                "{w}x{h} first move {c}"
            );
        }
    }
}

/// The static knowledge of [`ConnectFour`] (terminal values, the quick part of the terminal
/// test and the early bounds the engine uses before its TT probe, and the bounds of
/// `value_bounds`: stones left, Allis' claimeven for the side to move when an even number of
/// cells is empty, and its use on the mover's moves when the number is odd) holds on thousands
/// of random positions of boards of even and odd heights and widths: against the full-tree negamax on 4 x 4, against the
/// plain rules ([`connect_four::PlainConnectFour`]: no knowledge, every legal move) searched by
/// search-core's alpha-beta elsewhere.
#[test]
fn static_values_and_bounds_hold_on_random_positions() {
    use connect_four::{ConnectFour, PlainConnectFour};
    use search_core::Game;

    let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
    // (width, height, k, stones: a range, positions, full-tree reference)
    let cases = [
        (4, 4, 4, 2..12, 1500, true),
        (5, 4, 4, 2..14, 1500, false),
        (4, 6, 4, 6..16, 800, false),
        (6, 4, 4, 8..18, 600, false),
        (5, 5, 4, 10..20, 800, false),
        (4, 5, 4, 4..14, 800, false),
        (6, 5, 4, 12..22, 600, false),
        (5, 3, 3, 1..10, 500, true),
        (4, 4, 3, 1..8, 500, true),
        (7, 6, 4, 26..36, 1500, false),
    ];
    for (w, h, k, stones, count, full_tree) in cases {
        let mut tightened = 0;
        let geom = Geometry::with_k(w, h, k).unwrap();
        let game = ConnectFour::new(geom);
        let mut plain = search_core::Engine::new(PlainConnectFour::new(geom), 18);
        let mut memo = HashMap::new();
        for _ in 0..count {
            let n = rng.gen_range(stones.clone());
            let (pos, grid) = random_prefix(&mut rng, geom, n);
            if pos.is_over() {
                continue;
            }
            let exact = if full_tree { i64::from(grid.score(&mut memo)) } else { plain.solve(&pos) };
            let b = pos.board();
            // The staged test the engine makes before its TT probe: the quick part of the
            // terminal test agrees with the whole one, and the early bounds hold whether or
            // not the rest of the test settles the position.
            let quick = game.quick_terminal_value(b);
            if let Some(v) = quick {
                assert_eq!(v, exact, "{w}x{h} k={k} {pos:?} quick terminal");
            } else {
                let (lo, hi) = game.early_value_bounds(b);
                assert!(
                    lo <= exact && exact <= hi,
                    "{w}x{h} k={k} {pos:?}: {exact} outside early [{lo}, {hi}]"
                );
            }
            if let Some(v) = game.terminal_value(b) {
                assert_eq!(v, exact, "{w}x{h} k={k} {pos:?} terminal");
                continue;
            }
            let (lo, hi) = game.value_bounds(b);
            assert!(lo <= exact && exact <= hi, "{w}x{h} k={k} {pos:?}: {exact} outside [{lo}, {hi}]");
            assert!(quick.is_none(), "{w}x{h} k={k} {pos:?}: quick terminal, not terminal");
            let expanded = game.expanded_value_bounds(b, game.early_value_bounds(b));
            assert_eq!(expanded, (lo, hi), "{w}x{h} k={k} {pos:?}: expanded bounds");
            // Tighter than the bounds from the stones left alone (the mover wins at the
            // earliest with its third stone, the opponent with its second): claimeven spoke.
            let win_with = |before: usize| ((geom.cells() + 1).saturating_sub(before) / 2) as i64;
            if hi < win_with(n + 4) || lo > -win_with(n + 3) {
                tightened += 1;
            }
        }
        // Claimeven tightened the bounds in many positions of every board with k = 4 (the test
        // exercises it; with k = 3 lines are too easy for it to speak often).
        assert!(k == 3 || tightened >= count / 40, "{w}x{h}: claimeven tightened only {tightened} positions");
    }
}

/// [`ConnectFour`]'s fused terminal test and move ordering (`terminal_or_moves`, what the
/// engine calls at every node) gives the same value, or the same moves in the same order, as
/// `terminal_value`, `generate_moves` and `order_moves` called one after the other, and every
/// move played with the memo it leaves (`play_memo`) gives the child of `play`, on many random
/// positions of several boards (the standard one by its constant-shift path); the memo buffer
/// is reused from position to position, as the engine does at one depth.
#[test]
fn fused_terminal_test_and_ordering_match_the_separate_calls() {
    use connect_four::ConnectFour;
    use search_core::Game;

    let mut rng = rand::rngs::SmallRng::seed_from_u64(31);
    for (w, h, k) in [(7, 6, 4), (6, 5, 4), (5, 4, 4), (8, 7, 4), (6, 7, 4), (4, 4, 3), (8, 5, 5)] {
        let geom = Geometry::with_k(w, h, k).unwrap();
        let game = ConnectFour::new(geom);
        let (mut terminal, mut open) = (0, 0);
        let mut memo = Vec::new();
        for _ in 0..4000 {
            let n = rng.gen_range(0..geom.cells() * 2 / 3);
            let (pos, _) = random_prefix(&mut rng, geom, n);
            if pos.is_over() {
                continue;
            }
            let b = pos.board();
            let mut fused = Vec::new();
            let got = game.terminal_or_moves(b, &mut fused, &mut memo);
            assert_eq!(got, game.terminal_value(b), "{w}x{h} k={k} {pos:?}");
            if got.is_some() {
                terminal += 1;
                continue;
            }
            open += 1;
            let mut separate = Vec::new();
            game.generate_moves(b, &mut separate);
            game.order_moves(b, &mut separate);
            assert_eq!(fused, separate, "{w}x{h} k={k} {pos:?}");
            for &m in &fused {
                assert_eq!(game.play_memo(b, m, &memo), game.play(b, m), "{w}x{h} k={k} {pos:?} {m}");
            }
        }
        assert!(terminal > 100 && open > 100, "{w}x{h}: {terminal} terminal, {open} open positions");
    }
}

/// The TT key folds a position and its mirror image together, and the symmetry
/// `canonical_key` names maps the moves of both onto the same moves of the key's orientation,
/// so that a best move stored through one is read back as the right column of the other.
#[test]
fn mirror_images_share_a_key_and_their_moves_map_onto_the_same_canonical_moves() {
    use connect_four::{Column, ConnectFour};
    use search_core::{Game, Symmetry};

    let mut rng = rand::rngs::SmallRng::seed_from_u64(43);
    for (w, h) in [(7, 6), (6, 5), (5, 4), (8, 7)] {
        let geom = Geometry::new(w, h).unwrap();
        let game = ConnectFour::new(geom);
        let mut mirrored_keys = 0;
        for _ in 0..2000 {
            let n = rng.gen_range(0..geom.cells() / 2);
            let (pos, _) = random_prefix(&mut rng, geom, n);
            let mut image = Position::empty(geom);
            for c in pos.history() {
                image = image.play(w - 1 - c.index());
            }
            let (b, i) = (pos.board(), image.board());
            let (key, s) = game.canonical_key(b);
            let (image_key, t) = game.canonical_key(i);
            assert_eq!(key, game.key(b));
            assert_eq!(key, image_key, "{w}x{h} {pos:?}");
            let (Symmetry::Map(s), Symmetry::Map(t)) = (s, t) else { panic!("a mirror is a board symmetry") };
            mirrored_keys += usize::from(s != 0);
            // A symmetric position is its own mirror image: a move and its mirror are the same
            // move there, either hint is right.
            let symmetric = b.code() == i.code();
            for c in pos.legal_columns() {
                let mirror = Column((w - 1 - c.index()) as u8);
                let canonical = game.move_to_canonical(c, s);
                assert_eq!(game.move_from_canonical(canonical, s), c);
                if !symmetric {
                    assert_eq!(canonical, game.move_to_canonical(mirror, t), "{w}x{h} {pos:?} {c}");
                    assert_eq!(game.move_from_canonical(canonical, t), mirror);
                }
            }
        }
        assert!(mirrored_keys > 200, "{w}x{h}: only {mirrored_keys} keys from the mirror image");
    }
}

/// The window-aware ordering (`order_in_window`, where the window hunts a quick win) only
/// reorders the moves, and a move it puts first is worth more than the window's `alpha`
/// (scores of the children from the solver, itself checked against the full-tree negamax
/// above), on random 7 x 6 positions and every window from 2 to the upper bound.
#[test]
fn window_aware_ordering_puts_first_only_moves_beating_alpha() {
    use connect_four::ConnectFour;
    use search_core::Game;

    let geom = Geometry::STANDARD;
    let game = ConnectFour::new(geom);
    let mut solver = Solver::with_tt_bits(geom, 16);
    let mut rng = rand::rngs::SmallRng::seed_from_u64(23);
    let (mut open, mut moved) = (0, 0);
    let mut memo = Vec::new();
    for _ in 0..6000 {
        let n = rng.gen_range(4..26);
        let (pos, _) = random_prefix(&mut rng, geom, n);
        let b = pos.board();
        let mut moves = Vec::new();
        if game.terminal_or_moves(b, &mut moves, &mut memo).is_some() || moves.len() < 2 {
            continue;
        }
        open += 1;
        let (lo, hi) = game.value_bounds(b);
        let mut scores = None;
        for alpha in 2..hi {
            let mut got = moves.clone();
            game.order_in_window(b, &mut got, &memo, (alpha, alpha + 1), (lo, hi));
            let (mut a, mut e) = (got.clone(), moves.clone());
            a.sort_by_key(|m| m.index());
            e.sort_by_key(|m| m.index());
            assert_eq!(a, e, "{pos:?} alpha {alpha}: not a permutation");
            if got[0] != moves[0] {
                moved += 1;
                let scores = scores.get_or_insert_with(|| solver.column_scores(&pos));
                let s = scores.iter().find(|(c, _)| *c == got[0]).unwrap().1;
                assert!(i64::from(s) > alpha, "{pos:?} alpha {alpha}: {} first, worth {s}", got[0]);
            }
        }
    }
    assert!(open > 1000 && moved > 20, "{open} open positions, {moved} reordered");
}
