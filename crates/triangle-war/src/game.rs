//! Triangle War as a search-core [`Game`], and a [`Solver`] for batches.

use search_core::{Analysis, Engine, Game, Player, SearchOptions, Stats, Symmetry, Value, INFINITY};

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
    /// Each triangle's segments, as bits of a segment set.
    triangle_masks: Vec<u64>,
    /// The inverse of each permutation of [`Geometry::symmetries`].
    inverse_symmetries: Vec<Vec<u8>>,
    /// Whether [`Game::generate_moves`] applies the forced-capture rule ([`Rules::capture`]).
    rules: Rules,
}

/// Pruning rules of [`TriangleWar`]: proven value-preserving restrictions of the moves searched.
/// Values are exact with any setting; only the work differs.
///
/// Both rules read the board as strings and coins (E. Berlekamp, *The Dots and Boxes Game*,
/// 2000, ch. 2; J. Barker and R. Korf, "Solving Dots-And-Boxes", AAAI 2012): a triangle is a
/// coin, its undrawn sides are its strings (a rim segment is a string to the ground), and a
/// coin with one string left is *capturable*. Cutting a string completes the coins it leaves
/// with no string, which the mover banks before moving again. The value of the remaining play
/// depends on this graph alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Forced capture: when a capturable coin `C` hangs by its string `s` from the ground, from
    /// a coin `D` with three strings (an untouched triangle), or from a coin `D` that `s` also
    /// completes, drawing `s` at once is optimal and it is the only move searched.
    ///
    /// Proof (by induction on the number of strings; `P` the position, `Q` the position after
    /// `s`, `v` the value for the side to move). The ground and single-string cases change
    /// nothing else, so either player may take them on any later turn. For `D` with three
    /// strings, `v(P) >= 1 + v(Q)` since `s` is legal. Conversely let `t != s` be any other
    /// move. `t` completes the same coins in `P` and `Q` (it cannot complete `D`, which keeps two
    /// strings in `Q`). If `t` completes nothing, the opponent may answer with `s`, so
    /// `val(t) <= -1 - v(Q - t) <= v(Q) - 1`. If `t` completes coins and `D` keeps three strings,
    /// the induction gives `val(t) = g + 1 + v(Q - t) <= 1 + v(Q)`. If `t` completes a coin `E`
    /// through a string of `D`, then `E` hung from `D` as `C` does: drawing `t` in `P` and drawing
    /// `s` in `P` lead to the same strings-and-coins graph with `C` and `E` exchanged, so
    /// `val(t) = val(s)`.
    pub capture: bool,
    /// Capture before sacrificing: while a coin `C` is capturable by its string `s`, every move
    /// that completes nothing is dominated by drawing `s` first, except the double-dealing move
    /// (the other string of `C`'s neighbour `D` when `D` has two strings: it leaves `C` and `D`
    /// as a pair for the opponent). Only `s`, that move and the moves that complete a coin are
    /// searched.
    ///
    /// Proof: let `t` complete nothing and leave `D` with at least two strings. After `t` the
    /// opponent may draw `s` (one coin, and the turn), so `val(t) <= -1 - v(Q - t)`; drawing `s`
    /// then `t` (which still completes nothing in `Q`) is worth `1 - v(Q - t)`, two more.
    pub capture_first: bool,
    /// All but two (Berlekamp): with [`Rules::capture_first`], the double-dealing move at the
    /// open end of a chain of three or more coins is not searched. Let the chain be `C` (open,
    /// string `s` to `D`), `D` (strings `s`, `e`), `F` (strings `e`, `f`), and let `f` complete
    /// nothing. Double-dealing at `C` (drawing `e`) leaves the opponent the pair `C`-`D` and
    /// the open chain from `F`; drawing `s` then `f` banks `C` and leaves the pair `D`-`F` and
    /// the open chain beyond `F`. The opponent facing the first can take `F` and stand where
    /// the second leaves him, one coin up, so the first is worth at least two less.
    pub all_but_two: bool,
    /// A move that the rules leave alone in its position (a forced capture, or a capture that
    /// is the only candidate) is played inside the move that allows it
    /// ([`Game::play`] then draws several segments and returns the net gain of the mover), so
    /// it costs no node, TT probe or entry of its own. A search technique, not a move rule:
    /// games played segment by segment (sessions, the web page) switch it off.
    pub fold_forced: bool,
    /// Graph keys: once no triangle is untouched (every coin has at most two strings), the
    /// strings-and-coins graph is a disjoint union of paths and cycles, and the TT key is the
    /// multiset of its components ([`TriangleWar::graph_key`]) instead of the drawn set, so that
    /// positions with the same chains and loops in different places of the board share one
    /// entry. A keying technique, not a move rule: the value of the remaining play depends on
    /// the graph alone, up to isomorphism, and a path is fixed up to isomorphism by its number
    /// of coins and of ends on the ground, a cycle by its number of coins.
    pub graph_keys: bool,
}

/// Components a graph key holds (one byte each under the flag bit).
const GRAPH_KEY_COMPONENTS: usize = 7;

/// How the coin(s) completed by a capturing segment hang in the strings-and-coins graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hang {
    /// From the rim, from an untouched triangle, or from a triangle the same segment completes:
    /// the forced-capture rule applies.
    Free,
    /// From a triangle with two undrawn sides (a chain); `double_deal` is the move that leaves
    /// the coin and its neighbour as a pair, `None` where [`Rules::all_but_two`] drops it.
    Chain {
        /// The double-dealing move, if it is searched.
        double_deal: Option<usize>,
    },
}

impl Rules {
    /// Every rule on.
    pub const ALL: Rules =
        Rules { capture: true, capture_first: true, all_but_two: true, fold_forced: true, graph_keys: true };
    /// No rule: the plain game tree.
    pub const NONE: Rules = Rules {
        capture: false,
        capture_first: false,
        all_but_two: false,
        fold_forced: false,
        graph_keys: false,
    };
}

impl TriangleWar {
    /// The game on `geometry`.
    #[must_use]
    pub fn new(geometry: Geometry) -> Self {
        Self::with_rules(geometry, Rules::ALL)
    }

    /// The game on `geometry`, searched with the pruning `rules`.
    #[must_use]
    pub fn with_rules(geometry: Geometry, rules: Rules) -> Self {
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
        let triangle_masks = geometry.triangles().iter().map(|t| t.0).collect();
        let inverse_symmetries = geometry
            .symmetries()
            .iter()
            .map(|perm| {
                let mut inverse = vec![0; perm.len()];
                for (s, &image) in perm.iter().enumerate() {
                    inverse[usize::from(image)] = s as u8;
                }
                inverse
            })
            .collect();
        TriangleWar { geometry, sym_tables, bytes, triangle_masks, inverse_symmetries, rules }
    }

    /// The pruning rules in force.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The undrawn segments that complete at least one triangle of `drawn`.
    #[inline]
    fn capturing(&self, drawn: u64) -> u64 {
        self.triangle_masks.iter().fold(0, |acc, &t| {
            let open = t & !drawn;
            // Exactly one bit, without a population count (slow where the CPU has none).
            if open != 0 && open & (open - 1) == 0 {
                acc | open
            } else {
                acc
            }
        })
    }

    /// How the triangle(s) a capturing segment `s` completes hang (see [`Hang`]).
    #[inline]
    fn hang(&self, drawn: u64, s: usize) -> Hang {
        let [m0, m1] = self.geometry.border(s).masks;
        let (open0, open1) = (m0 & !drawn, m1 & !drawn);
        let neighbour = match (open0.count_ones(), open1.count_ones()) {
            (1, 2) => m1,
            (2, 1) => m0,
            _ => return Hang::Free,
        };
        let e = (neighbour & !drawn & !(1 << s)).trailing_zeros() as usize;
        if self.rules.all_but_two && self.chain_continues(drawn, e, neighbour) {
            Hang::Chain { double_deal: None }
        } else {
            Hang::Chain { double_deal: Some(e) }
        }
    }

    /// The triangle on the other side of segment `seg` from the triangle `mask` (0: the rim).
    #[inline]
    fn across(&self, seg: usize, mask: u64) -> u64 {
        let [a, b] = self.geometry.border(seg).masks;
        if a == mask {
            b
        } else {
            a
        }
    }

    /// Whether the chain goes on past the double-dealing move `e` of the neighbour `d_mask`: the
    /// triangle across `e` has two undrawn sides, and its other undrawn side `f` completes
    /// nothing else (across `f` lies the rim or a triangle with at least two undrawn sides).
    #[inline]
    fn chain_continues(&self, drawn: u64, e: usize, d_mask: u64) -> bool {
        let f_mask = self.across(e, d_mask);
        let f_open = f_mask & !drawn;
        if f_mask == 0 || f_open.count_ones() != 2 {
            return false;
        }
        let f = (f_open & !(1 << e)).trailing_zeros() as usize;
        let z_mask = self.across(f, f_mask);
        z_mask == 0 || (z_mask & !drawn).count_ones() != 1
    }

    /// The moves searched in `drawn` under the rules in force, as a segment set: every undrawn
    /// segment, or the subset the pruning rules keep (a single segment for a forced capture).
    #[inline]
    #[must_use]
    pub fn candidates(&self, drawn: u64) -> u64 {
        let free = self.geometry.all_segments().0 & !drawn;
        let mut candidates = free;
        if self.rules.capture || self.rules.capture_first {
            let capturing = self.capturing(drawn);
            for s in SegmentSet(capturing).iter() {
                let double_deal = match self.hang(drawn, s) {
                    Hang::Free if self.rules.capture => return 1 << s,
                    Hang::Free => None,
                    Hang::Chain { double_deal } => double_deal,
                };
                // Any capturable coin gives a valid restriction: prefer one whose chain needs
                // no double-dealing move.
                if self.rules.capture_first && (candidates == free || double_deal.is_none()) {
                    candidates = capturing | double_deal.map_or(0, |e| 1 << e);
                }
            }
        }
        candidates
    }

    /// The graph key of `drawn` ([`Rules::graph_keys`]), if every open triangle has at most two
    /// undrawn sides and the graph has at most seven components: bit 63 set, then one byte per
    /// component, largest first, `kind << 6 | coins` with `kind` 0, 1 or 2 for a path with that
    /// many ends on the ground (a path end off the ground is a capturable coin) and 3 for a
    /// cycle. Drawn sets never set bit 63 (at most 63 segments), so the two kinds of key never
    /// meet. The encoding is part of the TT snapshot format: keys saved by one run are read by
    /// the next.
    #[must_use]
    pub fn graph_key(&self, drawn: u64) -> Option<u64> {
        let mut open_coins = 0u64;
        for (i, &t) in self.triangle_masks.iter().enumerate() {
            let open = t & !drawn;
            if open == t {
                return None;
            }
            if open != 0 {
                open_coins |= 1 << i;
            }
        }
        let mut codes = [0u8; GRAPH_KEY_COMPONENTS];
        let mut n = 0;
        let mut left = open_coins;
        while left != 0 {
            if n == GRAPH_KEY_COMPONENTS {
                return None;
            }
            // The component of the first coin left: its coins, strings to the ground and coins
            // with a single string (the capturable ends of a path).
            let (mut component, mut todo, mut ground, mut ends) =
                (0u64, left & left.wrapping_neg(), 0u32, 0u32);
            while todo != 0 {
                let c = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                component |= 1 << c;
                let strings = self.triangle_masks[c] & !drawn;
                ends += u32::from(strings & (strings - 1) == 0);
                for s in SegmentSet(strings).iter() {
                    let b = self.geometry.border(s);
                    if b.masks[1] == 0 {
                        ground += 1;
                    } else {
                        todo |= (b.bits[0] | b.bits[1]) & !component;
                    }
                }
            }
            left &= !component;
            let kind = if ground + ends == 0 { 3 } else { ground as u8 };
            codes[n] = kind << 6 | component.count_ones() as u8;
            n += 1;
        }
        codes[..n].sort_unstable_by(|a, b| b.cmp(a));
        Some(codes[..n].iter().enumerate().fold(1 << 63, |key, (i, &c)| key | u64::from(c) << (8 * i)))
    }

    /// The segment that [`Rules::fold_forced`] plays next inside [`Game::play`] in `drawn`, if
    /// any: the only candidate the rules leave ([`TriangleWar::candidates`]).
    #[inline]
    #[must_use]
    pub fn folded_move(&self, drawn: u64) -> Option<usize> {
        let only = self.candidates(drawn);
        (only != 0 && only & (only - 1) == 0).then(|| only.trailing_zeros() as usize)
    }

    /// The board.
    #[must_use]
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The smallest image of `drawn` under the six symmetries.
    #[must_use]
    pub fn canonical(&self, drawn: SegmentSet) -> SegmentSet {
        self.canonical_with_symmetry(drawn).0
    }

    /// The smallest image of `drawn` under the six symmetries, and the index (into
    /// [`Geometry::symmetries`]) of a symmetry that gives it.
    #[inline]
    fn canonical_with_symmetry(&self, drawn: SegmentSet) -> (SegmentSet, u8) {
        let (mut best, mut symmetry) = (drawn.0, 0);
        for (i, t) in self.sym_tables.iter().enumerate() {
            let mut image = 0;
            for (byte, table) in t.iter().enumerate().take(self.bytes) {
                image |= table[(drawn.0 >> (8 * byte)) as usize & 0xff];
            }
            if image < best {
                (best, symmetry) = (image, i as u8 + 1);
            }
        }
        (SegmentSet(best), symmetry)
    }

    /// Triangles not yet completed in `pos` (every completed triangle has an owner).
    fn open_triangles(&self, pos: &Position) -> Value {
        let owned = pos.owned(Player::First) | pos.owned(Player::Second);
        (self.triangle_masks.len() as u32 - owned.count_ones()) as Value
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

    fn move_to_canonical(&self, mv: u8, symmetry: u8) -> u8 {
        self.geometry.symmetries()[usize::from(symmetry)][usize::from(mv)]
    }

    fn move_from_canonical(&self, mv: u8, symmetry: u8) -> u8 {
        self.inverse_symmetries[usize::from(symmetry)][usize::from(mv)]
    }

    fn value_bounds(&self, pos: &Position) -> (Value, Value) {
        let open = self.open_triangles(pos);
        (-open, open)
    }

    /// Completing moves first, then moves that give the opponent nothing to complete, then the
    /// rest, fewest triangles offered first.
    fn order_moves(&self, pos: &Position, moves: &mut [u8]) {
        let drawn = pos.drawn().0;
        // Score each move (lower first), then sort stably: no allocation per node.
        let mut scores = [0i8; 64];
        for (score, &m) in scores.iter_mut().zip(moves.iter()) {
            let after = drawn | 1 << m;
            let border = self.geometry.border(usize::from(m));
            let completes = border.completed(after).count_ones() as i8;
            // Among non-completing moves: fewest triangles offered first, interior segments
            // (two triangles) before rim segments.
            let rim = i8::from(border.masks[1] == 0);
            *score = if completes > 0 { -completes } else { 2 * border.offered(after) as i8 + rim };
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

/// A Triangle War solver for one board: the search-core [`Engine`] with a TT that persists
/// across positions, so a batch of games shares work, on one thread or several
/// ([`Solver::with_threads`]; same values), and the questions a judge asks of it.
pub struct Solver {
    engine: Engine<TriangleWar>,
}

impl Solver {
    /// A solver for `geometry` with a TT of `2^tt_bits` entries (about 32 bytes each).
    #[must_use]
    pub fn new(geometry: Geometry, tt_bits: u32) -> Self {
        Solver { engine: Engine::new(TriangleWar::new(geometry), tt_bits) }
    }

    /// A solver for `geometry` with the pruning `rules` and the engine's `options` (threads
    /// included).
    #[must_use]
    pub fn with_options(geometry: Geometry, rules: Rules, options: SearchOptions) -> Self {
        Solver { engine: Engine::with_options(TriangleWar::with_rules(geometry, rules), options) }
    }

    /// This solver searching on `threads` threads with `options` (a fresh TT).
    #[must_use]
    pub fn with_threads(self, threads: usize, options: SearchOptions) -> Self {
        let game = self.engine.game().clone();
        Solver { engine: Engine::with_options(game, SearchOptions { threads, ..options }) }
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

    /// Who wins `pos` under perfect play, by one search with the window of width 2 around the
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
        Outcome::from_margin(sign * above)
    }

    /// The value of every move and the principal variation of `pos`, from A's side.
    ///
    /// Every legal move is listed, also where a pruning rule would search only one; values come
    /// from full-window searches sharing the TT.
    pub fn analyze(&mut self, pos: &Position) -> Analysis<u8> {
        let all = TriangleWar::with_rules(self.engine.game().geometry().clone(), Rules::NONE);
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
        let all = TriangleWar::with_rules(self.engine.game().geometry().clone(), Rules::NONE);
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
    /// whatever [`Rules`] either run used.
    pub fn seed_tt(&mut self, entries: &[search_core::TtEntry<u64, u8>]) {
        self.engine.seed_tt(entries);
    }

    /// The underlying engine (statistics, raw searches, thread tuning).
    pub fn engine(&mut self) -> &mut Engine<TriangleWar> {
        &mut self.engine
    }
}

/// A TT size request that cannot be met.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TtSizeError {
    /// The request is below one bucket.
    #[error("a TT of {mib} MiB is too small: at least 1 MiB is needed")]
    TooSmall {
        /// The requested size in MiB.
        mib: u64,
    },
    /// The table would not fit the memory available.
    #[error("a TT of {mib} MiB needs {needed_bytes} bytes, but only {available_bytes} bytes are available")]
    TooLarge {
        /// The requested size in MiB.
        mib: u64,
        /// Bytes the table would allocate.
        needed_bytes: u64,
        /// Bytes available (as measured by the caller).
        available_bytes: u64,
    },
}

/// Bytes one TT entry of the Triangle War engine takes.
#[must_use]
pub fn tt_entry_bytes() -> u64 {
    search_core::TranspositionTable::<u64, u8>::entry_bytes() as u64
}

/// The largest TT (as `tt_bits`, `2^tt_bits` entries) that fits in `mib` MiB, checked before
/// anything is allocated against `available_bytes` (the caller measures it, e.g. from
/// `/proc/meminfo`; `None`: unchecked).
///
/// # Errors
/// [`TtSizeError::TooSmall`] below 1 MiB; [`TtSizeError::TooLarge`] if the table would need
/// more than `available_bytes`.
pub fn tt_bits_for_mib(mib: u64, available_bytes: Option<u64>) -> Result<u32, TtSizeError> {
    if mib == 0 {
        return Err(TtSizeError::TooSmall { mib });
    }
    let entries = mib.saturating_mul(1 << 20) / tt_entry_bytes();
    let bits = (63 - entries.leading_zeros()).min(search_core::MAX_TT_BITS);
    let needed_bytes = (1u64 << bits) * tt_entry_bytes();
    match available_bytes {
        Some(available_bytes) if needed_bytes > available_bytes => {
            Err(TtSizeError::TooLarge { mib, needed_bytes, available_bytes })
        }
        _ => Ok(bits),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tt_sizes_round_down_and_oversized_requests_are_refused() {
        let bits = tt_bits_for_mib(1536, None).unwrap();
        assert!((1u64 << bits) * tt_entry_bytes() <= 1536 << 20);
        assert!((2u64 << bits) * tt_entry_bytes() > 1536 << 20);
        assert_eq!(tt_bits_for_mib(0, None), Err(TtSizeError::TooSmall { mib: 0 }));
        match tt_bits_for_mib(4096, Some(1 << 30)) {
            Err(TtSizeError::TooLarge { needed_bytes, .. }) => assert!(needed_bytes > 1 << 30),
            other => panic!("{other:?}"),
        }
    }
}
