//! Cross-checks: the search-core engine, plain minimax, the retrograde table and an independent
//! brute force written here from the problem statement's own segment and triangle lists.

use rand::{rngs::SmallRng, seq::SliceRandom, Rng, SeedableRng};
use search_core::reference::minimax;
use search_core::Game;
use triangle_war::{
    parse_games, Geometry, Player, Position, RetrogradeTable, SegmentSet, Solver, TriangleWar,
};

/// POJ 1085's segments and triangles, as listed in the statement.
const POJ_SEGMENTS: [(u8, u8); 18] = [
    (1, 2),
    (1, 3),
    (2, 3),
    (2, 4),
    (2, 5),
    (3, 5),
    (3, 6),
    (4, 5),
    (5, 6),
    (4, 7),
    (4, 8),
    (5, 8),
    (5, 9),
    (6, 9),
    (6, 10),
    (7, 8),
    (8, 9),
    (9, 10),
];
const POJ_TRIANGLES: [[u8; 3]; 9] =
    [[1, 2, 3], [2, 4, 5], [2, 3, 5], [3, 5, 6], [4, 7, 8], [4, 5, 8], [5, 8, 9], [5, 6, 9], [6, 9, 10]];

/// Independent brute force on the statement's lists: returns A's final triangles minus B's
/// from `drawn` (bit i = POJ_SEGMENTS[i]), with `a_to_move` and the current margin.
fn brute_force(drawn: u32, a_to_move: bool, margin: i32) -> i32 {
    if drawn == (1 << 18) - 1 {
        return margin;
    }
    let seg = |x: u8, y: u8| POJ_SEGMENTS.iter().position(|&s| s == (x.min(y), x.max(y))).unwrap();
    let done = |d: u32| {
        POJ_TRIANGLES
            .iter()
            .map(|t| (1 << seg(t[0], t[1])) | (1 << seg(t[1], t[2])) | (1 << seg(t[0], t[2])))
            .filter(|&t| d & t == t)
            .count() as i32
    };
    let mut results = (0..18).filter(|s| drawn >> s & 1 == 0).map(|s| {
        let next = drawn | 1 << s;
        let won = done(next) - done(drawn);
        let sign = if a_to_move { 1 } else { -1 };
        brute_force(next, if won > 0 { a_to_move } else { !a_to_move }, margin + sign * won)
    });
    let first = results.next().unwrap();
    results.fold(first, |acc, v| if a_to_move { acc.max(v) } else { acc.min(v) })
}

fn poj_mask(g: &Geometry, drawn: SegmentSet) -> u32 {
    drawn
        .iter()
        .map(|s| {
            let seg = g.segments()[s];
            1u32 << POJ_SEGMENTS.iter().position(|&p| p == (seg.a, seg.b)).unwrap()
        })
        .sum()
}

/// A random position reached by random play, with `drawn` segments.
fn random_position(g: &Geometry, drawn: usize, rng: &mut SmallRng) -> Position {
    let mut order: Vec<usize> = (0..g.segments().len()).collect();
    order.shuffle(rng);
    order.iter().take(drawn).fold(Position::start(), |p, &s| p.play(g, s).0)
}

#[test]
fn geometry_matches_the_statement_and_the_formulas() {
    let g = Geometry::new(3).unwrap();
    let mut segs: Vec<(u8, u8)> = g.segments().iter().map(|s| (s.a, s.b)).collect();
    let mut poj = POJ_SEGMENTS.to_vec();
    segs.sort_unstable();
    poj.sort_unstable();
    assert_eq!(segs, poj);
    for t in POJ_TRIANGLES {
        let set = [(t[0], t[1]), (t[1], t[2]), (t[0], t[2])]
            .iter()
            .fold(SegmentSet::EMPTY, |acc, &(i, j)| acc.with(g.segment_index(i, j).unwrap()));
        assert!(g.triangles().contains(&set), "triangle {t:?}");
    }
    for n in 1..=6u8 {
        let g = Geometry::new(n).unwrap();
        let n = usize::from(n);
        assert_eq!(usize::from(g.dots()), (n + 1) * (n + 2) / 2);
        assert_eq!(g.segments().len(), 3 * n * (n + 1) / 2);
        assert_eq!(g.triangles().len(), n * n);
        // Every symmetry maps segments onto segments and triangles onto triangles.
        for perm in g.symmetries() {
            let mut image: Vec<u8> = perm.clone();
            image.sort_unstable();
            assert_eq!(image, (0..g.segments().len() as u8).collect::<Vec<_>>());
            for &t in g.triangles() {
                let mapped = t.iter().fold(SegmentSet::EMPTY, |acc, s| acc.with(usize::from(perm[s])));
                assert!(g.triangles().contains(&mapped));
            }
        }
    }
    assert!(Geometry::new(0).is_err());
    assert!(Geometry::new(7).is_err());
}

#[test]
fn engine_table_minimax_and_brute_force_agree_on_side_3() {
    let g = Geometry::new(3).unwrap();
    let game = TriangleWar::new(g.clone());
    let table = RetrogradeTable::build(&g).unwrap();
    let mut solver = Solver::new(g.clone(), 16);
    let mut rng = SmallRng::seed_from_u64(1085);
    for i in 0..300 {
        let pos = random_position(&g, 10 + i % 9, &mut rng);
        let expected =
            brute_force(poj_mask(&g, pos.drawn()), pos.to_move() == Player::First, pos.margin() as i32);
        let remaining = minimax(&game, &pos);
        assert_eq!(pos.margin() + pos.to_move().sign() * remaining, i64::from(expected));
        assert_eq!(table.final_margin(&pos), i64::from(expected));
        assert_eq!(solver.final_margin(&pos), i64::from(expected));
    }
}

#[test]
fn engine_and_table_agree_everywhere_on_side_3_including_the_empty_board() {
    let g = Geometry::new(3).unwrap();
    let table = RetrogradeTable::build(&g).unwrap();
    let mut solver = Solver::new(g.clone(), 18);
    let mut rng = SmallRng::seed_from_u64(751);
    for i in 0..2000 {
        let pos = random_position(&g, i % 19, &mut rng);
        assert_eq!(solver.final_margin(&pos), table.final_margin(&pos), "{pos:?}");
    }
}

#[test]
fn engine_matches_minimax_under_narrow_windows() {
    for side in [2u8, 3] {
        let g = Geometry::new(side).unwrap();
        let game = TriangleWar::new(g.clone());
        let mut engine = search_core::Engine::with_options(
            game.clone(),
            search_core::SearchOptions { tt_bits: 12, ..triangle_war::SEARCH_OPTIONS },
        );
        let mut rng = SmallRng::seed_from_u64(u64::from(side));
        for _ in 0..150 {
            let drawn = g.segments().len().saturating_sub(rng.gen_range(1..=9));
            let pos = random_position(&g, drawn, &mut rng);
            let exact = minimax(&game, &pos);
            for _ in 0..4 {
                let a = rng.gen_range(-5..5);
                let b = a + rng.gen_range(1..3);
                let r = engine.search(&pos, a, b);
                if r <= a {
                    assert!(exact <= r);
                } else if r >= b {
                    assert!(exact >= r);
                } else {
                    assert_eq!(r, exact);
                }
            }
            assert_eq!(engine.solve(&pos), exact);
        }
    }
}

#[test]
fn side_2_from_the_empty_board_agrees_with_minimax() {
    let g = Geometry::new(2).unwrap();
    let game = TriangleWar::new(g.clone());
    let table = RetrogradeTable::build(&g).unwrap();
    let empty = Position::start();
    let exact = minimax(&game, &empty);
    assert_eq!(table.value(&empty), exact);
    assert_eq!(Solver::new(g, 10).final_margin(&empty), exact);
}

#[test]
fn symmetric_positions_share_key_and_value() {
    let g = Geometry::new(4).unwrap();
    let game = TriangleWar::new(g.clone());
    let mut rng = SmallRng::seed_from_u64(6);
    let g3 = Geometry::new(3).unwrap();
    let table = RetrogradeTable::build(&g3).unwrap();
    let game3 = TriangleWar::new(g3.clone());
    for _ in 0..200 {
        let pos = random_position(&g, rng.gen_range(0..30), &mut rng);
        for perm in g.symmetries() {
            let image = pos.drawn().iter().fold(SegmentSet::EMPTY, |acc, s| acc.with(usize::from(perm[s])));
            assert_eq!(game.key(&pos), game.key(&Position::from_parts(&g, image, pos.to_move(), 0).unwrap()));
        }
        let pos3 = random_position(&g3, rng.gen_range(0..18), &mut rng);
        for perm in g3.symmetries() {
            let image = pos3.drawn().iter().fold(SegmentSet::EMPTY, |acc, s| acc.with(usize::from(perm[s])));
            let sym = Position::from_parts(&g3, image, pos3.to_move(), 0).unwrap();
            assert_eq!(table.value(&pos3), table.value(&sym));
            assert_eq!(game3.key(&pos3), game3.key(&sym));
        }
    }
}

#[test]
fn official_sample() {
    let input =
        "4\n6\n2 4\n4 5\n5 9\n3 6\n2 5\n3 5\n7\n2 4\n4 5\n5 9\n3 6\n2 5\n3 5\n7 8\n6\n1 2\n2 3\n1 3\n\
                 2 4\n2 5\n4 5\n10\n1 2\n2 5\n3 6\n5 8\n4 7\n6 10\n2 4\n4 5\n4 8\n7 8\n";
    let g = Geometry::new(3).unwrap();
    let table = RetrogradeTable::build(&g).unwrap();
    let answers: Vec<&str> = parse_games(input, &g)
        .map(|r| triangle_war::judge_text(table.outcome(&r.unwrap().position)))
        .collect();
    assert_eq!(answers, ["B wins.", "A wins.", "A wins.", "B wins."]);
}

#[test]
fn replay_applies_extra_turns_and_double_completions() {
    let g = Geometry::new(3).unwrap();
    // 2-3, 3-5, 2-4, 4-5 then 2-5 completes both 2-3-5 and 2-4-5 for the mover.
    let input = "1\n5\n2 3\n3 5\n2 4\n4 5\n5 2\n";
    let rec = parse_games(input, &g).next().unwrap().unwrap();
    // Moves alternate A B A B, then A draws 5-2 and owns two triangles, and moves again.
    assert_eq!((rec.position.owned_a(), rec.position.owned_b()), (2, 0));
    assert_eq!(rec.position.to_move(), Player::First);
}

/// Independent memoised brute force on any side: the value of the remaining play from the side
/// to move, from the drawn set alone, with completion checked against the triangle list.
fn memo_value(g: &Geometry, drawn: u64, memo: &mut std::collections::HashMap<u64, i64>) -> i64 {
    let all = (1u64 << g.segments().len()) - 1;
    if drawn == all {
        return 0;
    }
    if let Some(&v) = memo.get(&drawn) {
        return v;
    }
    let done = |d: u64| g.triangles().iter().filter(|t| d & t.0 == t.0).count() as i64;
    let mut best = i64::MIN;
    for s in 0..g.segments().len() {
        if drawn >> s & 1 == 0 {
            let next = drawn | 1 << s;
            let won = done(next) - done(drawn);
            let child = memo_value(g, next, memo);
            best = best.max(if won > 0 { won + child } else { -child });
        }
    }
    memo.insert(drawn, best);
    best
}

#[test]
fn side_4_outcomes_and_margins_match_a_memoised_brute_force() {
    let g = Geometry::new(4).unwrap();
    let mut solver = Solver::new(g.clone(), 18);
    let mut rng = SmallRng::seed_from_u64(4);
    let mut draws = 0;
    for i in 0..150 {
        let pos = random_position(&g, 14 + i % 8, &mut rng);
        let mut memo = std::collections::HashMap::new();
        let expected = pos.margin() + pos.to_move().sign() * memo_value(&g, pos.drawn().0, &mut memo);
        assert_eq!(solver.final_margin(&pos), expected, "{pos:?}");
        assert_eq!(solver.outcome(&pos), triangle_war::Outcome::of_value(expected), "{pos:?}");
        draws += usize::from(expected == 0);
    }
    assert!(draws > 0, "the sample should include drawn positions");
}
