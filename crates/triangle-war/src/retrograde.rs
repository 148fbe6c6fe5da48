//! Retrograde analysis: the value of every segment set, computed once
//! ([`strings_and_coins::RetrogradeTable`] on the triangles).

use crate::{Geometry, Outcome, Position};

/// The exact value of the remaining play for every set of drawn segments, from the side to
/// move: `2^segments` bytes (256 KiB for the judge's side 3). See
/// [`strings_and_coins::RetrogradeTable`] for the method.
#[derive(Clone, Debug)]
pub struct RetrogradeTable {
    table: strings_and_coins::RetrogradeTable,
}

impl RetrogradeTable {
    /// Largest number of segments accepted by [`RetrogradeTable::build`] (2^30 bytes = 1 GiB).
    pub const MAX_SEGMENTS: usize = strings_and_coins::RetrogradeTable::MAX_STRINGS;

    /// Builds the table for `geometry`; `None` if it has more than
    /// [`RetrogradeTable::MAX_SEGMENTS`] segments.
    #[must_use]
    pub fn build(geometry: &Geometry) -> Option<Self> {
        strings_and_coins::RetrogradeTable::build(geometry.board()).map(|table| RetrogradeTable { table })
    }

    /// The value of the remaining play of `pos` from its side to move.
    #[must_use]
    pub fn value(&self, pos: &Position) -> i64 {
        self.table.value(pos.drawn().0)
    }

    /// The final margin (A minus B) of `pos` under perfect play, counting owned triangles.
    #[must_use]
    pub fn final_margin(&self, pos: &Position) -> i64 {
        pos.margin() + pos.to_move().sign() * self.value(pos)
    }

    /// Who wins `pos` under perfect play, from A's side.
    #[must_use]
    pub fn outcome(&self, pos: &Position) -> Outcome {
        Outcome::of_value(self.final_margin(pos))
    }
}
