//! Cross-checks of the solver against an independent plain minimax (no pruning, no TT, no
//! symmetry, its own board and line test) written here: all 2,739 legal 3 x 3 positions with
//! Alice to move, random 4 x 4 and other-size positions, the official samples, the empty 4 x 4.

use std::collections::HashSet;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tic_tac_toe::{parse_ccf, parse_uva, BoardEval, Cell, Geometry, Mark, Position, WinningMove};

/// A plain board: `0` empty, `1` x, `2` o; cells row-major.
struct Plain {
    rows: usize,
    cols: usize,
    k: usize,
    cells: Vec<u8>,
}

impl Plain {
    fn from_position(p: &Position) -> Plain {
        let g = p.geometry();
        let cells = (0..g.cells())
            .map(|i| match p.mark_at(Cell(i as u8)) {
                None => 0,
                Some(Mark::X) => 1,
                Some(Mark::O) => 2,
            })
            .collect();
        Plain { rows: g.rows(), cols: g.cols(), k: g.k(), cells }
    }

    /// Whether the stone on `i` has `k` in a row through it.
    fn line_through(&self, i: usize) -> bool {
        let who = self.cells[i];
        let (r, c) = ((i / self.cols) as isize, (i % self.cols) as isize);
        let at = |r: isize, c: isize| {
            r >= 0
                && c >= 0
                && (r as usize) < self.rows
                && (c as usize) < self.cols
                && self.cells[r as usize * self.cols + c as usize] == who
        };
        [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
            let mut n = 1;
            let mut s = 1;
            while at(r + s * dr, c + s * dc) {
                n += 1;
                s += 1;
            }
            s = 1;
            while at(r - s * dr, c - s * dc) {
                n += 1;
                s += 1;
            }
            n >= self.k
        })
    }

    /// Every line of `k` cells of a board of `g` (rows, columns, both diagonals), as cell indices.
    fn lines(g: Geometry) -> Vec<Vec<usize>> {
        let (rows, cols, k) = (g.rows() as isize, g.cols() as isize, g.k() as isize);
        let mut out = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let (er, ec) = (r + (k - 1) * dr, c + (k - 1) * dc);
                    if er < rows && ec >= 0 && ec < cols {
                        out.push((0..k).map(|s| ((r + s * dr) * cols + c + s * dc) as usize).collect());
                    }
                }
            }
        }
        out
    }

    fn has_line(&self, who: u8) -> bool {
        (0..self.cells.len()).any(|i| self.cells[i] == who && self.line_through(i))
    }

    /// Negamax value for `me` to move, no pruning: a win scores `ccf ? empty + 1 : 1`.
    fn minimax(&mut self, me: u8, ccf: bool) -> i64 {
        let empties: Vec<usize> = (0..self.cells.len()).filter(|&i| self.cells[i] == 0).collect();
        if empties.is_empty() {
            return 0;
        }
        let mut best = i64::MIN;
        for &i in &empties {
            self.cells[i] = me;
            let v = if self.line_through(i) {
                if ccf {
                    empties.len() as i64
                } else {
                    1
                }
            } else {
                -self.minimax(3 - me, ccf)
            };
            self.cells[i] = 0;
            best = best.max(v);
        }
        best
    }

    /// Value from x's side of the position with `to_move` to move (a finished game scored).
    fn value_for_x(&mut self, to_move: u8, ccf: bool) -> i64 {
        let empty = self.cells.iter().filter(|&&c| c == 0).count() as i64;
        let win = if ccf { empty + 1 } else { 1 };
        if self.has_line(1) {
            return win;
        }
        if self.has_line(2) {
            return -win;
        }
        let v = self.minimax(to_move, ccf);
        if to_move == 1 {
            v
        } else {
            -v
        }
    }

    /// The first empty cell after which x (to move) wins, by minimax.
    fn first_winning_cell(&mut self) -> Option<usize> {
        if self.has_line(1) || self.has_line(2) {
            return None;
        }
        (0..self.cells.len()).find(|&i| {
            if self.cells[i] != 0 {
                return false;
            }
            self.cells[i] = 1;
            let won = self.line_through(i) || self.minimax(2, false) == -1;
            self.cells[i] = 0;
            won
        })
    }
}

/// Every position reachable from the empty board by legal play, deduplicated.
fn all_positions(g: Geometry) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut stack = vec![Position::empty(g)];
    let mut out = Vec::new();
    while let Some(p) = stack.pop() {
        if !seen.insert((p.x(), p.o())) {
            continue;
        }
        out.push(p);
        stack.extend(p.legal_moves().map(|c| p.play(c)));
    }
    out
}

#[test]
fn all_2739_ccf_positions_match_plain_minimax() {
    let alice: Vec<Position> =
        all_positions(Geometry::CCF).into_iter().filter(|p| p.to_move() == Mark::X).collect();
    assert_eq!(alice.len(), 2739);
    let mut eval = BoardEval::new(Geometry::CCF);
    let mut wins = WinningMove::new(Geometry::CCF);
    for p in &alice {
        let mut plain = Plain::from_position(p);
        assert_eq!(eval.evaluate(p).unwrap(), plain.value_for_x(1, true), "CCF score of\n{p}");
        let cell = wins.find(p).unwrap().map(Cell::index);
        assert_eq!(cell, plain.first_winning_cell(), "winning move of\n{p}");
    }
}

#[test]
fn ccf_scores_with_bob_to_move_match_plain_minimax() {
    let mut eval = BoardEval::new(Geometry::CCF);
    for p in all_positions(Geometry::CCF).iter().filter(|p| p.to_move() == Mark::O) {
        assert_eq!(eval.evaluate(p).unwrap(), Plain::from_position(p).value_for_x(2, true), "\n{p}");
    }
}

/// A random legal position of `g` with `stones` stones (fewer if the game ends first).
fn random_position(rng: &mut SmallRng, g: Geometry, stones: usize) -> Position {
    let mut p = Position::empty(g);
    for _ in 0..stones {
        let moves: Vec<Cell> = p.legal_moves().collect();
        if moves.is_empty() {
            break;
        }
        p = p.play(moves[rng.gen_range(0..moves.len())]);
    }
    p
}

fn check_random(g: Geometry, count: usize, max_empty: usize, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut wins = WinningMove::new(g);
    let mut eval = BoardEval::new(g);
    let mut decided = 0;
    for _ in 0..count {
        let empty = rng.gen_range(1..=max_empty);
        let mut p = random_position(&mut rng, g, g.cells() - empty);
        if p.to_move() == Mark::O && !p.is_over() {
            // winning-move asks with x to move: one more stone.
            p = random_position(&mut rng, g, g.cells() - empty + 1);
        }
        let mut plain = Plain::from_position(&p);
        let to_move = if p.to_move() == Mark::X { 1 } else { 2 };
        assert_eq!(eval.evaluate(&p).unwrap(), plain.value_for_x(to_move, true), "CCF score of\n{p}");
        if p.to_move() == Mark::X {
            let cell = wins.find(&p).unwrap().map(Cell::index);
            decided += usize::from(cell.is_some());
            assert_eq!(cell, plain.first_winning_cell(), "winning move of\n{p}");
        }
    }
    assert!(decided > 0, "the sample should contain won positions");
}

/// Plays x's found win to its end against every defence of o: after x's move o tries every
/// reply; in each, x must have a winning cell again (`WinningMove::find`), until x completes a
/// line (checked by the test's own line test) before o does and before the board fills.
/// Returns the number of games played out.
fn replay_against_every_defence(wins: &mut WinningMove, after_x: &Position) -> usize {
    if Plain::from_position(after_x).has_line(1) {
        return 1;
    }
    let replies: Vec<Cell> = after_x.legal_moves().collect();
    assert!(!replies.is_empty(), "x's win ended in a full board\n{after_x}");
    let mut games = 0;
    for r in replies {
        let p = after_x.play(r);
        assert!(!Plain::from_position(&p).has_line(2), "o completed a line against x's win\n{p}");
        let cell = wins.find(&p).unwrap().unwrap_or_else(|| panic!("x lost its win after o's {r:?}\n{p}"));
        games += replay_against_every_defence(wins, &p.play(cell));
    }
    games
}

/// Every winning cell found on random positions of 5x5 and 4x6 with k = 4 (up to 11 empty
/// cells) is a win: played on with the solver's next winning cells, it completes x's line
/// against every defence.
#[test]
fn winning_moves_hold_against_every_defence() {
    for (rows, cols, seed) in [(5, 5, 74), (4, 6, 75)] {
        let g = Geometry::new(rows, cols, 4).unwrap();
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut wins = WinningMove::new(g);
        let (mut found, mut games) = (0, 0);
        for _ in 0..200 {
            let empty = rng.gen_range(4..=11);
            let p = random_position(&mut rng, g, g.cells() - empty);
            if p.is_over() || p.to_move() != Mark::X {
                continue;
            }
            if let Some(cell) = wins.find(&p).unwrap() {
                found += 1;
                games += replay_against_every_defence(&mut wins, &p.play(cell));
            }
        }
        assert!(found >= 20, "{g}: {found} wins found");
        assert!(games > found, "{g}: {games} games played out");
    }
}

#[test]
fn random_4x4_positions_match_plain_minimax() {
    check_random(Geometry::UVA, 150, 8, 4);
}

#[test]
fn random_positions_of_other_sizes_match_plain_minimax() {
    check_random(Geometry::new(3, 4, 3).unwrap(), 60, 7, 34);
    check_random(Geometry::new(4, 4, 3).unwrap(), 60, 7, 44);
    check_random(Geometry::new(5, 5, 4).unwrap(), 30, 7, 54);
    check_random(Geometry::new(2, 5, 2).unwrap(), 30, 7, 25);
    // 33 to 40 cells: base-3 keys folded over the symmetries.
    check_random(Geometry::new(6, 6, 5).unwrap(), 60, 7, 66);
    check_random(Geometry::new(5, 8, 5).unwrap(), 60, 7, 58);
}

#[test]
fn official_samples() {
    let uva = "?\n....\n.xo.\n.ox.\n....\n?\no...\n.ox.\n.xxx\nxooo\n$\n";
    let mut wins = WinningMove::new(Geometry::UVA);
    let answers: Vec<Option<(usize, usize)>> = parse_uva(uva, Geometry::UVA)
        .map(|c| wins.find(&c.unwrap().position).unwrap().map(|cell| Geometry::UVA.row_col(cell)))
        .collect();
    assert_eq!(answers, vec![None, Some((0, 1))]);

    let ccf = "3\n1 2 1\n2 1 2\n0 0 0\n2 1 1\n0 2 1\n0 0 2\n0 0 0\n0 0 0\n0 0 0\n";
    let mut eval = BoardEval::new(Geometry::CCF);
    let scores: Vec<i64> = parse_ccf(ccf).map(|c| eval.evaluate(&c.unwrap().position).unwrap()).collect();
    assert_eq!(scores, vec![3, -4, 0]);
}

#[test]
fn empty_4x4_is_a_draw_without_winning_move() {
    let mut wins = WinningMove::new(Geometry::UVA);
    let empty = Position::empty(Geometry::UVA);
    assert_eq!(wins.find(&empty).unwrap(), None);
    assert_eq!(wins.analyze(&empty).unwrap().value, 0);
}

#[test]
fn geometry_mismatch_is_an_error() {
    let mut wins = WinningMove::new(Geometry::UVA);
    assert!(wins.find(&Position::empty(Geometry::CCF)).is_err());
}

#[test]
fn analysis_is_consistent_on_random_positions() {
    let mut rng = SmallRng::seed_from_u64(5);
    for g in [Geometry::UVA, Geometry::CCF, Geometry::new(3, 4, 3).unwrap()] {
        let mut wins = WinningMove::new(g);
        let mut eval = BoardEval::new(g);
        for _ in 0..40 {
            let stones = rng.gen_range(g.cells() / 2..g.cells());
            let p = random_position(&mut rng, g, stones);
            for ccf in [false, true] {
                let a = if ccf { eval.analyze(&p).unwrap() } else { wins.analyze(&p).unwrap() };
                let sign = if p.to_move() == Mark::X { 1 } else { -1 };
                if p.is_over() {
                    assert!(a.moves.is_empty() && a.pv.is_empty());
                } else {
                    let best = a.moves.iter().map(|m| sign * m.value).max().unwrap();
                    assert_eq!(sign * a.value, best, "\n{p}");
                    assert!(a.best_moves().any(|m| m.mv == a.pv[0]));
                }
                // Replaying the PV ends the game with the value as its score.
                let end = a.pv.iter().fold(p, |q, &c| q.play(c));
                assert!(end.is_over());
                let empty = i64::from(end.empty_cells().count());
                let win = if ccf { empty + 1 } else { 1 };
                let score = match end.winner() {
                    Some(Mark::X) => win,
                    Some(Mark::O) => -win,
                    None => 0,
                };
                assert_eq!(score, a.value, "PV {:?} from\n{p}", a.pv);
            }
        }
    }
}

#[test]
fn parsers_never_panic_on_random_text() {
    let mut rng = SmallRng::seed_from_u64(99);
    let alphabet = ['?', '$', '.', 'x', 'o', 'X', '0', '1', '2', '3', ' ', '\n', '\n', '\r', '-', 'é'];
    for _ in 0..3000 {
        let len = rng.gen_range(0..60);
        let text: String = (0..len).map(|_| alphabet[rng.gen_range(0..alphabet.len())]).collect();
        for g in [Geometry::UVA, Geometry::CCF, Geometry::new(1, 2, 1).unwrap()] {
            let results: Vec<_> = parse_uva(&text, g).collect();
            assert!(results.iter().rev().skip(1).all(Result::is_ok), "errors end the stream");
        }
        let results: Vec<_> = parse_ccf(&text).collect();
        assert!(results.iter().rev().skip(1).all(Result::is_ok), "errors end the stream");
    }
}

#[test]
fn boards_up_to_64_cells_match_plain_minimax() {
    // Random boards with few empty cells and no line yet, x to move: 128-bit keys, one shared TT.
    let mut rng = SmallRng::seed_from_u64(78);
    for (g, count) in [(Geometry::new(7, 7, 5).unwrap(), 15), (Geometry::new(8, 8, 6).unwrap(), 15)] {
        let mut wins = WinningMove::new(g);
        let mut eval = BoardEval::new(g);
        for _ in 0..count {
            let empty = rng.gen_range(3..=7);
            let p = random_unfinished(&mut rng, g, empty);
            let mut plain = Plain::from_position(&p);
            assert_eq!(eval.evaluate(&p).unwrap(), plain.value_for_x(1, true), "CCF score of\n{p}");
            let cell = wins.find(&p).unwrap().map(Cell::index);
            assert_eq!(cell, plain.first_winning_cell(), "winning move of\n{p}");
        }
    }
    // A position of another board is refused, not searched.
    let big = Geometry::new(8, 8, 5).unwrap();
    assert!(WinningMove::new(big).find(&Position::empty(Geometry::UVA)).is_err());
}

/// `try_find` under a time limit: stopped on the empty 6x6 board with k = 4 (seconds
/// unlimited) within a small multiple of the limit; with time enough it gives `find`'s answers
/// (the sample and a quick 6x6 case), the same solver going on after the interruption.
#[test]
fn try_find_stops_at_its_time_limit_and_otherwise_agrees_with_find() {
    use std::time::{Duration, Instant};
    let g = Geometry::new(6, 6, 4).unwrap();
    let mut solver = WinningMove::new(g);
    let start = Instant::now();
    let stopped = solver.try_find(&Position::empty(g), Duration::from_millis(100)).unwrap();
    assert!(stopped.is_err(), "{stopped:?}");
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    let quick =
        parse_uva("?\nxxx...\n......\n......\n......\n......\nooo...\n$\n", g).next().unwrap().unwrap();
    let found = solver.try_find(&quick.position, Duration::from_secs(60)).unwrap().unwrap();
    assert_eq!(found, WinningMove::new(g).find(&quick.position).unwrap());
    assert_eq!(found.map(|c| g.row_col(c)), Some((0, 3)));
    let sample = "?\n....\n.xo.\n.ox.\n....\n?\no...\n.ox.\n.xxx\nxooo\n$\n";
    let mut solver = WinningMove::new(Geometry::UVA);
    for case in parse_uva(sample, Geometry::UVA) {
        let pos = case.unwrap().position;
        let limited = solver.try_find(&pos, Duration::from_secs(60)).unwrap().unwrap();
        assert_eq!(limited, WinningMove::new(Geometry::UVA).find(&pos).unwrap());
    }
}

/// A random position of `g` with `empty` empty cells, x to move, where nobody has a line yet.
fn random_unfinished(rng: &mut SmallRng, g: Geometry, empty: usize) -> Position {
    loop {
        let pairs = (g.cells() - empty) / 2;
        let mut cells: Vec<u8> = (0..g.cells() as u8).collect();
        for i in (1..cells.len()).rev() {
            cells.swap(i, rng.gen_range(0..=i));
        }
        let (mut x, mut o) = (tic_tac_toe::Bitboard::EMPTY, tic_tac_toe::Bitboard::EMPTY);
        for (n, &c) in cells[..2 * pairs].iter().enumerate() {
            if n < pairs {
                x |= Cell(c).bit();
            } else {
                o |= Cell(c).bit();
            }
        }
        let setup = tic_tac_toe::Setup { geometry: g, x, o, to_move: Mark::X };
        if let Ok(p) = Position::try_from(setup) {
            if !p.is_over() {
                return p;
            }
        }
    }
}

/// The k = 4 boards of 30 cells and more, where `WinningMove` lets df-pn and alpha-beta take
/// turns on each question: random unfinished positions with 6 to 9 empty cells against plain
/// minimax, won and not won ones among them.
#[test]
fn k4_boards_of_30_cells_and_more_match_plain_minimax() {
    let mut rng = SmallRng::seed_from_u64(564);
    let (mut won, mut not_won) = (0, 0);
    for (g, count) in [
        (Geometry::new(5, 6, 4).unwrap(), 30),
        (Geometry::new(6, 6, 4).unwrap(), 20),
        (Geometry::new(7, 8, 4).unwrap(), 20),
    ] {
        let mut wins = WinningMove::new(g);
        for _ in 0..count {
            let empty = rng.gen_range(6..=9);
            let p = random_unfinished(&mut rng, g, empty);
            let cell = wins.find(&p).unwrap().map(Cell::index);
            assert_eq!(cell, Plain::from_position(&p).first_winning_cell(), "winning move of\n{p}");
            if cell.is_some() {
                won += 1;
            } else {
                not_won += 1;
            }
        }
    }
    assert!(won > 0 && not_won > 0, "{won} won, {not_won} not");
}

/// `MnkGame::value_bounds` holds the plain minimax value of random positions under both
/// scorings, also where it proves a win by continuous threats (a win for the side to move
/// that has no line to complete at once) and where a pairing strategy bounds a side that could
/// still complete a line: such positions are part of the sample.
#[test]
fn value_bounds_hold_on_random_positions_and_forced_wins_are_real() {
    use search_core::Game;
    use tic_tac_toe::{MnkGame, Scoring};
    let mut rng = SmallRng::seed_from_u64(4004);
    let (mut forced, mut paired) = (0, 0);
    for (g, count, max_empty) in [
        (Geometry::new(4, 4, 3).unwrap(), 400, 9),
        (Geometry::new(4, 5, 4).unwrap(), 400, 10),
        (Geometry::new(5, 5, 4).unwrap(), 400, 10),
        (Geometry::new(5, 6, 4).unwrap(), 200, 9),
    ] {
        for ccf in [false, true] {
            let game = MnkGame::new(g, if ccf { Scoring::EmptyPlusOne } else { Scoring::WinLoss });
            for _ in 0..count {
                let empty = rng.gen_range(1..=max_empty);
                let p = random_position(&mut rng, g, g.cells() - empty);
                if p.is_over() {
                    continue;
                }
                let mut plain = Plain::from_position(&p);
                let (me, sign) = if p.to_move() == Mark::X { (1, 1) } else { (2, -1) };
                let value = sign * plain.value_for_x(me, ccf);
                let (lo, hi) = game.value_bounds(&p);
                assert!(lo <= value && value <= hi, "bounds ({lo}, {hi}) against {value} for\n{p}");
                let wins_now = (0..plain.cells.len()).any(|i| {
                    plain.cells[i] == 0 && {
                        plain.cells[i] = me;
                        let line = plain.line_through(i);
                        plain.cells[i] = 0;
                        line
                    }
                });
                forced += usize::from(lo > 0 && !wins_now);
                // A line the side to move could still complete in the moves it has left: an
                // upper bound of 0 there comes from a pairing strategy against its lines.
                let my_moves = empty.div_ceil(2);
                let reachable = Plain::lines(g).iter().any(|line| {
                    line.iter().all(|&i| plain.cells[i] != 3 - me)
                        && line.iter().filter(|&&i| plain.cells[i] == 0).count() <= my_moves
                });
                paired += usize::from(hi == 0 && reachable);
            }
        }
    }
    assert!(forced >= 20, "only {forced} forced wins by continuous threats in the sample");
    assert!(paired >= 20, "only {paired} pairing bounds in the sample");
}
