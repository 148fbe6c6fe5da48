//! Opening books on small boards, where a whole book builds in seconds: every entry is the
//! score a fresh solver finds, the answers with a book are those without it (scores, win /
//! draw / loss, every column's score, the principal variation), and a damaged book or one of
//! another board, key scheme or range is refused, never read.

use std::collections::HashMap;
use std::sync::Arc;

use connect_four::{Board, ConnectFour, ConnectFourFront, Geometry, Position, Solver};
use game_front::{Front, SolverSettings};
use rand::{Rng, SeedableRng};
use search_core::{Book, BookError, BookIdentity, BookPlan, Game, TtKey, Value};

/// The book of `geom` to `plies` plies, and its plan.
fn build(geom: Geometry, plies: u32) -> (Book, BookPlan<ConnectFour>) {
    let game = ConnectFour::new(geom);
    let plan = BookPlan::new(&game, &Board::default(), plies);
    let mut solver = Solver::with_tt_bits(geom, 16);
    let leaves: HashMap<u128, Value> =
        plan.leaves().iter().map(|(k, b)| (k.to_u128(), Value::from(solver.score_board(b)))).collect();
    let book = plan.finish(&game, &game.book_identity(), &leaves).expect("every leaf solved");
    (book, plan)
}

/// A position of `stones` random moves that nobody has won (retried otherwise).
fn random_position(rng: &mut impl Rng, geom: Geometry, stones: usize) -> Position {
    'retry: loop {
        let mut pos = Position::empty(geom);
        for _ in 0..stones {
            let cols: Vec<usize> = pos.legal_columns().map(|c| c.index()).collect();
            if cols.is_empty() || pos.is_won() {
                continue 'retry;
            }
            pos = pos.play(cols[rng.gen_range(0..cols.len())]);
        }
        if !pos.is_won() {
            return pos;
        }
    }
}

#[test]
fn every_entry_is_the_score_a_fresh_solver_finds() {
    let geom = Geometry::new(5, 4).unwrap();
    let (book, plan) = build(geom, 8);
    let game = ConnectFour::new(geom);
    let keys: std::collections::HashSet<u64> = plan.positions().map(|&(k, _)| k).collect();
    assert_eq!(book.len(), keys.len(), "one entry per position of the plan");
    assert!(book.len() > 1000, "{} entries", book.len());
    book.check(&game.book_identity()).unwrap();
    // A sample of the entries, each re-solved from scratch.
    for (i, (key, board)) in plan.positions().enumerate().filter(|(i, _)| i % 5 == 0) {
        let mut fresh = Solver::with_tt_bits(geom, 12);
        assert_eq!(book.value(*key), Some(Value::from(fresh.score_board(board))), "entry {i}, key {key:#x}");
    }
    // The empty 5x4 board is a draw; every value within the board's range.
    assert_eq!(book.value(game.canonical_key(&Board::default()).0), Some(0));
    let (lo, hi) = game.book_identity().values;
    assert!(book.entries().iter().all(|&(_, v)| (lo..=hi).contains(&v)));
    // The file's bytes read back as the same book.
    assert_eq!(Book::from_bytes(&book.to_bytes()).unwrap(), book);
}

#[test]
fn answers_with_and_without_the_book_are_identical() {
    for (w, h, plies) in [(5, 4, 8), (6, 4, 6)] {
        let geom = Geometry::new(w, h).unwrap();
        let book = Arc::new(build(geom, plies).0);
        let mut with = Solver::with_tt_bits(geom, 14);
        with.set_book(Some(Arc::clone(&book))).unwrap();
        let mut without = Solver::with_tt_bits(geom, 14);
        let mut rng = rand::rngs::SmallRng::seed_from_u64(76 + w as u64);
        for stones in 0..=12 {
            for _ in 0..6 {
                let pos = random_position(&mut rng, geom, stones);
                let at = format!("{w}x{h} {}", pos.moves_string());
                assert_eq!(with.score(&pos), without.score(&pos), "{at}");
                assert_eq!(with.weak(&pos), without.weak(&pos), "{at}");
                let (a, b) = (with.analyze(&pos), without.analyze(&pos));
                assert_eq!((a.value, &a.moves, &a.pv), (b.value, &b.moves, &b.pv), "{at}");
            }
        }
        assert!(with.stats().book_hits > 0, "{w}x{h}: the book was read");
        assert_eq!(without.stats().book_hits, 0);
        // The empty board is answered from the book: a node per search of the driver.
        let mut fresh = Solver::with_tt_bits(geom, 14);
        fresh.set_book(Some(book)).unwrap();
        fresh.score(&Position::empty(geom));
        assert!(fresh.stats().nodes <= 3, "{w}x{h}: {} nodes", fresh.stats().nodes);
    }
}

/// One stone beyond the book's depth, the score is at least minus the book score of every
/// parent (the positions without one of the last mover's top stones): the searches start from
/// that floor, give the scores a solver without the book gives, and search fewer nodes.
#[test]
fn positions_one_stone_beyond_the_book_start_from_their_parents_scores() {
    for (w, h, plies) in [(5, 4, 8), (6, 4, 6)] {
        let geom = Geometry::new(w, h).unwrap();
        let book = Arc::new(build(geom, plies).0);
        let game = ConnectFour::new(geom);
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7_600 + w as u64);
        let (mut nodes_with, mut nodes_without, mut floors) = (0, 0, 0);
        for _ in 0..40 {
            let pos = random_position(&mut rng, geom, plies as usize + 1);
            if pos.is_full() {
                continue;
            }
            let at = format!("{w}x{h} {}", pos.moves_string());
            let mut parents = Vec::new();
            for c in 0..w {
                if let Some(parent) = pos.board().unplay(&geom, c) {
                    assert_eq!(parent.play(&geom, c), *pos.board(), "{at}: column {}", c + 1);
                    parents.push(parent);
                }
            }
            assert!(!parents.is_empty(), "{at}");
            let mut with = Solver::with_tt_bits(geom, 14);
            with.set_book(Some(Arc::clone(&book))).unwrap();
            let mut without = Solver::with_tt_bits(geom, 14);
            let score = without.score(&pos);
            assert_eq!(with.score(&pos), score, "{at}");
            assert_eq!(with.weak(&pos), without.weak(&pos), "{at}");
            if let Some(floor) = parents.iter().filter_map(|b| book.value(game.key(b))).map(|v| -v).max() {
                assert!(Value::from(score) >= floor, "{at}: score {score} below the floor {floor}");
                floors += 1;
            }
            nodes_with += with.stats().nodes;
            nodes_without += without.stats().nodes;
        }
        assert!(floors >= 30, "{w}x{h}: {floors} positions with a parent in the book");
        assert!(
            nodes_with < nodes_without,
            "{w}x{h}: {nodes_with} nodes with the book, {nodes_without} without"
        );
    }
}

#[test]
fn damaged_truncated_and_mismatched_books_are_refused() {
    let geom = Geometry::new(5, 4).unwrap();
    let book = build(geom, 3).0;
    let bytes = book.to_bytes();
    for i in 0..bytes.len() {
        let mut bad = bytes.clone();
        bad[i] ^= 0x10;
        assert!(Book::from_bytes(&bad).is_err(), "byte {i} flipped was read");
    }
    for n in 0..bytes.len() {
        assert!(Book::from_bytes(&bytes[..n]).is_err(), "{n} bytes were read");
    }
    let err = Book::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err();
    assert!(err.to_string().contains("damaged or truncated"), "{err}");
    // Another board, another line length, another key scheme, a value out of range.
    let book = Arc::new(book);
    let mut other = Solver::new(Geometry::new(6, 4).unwrap());
    let err = other.set_book(Some(Arc::clone(&book))).unwrap_err();
    assert!(
        matches!(&err, BookError::Mismatch { field: "game", book, expected }
            if book == "connect-four 5x4" && expected == "connect-four 6x4"),
        "{err}"
    );
    assert!(other.book().is_none());
    let mut three = Solver::new(Geometry::with_k(5, 4, 3).unwrap());
    assert!(matches!(
        three.set_book(Some(Arc::clone(&book))),
        Err(BookError::Mismatch { field: "game", .. })
    ));
    let identity = ConnectFour::new(geom).book_identity();
    let old_keys =
        Book::new(&BookIdentity { key_scheme: "0".into(), ..identity.clone() }, 1, [(1, 0)]).unwrap();
    let mut solver = Solver::new(geom);
    assert!(matches!(
        solver.set_book(Some(Arc::new(old_keys))),
        Err(BookError::Mismatch { field: "key scheme", .. })
    ));
    let wide = BookIdentity { values: (-99, 99), ..identity.clone() };
    let absurd = Book::new(&wide, 1, [(1, 99)]).unwrap();
    assert!(matches!(
        solver.set_book(Some(Arc::new(absurd))),
        Err(BookError::ValueOutOfRange { value: 99, lo: -10, hi: 10, .. })
    ));
    assert!(solver.book().is_none());
    // The front: its own board's book is read, another board's refused and never read.
    let front = ConnectFourFront::with_geometry(geom);
    front.check_book(&book).unwrap();
    let settings = SolverSettings { book: Some(Arc::clone(&book)), ..SolverSettings::default() };
    assert!(front.solver(settings.clone()).book().is_some());
    let front6 = ConnectFourFront::with_geometry(Geometry::new(6, 4).unwrap());
    assert!(front6.check_book(&book).is_err());
    assert!(front6.solver(settings).book().is_none());
}
