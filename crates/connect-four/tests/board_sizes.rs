//! The empty boards that solve in a few seconds against the published results: the winner and
//! the move on which the perfectly played game ends. Expected values are written here from the
//! literature (J. Tromp, tromp.github.io/c4/c4.html, every board with width + height <= 15; the
//! same values in C. Steininger's README, github.com/ChristopheSteininger/c4, "WinDrawLoss" and
//! "Last Move" tables), not from our own output; `cargo xtask c4-table` runs the larger boards.

use connect_four::{published, GameResult, Geometry, Position, Solver};
use search_core::Player;

/// (width, height, winner, move on which the game ends), from the tables cited above.
const LITERATURE: [(usize, usize, Option<Player>, usize); 9] = [
    (4, 4, None, 16),
    (5, 4, None, 20),
    (4, 5, None, 20),
    (6, 4, Some(Player::Second), 24),
    (4, 6, None, 24),
    (5, 5, None, 25),
    (7, 4, None, 28),
    (4, 7, None, 28),
    (5, 6, None, 30),
];

#[test]
fn small_empty_boards_end_as_published() {
    for (w, h, winner, end_move) in LITERATURE {
        let geom = Geometry::new(w, h).unwrap();
        let expected = GameResult { winner, end_move };
        // The crate's transcription of the tables agrees with the values written here.
        assert_eq!(published(&geom), Some(expected), "{w}x{h} transcription");
        let pos = Position::empty(geom);
        let mut solver = Solver::with_tt_bits(geom, 20);
        let score = solver.score(&pos);
        assert_eq!(GameResult::from_score(&pos, score), Some(expected), "{w}x{h} score {score}");
    }
}
