//! Games for the unit tests of this crate (compiled for tests only).

use crate::{Game, Player, Value};

/// A subtraction game: take 1 to 3 from a heap of `n`, whoever takes the last wins (+1). Each
/// position is keyed by the path that led to it as well (a salt), so that the tree has no
/// transpositions and is large enough for helper threads: position `(heap, salt, to move)`.
#[derive(Clone, Copy)]
pub(crate) struct Take3;

impl Game for Take3 {
    type Position = (u8, u64, Player);
    type Move = u8;
    type Key = u64;

    fn to_move(&self, pos: &Self::Position) -> Player {
        pos.2
    }
    fn terminal_value(&self, pos: &Self::Position) -> Option<Value> {
        (pos.0 == 0).then_some(-1)
    }
    fn generate_moves(&self, pos: &Self::Position, moves: &mut Vec<u8>) {
        moves.extend((1..=3).filter(|&k| k <= pos.0));
    }
    fn play(&self, pos: &Self::Position, mv: u8) -> (Self::Position, Value) {
        ((pos.0 - mv, pos.1.wrapping_mul(31).wrapping_add(u64::from(mv)), pos.2.opponent()), 0)
    }
    fn key(&self, pos: &Self::Position) -> u64 {
        // The path is part of the key: no transpositions, an exponential tree.
        pos.1 << 8 | u64::from(pos.0)
    }
}
