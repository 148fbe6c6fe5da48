//! The parallel solver (search-core's lazy SMP with deferral, 2 and 4 threads) gives exactly the
//! expected scores of Pons' test sets, and the same scores, column scores and principal
//! variations as the one-thread solver.

use std::path::PathBuf;

use connect_four::{parse_line, Geometry, Outcome, Position, Solver};

fn set(name: &str, count: usize) -> Vec<(Position, i32)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/connect-four").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .take(count)
        .map(|l| {
            let j = parse_line(Geometry::STANDARD, l).unwrap_or_else(|e| panic!("{name}: {e}"));
            (j.position, j.score)
        })
        .collect()
}

/// Positions large enough (hundreds of thousands of nodes) that the helpers run.
#[test]
fn hard_positions_with_two_and_four_threads() {
    for threads in [2, 4] {
        let mut solver = Solver::with_threads(Geometry::STANDARD, 16, threads);
        assert_eq!(solver.threads(), threads);
        for (pos, score) in set("Test_L1_R2", 6) {
            solver.clear();
            assert_eq!(solver.score(&pos), score, "{threads} threads: {pos:?}");
            assert_eq!(solver.weak(&pos), Outcome::of_value(i64::from(score)), "{threads} threads: {pos:?}");
        }
    }
}

/// Many medium positions on one TT shared by the batch, as `games-cli connect-four` runs them.
#[test]
fn medium_positions_on_a_shared_table() {
    let mut solver = Solver::with_threads(Geometry::STANDARD, 18, 2);
    for (pos, score) in set("Test_L2_R2", 150).into_iter().chain(set("Test_L1_R1", 100)) {
        assert_eq!(solver.score(&pos), score, "{pos:?}");
    }
}

/// Column scores and the PV (many searches on narrow windows) equal the one-thread solver's.
#[test]
fn analysis_equals_the_one_thread_solver() {
    let mut one = Solver::with_threads(Geometry::STANDARD, 16, 1);
    let mut two = Solver::with_threads(Geometry::STANDARD, 16, 2);
    assert_eq!(one.threads(), 1);
    for (pos, _) in set("Test_L2_R2", 400).into_iter().step_by(40) {
        let (a, b) = (one.analyze(&pos), two.analyze(&pos));
        assert_eq!((a.value, &a.moves, &a.pv), (b.value, &b.moves, &b.pv), "{pos:?}");
    }
}
