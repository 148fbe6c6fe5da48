//! Triangle War (POJ 1085, also UVa 751 and ZOJ 1155) on a triangle of any side from 1 to 6.
//!
//! Dots form a triangle of side `n`, numbered row by row from the apex (side 3 is the judge's
//! board: 10 dots, 18 segments, 9 unit triangles). Players A and B alternately draw a segment;
//! completing one or two unit triangles wins them and another move. The crate derives the
//! geometry ([`Geometry`]), keeps the drawn segments as a bitboard ([`SegmentSet`]), parses the
//! judge's input ([`parse_games`]), replays moves into a [`Position`], and solves positions
//! exactly, by the search-core engine ([`TriangleWar`], [`Solver`]) or by retrograde analysis
//! over every segment set ([`RetrogradeTable`]). The search reads the board as strings and
//! coins through the `strings-and-coins` crate ([`Geometry::board`]): its pruning [`Rules`]
//! and graph keys serve every dots-and-boxes-like game; this crate keeps the triangle's
//! geometry, symmetries, notation and positions.
//!
//! The value of the remaining play depends only on the drawn segments (the player to move is
//! whoever drew last, or the other one, but the margin of future triangles from the mover's side
//! does not depend on which letter that is), so one table or one TT serves a whole batch.
//!
//! The crate does no I/O.
//!
//! ```
//! use triangle_war::{parse_games, Geometry, Judge, Outcome};
//!
//! // POJ 1085's first sample game: 6 moves already played, A to move.
//! let input = "1\n6\n2 4\n4 5\n5 9\n3 6\n2 5\n3 5\n";
//! let geometry = Geometry::new(3).unwrap();
//! let mut judge = Judge::new(geometry.clone(), None);
//! let game = parse_games(input, &geometry).next().unwrap().unwrap();
//! assert_eq!(judge.outcome(&game.position), Outcome::BWins);
//!
//! // The explanation: A's triangles minus B's at the end after each move, and the best line.
//! let analysis = judge.analyze(&game.position);
//! assert!(analysis.value < 0);
//! assert_eq!(analysis.moves[0].value, analysis.value);
//! println!("{}", triangle_war::diagram(&geometry, &game.position));
//! ```

mod diagram;
mod front;
mod game;
mod geometry;
mod judge;
mod parse;
mod position;
mod retrograde;
mod rules_text;

pub use diagram::diagram;
pub use front::TriangleWarFront;
pub use game::{Solver, TriangleWar};
pub use geometry::{Geometry, GeometryError, Segment, MAX_SIDE};
pub use judge::{Judge, DEFAULT_TT_BITS, TABLE_MAX_SEGMENTS};
pub use parse::{
    parse_games, parse_games_from, parse_segment, GameRecord, Games, MoveError, ParseError, ParseErrorKind,
};
pub use position::{Outcome, Position, PositionError, SegmentSet};
pub use retrograde::RetrogradeTable;
pub use rules_text::{parse_rules, rules_text, RulesError, RULE_NAMES};
pub use search_core::Player;
/// The strings-and-coins parts of the game (segment borders, the pruning rules with their
/// proofs, graph keys), shared with any dots-and-boxes-like game.
pub use strings_and_coins::{Border, Rules};
