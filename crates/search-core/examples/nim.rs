//! Nim solved with search-core: the game of `docs/tutorial.md`, complete.
//!
//! `cargo run --release -p search-core --example nim -- 3 4 5` prints the value of the heaps
//! 3, 4 and 5 for the player to move, every move's value and a principal variation.
//! `tests/nim.rs` checks it against the theory (the player to move wins exactly when the
//! heaps' XOR is not 0).

use search_core::{Engine, Game, Player, Value};

/// At most this many heaps, of at most 15 stones each.
pub const MAX_HEAPS: usize = 4;

/// A position: the heaps (unused ones are 0) and the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Heaps {
    /// Stones in each heap.
    pub stones: [u8; MAX_HEAPS],
    /// Who moves next.
    pub to_move: Player,
}

impl Heaps {
    /// The start position with the first player to move.
    pub fn new(stones: &[u8]) -> Heaps {
        assert!(stones.len() <= MAX_HEAPS && stones.iter().all(|&s| s <= 15));
        let mut heaps = [0; MAX_HEAPS];
        heaps[..stones.len()].copy_from_slice(stones);
        Heaps { stones: heaps, to_move: Player::First }
    }
}

/// A move: take `take` stones (1 to 15) from heap `heap`, packed in one byte.
pub fn nim_move(heap: usize, take: u8) -> u8 {
    (heap as u8) << 4 | take
}

/// The heap and the number of stones of a move.
pub fn unpack(mv: u8) -> (usize, u8) {
    (usize::from(mv >> 4), mv & 15)
}

/// Nim, normal play: the player who takes the last stone wins (+1), the other loses (-1).
pub struct Nim;

impl Game for Nim {
    type Position = Heaps;
    type Move = u8;
    type Key = u64;

    fn to_move(&self, pos: &Heaps) -> Player {
        pos.to_move
    }

    fn terminal_value(&self, pos: &Heaps) -> Option<Value> {
        // No stone left: the player to move cannot move, the opponent took the last one.
        pos.stones.iter().all(|&s| s == 0).then_some(-1)
    }

    fn generate_moves(&self, pos: &Heaps, moves: &mut Vec<u8>) {
        for (heap, &stones) in pos.stones.iter().enumerate() {
            moves.extend((1..=stones).map(|take| nim_move(heap, take)));
        }
    }

    fn play(&self, pos: &Heaps, mv: u8) -> (Heaps, Value) {
        let (heap, take) = unpack(mv);
        let mut next = *pos;
        next.stones[heap] -= take;
        next.to_move = pos.to_move.opponent();
        (next, 0) // no points banked on the way: the value is the terminal one
    }

    fn key(&self, pos: &Heaps) -> u64 {
        // The value does not depend on the order of the heaps: sort them, so that
        // permutations share one TT entry, 4 bits a heap.
        let mut stones = pos.stones;
        stones.sort_unstable();
        stones.iter().fold(0, |key, &s| key << 4 | u64::from(s))
    }
}

fn move_text(mv: u8) -> String {
    let (heap, take) = unpack(mv);
    format!("{take} from heap {}", heap + 1)
}

fn main() {
    let stones: Vec<u8> =
        std::env::args().skip(1).map(|a| a.parse().expect("a heap size, 0 to 15")).collect();
    let start = Heaps::new(if stones.is_empty() { &[3, 4, 5] } else { &stones });
    let mut engine = Engine::new(Nim, 16); // a TT of 2^16 entries

    // The value for the player to move: +1 a win, -1 a loss.
    let value = engine.solve(&start);
    println!("heaps {:?}: value {value:+} for the player to move", start.stones);

    // Every legal move's value (first player's side), and the best line.
    for (mv, value) in engine.move_values(&start) {
        println!("  {}: {value:+}", move_text(mv));
    }
    let pv: Vec<String> = engine.principal_variation(&start).into_iter().map(move_text).collect();
    println!("pv: {}", pv.join(", "));

    // All of it at once, with the search's statistics.
    let analysis = engine.analyze(&start);
    println!("best moves: {}, nodes: {}", analysis.best_moves().count(), analysis.stats.nodes);
}
