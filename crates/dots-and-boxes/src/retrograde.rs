//! Retrograde analysis (D. Wilson's method for boards up to 3x3): the value of every set of
//! drawn lines, computed once ([`strings_and_coins::RetrogradeTable`] on the boxes).

use crate::Geometry;

/// The exact value of the remaining play for every set of drawn lines, from the side to move
/// (the boxes it will still take minus the opponent's): `2^lines` bytes (4 KiB for 2x2, 16 MiB
/// for 3x3). See [`strings_and_coins::RetrogradeTable`] for the method.
#[derive(Clone, Debug)]
pub struct RetrogradeTable {
    table: strings_and_coins::RetrogradeTable,
}

impl RetrogradeTable {
    /// Most lines accepted by [`RetrogradeTable::build`]: 2^26 bytes = 64 MiB (3x3 has 24
    /// lines, 2x4 22, 1x8 25).
    pub const MAX_LINES: usize = 26;

    /// Builds the table for `geometry`; `None` if it has more than
    /// [`RetrogradeTable::MAX_LINES`] lines.
    #[must_use]
    pub fn build(geometry: &Geometry) -> Option<Self> {
        if geometry.line_count() > Self::MAX_LINES {
            return None;
        }
        strings_and_coins::RetrogradeTable::build(geometry.board()).map(|table| RetrogradeTable { table })
    }

    /// The value of the remaining play of the line set `drawn` (a set on the table's board)
    /// from its side to move.
    #[must_use]
    pub fn value(&self, drawn: u64) -> i64 {
        self.table.value(drawn)
    }
}
