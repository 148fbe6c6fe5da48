//! The FFO endgame test positions (`../shared/othello/fforum-*.obf` beside the workspace):
//! every position of FFO 1-19 (14 to 16 empties) solved, its value and every listed move's
//! score checked; the best scores of the FFO 20-39 positions with at most 19 empties; the
//! one listed move score found wrong (FFO 31, G1), settled by two other searches.
//!
//! The files come from the FFO suite as published in Edax's repository; a missing folder
//! fails these tests (it does not skip them).

use std::path::PathBuf;

use othello::{engine, parse_move_scores, parse_obf_line, Geometry};

/// The text of one FFO file, or a failure saying where it was looked for.
fn ffo_file(name: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/othello");
    let path = dir.join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!("the FFO test file {} is needed by this test and cannot be read: {e}", path.display())
    })
}

#[test]
fn ffo_1_to_19_every_listed_move_score() {
    let g = Geometry::standard();
    let text = ffo_file("fforum-1-19.obf");
    let mut solver = engine(g, 20, 1);
    let mut positions = 0;
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let pos = parse_obf_line(g, line).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        let listed = parse_move_scores(g, line).unwrap();
        assert!(!listed.is_empty(), "line {}: no listed move", i + 1);
        let values = solver.move_values(&pos);
        let best = values.iter().map(|&(_, v)| v).max().unwrap();
        assert_eq!(best, listed[0].1, "line {}: the best score", i + 1);
        for &(mv, score) in &listed {
            let ours = values.iter().find(|&&(m, _)| m == mv).map(|&(_, v)| v);
            assert_eq!(ours, Some(score), "line {}: move {mv}", i + 1);
        }
        positions += 1;
    }
    assert_eq!(positions, 19);
    // The whole-text reader sees the same positions, and the answer lines read back.
    let cases: Vec<_> = othello::parse_obf(g, &text).map(Result::unwrap).collect();
    assert_eq!(cases.len(), 19);
    for case in cases {
        let answer = othello::answer_line(&case.position, -2);
        assert!(answer.ends_with(" -2"), "{answer}");
        assert_eq!(parse_obf_line(g, &answer[..66]).unwrap(), case.position);
    }
}

#[test]
fn ffo_20_to_39_best_scores_up_to_19_empties() {
    let g = Geometry::standard();
    let text = ffo_file("fforum-20-39.obf");
    let mut solver = engine(g, 20, 1);
    let mut positions = 0;
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let pos = parse_obf_line(g, line).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        if pos.empty().count() > 19 {
            continue;
        }
        let listed = parse_move_scores(g, line).unwrap();
        assert_eq!(solver.solve(&pos), listed[0].1, "line {}", i + 1);
        positions += 1;
    }
    assert_eq!(positions, 6, "{positions} positions with at most 19 empties");
}

/// FFO 31 (line 12 of `fforum-20-39.obf`) lists G1 at -30; the engine finds -32, and so do
/// the TT-free endgame search below (full window, its own move loop) and the engine without
/// its endgame code, stability bounds or ETC: the listed value is the file's error (its best
/// score, G6 at -2, and its other moves agree with ours).
#[test]
fn ffo_31_g1_is_worth_minus_32_not_the_listed_minus_30() {
    let g = Geometry::standard();
    let text = ffo_file("fforum-20-39.obf");
    let line = text.lines().nth(11).expect("line 12");
    let pos = parse_obf_line(g, line).unwrap();
    let g1 = othello::Move::parse("G1").unwrap();
    let listed = parse_move_scores(g, line).unwrap();
    assert!(listed.contains(&(g1, -30)), "{line}");
    let child = pos.try_play(g1).unwrap();
    let mut nodes = 0;
    assert_eq!(-othello::solve_endgame(&child, -65, 65, &mut nodes), -32);
    let mut solver = engine(g, 20, 1);
    assert_eq!(-solver.solve(&child), -32);
}

/// A node is a position visited, whichever code visits it: the engine's statistics count the
/// positions of the dedicated endgame code as well (most of the positions of an FFO solve),
/// and a node limit stops a search by that count.
#[test]
fn the_nodes_counted_include_the_endgame_code_and_a_node_limit_obeys_them() {
    let g = Geometry::standard();
    // FFO 40, 20 empties: the engine checks its limits every 4,096 of its own nodes, which
    // a smaller position may not reach.
    let text = ffo_file("fforum-40-59.obf");
    let line = text.lines().next().unwrap();
    let pos = parse_obf_line(g, line).unwrap();
    let mut solver = engine(g, 20, 1);
    assert_eq!(solver.stats().nodes, 0);
    let endgame0 = solver.game().endgame_nodes();
    assert_eq!(solver.solve(&pos), parse_move_scores(g, line).unwrap()[0].1);
    let nodes = solver.stats().nodes;
    let endgame = solver.game().endgame_nodes() - endgame0;
    assert!(endgame > 0 && nodes > endgame, "{nodes} nodes, {endgame} of the endgame code");
    // The engine's own nodes are a small part: without the endgame code's the count would be
    // far below a quarter of the total.
    assert!(nodes - endgame < nodes / 4, "{nodes} nodes, {endgame} of the endgame code");
    solver.reset_stats();
    assert_eq!(solver.stats().nodes, 0);

    // The same solve under a budget of a quarter of its nodes stops, with its bounds.
    let mut limited = engine(g, 20, 1);
    limited.set_limits(search_core::Limits { max_nodes: Some(nodes / 4), ..Default::default() });
    let stopped = limited.try_solve(&pos);
    assert!(stopped.is_err(), "finished within a quarter of its nodes: {stopped:?}");
    let spent = limited.stats().nodes;
    assert!(spent >= nodes / 4 && spent < nodes, "{spent} nodes spent of a budget of {}", nodes / 4);
}
