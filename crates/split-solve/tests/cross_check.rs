//! The split solve against the one-machine solve: the root value ([`Engine::solve`]) and the
//! first-move values ([`Engine::move_values`]) of several games (Triangle War with its extra
//! move and folded captures, tic-tac-toe scored at the end, Connect Four, dots-and-boxes), at
//! several frontier depths, with both threshold policies, served by a serial worker closure; and the same
//! answer when the jobs are run out of order, some of them abandoned, and the results replayed
//! into a fresh coordinator as a restart would.

use search_core::Threshold;
use search_core::{Engine, Game, Value};
use split_solve::{Job, Record, Split, SplitError, SplitOptions, MTD_FROM_ZERO};

/// Runs `split` to the end with a fresh engine's null-window searches as the worker; returns
/// the records written and the jobs run.
fn run<G: Game + Clone>(split: &mut Split<G>) -> Vec<Record>
where
    G::Key: Into<u128>,
{
    let mut engine = Engine::new(split.game().clone(), 18);
    let mut records = Vec::new();
    split
        .run_serial(
            |job: &Job<G::Position>| -> Result<(Value, u64), SplitError> {
                let before = engine.stats().nodes;
                let v = engine.search(&job.position, job.threshold, job.threshold + 1);
                Ok((v, engine.stats().nodes - before))
            },
            |r| {
                records.push(*r);
                Ok(())
            },
        )
        .unwrap();
    assert!(split.is_finished());
    records
}

/// Checks the split's root value and first-move values against the one-machine engine, for
/// every depth in `depths` and both threshold policies; with `every_move`, that the tree's bounds below
/// the root name every move ([`check_bounds_below_the_root`]).
fn check<G: Game + Clone>(game: &G, root: &G::Position, depths: &[u32], every_move: bool)
where
    G::Key: Into<u128>,
{
    let mut engine = Engine::new(game.clone(), 18);
    let value = engine.solve(root);
    let move_values = engine.move_values(root);
    for &depth in depths {
        for threshold in [MTD_FROM_ZERO, Threshold::Bisection] {
            for exact_moves in [false, true] {
                let options = SplitOptions { depth, threshold, exact_moves };
                let mut split = Split::new(game.clone(), root, options);
                let records = run(&mut split);
                assert_eq!(split.root_bounds(), (value, value), "{options:?}");
                if exact_moves {
                    let got: Vec<(G::Move, Value)> = split
                        .move_bounds()
                        .iter()
                        .map(|&(m, lo, hi)| (m, (assert_eq!(lo, hi), lo).1))
                        .collect();
                    // The split orders moves by the game's hook; compare as sets.
                    for mv in &move_values {
                        assert!(got.contains(mv), "{options:?}: {mv:?} not in {got:?}");
                    }
                    assert_eq!(got.len(), move_values.len());
                    check_bounds_below_the_root(game, root, &split, every_move);
                }
                // A restart: a fresh coordinator fed the records needs no job.
                let mut again = Split::new(game.clone(), root, options);
                for r in &records {
                    assert!(again.apply(r).unwrap());
                }
                assert!(again.is_finished(), "{options:?}");
                assert!(again.next_job().is_none());
                let progress = again.progress();
                assert_eq!(progress.done, records.len() as u64);
                // Every class of first moves is exact, counted once per folded child.
                match progress.first_moves {
                    Some((exact, all)) => {
                        assert!(exact_moves, "{options:?}");
                        assert_eq!(exact, all, "{options:?}");
                        assert!(all >= 1 && all <= move_values.len(), "{options:?}: {all} classes");
                    }
                    None => assert!(!exact_moves, "{options:?}"),
                }
            }
        }
    }
}

/// The bounds a finished split holds one and two plies below the root
/// ([`Split::move_bounds_after`]) contain the one-machine engine's value of every move of the
/// position the path's moves reach (played here, not the tree's symmetric image of it); the
/// root's own are [`Split::move_bounds`]. With `every_move`, they name every move there.
fn check_bounds_below_the_root<G: Game + Clone>(
    game: &G,
    root: &G::Position,
    split: &Split<G>,
    every_move: bool,
) where
    G::Key: Into<u128>,
{
    assert_eq!(split.move_bounds_after(&[]).map(|(_, m)| m), Some(split.move_bounds()));
    let mut engine = Engine::new(game.clone(), 18);
    let mut paths: Vec<(Vec<G::Move>, G::Position)> = Vec::new();
    let mut moves = Vec::new();
    game.generate_moves(root, &mut moves);
    for &m1 in &moves {
        let p1 = game.play(root, m1).0;
        paths.push((vec![m1], p1));
        if game.terminal_value(&p1).is_none() {
            let mut replies = Vec::new();
            game.generate_moves(&p1, &mut replies);
            for &m2 in &replies {
                paths.push((vec![m1, m2], game.play(&p1, m2).0));
            }
        }
    }
    for (path, pos) in paths {
        let Some((at, below)) = split.move_bounds_after(&path) else {
            // Only a path through the frontier (depth 1) leaves the tree.
            assert!(path.len() > split.options().depth as usize, "{path:?} is in the tree");
            continue;
        };
        assert!(game.key(&at) == game.key(&pos), "{path:?}");
        if below.is_empty() {
            // A terminal position, or a frontier position: no moves in the tree.
            continue;
        }
        let values = engine.move_values(&pos);
        // Every move, except under keys that fold twin segments (Triangle War's): there a
        // child that the tree holds under another key of its class is left out.
        if every_move {
            assert_eq!(below.len(), values.len(), "{path:?}");
        } else {
            assert!(!below.is_empty() && below.len() <= values.len(), "{path:?}");
        }
        for (m, lo, hi) in below {
            let &(_, v) = values.iter().find(|&&(m2, _)| m2 == m).expect("the same moves");
            assert!(lo <= v && v <= hi, "after {path:?}, {m:?}: {v} not in [{lo}, {hi}]");
        }
    }
}

#[test]
fn triangle_war_side_3_and_4_match_the_engine() {
    use triangle_war::{Geometry, Position, TriangleWar};
    check(&TriangleWar::new(Geometry::new(3).unwrap()), &Position::start(), &[0, 1, 2, 4], false);
    check(&TriangleWar::new(Geometry::new(4).unwrap()), &Position::start(), &[3], false);
}

#[test]
fn triangle_war_mid_game_positions_with_extra_moves_match_the_engine() {
    // Positions where captures are on the board: the mover moves again (`same` edges) and
    // gains are banked on the way down the frontier tree.
    use triangle_war::{Geometry, Position, TriangleWar};
    let geometry = Geometry::new(4).unwrap();
    let game = TriangleWar::new(geometry.clone());
    let mut pos = Position::start();
    // Segments chosen so that triangles can be taken within the frontier's plies.
    for s in [0, 1, 3, 5, 6, 8, 10, 12] {
        pos = pos.play(&geometry, s).0;
    }
    check(&game, &pos, &[1, 2, 3], false);
}

#[test]
fn tic_tac_toe_3x3_and_4x4_k3_match_the_engine() {
    use tic_tac_toe::{Geometry, MnkGame, Position, Scoring};
    for (rows, cols, k, scoring) in [(3, 3, 3, Scoring::EmptyPlusOne), (3, 4, 3, Scoring::WinLoss)] {
        let geometry = Geometry::new(rows, cols, k).unwrap();
        let game = MnkGame::new(geometry, scoring);
        check(&game, &Position::empty(geometry), &[1, 2, 3], true);
    }
}

#[test]
fn connect_four_4x4_matches_the_engine() {
    use connect_four::{Board, ConnectFour, Geometry};
    let game = ConnectFour::new(Geometry::new(4, 4).unwrap());
    check(&game, &Board::default(), &[2, 4], true);
}

#[test]
fn dots_and_boxes_2x2_matches_the_engine() {
    use dots_and_boxes::{DotsAndBoxes, Geometry, Position};
    let game = DotsAndBoxes::new(Geometry::new(2, 2).unwrap());
    check(&game, &Position::start(), &[1, 3], true);
}

#[test]
fn parallel_workers_out_of_order_with_cancellations_give_the_same_answer() {
    // Three "workers": jobs are handed out three at a time and finished last first; the
    // coordinator's cancellations are honoured (those jobs are dropped unfinished), and one job
    // in five is abandoned once (its worker "died") and handed out again.
    use triangle_war::{Geometry, Position, TriangleWar};
    let game = TriangleWar::new(Geometry::new(4).unwrap());
    let root = Position::start();
    let value = Engine::new(game.clone(), 18).solve(&root);
    let mut engine = Engine::new(game.clone(), 16);
    let options = SplitOptions { depth: 3, threshold: MTD_FROM_ZERO, exact_moves: false };
    let mut split = Split::new(game, &root, options);
    let mut in_flight: Vec<Job<Position>> = Vec::new();
    let (mut handed, mut cancelled) = (0, 0);
    loop {
        while in_flight.len() < 3 {
            match split.next_job() {
                Some(j) => {
                    handed += 1;
                    in_flight.push(j);
                }
                None => break,
            }
        }
        let Some(job) = in_flight.pop() else { break };
        let id = (job.leaf, job.threshold);
        if handed % 5 == 0 && !split.is_answered(job.leaf, job.threshold) {
            handed += 1;
            split.abandon(id);
            continue;
        }
        let v = engine.search(&job.position, job.threshold, job.threshold + 1);
        split.finish(id, v, 1).unwrap();
        let gone = split.cancelled();
        cancelled += gone.len();
        in_flight.retain(|j| !gone.contains(&(j.leaf, j.threshold)));
    }
    assert!(split.is_finished());
    assert_eq!(split.root_bounds(), (value, value));
    assert!(cancelled > 0, "some speculative jobs were cancelled");
}

/// Runs side-4 Triangle War's split with three "workers" that take jobs from `next` three at
/// a time and finish them first in, first out, honouring cancellations; checks the root value
/// and returns the jobs handed out.
fn three_workers(
    next: fn(&mut Split<triangle_war::TriangleWar>) -> Option<Job<triangle_war::Position>>,
) -> usize {
    use triangle_war::{Geometry, Position, TriangleWar};
    let game = TriangleWar::new(Geometry::new(4).unwrap());
    let root = Position::start();
    let value = Engine::new(game.clone(), 18).solve(&root);
    let mut engine = Engine::new(game.clone(), 16);
    let options = SplitOptions { depth: 3, threshold: MTD_FROM_ZERO, exact_moves: false };
    let mut split = Split::new(game, &root, options);
    let mut in_flight: Vec<Job<Position>> = Vec::new();
    let mut handed = 0;
    loop {
        while in_flight.len() < 3 {
            let Some(j) = next(&mut split) else { break };
            handed += 1;
            in_flight.push(j);
        }
        if in_flight.is_empty() {
            break;
        }
        let job = in_flight.remove(0);
        let v = engine.search(&job.position, job.threshold, job.threshold + 1);
        split.finish((job.leaf, job.threshold), v, 1).unwrap();
        let gone = split.cancelled();
        in_flight.retain(|j| !gone.contains(&(j.leaf, j.threshold)));
    }
    assert!(split.is_finished());
    assert_eq!(split.root_bounds(), (value, value));
    handed
}

#[test]
fn young_brothers_waiting_hand_out_fewer_jobs_for_the_same_answer() {
    let any = three_workers(Split::next_job);
    let eldest = three_workers(Split::next_job_eldest_first);
    assert!(eldest < any, "eldest first {eldest} jobs, any {any}");
    // With nothing in flight, both give the first job of a serial search.
    use triangle_war::{Geometry, Position, TriangleWar};
    let game = TriangleWar::new(Geometry::new(4).unwrap());
    let options = SplitOptions { depth: 3, threshold: MTD_FROM_ZERO, exact_moves: false };
    let mut a = Split::new(game.clone(), &Position::start(), options);
    let mut b = Split::new(game, &Position::start(), options);
    let (ja, jb) = (a.next_job().unwrap(), b.next_job_eldest_first().unwrap());
    assert_eq!((ja.leaf, ja.threshold), (jb.leaf, jb.threshold));
    // The eldest in flight, its brothers wait: the next job is elsewhere or none.
    let second = b.next_job_eldest_first();
    let any_second = a.next_job().unwrap();
    assert_ne!(second.map(|j| (j.leaf, j.threshold)), Some((any_second.leaf, any_second.threshold)));
}

#[test]
fn a_round_is_the_independent_jobs_of_one_question() {
    // `round` lists every job the current question needs (what `--shard` slices): once all of
    // them are answered, the question is answered, and the root's bounds moved past its
    // threshold.
    use triangle_war::{Geometry, Position, TriangleWar};
    let game = TriangleWar::new(Geometry::new(4).unwrap());
    let root = Position::start();
    let mut engine = Engine::new(game.clone(), 16);
    let mut split = Split::new(game, &root, SplitOptions { depth: 2, ..SplitOptions::default() });
    let (lo0, hi0) = split.root_bounds();
    let t = MTD_FROM_ZERO.next(lo0, hi0);
    let round = split.round();
    assert!(round.len() > 1 && round.len() <= split.frontier_len());
    for job in &round {
        let v = engine.search(&job.position, job.threshold, job.threshold + 1);
        split.finish((job.leaf, job.threshold), v, 1).unwrap();
    }
    let (lo, hi) = split.root_bounds();
    assert!(lo > t || hi <= t, "after a whole round the root knows whether it is above {t}");
    // Side 4 is a loss by 2 for A: "above 0?" is answered no.
    assert!(hi <= 0);
}

#[test]
fn first_order_rounds_are_part_of_the_full_round_and_finish_the_solve() {
    // `round_of(FirstOrder)` is a non-empty part of `round` (the first alpha-beta order of the
    // jobs the question needs), much smaller on side 4 at depth 3; solving round after round
    // of it finishes the solve with the engine's value.
    use split_solve::RoundKind;
    use triangle_war::{Geometry, Position, TriangleWar};
    let game = TriangleWar::new(Geometry::new(4).unwrap());
    let root = Position::start();
    let value = Engine::new(game.clone(), 18).solve(&root);
    let mut engine = Engine::new(game.clone(), 16);
    for exact_moves in [false, true] {
        let options = SplitOptions { depth: 3, exact_moves, ..SplitOptions::default() };
        let mut split = Split::new(game.clone(), &root, options);
        let mut rounds = 0;
        while !split.is_finished() {
            let full: Vec<_> = split.round().iter().map(|j| (j.leaf, j.threshold)).collect();
            let first = split.round_of(RoundKind::FirstOrder);
            assert!(!first.is_empty());
            assert!(first.len() <= full.len());
            if rounds == 0 && !exact_moves {
                // 72 of 472 jobs.
                assert!(4 * first.len() < full.len(), "{} of {}", first.len(), full.len());
            }
            for job in first {
                let id = (job.leaf, job.threshold);
                assert!(full.contains(&id));
                if split.is_needed(id) {
                    let v = engine.search(&job.position, job.threshold, job.threshold + 1);
                    split.finish(id, v, 1).unwrap();
                }
            }
            rounds += 1;
        }
        assert_eq!(split.root_bounds(), (value, value));
        assert!(rounds > 1);
    }
}

#[test]
fn a_contradicting_record_is_refused() {
    use triangle_war::{Geometry, Position, TriangleWar};
    let game = TriangleWar::new(Geometry::new(3).unwrap());
    let mut split =
        Split::new(game, &Position::start(), SplitOptions { depth: 2, ..SplitOptions::default() });
    let job = split.next_job().unwrap();
    split.finish((job.leaf, job.threshold), job.threshold + 1, 5).unwrap();
    // Now "at most threshold" would contradict the lower bound threshold + 1.
    let bad = Record { key: job.key, threshold: job.threshold, value: job.threshold - 1, nodes: 1 };
    assert!(matches!(split.apply(&bad), Err(SplitError::Contradiction(_))));
    // A record of a key nowhere in this tree is ignored.
    assert!(!split.apply(&Record { key: u128::MAX, threshold: 0, value: 0, nodes: 0 }).unwrap());
}

#[test]
fn a_forged_record_that_propagation_contradicts_is_named_and_refused() {
    use triangle_war::{Geometry, Position, TriangleWar};
    let game = TriangleWar::new(Geometry::new(3).unwrap());
    let root = Position::start();
    let options = SplitOptions { depth: 2, ..SplitOptions::default() };
    let mut engine = search_core::Engine::new(game.clone(), 16);
    let mut true_split = Split::new(game.clone(), &root, options);
    let mut records = Vec::new();
    true_split
        .run_serial(
            |job: &Job<Position>| -> Result<(Value, u64), SplitError> {
                Ok((engine.search(&job.position, job.threshold, job.threshold + 1), 1))
            },
            |r| {
                records.push(*r);
                Ok(())
            },
        )
        .unwrap();
    let (value, _) = true_split.root_bounds();
    // A forged record on the root (an interior node): "greater than value + 1", with a lower
    // bound of value + 3. Alone it fits the game's bounds; the true records then prove the root
    // at most `value`, which crosses it.
    let root_key: u128 = game.key(&root).into();
    let forged = Record { key: root_key, threshold: value + 1, value: value + 3, nodes: 1 };
    let mut split = Split::new(game, &root, options);
    assert!(split.apply(&forged).unwrap());
    let mut refused = None;
    for r in &records {
        let before = split.root_bounds();
        match split.apply(r) {
            Ok(_) => {}
            Err(e) => {
                assert_eq!(split.root_bounds(), before, "a refused record changes nothing");
                refused = Some(e);
                break;
            }
        }
    }
    let Some(SplitError::Contradiction(c)) = refused.clone() else {
        panic!("the true records never contradicted the forged one: {refused:?}");
    };
    let split_solve::Contradiction { at, lo, hi, lower, upper, .. } = *c;
    assert_eq!(at, root_key);
    assert!(lo > hi);
    assert_eq!(lower, vec![forged], "the forged record proves the lower bound");
    assert!(!upper.is_empty() && upper.iter().all(|u| records.contains(u)), "{upper:?}");
    let text = refused.unwrap().to_string();
    assert!(text.contains(&format!("threshold {}, fail-soft {}", value + 1, value + 3)), "{text}");
    let (lo, hi) = split.root_bounds();
    assert!(lo <= hi, "[{lo}, {hi}]");
}

#[test]
fn frontier_sizes_count_the_split_s_jobs() {
    use triangle_war::{Geometry, Position, TriangleWar};
    let game = TriangleWar::new(Geometry::new(4).unwrap());
    let mut sizes = Vec::new();
    split_solve::frontier_sizes(&game, &Position::start(), 3, |d, n| sizes.push((d, n)));
    for &(d, n) in &sizes {
        assert_eq!(n, split_solve::frontier_len(game.clone(), &Position::start(), d), "depth {d}");
    }
    // The empty side-4 board's 30 segments fall into 6 classes under the triangle's 6
    // symmetries: counted here from the canonical keys of the 30 first moves, without the
    // split's expansion.
    let geometry = Geometry::new(4).unwrap();
    let classes: std::collections::HashSet<u64> = (0..geometry.segments().len())
        .map(|s| search_core::Game::key(&game, &Position::start().play(&geometry, s).0))
        .collect();
    assert_eq!(sizes[..2], [(0, 1), (1, classes.len())]);
    assert_eq!(classes.len(), 6);
}

/// A store written at a shallower depth, fed to a deeper split ([`Split::apply`] on interior
/// nodes): the whole store leaves no job and the same values; a part of it (its first records,
/// as when a run stops at a job too large for one session) and a deeper run to the end give
/// the one-machine engine's root and first-move values, and fewer deep jobs than a deep run
/// from nothing.
fn check_deeper<G: Game + Clone>(game: &G, root: &G::Position, shallow: u32, deep: u32)
where
    G::Key: Into<u128>,
{
    let mut engine = Engine::new(game.clone(), 18);
    let value = engine.solve(root);
    let mut move_values = engine.move_values(root);
    move_values.sort_by_key(|&(m, _)| format!("{m:?}"));
    for exact_moves in [false, true] {
        let options = |depth| SplitOptions { depth, threshold: MTD_FROM_ZERO, exact_moves };
        let records = run(&mut Split::new(game.clone(), root, options(shallow)));
        let scratch = run(&mut Split::new(game.clone(), root, options(deep)));
        // The whole shallow store: every record lands on an interior node, nothing is left.
        let mut whole = Split::new(game.clone(), root, options(deep));
        for r in &records {
            assert!(whole.apply(r).unwrap(), "depth {shallow} record on the depth {deep} tree");
            // The record's position, found on the deeper tree, is the one it was written for.
            let pos = whole.position_of(r.key).expect("a shallow record's key is a node of the deep tree");
            let key: u128 = game.key(&pos).into();
            assert_eq!(key, r.key);
            assert_eq!(engine.search(&pos, r.threshold, r.threshold + 1) > r.threshold, r.is_above());
        }
        assert!(whole.position_of(u128::MAX).is_none());
        assert!(whole.is_finished(), "exact_moves {exact_moves}");
        assert_eq!(whole.root_bounds(), (value, value));
        assert!(whole.next_job().is_none());
        // Half of it, then the deep split to the end.
        for keep in [records.len() / 2, records.len() - 1] {
            let mut part = Split::new(game.clone(), root, options(deep));
            for r in &records[..keep] {
                part.apply(r).unwrap();
            }
            let more = run(&mut part);
            assert_eq!(part.root_bounds(), (value, value), "keep {keep} of {}", records.len());
            assert!(
                more.len() < scratch.len(),
                "keep {keep}: {} deep jobs after the shallow records, {} from nothing",
                more.len(),
                scratch.len()
            );
            if exact_moves {
                let mut got: Vec<(G::Move, Value)> =
                    part.move_bounds().iter().map(|&(m, lo, hi)| (m, (assert_eq!(lo, hi), lo).1)).collect();
                got.sort_by_key(|&(m, _)| format!("{m:?}"));
                assert_eq!(got, move_values, "keep {keep}");
            }
        }
    }
}

#[test]
fn a_shallower_store_serves_a_deeper_split() {
    {
        use triangle_war::{Geometry, Position, TriangleWar};
        check_deeper(&TriangleWar::new(Geometry::new(4).unwrap()), &Position::start(), 2, 4);
    }
    {
        use dots_and_boxes::{DotsAndBoxes, Geometry, Position};
        check_deeper(&DotsAndBoxes::new(Geometry::new(2, 3).unwrap()), &Position::start(), 1, 3);
    }
    {
        use tic_tac_toe::{Geometry, MnkGame, Position, Scoring};
        let geometry = Geometry::new(3, 3, 3).unwrap();
        check_deeper(&MnkGame::new(geometry, Scoring::EmptyPlusOne), &Position::empty(geometry), 1, 3);
    }
}
