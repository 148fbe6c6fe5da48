//! The parallel engine (`threads` in [`Solver::with_options`]) gives exactly the values of the
//! retrograde table (side 3) and of the one-thread engine (side 4) on random positions, with 2 and 4
//! threads, for margins, bisection, outcomes and analyses; also with every key in the shared
//! TT's narrow part.

use rand::{rngs::SmallRng, seq::SliceRandom, SeedableRng};
use search_core::SearchOptions;
use triangle_war::{Geometry, Outcome, Position, Pruning, RetrogradeTable, Solver};

/// A position with `drawn` random segments drawn.
fn random_position(g: &Geometry, rng: &mut SmallRng, drawn: usize) -> Position {
    let mut order: Vec<usize> = (0..g.segments().len()).collect();
    order.shuffle(rng);
    order.iter().take(drawn).fold(Position::start(), |p, &s| p.play(g, s).0)
}

fn parallel(g: &Geometry, threads: usize, tt_bits: u32) -> Solver {
    let options = SearchOptions { tt_bits, principal_variation_search: true, ..triangle_war::SEARCH_OPTIONS };
    let mut s = Solver::with_options(g.clone(), Pruning::ALL, SearchOptions { threads, ..options });
    // Helpers from the first node: these searches are small.
    s.engine().set_solo_nodes(0);
    s
}

#[test]
fn side3_parallel_matches_the_retrograde_table() {
    let g = Geometry::new(3).unwrap();
    let table = RetrogradeTable::build(&g).unwrap();
    let mut rng = SmallRng::seed_from_u64(33);
    for threads in [2, 4] {
        // A tiny TT forces replacements and bucket contention.
        let mut s = parallel(&g, threads, 6);
        for drawn in (0..18).cycle().take(200) {
            let pos = random_position(&g, &mut rng, drawn);
            let want = table.final_margin(&pos);
            assert_eq!(s.final_margin(&pos), want, "{threads} threads {pos:?}");
            assert_eq!(s.final_margin_bisection(&pos), want, "{threads} threads {pos:?}");
            assert_eq!(s.outcome(&pos), Outcome::of_value(want), "{threads} threads {pos:?}");
        }
    }
}

#[test]
fn side4_parallel_matches_the_one_thread_engine() {
    let g = Geometry::new(4).unwrap();
    let mut one = parallel(&g, 1, 16);
    let mut two = parallel(&g, 2, 16);
    let mut rng = SmallRng::seed_from_u64(404);
    for drawn in (10..28).cycle().take(120) {
        let pos = random_position(&g, &mut rng, drawn);
        let want = one.final_margin(&pos);
        assert_eq!(two.final_margin_bisection(&pos), want, "{pos:?}");
        if drawn >= 20 {
            let (a, b) = (one.analyze(&pos), two.analyze(&pos));
            assert_eq!((a.value, &a.moves, &a.pv), (b.value, &b.moves, &b.pv), "{pos:?}");
        }
    }
    assert!(two.stats().nodes > 0);
}

/// With every key in the shared TT's narrow part ([`triangle_war::TriangleWar::with_narrow_keys`],
/// the default: 64 bits; a table of 2^23 entries, the smallest whose lines leave room for a slot's stored
/// bits), two threads give the one-thread engine's values on side 4 and the table's on side 3.
#[test]
fn two_threads_with_narrow_keys_match_the_one_thread_engine_and_the_table() {
    assert_eq!(
        search_core::SharedTable::<u64, u8>::with_bits_narrow(23, 64).narrow_entries(),
        (40 << 22) / 64 * 7
    );
    assert_eq!(search_core::SharedTable::<u64, u8>::with_bits_narrow(22, 64).narrow_entries(), 0);
    let g4 = Geometry::new(4).unwrap();
    let game = triangle_war::TriangleWar::new(g4.clone());
    assert_eq!(search_core::Game::narrow_key_bits(&game), 64, "on by default");
    assert_eq!(search_core::Game::narrow_key_bits(&game.clone().with_narrow_keys(false)), 0);
    let mut one = parallel(&g4, 1, 16);
    // On by default: `parallel` builds the game with its narrow keys.
    let mut two = parallel(&g4, 2, 23);
    let mut rng = SmallRng::seed_from_u64(4040);
    for drawn in (8..28).cycle().take(60) {
        let pos = random_position(&g4, &mut rng, drawn);
        assert_eq!(two.final_margin_bisection(&pos), one.final_margin(&pos), "{pos:?}");
    }
    let g3 = Geometry::new(3).unwrap();
    let table = RetrogradeTable::build(&g3).unwrap();
    let mut two = parallel(&g3, 2, 23);
    for drawn in (0..18).cycle().take(100) {
        let pos = random_position(&g3, &mut rng, drawn);
        assert_eq!(two.final_margin(&pos), table.final_margin(&pos), "{pos:?}");
    }
}
