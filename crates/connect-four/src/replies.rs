//! [`Replies`], a reply book: the solver's own move (the leftmost column of the best score,
//! [`crate::Solver::try_best_column`]) in every position it can face within a number of stones
//! of the empty board when it plays either side by these replies and the opponent plays
//! anything; [`strategy_walk`], the walk over those positions that builds and checks it.
//!
//! The opening book ([`crate::bundled_book`]) gives the score of every position within its
//! depth; the reply of a position just beyond it still takes every column's null-window test
//! (up to millions of nodes after 9 or 10 stones). Following its own replies, the solver faces
//! only a small part of the positions of a depth (one move of its own each turn, every move
//! of the opponent's): a reply book of 12 stones holds 65,109 positions where a score book
//! of 10 plies would hold about a million.
//!
//! The file is a [`Book`] file whose values are the columns (0-based) and whose keys are the
//! positions' codes ([`crate::Board::code`], not mirrored: a position and its mirror image
//! may have different leftmost best columns), of the identity [`Replies::identity`].

use search_core::{Book, BookError, BookIdentity, Value};

use crate::{Column, Geometry, Position};

/// The solver's replies in the positions it faces within [`Replies::stones`] stones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replies {
    book: Book,
    geom: Geometry,
}

impl Replies {
    /// What a reply book of `geom` is: `connect-four WxH replies`, keyed by the position code,
    /// values the columns `0..width`.
    #[must_use]
    pub fn identity(geom: Geometry) -> BookIdentity {
        let (w, h, k) = (geom.width(), geom.height(), geom.k());
        let game = if k == 4 {
            format!("connect-four {w}x{h} replies")
        } else {
            format!("connect-four {w}x{h} k{k} replies")
        };
        BookIdentity { game, key_scheme: "position code".to_string(), values: (0, w as Value - 1) }
    }

    /// A reply book of `geom` covering the positions of at most `stones` stones, holding
    /// `entries` (position, reply).
    ///
    /// # Errors
    /// [`BookError::Malformed`] for a position given twice with two replies.
    pub fn new(
        geom: Geometry,
        stones: u32,
        entries: impl IntoIterator<Item = (Position, Column)>,
    ) -> Result<Replies, BookError> {
        let entries = entries.into_iter().map(|(p, c)| (u128::from(p.board().code()), Value::from(c.0)));
        Ok(Replies { book: Book::new(&Self::identity(geom), stones, entries)?, geom })
    }

    /// The reply book in `bytes` (a [`Book`] file) for `geom`.
    ///
    /// # Errors
    /// Every [`BookError`] of [`Book::from_bytes`] (damaged, truncated, another format), and
    /// [`BookError::Mismatch`] / [`BookError::ValueOutOfRange`] for a book of another board,
    /// a score book, or a column off the board.
    pub fn from_bytes(geom: Geometry, bytes: &[u8]) -> Result<Replies, BookError> {
        let book = Book::from_bytes(bytes)?;
        book.check(&Self::identity(geom))?;
        Ok(Replies { book, geom })
    }

    /// The book file's bytes ([`Book::to_bytes`]).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        self.book.to_bytes()
    }

    /// The most stones of the positions it covers.
    #[must_use]
    pub fn stones(&self) -> u32 {
        self.book.plies()
    }

    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.book.len()
    }

    /// Whether it holds no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.book.is_empty()
    }

    /// The board it belongs to.
    #[must_use]
    pub fn geometry(&self) -> Geometry {
        self.geom
    }

    /// The reply to `pos`, if the book has it and it is a legal column of `pos` (a position of
    /// another board, or finished, has none).
    #[must_use]
    pub fn reply(&self, pos: &Position) -> Option<Column> {
        if *pos.geometry() != self.geom || pos.is_over() {
            return None;
        }
        let c = self.book.value(pos.board().code())?;
        let c = usize::try_from(c).ok()?;
        pos.can_play(c).then_some(Column(c as u8))
    }
}

/// The positions a solver playing by `reply` faces within `stones` stones ([`strategy_walk`]).
#[derive(Clone, Debug, Default)]
pub struct StrategyWalk {
    /// The positions the solver is to move in, each once, with the reply `reply` gave.
    pub faced: Vec<(Position, Column)>,
    /// The positions the solver is to move in for which `reply` gave none: the walk does not
    /// go beyond them.
    pub missing: Vec<Position>,
}

/// Walks from the empty board of `geom`, for the solver playing first and then second: in a
/// position where the solver is to move, its reply (`reply`) is played; in one where the
/// opponent is, every column. Positions of at most `stones` stones that nobody has won and that
/// are not full are visited, each once (by its code).
pub fn strategy_walk(
    geom: Geometry,
    stones: u32,
    mut reply: impl FnMut(&Position) -> Option<Column>,
) -> StrategyWalk {
    let mut walk = StrategyWalk::default();
    let mut seen = std::collections::HashSet::new();
    for solver_side in 0..2 {
        let mut level = vec![Position::empty(geom)];
        for n in 0..=stones as usize {
            let mut next = Vec::new();
            for pos in level {
                if pos.is_over() {
                    continue;
                }
                if n % 2 == solver_side {
                    if !seen.insert(pos.board().code()) {
                        continue;
                    }
                    match reply(&pos) {
                        Some(c) => {
                            walk.faced.push((pos, c));
                            next.push(pos.play(c.index()));
                        }
                        None => walk.missing.push(pos),
                    }
                } else {
                    next.extend(pos.legal_columns().map(|c| pos.play(c.index())));
                }
            }
            next.sort_unstable_by_key(|p| p.board().code());
            next.dedup_by_key(|p| p.board().code());
            level = next;
        }
    }
    walk
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Geometry {
        Geometry::new(5, 4).unwrap()
    }

    /// A deterministic stand-in for the solver: the leftmost legal column.
    fn leftmost(p: &Position) -> Option<Column> {
        p.legal_columns().next()
    }

    #[test]
    fn the_walk_visits_the_positions_of_the_strategy() {
        let geom = small();
        let walk = strategy_walk(geom, 3, leftmost);
        assert!(walk.missing.is_empty());
        // Every sequence of moves: the solver's the leftmost column, the opponent's any.
        let mut expected = std::collections::BTreeSet::new();
        for solver_side in 0..2 {
            let mut level = vec![Position::empty(geom)];
            for n in 0..=3 {
                if n % 2 == solver_side {
                    expected.extend(level.iter().map(|p| p.board().code()));
                }
                level = level
                    .iter()
                    .flat_map(|p| {
                        let moves: Vec<Column> = if n % 2 == solver_side {
                            leftmost(p).into_iter().collect()
                        } else {
                            p.legal_columns().collect()
                        };
                        moves.into_iter().map(move |c| p.play(c.index()))
                    })
                    .collect();
            }
        }
        let faced: std::collections::BTreeSet<u64> =
            walk.faced.iter().map(|(p, _)| p.board().code()).collect();
        assert_eq!(faced.len(), walk.faced.len(), "each position once");
        assert_eq!(faced, expected);
        assert!(walk.faced.iter().all(|(p, c)| leftmost(p) == Some(*c)));
        let cut = strategy_walk(geom, 3, |p| if p.moves_played() < 2 { leftmost(p) } else { None });
        let beyond: Vec<u64> =
            walk.faced.iter().filter(|(p, _)| p.moves_played() >= 2).map(|(p, _)| p.board().code()).collect();
        assert_eq!(cut.missing.iter().map(|p| p.board().code()).collect::<Vec<_>>(), beyond);
    }

    #[test]
    fn replies_round_trip_and_foreign_books_are_refused() {
        let geom = small();
        let walk = strategy_walk(geom, 4, leftmost);
        let replies = Replies::new(geom, 4, walk.faced.clone()).unwrap();
        let back = Replies::from_bytes(geom, &replies.to_bytes()).unwrap();
        assert_eq!(back, replies);
        for (p, c) in &walk.faced {
            assert_eq!(back.reply(p), Some(*c));
        }
        assert_eq!(back.reply(&Position::parse(geom, "22").unwrap()), None);
        let other = Geometry::new(6, 4).unwrap();
        assert!(matches!(Replies::from_bytes(other, &replies.to_bytes()), Err(BookError::Mismatch { .. })));
        let mut bytes = replies.to_bytes();
        let last = bytes.len() - 6;
        bytes[last] ^= 1;
        assert!(Replies::from_bytes(geom, &bytes).is_err());
        // A score book is not a reply book.
        let game = crate::ConnectFour::new(geom);
        let scores = Book::new(&game.book_identity(), 0, [(1u128, 0)]).unwrap();
        assert!(Replies::from_bytes(geom, &scores.to_bytes()).is_err());
        // A column off the board is refused.
        let wide = BookIdentity { values: (0, 9), ..Replies::identity(geom) };
        let forged = Book::new(&wide, 1, [(1u128, 7)]).unwrap();
        assert!(matches!(
            Replies::from_bytes(geom, &forged.to_bytes()),
            Err(BookError::ValueOutOfRange { .. })
        ));
    }
}
