//! [`BookPlan`]: the positions an opening book of a game holds, and the book made from the
//! values of its deepest ones. The plan expands the start position ply by ply (the game's own
//! moves, [`Game::generate_moves`] and [`Game::play`]), one position per TT key and ply
//! ([`Game::canonical_key`]: symmetric positions once); the positions `plies` plies deep
//! (the leaves) are solved by the caller, any way it likes and resumably (one at a time, kept
//! by key); [`BookPlan::finish`] then values every shallower position by negamax over its
//! moves, from the leaves' values and the game's terminal values, and makes the [`Book`].

use std::collections::{HashMap, HashSet};

use crate::book::{Book, BookError, BookIdentity};
use crate::game::{Game, TtKey, Value};

/// The positions of an opening book of `plies` plies: the non-terminal positions reached from
/// the start in `k` moves, for every `k` from 0 to `plies`, one per TT key and ply (a key may
/// be reached at several depths when a game's moves fold forced replies).
pub struct BookPlan<G: Game> {
    plies: u32,
    levels: Vec<Vec<(G::Key, G::Position)>>,
}

impl<G: Game> BookPlan<G> {
    /// The plan of a book of `game` from `start` covering `plies` plies. Takes time and memory
    /// in proportion to the positions within that depth.
    pub fn new(game: &G, start: &G::Position, plies: u32) -> Self {
        let mut levels: Vec<Vec<(G::Key, G::Position)>> = Vec::new();
        let first = if game.terminal_value(start).is_some() {
            Vec::new()
        } else {
            vec![(game.canonical_key(start).0, *start)]
        };
        levels.push(first);
        let mut moves = Vec::new();
        for _ in 0..plies {
            let mut seen = HashSet::new();
            let mut next = Vec::new();
            for (_, pos) in levels.last().expect("level 0 is there") {
                moves.clear();
                game.generate_moves(pos, &mut moves);
                game.order_moves(pos, &mut moves);
                for &m in &moves {
                    let (child, _) = game.play(pos, m);
                    if game.terminal_value(&child).is_some() {
                        continue;
                    }
                    let key = game.canonical_key(&child).0;
                    if seen.insert(key) {
                        next.push((key, child));
                    }
                }
            }
            levels.push(next);
        }
        BookPlan { plies, levels }
    }

    /// The depth the book covers.
    #[must_use]
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The number of positions (keys) at each depth, from the start's.
    #[must_use]
    pub fn level_sizes(&self) -> Vec<usize> {
        self.levels.iter().map(Vec::len).collect()
    }

    /// Every position of the book with its key, ply by ply from the start's (a key reached
    /// at several depths comes once per depth).
    pub fn positions(&self) -> impl Iterator<Item = &(G::Key, G::Position)> + '_ {
        self.levels.iter().flatten()
    }

    /// The positions whose values the caller finds (by search): those `plies` plies deep, with
    /// their keys, in an order in which neighbours share much of their subtrees.
    #[must_use]
    pub fn leaves(&self) -> &[(G::Key, G::Position)] {
        self.levels.last().expect("level 0 is there")
    }

    /// The book of `identity`'s game from the exact values of the leaves, `leaf_values` (by
    /// key widened to `u128`, [`TtKey::to_u128`]): every shallower position valued by negamax
    /// over its moves, a finished child by [`Game::terminal_value`].
    ///
    /// # Errors
    /// [`BookError::Incomplete`] when a leaf has no value; [`BookError::ValueOutOfRange`] when
    /// a value lies outside `identity.values`.
    pub fn finish(
        &self,
        game: &G,
        identity: &BookIdentity,
        leaf_values: &HashMap<u128, Value>,
    ) -> Result<Book, BookError> {
        let missing = self.leaves().iter().filter(|(k, _)| !leaf_values.contains_key(&k.to_u128())).count();
        if missing > 0 {
            return Err(BookError::Incomplete { missing, leaves: self.leaves().len() });
        }
        let mut values: HashMap<u128, Value> =
            self.leaves().iter().map(|(k, _)| (k.to_u128(), leaf_values[&k.to_u128()])).collect();
        let mut moves = Vec::new();
        for level in self.levels[..self.levels.len() - 1].iter().rev() {
            for (key, pos) in level {
                if values.contains_key(&key.to_u128()) {
                    continue;
                }
                moves.clear();
                game.generate_moves(pos, &mut moves);
                let me = game.to_move(pos);
                let best = moves
                    .iter()
                    .map(|&m| {
                        let (child, gain) = game.play(pos, m);
                        let v = game
                            .terminal_value(&child)
                            .unwrap_or_else(|| values[&game.canonical_key(&child).0.to_u128()]);
                        if game.to_move(&child) == me {
                            gain + v
                        } else {
                            gain - v
                        }
                    })
                    .max()
                    .expect("a position that is not finished has moves");
                values.insert(key.to_u128(), best);
            }
        }
        Book::new(identity, self.plies, values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::BookIdentity;
    use crate::reference::minimax;
    use crate::{Engine, Player};

    /// Take 1 to 3 from a heap, banking `heap % 4` for taking 2 (which keeps the turn); the
    /// last to take wins 5.
    struct Heap;

    impl Game for Heap {
        type Position = (u8, Player);
        type Move = u8;
        type Key = u64;
        fn to_move(&self, pos: &(u8, Player)) -> Player {
            pos.1
        }
        fn terminal_value(&self, pos: &(u8, Player)) -> Option<Value> {
            (pos.0 == 0).then_some(-5)
        }
        fn generate_moves(&self, pos: &(u8, Player), moves: &mut Vec<u8>) {
            moves.extend((1..=3).filter(|&t| t <= pos.0));
        }
        fn play(&self, pos: &(u8, Player), take: u8) -> ((u8, Player), Value) {
            if take == 2 {
                ((pos.0 - 2, pos.1), Value::from(pos.0 % 4))
            } else {
                ((pos.0 - take, pos.1.opponent()), 0)
            }
        }
        fn key(&self, pos: &(u8, Player)) -> u64 {
            u64::from(pos.0)
        }
    }

    fn identity() -> BookIdentity {
        BookIdentity { game: "heap".into(), key_scheme: Heap.key_scheme(), values: (-100, 100) }
    }

    #[test]
    fn the_book_holds_every_position_within_its_depth_at_its_exact_value() {
        let start = (30, Player::First);
        let plan = BookPlan::new(&Heap, &start, 4);
        assert_eq!(plan.level_sizes(), vec![1, 3, 5, 7, 9]);
        let mut engine = Engine::new(Heap, 10);
        let leaves: HashMap<u128, Value> =
            plan.leaves().iter().map(|(k, p)| (k.to_u128(), engine.solve(p))).collect();
        let book = plan.finish(&Heap, &identity(), &leaves).unwrap();
        assert_eq!(book.len(), 13);
        for heap in 18..=30u8 {
            assert_eq!(book.value(u64::from(heap)), Some(minimax(&Heap, &(heap, Player::First))), "{heap}");
        }
        let mut partial = leaves.clone();
        partial.remove(&18);
        assert_eq!(
            plan.finish(&Heap, &identity(), &partial),
            Err(BookError::Incomplete { missing: 1, leaves: 9 })
        );
    }
}
