//! Triangle War as a search-core [`Game`], and a [`Solver`] for batches.

use search_core::{
    Analysis, Engine, Game, OneThreadTable, Player, SearchOptions, Stats, Symmetry, Value, INFINITY,
};

use strings_and_coins::Pruning;

use crate::{Geometry, Outcome, Position, SegmentSet};

/// Triangle War on one board, as seen by the search-core engine.
///
/// Moves are segment indices. A move banks the triangles it completes for the mover, who then
/// moves again. The TT key is the drawn set, canonicalised under the triangle's six symmetries
/// (the value of the remaining play does not depend on who owns what).
#[derive(Clone, Debug)]
pub struct TriangleWar {
    geometry: Geometry,
    /// The board's symmetries on drawn sets (canonical keys, TT move hints).
    symmetries: strings_and_coins::Symmetries,
    /// The strings-and-coins rules that [`Game::generate_moves`], [`Game::play`] and the keys
    /// apply.
    rules: Pruning,
    /// Whether [`Game::narrow_key_bits`] offers every key (all 64 bits) to the shared TT's
    /// narrow part ([`TriangleWar::with_narrow_keys`]).
    narrow_keys: bool,
}

impl TriangleWar {
    /// The game on `geometry`.
    #[must_use]
    pub fn new(geometry: Geometry) -> Self {
        Self::with_pruning(geometry, Pruning::ALL)
    }

    /// The game on `geometry`, searched with the pruning `rules`.
    #[must_use]
    pub fn with_pruning(geometry: Geometry, rules: Pruning) -> Self {
        let symmetries = strings_and_coins::Symmetries::with_twins(
            geometry.symmetries(),
            geometry.segments().len(),
            geometry.board().twin_groups(),
        );
        TriangleWar { geometry, symmetries, rules, narrow_keys: true }
    }

    /// The same game with its keys offered to the narrow part of the TT that several threads
    /// share or not. On (the default; `search_core::SharedTable::with_bits_narrow`,
    /// `narrow_key_bits` 64): every `u64` key is narrow, seven to a 64-byte line in the whole
    /// table's memory, in tables of at least 2^23 entries (160 MiB; smaller ones keep the
    /// buckets). Off: two entries to a 40-byte bucket. The values are the same either way;
    /// only the table's capacity and layout change (side-5 openings with 42 segments left, one
    /// thread through the shared table of 2^23 entries: 11% fewer nodes, 12% less CPU; the
    /// one-thread engine's own table has no narrow part).
    #[must_use]
    pub fn with_narrow_keys(self, narrow_keys: bool) -> Self {
        TriangleWar { narrow_keys, ..self }
    }

    /// The pruning rules in force.
    #[must_use]
    pub fn pruning(&self) -> Pruning {
        self.rules
    }

    /// The moves searched in `drawn` under the rules in force, as a segment set: every undrawn
    /// segment, or the subset the pruning rules keep (a single segment for a forced capture):
    /// [`strings_and_coins::Board::candidates`] on the triangles.
    #[inline]
    #[must_use]
    pub fn candidates(&self, drawn: u64) -> u64 {
        self.geometry.board().candidates(drawn, self.rules)
    }

    /// The graph key of `drawn` ([`Pruning::graph_keys`]), if every open triangle has at most two
    /// undrawn sides and the graph has at most seven components:
    /// [`strings_and_coins::Board::graph_key`] on the triangles (bit 63 set, one byte per
    /// component; drawn sets never set bit 63, at most 63 segments, so the two kinds of key
    /// never meet). The encoding is part of the TT snapshot format: keys saved by one run are
    /// read by the next.
    #[must_use]
    pub fn graph_key(&self, drawn: u64) -> Option<u64> {
        self.geometry.board().graph_key(drawn)
    }

    /// The segment that [`Pruning::fold_forced`] plays next inside [`Game::play`] in `drawn`, if
    /// any: the only candidate the rules leave ([`TriangleWar::candidates`]).
    #[inline]
    #[must_use]
    pub fn folded_move(&self, drawn: u64) -> Option<usize> {
        self.geometry.board().folded_move(drawn, self.rules)
    }

    /// The board.
    #[must_use]
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The smallest image of `drawn` under the six symmetries, and the index (into
    /// [`Geometry::symmetries`]) of a symmetry that gives it.
    #[inline]
    fn canonical_with_symmetry(&self, drawn: SegmentSet) -> (SegmentSet, u8) {
        let (best, symmetry) = if self.rules.twins {
            self.symmetries.canonical_twins(self.geometry.board().normalise_twins(drawn.0))
        } else {
            self.symmetries.canonical(drawn.0)
        };
        (SegmentSet(best), symmetry)
    }

    /// Triangles not yet completed in `pos` (every completed triangle has an owner).
    fn open_triangles(&self, pos: &Position) -> Value {
        let owned = pos.owned(Player::First) | pos.owned(Player::Second);
        (self.geometry.triangles().len() as u32 - owned.count_ones()) as Value
    }
}

impl Game for TriangleWar {
    type Position = Position;
    type Move = u8;
    type Key = u64;

    fn to_move(&self, pos: &Position) -> Player {
        pos.to_move()
    }

    fn terminal_value(&self, pos: &Position) -> Option<Value> {
        pos.is_over(&self.geometry).then_some(0)
    }

    fn generate_moves(&self, pos: &Position, moves: &mut Vec<u8>) {
        moves.extend(SegmentSet(self.candidates(pos.drawn().0)).iter().map(|s| s as u8));
    }

    fn play(&self, pos: &Position, mv: u8) -> (Position, Value) {
        let (mut next, completed) = pos.play(&self.geometry, usize::from(mv));
        let mut gain = Value::from(completed);
        if self.rules.fold_forced {
            // Forced captures keep the turn: they all belong to the player to move in `next`.
            let sign = if next.to_move() == pos.to_move() { 1 } else { -1 };
            // A single candidate is a capture (every restriction keeps one), so the turn stays
            // with the player to move in `next`.
            while let Some(s) = self.folded_move(next.drawn().0) {
                let (after, c) = next.play(&self.geometry, s);
                gain += sign * Value::from(c);
                next = after;
            }
        }
        (next, gain)
    }

    fn key(&self, pos: &Position) -> u64 {
        self.canonical_key(pos).0
    }

    fn canonical_key(&self, pos: &Position) -> (u64, Symmetry) {
        if self.rules.graph_keys {
            if let Some(key) = self.graph_key(pos.drawn().0) {
                // Moves do not map between isomorphic positions: no best move under a graph key.
                return (key, Symmetry::Unmapped);
            }
        }
        let (key, symmetry) = self.canonical_with_symmetry(pos.drawn());
        (key.0, Symmetry::Map(symmetry))
    }

    /// [`Pruning::key_scheme`]: the keys' version and the rules that change them.
    fn key_scheme(&self) -> String {
        self.rules.key_scheme()
    }

    /// 64 with [`TriangleWar::with_narrow_keys`] on, the default (graph keys set bit 63), else 0.
    fn narrow_key_bits(&self) -> u32 {
        if self.narrow_keys {
            64
        } else {
            0
        }
    }

    fn move_to_canonical(&self, mv: u8, symmetry: u8) -> u8 {
        self.symmetries.forward(symmetry, mv)
    }

    fn move_from_canonical(&self, mv: u8, symmetry: u8) -> u8 {
        self.symmetries.inverse(symmetry, mv)
    }

    /// ± the triangles still open; under [`Pruning::loony_values`] the value itself, as both
    /// bounds, in a simple loony endgame ([`strings_and_coins::Board::loony_value`]).
    fn value_bounds(&self, pos: &Position) -> (Value, Value) {
        if self.rules.loony_values {
            if let Some(v) = self.geometry.board().loony_value(pos.drawn().0) {
                return (Value::from(v), Value::from(v));
            }
        }
        let open = self.open_triangles(pos);
        if self.rules.loony_offers && self.geometry.board().loony_offer(pos.drawn().0) {
            // At least 0, of the parity of the open triangles.
            return (open & 1, open);
        }
        (-open, open)
    }

    /// Completing moves first, then moves that give the opponent nothing to complete, then the
    /// sacrifices, those that offer two triangles at once before those that offer one (as
    /// dots-and-boxes orders them: side 4 -3.6% nodes, the empty side 5 -5.3%; `docs/results/`
    /// dots-and-boxes-4x4-3x5.md).
    fn order_moves(&self, pos: &Position, moves: &mut [u8]) {
        let drawn = pos.drawn().0;
        // Score each move (lower first), then sort stably: no allocation per node.
        let mut scores = [0i8; 64];
        for (score, &m) in scores.iter_mut().zip(moves.iter()) {
            let after = drawn | 1 << m;
            let border = self.geometry.border(usize::from(m));
            let completes = border.completed(after).count_ones() as i8;
            // Among non-completing moves: none offered, then two, then one; interior segments
            // (two triangles) before rim segments.
            let rim = i8::from(border.masks[1] == 0);
            let offered = match border.offered(after) {
                0 => 0,
                2 => 1,
                _ => 2,
            };
            *score = if completes > 0 { -completes } else { 2 * offered + rim };
        }
        // Scores are -2..=5: a stable counting sort in one pass per score.
        let mut sorted = [0u8; 64];
        let mut n = 0;
        for target in -2..=5 {
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

/// The engine options Triangle War's solvers start from: one thread keeps both bounds of a
/// position in its TT ([`OneThreadTable::BothBounds`]: positions are searched again with other
/// windows and both results are useful); the workers of a distributed solve keep their search
/// paths to themselves ([`SearchOptions::peer_defer_plies`] 0: on the empty side-5 board the
/// paths save no nodes and cost time, `docs/results/distributed.md`); the rest
/// [`SearchOptions::DEFAULT`].
pub const SEARCH_OPTIONS: SearchOptions = SearchOptions {
    one_thread_table: OneThreadTable::BothBounds,
    peer_defer_plies: 0,
    ..SearchOptions::DEFAULT
};

/// A Triangle War solver for one board: the search-core [`Engine`] with a TT that persists
/// across positions, so a batch of games shares work, on one thread or several
/// (`threads` in [`Solver::with_options`]; same values), and the questions a judge asks of it.
pub struct Solver {
    engine: Engine<TriangleWar>,
}

impl Solver {
    /// A solver for `geometry` with a TT of `2^tt_bits` entries (about 32 bytes each).
    #[must_use]
    pub fn new(geometry: Geometry, tt_bits: u32) -> Self {
        Solver {
            engine: Engine::with_options(
                TriangleWar::new(geometry),
                SearchOptions { tt_bits, ..SEARCH_OPTIONS },
            ),
        }
    }

    /// A solver for `geometry` with the pruning `rules` and the engine's `options` (threads
    /// included).
    #[must_use]
    pub fn with_options(geometry: Geometry, rules: Pruning, options: SearchOptions) -> Self {
        Solver { engine: Engine::with_options(TriangleWar::with_pruning(geometry, rules), options) }
    }

    /// This solver with its keys offered to the shared TT's narrow part or not
    /// ([`TriangleWar::with_narrow_keys`]; a fresh TT, the same options). The old TT is
    /// freed before the new one is allocated: the memory never holds both.
    #[must_use]
    pub fn with_narrow_keys(self, narrow_keys: bool) -> Self {
        let options = self.engine.options();
        let game = self.engine.game().clone().with_narrow_keys(narrow_keys);
        drop(self);
        Solver { engine: Engine::with_options(game, options) }
    }

    /// Statistics of the engine (all threads together).
    #[must_use]
    pub fn stats(&self) -> Stats {
        self.engine.stats()
    }

    /// The final margin of `pos` as [`Solver::final_margin`], by bisection over the margin with
    /// null-window searches (the first search decides who wins; see
    /// [`Engine::solve_bisection`]).
    pub fn final_margin_bisection(&mut self, pos: &Position) -> i64 {
        pos.margin() + pos.to_move().sign() * self.engine.solve_bisection(pos)
    }

    /// The final margin (A's triangles minus B's) of `pos` under perfect play, counting the
    /// triangles already owned.
    pub fn final_margin(&mut self, pos: &Position) -> i64 {
        pos.margin() + pos.to_move().sign() * self.engine.search(pos, -INFINITY, INFINITY)
    }

    /// Who wins `pos` under perfect play (from A's side), by one search with the window of width 2 around the
    /// value that would end level: it fails high (A or B wins, whoever moves), fails low (the
    /// other wins) or returns that value (a draw). On the empty side-4 board this takes the
    /// nodes of one null-window search (1.56 M), where asking "does A win?" and then "does A
    /// at least draw?" took 1.92 M.
    pub fn outcome(&mut self, pos: &Position) -> Outcome {
        // final = margin + sign * v, with v the value for the side to move; level at v = e.
        let (margin, sign) = (pos.margin(), pos.to_move().sign());
        let e = -margin * sign;
        let r = self.engine.search(pos, e - 1, e + 1);
        // Fail-soft: r > e proves v > e, r < e proves v < e, and r == e is exact.
        let above = match r.cmp(&e) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal => 0,
        };
        Outcome::of_value(sign * above)
    }

    /// The value of every move and the principal variation of `pos`, from A's side.
    ///
    /// Every legal move is listed, also where a pruning rule would search only one; values come
    /// from full-window searches sharing the TT.
    pub fn analyze(&mut self, pos: &Position) -> Analysis<u8> {
        let all = TriangleWar::with_pruning(self.engine.game().geometry().clone(), Pruning::NONE);
        let before = self.engine.stats();
        let engine = &mut self.engine;
        let mut a = search_core::analyze_with(&all, pos, |p| engine.search(p, -INFINITY, INFINITY));
        a.stats = self.engine.stats().since(&before);
        a
    }

    /// [`Solver::analyze`] under the engine's limits ([`Solver::set_limits`]).
    ///
    /// # Errors
    /// [`search_core::Interrupted`] when a limit stopped one of its searches.
    pub fn try_analyze(&mut self, pos: &Position) -> Result<Analysis<u8>, search_core::Interrupted> {
        let all = TriangleWar::with_pruning(self.engine.game().geometry().clone(), Pruning::NONE);
        let before = self.engine.stats();
        let engine = &mut self.engine;
        let mut a = search_core::try_analyze_with(&all, pos, |p| engine.try_search(p, -INFINITY, INFINITY))?;
        a.stats = self.engine.stats().since(&before);
        Ok(a)
    }

    /// Sets the limits (stop flag, node budget, time) that [`Solver::solve_root`] and
    /// [`Solver::try_analyze`] obey (see [`Engine::set_limits`]: with several threads the node
    /// budget counts all of them, checked every few thousand nodes of each).
    pub fn set_limits(&mut self, limits: search_core::Limits) {
        self.engine.set_limits(limits);
    }

    /// Solves the non-terminal `pos` move by move at the root under the limits of
    /// [`Solver::set_limits`], from `checkpoint` if given, calling `progress` after every
    /// null-window search ([`Engine::solve_root`]). Values are the engine's, from the side to
    /// move of `pos` (without the triangles already owned).
    ///
    /// # Errors
    /// [`search_core::CheckpointError::WrongPosition`] if `checkpoint`'s moves are not the
    /// legal moves of `pos`.
    pub fn solve_root(
        &mut self,
        pos: &Position,
        checkpoint: Option<search_core::Checkpoint<u8>>,
        exact_all: bool,
        progress: impl FnMut(&search_core::Progress<u8>),
    ) -> Result<search_core::RootResult<u8>, search_core::CheckpointError> {
        self.engine.solve_root(pos, checkpoint, exact_all, progress)
    }

    /// The TT entries whose subtrees took at least `min_work` nodes: what a checkpoint keeps of
    /// the TT ([`Engine::heavy_entries`]).
    #[must_use]
    pub fn heavy_entries(&mut self, min_work: u32) -> Vec<search_core::TtEntry<u64, u8>> {
        self.engine.heavy_entries(min_work)
    }

    /// Stores `entries` (from [`Solver::heavy_entries`] of an earlier run on the same board) in
    /// the TT. Entries are proven bounds on the value of the remaining play, so they hold
    /// whatever [`Pruning`] either run used.
    pub fn seed_tt(&mut self, entries: &[search_core::TtEntry<u64, u8>]) {
        self.engine.seed_tt(entries);
    }

    /// The underlying engine (statistics, raw searches, thread tuning).
    pub fn engine(&mut self) -> &mut Engine<TriangleWar> {
        &mut self.engine
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tt_sizes_round_down_and_oversized_requests_are_refused() {
        // The engine sizes Triangle War's own table (two bounds per entry; shared on threads).
        use search_core::{Engine, TtSizeError};
        let options = |threads| SearchOptions { threads, ..SEARCH_OPTIONS };
        for threads in [1, 2] {
            let bits = Engine::<TriangleWar>::table_bits_for_mib(1536, &options(threads), None).unwrap();
            let bytes =
                Engine::<TriangleWar>::table_bytes(&SearchOptions { tt_bits: bits, ..options(threads) });
            assert!(bytes <= 1536 << 20 && 2 * bytes > 1536 << 20, "{threads} threads: {bytes} bytes");
        }
        assert!(
            search_core::BoundsTable::<u64, u8>::entry_bytes() as u64
                == Engine::<TriangleWar>::table_bytes(&SearchOptions { tt_bits: 0, ..options(1) })
        );
        assert_eq!(
            Engine::<TriangleWar>::table_bits_for_mib(0, &options(1), None),
            Err(TtSizeError::TooSmall { mib: 0 })
        );
        match Engine::<TriangleWar>::table_bits_for_mib(4096, &options(1), Some(1 << 30)) {
            Err(TtSizeError::TooLarge { needed_bytes, .. }) => assert!(needed_bytes > 1 << 30),
            other => panic!("{other:?}"),
        }
    }

    /// The twin-ordered tables give the key of the normalisation applied to every image, and
    /// the same symmetry (`canonical_by` with `normalise_twins`).
    #[test]
    fn canonical_twins_is_canonical_by_normalised_images() {
        for side in 1..=6 {
            let g = Geometry::new(side).unwrap();
            let board = g.board();
            let all = g.all_segments().0;
            let sym = strings_and_coins::Symmetries::with_twins(
                g.symmetries(),
                g.segments().len(),
                board.twin_groups(),
            );
            let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ u64::from(side);
            for _ in 0..4000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let drawn = (x & x >> 3 | x >> 40 & x) & all;
                let drawn = if x & 1 == 1 { drawn } else { !drawn & all };
                assert_eq!(
                    sym.canonical_twins(board.normalise_twins(drawn)),
                    sym.canonical_by(drawn, |d| board.normalise_twins(d)),
                    "side {side} {drawn:#x}"
                );
            }
        }
    }
}
