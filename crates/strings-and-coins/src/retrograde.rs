//! Retrograde analysis over every set of drawn strings (D. Wilson's method for small
//! dots-and-boxes boards, wilson.engr.wisc.edu/boxes): the value of each set, computed once.

use crate::Board;

/// The exact value of the remaining play for every set of drawn strings of a [`Board`], from
/// the side to move (the coins it will still take minus the opponent's): `2^strings` bytes.
///
/// Built by retrograde analysis: a set's successors have more strings and so larger numbers, so
/// scanning the sets from the full board down to the empty one sees every successor first.
/// `value[s] = max over undrawn g of (c > 0 ? c + value[s+g] : -value[s+g])`, where `c` is the
/// number of coins `g` completes (the mover moves again after completing one).
#[derive(Clone, Debug)]
pub struct RetrogradeTable {
    values: Vec<i8>,
}

impl RetrogradeTable {
    /// Most strings accepted by [`RetrogradeTable::build`]: 2^30 bytes = 1 GiB.
    pub const MAX_STRINGS: usize = 30;

    /// Builds the table for `board`; `None` if it has more than
    /// [`RetrogradeTable::MAX_STRINGS`] strings.
    #[must_use]
    pub fn build(board: &Board) -> Option<Self> {
        let k = board.strings();
        if k > Self::MAX_STRINGS {
            return None;
        }
        // For each string, the string sets of the coins it ties; a string to the ground has
        // its missing second coin as `u64::MAX`, which no set of at most 30 strings contains.
        let borders: Vec<[u64; 2]> = (0..k)
            .map(|s| {
                let [m0, m1] = board.border(s).masks;
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

    /// The value of the remaining play of the string set `drawn` (a set of the table's board)
    /// from its side to move. Panics if `drawn` holds a string off the board.
    #[must_use]
    pub fn value(&self, drawn: u64) -> i64 {
        i64::from(self.values[drawn as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain minimax over the undrawn strings, memoised by recursion from the set (not a
    /// scan over the numbers): the independent solver the table is checked against.
    fn minimax(board: &Board, drawn: u64, memo: &mut [Option<i64>]) -> i64 {
        if let Some(v) = memo[drawn as usize] {
            return v;
        }
        let free = board.all_strings() & !drawn;
        let v = (0..board.strings())
            .filter(|&s| free >> s & 1 == 1)
            .map(|s| {
                let c = i64::from(board.completed(drawn, s).count_ones());
                let child = minimax(board, drawn | 1 << s, memo);
                if c > 0 {
                    c + child
                } else {
                    -child
                }
            })
            .max()
            .unwrap_or(0);
        memo[drawn as usize] = Some(v);
        v
    }

    #[test]
    fn agrees_with_minimax_on_1x2_and_2x2() {
        let one_by_two = Board::new(&[0b011_0101, 0b110_1010], 7).unwrap();
        // 2x2 boxes: horizontal lines 0..6 (3 rows of 2), vertical 6..12 (2 rows of 3).
        let boxes: Vec<u64> = (0..2)
            .flat_map(|r| {
                (0..2).map(move |c| {
                    (1u64 << (2 * r + c)) | 1 << (2 * r + c + 2) | 1 << (6 + 3 * r + c) | 1 << (7 + 3 * r + c)
                })
            })
            .collect();
        let two_by_two = Board::new(&boxes, 12).unwrap();
        for board in [one_by_two, two_by_two] {
            let table = RetrogradeTable::build(&board).unwrap();
            let mut memo = vec![None; 1 << board.strings()];
            for drawn in 0..1u64 << board.strings() {
                assert_eq!(table.value(drawn), minimax(&board, drawn, &mut memo), "set {drawn:#b}");
            }
        }
        let two_by_two = Board::new(&boxes, 12).unwrap();
        // Published: 2x2 is +2 for the first player (D. Wilson).
        assert_eq!(RetrogradeTable::build(&two_by_two).unwrap().value(0), 2);
    }
}
