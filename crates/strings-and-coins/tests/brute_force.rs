//! The rules and graph keys against an independent brute force, on random strings-and-coins
//! boards and on small dots-and-boxes boards laid out here: a plain minimax over every move
//! (no rule, memoised on the drawn set) gives every position's value; a search that plays
//! only [`Board::candidates`], folds [`Board::folded_move`] into the move before and memoises
//! on [`Board::graph_key`] where there is one must give the same values, and positions with
//! one graph key have one value and isomorphic graphs, as do positions with one split key
//! ([`Board::split_graph`]) and the twin-normalised sets ([`Board::normalise_twins`]); the
//! values of simple loony endgames ([`Board::loony_value`]) are the brute-force values.

use std::collections::HashMap;

use rand::{rngs::SmallRng, seq::SliceRandom, Rng, SeedableRng};
use strings_and_coins::{Board, BoardError, Hang, Pruning, GRAPH_KEY_FLAG};

/// The value of the remaining play from the side to move, straight from the rules of the game:
/// every undrawn string is a move, a move completing coins scores them and moves again.
struct Brute {
    coins: Vec<u64>,
    all: u64,
    memo: HashMap<u64, i32>,
}

impl Brute {
    fn new(coins: &[u64], strings: usize) -> Self {
        Brute { coins: coins.to_vec(), all: (1u64 << strings) - 1, memo: HashMap::new() }
    }

    fn value(&mut self, drawn: u64) -> i32 {
        if drawn == self.all {
            return 0;
        }
        if let Some(&v) = self.memo.get(&drawn) {
            return v;
        }
        let mut best = i32::MIN;
        for s in 0..64 {
            let bit = 1u64 << s;
            if self.all & !drawn & bit == 0 {
                continue;
            }
            let next = drawn | bit;
            let won = self.coins.iter().filter(|&&c| c & bit != 0 && next & c == c).count() as i32;
            let child = self.value(next);
            best = best.max(if won > 0 { won + child } else { -child });
        }
        self.memo.insert(drawn, best);
        best
    }
}

/// The same values by a search that applies `rules` through the crate: only the candidates,
/// forced moves folded into the move before, memoised on the graph key where there is one.
struct Pruned<'a> {
    board: &'a Board,
    rules: Pruning,
    memo: HashMap<u64, i32>,
}

impl Pruned<'_> {
    fn value(&mut self, drawn: u64) -> i32 {
        if drawn == self.board.all_strings() {
            return 0;
        }
        let key = if self.rules.graph_keys { self.board.graph_key(drawn) } else { None }.unwrap_or(drawn);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let candidates = self.board.candidates(drawn, self.rules);
        assert_ne!(candidates, 0, "{drawn:#x}: no candidate");
        assert_eq!(candidates & drawn, 0, "{drawn:#x}: a drawn candidate");
        let mut best = i32::MIN;
        for s in (0..64).filter(|&s| candidates >> s & 1 == 1) {
            // From the mover's side: the coins banked, and whether the turn passed.
            let won = self.board.completed(drawn, s).count_ones() as i32;
            let mut next = drawn | 1 << s;
            let (mut gain, sign) = if won > 0 { (won, 1) } else { (0, -1) };
            if self.rules.fold_forced {
                while let Some(f) = self.board.folded_move(next, self.rules) {
                    let c = self.board.completed(next, f).count_ones() as i32;
                    assert!(c > 0, "{next:#x}: folded move {f} completes nothing");
                    gain += sign * c;
                    next |= 1 << f;
                }
            }
            best = best.max(gain + sign * self.value(next));
        }
        self.memo.insert(key, best);
        best
    }
}

/// A random board: up to `max_coins` coins and `strings` strings, each string tying one or two
/// random coins; `None` where the draw is not a board.
fn random_board(rng: &mut SmallRng, max_coins: usize, strings: usize) -> Option<(Vec<u64>, Board)> {
    let n = rng.gen_range(1..=max_coins);
    let mut coins = vec![0u64; n];
    for s in 0..strings {
        let a = rng.gen_range(0..n);
        coins[a] |= 1 << s;
        if n > 1 && rng.gen_bool(0.6) {
            let b = (a + rng.gen_range(1..n)) % n;
            coins[b] |= 1 << s;
        }
    }
    Board::new(&coins, strings).ok().map(|b| (coins, b))
}

/// Every rule on, none, graph keys alone, and the move rules alone and together (chain ends
/// alone and with the simple openings and forced captures), each with and without folding.
fn rule_sets() -> Vec<Pruning> {
    let mut sets = vec![Pruning::ALL, Pruning::NONE, Pruning { graph_keys: true, ..Pruning::NONE }];
    for fold in [false, true] {
        let base = Pruning { fold_forced: fold, ..Pruning::NONE };
        sets.push(Pruning { capture: true, ..base });
        sets.push(Pruning { capture_first: true, ..base });
        sets.push(Pruning { capture_first: true, all_but_two: true, ..base });
        sets.push(Pruning { capture: true, capture_first: true, all_but_two: true, ..base });
        sets.push(Pruning { chain_ends: true, ..base });
        sets.push(Pruning { chain_ends: true, simple_openings: true, capture: true, ..base });
    }
    sets
}

/// Every drawn set of `board` has the brute-force value under every rule set.
fn check_every_position(coins: &[u64], board: &Board) {
    let strings = board.strings();
    let mut brute = Brute::new(coins, strings);
    for rules in rule_sets() {
        let mut pruned = Pruned { board, rules, memo: HashMap::new() };
        for drawn in 0..1u64 << strings {
            assert_eq!(pruned.value(drawn), brute.value(drawn), "{coins:x?}: {drawn:#x} under {rules:?}");
        }
    }
    // Loony offers: the player to move is worth at least 0, of the parity of the open coins.
    for drawn in 0..1u64 << strings {
        if board.loony_offer(drawn) {
            let (v, open) = (brute.value(drawn), board.open_coins(drawn).count_ones() as i32);
            assert!(
                v >= 0 && (v - open) % 2 == 0,
                "{coins:x?}: {drawn:#x} offers a loony pair, value {v}, {open} open"
            );
        }
    }
    // The twin-strings key: the normalised set has the value of the set.
    for drawn in 0..1u64 << strings {
        let normal = board.normalise_twins(drawn);
        assert_eq!(normal.count_ones(), drawn.count_ones());
        assert_eq!(brute.value(normal), brute.value(drawn), "{coins:x?}: {drawn:#x} normalised {normal:#x}");
    }
    // The split key: drawn sets with the same junction part and the same code of simple
    // components have one value; with no junction the code is the graph key's.
    let mut by_split: HashMap<(u64, u64), (u64, i32)> = HashMap::new();
    for drawn in 0..1u64 << strings {
        let Some((junction, code)) = board.split_graph(drawn) else { continue };
        assert_eq!(junction & drawn, drawn, "{coins:x?}: {drawn:#x}");
        if junction == board.all_strings() {
            assert_eq!(board.graph_key(drawn), Some(GRAPH_KEY_FLAG | code), "{coins:x?}: {drawn:#x}");
        }
        let v = brute.value(drawn);
        let (first, w) = *by_split.entry((junction, code)).or_insert((drawn, v));
        assert_eq!(v, w, "{coins:x?}: {drawn:#x} and {first:#x} split alike, valued apart");
    }
}

#[test]
fn the_rules_keep_the_brute_force_value_on_random_boards() {
    let mut rng = SmallRng::seed_from_u64(17);
    let mut boards = 0;
    while boards < 150 {
        let strings = rng.gen_range(1..=11);
        let Some((coins, board)) = random_board(&mut rng, 6, strings) else { continue };
        check_every_position(&coins, &board);
        boards += 1;
    }
}

/// The lines of dots-and-boxes on `rows` x `cols` boxes: horizontal lines first, row by row
/// (`r * cols + c`, `r` in `0..=rows`), then vertical lines (`h + r * (cols + 1) + c`); box
/// `(r, c)` is coin `r * cols + c` with its top, bottom, left and right lines.
fn boxes(rows: usize, cols: usize) -> (Vec<u64>, usize) {
    let h = (rows + 1) * cols;
    let mut coins = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let top = r * cols + c;
            let left = h + r * (cols + 1) + c;
            coins.push(1 << top | 1 << (top + cols) | 1 << left | 1 << (left + 1));
        }
    }
    (coins, h + rows * (cols + 1))
}

#[test]
fn dots_and_boxes_boards_keep_the_brute_force_value() {
    // 1x2 by hand: tops 0 and 1, bottoms 2 and 3, sides 4, 5 and 6.
    assert_eq!(boxes(1, 2), (vec![0b011_0101, 0b110_1010], 7));
    for (rows, cols) in [(1, 1), (1, 2), (1, 3), (2, 2), (1, 4)] {
        let (coins, strings) = boxes(rows, cols);
        let board = Board::new(&coins, strings).unwrap();
        check_every_position(&coins, &board);
    }
    // The 1x1 box goes to whoever draws its fourth line: the second player. On the empty 2x2
    // board (12 lines) the pruned search gives the plain game tree's value.
    let (coins, strings) = boxes(1, 1);
    assert_eq!(Brute::new(&coins, strings).value(0), -1);
    let (coins, strings) = boxes(2, 2);
    let board = Board::new(&coins, strings).unwrap();
    let want = Brute::new(&coins, strings).value(0);
    assert_eq!(Pruned { board: &board, rules: Pruning::ALL, memo: HashMap::new() }.value(0), want);
}

/// A 1x3 strip with its tops and bottoms drawn is one chain of three boxes, both ends on the
/// ground; with its left side drawn too, the first box is capturable, and all but two leaves
/// no double-dealing move: the mover takes all three.
#[test]
fn a_chain_of_three_boxes() {
    let (coins, strings) = boxes(1, 3);
    let board = Board::new(&coins, strings).unwrap();
    let (v0, v1, v2, v3) = (6, 7, 8, 9);
    let chain = 0b11_1111;
    assert_eq!(board.graph_key(chain), Some(GRAPH_KEY_FLAG | 2 << 6 | 3));
    let open = chain | 1 << v0;
    assert_eq!(board.capturing(open), 1 << v1);
    assert_eq!(board.graph_key(open), Some(GRAPH_KEY_FLAG | 1 << 6 | 3));
    assert_eq!(board.hang(open, v1, false), Hang::Chain { double_deal: Some(v2) });
    assert_eq!(board.hang(open, v1, true), Hang::Chain { double_deal: None });
    assert_eq!(board.candidates(open, Pruning { all_but_two: false, ..Pruning::ALL }), 1 << v1 | 1 << v2);
    assert_eq!(board.candidates(open, Pruning::ALL), 1 << v1);
    assert_eq!(board.folded_move(open, Pruning::ALL), Some(v1));
    // The last two boxes: a pair, whose double-dealing move is searched.
    let pair = open | 1 << v1;
    assert_eq!(board.hang(pair, v2, true), Hang::Chain { double_deal: Some(v3) });
    assert_eq!(board.candidates(pair, Pruning::ALL), 1 << v2 | 1 << v3);
    assert_eq!(Brute::new(&coins, strings).value(open), 3);
    // Mirrored: with the right side drawn instead, the right box is the open end.
    let closed = chain | 1 << v3;
    assert_eq!(board.hang(closed, v2, true), Hang::Chain { double_deal: None });
    // A box with three strings (the right one, its top undrawn) is no path: no graph key.
    assert_eq!(board.graph_key(0b11_1011), None);
}

/// Relabel coins and strings at random: the graph key of the relabelled position is the same.
#[test]
fn graph_keys_do_not_depend_on_labels() {
    let mut rng = SmallRng::seed_from_u64(4);
    let mut keyed = 0;
    for _ in 0..300 {
        let strings = rng.gen_range(4..=16);
        let Some((coins, board)) = random_board(&mut rng, 8, strings) else { continue };
        let mut string_perm: Vec<usize> = (0..strings).collect();
        string_perm.shuffle(&mut rng);
        let map =
            |set: u64| (0..strings).filter(|&s| set >> s & 1 == 1).fold(0u64, |a, s| a | 1 << string_perm[s]);
        let mut relabelled: Vec<u64> = coins.iter().map(|&c| map(c)).collect();
        relabelled.shuffle(&mut rng);
        let other = Board::new(&relabelled, strings).unwrap();
        for _ in 0..20 {
            let drawn = rng.gen::<u64>() & board.all_strings();
            let key = board.graph_key(drawn);
            assert_eq!(other.graph_key(map(drawn)), key, "{coins:x?}: {drawn:#x}");
            keyed += usize::from(key.is_some());
        }
    }
    assert!(keyed > 500, "only {keyed} keyed positions");
}

/// Positions of random boards with one graph key have one brute-force value and the same
/// components (sizes, strings to the ground, computed here by a union-find); every position
/// where every open coin has at most two strings has a key while its graph has at most seven
/// components.
#[test]
fn positions_with_one_graph_key_have_one_value() {
    let mut rng = SmallRng::seed_from_u64(99);
    let mut by_key: HashMap<u64, (i32, Vec<(u32, u32)>)> = HashMap::new();
    let mut shared = 0;
    let mut boards = 0;
    while boards < 120 {
        let strings = rng.gen_range(2..=12);
        let Some((coins, board)) = random_board(&mut rng, 7, strings) else { continue };
        boards += 1;
        let mut brute = Brute::new(&coins, strings);
        for drawn in 0..1u64 << strings {
            let parts = components(&coins, drawn);
            let narrow = coins.iter().all(|&c| (c & !drawn).count_ones() <= 2);
            let key = board.graph_key(drawn);
            assert_eq!(key.is_some(), narrow && parts.len() <= 7, "{coins:x?}: {drawn:#x}");
            let Some(key) = key else { continue };
            let value = brute.value(drawn);
            match by_key.get(&key) {
                Some((v, other)) => {
                    assert_eq!((value, &parts), (*v, other), "{coins:x?}: {drawn:#x}");
                    shared += 1;
                }
                None => {
                    by_key.insert(key, (value, parts));
                }
            }
        }
    }
    assert!(shared > 1000, "only {shared} positions shared a key");
}

/// The components of the graph of `drawn` (open coins joined by undrawn strings) as sorted
/// (coins, strings to the ground) pairs: a union-find, independent of the crate.
fn components(coins: &[u64], drawn: u64) -> Vec<(u32, u32)> {
    let n = coins.len();
    let open: Vec<usize> = (0..n).filter(|&i| coins[i] & !drawn != 0).collect();
    let mut parent = petgraph::unionfind::UnionFind::<usize>::new(n);
    for &a in &open {
        for &b in &open {
            if a < b && coins[a] & coins[b] & !drawn != 0 {
                parent.union(a, b);
            }
        }
    }
    let all: u64 = coins.iter().fold(0, |a, &c| a | c);
    let mut parts: HashMap<usize, (u32, u32)> = HashMap::new();
    for &a in &open {
        let root = parent.find_mut(a);
        let ground = (0..64)
            .filter(|&s| (all & !drawn & coins[a]) >> s & 1 == 1)
            .filter(|&s| coins.iter().filter(|&&c| c >> s & 1 == 1).count() == 1)
            .count() as u32;
        let e = parts.entry(root).or_default();
        e.0 += 1;
        e.1 += ground;
    }
    let mut parts: Vec<(u32, u32)> = parts.into_values().collect();
    parts.sort_unstable();
    parts
}

/// Every position of `board` that [`Board::loony_value`] values has that brute-force value,
/// and it values exactly the positions where every open coin has two strings (at least one
/// coin open) and every loop (a component with no string to the ground) has four coins or
/// more. Returns how many it valued.
fn check_loony_values(coins: &[u64], board: &Board) -> usize {
    let mut brute = Brute::new(coins, board.strings());
    let mut valued = 0;
    for drawn in 0..1u64 << board.strings() {
        let open: Vec<u32> = coins.iter().map(|&c| (c & !drawn).count_ones()).filter(|&k| k > 0).collect();
        let simple = !open.is_empty()
            && open.iter().all(|&k| k == 2)
            && components(coins, drawn).iter().all(|&(n, ground)| ground > 0 || n >= 4);
        let value = board.loony_value(drawn);
        assert_eq!(value.is_some(), simple, "{coins:x?}: {drawn:#x}");
        if let Some(v) = value {
            assert_eq!(v, brute.value(drawn), "{coins:x?}: {drawn:#x}");
            valued += 1;
        }
    }
    valued
}

#[test]
fn loony_values_equal_the_brute_force() {
    let mut valued = 0;
    for (rows, cols) in [(1, 1), (1, 2), (1, 3), (2, 2), (1, 4), (1, 5), (2, 3)] {
        let (coins, strings) = boxes(rows, cols);
        let board = Board::new(&coins, strings).unwrap();
        valued += check_loony_values(&coins, &board);
    }
    assert!(valued > 1000, "only {valued} loony endgames on the boxes boards");
    let mut rng = SmallRng::seed_from_u64(3);
    let (mut boards, mut valued) = (0, 0);
    while boards < 300 {
        let strings = rng.gen_range(2..=14);
        let Some((coins, board)) = random_board(&mut rng, 9, strings) else { continue };
        valued += check_loony_values(&coins, &board);
        boards += 1;
    }
    assert!(valued > 1000, "only {valued} loony endgames on the random boards");
}

#[test]
fn bad_boards_are_refused() {
    assert_eq!(Board::new(&[1; 65], 1), Err(BoardError::TooManyCoins(65)));
    assert_eq!(Board::new(&[1], 65), Err(BoardError::TooManyStrings(65)));
    assert_eq!(Board::new(&[0b1, 0], 1), Err(BoardError::EmptyCoin(1)));
    assert_eq!(Board::new(&[0b101], 2), Err(BoardError::NoSuchString { coin: 0, string: 2, strings: 2 }));
    assert_eq!(Board::new(&[0b01], 2), Err(BoardError::LooseString(1)));
    assert_eq!(
        Board::new(&[0b011, 0b110, 0b101, 0b001], 3),
        Err(BoardError::SharedString { string: 0, coins: vec![0, 2, 3] })
    );
    assert_eq!(Board::new(&[0b11, 0b11], 2), Err(BoardError::SameStrings(0, 1)));
    // 64 strings and 64 coins fit; so does a coin tied to the ground only.
    let coins: Vec<u64> = (0..64).map(|i| 1 << i).collect();
    let board = Board::new(&coins, 64).unwrap();
    assert_eq!(board.all_strings(), u64::MAX);
    assert!(board.border(63).is_ground());
    assert_eq!(Board::new(&[0b1], 1).unwrap().graph_key(0), Some(GRAPH_KEY_FLAG | 1 << 6 | 1));
}
