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
        TriangleWar { geometry, sym_tables, bytes }
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

    /// Triangles not yet completed in `pos`, from the drawn set alone (the owner fields are
    /// history and not part of the TT key).
    fn open_triangles(&self, pos: &Position) -> Value {
        self.geometry.triangles().iter().filter(|&&t| !pos.drawn.contains_all(t)).count() as Value
    }
}

impl Game for TriangleWar {
    type Position = Position;
    type Move = u8;
    type Key = u64;

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

    fn play(&self, pos: &Position, mv: u8) -> (Position, Value) {
        let (next, completed) = pos.play(&self.geometry, usize::from(mv));
        (next, Value::from(completed))
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
            let border = self.geometry.border(usize::from(m));
            let completes = border.completed(after).count_ones() as i8;
            *score = if completes > 0 { -completes } else { border.offered(after) as i8 };
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
