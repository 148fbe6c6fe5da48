//! [`Judge`]: one entry point that answers a batch of positions of one board the cheapest exact
//! way: a retrograde table for small boards, the search-core engine for larger ones.

use search_core::Analysis;

use crate::{Geometry, Position, Pruning, RetrogradeTable, Solver};

/// Most lines answered from a [`RetrogradeTable`] by a [`Judge`] (2x3 and 1x5: 17 lines, 2^17
/// sets, 128 KiB, a few milliseconds to build); larger boards are searched (3x3 by search
/// takes a fraction of the 16 MiB table's build time).
pub const TABLE_MAX_LINES: usize = 17;

/// TT size (log2 of entries) when the caller has no preference: 2^24 entries (about 512 MiB)
/// above 31 lines (3x5, 4x4 and up: searches of billions of nodes), 2^22 (about 128 MiB) above
/// 24 lines (3x4, 31 lines, 7.9 M nodes), 2^20 up to 3x3 (24 lines, under a million nodes).
#[must_use]
pub fn default_tt_bits(geometry: &Geometry) -> u32 {
    if geometry.line_count() > 31 {
        24
    } else if geometry.line_count() > 24 {
        22
    } else {
        20
    }
}

/// Answers dots-and-boxes positions of one board exactly: the value of the remaining play
/// ([`Judge::value`]) from a retrograde table of every line set when the board has at most
/// [`TABLE_MAX_LINES`] lines, by search otherwise; the full explanation ([`Judge::analyze`])
/// always by the search engine. Table and TT are built on first use and shared by every later
/// position.
pub struct Judge {
    geometry: Geometry,
    tt_bits: u32,
    threads: usize,
    table: Option<RetrogradeTable>,
    solver: Option<Solver>,
}

impl Judge {
    /// A judge for `geometry`; the search engine, if needed, gets a TT of `2^tt_bits` entries
    /// (`None`: [`default_tt_bits`]).
    #[must_use]
    pub fn new(geometry: Geometry, tt_bits: Option<u32>) -> Self {
        let tt_bits = tt_bits.unwrap_or_else(|| default_tt_bits(&geometry));
        Judge { geometry, tt_bits, threads: 1, table: None, solver: None }
    }

    /// This judge with its search engine on `threads` threads (lazy SMP over a shared TT; 1,
    /// the default, is the one-thread engine, with the shared table's layout from
    /// [`crate::SHARED_TT_MIN_LINES`] lines: [`crate::engine`]).
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// The TT size (log2 of entries) the search engine gets.
    #[must_use]
    pub fn tt_bits(&self) -> u32 {
        self.tt_bits
    }

    /// The board.
    #[must_use]
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// Whether [`Judge::value`] reads a retrograde table (else it searches).
    #[must_use]
    pub fn uses_table(&self) -> bool {
        self.geometry.line_count() <= TABLE_MAX_LINES
    }

    /// The value of the remaining play of `pos` under perfect play: the boxes its side to move
    /// will still take minus the opponent's.
    pub fn value(&mut self, pos: &Position) -> i64 {
        if self.uses_table() {
            let table = self.table.get_or_insert_with(|| {
                RetrogradeTable::build(&self.geometry).expect("at most TABLE_MAX_LINES lines")
            });
            return table.value(pos.drawn());
        }
        self.solver().value(pos)
    }

    /// Every move's value and a principal variation of `pos`, from A's side, counting the
    /// boxes already owned.
    pub fn analyze(&mut self, pos: &Position) -> Analysis<u8> {
        self.solver().analyze(pos)
    }

    /// The search engine, built on first use.
    pub fn solver(&mut self) -> &mut Solver {
        let (geometry, tt_bits, threads) = (&self.geometry, self.tt_bits, self.threads);
        self.solver.get_or_insert_with(|| {
            Solver::with_options(geometry.clone(), Pruning::ALL, crate::search_options(tt_bits, threads))
        })
    }
}
