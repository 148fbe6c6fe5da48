//! Property tests of `Engine::analyze` on random mid-game staircases: the best move value for
//! the side to move is the value, the PV starts with a best move, and replaying the PV banks
//! exactly the value. Analysed values here are margins of the remaining play (Black's side):
//! a staircase does not record who filled which cell.

use proptest::prelude::*;
use rand::{rngs::SmallRng, Rng, SeedableRng};
use search_core::{Engine, Game, Player, SearchOptions};
use young_chess::{Board, YoungGame};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn analysis_is_consistent(n in 1usize..=5, m in 1usize..=5, seed in any::<u64>(), fill in 0usize..=25) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut values = || (0..n * m).map(|_| rng.gen_range(0..20)).collect::<Vec<i64>>();
        let board = Board::new(n, m, values(), values()).unwrap();
        let game = YoungGame::new(&board);
        // A random staircase reached by play.
        let mut pos = board.start();
        let mut moves = Vec::new();
        for _ in 0..fill.min(n * m) {
            moves.clear();
            game.generate_moves(&pos, &mut moves);
            pos = game.play(&pos, moves[rng.gen_range(0..moves.len())]).0;
        }
        let mut solver = Engine::with_options(game, SearchOptions { tt_bits: 12, ..YoungGame::SEARCH_OPTIONS });
        let a = solver.analyze(&pos);
        let pick = |v: i64| if a.to_move == Player::First { v } else { -v };
        if pos.is_full() {
            prop_assert!(a.moves.is_empty() && a.pv.is_empty());
            prop_assert_eq!(a.value, 0);
        } else {
            prop_assert_eq!(a.moves.iter().map(|mv| pick(mv.value)).max().unwrap(), pick(a.value));
            prop_assert!(a.best_moves().any(|mv| mv.mv == a.pv[0]));
        }
        // Replaying the PV banks the value (Black's gains minus White's).
        let mut p = pos;
        let mut banked = 0;
        for &c in &a.pv {
            let mover = game.to_move(&p);
            let (next, gain) = game.play(&p, c);
            banked += mover.sign() * gain;
            p = next;
        }
        prop_assert!(p.is_full());
        prop_assert_eq!(banked, a.value);
    }
}
