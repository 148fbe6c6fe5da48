//! Triangle War as a search-core [`Game`], and a [`Solver`] for batches.

use search_core::{Analysis, Game, Player, Value};

use crate::{Geometry, Outcome, Position, SegmentSet};

/// Triangle War on one board, as seen by the search-core engine.
///
/// Moves are segment indices. A move banks the triangles it completes for the mover, who then
/// moves again. The TT key is the drawn set, canonicalised under the triangle's six symmetries
/// (the value of the remaining play does not depend on who owns what).
#[derive(Clone, Debug)]
pub struct TriangleWar {
    geometry: Geometry,
    /// For each segment, the segment sets of the triangles it borders; a rim segment's missing
    /// second triangle is `u64::MAX`, never completed nor one segment short.
    borders: Vec<[u64; 2]>,
    /// For each segment, the owner-bitboard bits of those triangles (0 for a missing one).
    border_bits: Vec<[u64; 2]>,
    /// For each symmetry and each byte of a segment set, the image of that byte's bits.
    sym_tables: Vec<[[u64; 256]; 8]>,
    bytes: usize,
}

impl TriangleWar {
    /// The game on `geometry`.
    #[must_use]
    pub fn new(geometry: Geometry) -> Self {
        let bytes = geometry.segments().len().div_ceil(8);
        let sym_tables = geometry
            .symmetries()
            .iter()
            .skip(1)
            .map(|perm| {
                let mut t = [[0u64; 256]; 8];
                for (byte, table) in t.iter_mut().enumerate().take(bytes) {
                    for (v, image) in table.iter_mut().enumerate() {
                        for bit in 0..8 {
                            let s = byte * 8 + bit;
                            if v >> bit & 1 == 1 && s < perm.len() {
                                *image |= 1 << perm[s];
                            }
                        }
                    }
                }
                t
            })
            .collect();
        let borders = (0..geometry.segments().len())
            .map(|s| {
                let b = geometry.borders(s);
                [b[0].1 .0, b.get(1).map_or(u64::MAX, |t| t.1 .0)]
            })
            .collect();
        let border_bits = (0..geometry.segments().len())
            .map(|s| {
                let b = geometry.borders(s);
                [1 << b[0].0, b.get(1).map_or(0, |t| 1 << t.0)]
            })
            .collect();
        TriangleWar { geometry, borders, border_bits, sym_tables, bytes }
    }

    /// The board.
    #[must_use]
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The smallest image of `drawn` under the six symmetries.
    #[must_use]
    pub fn canonical(&self, drawn: SegmentSet) -> SegmentSet {
        let mut best = drawn.0;
        for t in &self.sym_tables {
            let mut image = 0;
            for (byte, table) in t.iter().enumerate().take(self.bytes) {
                image |= table[(drawn.0 >> (8 * byte)) as usize & 0xff];
            }
            best = best.min(image);
        }
        SegmentSet(best)
    }

    /// Triangles still open (not owned by anyone) in `pos`.
    fn open_triangles(&self, pos: &Position) -> Value {
        Value::from(self.geometry.triangles().len() as u32 - (pos.owned_by_a | pos.owned_by_b).count_ones())
    }
}

impl Game for TriangleWar {
    type Position = Position;
    type Move = u8;

    fn to_move(&self, pos: &Position) -> Player {
        pos.to_move
    }

    fn terminal_value(&self, pos: &Position) -> Option<Value> {
        pos.is_over(&self.geometry).then_some(0)
    }

    fn generate_moves(&self, pos: &Position, moves: &mut Vec<u8>) {
        let free = SegmentSet(self.geometry.all_segments().0 & !pos.drawn.0);
        moves.extend(free.iter().map(|s| s as u8));
    }

    /// Same as [`Position::play`], from the precomputed border tables.
    fn play(&self, pos: &Position, mv: u8) -> (Position, Value) {
        let s = usize::from(mv);
        let drawn = pos.drawn.0 | 1 << s;
        let ([t0, t1], [b0, b1]) = (self.borders[s], self.border_bits[s]);
        let won = if drawn & t0 == t0 { b0 } else { 0 } | if drawn & t1 == t1 { b1 } else { 0 };
        let mut next = Position { drawn: SegmentSet(drawn), ..*pos };
        if won == 0 {
            next.to_move = pos.to_move.opponent();
        } else if pos.to_move == Player::First {
            next.owned_by_a |= won;
        } else {
            next.owned_by_b |= won;
        }
        (next, Value::from(won.count_ones()))
    }

    fn key(&self, pos: &Position) -> u64 {
        self.canonical(pos.drawn).0
    }

    fn value_bounds(&self, pos: &Position) -> (Value, Value) {
        let open = self.open_triangles(pos);
        (-open, open)
    }

    /// Completing moves first, then moves that give the opponent nothing to complete, then the
    /// rest, fewest triangles offered first.
    fn order_moves(&self, pos: &Position, moves: &mut [u8]) {
        let drawn = pos.drawn.0;
        // Score each move (lower first), then sort stably: no allocation per node.
        let mut scores = [0i8; 64];
        for (score, &m) in scores.iter_mut().zip(moves.iter()) {
            let after = drawn | 1 << m;
            let [t0, t1] = self.borders[usize::from(m)];
            let (left0, left1) = ((t0 & !after).count_ones(), (t1 & !after).count_ones());
            let completes = i8::from(left0 == 0) + i8::from(left1 == 0);
            let offers = i8::from(left0 == 1) + i8::from(left1 == 1);
            *score = if completes > 0 { -completes } else { offers };
        }
        // Scores are -2..=2: a stable counting sort in one pass per score.
        let mut sorted = [0u8; 64];
        let mut n = 0;
        for target in -2..=2 {
            for (&m, &sc) in moves.iter().zip(scores.iter()) {
                if sc == target {
                    sorted[n] = m;
                    n += 1;
                }
            }
        }
        moves.copy_from_slice(&sorted[..moves.len()]);
    }

    fn banked(&self, pos: &Position) -> Value {
        pos.margin()
    }
}

/// A Triangle War solver for one board: the search-core engine with a TT that persists across
/// positions, so a batch of games shares work.
pub struct Solver {
    inner: search_core::Solver<TriangleWar>,
}

impl Solver {
    /// A solver for `geometry` with a TT of `2^tt_bits` entries (about 32 bytes each).
    #[must_use]
    pub fn new(geometry: Geometry, tt_bits: u32) -> Self {
        Solver { inner: search_core::Solver::new(TriangleWar::new(geometry), tt_bits) }
    }

    /// The final margin (A's triangles minus B's) of `pos` under perfect play, counting the
    /// triangles already owned.
    pub fn final_margin(&mut self, pos: &Position) -> i64 {
        pos.margin() + pos.to_move.sign() * self.inner.solve(pos)
    }

    /// Who wins `pos` under perfect play, by null-window searches (cheaper than the exact
    /// margin): is the final margin above 0, and if not, below 0?
    pub fn outcome(&mut self, pos: &Position) -> Outcome {
        // final = margin + sign * v, with v the value for the side to move.
        let (margin, sign) = (pos.margin(), pos.to_move.sign());
        // "final > t" as a question on v.
        let mut final_exceeds = |t: i64| {
            if sign == 1 {
                self.inner.value_exceeds(pos, t - margin)
            } else {
                !self.inner.value_exceeds(pos, margin - t - 1)
            }
        };
        if final_exceeds(0) {
            Outcome::AWins
        } else if final_exceeds(-1) {
            Outcome::Draw
        } else {
            Outcome::BWins
        }
    }

    /// The value of every move and the principal variation of `pos`, from A's side.
    pub fn analyze(&mut self, pos: &Position) -> Analysis<u8> {
        self.inner.analyze(pos)
    }

    /// The underlying engine (statistics, raw searches).
    pub fn engine(&mut self) -> &mut search_core::Solver<TriangleWar> {
        &mut self.inner
    }
}
