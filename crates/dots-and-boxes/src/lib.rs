//! Dots-and-boxes on a board of R x C boxes with at most 64 lines (5x5 has 60), in OpenSpiel's
//! notation (`dots_and_boxes`: `num_rows` / `num_cols` count boxes; a line's action id lists
//! the horizontal lines first, row by row, then the vertical lines row by row; a DBN string is
//! one character per line in that order, `1` drawn, `0` not), solved exactly.
//!
//! Players A and B alternately draw a line between two neighbouring dots; completing one or two
//! boxes wins them and another move. The crate derives the board ([`Geometry`]: lines, boxes
//! as strings and coins, the rectangle's symmetries), reads and writes DBN strings
//! ([`parse_dbn_line`], [`dbn_string`]), keeps positions ([`Position`]) and solves them: by
//! retrograde analysis over every line set on small boards ([`RetrogradeTable`], D. Wilson's
//! method), by the search-core engine on larger ones ([`DotsAndBoxes`], [`Solver`]), with the
//! proven pruning [`Rules`] and graph keys of the `strings-and-coins` crate (E. Berlekamp,
//! *The Dots and Boxes Game*, 2000; J. K. Barker and R. E. Korf, "Solving Dots-And-Boxes",
//! AAAI 2012). [`Judge`] picks the cheapest.
//!
//! Values are the boxes the player to move will still take minus the opponent's under perfect
//! play (a DBN string carries no score). The empty boards (first player's net boxes): 1x1 -1,
//! 1x2 0, 2x2 +2, 2x3 -2, 3x3 -3 (D. Wilson, wilson.engr.wisc.edu/boxes).
//!
//! The crate does no I/O.
//!
//! ```
//! use dots_and_boxes::{dbn_string, parse_dbn, Geometry, Judge, Position, Solver};
//!
//! // 2x2 boxes: horizontal lines 0-5 (3 rows of 2), vertical lines 6-11 (2 rows of 3).
//! let geometry = Geometry::new(2, 2).unwrap();
//! let mut judge = Judge::new(geometry.clone(), None);
//! assert_eq!(judge.value(&Position::start()), 2);
//! // The top-left box's top (0), bottom (2) and left (6) lines drawn.
//! let drawn = parse_dbn(&geometry, "101000100000").unwrap();
//! assert_eq!(drawn, 1 << 0 | 1 << 2 | 1 << 6);
//! assert_eq!(dbn_string(&geometry, drawn), "101000100000");
//! let pos = Position::from_drawn(&geometry, drawn).unwrap();
//! assert_eq!(dots_and_boxes::diagram(&geometry, &pos), "+---+   +\n|\n+---+   +\n\n+   +   +\n");
//! // The table (2x2 is small) and the search agree.
//! assert_eq!(judge.value(&pos), Solver::new(geometry, 16).value(&pos));
//! ```

mod dbn;
mod front;
mod game;
mod geometry;
mod judge;
mod position;
mod retrograde;

pub use dbn::{dbn_string, parse_dbn, parse_dbn_line, ParseError, ParseErrorKind};
pub use front::{diagram, open_boxes, parse_size, DotsAndBoxesFront};
pub use game::{
    engine, minimax, search_options, DotsAndBoxes, Solver, DEFER_PLIES, ETC_MIN_MOVES, SHARED_TT_MIN_LINES,
};
pub use geometry::{Geometry, GeometryError, Line, Orientation, MAX_LINES};
pub use judge::{default_tt_bits, Judge, TABLE_MAX_LINES};
pub use position::{Position, PositionError};
pub use retrograde::RetrogradeTable;
pub use search_core::Player;
/// The strings-and-coins parts of the game (line borders, the pruning rules with their proofs),
/// shared with Triangle War.
pub use strings_and_coins::{Border, Rules};
