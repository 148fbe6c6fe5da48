//! [`ZoneProver`]: the Maker-Breaker game of an m,n,k board proven by a depth-first AND/OR
//! search that carries *relevancy zones* up the proof, after Hsu, Ko, Chen, Wei, Hsueh and Wu,
//! "On solving the 7,7,5-game and the 8,8,5-game", *Theoretical Computer Science* 815 (2020).
//!
//! A proven result comes with a zone: a set of free cells such that the result still holds
//! when every free cell outside it is handed to the loser. For a Breaker win, Maker may own
//! every cell outside the zone; then at a node where Maker moves, every Maker move outside
//! the zone of a refuted move is refuted too (Maker owning that cell and more still loses, and
//! the Maker-Breaker game is monotone), so only the cells of the growing union of the
//! children's zones are searched. The same holds for Maker wins and Breaker's moves.
//!
//! Leaves and their zones:
//! - Maker completes a line next move: the completing cell (two threat cells with Breaker to
//!   move: both).
//! - No live line left: the empty zone.
//! - A pairing strategy for Breaker ([`MakerBreaker::pairing`], checked by
//!   [`verify_pairing`] before it is believed): the cells of the pairs.
//! - The Erdős–Selfridge criterion, or Maker having fewer moves left than any live line
//!   still needs: every free cell.
//!
//! Breaker's moves are pruned by *domination*: if every live line through cell `b` also
//! passes through cell `a`, Breaker's `a` kills every line `b` kills, so `b` is never better
//! and is not searched (of two cells on the same lines, the lower index is kept).

use std::time::Instant;

use rustc_hash::FxHashMap;
use search_core::{Game, Interrupted};

use crate::{Bitboard, Cell, Geometry, MakerBreaker, MbPosition};

/// A proven Maker-Breaker result and its relevancy zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZoneProof {
    /// Whether Maker wins (completes a line whatever Breaker does); otherwise Breaker wins.
    pub maker_wins: bool,
    /// Free cells outside which every cell may be handed to the loser without changing the
    /// result.
    pub zone: Bitboard,
}

/// Most steps of one pairing search at a node.
const PAIRING_BUDGET: u32 = 1024;

/// The pairing search runs at nodes with at most this many live lines.
const PAIRING_MAX_LINES: u32 = 64;

/// A Maker-Breaker prover with relevancy zones and Breaker-move domination over one
/// [`Geometry`]'s lines; its table keeps every proven position (folded over the board's
/// symmetries) with its zone until it holds `max_entries`; then it keeps the proofs whose
/// searches took the most positions, about half of them.
pub struct ZoneProver {
    mb: MakerBreaker,
    /// Proven positions by canonical code: the proof (its zone in the canonical frame) and the
    /// positions its search took (saturated), which decide what a full table keeps.
    table: FxHashMap<u128, (ZoneProof, u32)>,
    max_entries: usize,
    nodes: u64,
    deadline: Option<Instant>,
    max_nodes: Option<u64>,
    options: ZoneOptions,
    /// The last pairing strategy found: its pairs still free are tried first at the next
    /// node (siblings differ in a stone or two), before a pairing search.
    last_pairing: Vec<(Cell, Cell)>,
}

/// Which of [`ZoneProver`]'s pruning rules are on (all by default); each can be turned off
/// alone to check it against the plain search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZoneOptions {
    /// Moves outside the union of the refuted moves' relevancy zones are not searched.
    pub zones: bool,
    /// Dominated moves are not searched.
    pub domination: bool,
    /// Pairing strategies end the search where Maker moves.
    pub pairing: bool,
    /// The Erdős–Selfridge criterion and Maker's moves left end the search.
    pub potential: bool,
    /// Twin cells (two cells on the same lines) are removed with their lines.
    pub twins: bool,
}

impl Default for ZoneOptions {
    fn default() -> Self {
        ZoneOptions { zones: true, domination: true, pairing: true, potential: true, twins: true }
    }
}

/// The first bytes of a table of proofs ([`ZoneProver::table_bytes`]): format and version.
const TABLE_MAGIC: &[u8; 16] = b"mnk-mb-proofs 1\n";

/// Bytes of one entry of a table of proofs: the canonical code (16), the winner (1), the
/// zone (8), the positions its search took (4).
const TABLE_ENTRY_BYTES: usize = 29;

/// Why [`ZoneProver::load_table`] refused a table of proofs: nothing of it is read then.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProofTableError {
    /// The bytes do not start as a table of this format and version.
    #[error("not a table of Maker-Breaker proofs of this version")]
    NotATable,
    /// A table of another board.
    #[error("a table of the {found} board, not of {expected}")]
    OtherBoard {
        /// This prover's board, `ROWSxCOLS k=K`.
        expected: String,
        /// The table's board.
        found: String,
    },
    /// Cut short, longer than its count, a checksum that does not match, or an entry no proof
    /// of the board can have.
    #[error("damaged ({0})")]
    Damaged(&'static str),
}

/// The progress callback of one [`ZoneProver::prove_with_progress`] call.
struct Report<'a> {
    every: u64,
    /// The node count of the next report.
    next: u64,
    callback: &'a mut dyn FnMut(u64),
}

/// Positions searched between two looks at the clock.
const CLOCK_EVERY: u64 = 1 << 12;

impl ZoneProver {
    /// A prover for boards of `geometry` whose table holds at most `max_entries` positions
    /// (about 48 bytes each).
    #[must_use]
    pub fn new(geometry: Geometry, max_entries: usize) -> Self {
        ZoneProver {
            mb: MakerBreaker::new(geometry),
            table: FxHashMap::default(),
            max_entries: max_entries.max(1),
            nodes: 0,
            deadline: None,
            max_nodes: None,
            options: ZoneOptions::default(),
            last_pairing: Vec::new(),
        }
    }

    /// Turns pruning rules on or off (for checking them one by one); clears the table.
    pub fn set_options(&mut self, options: ZoneOptions) {
        self.options = options;
        self.table.clear();
    }

    /// The Maker-Breaker game searched.
    #[must_use]
    pub fn game(&self) -> &MakerBreaker {
        &self.mb
    }

    /// Positions searched so far (table hits and leaves included).
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Positions in the table.
    #[must_use]
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    /// What the table knows of `pos` (a proven result and its zone), without searching.
    #[must_use]
    pub fn known(&self, pos: &MbPosition) -> Option<ZoneProof> {
        let (key, sym) = self.canonical(pos);
        self.table.get(&key).map(|(found, _)| {
            let syms = &self.mb.syms;
            ZoneProof {
                maker_wins: found.maker_wins,
                zone: Bitboard(syms.image(syms.inverse(sym), found.zone.0)),
            }
        })
    }

    /// The table of proven positions as bytes, for [`ZoneProver::load_table`] in a later run
    /// (the proofs of a long search kept across runs): a header naming the format and the
    /// board, the entries (29 bytes each: canonical code, winner, zone, the positions its
    /// search took), and a CRC-32 of all that.
    #[must_use]
    pub fn table_bytes(&self) -> Vec<u8> {
        let g = self.mb.geometry();
        let mut bytes = Vec::with_capacity(16 + 3 + 8 + self.table.len() * TABLE_ENTRY_BYTES + 4);
        bytes.extend_from_slice(TABLE_MAGIC);
        bytes.extend([g.rows(), g.cols(), g.k()].map(|n| n as u8));
        bytes.extend_from_slice(&(self.table.len() as u64).to_le_bytes());
        for (key, (proof, work)) in &self.table {
            bytes.extend_from_slice(&key.to_le_bytes());
            bytes.push(u8::from(proof.maker_wins));
            bytes.extend_from_slice(&proof.zone.0.to_le_bytes());
            bytes.extend_from_slice(&work.to_le_bytes());
        }
        let crc = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&crc.to_le_bytes());
        bytes
    }

    /// Adds the proofs of `bytes` (written by [`ZoneProver::table_bytes`] for the same board)
    /// to the table, at most as many as it holds; returns how many it added.
    ///
    /// # Errors
    /// [`ProofTableError`] for bytes of another format or board, or damaged ones (checksum,
    /// length, an entry whose winner or zone no proof of the board has): none is added then.
    pub fn load_table(&mut self, bytes: &[u8]) -> Result<usize, ProofTableError> {
        let header = TABLE_MAGIC.len() + 3 + 8;
        if bytes.len() < TABLE_MAGIC.len() || &bytes[..TABLE_MAGIC.len()] != TABLE_MAGIC {
            return Err(ProofTableError::NotATable);
        }
        if bytes.len() < header + 4 {
            return Err(ProofTableError::Damaged("cut short"));
        }
        let g = self.mb.geometry();
        let board = |r: u8, c: u8, k: u8| format!("{r}x{c} k={k}");
        let [r, c, k] = [bytes[16], bytes[17], bytes[18]];
        let expected = board(g.rows() as u8, g.cols() as u8, g.k() as u8);
        if board(r, c, k) != expected {
            return Err(ProofTableError::OtherBoard { expected, found: board(r, c, k) });
        }
        let (body, crc) = bytes.split_at(bytes.len() - 4);
        if crc32fast::hash(body).to_le_bytes() != crc {
            return Err(ProofTableError::Damaged("checksum"));
        }
        let count = u64::from_le_bytes(body[19..27].try_into().expect("8 bytes"));
        let entries = &body[header..];
        if count.checked_mul(TABLE_ENTRY_BYTES as u64) != Some(entries.len() as u64) {
            return Err(ProofTableError::Damaged("length"));
        }
        let full = g.full().0;
        let mut read = Vec::with_capacity(entries.len() / TABLE_ENTRY_BYTES);
        for e in entries.chunks_exact(TABLE_ENTRY_BYTES) {
            let key = u128::from_le_bytes(e[..16].try_into().expect("16 bytes"));
            let zone = u64::from_le_bytes(e[17..25].try_into().expect("8 bytes"));
            let work = u32::from_le_bytes(e[25..29].try_into().expect("4 bytes"));
            if e[16] > 1 || zone & !full != 0 {
                return Err(ProofTableError::Damaged("an entry"));
            }
            read.push((key, (ZoneProof { maker_wins: e[16] == 1, zone: Bitboard(zone) }, work)));
        }
        let room = self.max_entries.saturating_sub(self.table.len());
        let added = read.len().min(room);
        self.table.extend(read.into_iter().take(added));
        Ok(added)
    }

    /// Stops later [`ZoneProver::prove`] calls at `deadline` and after `max_nodes` positions in
    /// all (`None`: no limit).
    pub fn set_limits(&mut self, deadline: Option<Instant>, max_nodes: Option<u64>) {
        self.deadline = deadline;
        self.max_nodes = max_nodes;
    }

    /// Who wins the Maker-Breaker game from `pos`, with the result's zone.
    ///
    /// # Errors
    /// [`Interrupted`] (bounds `-1..=1`) when a limit of [`ZoneProver::set_limits`] is
    /// reached first; what was proven stays in the table.
    pub fn prove(&mut self, pos: &MbPosition) -> Result<ZoneProof, Interrupted> {
        self.search(pos, &mut Report { every: u64::MAX, next: u64::MAX, callback: &mut |_| {} })
    }

    /// [`ZoneProver::prove`], calling `progress` with the positions searched so far (this
    /// call's and earlier ones') every `every` positions (at least 1).
    ///
    /// # Errors
    /// As [`ZoneProver::prove`].
    pub fn prove_with_progress(
        &mut self,
        pos: &MbPosition,
        every: u64,
        progress: &mut dyn FnMut(u64),
    ) -> Result<ZoneProof, Interrupted> {
        let every = every.max(1);
        self.search(pos, &mut Report { every, next: self.nodes + every, callback: progress })
    }

    fn check_limits(&self, report: &mut Report<'_>) -> Result<(), Interrupted> {
        if self.nodes >= report.next {
            (report.callback)(self.nodes);
            report.next = self.nodes.saturating_add(report.every);
        }
        let out = self.max_nodes.is_some_and(|m| self.nodes >= m)
            || (self.nodes % CLOCK_EVERY == 0 && self.deadline.is_some_and(|d| Instant::now() >= d));
        if out {
            Err(Interrupted { lo: -1, hi: 1 })
        } else {
            Ok(())
        }
    }

    /// The position's canonical code and the symmetry that maps it to the canonical frame.
    fn canonical(&self, pos: &MbPosition) -> (u128, usize) {
        let syms = &self.mb.syms;
        let (m, f) = (pos.maker().0, pos.free().0);
        let mut best = ((f, m), 0);
        for s in 1..syms.count() {
            let image = (syms.image(s, f), syms.image(s, m));
            if image < best.0 {
                best = (image, s);
            }
        }
        let ((f, m), s) = best;
        (self.mb.code(m, f, pos.maker_to_move()), s)
    }

    fn search(&mut self, pos: &MbPosition, report: &mut Report<'_>) -> Result<ZoneProof, Interrupted> {
        let start = self.nodes;
        self.nodes += 1;
        self.check_limits(report)?;
        let maker = |zone: u64| ZoneProof { maker_wins: true, zone: Bitboard(zone) };
        let breaker = |zone: u64| ZoneProof { maker_wins: false, zone: Bitboard(zone) };
        if pos.maker_won() {
            return Ok(maker(0));
        }
        let free = pos.free();
        if free.is_empty() {
            return Ok(breaker(0));
        }
        if self.options.twins {
            let removed = self.twins(pos);
            if removed != 0 {
                let reduced = self.mb.without_cells(pos, Bitboard(removed));
                let p = self.search(&reduced, report)?;
                return Ok(if p.maker_wins { p } else { breaker(p.zone.0 | removed) });
            }
        }
        let scan = self.mb.scan(pos);
        if pos.maker_to_move() && scan.need == 1 {
            let t = scan.threats.0;
            return Ok(maker(t & t.wrapping_neg()));
        }
        if !pos.maker_to_move() && scan.threats.count() >= 2 {
            let t = scan.threats.0;
            let first = t & t.wrapping_neg();
            let rest = t & !first;
            return Ok(maker(first | (rest & rest.wrapping_neg())));
        }
        let (key, sym) = self.canonical(pos);
        if let Some((found, _)) = self.table.get(&key) {
            let syms = &self.mb.syms;
            let zone = syms.image(syms.inverse(sym), found.zone.0);
            return Ok(ZoneProof { maker_wins: found.maker_wins, zone: Bitboard(zone) });
        }
        let maker_moves = if pos.maker_to_move() { free.count().div_ceil(2) } else { free.count() / 2 };
        if self.options.potential && (scan.need > maker_moves || self.mb.erdos_selfridge(pos, &scan)) {
            return Ok(breaker(free.0));
        }
        let pairing = if self.options.pairing && scan.live <= PAIRING_MAX_LINES && pos.maker_to_move() {
            // The last pairing's pairs still free first (checked below like any pairing).
            let free = pos.free();
            let reused: Vec<(Cell, Cell)> = self
                .last_pairing
                .iter()
                .copied()
                .filter(|&(a, b)| free.is_superset(a.bit() | b.bit()))
                .collect();
            if verify_pairing(&self.mb, pos, &reused) {
                Some(reused)
            } else {
                let found = self.mb.pairing(pos, PAIRING_BUDGET);
                if let Some(pairs) = &found {
                    self.last_pairing.clone_from(pairs);
                }
                found
            }
        } else {
            None
        };
        let proof = if let Some(pairs) = pairing.filter(|p| verify_pairing(&self.mb, pos, p)) {
            breaker(pairs.iter().fold(0u64, |z, (a, b)| z | a.bit().0 | b.bit().0))
        } else if pos.maker_to_move() {
            let moves = free;
            self.and_or(pos, moves, true, report)?
        } else if scan.threats.count() == 1 {
            let (child, _) = self.mb.play(pos, Cell(scan.threats.0.trailing_zeros() as u8));
            let p = self.search(&child, report)?;
            ZoneProof { maker_wins: p.maker_wins, zone: Bitboard(p.zone.0 | scan.threats.0) }
        } else {
            let moves =
                if self.options.domination { Self::undominated(pos, &self.common(pos)) } else { free };
            self.and_or(pos, moves, false, report)?
        };
        if self.table.len() >= self.max_entries {
            self.make_room();
        }
        let zone = self.mb.syms.image(sym, proof.zone.0);
        let work = u32::try_from(self.nodes - start).unwrap_or(u32::MAX);
        self.table.insert(key, (ZoneProof { maker_wins: proof.maker_wins, zone: Bitboard(zone) }, work));
        Ok(proof)
    }

    /// Empties about half of the full table: the proofs whose searches took fewer positions
    /// than the median go (the expensive ones stay, as a TT's replacement by depth keeps them).
    fn make_room(&mut self) {
        let mut works: Vec<u32> = self.table.values().map(|&(_, w)| w).collect();
        let middle = works.len() / 2;
        let (_, &mut median, _) = works.select_nth_unstable(middle);
        // Ties at the median go too when they are most of the table (many one-position proofs).
        self.table.retain(|_, &mut (_, w)| w > median);
        if self.table.len() * 4 > self.max_entries * 3 {
            self.table.clear();
        }
    }

    /// `common[c]` for every free cell `c`: the cells on every live line through `c` (a cell
    /// `a != c` in it *dominates* `c`: every line `c` is on, `a` is on too).
    fn common(&self, pos: &MbPosition) -> [u64; 64] {
        let open = pos.maker() | pos.free();
        let mut common = [0u64; 64];
        for c in pos.free().iter() {
            common[c as usize] = self.mb.lines_through[c as usize]
                .iter()
                .filter(|&&l| open.is_superset(l))
                .fold(u64::MAX, |acc, &l| acc & l.0)
                & pos.free().0;
        }
        common
    }

    /// Pairs of *twin* cells: two free cells on the same live lines, each line through one
    /// passing through the other. Breaker answers one with the other, so the pair blocks all
    /// their lines, and removing both cells (and so their lines) leaves a game with the same
    /// winner whoever moves (Maker ignores Breaker's moves there; Breaker answers Maker's).
    fn twins(&self, pos: &MbPosition) -> u64 {
        let common = self.common(pos);
        let mut removed = 0u64;
        for a in pos.free().iter() {
            if removed >> a & 1 == 1 {
                continue;
            }
            let candidates = common[a as usize] & !(1u64 << a) & !removed;
            if let Some(b) = Bitboard(candidates).iter().find(|&b| common[b as usize] >> a & 1 == 1) {
                removed |= 1u64 << a | 1u64 << b;
            }
        }
        removed
    }

    /// Breaker's moves in `pos` that no other free cell dominates (of two cells on the same
    /// lines, the lower index).
    fn undominated(pos: &MbPosition, common: &[u64; 64]) -> Bitboard {
        let mut keep = Bitboard::EMPTY;
        for b in pos.free().iter() {
            let others = common[b as usize] & !(1u64 << b);
            let dominated = Bitboard(others).iter().any(|a| common[a as usize] >> b & 1 == 0 || a < b);
            if !dominated {
                keep |= Bitboard::single(b);
            }
        }
        keep
    }

    /// The node where `mover_is_maker` moves among `moves`: the mover wins if one move wins
    /// (zone: the child's and the move); otherwise every move in the union of the refuted
    /// moves' zones is searched, and that union is the zone of the opponent's win.
    fn and_or(
        &mut self,
        pos: &MbPosition,
        moves: Bitboard,
        mover_is_maker: bool,
        report: &mut Report<'_>,
    ) -> Result<ZoneProof, Interrupted> {
        let mut ordered: Vec<Cell> = moves.iter().map(|i| Cell(i as u8)).collect();
        if mover_is_maker {
            self.mb.order_moves(pos, &mut ordered);
        } else {
            // Breaker: the cells on the most live lines first, ties broken by the lines'
            // Erdős–Selfridge weights (2 to the number of Maker's stones on the line).
            let open = pos.maker() | pos.free();
            let score = |c: Cell| -> u64 {
                self.mb.lines_through[c.index()]
                    .iter()
                    .filter(|&&l| open.is_superset(l))
                    .map(|&l| (1 << 16) + (1 << (l & pos.maker()).count()))
                    .sum()
            };
            // Each score once; equal scores keep row-major order.
            ordered.sort_by_cached_key(|&c| (std::cmp::Reverse(score(c)), c.index()));
        }
        let common = self.common(pos);
        let mut zone = 0u64;
        let mut tried = 0u64;
        // Maker's moves skipped as dominated, each with a refuted move dominating it.
        let mut skipped: Vec<(u64, u64)> = Vec::new();
        loop {
            let mut searched = false;
            for &m in &ordered {
                let bit = m.bit().0;
                if tried & bit != 0 || (self.options.zones && tried != 0 && zone & bit == 0) {
                    continue;
                }
                // A refuted move that dominates this one refutes it too.
                let dominators = common[m.index()] & tried & !bit;
                if self.options.domination && dominators != 0 {
                    if mover_is_maker && !skipped.iter().any(|&(b, _)| b == bit) {
                        skipped.push((bit, dominators & dominators.wrapping_neg()));
                    }
                    continue;
                }
                tried |= bit;
                searched = true;
                let (child, _) = self.mb.play(pos, m);
                let p = self.search(&child, report)?;
                if p.maker_wins == mover_is_maker {
                    return Ok(ZoneProof { maker_wins: mover_is_maker, zone: Bitboard(p.zone.0 | bit) });
                }
                zone |= p.zone.0;
            }
            if !searched {
                break;
            }
        }
        // Maker owning a dominating cell outside the zone would not refute a skipped move
        // inside it: the dominating cell joins the zone (it is refuted within the zone).
        for &(b, a) in &skipped {
            if zone & b != 0 {
                zone |= a;
            }
        }
        Ok(ZoneProof { maker_wins: !mover_is_maker, zone: Bitboard(zone & pos.free().0) })
    }
}

/// Whether `pairs` is a pairing strategy for Breaker in `pos`: disjoint pairs of distinct free
/// cells such that every live line holds both cells of some pair. Checked from the definition,
/// independently of the search that found the pairs.
#[must_use]
pub fn verify_pairing(mb: &MakerBreaker, pos: &MbPosition, pairs: &[(Cell, Cell)]) -> bool {
    let mut used = Bitboard::EMPTY;
    for &(a, b) in pairs {
        let both = a.bit() | b.bit();
        if a == b || both.intersects(used) || !pos.free().is_superset(both) {
            return false;
        }
        used |= both;
    }
    let open = pos.maker() | pos.free();
    mb.lines
        .iter()
        .filter(|&&l| open.is_superset(l))
        .all(|&l| pairs.iter().any(|&(a, b)| l.is_superset(a.bit() | b.bit())))
}
