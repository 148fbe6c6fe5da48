//! The reply book bundled with the crate (`books/7x6.replies`): intact, of the 7 x 6 board, one
//! entry per position the solver's strategy meets within its depth and no other, every reply a
//! legal column; a sample of its deepest entries re-solved by a solver without it (the leftmost
//! column of the best score, and for two of them every column's exact score); read by the
//! front's solver on 7 x 6 only and not when told not to; a damaged file refused.

use connect_four::{
    bundled_replies, strategy_walk, ConnectFourFront, Geometry, Position, Replies, BUNDLED_REPLIES_BYTES,
};
use game_front::{Front, SolverSettings};
use rand::{Rng, SeedableRng};

#[test]
fn the_bundled_replies_cover_the_strategy_and_agree_with_fresh_searches() {
    let geom = Geometry::STANDARD;
    let replies = Replies::from_bytes(geom, BUNDLED_REPLIES_BYTES).expect("an intact reply book");
    assert!(replies.stones() >= 8, "{} stones", replies.stones());
    let walk = strategy_walk(geom, replies.stones(), |p| replies.reply(p));
    assert!(walk.missing.is_empty(), "{} positions of the strategy without a reply", walk.missing.len());
    assert_eq!(walk.faced.len(), replies.len(), "one entry per position of the strategy, and no other");
    // The empty board: the centre column, the only winning first move (Allis 1988).
    assert_eq!(replies.reply(&Position::empty(geom)).map(|c| c.index()), Some(3));
    let front = ConnectFourFront::with_geometry(geom);
    let plain = || {
        let mut solver = front.solver(SolverSettings::default());
        solver.set_replies(None);
        solver
    };
    let deepest = |n: u32| -> Vec<(Position, connect_four::Column)> {
        walk.faced.iter().filter(|(p, _)| p.moves_played() as u32 == n).copied().collect()
    };
    let mut rng = rand::rngs::SmallRng::seed_from_u64(76);
    for n in [replies.stones(), replies.stones() - 1] {
        let level = deepest(n);
        for _ in 0..2 {
            let (pos, reply) = level[rng.gen_range(0..level.len())];
            assert_eq!(plain().try_best_column(&pos).unwrap(), reply, "{}", pos.moves_string());
        }
    }
    // Two more by every column's exact score: the reply is the leftmost of the best.
    let level = deepest(replies.stones() - 1);
    for _ in 0..2 {
        let (pos, reply) = level[rng.gen_range(0..level.len())];
        let scores = plain().column_scores(&pos);
        let best = scores.iter().map(|&(_, s)| s).max().unwrap();
        let leftmost = scores.iter().find(|&&(_, s)| s == best).unwrap().0;
        assert_eq!(leftmost, reply, "{}: {scores:?}", pos.moves_string());
    }
}

#[test]
fn the_front_answers_from_the_replies_on_7x6_only_and_not_when_told_not_to() {
    let geom = Geometry::STANDARD;
    let bundled = bundled_replies(geom).expect("the 7x6 board has bundled replies");
    assert!(bundled_replies(Geometry::new(6, 5).unwrap()).is_none());
    let front = ConnectFourFront::with_geometry(geom);
    let mut solver = front.solver(SolverSettings::default());
    assert!(solver.replies().is_some_and(|r| std::sync::Arc::ptr_eq(r, &bundled)));
    let off = front.solver(SolverSettings { no_bundled_book: true, ..SolverSettings::default() });
    assert!(off.replies().is_none());
    // A position of the strategy at the book's depth: answered without a search.
    let walk = strategy_walk(geom, bundled.stones(), |p| bundled.reply(p));
    let (pos, reply) =
        *walk.faced.iter().rev().find(|(p, _)| p.moves_played() as u32 == bundled.stones()).unwrap();
    assert_eq!(solver.try_best_column(&pos).unwrap(), reply);
    assert_eq!(solver.stats().nodes, 0);
    // A damaged file is refused.
    let mut bytes = BUNDLED_REPLIES_BYTES.to_vec();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x10;
    assert!(Replies::from_bytes(geom, &bytes).is_err());
    assert!(Replies::from_bytes(geom, &bytes[..bytes.len() - 1]).is_err());
}
