//! Retrograde analysis (D. Wilson's method for boards up to 3x3): the value of every set of
//! drawn lines, computed once.

use crate::Geometry;

/// The exact value of the remaining play for every set of drawn lines, from the side to move
/// (the boxes it will still take minus the opponent's): `2^lines` bytes (4 KiB for 2x2, 16 MiB
/// for 3x3).
///
/// Built by retrograde analysis: a set's successors have more lines and so larger numbers, so
/// scanning the sets from the full board down to the empty one sees every successor first.
/// `value[s] = max over undrawn g of (c > 0 ? c + value[s+g] : -value[s+g])`, where `c` is the
/// number of boxes `g` completes.
#[derive(Clone, Debug)]
pub struct RetrogradeTable {
    values: Vec<i8>,
}

impl RetrogradeTable {
    /// Most lines accepted by [`RetrogradeTable::build`]: 2^26 bytes = 64 MiB (3x3 has 24
    /// lines, 2x4 22, 1x8 25).
    pub const MAX_LINES: usize = 26;

    /// Builds the table for `geometry`; `None` if it has more than
    /// [`RetrogradeTable::MAX_LINES`] lines.
    #[must_use]
    pub fn build(geometry: &Geometry) -> Option<Self> {
        let k = geometry.line_count();
        if k > Self::MAX_LINES {
            return None;
        }
        // For each line, the masks of the boxes it borders; a rim line's missing second box
        // becomes `u64::MAX`, which no set of at most 26 lines contains.
        let borders: Vec<[u64; 2]> = (0..k)
            .map(|s| {
                let [m0, m1] = geometry.board().border(s).masks;
                [m0, if m1 == 0 { u64::MAX } else { m1 }]
            })
            .collect();
        let full = (1u64 << k) - 1;
        let mut values = vec![0i8; 1 << k];
        for set in (0..full).rev() {
            let mut best = i8::MIN;
            let mut free = full & !set;
            while free != 0 {
                let s = free.trailing_zeros() as usize;
                free &= free - 1;
                let next = set | 1 << s;
                let [t0, t1] = borders[s];
                let completed = i8::from(next & t0 == t0) + i8::from(next & t1 == t1);
                let child = values[next as usize];
                let v = if completed > 0 { completed + child } else { -child };
                best = best.max(v);
            }
            values[set as usize] = best;
        }
        Some(RetrogradeTable { values })
    }

    /// The value of the remaining play of the line set `drawn` (a set on the table's board)
    /// from its side to move.
    #[must_use]
    pub fn value(&self, drawn: u64) -> i64 {
        i64::from(self.values[drawn as usize])
    }
}
