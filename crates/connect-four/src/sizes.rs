//! Results of whole games: who wins under perfect play and on which move the game ends, read
//! from a score ([`GameResult::from_score`]), and the published results of empty boards of
//! many sizes ([`PUBLISHED`], [`published`]) to check the solver against.
//!
//! # Sources
//! - J. Tromp, "John's Connect Four Playground", tromp.github.io/c4/c4.html: every board with
//!   width + height <= 15 (2006) and 8 x 8 (2015).
//! - C. Steininger, README of github.com/ChristopheSteininger/c4 (2024-2025): the "WinDrawLoss" and
//!   "Last Move" tables, which repeat Tromp's results and extend them to every board with
//!   width + height = 16 and a few larger ones. [`PUBLISHED`] is transcribed from these two
//!   tables (the winner from the first, the move on which the game ends from the second).

use search_core::Player;

use crate::{Geometry, Position};

/// The result of a perfectly played game: the winner (`None` for a draw) and the number of the
/// move (stone) on which the game ends, counting from the first stone of the empty board (the
/// last cell for a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// The player who wins under perfect play, `None` for a draw.
    pub winner: Option<Player>,
    /// The move on which the game ends: the winning stone's number, or the number of cells for
    /// a draw.
    pub end_move: usize,
}

impl GameResult {
    /// The result of `pos` under perfect play given its exact `score` (Pons' convention, from
    /// the side to move, as [`crate::Solver::score`] gives it). `None` if the score is not a
    /// possible one in `pos` (larger than a win with the next stone).
    #[must_use]
    pub fn from_score(pos: &Position, score: i32) -> Option<GameResult> {
        let geom = pos.geometry();
        let cells = geom.cells();
        let n = pos.moves_played();
        if score == 0 {
            return Some(GameResult { winner: None, end_move: cells });
        }
        // A win with stone number m scores (cells + 2 - m) / 2 for the winner: m is
        // cells + 1 - 2|s| or cells + 2 - 2|s|, whichever has the winner's parity (the side to
        // move lays stones n + 1, n + 3, ...).
        let s = score.unsigned_abs() as usize;
        let mover = pos.to_move();
        let winner = if score > 0 { mover } else { mover.opponent() };
        let parity = if score > 0 { (n + 1) % 2 } else { n % 2 };
        let low = (cells + 1).checked_sub(2 * s)?;
        let end_move = if low % 2 == parity { low } else { low + 1 };
        // The winning stone comes after the stones already played and is one of the winner's.
        (end_move > n && end_move <= cells).then_some(GameResult { winner: Some(winner), end_move })
    }

    /// `1st`, `2nd` or `draw`, and the end move: `1st 41`, `draw 16`.
    #[must_use]
    pub fn label(&self) -> String {
        let who = match self.winner {
            Some(Player::First) => "1st",
            Some(Player::Second) => "2nd",
            None => "draw",
        };
        format!("{who} {}", self.end_move)
    }
}

/// One published result: the empty board of `width` x `height` (four in a row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublishedResult {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The result of the empty board under perfect play.
    pub result: GameResult,
}

const fn entry(width: usize, height: usize, winner: Option<Player>, end_move: usize) -> PublishedResult {
    PublishedResult { width, height, result: GameResult { winner, end_move } }
}

const FIRST: Option<Player> = Some(Player::First);
const SECOND: Option<Player> = Some(Player::Second);
const DRAW: Option<Player> = None;

/// The published results of the empty boards with both sides at least 4 and width + height <=
/// 16 (J. Tromp up to 15, C. Steininger for 16; see the module's sources), width-major. Boards
/// that do not fit the bitboard (`W * (H + 1) > 64`) are listed too.
pub const PUBLISHED: &[PublishedResult] = &[
    entry(4, 4, DRAW, 16),
    entry(4, 5, DRAW, 20),
    entry(4, 6, DRAW, 24),
    entry(4, 7, DRAW, 28),
    entry(4, 8, DRAW, 32),
    entry(4, 9, DRAW, 36),
    entry(4, 10, DRAW, 40),
    entry(4, 11, DRAW, 44),
    entry(4, 12, DRAW, 48),
    entry(5, 4, DRAW, 20),
    entry(5, 5, DRAW, 25),
    entry(5, 6, DRAW, 30),
    entry(5, 7, DRAW, 35),
    entry(5, 8, DRAW, 40),
    entry(5, 9, DRAW, 45),
    entry(5, 10, DRAW, 50),
    entry(5, 11, DRAW, 55),
    entry(6, 4, SECOND, 24),
    entry(6, 5, DRAW, 30),
    entry(6, 6, SECOND, 36),
    entry(6, 7, FIRST, 41),
    entry(6, 8, SECOND, 48),
    entry(6, 9, FIRST, 53),
    entry(6, 10, SECOND, 60),
    entry(7, 4, DRAW, 28),
    entry(7, 5, DRAW, 35),
    entry(7, 6, FIRST, 41),
    entry(7, 7, DRAW, 49),
    entry(7, 8, FIRST, 55),
    entry(7, 9, DRAW, 63),
    entry(8, 4, SECOND, 32),
    entry(8, 5, FIRST, 39),
    entry(8, 6, SECOND, 48),
    entry(8, 7, FIRST, 53),
    entry(8, 8, SECOND, 62),
    entry(9, 4, SECOND, 36),
    entry(9, 5, FIRST, 41),
    entry(9, 6, SECOND, 52),
    entry(9, 7, FIRST, 55),
    entry(10, 4, SECOND, 40),
    entry(10, 5, FIRST, 47),
    entry(10, 6, FIRST, 59),
    entry(11, 4, SECOND, 44),
    entry(11, 5, FIRST, 51),
    entry(12, 4, SECOND, 48),
];

/// The published result of the empty `geom` board ([`PUBLISHED`]), if it is listed (four in a
/// row only).
#[must_use]
pub fn published(geom: &Geometry) -> Option<GameResult> {
    if geom.k() != 4 {
        return None;
    }
    PUBLISHED.iter().find(|p| p.width == geom.width() && p.height == geom.height()).map(|p| p.result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_map_to_the_winning_stone() {
        let empty = Position::empty(Geometry::STANDARD);
        // 7 x 6: a score of 1 for the first player is a win with its 21st stone, move 41.
        assert_eq!(GameResult::from_score(&empty, 1), Some(GameResult { winner: FIRST, end_move: 41 }));
        // A win with the first player's 4th stone (move 7) scores 22 - 4 = 18.
        assert_eq!(GameResult::from_score(&empty, 18), Some(GameResult { winner: FIRST, end_move: 7 }));
        // -1: the second player wins with its 21st stone, the last cell.
        assert_eq!(GameResult::from_score(&empty, -1), Some(GameResult { winner: SECOND, end_move: 42 }));
        assert_eq!(GameResult::from_score(&empty, 0), Some(GameResult { winner: DRAW, end_move: 42 }));
        // No score above a win with the next stone.
        assert_eq!(GameResult::from_score(&empty, 22), None);
        assert_eq!(GameResult::from_score(&empty, -22), None);
        // After one stone, the second player (to move) winning with its 4th stone: move 8.
        let one = empty.play(3);
        assert_eq!(GameResult::from_score(&one, 18), Some(GameResult { winner: SECOND, end_move: 8 }));
        // The first player winning with its 4th stone (move 7) or its 5th (move 9).
        assert_eq!(GameResult::from_score(&one, -18), Some(GameResult { winner: FIRST, end_move: 7 }));
        assert_eq!(GameResult::from_score(&one, -17), Some(GameResult { winner: FIRST, end_move: 9 }));
        assert_eq!(GameResult::from_score(&one, 22), None);
    }

    /// The transcription is consistent: draws end on the last cell, a first-player win on an
    /// odd move and a second-player win on an even one, within the board; no board twice.
    #[test]
    fn published_table_is_consistent() {
        for (i, p) in PUBLISHED.iter().enumerate() {
            let cells = p.width * p.height;
            let r = p.result;
            match r.winner {
                None => assert_eq!(r.end_move, cells, "{p:?}"),
                Some(Player::First) => assert!(r.end_move % 2 == 1 && r.end_move < cells + 1, "{p:?}"),
                Some(Player::Second) => assert!(r.end_move % 2 == 0 && r.end_move <= cells, "{p:?}"),
            }
            assert!(r.end_move >= 7, "{p:?}");
            assert!(PUBLISHED[..i].iter().all(|q| (q.width, q.height) != (p.width, p.height)), "{p:?}");
        }
        assert_eq!(published(&Geometry::STANDARD).map(|r| r.label()), Some("1st 41".to_string()));
        assert_eq!(published(&Geometry::with_k(7, 6, 3).unwrap()), None);
    }
}
