//! Property tests of `Solver::analyze` on random Triangle War positions: the best move value is
//! the value, the PV starts with a best move, and replaying the PV ends with that final margin.

use proptest::prelude::*;
use rand::{rngs::SmallRng, seq::SliceRandom, SeedableRng};
use triangle_war::{Geometry, Player, Position, Solver};

fn position(side: u8, seed: u64, drawn: usize) -> (Geometry, Position) {
    let g = Geometry::new(side).unwrap();
    let mut order: Vec<usize> = (0..g.segments().len()).collect();
    order.shuffle(&mut SmallRng::seed_from_u64(seed));
    let pos = order.iter().take(drawn.min(order.len())).fold(Position::start(), |p, &s| p.play(&g, s).0);
    (g, pos)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn analysis_is_consistent(side in 2u8..=3, seed in any::<u64>(), drawn in 0usize..=18) {
        let (g, pos) = position(side, seed, drawn);
        let mut solver = Solver::new(g.clone(), 16);
        let a = solver.analyze(&pos);
        prop_assert_eq!(a.value, solver.final_margin(&pos));
        if pos.is_over(&g) {
            prop_assert!(a.moves.is_empty() && a.pv.is_empty());
            prop_assert_eq!(a.value, pos.margin());
        } else {
            let pick = |v: i64| if a.to_move == Player::First { v } else { -v };
            let best = a.moves.iter().map(|m| pick(m.value)).max().unwrap();
            prop_assert_eq!(pick(a.value), best);
            prop_assert!(a.best_moves().any(|m| m.mv == a.pv[0]));
            // Every move's value is the exact value of the position after it.
            for m in &a.moves {
                let child = pos.play(&g, usize::from(m.mv)).0;
                prop_assert_eq!(m.value, solver.final_margin(&child));
            }
        }
        let end = a.pv.iter().fold(pos, |p, &s| p.play(&g, usize::from(s)).0);
        prop_assert!(end.is_over(&g));
        prop_assert_eq!(end.margin(), a.value);
    }
}
