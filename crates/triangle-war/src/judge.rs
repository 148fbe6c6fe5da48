//! [`Judge`]: one entry point that answers a batch of positions of one board the cheapest exact
//! way: a retrograde table for small boards, the search-core engine for larger ones.

use search_core::Analysis;

use crate::{Geometry, Outcome, Position, Pruning, RetrogradeTable, Solver};

/// Largest segment count answered from a [`RetrogradeTable`] (side 3: 18 segments, 2^18 sets,
/// 256 KiB, built in a few milliseconds).
pub const TABLE_MAX_SEGMENTS: usize = 18;

/// TT size (log2 of entries) for boards solved by search when the caller has no preference:
/// 2^22 entries (about 128 MiB).
pub const DEFAULT_TT_BITS: u32 = 22;

/// TT size (log2 of entries) for analyses of boards of at most [`TABLE_MAX_SEGMENTS`]
/// segments: they have at most 2^18 segment sets.
const SMALL_TT_BITS: u32 = 18;

/// TT size (log2 of entries) for side 4 (30 segments): its empty board takes 1.5-2.5 M nodes,
/// most of them deep, and 2^20 entries (24 MiB) lose under 1% of them to replacement while a
/// table of 2^22 takes longer to clear than the nodes it saves.
const SIDE4_TT_BITS: u32 = 20;

/// Answers Triangle War positions of one board exactly: who wins ([`Judge::outcome`], the
/// judge's question) from a retrograde table of every segment set when the board has at most
/// [`TABLE_MAX_SEGMENTS`] segments, by null-window search otherwise; the full explanation
/// ([`Judge::analyze`]) always by the search engine. Table and TT are built on first use and
/// shared by every later position.
pub struct Judge {
    geometry: Geometry,
    tt_bits: u32,
    table: Option<RetrogradeTable>,
    solver: Option<Solver>,
    threads: usize,
    rules: Pruning,
}

impl Judge {
    /// A judge for `geometry`; the search engine, if needed, gets a TT of `2^tt_bits` entries
    /// (`None`: 2^18 up to side 3, 2^20 on side 4, [`DEFAULT_TT_BITS`] above).
    #[must_use]
    pub fn new(geometry: Geometry, tt_bits: Option<u32>) -> Self {
        let segments = geometry.segments().len();
        let default = match segments {
            s if s <= TABLE_MAX_SEGMENTS => SMALL_TT_BITS,
            s if s <= 30 => SIDE4_TT_BITS,
            _ => DEFAULT_TT_BITS,
        };
        let tt_bits = tt_bits.unwrap_or(default);
        Judge { geometry, tt_bits, table: None, solver: None, threads: 1, rules: Pruning::ALL }
    }

    /// This judge with its search engine under the pruning `rules` ([`Pruning::ALL`], the
    /// default, is the fastest; the retrograde table of small boards needs none).
    #[must_use]
    pub fn with_pruning(mut self, rules: Pruning) -> Self {
        self.rules = rules;
        self.solver = None;
        self
    }

    /// This judge with its search engine on `threads` threads (`threads` in
    /// [`Solver::with_options`]; 1, the default, is the one-thread engine).
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// The board.
    #[must_use]
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The TT size (log2 of entries) the search engine gets.
    #[must_use]
    pub fn tt_bits(&self) -> u32 {
        self.tt_bits
    }

    /// Who wins `pos` under perfect play, from A's side, counting the triangles already owned.
    pub fn outcome(&mut self, pos: &Position) -> Outcome {
        if self.geometry.segments().len() <= TABLE_MAX_SEGMENTS {
            if self.table.is_none() {
                self.table = RetrogradeTable::build(&self.geometry);
            }
            if let Some(table) = &self.table {
                return table.outcome(pos);
            }
        }
        self.solver().outcome(pos)
    }

    /// The final margin of `pos` under perfect play (A's triangles minus B's at the end,
    /// counting those already owned): from the table on small boards, by search on large ones.
    pub fn final_margin(&mut self, pos: &Position) -> i64 {
        if self.geometry.segments().len() <= TABLE_MAX_SEGMENTS {
            if self.table.is_none() {
                self.table = RetrogradeTable::build(&self.geometry);
            }
            if let Some(table) = &self.table {
                return table.final_margin(pos);
            }
        }
        self.solver().final_margin(pos)
    }

    /// Every move's value and a principal variation of `pos`, from A's side, final margins.
    pub fn analyze(&mut self, pos: &Position) -> Analysis<u8> {
        self.solver().analyze(pos)
    }

    /// The search engine, built on first use.
    pub fn solver(&mut self) -> &mut Solver {
        let (geometry, bits, threads, rules) = (&self.geometry, self.tt_bits, self.threads, self.rules);
        self.solver.get_or_insert_with(|| {
            // The children's TT buckets prefetched a move ahead (the same nodes; the misses of
            // a large table overlap the search).
            let options = search_core::SearchOptions {
                tt_bits: bits,
                prefetch_children: true,
                ..crate::SEARCH_OPTIONS
            };
            Solver::with_options(geometry.clone(), rules, search_core::SearchOptions { threads, ..options })
        })
    }
}
