//! Retrograde analysis: the value of every segment set, computed once.

use crate::{Geometry, Outcome, Position};

/// The exact value of the remaining play for every set of drawn segments, from the side to
/// move: `2^segments` bytes (256 KiB for the judge's side 3).
///
/// Built by retrograde analysis: a set's successors have more segments and so larger numbers,
/// so scanning the sets from the full board down to the empty one sees every successor first.
/// `value[s] = max over undrawn g of (c > 0 ? c + value[s+g] : -value[s+g])`, where `c` is the
/// number of triangles `g` completes.
#[derive(Clone, Debug)]
pub struct RetrogradeTable {
    values: Vec<i8>,
}

impl RetrogradeTable {
    /// Largest number of segments accepted by [`RetrogradeTable::build`] (2^30 bytes = 1 GiB).
    pub const MAX_SEGMENTS: usize = 30;

    /// Builds the table for `geometry`; `None` if it has more than
    /// [`RetrogradeTable::MAX_SEGMENTS`] segments.
    #[must_use]
    pub fn build(geometry: &Geometry) -> Option<Self> {
        let k = geometry.segments().len();
        if k > Self::MAX_SEGMENTS {
            return None;
        }
        // For each segment, the masks of the triangles it borders; a rim segment's missing
        // second triangle becomes `u64::MAX`, which no set of at most 63 segments contains.
        let borders: Vec<[u64; 2]> = (0..k)
            .map(|s| {
                let [m0, m1] = geometry.border(s).masks;
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

    /// The value of the remaining play of `pos` from its side to move.
    #[must_use]
    pub fn value(&self, pos: &Position) -> i64 {
        i64::from(self.values[pos.drawn().0 as usize])
    }

    /// The final margin (A minus B) of `pos` under perfect play, counting owned triangles.
    #[must_use]
    pub fn final_margin(&self, pos: &Position) -> i64 {
        pos.margin() + pos.to_move().sign() * self.value(pos)
    }

    /// Who wins `pos` under perfect play.
    #[must_use]
    pub fn outcome(&self, pos: &Position) -> Outcome {
        Outcome::from_margin(self.final_margin(pos))
    }
}
