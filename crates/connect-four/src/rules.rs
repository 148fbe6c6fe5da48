//! [`PlainConnectFour`]: Connect Four by its plain rules, as a [`search_core::Game`] over validated
//! [`Position`]s: every non-full column is a move, one stone per move, the game ends at four in
//! a row or a full board. For play sessions and cross-checks; [`crate::Solver`] (over
//! [`crate::ConnectFour`], which resolves forced lines inside its moves) is the fast solver.

use search_core::{Game, Player, Value};

use crate::{Column, Geometry, Position};

/// Connect Four by its plain rules, values in Pons' score convention: a finished position lost
/// by the side to move is worth minus the winner's score, `(W * H + 2 - n) / 2` with `n` stones
/// on the board; a full board without a line 0. Moves bank nothing.
#[derive(Clone, Copy, Debug)]
pub struct PlainConnectFour {
    geom: Geometry,
}

impl PlainConnectFour {
    /// The game on `geom`.
    #[must_use]
    pub const fn new(geom: Geometry) -> Self {
        PlainConnectFour { geom }
    }
}

impl Game for PlainConnectFour {
    type Position = Position;
    type Move = Column;
    type Key = u64;

    fn to_move(&self, pos: &Position) -> Player {
        pos.to_move()
    }

    fn terminal_value(&self, pos: &Position) -> Option<Value> {
        if pos.is_won() {
            let cells = (self.geom.width() * self.geom.height()) as Value;
            Some(-(cells + 2 - pos.moves_played() as Value) / 2)
        } else {
            pos.is_full().then_some(0)
        }
    }

    fn generate_moves(&self, pos: &Position, moves: &mut Vec<Column>) {
        moves.extend(pos.legal_columns());
    }

    fn play(&self, pos: &Position, mv: Column) -> (Position, Value) {
        (pos.play(mv.index()), 0)
    }

    fn key(&self, pos: &Position) -> u64 {
        pos.symmetric_key()
    }

    fn value_bounds(&self, pos: &Position) -> (Value, Value) {
        // A win with the mover's next stone is the best possible, the opponent's the worst.
        let cells = (self.geom.width() * self.geom.height()) as Value;
        let n = pos.moves_played() as Value;
        (-(cells - n) / 2, (cells + 1 - n) / 2)
    }
}

#[cfg(test)]
mod tests {
    use search_core::Engine;

    use super::*;
    use crate::Solver;

    /// The plain rules solved by the generic engine give the fast solver's scores and analyses
    /// on small boards.
    #[test]
    fn plain_rules_agree_with_the_solver() {
        let geom = Geometry::new(4, 4).unwrap();
        let rules = PlainConnectFour::new(geom);
        let mut engine = Engine::new(rules, 16);
        let mut fast = Solver::new(geom);
        for moves in ["", "1", "23", "1234", "2233", "11223", "4411", "232323", "1111222"] {
            let pos = Position::parse(geom, moves).unwrap();
            assert_eq!(engine.solve(&pos), i64::from(fast.score(&pos)), "{moves}");
            let (a, b) = (engine.analyze(&pos), fast.analyze(&pos));
            assert_eq!((a.value, &a.moves), (b.value, &b.moves), "{moves}");
        }
    }

    #[test]
    fn finished_games_are_scored_for_the_winner() {
        let pos = Position::from_moves("1212121").unwrap();
        assert!(pos.is_won());
        // The first player won with the 4th stone: 22 - 4 = 18 for the winner.
        assert_eq!(PlainConnectFour::new(Geometry::STANDARD).terminal_value(&pos), Some(-18));
    }
}
