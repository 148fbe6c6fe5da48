//! Generators and benchmark cases for the tic-tac-toe family: `winning-move` (UVa 10111 `?`
//! blocks) and `board-eval` (CCF CSP 201803-4 boards). Self-contained (its own line test), so
//! that the generator does not depend on the solver it feeds.

use std::fmt::Write as _;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::bench_case::BenchCase;

/// Every winning line of a `rows x cols` board with `k` in a row, as lists of cell indices.
fn lines(rows: usize, cols: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for (dr, dc) in [(0isize, 1isize), (1, 0), (1, 1), (1, -1)] {
        for r in 0..rows as isize {
            for c in 0..cols as isize {
                let cells: Vec<(isize, isize)> = (0..k as isize).map(|i| (r + dr * i, c + dc * i)).collect();
                if cells
                    .iter()
                    .all(|&(rr, cc)| (0..rows as isize).contains(&rr) && (0..cols as isize).contains(&cc))
                {
                    out.push(cells.iter().map(|&(rr, cc)| rr as usize * cols + cc as usize).collect());
                }
            }
        }
    }
    out
}

/// Whether `player` (1 or 2) has a line on `board`.
fn has_line(board: &[u8], lines: &[Vec<usize>], player: u8) -> bool {
    lines.iter().any(|l| l.iter().all(|&i| board[i] == player))
}

/// `winning-move` input: `count` boards of `rows x cols` (k = the shorter side) with x to move,
/// as many x as o and at least two of each, nobody with a line, and the board not full.
fn winning_move(rng: &mut SmallRng, rows: usize, cols: usize, count: usize) -> anyhow::Result<String> {
    let cells = rows * cols;
    anyhow::ensure!(cells >= 5, "a {rows}x{cols} board is too small for two stones each and an empty cell");
    // k is the shorter side: with k = 1 every stone is a line and no board qualifies.
    anyhow::ensure!(rows.min(cols) >= 2, "a {rows}x{cols} board has k = 1: every stone would be a line");
    let lines = lines(rows, cols, rows.min(cols));
    let mut text = String::new();
    let mut order: Vec<usize> = (0..cells).collect();
    let mut made = 0;
    while made < count {
        let pairs = rng.gen_range(2..=(cells - 1) / 2);
        order.shuffle(rng);
        let mut board = vec![0u8; cells];
        for (n, &i) in order[..2 * pairs].iter().enumerate() {
            board[i] = if n < pairs { 1 } else { 2 };
        }
        if has_line(&board, &lines, 1) || has_line(&board, &lines, 2) {
            continue;
        }
        text.push_str("?\n");
        for row in board.chunks(cols) {
            text.extend(row.iter().map(|&v| ['.', 'x', 'o'][usize::from(v)]));
            text.push('\n');
        }
        made += 1;
    }
    text.push_str("$\n");
    Ok(text)
}

/// `board-eval` input: `count` legal 3 x 3 positions with Alice (1) to move, by random play of
/// an even number of moves that stops early only when Bob completes a line.
fn board_eval(rng: &mut SmallRng, count: usize) -> String {
    let lines = lines(3, 3, 3);
    let mut text = format!("{count}\n");
    let mut made = 0;
    while made < count {
        let plies = 2 * rng.gen_range(0..=4);
        let mut board = [0u8; 9];
        let mut ok = true;
        for ply in 0..plies {
            let player = if ply % 2 == 0 { 1 } else { 2 };
            let empty: Vec<usize> = (0..9).filter(|&i| board[i] == 0).collect();
            board[*empty.choose(rng).expect("fewer than 9 plies")] = player;
            if has_line(&board, &lines, player) {
                // Legal with Alice to move only if Bob just won.
                ok = player == 2;
                break;
            }
        }
        if !ok {
            continue;
        }
        for row in board.chunks(3) {
            let _ = writeln!(text, "{} {} {}", row[0], row[1], row[2]);
        }
        made += 1;
    }
    text
}

fn parse_size(size: Option<&str>) -> anyhow::Result<(usize, usize)> {
    let (r, c) = super::gen_args::parse_size(size, (4, 4))?;
    anyhow::ensure!((1..=8).contains(&r) && (1..=8).contains(&c), "--size {r}x{c}: sides must be 1 to 8");
    Ok((r, c))
}

/// The generated input: `winning-move` (`--size RxC`, default 4x4) or `board-eval`.
pub fn generate(args: &super::gen_args::GenArgs) -> anyhow::Result<String> {
    let mut rng = SmallRng::seed_from_u64(args.seed);
    match args.game.as_str() {
        "winning-move" => {
            let (rows, cols) = parse_size(args.size.as_deref())?;
            winning_move(&mut rng, rows, cols, args.count)
        }
        "board-eval" => Ok(board_eval(&mut rng, args.count)),
        other => anyhow::bail!("unknown tic-tac-toe generator {other:?}"),
    }
}

/// Whole-process benchmark cases: a batch of 200 random 4 x 4 boards, the empty 4 x 4 board,
/// the empty 5 x 5, 6 x 6 and 8 x 8 boards with k = 4, the empty 6 x 6 and 7 x 7 boards with
/// k = 5, a batch of CCF boards, and the golden random batch.
pub fn bench_cases() -> anyhow::Result<Vec<BenchCase>> {
    let mut rng = SmallRng::seed_from_u64(2026);
    let batch = winning_move(&mut rng, 4, 4, 200)?;
    let ccf = board_eval(&mut SmallRng::seed_from_u64(2026), 1000);
    Ok(vec![
        BenchCase::new(
            "winning-move 200 random 4x4",
            &["winning-move"],
            batch,
            "textbook 8.4 s; goal < 84 ms",
        ),
        BenchCase::new(
            "winning-move empty 4x4",
            &["winning-move", "--empty"],
            String::new(),
            "textbook 44 s, C memo 0.42 s; goal < 0.1 s",
        ),
        BenchCase::new(
            "winning-move empty 5x5 k=4",
            &["winning-move", "--size", "5x5", "--k", "4", "--empty"],
            String::new(),
            "report (known draw)",
        ),
        BenchCase::new(
            "winning-move empty 6x6 k=4",
            &["winning-move", "--size", "6x6", "--k", "4", "--empty"],
            String::new(),
            "(1,1) (x wins)",
        ),
        BenchCase::new(
            "winning-move empty 8x8 k=4",
            &["winning-move", "--size", "8x8", "--k", "4", "--empty"],
            String::new(),
            "(0,3) (x wins)",
        ),
        BenchCase::new(
            "winning-move empty 6x6 k=5",
            &["winning-move", "--size", "6x6", "--k", "5", "--empty"],
            String::new(),
            "draw (Maker-Breaker: Breaker wins); df-pn alone > 15 min",
        ),
        BenchCase::new(
            "winning-move empty 7x7 k=5",
            &["winning-move", "--size", "7x7", "--k", "5", "--empty"],
            String::new(),
            "draw; Hsu et al. 2020: 2.5 s",
        ),
        BenchCase::new("board-eval 1000 random 3x3", &["board-eval"], ccf, "-"),
        BenchCase::from_testdata(
            "winning-move golden random 4x4",
            &["winning-move"],
            "winning-move/random.in",
            "-",
        )?,
    ])
}
