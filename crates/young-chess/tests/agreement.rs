//! Cross-checks of the three solvers: an independent brute force written here (plain recursion
//! over every move order, on row lengths), the search-core engine on [`YoungGame`], and the
//! layered DP (two-layer solve and full table).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use search_core::reference::minimax;
use young_chess::dp::{self, DpTable};
use young_chess::{parse, Board, Memo, Staircase, YoungGame};

/// Value of the remaining play from the side to move, by recursion over every move order.
/// `rows[i]` is the length of row `i`; `black` says who is to move.
fn brute(n: usize, m: usize, a: &[i64], b: &[i64], rows: &mut Vec<usize>, black: bool) -> i64 {
    let mut best: Option<i64> = None;
    for i in 0..n {
        let c = rows[i];
        let fillable = c < m && (i == 0 || rows[i - 1] > c);
        if !fillable {
            continue;
        }
        let gain = if black { a[i * m + c] } else { b[i * m + c] };
        rows[i] += 1;
        let v = gain - brute(n, m, a, b, rows, !black);
        rows[i] -= 1;
        best = Some(best.map_or(v, |x| x.max(v)));
    }
    best.unwrap_or(0)
}

fn random_board(rng: &mut SmallRng, n: usize, m: usize, max: i64) -> Board {
    let a = (0..n * m).map(|_| rng.gen_range(0..=max)).collect();
    let b = (0..n * m).map(|_| rng.gen_range(0..=max)).collect();
    Board::new(n, m, a, b).unwrap()
}

fn engine(board: &Board) -> i64 {
    let mut solver = YoungGame::new(board).solver();
    solver.solve(&board.start())
}

#[test]
fn sample_answer_is_2() {
    let board = parse("2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n").unwrap();
    assert_eq!(young_chess::solve(&board).unwrap(), 2);
    assert_eq!(engine(&board), 2);
    assert_eq!(minimax(&YoungGame::new(&board), &board.start()), 2);
}

#[test]
fn every_shape_up_to_4x4_agrees_with_brute_force() {
    let mut rng = SmallRng::seed_from_u64(2471);
    for n in 1..=4 {
        for m in 1..=4 {
            for round in 0..6 {
                let board = random_board(&mut rng, n, m, if round % 2 == 0 { 9 } else { 100_000 });
                let want = brute(n, m, board.a_values(), board.b_values(), &mut vec![0; n], true);
                assert_eq!(dp::solve(&board).unwrap(), want, "{n}x{m} round {round}: DP");
                assert_eq!(engine(&board), want, "{n}x{m} round {round}: engine");
                let table = DpTable::build(&board).unwrap();
                assert_eq!(table.value(&board.start()), want, "{n}x{m}: table");
            }
        }
    }
}

#[test]
fn dp_table_matches_brute_force_on_every_staircase() {
    let mut rng = SmallRng::seed_from_u64(7);
    for (n, m) in [(3, 3), (2, 4), (4, 3)] {
        let board = random_board(&mut rng, n, m, 20);
        let table = DpTable::build(&board).unwrap();
        // Every staircase: enumerate row-length vectors.
        let mut rows = vec![0usize; n];
        loop {
            if rows.windows(2).all(|w| w[0] >= w[1]) {
                let pos = Staircase::from_row_lengths(n, m, &rows).unwrap();
                let want =
                    brute(n, m, board.a_values(), board.b_values(), &mut rows.clone(), pos.black_to_move());
                assert_eq!(table.value(&pos), want, "{n}x{m} rows {rows:?}");
            }
            let Some(i) = (0..n).find(|&i| rows[i] < m) else { break };
            rows[i] += 1;
            rows[..i].fill(0);
        }
    }
}

#[test]
fn random_boards_up_to_10x10_dp_matches_engine() {
    let mut rng = SmallRng::seed_from_u64(10);
    let mut sizes: Vec<(usize, usize)> =
        (0..14).map(|_| (rng.gen_range(1..=10), rng.gen_range(1..=10))).collect();
    sizes.extend([(10, 10), (10, 9), (1, 10), (10, 1)]);
    for (n, m) in sizes {
        let board = random_board(&mut rng, n, m, 100_000);
        assert_eq!(dp::solve(&board).unwrap(), engine(&board), "{n}x{m}");
    }
}

#[test]
fn wide_values_use_64_bit_storage_and_agree() {
    let mut rng = SmallRng::seed_from_u64(64);
    let board = random_board(&mut rng, 5, 6, young_chess::MAX_VALUE);
    assert!(board.value_bound() > i64::from(i32::MAX));
    assert_eq!(dp::solve(&board).unwrap(), engine(&board));
    assert_eq!(DpTable::build(&board).unwrap().value(&board.start()), engine(&board));
}

#[test]
fn one_row_and_one_column_alternate_cells() {
    // 1 x m: the cells are taken in order, Black the even ones.
    let board = parse("1 5\n1 2 3 4 5\n10 20 30 40 50\n").unwrap();
    assert_eq!(dp::solve(&board).unwrap(), 1 - 20 + 3 - 40 + 5);
    let board = parse("4 1\n1\n2\n3\n4\n5\n6\n7\n8\n").unwrap();
    assert_eq!(dp::solve(&board).unwrap(), 1 - 6 + 3 - 8);
    assert_eq!(dp::solve(&parse("1 1\n7\n9\n").unwrap()).unwrap(), 7);
}

#[test]
fn all_zero_board_is_zero() {
    for (n, m) in [(1, 1), (3, 7), (10, 10)] {
        let board = Board::new(n, m, vec![0; n * m], vec![0; n * m]).unwrap();
        assert_eq!(dp::solve(&board).unwrap(), 0);
    }
}

#[test]
fn b_all_zero_boards_agree_and_are_non_negative() {
    let mut rng = SmallRng::seed_from_u64(5);
    for (n, m) in [(2, 2), (4, 4), (7, 9), (10, 10)] {
        let a = (0..n * m).map(|_| rng.gen_range(0..=100_000)).collect();
        let board = Board::new(n, m, a, vec![0; n * m]).unwrap();
        let v = dp::solve(&board).unwrap();
        assert!(v >= 0);
        assert_eq!(v, engine(&board), "{n}x{m}");
    }
}

#[test]
fn thin_boards_beyond_the_dp_limit_use_the_memo() {
    let mut rng = SmallRng::seed_from_u64(1);
    let board = random_board(&mut rng, 2, 60, 1000);
    let v = dp::solve(&board).unwrap();
    assert!(DpTable::build(&board).is_err());
    // Beyond the DP limit `dp::solve` is the memo: check it against the search-core engine.
    assert_eq!(v, engine(&board));
    let analysis = young_chess::analyze_start(&board).unwrap();
    assert_eq!(analysis.value, v);
    assert_eq!(analysis.pv.len(), 120);
    let narrow = random_board(&mut rng, 3, 40, 1000);
    assert_eq!(dp::solve(&narrow).unwrap(), engine(&narrow));
}

#[test]
fn memo_matches_dp_on_random_boards() {
    let mut rng = SmallRng::seed_from_u64(99);
    for _ in 0..10 {
        let (n, m) = (rng.gen_range(1..=8), rng.gen_range(1..=8));
        let board = random_board(&mut rng, n, m, 1000);
        assert_eq!(Memo::new(&board).value(&board.start()), dp::solve(&board).unwrap(), "{n}x{m}");
    }
}

#[test]
fn memory_estimates() {
    let zero = |n: usize, m: usize| Board::new(n, m, vec![0; n * m], vec![0; n * m]).unwrap();
    let e16 = dp::memory_estimate(&zero(16, 16));
    assert!(e16 < 200 << 20, "16x16 two-layer DP estimate {e16}");
    assert!(dp::table_memory_estimate(&zero(16, 16)) > 2 << 30);
    assert!(dp::memory_estimate(&zero(24, 24)) > 64 << 30);
}

#[test]
fn table_analysis_matches_engine_analysis() {
    let mut rng = SmallRng::seed_from_u64(3);
    for (n, m) in [(1, 1), (2, 3), (4, 5), (6, 6), (3, 9)] {
        let board = random_board(&mut rng, n, m, 50);
        let mut solver = YoungGame::new(&board).solver();
        let want = solver.analyze(&board.start());
        let got = young_chess::analyze_start(&board).unwrap();
        assert_eq!(got.value, want.value, "{n}x{m}");
        assert_eq!(got.moves, want.moves, "{n}x{m}");
        // Replaying the PV banks exactly the value.
        let (mut pos, mut score) = (board.start(), 0);
        for &c in &got.pv {
            let g = board.gain(&pos, c);
            score += if pos.black_to_move() { g } else { -g };
            pos = pos.fill(c).unwrap();
        }
        assert!(pos.is_full());
        assert_eq!(score, got.value, "{n}x{m}");
        assert_eq!(got.pv.first(), got.best_moves().next().map(|m| &m.mv));
    }
}

#[test]
fn parallel_dp_matches_memo() {
    // 8 x 17 has 1,081,575 staircases: above the DP's threshold for rayon.
    let mut rng = SmallRng::seed_from_u64(817);
    let board = random_board(&mut rng, 8, 17, 100_000);
    assert!(dp::staircase_count(8, 17) >= 1 << 20);
    assert_eq!(dp::solve(&board).unwrap(), Memo::new(&board).value(&board.start()));
}

#[test]
fn mutated_inputs_never_panic_and_parse_to_solvable_boards() {
    let sample = b"2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n";
    let alphabet = b"0123456789 \n\r\t-x+";
    let mut rng = SmallRng::seed_from_u64(4363);
    for _ in 0..3000 {
        let mut text = sample.to_vec();
        for _ in 0..rng.gen_range(1..=4) {
            let i = rng.gen_range(0..=text.len());
            match rng.gen_range(0..3) {
                0 => text.insert(i, alphabet[rng.gen_range(0..alphabet.len())]),
                1 if i < text.len() => {
                    text.remove(i);
                }
                _ if i < text.len() => text[i] = alphabet[rng.gen_range(0..alphabet.len())],
                _ => {}
            }
        }
        let text = String::from_utf8(text).unwrap();
        match parse(&text) {
            Ok(board) if board.rows() * board.cols() <= 16 => {
                let want = brute(
                    board.rows(),
                    board.cols(),
                    board.a_values(),
                    board.b_values(),
                    &mut vec![0; board.rows()],
                    true,
                );
                assert_eq!(dp::solve(&board).unwrap(), want, "{text:?}");
            }
            Ok(_) => {}
            Err(e) => assert!(e.line >= 1 && e.column.map_or(true, |c| c >= 1), "{text:?}: {e}"),
        }
    }
}
