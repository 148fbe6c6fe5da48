//! Dots-and-boxes as a search-core [`Game`], and a [`Solver`] for batches.

use search_core::{Analysis, Engine, Game, OneThreadTable, Player, SearchOptions, Stats, Symmetry, Value};

use strings_and_coins::Pruning;

use crate::{Geometry, Position};

/// Dots-and-boxes on one board, as seen by the search-core engine.
///
/// Moves are line indices (OpenSpiel's action ids). A move banks the boxes it completes for the
/// mover, who then moves again; values are the boxes the side to move will still take minus
/// the opponent's. The TT key is the drawn set canonicalised under the rectangle's symmetries
/// (4, or 8 on a square board); under [`Pruning::graph_keys`] it is the split key
/// (`Board::split_graph`): the junction part canonicalised the same way, with the simple
/// components' code (7 bits a component, [`DotsAndBoxes::narrow_key_bits`]) right above the
/// board's lines.
#[derive(Clone, Debug)]
pub struct DotsAndBoxes {
    geometry: Geometry,
    /// The board's symmetries on line sets (canonical keys, TT move hints).
    symmetries: strings_and_coins::Symmetries,
    /// The strings-and-coins rules that [`Game::generate_moves`], [`Game::play`] and the keys
    /// apply.
    rules: Pruning,
    /// Each line's rank by the distance of its midpoint from the centre of the board (0 the
    /// nearest), for move ordering.
    centre_rank: [u8; 64],
    /// The line of each centre rank (the inverse of `centre_rank`).
    by_rank: [u8; 64],
    /// The boxes of every row but the last, as coin bits.
    all_but_last_row: u64,
    /// The boxes of the first row but its last box (a row's boxes tied to the box on their
    /// right).
    row_but_last: u64,
    /// The index of the first vertical line.
    first_vertical: usize,
    /// Whether the shared TT keeps the small keys in its narrow part
    /// ([`DotsAndBoxes::narrow_key_bits`]; [`DotsAndBoxes::with_narrow_keys`]).
    narrow_keys: bool,
}

impl DotsAndBoxes {
    /// The game on `geometry`, with every pruning rule ([`Pruning::ALL`]).
    #[must_use]
    pub fn new(geometry: Geometry) -> Self {
        Self::with_pruning(geometry, Pruning::ALL)
    }

    /// The same game with the shared TT's narrow part on (the default) or off: off, every key
    /// goes to the shared table's `u128` lines, as before the narrow part, for measuring it
    /// (`growth --no-narrow`). Values do not depend on it.
    #[must_use]
    pub fn with_narrow_keys(self, on: bool) -> Self {
        DotsAndBoxes { narrow_keys: on, ..self }
    }

    /// The game on `geometry`, searched with the pruning `rules` (values do not depend on them).
    #[must_use]
    pub fn with_pruning(geometry: Geometry, rules: Pruning) -> Self {
        let symmetries = strings_and_coins::Symmetries::with_twins(
            geometry.symmetries(),
            geometry.line_count(),
            geometry.board().twin_groups(),
        );
        // Midpoints in half units: a horizontal line at (2 row, 2 col + 1), a vertical one at
        // (2 row + 1, 2 col); the centre at (rows, cols). Squared distances, ranked.
        let distance = |l: &crate::Line| {
            let (y, x) = match l.orientation {
                crate::Orientation::Horizontal => (2 * l.row, 2 * l.col + 1),
                crate::Orientation::Vertical => (2 * l.row + 1, 2 * l.col),
            };
            let (dy, dx) = (y.abs_diff(geometry.rows()), x.abs_diff(geometry.cols()));
            dy * dy + dx * dx
        };
        let mut order: Vec<usize> = (0..geometry.line_count()).collect();
        order.sort_by_key(|&i| (distance(&geometry.lines()[i]), i));
        let (mut centre_rank, mut by_rank) = ([0u8; 64], [0u8; 64]);
        for (rank, &i) in order.iter().enumerate() {
            centre_rank[i] = rank as u8;
            by_rank[rank] = i as u8;
        }
        let (rows, cols) = (geometry.rows(), geometry.cols());
        let all_but_last_row = geometry.all_boxes() >> cols;
        let row_but_last = (1u64 << (cols - 1)) - 1;
        let first_vertical = (rows + 1) * cols;
        DotsAndBoxes {
            geometry,
            symmetries,
            rules,
            centre_rank,
            by_rank,
            all_but_last_row,
            row_but_last,
            first_vertical,
            narrow_keys: true,
        }
    }

    /// The pruning rules in force.
    #[must_use]
    pub fn pruning(&self) -> Pruning {
        self.rules
    }

    /// The board.
    #[must_use]
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The moves searched in `drawn` under the rules in force, as a line set
    /// ([`strings_and_coins::Board::candidates`] on the boxes).
    #[inline]
    #[must_use]
    pub fn candidates(&self, drawn: u64) -> u64 {
        self.geometry.board().candidates(drawn, self.rules)
    }

    /// The line that [`Pruning::fold_forced`] plays next inside [`Game::play`] in `drawn`, if
    /// any ([`strings_and_coins::Board::folded_move`]).
    #[inline]
    #[must_use]
    pub fn folded_move(&self, drawn: u64) -> Option<usize> {
        self.geometry.board().folded_move(drawn, self.rules)
    }

    /// The smallest image of the line set `drawn` under the board's symmetries.
    #[must_use]
    pub fn canonical(&self, drawn: u64) -> u64 {
        self.symmetries.canonical(drawn).0
    }

    /// The smallest image of `drawn` and the index (into [`Geometry::symmetries`]) of a
    /// symmetry that gives it.
    #[inline]
    fn canonical_with_symmetry(&self, drawn: u64) -> (u64, u8) {
        if self.rules.twins {
            self.symmetries.canonical_twins(self.geometry.board().normalise_twins(drawn))
        } else {
            self.symmetries.canonical(drawn)
        }
    }
}

impl DotsAndBoxes {
    /// [`strings_and_coins::Board::split_graph_with`] on the grid: the same junction part and
    /// code, with the boxes tied to a junction found by a flood fill over the whole board at
    /// once (shifts along the rows and columns through the undrawn inner lines) instead of a
    /// walk of each component, so that only the simple components are walked, and nothing
    /// when there is none (the usual case in the middle game).
    #[inline]
    fn split_graph(&self, drawn: u64, classes: strings_and_coins::CoinClasses) -> Option<(u64, u64)> {
        let low = classes.one | classes.two;
        if low == 0 {
            return Some((drawn, 0));
        }
        let (rows, cols) = (self.geometry.rows(), self.geometry.cols());
        let undrawn = !drawn;
        // Box `b` tied to `b + cols` below it, and to `b + 1` on its right, by an undrawn line.
        let down = (undrawn >> cols) & self.all_but_last_row;
        let mut right = 0u64;
        for r in 0..rows {
            right |=
                ((undrawn >> (self.first_vertical + r * (cols + 1) + 1)) & self.row_but_last) << (r * cols);
        }
        let neighbours =
            |x: u64| ((x & right) << 1) | ((x >> 1) & right) | ((x & down) << cols) | ((x >> cols) & down);
        // The low boxes tied to a junction, through low boxes.
        let mut tied = low & neighbours(classes.many);
        loop {
            let more = tied | (low & neighbours(tied));
            if more == tied {
                break;
            }
            tied = more;
        }
        let mut simple = low & !tied;
        let result = if simple == 0 {
            Some((drawn, 0))
        } else {
            let board = self.geometry.board();
            let ground_strings = board.ground_strings();
            let mut codes = [0u8; strings_and_coins::GRAPH_KEY_COMPONENTS];
            let (mut n, mut hidden) = (0, 0u64);
            while simple != 0 {
                let mut component = simple & simple.wrapping_neg();
                loop {
                    let more = component | (simple & neighbours(component));
                    if more == component {
                        break;
                    }
                    component = more;
                }
                simple &= !component;
                let (mut strings_of, mut left) = (0u64, component);
                while left != 0 {
                    strings_of |= board.coins()[left.trailing_zeros() as usize];
                    left &= left - 1;
                }
                strings_of &= undrawn;
                let coins = component.count_ones();
                if n == strings_and_coins::GRAPH_KEY_COMPONENTS || coins > 63 {
                    return None;
                }
                // Ends: boxes with one side left; a rim line belongs to one box only.
                let ground = (strings_of & ground_strings).count_ones();
                let ends = (component & classes.one).count_ones();
                codes[n] = strings_and_coins::component_code(ground, ends, coins);
                n += 1;
                hidden |= strings_of;
            }
            Some((drawn | hidden, strings_and_coins::components_key(&mut codes[..n])))
        };
        debug_assert_eq!(result, self.geometry.board().split_graph_with(drawn, classes));
        result
    }
}

/// The split key's components code ([`strings_and_coins::components_key`]: a byte a simple
/// component, `kind << 6 | coins`, at most 7) in 7 bits a component, `kind << 5 | coins`, field
/// `i` at bit `7 i`: on a board of at most 64 lines a component has at most 25 coins, so bit 5
/// of every byte is clear. The key `code << lines | junction` then stays below `2^64` for a
/// position with few components ([`DotsAndBoxes::narrow_key_bits`]).
#[inline]
fn dense_code(code: u64) -> u64 {
    debug_assert_eq!(code & 0x2020_2020_2020_2020, 0, "a component of 32 coins or more");
    debug_assert_eq!(code >> 56, 0, "at most 7 components");
    // Each byte to 7 bits: the kind down by one bit onto the clear bit 5.
    let w = (code & 0x1F1F_1F1F_1F1F_1F1F) | ((code >> 1) & 0x6060_6060_6060_6060);
    // Then the bytes packed: pairs into 14 bits, fours into 28, the two halves into 56.
    let w = (w & 0x007F_007F_007F_007F) | ((w & 0x7F00_7F00_7F00_7F00) >> 1);
    let w = (w & 0x0000_3FFF_0000_3FFF) | ((w & 0x3FFF_0000_3FFF_0000) >> 2);
    (w & 0x0FFF_FFFF) | ((w >> 32) << 28)
}

impl Game for DotsAndBoxes {
    type Position = Position;
    type Move = u8;
    type Key = u128;

    fn to_move(&self, pos: &Position) -> Player {
        pos.to_move()
    }

    fn terminal_value(&self, pos: &Position) -> Option<Value> {
        pos.is_over(&self.geometry).then_some(0)
    }

    fn generate_moves(&self, pos: &Position, moves: &mut Vec<u8>) {
        let classes = pos.coin_classes(&self.geometry);
        let mut c = self.geometry.board().candidates_with(pos.drawn(), classes, self.rules);
        while c != 0 {
            moves.push(c.trailing_zeros() as u8);
            c &= c - 1;
        }
    }

    fn play(&self, pos: &Position, mv: u8) -> (Position, Value) {
        let (mut next, completed) = pos.play(&self.geometry, usize::from(mv));
        let mut gain = Value::from(completed);
        if self.rules.fold_forced {
            // A single candidate is a capture (every restriction keeps one): the boxes go to
            // the player to move in `next`.
            let sign = if next.to_move() == pos.to_move() { 1 } else { -1 };
            let board = self.geometry.board();
            while let Some(s) =
                board.folded_move_with(next.drawn(), next.coin_classes(&self.geometry), self.rules)
            {
                let (after, c) = next.play(&self.geometry, s);
                gain += sign * Value::from(c);
                next = after;
            }
        }
        (next, gain)
    }

    fn key(&self, pos: &Position) -> u128 {
        self.canonical_key(pos).0
    }

    fn canonical_key(&self, pos: &Position) -> (u128, Symmetry) {
        let drawn = pos.drawn();
        if self.rules.graph_keys {
            let classes = pos.coin_classes(&self.geometry);
            if let Some((junction, code)) = self.split_graph(drawn, classes) {
                let code = u128::from(dense_code(code)) << self.geometry.line_count();
                if junction == self.geometry.all_lines() {
                    // An endgame of chains and loops: moves do not map between isomorphic
                    // positions, so no best move under this key.
                    return (code | u128::from(junction), Symmetry::Unmapped);
                }
                let (key, symmetry) = self.canonical_with_symmetry(junction);
                return (code | u128::from(key), Symmetry::Map(symmetry));
            }
        }
        let (key, symmetry) = self.canonical_with_symmetry(drawn);
        (u128::from(key), Symmetry::Map(symmetry))
    }

    /// [`Pruning::key_scheme`]: the keys' version and the rules that change them.
    fn key_scheme(&self) -> String {
        // "codes7": the split key's components code, 7 bits a component, right above the lines
        // (before: one byte a component, from bit 64).
        let mut scheme = self.rules.key_scheme();
        if self.rules.graph_keys {
            scheme.push_str(" codes7");
        }
        scheme
    }

    /// The lines, and as many 7-bit components of the split key's code as fit in 64 bits
    /// (4x5: 49 + 14, two components; 4x4: 40 + 21, three; 5x5: 60, none): 97% of the 4x5
    /// keys and 99.6% of the 4x4 ones (safe openings with 34 and 32 lines left), so that the
    /// shared TT holds them seven to a cache line.
    fn narrow_key_bits(&self) -> u32 {
        let lines = self.geometry.line_count() as u32;
        if !self.narrow_keys {
            0
        } else if self.rules.graph_keys {
            lines + 7 * ((64 - lines) / 7).min(7)
        } else {
            lines
        }
    }

    fn move_to_canonical(&self, mv: u8, symmetry: u8) -> u8 {
        self.symmetries.forward(symmetry, mv)
    }

    fn move_from_canonical(&self, mv: u8, symmetry: u8) -> u8 {
        self.symmetries.inverse(symmetry, mv)
    }

    /// ± the boxes still open; under [`Pruning::loony_values`] the value itself, as both bounds,
    /// in a simple loony endgame ([`strings_and_coins::Board::loony_value`]); under
    /// [`Pruning::loony_offers`] at least 0 (1 with an odd number open) facing a loony offer
    /// ([`strings_and_coins::Board::loony_offer`]).
    fn value_bounds(&self, pos: &Position) -> (Value, Value) {
        let board = self.geometry.board();
        let drawn = pos.drawn();
        let classes = pos.coin_classes(&self.geometry);
        if self.rules.loony_values {
            if let Some(v) = board.loony_value_with(drawn, classes) {
                return (Value::from(v), Value::from(v));
            }
        }
        let open = Value::from(classes.open().count_ones());
        if self.rules.loony_offers && board.loony_offer_with(drawn, classes) {
            // At least 0, of the parity of the open boxes.
            return (open & 1, open);
        }
        (-open, open)
    }

    /// Completing moves first (two boxes before one), then moves that give the opponent nothing
    /// to complete, then the sacrifices, those that offer two boxes at once (a line between two
    /// boxes with two sides left: under the chain rules, the middle of a 2-chain) before those
    /// that offer one; within each class from the centre outward (Barker and Korf 2012). The
    /// two-box sacrifices first take 2.6-3.8% fewer nodes than the reverse on 3x4, 3x5, 4x4
    /// and 4x5 (`docs/results/dots-and-boxes-4x4-3x5.md`).
    fn order_moves(&self, pos: &Position, moves: &mut [u8]) {
        // The order of the keys `2 - completed` (ties by line) for the completing moves, then
        // `rank(offered) * 64 + centre rank` for the others (offering none, two, one), without
        // a sort: the moves that complete two boxes and one box as line sets, the others as
        // sets of centre ranks, one per number of boxes offered (every key distinct: each set
        // read in order). What
        // a line completes or offers comes from the lines of the boxes with one and with two
        // sides left (a line in two such boxes' sets completes or offers two).
        let board = self.geometry.board();
        let undrawn = !pos.drawn();
        let classes = pos.coin_classes(&self.geometry);
        let lines_of = |boxes: u64| {
            let (mut once, mut twice, mut left) = (0u64, 0u64, boxes);
            while left != 0 {
                let m = board.coins()[left.trailing_zeros() as usize] & undrawn;
                left &= left - 1;
                twice |= once & m;
                once |= m;
            }
            (once, twice)
        };
        let (capture, capture_two) = lines_of(classes.one);
        let (offer, offer_two) = lines_of(classes.two);
        let set = moves.iter().fold(0u64, |set, &m| set | 1 << m);
        debug_assert_eq!(set.count_ones() as usize, moves.len(), "distinct moves");
        let rest = set & !capture;
        let ranks = |lines: u64| {
            let (mut ranks, mut left) = (0u64, lines);
            while left != 0 {
                ranks |= 1 << self.centre_rank[left.trailing_zeros() as usize];
                left &= left - 1;
            }
            ranks
        };
        let mut out = moves.iter_mut();
        for (lines, ranked) in [
            (set & capture_two, false),
            (set & capture & !capture_two, false),
            (ranks(rest & !offer), true),
            (ranks(rest & offer_two), true),
            (ranks(rest & offer & !offer_two), true),
        ] {
            let mut left = lines;
            while left != 0 {
                let i = left.trailing_zeros() as usize;
                left &= left - 1;
                if let Some(slot) = out.next() {
                    *slot = if ranked { self.by_rank[i] } else { i as u8 };
                }
            }
        }
    }

    fn banked(&self, pos: &Position) -> Value {
        pos.margin()
    }
}

/// The nodes with at least this many moves try enhanced transposition cutoff (ETC; A. Plaat,
/// J. Schaeffer, W. Pijls and A. de Bruin, "Exploiting graph properties of game trees", AAAI
/// 1996): every child is played and looked up in the TT before any is searched, so that one
/// whose entry already refutes the node ends it, and the look-ups (cache misses in a large
/// table) overlap. Empty 4x4, root driver, two threads, TT 2^27: no ETC 75 s
/// and about 440 M nodes; from 24 moves 74 s, 429 M; from 20 62-65 s, 365-372 M; from 16
/// 73 s, 299 M; from 12 83 s, 247 M (below 20 the children's keys cost more than the
/// subtrees they save).
pub const ETC_MIN_MOVES: usize = 20;

/// With several threads, the plies below which a move another thread is searching is put off
/// ([`SearchOptions::defer_plies`]). Empty 4x4, full window, two threads, TT 2^25
/// (`docs/results/dots-and-boxes-4x4-3x5.md`): 340 M nodes with 6 to 10 against 338-376 M with 16 (the
/// search-core default), and 57.2 s against 61.0 s wall (means of four alternated runs of
/// `games-cli dots-and-boxes --size 4x4 --empty --threads 2`); 3x5 the same nodes, 3% less
/// time.
pub const DEFER_PLIES: usize = 8;

/// The engine options of dots-and-boxes' solvers: a TT of `2^tt_bits` entries, `threads`
/// search threads, ETC at the nodes with at least [`ETC_MIN_MOVES`] moves, the children's TT
/// buckets prefetched a move ahead ([`SearchOptions::prefetch_children`]), deferral of busy
/// moves below [`DEFER_PLIES`] (between threads and between the workers of a distributed
/// solve), one thread keeping both bounds of a position in its TT
/// ([`OneThreadTable::BothBounds`]: positions are searched again with other windows and both
/// results are useful; [`engine`] gives large boards the shared table), the rest
/// [`SearchOptions::DEFAULT`].
#[must_use]
pub fn search_options(tt_bits: u32, threads: usize) -> SearchOptions {
    SearchOptions {
        tt_bits,
        threads,
        enhanced_transposition_cutoff: Some(0),
        etc_min_moves: ETC_MIN_MOVES,
        prefetch_children: true,
        defer_plies: DEFER_PLIES,
        peer_defer_plies: DEFER_PLIES,
        one_thread_table: OneThreadTable::BothBounds,
        ..SearchOptions::DEFAULT
    }
}

/// Boards of at least this many lines are searched on one thread with the table that several
/// threads share ([`Engine::with_shared_tt`]): its narrow part holds the usual keys (the lines
/// and up to seven components, [`DotsAndBoxes::narrow_key_bits`]) seven to a cache line, about
/// three times the entries of the one-thread [`search_core::BoundsTable`] in the same memory.
/// Empty 4x4 (40 lines), one thread, the root driver (`boxes_empty --root`): with 2^25
/// entries (1 GiB) 435.2 M nodes, 111.4 s with the one-thread table against 328.1 M nodes,
/// 93.3 s with the shared one; with 2^24 (512 MiB, [`crate::default_tt_bits`] of 4x4) 631.3 M
/// nodes, 158.3 s of CPU against 336.7 M, 94.4 s. 3x4 (31 lines) with 2^22 entries, a table it
/// does not fill: 3.79 M and 3.81 M nodes, 0.63 s and 0.71 s (the shared table's probe costs
/// more), hence the one-thread table up to 31 lines (`docs/results/dots-and-boxes-4x4-3x5.md`).
pub const SHARED_TT_MIN_LINES: usize = 32;

/// The engine of `game` searching as `options` say: on one thread, on a board of at least
/// [`SHARED_TT_MIN_LINES`] lines, with the shared table ([`Engine::with_shared_tt`]); otherwise
/// [`Engine::with_options`]. Values do not depend on the table.
#[must_use]
pub fn engine(game: DotsAndBoxes, options: SearchOptions) -> Engine<DotsAndBoxes> {
    if options.threads <= 1 && game.geometry().line_count() >= SHARED_TT_MIN_LINES {
        Engine::with_shared_tt(game, options)
    } else {
        Engine::with_options(game, options)
    }
}

/// A dots-and-boxes solver for one board: the search-core [`Engine`] with a TT that persists
/// across positions, so a batch of positions shares work (on one thread, boards of at least
/// [`SHARED_TT_MIN_LINES`] lines get the shared table: [`engine`]).
pub struct Solver {
    engine: Engine<DotsAndBoxes>,
}

impl Solver {
    /// A solver for `geometry` with every pruning rule, a TT of `2^tt_bits` entries (about
    /// 32 bytes each) and the rest of [`search_options`] (one thread).
    #[must_use]
    pub fn new(geometry: Geometry, tt_bits: u32) -> Self {
        Solver { engine: engine(DotsAndBoxes::new(geometry), search_options(tt_bits, 1)) }
    }

    /// A solver for `geometry` with the pruning `rules` and the engine's `options` (threads
    /// included).
    #[must_use]
    pub fn with_options(geometry: Geometry, rules: Pruning, options: SearchOptions) -> Self {
        Solver { engine: engine(DotsAndBoxes::with_pruning(geometry, rules), options) }
    }

    /// Statistics of the engine (all threads together).
    #[must_use]
    pub fn stats(&self) -> Stats {
        self.engine.stats()
    }

    /// The value of the remaining play of `pos`: the boxes its side to move will still take
    /// minus the opponent's, under perfect play (boxes already owned not counted).
    pub fn value(&mut self, pos: &Position) -> i64 {
        self.engine.solve(pos)
    }

    /// [`Solver::value`] under the engine's limits ([`Solver::set_limits`]).
    ///
    /// # Errors
    /// [`search_core::Interrupted`] with the bounds proven when a limit stopped the search.
    pub fn try_value(&mut self, pos: &Position) -> Result<i64, search_core::Interrupted> {
        self.engine.try_solve(pos)
    }

    /// The value of every legal move and a principal variation of `pos`, from A's side (boxes
    /// already owned counted). Every legal move is listed, also where a pruning rule would
    /// search only one.
    pub fn analyze(&mut self, pos: &Position) -> Analysis<u8> {
        let all = DotsAndBoxes::with_pruning(self.engine.game().geometry().clone(), Pruning::NONE);
        let before = self.engine.stats();
        let engine = &mut self.engine;
        let mut a = search_core::analyze_with(&all, pos, |p| engine.solve(p));
        a.stats = self.engine.stats().since(&before);
        a
    }

    /// [`Solver::analyze`] under the engine's limits ([`Solver::set_limits`]).
    ///
    /// # Errors
    /// [`search_core::Interrupted`] when a limit stopped one of its searches.
    pub fn try_analyze(&mut self, pos: &Position) -> Result<Analysis<u8>, search_core::Interrupted> {
        let all = DotsAndBoxes::with_pruning(self.engine.game().geometry().clone(), Pruning::NONE);
        let before = self.engine.stats();
        let engine = &mut self.engine;
        let mut a = search_core::try_analyze_with(&all, pos, |p| engine.try_solve(p))?;
        a.stats = self.engine.stats().since(&before);
        Ok(a)
    }

    /// Sets the limits (stop flag, node budget, time) that the `try_` searches obey
    /// ([`Engine::set_limits`]).
    pub fn set_limits(&mut self, limits: search_core::Limits) {
        self.engine.set_limits(limits);
    }

    /// The underlying engine (statistics, raw searches, the root driver
    /// [`Engine::solve_root`]).
    pub fn engine(&mut self) -> &mut Engine<DotsAndBoxes> {
        &mut self.engine
    }
}

/// The value of `pos` from its side to move, by plain negamax over every line order
/// ([`search_core::reference::minimax`] on the game without pruning): exponential, for tests
/// on positions with few lines left.
#[must_use]
pub fn minimax(geometry: &Geometry, pos: &Position) -> i64 {
    search_core::reference::minimax(&DotsAndBoxes::with_pruning(geometry.clone(), Pruning::NONE), pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `dense_code` against the plain loop over the code's bytes, on every single component
    /// and on random codes of up to 7 components.
    #[test]
    fn dense_code_packs_each_component_in_7_bits() {
        let plain = |code: u64| {
            (0..7).fold(0u64, |acc, i| {
                let b = code >> (8 * i) & 0xFF;
                acc | ((b >> 6) << 5 | (b & 0x1F)) << (7 * i)
            })
        };
        for kind in 0..4u64 {
            for coins in 1..32u64 {
                let code = kind << 6 | coins;
                assert_eq!(dense_code(code), plain(code));
                assert_eq!(dense_code(code), kind << 5 | coins);
            }
        }
        let mut x = 5u64;
        for _ in 0..10_000 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let n = (x >> 61) as usize;
            let code = (0..n).fold(0u64, |acc, i| acc | ((x >> (8 * i)) & 0xDF) << (8 * i));
            assert_eq!(dense_code(code), plain(code), "{code:#x}");
            assert!(dense_code(code) < 1 << (7 * n));
        }
    }

    /// Keys with at most as many components as fit are below `2^narrow_key_bits`; on 4x5 the
    /// empty board's key is its line set, as before the dense codes (the split solve's store
    /// names its frontier positions by key).
    #[test]
    fn narrow_keys_fit_their_width() {
        let game = DotsAndBoxes::new(Geometry::new(4, 5).expect("a board"));
        assert_eq!(game.narrow_key_bits(), 63);
        assert_eq!(game.key(&Position::start()), 0);
        let game = DotsAndBoxes::new(Geometry::new(4, 4).expect("a board"));
        assert_eq!(game.narrow_key_bits(), 61);
        let game = DotsAndBoxes::new(Geometry::new(5, 5).expect("a board"));
        assert_eq!(game.narrow_key_bits(), 60);
    }
}
