//! Pons' test sets (testdata/connect-four/Test_*): every expected score of the fast sets, and of
//! the first part of L2_R2; the slow sets run in `cargo xtask c4-bench`.

use std::path::PathBuf;

use connect_four::{parse_line, Geometry, Outcome, Solver};

fn set(name: &str) -> Vec<(connect_four::Position, i32)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/connect-four").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            let j =
                parse_line(Geometry::STANDARD, l).unwrap_or_else(|e| panic!("{name} line {}: {e}", i + 1));
            (j.position, j.score)
        })
        .collect()
}

fn check(name: &str, count: usize, tt_bits: u32) {
    let mut solver = Solver::with_tt_bits(Geometry::STANDARD, tt_bits);
    let cases = set(name);
    assert_eq!(cases.len(), 1000, "{name}");
    for (pos, score) in cases.into_iter().take(count) {
        assert_eq!(solver.score(&pos), score, "{name}: {pos:?}");
        assert_eq!(solver.weak(&pos), Outcome::of_value(i64::from(score)), "{name}: {pos:?}");
    }
}

#[test]
fn end_easy_l3_r1() {
    check("Test_L3_R1", 1000, 16);
}

#[test]
fn middle_easy_l2_r1() {
    check("Test_L2_R1", 1000, 18);
}

#[test]
fn beginning_easy_l1_r1() {
    check("Test_L1_R1", 1000, 20);
}

/// The first positions of the medium middle-game set (the rest in `cargo xtask c4-bench`).
#[test]
fn middle_medium_l2_r2_first_part() {
    check("Test_L2_R2", L2_R2_IN_TESTS, 20);
}

/// How many L2_R2 positions `cargo test` checks (about 10 s in a dev build).
const L2_R2_IN_TESTS: usize = 300;

/// Every line of every set parses, with 1000 positions, none finished, none won at once.
#[test]
fn all_sets_parse() {
    for name in ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"] {
        for (pos, _) in set(name) {
            assert!(!pos.is_over() && !pos.can_win_next(), "{name}: {pos:?}");
        }
    }
}
