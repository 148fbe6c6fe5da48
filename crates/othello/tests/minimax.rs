//! The engine's values against a plain minimax written here from the rules alone (no TT, no
//! move ordering, no pruning, no endgame code): seeded random positions with few empties on
//! every board size, and the whole 4x4 game from the start.

use othello::{engine, Geometry, Othello, Position, Square};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use search_core::{Engine, Player, Value};

/// The discs a disc on `(c, r)` turns over for `me`, walking the eight directions square by
/// square on an `n` x `n` grid of `Option<Player>`.
fn flips(grid: &[Option<Player>], n: i32, c: i32, r: i32, me: Player) -> Vec<usize> {
    let mut out = Vec::new();
    for (dc, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)] {
        let mut line = Vec::new();
        let (mut x, mut y) = (c + dc, r + dr);
        while x >= 0 && x < n && y >= 0 && y < n && grid[(y * n + x) as usize] == Some(me.opponent()) {
            line.push((y * n + x) as usize);
            x += dc;
            y += dr;
        }
        if x >= 0 && x < n && y >= 0 && y < n && grid[(y * n + x) as usize] == Some(me) && !line.is_empty() {
            out.extend(line);
        }
    }
    out
}

/// The plain minimax value of `grid` for `me`: the final disc difference, empty squares given
/// to the winner when `empties_to_winner` (the FFO / WOF rule), not counted otherwise.
fn minimax(grid: &mut [Option<Player>], n: i32, me: Player, passed: bool, empties_to_winner: bool) -> Value {
    let mut best = None;
    for i in 0..grid.len() {
        if grid[i].is_some() {
            continue;
        }
        let f = flips(grid, n, i as i32 % n, i as i32 / n, me);
        if f.is_empty() {
            continue;
        }
        grid[i] = Some(me);
        for &j in &f {
            grid[j] = Some(me);
        }
        let v = -minimax(grid, n, me.opponent(), false, empties_to_winner);
        grid[i] = None;
        for &j in &f {
            grid[j] = Some(me.opponent());
        }
        best = Some(best.map_or(v, |b: Value| b.max(v)));
    }
    match best {
        Some(v) => v,
        None if passed => {
            let mine = grid.iter().filter(|&&s| s == Some(me)).count() as Value;
            let theirs = grid.iter().filter(|&&s| s == Some(me.opponent())).count() as Value;
            let empty = if empties_to_winner { grid.len() as Value - mine - theirs } else { 0 };
            match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => mine - theirs + empty,
                std::cmp::Ordering::Less => mine - theirs - empty,
                std::cmp::Ordering::Equal => 0,
            }
        }
        None => -minimax(grid, n, me.opponent(), true, empties_to_winner),
    }
}

/// The minimax value of `pos` for its side to move (FFO / WOF rule).
fn plain_value(pos: &Position) -> Value {
    plain_value_by(pos, true)
}

/// The minimax value of `pos` for its side to move, empty squares to the winner or not.
fn plain_value_by(pos: &Position, empties_to_winner: bool) -> Value {
    let n = pos.geometry().size() as i32;
    let mut grid: Vec<Option<Player>> =
        (0..n * n).map(|i| pos.colour_at(Square::new((i % n) as usize, (i / n) as usize))).collect();
    minimax(&mut grid, n, pos.to_move(), false, empties_to_winner)
}

/// A position reached by random legal moves from the start until `empties` squares are left
/// (or the game ends).
fn random_position(rng: &mut SmallRng, geometry: &'static Geometry, empties: u32) -> Position {
    let mut pos = Position::start(geometry);
    while pos.empty().count() > empties && !pos.is_over() {
        let moves = pos.legal_moves();
        pos = pos.play(moves[rng.gen_range(0..moves.len())]);
    }
    pos
}

/// Every empty square of random positions on each board size: legal exactly where the
/// square-by-square walk turns something over, and the disc played turns over exactly those
/// discs (the bitboard move generation and flips against the rules).
#[test]
fn each_square_turns_over_what_the_walk_along_the_lines_finds() {
    let mut rng = SmallRng::seed_from_u64(91);
    let mut played = 0;
    for size in [4, 6, 8] {
        let g = Geometry::new(size).unwrap();
        let n = size as i32;
        for _ in 0..400 {
            let empties = rng.gen_range(1..g.squares() - 4);
            let pos = random_position(&mut rng, g, empties);
            if pos.is_over() || pos.must_pass() {
                continue;
            }
            let me = pos.to_move();
            let grid: Vec<Option<Player>> =
                (0..n * n).map(|i| pos.colour_at(Square::new((i % n) as usize, (i / n) as usize))).collect();
            for i in 0..n * n {
                let sq = Square::new((i % n) as usize, (i / n) as usize);
                if grid[i as usize].is_some() {
                    continue;
                }
                let want = flips(&grid, n, i % n, i / n, me);
                match pos.try_play(othello::Move::Play(sq)) {
                    Ok(next) => {
                        assert!(!want.is_empty(), "{pos:?}: {sq:?} played, turning nothing over");
                        for j in 0..n * n {
                            let s = Square::new((j % n) as usize, (j / n) as usize);
                            let expected = if j == i || want.contains(&(j as usize)) {
                                Some(me)
                            } else {
                                grid[j as usize]
                            };
                            assert_eq!(next.colour_at(s), expected, "{pos:?}: {sq:?}, square {s:?}");
                        }
                        played += 1;
                    }
                    Err(e) => assert!(want.is_empty(), "{pos:?}: {sq:?} refused ({e}), turns {want:?}"),
                }
            }
        }
    }
    assert!(played > 5000, "only {played} moves played");
}

#[test]
fn the_engine_agrees_with_plain_minimax_on_random_8x8_endgames() {
    let g = Geometry::standard();
    let mut rng = SmallRng::seed_from_u64(78);
    // The default game (endgame code, stability bounds), and one without either
    // (the engine's negamax alone, down to the last move), on the same positions.
    let mut fast = engine(g, 16, 1);
    let mut bare = Engine::with_options(Othello::with_thresholds(g, 0, 0), othello::search_options(16, 1));
    // Two threads (lazy SMP over the shared TT), each with its own saved windows.
    let mut two = engine(g, 16, 2);
    two.set_solo_nodes(0);
    let mut passes = 0;
    for i in 0..300 {
        let empties = 1 + i % 10;
        let pos = random_position(&mut rng, g, empties);
        let want = plain_value(&pos);
        assert_eq!(fast.solve(&pos), want, "{pos:?}");
        if i % 3 == 0 {
            assert_eq!(bare.solve(&pos), want, "{pos:?}");
        }
        if i % 5 == 4 {
            assert_eq!(two.solve(&pos), want, "{pos:?}");
        }
        // Fail-soft in any window: an upper bound at or below it, a lower bound at or above;
        // then exact in the full window (the bounds the first search left in this thread's
        // memo of the endgame code are used and replaced).
        let mut nodes = 0;
        let alpha = rng.gen_range(-20..20);
        let beta = alpha + rng.gen_range(1..6);
        let v = othello::solve_endgame(&pos, alpha, beta, &mut nodes);
        if v <= alpha {
            assert!(want <= v, "{pos:?} ({alpha}, {beta}): {v}");
        } else if v >= beta {
            assert!(want >= v, "{pos:?} ({alpha}, {beta}): {v}");
        } else {
            assert_eq!(v, want, "{pos:?} ({alpha}, {beta})");
        }
        assert_eq!(othello::solve_endgame(&pos, -100, 100, &mut nodes), want, "{pos:?}");
        passes += usize::from(pos.must_pass());
    }
    assert!(passes > 0, "no position with a forced pass was drawn");
}

#[test]
fn move_values_agree_with_plain_minimax_on_6x6_and_4x4() {
    let mut rng = SmallRng::seed_from_u64(6);
    for size in [4, 6] {
        let g = Geometry::new(size).unwrap();
        let mut solver = engine(g, 14, 1);
        for i in 0..60 {
            let pos = random_position(&mut rng, g, 1 + i % 10);
            if pos.is_over() {
                assert_eq!(solver.game().geometry().size(), size);
                continue;
            }
            for (mv, v) in solver.move_values(&pos) {
                let child = pos.try_play(mv).unwrap();
                assert_eq!(v, -plain_value(&child), "{pos:?} {mv}");
            }
        }
    }
}

/// The published 4x4 result, White winning 11 to 3 (a disc difference of -8 for Black, two
/// squares left empty), is -10 under the FFO / WOF rule, which gives the empty squares to
/// the winner.
#[test]
fn the_4x4_game_is_a_loss_by_10_for_black_under_the_wof_rule() {
    let g = Geometry::new(4).unwrap();
    let start = Position::start(g);
    assert_eq!(plain_value_by(&start, false), -8);
    assert_eq!(plain_value(&start), -10);
    let mut solver = engine(g, 16, 1);
    assert_eq!(solver.solve(&start), -10);
    let analysis = solver.analyze(&start);
    assert_eq!(analysis.value, -10);
    // Every first move of Black loses by 10 (the board's symmetry maps them onto each other).
    assert!(analysis.moves.iter().all(|m| m.value == -10));
    // The principal variation is a legal game that ends with the value.
    let mut pos = start;
    for &mv in &analysis.pv {
        pos = pos.try_play(mv).unwrap();
    }
    assert!(pos.is_over());
    assert_eq!(pos.to_move().sign() * pos.final_score(), -10);
}
