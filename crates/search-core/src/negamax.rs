//! The one negamax of the workspace ([`Worker::negamax`]): fail-soft alpha-beta with a
//! transposition table (TT), principal variation search, TT move first, pruning by the game's
//! bounds, enhanced transposition cutoff and the look-ahead prefetch, written once, generic
//! over the [`Table`] it probes and stores (one thread's table or the shared one) and over the
//! game's [`Hooks`] (none, or its [`Expansion`]). Also what one search's threads share
//! ([`Ctx`]): the stop flag, the limits they check ([`LimitCheck`]) and the marks of positions
//! being searched ([`BusyTable`], simplified ABDADA's deferral). One thread's state is a
//! [`Worker`]; `parallel.rs` runs them.
//!
//! # Sources
//! - Negamax and alpha-beta with fail-soft bounds: D. E. Knuth and R. W. Moore, "An analysis
//!   of alpha-beta pruning", *Artificial Intelligence* 6 (1975).
//! - Principal variation search: T. A. Marsland and M. Campbell (1982); A. Reinefeld (1983).
//! - Enhanced transposition cutoff: A. Plaat, J. Schaeffer, W. Pijls and A. de Bruin,
//!   "Exploiting graph properties of game trees", AAAI 1996.
//! - ABDADA: J.-C. Weill, "The ABDADA distributed minimax search algorithm", *ICCA Journal* 19
//!   (1996), in T. Kerrigan's simplified form with a table of busy positions.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::entry::{Bound, PackedMove, TtEntry};
use crate::game::{Expansion, Game, Player, Symmetry, TtKey, Value, INFINITY};
use crate::options::{Limits, Stats, LIMIT_CHECK_MASK};
use crate::table::Table;

/// The game's search hooks as the negamax calls them: [`NoHooks`] for a game without
/// [`Expansion`] (every hook off, compiled out), [`GameHooks`] for one with it.
pub(crate) trait Hooks<G: Game> {
    /// [`Expansion::EXPANDS_WITH_TERMINAL_TEST`].
    const FUSED: bool;
    /// [`Expansion::PROBES_BEFORE_EXPANSION`] (with `FUSED`).
    const LATE: bool;
    /// [`Expansion::terminal_or_moves`].
    fn terminal_or_moves(
        game: &G,
        pos: &G::Position,
        moves: &mut Vec<G::Move>,
        memo: &mut Vec<u64>,
    ) -> Option<Value>;
    /// [`Expansion::quick_terminal_value`].
    fn quick_terminal_value(game: &G, pos: &G::Position) -> Option<Value>;
    /// [`Expansion::early_value_bounds`].
    fn early_value_bounds(game: &G, pos: &G::Position) -> (Value, Value);
    /// [`Expansion::expanded_value_bounds`].
    fn expanded_value_bounds(game: &G, pos: &G::Position, early: (Value, Value)) -> (Value, Value);
    /// [`Expansion::play_memo`].
    fn play_memo(game: &G, pos: &G::Position, mv: G::Move, memo: &[u64]) -> (G::Position, Value);
    /// [`Expansion::order_in_window`].
    fn order_in_window(
        game: &G,
        pos: &G::Position,
        moves: &mut [G::Move],
        memo: &[u64],
        window: (Value, Value),
        bounds: (Value, Value),
    );
}

/// No hooks: the plain [`Game`] calls (`FUSED` and `LATE` off, so that only
/// `order_in_window`, a no-op, is ever called).
pub(crate) struct NoHooks;

impl<G: Game> Hooks<G> for NoHooks {
    const FUSED: bool = false;
    const LATE: bool = false;
    #[inline(always)]
    fn terminal_or_moves(
        game: &G,
        pos: &G::Position,
        moves: &mut Vec<G::Move>,
        _: &mut Vec<u64>,
    ) -> Option<Value> {
        if let Some(v) = game.terminal_value(pos) {
            return Some(v);
        }
        game.generate_moves(pos, moves);
        game.order_moves(pos, moves);
        None
    }
    #[inline(always)]
    fn quick_terminal_value(game: &G, pos: &G::Position) -> Option<Value> {
        game.terminal_value(pos)
    }
    #[inline(always)]
    fn early_value_bounds(game: &G, pos: &G::Position) -> (Value, Value) {
        game.value_bounds(pos)
    }
    #[inline(always)]
    fn expanded_value_bounds(_: &G, _: &G::Position, early: (Value, Value)) -> (Value, Value) {
        early
    }
    #[inline(always)]
    fn play_memo(game: &G, pos: &G::Position, mv: G::Move, _: &[u64]) -> (G::Position, Value) {
        game.play(pos, mv)
    }
    #[inline(always)]
    fn order_in_window(
        _: &G,
        _: &G::Position,
        _: &mut [G::Move],
        _: &[u64],
        _: (Value, Value),
        _: (Value, Value),
    ) {
    }
}

/// The game's own [`Expansion`].
pub(crate) struct GameHooks;

impl<G: Expansion> Hooks<G> for GameHooks {
    const FUSED: bool = G::EXPANDS_WITH_TERMINAL_TEST;
    const LATE: bool = G::EXPANDS_WITH_TERMINAL_TEST && G::PROBES_BEFORE_EXPANSION;
    #[inline(always)]
    fn terminal_or_moves(
        game: &G,
        pos: &G::Position,
        moves: &mut Vec<G::Move>,
        memo: &mut Vec<u64>,
    ) -> Option<Value> {
        game.terminal_or_moves(pos, moves, memo)
    }
    #[inline(always)]
    fn quick_terminal_value(game: &G, pos: &G::Position) -> Option<Value> {
        game.quick_terminal_value(pos)
    }
    #[inline(always)]
    fn early_value_bounds(game: &G, pos: &G::Position) -> (Value, Value) {
        game.early_value_bounds(pos)
    }
    #[inline(always)]
    fn expanded_value_bounds(game: &G, pos: &G::Position, early: (Value, Value)) -> (Value, Value) {
        game.expanded_value_bounds(pos, early)
    }
    #[inline(always)]
    fn play_memo(game: &G, pos: &G::Position, mv: G::Move, memo: &[u64]) -> (G::Position, Value) {
        game.play_memo(pos, mv, memo)
    }
    #[inline(always)]
    fn order_in_window(
        game: &G,
        pos: &G::Position,
        moves: &mut [G::Move],
        memo: &[u64],
        window: (Value, Value),
        bounds: (Value, Value),
    ) {
        game.order_in_window(pos, moves, memo, window, bounds);
    }
}

/// A child that enhanced transposition cutoff played and looked up: its position, the points
/// its move banked, and its TT key ([`Game::canonical_key`]).
type EtcChild<P, K> = (P, Value, (K, Symmetry));

/// One thread's search state: its move buffers, counters and identity. Aligned to two cache
/// lines so that one thread's counters never share a line with another's (false sharing).
#[repr(align(128))]
pub(crate) struct Worker<M, P, K> {
    /// 0 for the calling thread (the game's own move order), 1.. for helpers.
    pub(crate) id: u64,
    /// Whether this thread perturbs its move order (helpers only).
    pub(crate) perturb: bool,
    move_stack: Vec<Vec<M>>,
    /// Per ply, the moves deferred because another thread is searching them.
    defer_stack: Vec<Vec<M>>,
    /// Per ply, the children of the node's moves (position, points banked, TT key), when
    /// enhanced transposition cutoff played and looked them up before the search (the key is
    /// handed to the child's search, so that it is not computed twice).
    child_stack: Vec<Vec<EtcChild<P, K>>>,
    /// Per ply, the words a game with [`Expansion::EXPANDS_WITH_TERMINAL_TEST`] keeps for its moves
    /// between [`Expansion::terminal_or_moves`] and [`Expansion::play_memo`].
    memo_stack: Vec<Vec<u64>>,
    pub(crate) stats: Stats,
    /// Stop once `stats.nodes` reaches this (checked with the limits).
    pub(crate) budget: u64,
    /// Set when the search was stopped: every value since is meaningless and nothing more is
    /// stored.
    pub(crate) stopped: bool,
    /// Entries stored for the [`crate::Exchange`], not yet handed over.
    pub(crate) proven: Vec<TtEntry<K, M>>,
    /// Per ply below [`crate::Exchange::defer_plies`], the key ([`TtKey::hash64`]) of the
    /// position this thread searches there (valid up to the current ply).
    pub(crate) path: Vec<u64>,
}

/// What the threads of one search share; `H` the game's hooks.
pub(crate) struct Ctx<'a, G: Game, H> {
    pub(crate) game: &'a G,
    pub(crate) hooks: PhantomData<fn() -> H>,
    /// Raised when the search is over for every thread (one finished, or a limit was reached).
    pub(crate) stop: &'a AtomicBool,
    pub(crate) pvs: bool,
    /// [`crate::SearchOptions::enhanced_transposition_cutoff`].
    pub(crate) etc: Option<Value>,
    /// [`crate::SearchOptions::etc_min_moves`].
    pub(crate) etc_min_moves: usize,
    /// [`crate::SearchOptions::prefetch_children`].
    pub(crate) prefetch_children: bool,
    /// [`crate::Engine::set_etc_min_reach`].
    pub(crate) etc_min_reach: Value,
    /// Positions being searched by some thread (ABDADA's "exclusive" marks); `None` while one
    /// thread searches alone.
    pub(crate) busy: Option<&'a BusyTable>,
    /// Deferral applies to children of nodes at plies below this.
    pub(crate) defer_plies: usize,
    /// The caller's limits, for a limited search with some set.
    pub(crate) check: Option<LimitCheck<'a>>,
    /// The opening book ([`crate::Engine::set_book`]), read at nodes at most `book_plies`
    /// plies below the root.
    pub(crate) book: Option<&'a crate::Book>,
    /// [`crate::Book::plies`] of `book`.
    pub(crate) book_plies: usize,
    /// [`crate::Engine::set_exchange`].
    pub(crate) exchange: Option<&'a crate::Exchange<G::Key, G::Move>>,
}

/// The caller's [`Limits`] as the threads of one search check them, each every
/// `LIMIT_CHECK_MASK + 1` of its own nodes.
pub(crate) struct LimitCheck<'a> {
    pub(crate) limits: &'a Limits,
    pub(crate) started: Option<Instant>,
    /// Nodes of all threads together, approximately: the total at the start of the search plus
    /// `LIMIT_CHECK_MASK + 1` for every block of that many nodes a thread has counted (the
    /// game's own nodes apart).
    pub(crate) nodes: AtomicU64,
    /// [`Game::own_nodes`] at the start of the search.
    pub(crate) own_nodes_start: u64,
    /// Raised when a limit stopped the search (as opposed to a thread finishing first).
    pub(crate) interrupted: AtomicBool,
}

impl LimitCheck<'_> {
    /// Counts one more block of nodes of one thread, the game's own nodes being `own_nodes`
    /// ([`Game::own_nodes`]) now; whether a limit is reached.
    pub(crate) fn block_reached(&self, own_nodes: u64) -> bool {
        let nodes = self.nodes.fetch_add(LIMIT_CHECK_MASK + 1, Ordering::Relaxed) + LIMIT_CHECK_MASK + 1;
        self.limits.reached(self.started, nodes + own_nodes.saturating_sub(self.own_nodes_start))
    }
}

/// Keys (64-bit hashes) of the positions some thread is searching right now, one per slot (a
/// lost mark only means a move is not deferred).
pub(crate) struct BusyTable {
    slots: Vec<AtomicU64>,
    shift: u32,
}

impl BusyTable {
    pub(crate) fn new(bits: u32) -> Self {
        BusyTable { slots: (0..1usize << bits).map(|_| AtomicU64::new(0)).collect(), shift: 64 - bits }
    }
    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(mix(key) >> self.shift) as usize]
    }
    #[inline]
    fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }
    #[inline]
    fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }
    #[inline]
    fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// A 64-bit mixer (the finaliser of MurmurHash3).
#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

impl<M: PackedMove + Eq, P: Copy + std::fmt::Debug, K: TtKey> Worker<M, P, K> {
    /// A thread's fresh state; `id` 0 for the calling thread.
    pub(crate) fn new(id: u64) -> Self {
        Worker {
            id,
            perturb: false,
            move_stack: Vec::new(),
            defer_stack: Vec::new(),
            child_stack: Vec::new(),
            memo_stack: Vec::new(),
            stats: Stats::default(),
            budget: u64::MAX,
            stopped: false,
            proven: Vec::new(),
            path: Vec::new(),
        }
    }
}
impl<M: PackedMove + Eq, P: Copy + std::fmt::Debug, K: TtKey> Worker<M, P, K> {
    /// The checks made every `LIMIT_CHECK_MASK + 1` nodes: the limits, the other threads'
    /// stop, the solo budget. Whether this thread must stop.
    #[cold]
    fn block_check<G: Game<Move = M, Position = P, Key = K>, H>(&mut self, ctx: &Ctx<'_, G, H>) -> bool {
        if let Some(check) = &ctx.check {
            if check.block_reached(ctx.game.own_nodes()) {
                check.interrupted.store(true, Ordering::Relaxed);
                ctx.stop.store(true, Ordering::Relaxed);
            }
        }
        ctx.stop.load(Ordering::Relaxed) || self.stats.nodes >= self.budget
    }

    /// The value of the move that led to `child` and banked `gain`, from the parent's side,
    /// searched with the parent's window; `same` if the mover moves again in `child`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn child_value<G: Game<Move = M, Position = P, Key = K>, H: Hooks<G>, T: Table<K, M>>(
        &mut self,
        ctx: &Ctx<'_, G, H>,
        tt: &mut T,
        child: &G::Position,
        gain: Value,
        same: bool,
        alpha: Value,
        beta: Value,
        ply: usize,
        known: Option<(K, Symmetry)>,
    ) -> Value {
        if same {
            gain + self.negamax(ctx, tt, child, alpha - gain, beta - gain, ply + 1, known)
        } else {
            gain - self.negamax(ctx, tt, child, gain - beta, gain - alpha, ply + 1, known)
        }
    }

    /// Negamax with an alpha-beta window over the TT `tt`: the one search of the workspace.
    /// Returns a meaningless 0 once the thread is stopped (`self.stopped`), storing nothing.
    /// `known`: the position's [`Game::canonical_key`], if the caller computed it already.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn negamax<G: Game<Move = M, Position = P, Key = K>, H: Hooks<G>, T: Table<K, M>>(
        &mut self,
        ctx: &Ctx<'_, G, H>,
        tt: &mut T,
        pos: &G::Position,
        mut alpha: Value,
        mut beta: Value,
        ply: usize,
        known: Option<(K, Symmetry)>,
    ) -> Value {
        if self.stopped {
            return 0;
        }
        self.stats.nodes += 1;
        if self.stats.nodes & LIMIT_CHECK_MASK == 0 {
            if self.block_check(ctx) {
                self.stopped = true;
                return 0;
            }
            if let Some(x) = ctx.exchange {
                Self::trade(x, &mut self.proven, tt);
                if !self.path.is_empty() {
                    x.hand_path(&self.path[..ply.min(self.path.len())]);
                }
            }
        }
        let game = ctx.game;
        // With `EXPANDS_WITH_TERMINAL_TEST` (the game's `Expansion`) the moves come with the terminal test; the buffer
        // goes back to the ply's stack on every return before the moves are searched.
        let fused = H::FUSED;
        // With `PROBES_BEFORE_EXPANSION` as well, only the quick part of the terminal test and
        // the early bounds come before the TT probe; the moves (and the rest of the terminal
        // test) after it, at the nodes that neither cuts.
        let late = fused && H::LATE;
        let mut moves = Vec::new();
        if late {
            if let Some(v) = H::quick_terminal_value(game, pos) {
                return v;
            }
        } else if fused {
            if self.move_stack.len() <= ply {
                self.move_stack.resize_with(ply + 1, Vec::new);
                self.memo_stack.resize_with(ply + 1, Vec::new);
            }
            moves = std::mem::take(&mut self.move_stack[ply]);
            moves.clear();
            if let Some(v) = H::terminal_or_moves(game, pos, &mut moves, &mut self.memo_stack[ply]) {
                self.move_stack[ply] = moves;
                return v;
            }
        } else if let Some(v) = game.terminal_value(pos) {
            return v;
        }
        let (mut lo, mut hi) = if late { H::early_value_bounds(game, pos) } else { game.value_bounds(pos) };
        if hi <= alpha || lo >= beta {
            if fused && !late {
                self.move_stack[ply] = moves;
            }
            return if hi <= alpha { hi } else { lo };
        }
        if lo == hi {
            // Bounds that meet are the value (a game that values some positions outright,
            // e.g. dots-and-boxes' loony endgames): nothing to search.
            if fused && !late {
                self.move_stack[ply] = moves;
            }
            return lo;
        }
        // Narrowing the window to the known bounds keeps results exact: a fail-high at `hi` or a
        // fail-low at `lo` then pins the value.
        alpha = alpha.max(lo - 1);
        beta = beta.min(hi + 1);

        let (key, symmetry) = known.unwrap_or_else(|| game.canonical_key(pos));
        if let Some(slot) = self.path.get_mut(ply) {
            *slot = key.hash64();
        }
        // The book: exact values of the positions within its depth of the game's start, read
        // like exact TT entries. Only within that depth below the root: a node deeper below
        // the root is deeper below the start too (but where another line reaches it in fewer
        // moves), where the book has nothing.
        if ply <= ctx.book_plies {
            if let Some(v) = ctx.book.and_then(|b| b.value(key)) {
                self.stats.book_hits += 1;
                if fused && !late {
                    self.move_stack[ply] = moves;
                }
                return v;
            }
        }
        self.stats.tt_probes += 1;
        let mut hint = None;
        // What the value was known to lie in before the search (the game's bounds, the TT
        // entry's bound): a result that meets one end of it is exact.
        let (mut known_lo, mut known_hi) = (lo, hi);
        // A table of both bounds (`T::BOTH_BOUNDS`, known at compile time) is read as such,
        // any other by the one bound of its entry.
        if T::BOTH_BOUNDS {
            if let Some((elo, ehi, best)) = tt.probe_bounds(key) {
                self.stats.tt_hits += 1;
                // Exact, or a bound outside the window: the node is done.
                let cut = if elo >= beta {
                    Some(elo)
                } else if ehi <= alpha || elo == ehi {
                    Some(ehi)
                } else {
                    None
                };
                if let Some(v) = cut {
                    if fused && !late {
                        self.move_stack[ply] = moves;
                    }
                    return v;
                }
                alpha = alpha.max(elo);
                known_lo = known_lo.max(elo);
                beta = beta.min(ehi);
                known_hi = known_hi.min(ehi);
                hint = match symmetry {
                    Symmetry::Map(s) => best.map(|m| game.move_from_canonical(m, s)),
                    Symmetry::Unmapped => None,
                };
            }
        } else if let Some(e) = tt.probe(key) {
            self.stats.tt_hits += 1;
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.value >= beta,
                Bound::Upper => e.value <= alpha,
            };
            if cut {
                if fused && !late {
                    self.move_stack[ply] = moves;
                }
                return e.value;
            }
            match e.bound {
                Bound::Lower => {
                    alpha = alpha.max(e.value);
                    known_lo = known_lo.max(e.value);
                }
                _ => {
                    beta = beta.min(e.value);
                    known_hi = known_hi.min(e.value);
                }
            }
            hint = match symmetry {
                Symmetry::Map(s) => e.best.map(|m| game.move_from_canonical(m, s)),
                Symmetry::Unmapped => None,
            };
        }
        if late {
            // The moves and the rest of the terminal test, then the bounds that hold once the
            // position is known not to be terminal.
            if self.move_stack.len() <= ply {
                self.move_stack.resize_with(ply + 1, Vec::new);
                self.memo_stack.resize_with(ply + 1, Vec::new);
            }
            moves = std::mem::take(&mut self.move_stack[ply]);
            moves.clear();
            let terminal = H::terminal_or_moves(game, pos, &mut moves, &mut self.memo_stack[ply]);
            if terminal.is_none() {
                (lo, hi) = H::expanded_value_bounds(game, pos, (lo, hi));
                known_lo = known_lo.max(lo);
                known_hi = known_hi.min(hi);
            }
            if let Some(v) = terminal.or((hi <= alpha).then_some(hi)).or((lo >= beta).then_some(lo)) {
                self.move_stack[ply] = moves;
                return v;
            }
            alpha = alpha.max(lo - 1);
            beta = beta.min(hi + 1);
        }
        let (alpha0, beta0) = (alpha, beta);
        let nodes0 = self.stats.nodes;
        let me = game.to_move(pos);

        let mut order_late = false;
        if !fused {
            if self.move_stack.len() <= ply {
                self.move_stack.resize_with(ply + 1, Vec::new);
            }
            moves = std::mem::take(&mut self.move_stack[ply]);
            moves.clear();
            game.generate_moves(pos, &mut moves);
            // The TT's best move first; the others ordered once it has not ended the node, if
            // the game prefers (`Game::order_after_hint`).
            order_late = hint.is_some() && moves.len() > 2 && game.order_after_hint(pos);
            if !order_late {
                game.order_moves(pos, &mut moves);
            }
        }
        debug_assert!(!moves.is_empty(), "non-terminal position without moves: {pos:?}");
        if let Some(h) = hint {
            if let Some(i) = moves.iter().position(|&m| m == h) {
                moves[..=i].rotate_right(1);
            } else if order_late {
                order_late = false;
                game.order_moves(pos, &mut moves);
            }
        }
        // Also with one move: the hook sees every window searched (Othello hands it to the
        // child's endgame code, which searches a full window without it).
        let memo: &[u64] = if fused { &self.memo_stack[ply] } else { &[] };
        H::order_in_window(game, pos, &mut moves, memo, (alpha, beta), (known_lo, known_hi));
        if self.perturb && moves.len() > 1 {
            self.perturb(key.hash64(), &mut moves);
        }

        let mut best = -INFINITY;
        let mut best_move = None;
        // Enhanced transposition cutoff: the children are played first (and kept for the
        // search below); every move's value is at least what its child's TT entry gives. One
        // at least `beta` ends the node before any search (not stored: the children's entries
        // hold it); the best raises alpha (a value found equal to it is then exact: every move
        // is searched, none beat it, and one is worth at least that much).
        let etc = moves.len() > 1
            && moves.len() >= ctx.etc_min_moves
            && ctx.etc.is_some_and(|span| hi - lo >= span)
            && (hi - alpha).min(beta - lo) >= ctx.etc_min_reach
            && game.children_in_table(pos);
        let mut children = Vec::new();
        if etc {
            if self.child_stack.len() <= ply {
                self.child_stack.resize_with(ply + 1, Vec::new);
            }
            children = std::mem::take(&mut self.child_stack[ply]);
            children.clear();
            // Every child first, then every look-up: the look-ups (usually cache misses in a
            // large table) follow each other closely enough for the processor to have several
            // under way at once.
            for &m in &moves {
                let (child, gain) =
                    if fused { H::play_memo(game, pos, m, &self.memo_stack[ply]) } else { game.play(pos, m) };
                children.push((child, gain, game.canonical_key(&child)));
            }
            for (&m, &(child, gain, (child_key, _))) in moves.iter().zip(&children) {
                let v = self.etc_bound(game, tt, &child, child_key, gain, me);
                if v > best {
                    best = v;
                    best_move = Some(m);
                    if v >= beta {
                        self.child_stack[ply] = children;
                        self.move_stack[ply] = moves;
                        return v;
                    }
                    alpha = alpha.max(v);
                }
            }
        }
        // Deferral (several threads, or engines sharing their paths): a move another thread
        // or engine is searching is put off.
        let busy = if T::SHARED { ctx.busy.filter(|_| ply < ctx.defer_plies) } else { None };
        let peers = ctx.exchange.filter(|x| ply < x.defer_plies());
        let mut deferred = Vec::new();
        if busy.is_some() || peers.is_some() {
            if self.defer_stack.len() <= ply {
                self.defer_stack.resize_with(ply + 1, Vec::new);
            }
            deferred = std::mem::take(&mut self.defer_stack[ply]);
            deferred.clear();
        }
        let mut searched = 0;
        // First pass: every move, except that a move (other than the first) another thread is
        // searching is put off; second pass: the moves put off.
        let passes = if T::SHARED || peers.is_some() { 2 } else { 1 };
        // The next move's child, played and keyed ahead (`SearchOptions::prefetch_children`).
        let mut ahead: Option<(P, Value, (K, Symmetry))> = None;
        'passes: for pass in 0..passes {
            let count = if pass == 0 { moves.len() } else { deferred.len() };
            for i in 0..count {
                if order_late && i == 1 {
                    // The TT's best move did not end the node: the others in the game's order
                    // (and ETC's children with them).
                    order_late = false;
                    ahead = None;
                    if etc {
                        let before = moves[1..].to_vec();
                        game.order_moves(pos, &mut moves[1..]);
                        let old = children[1..].to_vec();
                        for j in 1..moves.len() {
                            let k = before.iter().position(|&b| b == moves[j]).expect("a permutation");
                            children[j] = old[k];
                        }
                    } else {
                        game.order_moves(pos, &mut moves[1..]);
                    }
                }
                let m = if pass == 0 { moves[i] } else { deferred[i] };
                let ((child, gain), mut known) = if etc && pass == 0 {
                    let (child, gain, key) = children[i];
                    if ctx.prefetch_children {
                        // The next child's bucket, looked up by ETC before the first search,
                        // may have left the cache since.
                        if let Some(&(_, _, (next, _))) = children.get(i + 1) {
                            tt.prefetch(next);
                        }
                    }
                    ((child, gain), Some(key))
                } else if pass == 0 && ctx.prefetch_children && count > 1 {
                    // The child comes played and keyed from the step before (its bucket
                    // prefetched then); the next move's child is played and keyed now, and its
                    // bucket prefetched, so that its load overlaps this child's search.
                    let (c, g, k) = match ahead.take() {
                        Some(x) => x,
                        None => Self::play_prefetched::<G, H, T>(
                            game,
                            tt,
                            pos,
                            m,
                            fused.then(|| &self.memo_stack[ply][..]),
                        ),
                    };
                    if let Some(&m2) = moves.get(i + 1) {
                        let memo = fused.then(|| &self.memo_stack[ply][..]);
                        ahead = Some(Self::play_prefetched::<G, H, T>(game, tt, pos, m2, memo));
                    }
                    ((c, g), Some(k))
                } else if fused {
                    (H::play_memo(game, pos, m, &self.memo_stack[ply]), None)
                } else {
                    (game.play(pos, m), None)
                };
                if let Some(x) = peers.filter(|_| pass == 0 && i > 0) {
                    // The child's key, computed here, goes on to its search.
                    let key = known.unwrap_or_else(|| game.canonical_key(&child));
                    if x.peer_is_busy(key.0.hash64()) {
                        deferred.push(m);
                        continue;
                    }
                    known = Some(key);
                }
                let child_key = busy.map(|b| (b, known.map_or_else(|| game.key(&child), |k| k.0).hash64()));
                if let Some((b, k)) = child_key {
                    if pass == 0 && i > 0 && b.is_busy(k) {
                        deferred.push(m);
                        continue;
                    }
                    b.enter(k);
                }
                let same = game.to_move(&child) == me;
                // Principal variation search: the first move gets the full window, later ones a
                // null window `(alpha, alpha + 1)` first, re-searched only if they beat alpha.
                let mut v;
                if !ctx.pvs || searched == 0 || beta - alpha <= 1 {
                    v = self.child_value(ctx, tt, &child, gain, same, alpha, beta, ply, known);
                } else {
                    v = self.child_value(ctx, tt, &child, gain, same, alpha, alpha + 1, ply, known);
                    if v > alpha && v < beta {
                        v = self.child_value(ctx, tt, &child, gain, same, v, beta, ply, known);
                    }
                }
                if let Some((b, k)) = child_key {
                    b.leave(k);
                }
                searched += 1;
                if self.stopped {
                    break 'passes;
                }
                if v > best {
                    best = v;
                    best_move = Some(m);
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            self.stats.cutoffs += 1;
                            break 'passes;
                        }
                    }
                }
            }
        }
        if busy.is_some() || peers.is_some() {
            self.defer_stack[ply] = deferred;
        }
        if etc {
            self.child_stack[ply] = children;
        }
        self.move_stack[ply] = moves;
        if self.stopped {
            return 0;
        }

        let bound = if best <= alpha0 {
            // At most `best`, and known to be at least `known_lo`: equal, the value is exact.
            if best == known_lo {
                Bound::Exact
            } else {
                Bound::Upper
            }
        } else if best >= beta0 {
            if best == known_hi {
                Bound::Exact
            } else {
                Bound::Lower
            }
        } else {
            Bound::Exact
        };
        let work = u32::try_from(self.stats.nodes - nodes0).unwrap_or(u32::MAX);
        // A fail-low has no meaningful best move: every move was at most alpha.
        let best_move = if bound == Bound::Upper { None } else { best_move };
        let best_move = match symmetry {
            Symmetry::Map(s) => best_move.map(|m| game.move_to_canonical(m, s)),
            Symmetry::Unmapped => None,
        };
        let entry = TtEntry { key, value: best, bound, best: best_move, work };
        tt.store(entry);
        if let Some(x) = ctx.exchange {
            if work >= x.min_work() {
                self.proven.push(entry);
            }
        }
        best
    }

    /// Hands this thread's proven entries to the exchange and stores the ones given to it.
    #[cold]
    fn trade<T: Table<K, M>>(x: &crate::Exchange<K, M>, proven: &mut Vec<TtEntry<K, M>>, tt: &mut T) {
        x.hand_over(proven);
        if let Some(given) = x.take_given() {
            tt.store_all(&given);
        }
    }

    /// `(child, gain, canonical key)` of `m` played from `pos` (through `memo`, a fused game's
    /// memo of the ply), its TT bucket asked into the cache ([`crate::SearchOptions::prefetch_children`]).
    #[inline]
    fn play_prefetched<G: Game<Move = M, Position = P, Key = K>, H: Hooks<G>, T: Table<K, M>>(
        game: &G,
        tt: &T,
        pos: &P,
        m: M,
        memo: Option<&[u64]>,
    ) -> (P, Value, (K, Symmetry)) {
        let (child, gain) = match memo {
            Some(memo) => H::play_memo(game, pos, m, memo),
            None => game.play(pos, m),
        };
        let key = game.canonical_key(&child);
        tt.prefetch(key.0);
        (child, gain, key)
    }

    /// A lower bound on the value of the move that led to `child` and banked `gain` (from the
    /// side to move `me` before it) from `child`'s TT entry, without search (enhanced
    /// transposition cutoff); `-INFINITY` when the entry says nothing.
    #[inline]
    fn etc_bound<G: Game<Move = M, Position = P, Key = K>, T: Table<K, M>>(
        &mut self,
        game: &G,
        tt: &T,
        child: &P,
        key: K,
        gain: Value,
        me: Player,
    ) -> Value {
        self.stats.tt_probes += 1;
        if T::BOTH_BOUNDS {
            let Some((lo, hi, _)) = tt.probe_bounds(key) else { return -INFINITY };
            self.stats.tt_hits += 1;
            // The child's value is from its side to move: a lower bound on it bounds the move
            // from below if the mover moves again, an upper bound if the opponent moves.
            return match game.to_move(child) == me {
                true if lo > -INFINITY => gain + lo,
                false if hi < INFINITY => gain - hi,
                _ => -INFINITY,
            };
        }
        let Some(e) = tt.probe(key) else { return -INFINITY };
        self.stats.tt_hits += 1;
        // As above, from the entry's one bound.
        match (e.bound, game.to_move(child) == me) {
            (Bound::Exact | Bound::Lower, true) => gain + e.value,
            (Bound::Exact | Bound::Upper, false) => gain - e.value,
            _ => -INFINITY,
        }
    }

    /// A helper's move order: at some nodes (chosen by a hash of the position and the thread,
    /// so the same thread orders the same position the same way every time) the first move is
    /// swapped with a later one, so that helpers start in other subtrees than the main thread.
    #[inline]
    fn perturb(&self, key: u64, moves: &mut [M]) {
        let r = mix(key ^ self.id.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        if r & 3 == 0 {
            let j = 1 + (r >> 8) as usize % (moves.len() - 1);
            moves.swap(0, j);
        }
    }
}
