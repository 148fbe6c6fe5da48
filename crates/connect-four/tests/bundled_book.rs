//! The book bundled with the crate (`books/7x6.book`): intact, of the 7 x 6 board, one entry
//! per position of its plan, every value in the board's range, the empty board's the known
//! first-player win, a sample of its deepest entries re-solved from scratch; read by the
//! front's solver unless told otherwise, and by no other board.

use connect_four::{
    bundled_book, Board, ConnectFour, ConnectFourFront, Geometry, Position, Solver, BUNDLED_BOOK_BYTES,
};
use game_front::{Front, SolverSettings};
use rand::{Rng, SeedableRng};
use search_core::{Book, BookPlan, Game, Value};

#[test]
fn the_bundled_book_is_intact_and_its_entries_are_the_scores_a_fresh_solver_finds() {
    let geom = Geometry::new(7, 6).unwrap();
    let game = ConnectFour::new(geom);
    let book = Book::from_bytes(BUNDLED_BOOK_BYTES).expect("an intact book file");
    book.check(&game.book_identity()).expect("a book of the 7x6 board");
    assert!(book.plies() >= 4, "{} plies", book.plies());
    let plan = BookPlan::new(&game, &Board::default(), book.plies());
    let keys: std::collections::HashSet<u64> = plan.positions().map(|&(k, _)| k).collect();
    assert_eq!(book.len(), keys.len(), "one entry per position of the plan");
    let (lo, hi) = game.book_identity().values;
    assert!(book.entries().iter().all(|&(_, v)| (lo..=hi).contains(&v)));
    // The empty 7x6 board: the first player wins with the 41st stone (Allis 1988), score 1.
    assert_eq!(book.value(game.canonical_key(&Board::default()).0), Some(1));
    // A sample of the deepest positions (the ones the build solved), each re-solved by a fresh
    // solver without a book.
    let leaves: Vec<_> = plan.leaves().to_vec();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(76);
    for _ in 0..4 {
        let (key, board) = leaves[rng.gen_range(0..leaves.len())];
        let mut fresh = Solver::with_tt_bits(geom, 22);
        assert_eq!(book.value(key), Some(Value::from(fresh.score_board(&board))), "key {key:#x}");
    }
}

#[test]
fn the_front_reads_the_bundled_book_on_7x6_only_and_not_when_told_not_to() {
    let geom = Geometry::new(7, 6).unwrap();
    let bundled = bundled_book(geom).expect("the 7x6 board has a bundled book");
    assert!(bundled_book(Geometry::new(6, 5).unwrap()).is_none());
    assert!(bundled_book(Geometry::with_k(7, 6, 3).unwrap()).is_none());
    let front = ConnectFourFront::with_geometry(geom);
    let solver = front.solver(SolverSettings::default());
    assert!(solver.book().is_some_and(|b| std::sync::Arc::ptr_eq(b, &bundled)));
    let off = front.solver(SolverSettings { no_bundled_book: true, ..SolverSettings::default() });
    assert!(off.book().is_none());
    // A position within the book's depth is answered at its root: a handful of nodes.
    let mut solver = front.solver(SolverSettings::default());
    let pos = Position::empty(geom).play(3).play(3);
    let game = ConnectFour::new(geom);
    let entry = bundled.value(game.canonical_key(pos.board()).0).expect("in the book");
    assert_eq!(Value::from(solver.score(&pos)), entry);
    assert!(solver.stats().nodes < 10, "{} nodes", solver.stats().nodes);
}
