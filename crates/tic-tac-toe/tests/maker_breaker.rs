//! Cross-checks of the Maker-Breaker prover.
//!
//! 1. [`MakerBreaker`] (reduced positions, symmetry-folded keys, Erdős–Selfridge and pairing
//!    shortcuts, forced blocks) against a plain memoised brute force written here (every empty
//!    cell a move, its own line test, no reduction): every position of the 3 x 3 boards, the
//!    empty boards up to 4 x 4 and 3 x 5, and random positions of larger boards.
//! 2. Soundness against the full m,n,k solver: wherever Maker-Breaker says the side to move
//!    cannot complete a line, the full solver must say it has no forced win (exhaustively on
//!    3 x 3 with k = 2 and 3, on random positions up to 5 x 5). The converse does not hold and
//!    is not asserted: on 3 x 3 Maker wins the Maker-Breaker game although tic-tac-toe is a
//!    draw (o's own threats make x block).
//! 3. [`WinningMove::find`] (Maker-Breaker first) against a full solver that never asks it.
//! 4. Every pairing strategy returned is one: disjoint pairs of free cells, a pair on every
//!    live line.
//! 5. [`ZoneProver`] against the brute force on random positions, with all its pruning rules,
//!    with each rule alone and with none; and every relevancy zone it returns checked by
//!    handing every empty cell outside it to the loser and solving again by brute force.
//! 6. Every Maker win it finds on random positions played out against every Breaker defence,
//!    Maker moving by the prover's own proofs, until Maker's line (the brute force's test).

use std::collections::HashMap;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use search_core::{Engine, Game};
use tic_tac_toe::{
    default_tt_bits, verify_pairing, Bitboard, Cell, Geometry, MakerBreaker, MnkGame, Position,
    ProofTableError, Question, Scoring, WinningMove, ZoneOptions, ZoneProver,
};

/// A plain Maker-Breaker brute force: lines as cell lists, memo over (maker, breaker, turn).
struct Brute {
    lines: Vec<Vec<usize>>,
    cells: usize,
    memo: HashMap<(u64, u64, bool), bool>,
}

impl Brute {
    fn new(rows: usize, cols: usize, k: usize) -> Brute {
        let mut lines = Vec::new();
        for (dr, dc) in [(0isize, 1isize), (1, 0), (1, 1), (1, -1)] {
            for r in 0..rows as isize {
                for c in 0..cols as isize {
                    let cells: Vec<(isize, isize)> =
                        (0..k as isize).map(|i| (r + dr * i, c + dc * i)).collect();
                    if cells
                        .iter()
                        .all(|&(y, x)| (0..rows as isize).contains(&y) && (0..cols as isize).contains(&x))
                    {
                        let mut line: Vec<usize> =
                            cells.iter().map(|&(y, x)| y as usize * cols + x as usize).collect();
                        line.sort_unstable();
                        if !lines.contains(&line) {
                            lines.push(line);
                        }
                    }
                }
            }
        }
        Brute { lines, cells: rows * cols, memo: HashMap::new() }
    }

    fn has_line(&self, stones: u64) -> bool {
        self.lines.iter().any(|l| l.iter().all(|&i| stones >> i & 1 == 1))
    }

    /// Whether Maker wins from (maker, breaker) with `maker_to_move`.
    fn maker_wins(&mut self, maker: u64, breaker: u64, maker_to_move: bool) -> bool {
        if self.has_line(maker) {
            return true;
        }
        if let Some(&v) = self.memo.get(&(maker, breaker, maker_to_move)) {
            return v;
        }
        let empty: Vec<usize> = (0..self.cells).filter(|&i| (maker | breaker) >> i & 1 == 0).collect();
        let v = if maker_to_move {
            empty.iter().any(|&i| self.maker_wins(maker | 1 << i, breaker, false))
        } else {
            !empty.is_empty() && empty.iter().all(|&i| self.maker_wins(maker, breaker | 1 << i, true))
        };
        self.memo.insert((maker, breaker, maker_to_move), v);
        v
    }
}

/// Whether Maker wins by the engine on the Maker-Breaker game.
fn engine_maker_wins(
    solver: &mut Engine<MakerBreaker>,
    maker: Bitboard,
    breaker: Bitboard,
    turn: bool,
) -> bool {
    let pos = solver.game().position(maker, breaker, turn);
    let v = solver.solve(&pos);
    (v > 0) == turn
}

/// Checks `pairing` is a Breaker pairing strategy for the stones given.
fn assert_pairing(g: Geometry, maker: Bitboard, breaker: Bitboard, pairing: &[(Cell, Cell)]) {
    let free = g.full().without(maker | breaker);
    let mut used = Bitboard::EMPTY;
    for &(a, b) in pairing {
        let pair = a.bit() | b.bit();
        assert!(a != b && free.is_superset(pair) && !used.intersects(pair), "{pairing:?}");
        used |= pair;
    }
    for line in g.lines().into_iter().filter(|l| !l.intersects(breaker)) {
        assert!(pairing.iter().any(|&(a, b)| line.is_superset(a.bit() | b.bit())), "line {line:?} unpaired");
    }
}

#[test]
fn every_3x3_position_agrees_with_brute_force() {
    for k in 1..=3 {
        let g = Geometry::new(3, 3, k).unwrap();
        let mut brute = Brute::new(3, 3, k);
        let mut solver = Engine::new(MakerBreaker::new(g), 12);
        let mut checked = 0;
        for code in 0..3u32.pow(9) {
            let (mut maker, mut breaker, mut c) = (Bitboard::EMPTY, Bitboard::EMPTY, code);
            for i in 0..9 {
                match c % 3 {
                    1 => maker |= Bitboard::single(i),
                    2 => breaker |= Bitboard::single(i),
                    _ => {}
                }
                c /= 3;
            }
            for turn in [true, false] {
                let expected = brute.maker_wins(maker.0, breaker.0, turn);
                assert_eq!(
                    engine_maker_wins(&mut solver, maker, breaker, turn),
                    expected,
                    "k={k} {code} {turn}"
                );
                checked += 1;
            }
        }
        assert_eq!(checked, 2 * 19683);
    }
}

#[test]
fn empty_boards_agree_with_brute_force() {
    let mut maker_wins = Vec::new();
    for (rows, cols) in [(2, 2), (2, 3), (2, 4), (3, 3), (3, 4), (3, 5), (4, 4), (2, 6)] {
        for k in 2..=rows.max(cols) {
            let g = Geometry::new(rows, cols, k).unwrap();
            let expected = Brute::new(rows, cols, k).maker_wins(0, 0, true);
            let mut solver = Engine::new(MakerBreaker::new(g), 16);
            assert_eq!(
                engine_maker_wins(&mut solver, Bitboard::EMPTY, Bitboard::EMPTY, true),
                expected,
                "{g}"
            );
            if expected {
                maker_wins.push((rows, cols, k));
            }
        }
    }
    // The answers themselves: Maker completes k = 3 on 3 x 3 and up, not 4 on 4 x 4.
    assert!(maker_wins.contains(&(3, 3, 3)) && maker_wins.contains(&(3, 5, 3)));
    assert!(!maker_wins.contains(&(4, 4, 4)) && !maker_wins.contains(&(2, 4, 3)));
}

#[test]
fn random_positions_agree_with_brute_force() {
    let mut rng = SmallRng::seed_from_u64(5);
    for (rows, cols, k, count) in
        [(4, 4, 3, 300), (4, 4, 4, 300), (4, 5, 4, 300), (5, 5, 4, 200), (5, 5, 5, 200)]
    {
        let g = Geometry::new(rows, cols, k).unwrap();
        let mut solver = Engine::new(MakerBreaker::new(g), 18);
        let cells: Vec<u32> = (0..g.cells() as u32).collect();
        for _ in 0..count {
            // Dense enough for the brute force: at most 11 empty cells.
            let stones = rng.gen_range(g.cells() - 11..g.cells());
            let mut order = cells.clone();
            order.shuffle(&mut rng);
            let split = rng.gen_range(0..=stones);
            let maker = order[..split].iter().fold(Bitboard::EMPTY, |b, &i| b | Bitboard::single(i));
            let breaker = order[split..stones].iter().fold(Bitboard::EMPTY, |b, &i| b | Bitboard::single(i));
            let turn = rng.gen_bool(0.5);
            let expected = Brute::new(rows, cols, k).maker_wins(maker.0, breaker.0, turn);
            assert_eq!(
                engine_maker_wins(&mut solver, maker, breaker, turn),
                expected,
                "{g} {maker:?} {breaker:?}"
            );
            if let Some(pairing) =
                solver.game().pairing(&solver.game().position(maker, breaker, turn), 10_000)
            {
                assert_pairing(g, maker, breaker, &pairing);
                assert!(!expected, "a pairing strategy means Breaker wins");
            }
        }
    }
}

#[test]
fn pairings_of_empty_boards_are_pairings() {
    for (rows, cols, k) in [(5, 5, 5), (3, 3, 3), (4, 4, 4), (8, 8, 8), (6, 6, 5), (2, 4, 3)] {
        let g = Geometry::new(rows, cols, k).unwrap();
        let mb = MakerBreaker::new(g);
        let found = mb.pairing(&mb.position(Bitboard::EMPTY, Bitboard::EMPTY, true), 1_000_000);
        if let Some(pairing) = &found {
            assert_pairing(g, Bitboard::EMPTY, Bitboard::EMPTY, pairing);
        }
        // 5 x 5 with k = 5 and 2 x 4 with k = 3 pair up; tic-tac-toe cannot (Maker wins), nor can
        // 4 x 4 and 6 x 6 with k = 5 (exhaustive search: too few cells off the shared ones).
        assert_eq!(found.is_some(), matches!((rows, k), (5, 5) | (8, 8) | (2, 3)), "{g}");
    }
}

/// Every legal position of a board reachable from the empty one.
fn legal_positions(g: Geometry) -> Vec<Position> {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![Position::empty(g)];
    let mut out = Vec::new();
    while let Some(p) = stack.pop() {
        if !seen.insert((p.x(), p.o())) {
            continue;
        }
        out.push(p);
        for cell in p.legal_moves() {
            stack.push(p.play(cell));
        }
    }
    out
}

/// The first winning cell by the full solver only (no Maker-Breaker question).
fn full_only(solver: &mut Engine<MnkGame>, pos: &Position) -> Option<Cell> {
    if pos.is_over() || !solver.value_exceeds(pos, 0) {
        return None;
    }
    pos.legal_moves().find(|&c| !solver.value_exceeds(&solver.game().play(pos, c).0, -1))
}

fn check_sound(positions: &[Position], g: Geometry) -> (usize, usize) {
    let mut wm = WinningMove::new(g);
    let mut full = Engine::new(MnkGame::new(g, Scoring::WinLoss), default_tt_bits(g));
    let (mut no_line, mut total) = (0, 0);
    for pos in positions.iter().filter(|p| !p.is_over()) {
        total += 1;
        let me = pos.to_move();
        if !wm.can_make_line(pos, me).unwrap() {
            no_line += 1;
            assert!(
                !full.value_exceeds(pos, 0),
                "{g}: Maker-Breaker says no line but {me} wins\n{}",
                pos.grid()
            );
        }
        // Also from the opponent's seat: a player who cannot make a line cannot win.
        if !wm.can_make_line(pos, me.opponent()).unwrap() {
            assert!(full.value_exceeds(pos, -1), "{g}: {} cannot make a line but wins", me.opponent());
        }
        assert_eq!(wm.find(pos).unwrap(), full_only(&mut full, pos), "{g}\n{}", pos.grid());
    }
    (no_line, total)
}

#[test]
fn no_line_means_no_win_on_every_3x3_position() {
    for k in [2, 3] {
        let g = Geometry::new(3, 3, k).unwrap();
        let (no_line, total) = check_sound(&legal_positions(g), g);
        // With k = 2 Maker always makes a line; with k = 3 the prover answers some positions.
        assert!(total > 300 && (no_line > 0) == (k == 3), "k={k}: {no_line} of {total}");
    }
}

#[test]
fn no_line_means_no_win_on_random_positions() {
    let mut rng = SmallRng::seed_from_u64(12);
    for (rows, cols, k, count) in
        [(4, 4, 3, 150), (4, 4, 4, 150), (3, 5, 3, 150), (4, 5, 4, 100), (5, 5, 4, 30), (5, 5, 5, 30)]
    {
        let g = Geometry::new(rows, cols, k).unwrap();
        let mut positions = Vec::new();
        while positions.len() < count {
            // Random play of a quarter to half the board, kept if nobody has won.
            let mut p = Position::empty(g);
            for _ in 0..rng.gen_range(g.cells() / 4..=g.cells() / 2) {
                let cells: Vec<Cell> = p.legal_moves().collect();
                match cells.choose(&mut rng) {
                    Some(&c) => p = p.play(c),
                    None => break,
                }
            }
            if !p.is_over() {
                positions.push(p);
            }
        }
        let (no_line, total) = check_sound(&positions, g);
        assert_eq!(total, count);
        assert!(no_line > 0 || k == 3, "{g}: the prover never answered");
    }
}

#[test]
fn progress_reports_do_not_change_answers() {
    let mut rng = SmallRng::seed_from_u64(4);
    for (rows, cols, k) in [(4, 4, 4), (4, 4, 3), (5, 5, 4)] {
        let g = Geometry::new(rows, cols, k).unwrap();
        let (mut plain, mut reported) = (WinningMove::new(g), WinningMove::new(g));
        let mut positions = vec![Position::empty(g)];
        while positions.len() < 20 {
            let mut p = Position::empty(g);
            for _ in 0..rng.gen_range(2..=g.cells() / 2) {
                if let Some(&c) = p.legal_moves().collect::<Vec<_>>().choose(&mut rng) {
                    p = p.play(c);
                }
            }
            if !p.is_over() {
                positions.push(p);
            }
        }
        let mut reports = Vec::new();
        for p in &positions {
            reports.clear();
            let found = reported.find_with_progress(p, 50, &mut |r| reports.push(*r)).unwrap();
            assert_eq!(found, plain.find(p).unwrap(), "{g}\n{}", p.grid());
            // Nodes never go down within one call.
            assert!(reports.windows(2).all(|w| w[0].nodes <= w[1].nodes));
        }
        // The empty 5 x 5 board (k = 4), solved afresh, takes several pieces (the engine checks
        // its node limit every 4096 nodes): 10 reports, the Maker-Breaker question first.
        if (rows, k) == (5, 4) {
            reports.clear();
            assert_eq!(
                WinningMove::new(g)
                    .find_with_progress(&Position::empty(g), 50, &mut |r| reports.push(*r))
                    .unwrap(),
                None
            );
            assert!(reports.len() > 5, "{} reports", reports.len());
            assert_eq!(reports[0].question, Question::MakerBreaker);
            assert!(reports.iter().any(|r| r.question == Question::Win));
        }
    }
}

/// Random positions of `g` with at most `max_empty` empty cells: (maker, breaker, maker to move).
fn random_positions(
    g: Geometry,
    count: usize,
    max_empty: usize,
    seed: u64,
) -> Vec<(Bitboard, Bitboard, bool)> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let cells: Vec<u32> = (0..g.cells() as u32).collect();
    (0..count)
        .map(|_| {
            let stones = rng.gen_range(g.cells().saturating_sub(max_empty)..g.cells());
            let mut order = cells.clone();
            order.shuffle(&mut rng);
            let split = rng.gen_range(0..=stones);
            let maker = order[..split].iter().fold(Bitboard::EMPTY, |b, &i| b | Bitboard::single(i));
            let breaker = order[split..stones].iter().fold(Bitboard::EMPTY, |b, &i| b | Bitboard::single(i));
            (maker, breaker, rng.gen_bool(0.5))
        })
        .collect()
}

#[test]
fn zone_prover_and_each_of_its_rules_agree_with_brute_force() {
    let all = ZoneOptions::default();
    let none =
        ZoneOptions { zones: false, domination: false, pairing: false, potential: false, twins: false };
    let variants = [
        all,
        none,
        ZoneOptions { zones: true, ..none },
        ZoneOptions { domination: true, ..none },
        ZoneOptions { pairing: true, ..none },
        ZoneOptions { potential: true, ..none },
        ZoneOptions { twins: true, ..none },
    ];
    let mut checked = 0;
    let mut outcomes = [0usize; 2];
    for (rows, cols, k, seed) in
        [(3, 5, 3, 1), (4, 4, 3, 2), (4, 4, 4, 3), (4, 5, 4, 4), (5, 5, 4, 5), (5, 5, 5, 6)]
    {
        let g = Geometry::new(rows, cols, k).unwrap();
        let mut brute = Brute::new(rows, cols, k);
        let positions = random_positions(g, 400, 11, seed);
        for options in variants {
            let mut prover = ZoneProver::new(g, 1 << 16);
            prover.set_options(options);
            for &(maker, breaker, turn) in &positions {
                let pos = prover.game().position(maker, breaker, turn);
                let proof = prover.prove(&pos).unwrap();
                let expected = brute.maker_wins(maker.0, breaker.0, turn);
                assert_eq!(proof.maker_wins, expected, "{g} {options:?} {maker:?} {breaker:?} {turn}");
                outcomes[usize::from(expected)] += 1;
                // Every empty cell outside the zone handed to the loser: the same winner.
                let outside = g.full().without(maker | breaker | proof.zone);
                let (m, b) = if expected { (maker, breaker | outside) } else { (maker | outside, breaker) };
                assert_eq!(
                    brute.maker_wins(m.0, b.0, turn),
                    expected,
                    "zone {:?} of {g} {options:?} {maker:?} {breaker:?} {turn}",
                    proof.zone
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 6 * 7 * 400);
    // Both outcomes are well represented.
    assert!(outcomes[0] > checked / 10 && outcomes[1] > checked / 10, "{outcomes:?}");
}

/// Plays Maker's proven win to its end against every Breaker defence: at each Maker turn the
/// first free cell after which [`ZoneProver`] proves Maker still wins, every free cell for
/// Breaker, until Maker's stones hold a line (the brute force's own line test). Returns the
/// number of games played out.
fn replay_maker_win(prover: &mut ZoneProver, brute: &Brute, g: Geometry, maker: u64, breaker: u64) -> usize {
    if brute.has_line(maker) {
        return 1;
    }
    let free: Vec<u32> = (0..g.cells() as u32).filter(|&i| (maker | breaker) >> i & 1 == 0).collect();
    assert!(!free.is_empty(), "Maker's win ended without a line: {maker:#x} {breaker:#x}");
    let mut games = 0;
    for b in free {
        let breaker = breaker | 1 << b;
        let next = (0..g.cells() as u32)
            .filter(|&i| (maker | breaker) >> i & 1 == 0)
            .find(|&i| {
                let pos = prover.game().position(Bitboard(maker | 1 << i), Bitboard(breaker), false);
                prover.prove(&pos).unwrap().maker_wins
            })
            .unwrap_or_else(|| panic!("Maker lost its win after Breaker's {b}: {maker:#x} {breaker:#x}"));
        games += replay_maker_win(prover, brute, g, maker | 1 << next, breaker);
    }
    games
}

/// Every Maker win the prover finds on random positions (Maker to move, up to 10 free cells)
/// holds against every Breaker defence when Maker plays on by the prover's own proofs.
#[test]
fn maker_wins_hold_against_every_defence() {
    let mut found = 0;
    for (rows, cols, k, seed) in [(4, 4, 3, 11), (4, 5, 4, 12), (5, 5, 4, 13)] {
        let g = Geometry::new(rows, cols, k).unwrap();
        let brute = Brute::new(rows, cols, k);
        let mut prover = ZoneProver::new(g, 1 << 18);
        for (maker, breaker, _) in random_positions(g, 150, 10, seed) {
            if brute.has_line(maker.0) {
                continue;
            }
            let pos = prover.game().position(maker, breaker, true);
            if !prover.prove(&pos).unwrap().maker_wins {
                continue;
            }
            let first = g
                .full()
                .without(maker | breaker)
                .iter()
                .find(|&i| {
                    let child = prover.game().position(maker | Bitboard::single(i), breaker, false);
                    prover.prove(&child).unwrap().maker_wins
                })
                .expect("a winning Maker move");
            let games = replay_maker_win(&mut prover, &brute, g, maker.0 | 1 << first, breaker.0);
            assert!(games >= 1);
            found += 1;
        }
    }
    assert!(found >= 60, "{found} Maker wins played out");
}

/// A table of proofs read back by a fresh prover answers at once; damaged, cut-short or forged
/// bytes (an entry no proof has, under a recomputed checksum) and a table of another board are
/// refused, and nothing of them is read.
#[test]
fn proof_tables_read_back_and_damaged_ones_are_refused() {
    let g = Geometry::new(5, 5, 4).unwrap();
    let mut prover = ZoneProver::new(g, 1 << 16);
    let root = prover.game().position(Bitboard::EMPTY, Bitboard::EMPTY, true);
    assert!(prover.prove(&root).unwrap().maker_wins);
    let bytes = prover.table_bytes();
    let mut fresh = ZoneProver::new(g, 1 << 16);
    assert_eq!(fresh.load_table(&bytes), Ok(prover.table_len()));
    assert_eq!(fresh.known(&root), prover.known(&root));
    assert!(fresh.known(&root).is_some());
    assert!(fresh.prove(&root).unwrap().maker_wins);
    assert!(fresh.nodes() <= 2, "{} nodes from the table", fresh.nodes());
    let refused = |bytes: &[u8]| {
        let mut p = ZoneProver::new(g, 1 << 16);
        let r = p.load_table(bytes);
        assert_eq!(p.table_len(), 0, "nothing read");
        r
    };
    let mut rng = SmallRng::seed_from_u64(78);
    for _ in 0..300 {
        let mut damaged = bytes.clone();
        let i = rng.gen_range(0..damaged.len());
        damaged[i] ^= 1 << rng.gen_range(0..8);
        assert!(refused(&damaged).is_err(), "byte {i}");
    }
    for cut in [0, 10, 20, 30, bytes.len() - 1] {
        assert!(refused(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    let mut longer = bytes.clone();
    longer.insert(40, 0);
    assert!(refused(&longer).is_err());
    // Forged: an entry's winner byte 2, or a zone cell off the board, sealed again.
    let reseal = |mut b: Vec<u8>| {
        let n = b.len() - 4;
        let crc = crc32fast::hash(&b[..n]).to_le_bytes();
        b[n..].copy_from_slice(&crc);
        b
    };
    let mut forged = bytes.clone();
    forged[27 + 16] = 2;
    assert_eq!(refused(&reseal(forged)), Err(ProofTableError::Damaged("an entry")));
    let mut forged = bytes.clone();
    forged[27 + 24] |= 0x80;
    assert_eq!(refused(&reseal(forged)), Err(ProofTableError::Damaged("an entry")));
    let mut other = ZoneProver::new(Geometry::new(4, 5, 4).unwrap(), 1 << 16);
    assert_eq!(
        other.load_table(&bytes),
        Err(ProofTableError::OtherBoard { expected: "4x5 k=4".into(), found: "5x5 k=4".into() })
    );
}

#[test]
fn zone_prover_proves_the_known_empty_boards() {
    // Maker completes 3 on 3 x 3, not 4 on 4 x 4 nor 5 on 6 x 6 (so 6,6,5 is a draw).
    for (rows, cols, k, maker_wins) in
        [(3, 3, 3, true), (4, 4, 4, false), (5, 5, 4, true), (6, 6, 5, false), (4, 7, 4, false)]
    {
        let g = Geometry::new(rows, cols, k).unwrap();
        let mut prover = ZoneProver::new(g, 1 << 20);
        let root = prover.game().position(Bitboard::EMPTY, Bitboard::EMPTY, true);
        assert_eq!(prover.prove(&root).unwrap().maker_wins, maker_wins, "{g}");
        // A table of 64 positions, made room in again and again: the same results.
        let mut small = ZoneProver::new(g, 64);
        assert_eq!(small.prove(&root).unwrap().maker_wins, maker_wins, "{g}, a table of 64");
        assert!(small.table_len() <= 64);
    }
}

#[test]
fn broken_pairings_are_not_believed() {
    let g = Geometry::new(5, 5, 5).unwrap();
    let mb = MakerBreaker::new(g);
    let root = mb.position(Bitboard::EMPTY, Bitboard::EMPTY, true);
    let pairing = mb.pairing(&root, 100_000).expect("5 x 5 with k = 5 has a pairing strategy");
    assert!(verify_pairing(&mb, &root, &pairing));
    // One pair dropped: some line is left without a pair.
    assert!(!verify_pairing(&mb, &root, &pairing[1..]));
    // Two pairs sharing a cell, a pair of one cell, a pair on a taken cell.
    let (a, b) = pairing[0];
    let mut shared = pairing.clone();
    shared.push((a, pairing[1].0));
    assert!(!verify_pairing(&mb, &root, &shared));
    let mut single = pairing.clone();
    single[0] = (a, a);
    assert!(!verify_pairing(&mb, &root, &single));
    let taken = mb.position(Bitboard::EMPTY, b.bit(), true);
    assert!(!verify_pairing(&mb, &taken, &pairing));
}
