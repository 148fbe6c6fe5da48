//! Every solver of the crate against an independent one: the retrograde table against a
//! memoised solver written here from the rules (its own line numbering arithmetic, no
//! strings-and-coins) and against plain minimax; the engine, with every pruning rule and with
//! each rule alone, against the table; the engine against the memoised solver on random and
//! "hard" positions of 4x4, 4x5 and 5x5 with up to 18 lines left; the values of simple loony
//! endgames (`strings_and_coins::Board::loony_value`) against the plain search on random ones
//! of 3x3, 3x4 and 4x4; the known values of the empty boards; one-thread solvers on the table
//! their board's size picks (`SHARED_TT_MIN_LINES`) against both tables.

use std::collections::HashMap;
use std::sync::OnceLock;

use dots_and_boxes::{minimax, Geometry, Judge, Position, Pruning, RetrogradeTable, Solver};
use rand::{rngs::SmallRng, Rng, SeedableRng};
use search_core::SearchOptions;

/// The independent solver: the value of a drawn set for the side to move, memoised over the
/// sets reached, on `rows` x `cols` boxes with OpenSpiel's numbering.
struct Memo {
    rows: usize,
    cols: usize,
    /// Each box's four line indices.
    boxes: Vec<[usize; 4]>,
    /// Each line's boxes (one or two), as indices into `boxes`.
    sides: Vec<Vec<usize>>,
    memo: HashMap<u64, i8>,
}

impl Memo {
    fn new(rows: usize, cols: usize) -> Self {
        let h = |r: usize, c: usize| r * cols + c;
        let v = |r: usize, c: usize| (rows + 1) * cols + r * (cols + 1) + c;
        let boxes: Vec<[usize; 4]> = (0..rows * cols)
            .map(|b| {
                let (r, c) = (b / cols, b % cols);
                [h(r, c), h(r + 1, c), v(r, c), v(r, c + 1)]
            })
            .collect();
        let lines = (rows + 1) * cols + rows * (cols + 1);
        let sides =
            (0..lines).map(|l| (0..rows * cols).filter(|&b| boxes[b].contains(&l)).collect()).collect();
        Memo { rows, cols, boxes, sides, memo: HashMap::new() }
    }

    /// The boxes of line `l` with all four sides in `drawn`.
    fn completed(&self, drawn: u64, l: usize) -> i8 {
        self.sides[l].iter().filter(|&&b| self.boxes[b].iter().all(|&x| drawn >> x & 1 == 1)).count() as i8
    }

    fn lines(&self) -> usize {
        (self.rows + 1) * self.cols + self.rows * (self.cols + 1)
    }

    fn value(&mut self, drawn: u64) -> i8 {
        if let Some(&v) = self.memo.get(&drawn) {
            return v;
        }
        let n = self.lines();
        let mut best = None::<i8>;
        for l in (0..n).filter(|&l| drawn >> l & 1 == 0) {
            let next = drawn | 1 << l;
            let completed = self.completed(next, l);
            let child = self.value(next);
            let v = if completed > 0 { completed + child } else { -child };
            best = Some(best.map_or(v, |b| b.max(v)));
        }
        let v = best.unwrap_or(0);
        self.memo.insert(drawn, v);
        v
    }
}

fn table_3x3() -> &'static RetrogradeTable {
    static TABLE: OnceLock<RetrogradeTable> = OnceLock::new();
    TABLE.get_or_init(|| RetrogradeTable::build(&Geometry::new(3, 3).unwrap()).unwrap())
}

/// A random line set on `lines` lines with `k` of them drawn.
fn random_set(rng: &mut SmallRng, lines: usize, k: usize) -> u64 {
    let mut set = 0u64;
    while (set.count_ones() as usize) < k {
        set |= 1 << rng.gen_range(0..lines);
    }
    set
}

#[test]
fn the_table_equals_the_memoised_solver_on_every_position_up_to_2x2() {
    for (r, c) in [(1, 1), (1, 2), (2, 1), (1, 3), (3, 1), (2, 2)] {
        let g = Geometry::new(r, c).unwrap();
        let table = RetrogradeTable::build(&g).unwrap();
        let mut memo = Memo::new(r, c);
        for drawn in 0..1u64 << g.line_count() {
            assert_eq!(table.value(drawn), i64::from(memo.value(drawn)), "{r}x{c} drawn {drawn:#b}");
        }
    }
}

#[test]
fn the_table_equals_plain_minimax_on_small_positions() {
    // Every position of 1x1 and 1x2; on 2x2 every position with at most 7 lines left.
    for (r, c, most_left) in [(1, 1, 4), (1, 2, 7), (2, 2, 7)] {
        let g = Geometry::new(r, c).unwrap();
        let table = RetrogradeTable::build(&g).unwrap();
        let n = g.line_count();
        for drawn in (0..1u64 << n).filter(|d| n - d.count_ones() as usize <= most_left) {
            let pos = Position::from_drawn(&g, drawn).unwrap();
            assert_eq!(minimax(&g, &pos), table.value(drawn), "{r}x{c} drawn {drawn:#b}");
        }
    }
}

#[test]
fn the_3x3_table_equals_the_memoised_solver_on_random_positions() {
    let table = table_3x3();
    let mut rng = SmallRng::seed_from_u64(21);
    for _ in 0..300 {
        // Fresh memo per position: the sets reached from a random one are few.
        let mut memo = Memo::new(3, 3);
        let k = rng.gen_range(9..=24);
        let drawn = random_set(&mut rng, 24, k);
        assert_eq!(table.value(drawn), i64::from(memo.value(drawn)), "drawn {drawn:#x}");
    }
}

/// The engine with `rules` on `g`, with a fresh TT.
fn engine(g: &Geometry, rules: Pruning) -> Solver {
    Solver::with_options(g.clone(), rules, SearchOptions { tt_bits: 18, ..SearchOptions::DEFAULT })
}

/// A move rule against the search without it on one board: the engine with every rule, the
/// engine with every rule but this one (the reference) and the rule alone with the forced
/// captures (only where at most 18 lines are left: it is slow above).
struct RuleCheck {
    with_it: Solver,
    reference: Solver,
    alone: Solver,
    lines: usize,
}

impl RuleCheck {
    /// `without`: every rule but the one checked; `alone`: the rule with the forced captures.
    fn new(g: &Geometry, without: Pruning, alone: Pruning) -> Self {
        RuleCheck {
            with_it: engine(g, Pruning::ALL),
            reference: engine(g, without),
            alone: engine(g, alone),
            lines: g.line_count(),
        }
    }

    /// Values `drawn` by the three engines, asserts that they agree and returns the value.
    fn check(&mut self, g: &Geometry, drawn: u64) -> i64 {
        let pos = Position::from_drawn(g, drawn).unwrap();
        let want = self.reference.value(&pos);
        let label = format!("{}x{} drawn {drawn:#x}", g.rows(), g.cols());
        assert_eq!(self.with_it.value(&pos), want, "{label}");
        if self.lines - drawn.count_ones() as usize <= 18 {
            assert_eq!(self.alone.value(&pos), want, "{label}");
        }
        want
    }
}

/// `solver` against the 3x3 table on the empty board and `count - 1` random positions with at
/// most `max_drawn` lines drawn (random generator seeded by `seed`).
fn agrees_with_the_3x3_table(solver: &mut Solver, seed: u64, count: usize, max_drawn: usize) {
    let g = Geometry::new(3, 3).unwrap();
    let table = table_3x3();
    let mut rng = SmallRng::seed_from_u64(seed);
    for i in 0..count {
        let k = if i == 0 { 0 } else { rng.gen_range(0..=max_drawn) };
        let drawn = random_set(&mut rng, 24, k);
        let pos = Position::from_drawn(&g, drawn).unwrap();
        assert_eq!(solver.value(&pos), table.value(drawn), "drawn {drawn:#x}");
    }
}

#[test]
fn the_engine_equals_the_table_on_random_3x3_positions() {
    let g = Geometry::new(3, 3).unwrap();
    agrees_with_the_3x3_table(&mut engine(&g, Pruning::ALL), 2012, 3000, 24);
}

/// Two threads share a `search_core::SharedTable`, whose `u128` buckets hold three entries in
/// a cache line (7-bit values, work by bit length): the same values as the table, with a table
/// small enough (2^10 entries) that every bucket is replaced again and again.
#[test]
fn the_engine_on_two_threads_equals_the_table_on_random_3x3_positions() {
    let g = Geometry::new(3, 3).unwrap();
    let options = SearchOptions { tt_bits: 10, threads: 2, ..dots_and_boxes::search_options(10, 2) };
    agrees_with_the_3x3_table(&mut Solver::with_options(g, Pruning::ALL, options), 2026, 400, 16);
}

/// Two threads with a table of 2^18 entries: large enough for its narrow part (3x3 keys below
/// 2^59, 114,688 lines of seven), which then holds the keys of at most five components; the
/// same values as the table.
#[test]
fn the_engine_on_two_threads_with_narrow_keys_equals_the_table_on_random_3x3_positions() {
    let g = Geometry::new(3, 3).unwrap();
    assert_eq!(search_core::Game::narrow_key_bits(&dots_and_boxes::DotsAndBoxes::new(g.clone())), 59);
    assert!(search_core::SharedTable::<u128, u8>::with_bits_narrow(18, 59).narrow_entries() > 0);
    let options = SearchOptions { tt_bits: 18, threads: 2, ..dots_and_boxes::search_options(18, 2) };
    agrees_with_the_3x3_table(&mut Solver::with_options(g, Pruning::ALL, options), 2027, 400, 16);
}

#[test]
fn every_pruning_rule_alone_equals_the_unpruned_search() {
    let g = Geometry::new(3, 3).unwrap();
    let table = table_3x3();
    let alone = [
        Pruning { capture: true, ..Pruning::NONE },
        Pruning { capture_first: true, ..Pruning::NONE },
        Pruning { capture_first: true, all_but_two: true, ..Pruning::NONE },
        Pruning { fold_forced: true, capture: true, ..Pruning::NONE },
        Pruning { graph_keys: true, ..Pruning::NONE },
        Pruning { twins: true, ..Pruning::NONE },
        Pruning { loony_values: true, ..Pruning::NONE },
        Pruning { simple_openings: true, ..Pruning::NONE },
        Pruning { chain_ends: true, ..Pruning::NONE },
        Pruning { loony_offers: true, ..Pruning::NONE },
        Pruning { twin_moves: true, ..Pruning::NONE },
        Pruning::ALL,
    ];
    let mut unpruned = engine(&g, Pruning::NONE);
    let mut solvers: Vec<Solver> = alone.iter().map(|&r| engine(&g, r)).collect();
    let mut rng = SmallRng::seed_from_u64(2000);
    for _ in 0..1500 {
        // Positions with at most 16 lines left keep the unpruned search quick.
        let k = rng.gen_range(8..=24);
        let drawn = random_set(&mut rng, 24, k);
        let pos = Position::from_drawn(&g, drawn).unwrap();
        let expected = unpruned.value(&pos);
        assert_eq!(expected, table.value(drawn));
        for (rules, solver) in alone.iter().zip(solvers.iter_mut()) {
            assert_eq!(solver.value(&pos), expected, "{rules:?} drawn {drawn:#x}");
        }
    }
}

#[test]
fn known_values_of_the_empty_boards() {
    // D. Wilson's values, first player's net boxes.
    for (r, c, value) in [(1, 1, -1), (1, 2, 0), (2, 1, 0), (2, 2, 2), (2, 3, -2), (3, 2, -2), (3, 3, -3)] {
        let g = Geometry::new(r, c).unwrap();
        let start = Position::start();
        assert_eq!(Judge::new(g.clone(), Some(18)).value(&start), value, "judge {r}x{c}");
        assert_eq!(engine(&g, Pruning::ALL).value(&start), value, "engine {r}x{c}");
        assert_eq!(RetrogradeTable::build(&g).unwrap().value(0), value, "table {r}x{c}");
    }
}

#[test]
fn values_are_invariant_under_the_symmetries() {
    let g = Geometry::new(3, 3).unwrap();
    let table = table_3x3();
    let mut rng = SmallRng::seed_from_u64(8);
    for _ in 0..2000 {
        let k = rng.gen_range(0..=24);
        let drawn = random_set(&mut rng, 24, k);
        for perm in g.symmetries() {
            let image = (0..24).filter(|&i| drawn >> i & 1 == 1).fold(0u64, |m, i| m | 1 << perm[i]);
            assert_eq!(table.value(image), table.value(drawn));
        }
    }
}

#[test]
fn the_engine_equals_the_table_on_other_small_boards_with_analysis() {
    for (r, c) in [(1, 4), (2, 3), (3, 2), (1, 5)] {
        let g = Geometry::new(r, c).unwrap();
        let table = RetrogradeTable::build(&g).unwrap();
        let mut solver = engine(&g, Pruning::ALL);
        let mut rng = SmallRng::seed_from_u64(5);
        for _ in 0..300 {
            let k = rng.gen_range(0..=g.line_count());
            let drawn = random_set(&mut rng, g.line_count(), k);
            let pos = Position::from_drawn(&g, drawn).unwrap();
            assert_eq!(solver.value(&pos), table.value(drawn));
            if !pos.is_over(&g) && k > g.line_count() / 2 {
                // Every legal move valued, from A's side (A to move, nothing owned).
                let analysis = solver.analyze(&pos);
                assert_eq!(analysis.value, table.value(drawn));
                assert_eq!(analysis.moves.len(), g.line_count() - k);
                for m in &analysis.moves {
                    let (next, gain) = pos.play(&g, usize::from(m.mv));
                    let child = table.value(next.drawn());
                    let expected = if gain > 0 { i64::from(gain) + child } else { -child };
                    assert_eq!(m.value, expected);
                }
            }
        }
    }
}

/// A "hard" position of `memo`'s board: lines drawn at random among those that give no box its
/// third side, until none is left (the end of the safe phase, where the search is hardest).
fn hard_set(rng: &mut SmallRng, memo: &Memo) -> u64 {
    safe_prefix(rng, memo, usize::MAX)
}

#[test]
fn the_engine_equals_the_memoised_solver_on_large_boards() {
    const MAX_LEFT: usize = 18;
    let mut hard_seen = 0;
    for (r, c) in [(4, 4), (4, 5), (5, 5)] {
        let g = Geometry::new(r, c).unwrap();
        let mut solver = engine(&g, Pruning::ALL);
        let mut rng = SmallRng::seed_from_u64(45);
        let n = g.line_count();
        for i in 0..12 {
            let mut memo = Memo::new(r, c);
            let drawn = if i % 2 == 0 {
                let left = rng.gen_range(8..=MAX_LEFT - 2);
                random_set(&mut rng, n, n - left)
            } else {
                // A hard position, with random lines added until at most MAX_LEFT are left.
                let mut drawn = hard_set(&mut rng, &memo);
                hard_seen += usize::from(n - drawn.count_ones() as usize <= MAX_LEFT);
                while n - drawn.count_ones() as usize > MAX_LEFT {
                    drawn |= 1 << rng.gen_range(0..n);
                }
                drawn
            };
            let pos = Position::from_drawn(&g, drawn).unwrap();
            assert_eq!(solver.value(&pos), i64::from(memo.value(drawn)), "{r}x{c} drawn {drawn:#x}");
        }
    }
    // Some hard positions were searched as they came, with nothing added.
    assert!(hard_seen > 0, "no hard position within {MAX_LEFT} lines left");
}

/// Lines drawn at random among those that give no box its third side, `steps` of them or
/// until none is left: positions with nothing capturable, chains forming beside the boxes
/// still untouched.
fn safe_prefix(rng: &mut SmallRng, memo: &Memo, steps: usize) -> u64 {
    let mut drawn = 0u64;
    for _ in 0..steps {
        let safe: Vec<usize> = (0..memo.lines())
            .filter(|&l| drawn >> l & 1 == 0)
            .filter(|&l| {
                memo.sides[l]
                    .iter()
                    .all(|&b| memo.boxes[b].iter().filter(|&&x| drawn >> x & 1 == 1).count() < 2)
            })
            .collect();
        if safe.is_empty() {
            break;
        }
        drawn |= 1 << safe[rng.gen_range(0..safe.len())];
    }
    drawn
}

/// [`Pruning::simple_openings`] where it drops moves (independent chains and loops beside the
/// rest, nothing capturable): alone and with every rule, against the table on 3x3, and against
/// the engine without it (every other rule) on 3x4 and 4x4, and the memoised solver on 4x4
/// with at most 18 lines left.
#[test]
fn simple_openings_keep_the_values_where_they_drop_moves() {
    let g = Geometry::new(3, 3).unwrap();
    let table = table_3x3();
    let memo = Memo::new(3, 3);
    let mut alone = engine(&g, Pruning { simple_openings: true, ..Pruning::NONE });
    let mut all = engine(&g, Pruning::ALL);
    let mut rng = SmallRng::seed_from_u64(2121);
    let mut dropping = 0;
    while dropping < 2000 {
        let steps = rng.gen_range(6..=24);
        let drawn = safe_prefix(&mut rng, &memo, steps);
        if g.board().simple_openings(drawn) == 0 {
            continue;
        }
        dropping += 1;
        let pos = Position::from_drawn(&g, drawn).unwrap();
        assert_eq!(alone.value(&pos), table.value(drawn), "drawn {drawn:#x}");
        assert_eq!(all.value(&pos), table.value(drawn), "drawn {drawn:#x}");
    }
    let without = Pruning { simple_openings: false, ..Pruning::ALL };
    let mut memo_checked = 0;
    for (r, c, cases) in [(3, 4, 400), (4, 4, 150)] {
        let g = Geometry::new(r, c).unwrap();
        let memo = Memo::new(r, c);
        let n = g.line_count();
        let alone = Pruning { simple_openings: true, capture: true, fold_forced: true, ..Pruning::NONE };
        let mut check = RuleCheck::new(&g, without, alone);
        let mut done = 0;
        while done < cases {
            let drawn = safe_prefix(&mut rng, &memo, n);
            let left = n - drawn.count_ones() as usize;
            if g.board().simple_openings(drawn) == 0 || left > 22 {
                continue;
            }
            done += 1;
            let want = check.check(&g, drawn);
            if r == 4 && left <= 18 && memo_checked < 8 {
                memo_checked += 1;
                assert_eq!(i64::from(Memo::new(r, c).value(drawn)), want, "{r}x{c} drawn {drawn:#x}");
            }
        }
    }
    assert!(memo_checked >= 3, "only {memo_checked} positions checked against the memoised solver");
}

/// Whether every open box of `drawn` has exactly two undrawn sides (at least one box open): a
/// simple loony endgame of chains and loops, read from `memo`'s own tables.
fn simple_loony(memo: &Memo, drawn: u64) -> bool {
    let open: Vec<usize> = memo
        .boxes
        .iter()
        .map(|b| b.iter().filter(|&&x| drawn >> x & 1 == 0).count())
        .filter(|&k| k > 0)
        .collect();
    !open.is_empty() && open.iter().all(|&k| k == 2)
}

/// A simple loony endgame built on `memo`'s board: every line drawn, then components carved
/// out of the untouched boxes by undrawing lines along them: chains by random walks from a rim
/// line of a rim box through unused neighbours until a rim line out, loops as the rings of
/// random rectangles of at least 2x2 boxes. `None` if nothing was carved.
fn carved_endgame(rng: &mut SmallRng, memo: &Memo) -> Option<u64> {
    let (rows, cols) = (memo.rows, memo.cols);
    let mut drawn = (1u64 << memo.lines()) - 1;
    let mut used = vec![false; rows * cols];
    // The line between boxes a and b (neighbours), or a's rim lines.
    let shared = |a: usize, b: usize| memo.boxes[a].iter().copied().find(|l| memo.boxes[b].contains(l));
    let rim = |b: usize| -> Vec<usize> {
        memo.boxes[b].iter().copied().filter(|&l| memo.sides[l].len() == 1).collect()
    };
    let neighbours = |b: usize| -> Vec<usize> {
        memo.boxes[b]
            .iter()
            .filter(|&&l| memo.sides[l].len() == 2)
            .map(|&l| memo.sides[l][0] + memo.sides[l][1] - b)
            .collect()
    };
    for _ in 0..rng.gen_range(1..=8) {
        if rng.gen_bool(0.25) && rows >= 2 && cols >= 2 {
            // A loop: the ring of boxes around a rectangle of h x w boxes.
            let (h, w) = (rng.gen_range(2..=rows), rng.gen_range(2..=cols));
            let (r0, c0) = (rng.gen_range(0..=rows - h), rng.gen_range(0..=cols - w));
            let mut ring = Vec::new();
            for c in c0..c0 + w {
                ring.push(r0 * cols + c);
            }
            for r in r0 + 1..r0 + h {
                ring.push(r * cols + c0 + w - 1);
            }
            for c in (c0..c0 + w - 1).rev() {
                ring.push((r0 + h - 1) * cols + c);
            }
            for r in (r0 + 1..r0 + h - 1).rev() {
                ring.push(r * cols + c0);
            }
            if ring.iter().any(|&b| used[b]) {
                continue;
            }
            for (i, &b) in ring.iter().enumerate() {
                used[b] = true;
                drawn &= !(1 << shared(b, ring[(i + 1) % ring.len()]).unwrap());
            }
        } else {
            // A chain: in by a rim line, a walk, out by another rim line.
            let starts: Vec<usize> = (0..rows * cols).filter(|&b| !used[b] && !rim(b).is_empty()).collect();
            let Some(&start) = starts.get(rng.gen_range(0..starts.len().max(1))) else { continue };
            let entry = rim(start)[rng.gen_range(0..rim(start).len())];
            let mut path = vec![start];
            let mut lines = vec![entry];
            let mut taken = used.clone();
            taken[start] = true;
            let exit = loop {
                let b = *path.last().unwrap();
                let outs: Vec<usize> = rim(b).into_iter().filter(|l| !lines.contains(l)).collect();
                let next: Vec<usize> = neighbours(b).into_iter().filter(|&n| !taken[n]).collect();
                if !outs.is_empty() && (next.is_empty() || rng.gen_bool(0.3)) {
                    break Some(outs[rng.gen_range(0..outs.len())]);
                }
                if next.is_empty() {
                    break None;
                }
                let n = next[rng.gen_range(0..next.len())];
                lines.push(shared(b, n).unwrap());
                taken[n] = true;
                path.push(n);
            };
            if let Some(exit) = exit {
                lines.push(exit);
                used = taken;
                for l in lines {
                    drawn &= !(1 << l);
                }
            }
        }
    }
    (drawn != (1u64 << memo.lines()) - 1).then_some(drawn)
}

/// A simple loony endgame reached in play on `memo`'s board: random safe lines until none is
/// left, then random lines until every open box has two undrawn sides. `None` if the game ends
/// first.
fn played_endgame(rng: &mut SmallRng, memo: &Memo) -> Option<u64> {
    let mut drawn = hard_set(rng, memo);
    let n = memo.lines();
    while drawn.count_ones() < n as u32 {
        if simple_loony(memo, drawn) {
            return Some(drawn);
        }
        let free: Vec<usize> = (0..n).filter(|&l| drawn >> l & 1 == 0).collect();
        drawn |= 1 << free[rng.gen_range(0..free.len())];
    }
    None
}

#[test]
fn loony_values_equal_the_plain_search_on_random_endgames() {
    let mut valued = 0;
    let mut components = std::collections::BTreeMap::<usize, usize>::new();
    for (r, c, cases) in [(3, 3, 1500), (3, 4, 1000), (4, 4, 500)] {
        let g = Geometry::new(r, c).unwrap();
        let memo = Memo::new(r, c);
        let mut plain = engine(&g, Pruning::NONE);
        let mut pruned = engine(&g, Pruning::ALL);
        let mut rng = SmallRng::seed_from_u64(2014);
        let mut done = 0;
        while done < cases {
            let drawn =
                if done % 2 == 0 { carved_endgame(&mut rng, &memo) } else { played_endgame(&mut rng, &memo) };
            let Some(drawn) = drawn else { continue };
            assert!(simple_loony(&memo, drawn), "{r}x{c} drawn {drawn:#x}");
            let pos = Position::from_drawn(&g, drawn).unwrap();
            let want = plain.value(&pos);
            let v = g
                .board()
                .loony_value(drawn)
                .unwrap_or_else(|| panic!("{r}x{c} drawn {drawn:#x}: not valued"));
            assert_eq!(i64::from(v), want, "{r}x{c} drawn {drawn:#x}");
            assert_eq!(pruned.value(&pos), want, "{r}x{c} drawn {drawn:#x}");
            let mut parts = 0;
            let mut left: Vec<usize> =
                (0..r * c).filter(|&b| memo.boxes[b].iter().any(|&x| drawn >> x & 1 == 0)).collect();
            while let Some(b) = left.pop() {
                // Count components: flood through undrawn shared lines.
                parts += 1;
                let mut todo = vec![b];
                while let Some(x) = todo.pop() {
                    for &l in &memo.boxes[x] {
                        if drawn >> l & 1 == 0 {
                            for &y in &memo.sides[l] {
                                if let Some(i) = left.iter().position(|&z| z == y) {
                                    left.swap_remove(i);
                                    todo.push(y);
                                }
                            }
                        }
                    }
                }
            }
            *components.entry(parts).or_default() += 1;
            valued += 1;
            done += 1;
        }
    }
    // Endgames of one to four components or more were all met.
    assert!((1..=4).all(|k| components.get(&k).is_some_and(|&n| n >= 20)), "components {components:?}");
    assert_eq!(valued, 3000);
}

/// The independent solver for positions with many lines left: the value of every subset of the
/// undrawn lines of a base position, in a dense table indexed by the subset (bit `j`: the
/// `j`-th undrawn line drawn), filled from the full set down (a drawn set's successors have
/// larger indices). Built on `memo`'s tables (its own numbering), nothing from the crates.
/// Returns the value of the base position; `table` is reused (2^left bytes).
fn dense_value(memo: &Memo, base: u64, table: &mut Vec<i8>) -> i8 {
    let undrawn: Vec<usize> = (0..memo.lines()).filter(|&l| base >> l & 1 == 0).collect();
    let left = undrawn.len();
    assert!(left <= 26, "{left} lines left: too many for a dense table");
    // For each undrawn line, the one or two boxes it borders as masks of their undrawn lines,
    // in subset bits (0: no second box): drawing line j in subset m completes a box with mask b
    // when m | 1 << j covers b.
    let local = |l: usize| 1u32 << undrawn.iter().position(|&u| u == l).unwrap();
    let boxes_of: Vec<[u32; 2]> = undrawn
        .iter()
        .map(|&l| {
            let mut masks = [0; 2];
            for (k, &b) in memo.sides[l].iter().enumerate() {
                masks[k] =
                    memo.boxes[b].iter().filter(|&&x| base >> x & 1 == 0).fold(0, |m, &x| m | local(x));
            }
            masks
        })
        .collect();
    table.clear();
    table.resize(1 << left, 0);
    let full = (1u32 << left) - 1;
    for m in (0..full).rev() {
        let mut best = i8::MIN;
        let mut free = full & !m;
        while free != 0 {
            let j = free.trailing_zeros() as usize;
            free &= free - 1;
            let next = m | 1 << j;
            let [b0, b1] = boxes_of[j];
            let won = i8::from(next & b0 == b0) + i8::from(b1 != 0 && next & b1 == b1);
            let child = table[next as usize];
            best = best.max(if won > 0 { won + child } else { -child });
        }
        table[m as usize] = best;
    }
    table[0]
}

/// How many positions per board [`the_engine_equals_the_dense_solver_with_24_lines_left`]
/// checks: `BOXES_DENSE_CASES` (default 2; the bigger sweep: `BOXES_DENSE_CASES=50 cargo test
/// --release -p dots-and-boxes --test solvers_agree dense`).
fn dense_cases() -> usize {
    std::env::var("BOXES_DENSE_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2)
}

#[test]
fn the_dense_solver_equals_the_memoised_solver() {
    // Positions of 3x3 and 4x4 with up to 14 lines left: the two independent solvers agree.
    let mut table = Vec::new();
    let mut rng = SmallRng::seed_from_u64(24);
    for (r, c) in [(3, 3), (4, 4)] {
        let mut memo = Memo::new(r, c);
        let n = memo.lines();
        for _ in 0..40 {
            let left = rng.gen_range(1..=14);
            let drawn = random_set(&mut rng, n, n - left);
            assert_eq!(dense_value(&memo, drawn, &mut table), memo.value(drawn), "{r}x{c} drawn {drawn:#x}");
        }
    }
}

#[test]
fn the_engine_equals_the_dense_solver_with_24_lines_left() {
    const LEFT: usize = 24;
    let cases = dense_cases();
    let mut table = Vec::new();
    let mut hard_seen = 0;
    for (r, c) in [(4, 4), (4, 5), (5, 5)] {
        let g = Geometry::new(r, c).unwrap();
        let memo = Memo::new(r, c);
        let mut solver = engine(&g, Pruning::ALL);
        let mut rng = SmallRng::seed_from_u64(2400 + (r * 10 + c) as u64);
        let n = g.line_count();
        for i in 0..cases {
            let drawn = if i % 2 == 0 {
                random_set(&mut rng, n, n - LEFT)
            } else {
                // A hard position, with random lines added until LEFT are left.
                let mut drawn = hard_set(&mut rng, &memo);
                hard_seen += usize::from(n - drawn.count_ones() as usize <= LEFT);
                while n - drawn.count_ones() as usize > LEFT {
                    drawn |= 1 << rng.gen_range(0..n);
                }
                drawn
            };
            let pos = Position::from_drawn(&g, drawn).unwrap();
            let want = dense_value(&memo, drawn, &mut table);
            assert_eq!(solver.value(&pos), i64::from(want), "{r}x{c} drawn {drawn:#x}");
        }
    }
    // 4x4 hard positions (about 20 lines left when the safe lines run out) were searched as
    // they came, with nothing added.
    assert!(hard_seen > 0, "no hard position within {LEFT} lines left");
}

/// The value of line `l` in the 3x3 position `pos` for its player to move, by the table: the
/// boxes it completes plus the value of the rest, or the negated value of the opponent's.
fn move_value(g: &Geometry, table: &RetrogradeTable, pos: &Position, l: usize) -> i64 {
    let (next, gain) = pos.play(g, l);
    let child = table.value(next.drawn());
    if gain > 0 {
        i64::from(gain) + child
    } else {
        -child
    }
}

/// The best of the lines in `kept` of the 3x3 position `pos`, by the table.
fn best_kept(g: &Geometry, table: &RetrogradeTable, pos: &Position, kept: u64) -> i64 {
    (0..24).filter(|&l| kept >> l & 1 == 1).map(|l| move_value(g, table, pos, l)).max().unwrap()
}

/// [`Pruning::chain_ends`] on every position of 3x3 where it drops moves (nothing capturable, a
/// chain of two coins or more with an end on a junction): the best of the moves it keeps,
/// valued by the table, is the position's value, so no dropped move is better.
#[test]
fn chain_ends_keep_the_best_move_on_every_3x3_position() {
    let g = Geometry::new(3, 3).unwrap();
    let table = table_3x3();
    let board = g.board();
    let rules = Pruning { chain_ends: true, ..Pruning::NONE };
    let mut dropping = 0u64;
    for drawn in 0..1u64 << 24 {
        if board.capturing(drawn) != 0 || board.chain_cuts(drawn) == 0 {
            continue;
        }
        dropping += 1;
        let kept = board.candidates(drawn, rules);
        assert_eq!(kept & board.chain_cuts(drawn), 0);
        let pos = Position::from_drawn(&g, drawn).unwrap();
        assert_eq!(best_kept(&g, table, &pos, kept), table.value(drawn), "drawn {drawn:#x}");
    }
    assert!(dropping > 100_000, "only {dropping} positions where the rule drops moves");
    eprintln!("chain ends drop moves in {dropping} positions of 3x3");
}

/// [`Pruning::loony_offers`] on every position of 3x3 with a loony offer: the table's value is
/// at least 0 and has the parity of the open boxes, so the bound the engine takes holds.
#[test]
fn loony_offers_are_worth_at_least_0_on_every_3x3_position() {
    let g = Geometry::new(3, 3).unwrap();
    let table = table_3x3();
    let board = g.board();
    let mut offers = 0u64;
    for drawn in 0..1u64 << 24 {
        if !board.loony_offer(drawn) {
            continue;
        }
        offers += 1;
        let (v, open) = (table.value(drawn), i64::from(board.open_coins(drawn).count_ones()));
        assert!(v >= 0 && (v - open) % 2 == 0, "drawn {drawn:#x}: value {v}, {open} open");
    }
    assert!(offers > 100_000, "only {offers} positions with a loony offer");
    eprintln!("{offers} positions of 3x3 with a loony offer");
}

/// [`Pruning::twin_moves`] on every position of 3x3 where it drops moves (both rim lines of a
/// corner box undrawn, something drawn): the best of the moves it keeps, valued by the table,
/// is the position's value, and the dropped twin is worth what the kept one is.
#[test]
fn twin_moves_keep_the_best_move_on_every_3x3_position() {
    let g = Geometry::new(3, 3).unwrap();
    let table = table_3x3();
    let board = g.board();
    let rules = Pruning { twin_moves: true, ..Pruning::NONE };
    let free = (1u64 << 24) - 1;
    let mut dropping = 0u64;
    for drawn in 1..1u64 << 24 {
        let kept = board.candidates(drawn, rules);
        let dropped = free & !drawn & !kept;
        if dropped == 0 {
            continue;
        }
        dropping += 1;
        let pos = Position::from_drawn(&g, drawn).unwrap();
        assert_eq!(best_kept(&g, table, &pos, kept), table.value(drawn), "drawn {drawn:#x}");
        for l in (0..24).filter(|&l| dropped >> l & 1 == 1) {
            let group = board.twin_groups().iter().find(|&&t| t >> l & 1 == 1).expect("a twin");
            let twin = (group & kept).trailing_zeros() as usize;
            let (dropped_value, kept_value) =
                (move_value(&g, table, &pos, l), move_value(&g, table, &pos, twin));
            assert_eq!(dropped_value, kept_value, "drawn {drawn:#x} line {l}");
        }
    }
    assert!(board.candidates(0, rules) == free, "the empty board keeps every move");
    assert!(dropping > 1_000_000, "only {dropping} positions where the rule drops moves");
}

/// [`Pruning::twin_moves`] against the engine without it (every other rule) on random positions
/// of 3x4 and 4x4 where it drops moves (at most 24 lines left), and alone with the forced
/// captures on those with at most 18 lines left.
#[test]
fn twin_moves_equal_the_search_without_them_on_3x4_and_4x4() {
    let without = Pruning { twin_moves: false, ..Pruning::ALL };
    let mut rng = SmallRng::seed_from_u64(2123);
    for (r, c) in [(3, 4), (4, 4)] {
        let g = Geometry::new(r, c).unwrap();
        let memo = Memo::new(r, c);
        let n = g.line_count();
        let free = (1u64 << n) - 1;
        let alone = Pruning { twin_moves: true, capture: true, fold_forced: true, ..Pruning::NONE };
        let mut check = RuleCheck::new(&g, without, alone);
        let mut done = 0;
        while done < 200 {
            let steps = rng.gen_range(n / 3..=n);
            let mut drawn = safe_prefix(&mut rng, &memo, steps);
            for _ in 0..rng.gen_range(0..4) {
                drawn |= 1 << rng.gen_range(0..n);
            }
            let left = n - drawn.count_ones() as usize;
            let dropped =
                free & !drawn & !g.board().candidates(drawn, Pruning { twin_moves: true, ..Pruning::NONE });
            if left > 24 || dropped == 0 {
                continue;
            }
            done += 1;
            check.check(&g, drawn);
        }
    }
}

/// [`Pruning::chain_ends`] against the engine without it (every other rule) on random positions
/// of 3x4 and 4x4 where it drops moves (safe lines drawn at random, then a few random lines,
/// until nothing is capturable and a chain with an end on a junction is there, at most 24
/// lines left), alone with the forced captures on those with at most 18 lines left, and
/// against the memoised solver on some of 4x4. `BOXES_CHAIN_CASES=N` runs N positions per
/// board (default 300).
#[test]
fn chain_ends_equal_the_search_without_them_on_3x4_and_4x4() {
    let cases: usize = std::env::var("BOXES_CHAIN_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(300);
    let without = Pruning { chain_ends: false, ..Pruning::ALL };
    let mut rng = SmallRng::seed_from_u64(2122);
    let mut memo_checked = 0;
    for (r, c) in [(3, 4), (4, 4)] {
        let g = Geometry::new(r, c).unwrap();
        let memo = Memo::new(r, c);
        let n = g.line_count();
        let alone = Pruning { chain_ends: true, capture: true, fold_forced: true, ..Pruning::NONE };
        let mut check = RuleCheck::new(&g, without, alone);
        let mut done = 0;
        while done < cases {
            let steps = rng.gen_range(n / 3..=n);
            let mut drawn = safe_prefix(&mut rng, &memo, steps);
            for _ in 0..rng.gen_range(0..4) {
                drawn |= 1 << rng.gen_range(0..n);
            }
            let left = n - drawn.count_ones() as usize;
            if left > 24 || g.board().capturing(drawn) != 0 || g.board().chain_cuts(drawn) == 0 {
                continue;
            }
            done += 1;
            check.check(&g, drawn);
        }
        // Deeper positions of 4x4 (random lines after the safe ones until at most 16 are
        // left) against the memoised solver.
        while r == 4 && memo_checked < 8 {
            let mut drawn = hard_set(&mut rng, &memo);
            while n - (drawn.count_ones() as usize) > 16 {
                drawn |= 1 << rng.gen_range(0..n);
            }
            if g.board().capturing(drawn) != 0 || g.board().chain_cuts(drawn) == 0 {
                continue;
            }
            memo_checked += 1;
            let want = i64::from(Memo::new(r, c).value(drawn));
            assert_eq!(check.check(&g, drawn), want, "{r}x{c} drawn {drawn:#x}");
        }
    }
    assert!(memo_checked >= 8, "only {memo_checked} positions checked against the memoised solver");
}

/// On one thread a board of at least `SHARED_TT_MIN_LINES` lines is searched with the table
/// that several threads share (its narrow part), a smaller board with the one-thread table:
/// the solver's nodes (one thread is deterministic) are those of the engine built with that
/// table, not the other's, on positions where the two tables' node counts differ; and all
/// three give the same value (20 and 26 lines left: beyond the memoised solver's reach).
#[test]
fn one_thread_solvers_take_the_shared_table_from_32_lines() {
    use dots_and_boxes::{search_options, DotsAndBoxes, SHARED_TT_MIN_LINES};
    use search_core::Engine;
    for (r, c, left) in [(3, 4, 20), (4, 4, 26)] {
        let g = Geometry::new(r, c).unwrap();
        let shared = g.line_count() >= SHARED_TT_MIN_LINES;
        let mut rng = SmallRng::seed_from_u64(32);
        let n = g.line_count();
        let mut told_apart = 0;
        for _ in 0..6 {
            // Safe lines drawn until `left` are left, nothing capturable: the middle game,
            // where the tables fill.
            let drawn = safe_prefix(&mut rng, &Memo::new(r, c), n - left);
            let pos = Position::from_drawn(&g, drawn).unwrap();
            // A small table, so that the two tables' replacement tells them apart.
            let options = search_options(10, 1);
            let mut solver = Solver::with_options(g.clone(), Pruning::ALL, options);
            let mut with_shared = Engine::with_shared_tt(DotsAndBoxes::new(g.clone()), options);
            let mut with_own = Engine::with_options(DotsAndBoxes::new(g.clone()), options);
            let v = solver.value(&pos);
            assert_eq!(v, with_shared.solve(&pos), "{r}x{c} drawn {drawn:#x}");
            assert_eq!(v, with_own.solve(&pos), "{r}x{c} drawn {drawn:#x}");
            let (shared_nodes, own_nodes) = (with_shared.stats().nodes, with_own.stats().nodes);
            let expected = if shared { shared_nodes } else { own_nodes };
            assert_eq!(solver.stats().nodes, expected, "{r}x{c} drawn {drawn:#x}");
            told_apart += usize::from(shared_nodes != own_nodes);
        }
        assert!(told_apart > 0, "{r}x{c}: the two tables took the same nodes on every position");
    }
}
