//! [`ConnectFour`]: the game for [`search_core::Engine`], with the Connect Four specific
//! search knowledge (the ideas of J. Tromp's Fhourstones and P. Pons' solver).
//!
//! - Positions the side to move wins at once, positions where every move loses at once (two
//!   opponent threats, or a forced block below another), and positions the side to move wins
//!   with its next-but-one stone (a move leaving only losing replies) are *terminal* for the
//!   engine: their exact value is known without search ([`ConnectFour::resolved`]), before any
//!   TT probe.
//! - Moves that lose at once (leaving the opponent an immediate win, including a stone just
//!   below an opponent's winning spot) are never generated; when the opponent threatens to win,
//!   only the block is generated.
//! - Forced replies are part of the move: [`search_core::Game::play`] goes on playing while the
//!   side to move has exactly one move that does not lose at once, so forced sequences cost no
//!   node and no TT probe (L1_R3 first 6: 15.5M -> 12.0M nodes). The next player to move may
//!   then be the same one, which the engine handles as a move that keeps the turn.
//! - The terminal test, move generation and ordering are one call at each node
//!   ([`search_core::Expansion::terminal_or_moves`]): the win-in-two test computes the winning spots
//!   after every move, which the ordering counts and [`search_core::Expansion::play_memo`] reuses
//!   for the child, so they are computed once per move instead of three times.
//! - Move ordering: the centre columns first, then stably by the number of winning spots the
//!   move leaves its player (threats; not counting those just above an opponent's spot), one
//!   fewer for a stone just below one's own winning spot; before all of them the moves that
//!   make a new threat the opponent must block at once. Where the window hunts a quick win
//!   (`alpha` at least 5), [`search_core::Expansion::order_in_window`] puts first a stone under
//!   one's own threat after which, the forced block played, the mover wins with its next or
//!   next-but-one stone ([`ConnectFour::resolved`]): the ordering otherwise puts such stones
//!   last (Test_L1_R1 first 100: 195,471 -> 148,913 nodes).
//! - The TT key is the position code (current + mask, unique, no hashing) folded over the
//!   left-right mirror.
//! - [`search_core::Game::value_bounds`] from the number of stones left: in a position that
//!   is not terminal the side to move wins neither with its next stone nor with the one after
//!   (both would be terminal), and the opponent does not win with its next stone (losing moves
//!   are not generated); L. V. Allis' claimeven rule, in the form that holds on any board: when
//!   an even number of cells is empty, the opponent (who would lay the last stone) can claim
//!   every *high* cell (an even number of cells above it in its column) not playable now; if
//!   the side to move has no line on the other cells, its score is at most 0 (at most -1 if the
//!   opponent's cells hold a line); with an odd number of cells empty, a move leading to such a
//!   position bounds the mover's score from below ([`search_core::Game::value_bounds`] is where
//!   the engine prunes with them, before the TT probe).

use search_core::{BookIdentity, Expansion, Game, Player, SearchVisitor, Symmetry, Value};

use crate::{Board, Column, Geometry};

/// The ordering bonus of a move that makes a new threat the opponent must block at once: more
/// than any count of threats, so such moves come first.
const FORCING_BONUS: u32 = 32;

/// The least `alpha` at which [`Expansion::order_in_window`] looks for quick wins behind stones
/// under one's own threat.
const QUICK_WIN_FLOOR: Value = 5;

/// Connect Four on one [`Geometry`], as seen by [`search_core::Engine`]. Values are Pons'
/// scores: with `n` stones on the board, a win with the mover's next stone scores
/// `(cells + 1 - n) / 2` (22 - k for a win with one's k-th stone on 7 x 6), a draw 0, a loss the
/// negative of the winner's score.
#[derive(Clone, Debug)]
pub struct ConnectFour {
    geom: Geometry,
    /// Columns from the centre outwards (`3 4 2 5 1 6 0` on 7 columns, left of centre first).
    order: Vec<u8>,
    /// For each bit of the board (64), its column and that column's place in `order` (0 for
    /// the centre).
    bit_column: [(u8, u8); 64],
    /// The *high* cells, those with an even number of cells above them in their column (the
    /// top row, the one two below, ...), for the claimeven bound.
    high_cells: u64,
}

impl ConnectFour {
    /// What an opening book of this board's positions is ([`search_core::Book::check`]):
    /// `connect-four WxH` (and ` kK` for lines of K other than 4), this game's key scheme,
    /// Pons' scores from `-(cells + 1) / 2` to `(cells + 1) / 2`.
    #[must_use]
    pub fn book_identity(&self) -> BookIdentity {
        let (w, h, k) = (self.geom.width(), self.geom.height(), self.geom.k());
        let board =
            if k == 4 { format!("connect-four {w}x{h}") } else { format!("connect-four {w}x{h} k{k}") };
        let most = (self.geom.cells() as Value + 1) / 2;
        search_core::book_identity(self, &board, (-most, most))
    }

    /// The game on `geom`.
    #[must_use]
    pub fn new(geom: Geometry) -> Self {
        let w = geom.width() as i32;
        let order: Vec<u8> = (0..w).map(|i| (w / 2 + (1 - 2 * (i % 2)) * (i + 1) / 2) as u8).collect();
        let mut bit_column = [(0, 0); 64];
        for (rank, &c) in order.iter().enumerate() {
            let mut bits = geom.column_mask(c as usize);
            while bits != 0 {
                bit_column[bits.trailing_zeros() as usize] = (c, rank as u8);
                bits &= bits - 1;
            }
        }
        let mut high_cells = 0;
        for c in 0..geom.width() {
            for r in (0..geom.height()).rev().step_by(2) {
                high_cells |= geom.cell_bit(c, r);
            }
        }
        ConnectFour { geom, order, bit_column, high_cells }
    }

    /// The geometry.
    #[must_use]
    pub fn geometry(&self) -> &Geometry {
        &self.geom
    }

    /// Score of a win with the mover's next stone, `n` stones on the board.
    #[inline]
    fn win_now(&self, n: u32) -> Value {
        (self.geom.cells() as Value + 1 - Value::from(n)) / 2
    }

    /// Cells where the side to move can drop a stone without losing at once: if the opponent
    /// threatens one playable cell, only that block; if two, none; never a cell just below an
    /// opponent's winning spot. Assumes the side to move cannot win at once.
    #[inline]
    fn non_losing(&self, b: &Board) -> u64 {
        let mut playable = self.geom.playable(b.mask());
        let threats = b.their_spots();
        let forced = playable & threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            playable = forced;
        }
        playable & !(threats >> 1)
    }

    /// The exact value of `b` if known without search: finished by the side to move winning at
    /// once (`(cells + 1 - n) / 2`), lost because every move loses at once (`-(cells - n) / 2`),
    /// drawn because too few cells are left for anyone to win (`0`), or won with the mover's
    /// next-but-one stone because some move leaves the opponent only losing replies (a double
    /// threat, or a forced block below another threat): `(cells - 1 - n) / 2`, the best score
    /// left. `None` otherwise.
    #[inline]
    #[must_use]
    pub fn resolved(&self, b: &Board) -> Option<Value> {
        let playable = self.geom.playable(b.mask());
        if b.my_spots() & playable != 0 {
            return Some(self.win_now(b.moves()));
        }
        if self.non_losing(b) == 0 {
            return Some(-self.win_now(b.moves() + 1));
        }
        if b.moves() as usize + 2 >= self.geom.cells() {
            return Some(0);
        }
        if self.wins_in_two(b) {
            return Some(self.win_now(b.moves() + 2));
        }
        None
    }

    /// L. V. Allis' claimeven, in the form that holds on any board, as an upper bound on the
    /// score of the side to move, `A`, when an even number of cells is empty (so that the
    /// opponent `B` would lay the last stone). Call a cell *high* when the cells above it in its
    /// column are even in number (the top row, the one two below, ...: the even rows on a board
    /// of even height, the odd rows on one of odd height). `B` answers an `A` stone by the cell
    /// just above it when that cell is high, and otherwise (`A` took the lowest empty cell of a
    /// column with an odd number of empty cells, itself high) by the lowest empty cell of
    /// another such column (their number is even whenever `A` is to move). `B` so gets every
    /// empty high cell not playable now, `A` at most the other cells. If those hold no line for
    /// `A`, `A` never wins: the score is at most 0, and at most -1 (`B` wins, at the latest with
    /// the last stone) if `B`'s cells hold a line. `None` when the rule says nothing.
    #[inline]
    fn claimeven_bound(&self, b: &Board) -> Option<Value> {
        if (self.geom.cells() - b.moves() as usize) % 2 != 0 {
            return None;
        }
        self.claimeven_of(b.opponent(), b.mask())
    }

    /// [`ConnectFour::claimeven_bound`] of the position with stones `mask` where `last` are
    /// the stones of the player who moved last (an even number of cells empty).
    #[inline]
    fn claimeven_of(&self, last: u64, mask: u64) -> Option<Value> {
        let claimed = last | (self.high_cells & !mask & !self.geom.playable(mask));
        if self.geom.has_line(self.geom.board() & !claimed) {
            return None;
        }
        Some(if self.geom.has_line(claimed) { -1 } else { 0 })
    }

    /// A lower bound for the side to move when an odd number of cells is empty, from the
    /// claimeven bound of its moves: a move after which the opponent is held to at most `v` is
    /// worth at least `-v`.
    #[inline]
    fn claimeven_lower(&self, b: &Board) -> Option<Value> {
        if (self.geom.cells() - b.moves() as usize) % 2 == 0 {
            return None;
        }
        // After a move on the playable cell `c`, the opponent's cells are those of the
        // position now minus `c` plus the cell above it: if the cells left to the opponent
        // whatever the move (no playable cell, no high cell the mover would claim) already
        // hold a line, no move gives a bound.
        let mask = b.mask();
        let playable = self.geom.playable(mask);
        let claimed = b.current() | (self.high_cells & !mask & !playable);
        if self.geom.has_line(self.geom.board() & !claimed & !playable) {
            return None;
        }
        let mut best = None;
        let mut cells = playable;
        while cells != 0 {
            let cell = cells & cells.wrapping_neg();
            cells ^= cell;
            // The child after a stone on `cell` (its winning spots are not needed here).
            if let Some(v) = self.claimeven_of(b.current() | cell, mask | cell) {
                if v < 0 {
                    return Some(-v);
                }
                best = Some(-v);
            }
        }
        best
    }

    /// Whether the side to move (unable to win at once, with a non-losing move) has a move
    /// after which every reply loses at once: a win with its next-but-one stone, the best
    /// score left.
    #[inline]
    fn wins_in_two(&self, b: &Board) -> bool {
        let mut nl = self.non_losing(b);
        while nl != 0 {
            let cell = nl & nl.wrapping_neg();
            nl ^= cell;
            let mask = b.mask() | cell;
            let spots = self.geom.winning_spots(b.current() | cell, mask);
            let playable = self.geom.playable(mask);
            let forced = playable & spots;
            if forced & forced.wrapping_sub(1) != 0 {
                return true;
            }
            let allowed = if forced != 0 { forced } else { playable };
            if allowed & !(spots >> 1) == 0 {
                return true;
            }
        }
        false
    }

    /// The position after a move, `b`, with the forced replies that follow it played. Always
    /// inline: with [`ConnectFour::quick_win_first`] as one more caller the compiler kept it
    /// out of line, which cost the search about 2 % more instructions (L1_R3 positions 6 and
    /// 14: 1,638 M against 1,613 M).
    #[inline(always)]
    fn settle(&self, mut b: Board) -> Board {
        // Forced replies are played at once: while the side to move cannot win at once and
        // has exactly one move that does not lose at once, that move is at least as good as any
        // other (the others lose with the opponent's next stone, the worst score there is), so
        // it is part of this move and costs no node or TT probe. The engine sees the same or
        // the other player to move next, as after a move that keeps the turn.
        loop {
            if b.my_spots() & self.geom.playable(b.mask()) != 0 || b.moves() as usize + 2 >= self.geom.cells()
            {
                break;
            }
            let nl = self.non_losing(&b);
            if nl == 0 || nl & (nl - 1) != 0 {
                break;
            }
            b = b.play_cell(&self.geom, nl);
        }
        b
    }

    /// Bounds on the score of `pos`, whose side to move neither wins at once nor loses at once
    /// (so that the opponent wins at the earliest with its second stone), its score at most
    /// `max`, tightened by claimeven.
    #[inline]
    fn bounds_below(&self, pos: &Board, max: Value) -> (Value, Value) {
        let (mut lo, mut hi) = (-self.win_now(pos.moves() + 3), max);
        if let Some(v) = self.claimeven_bound(pos) {
            hi = hi.min(v);
        }
        if let Some(v) = self.claimeven_lower(pos) {
            lo = lo.max(v);
        }
        (lo, hi)
    }

    /// Puts first the best of the stones just below one's own winning spot (which the
    /// ordering puts last) whose value is known at once and beats `alpha`: after such a stone,
    /// the opponent's block and the forced replies played, [`ConnectFour::resolved`] of the
    /// position (a win with the next or next-but-one stone after the block) is the move's
    /// exact value. `memo` as [`Expansion::terminal_or_moves`] left it (or empty). Out of line:
    /// rarely called, and inline it changes how the search's hot path is compiled.
    #[inline(never)]
    fn quick_win_first(&self, pos: &Board, moves: &mut [Column], memo: &[u64], alpha: Value) {
        let mine = pos.my_spots();
        let me = pos.moves() % 2;
        let mut best = alpha;
        let mut best_i = None;
        for (i, &m) in moves.iter().enumerate() {
            let cell = pos.landing_cell(&self.geom, m.index());
            if (cell << 1) & mine == 0 {
                continue;
            }
            let (child, _) = if memo.is_empty() { self.play(pos, m) } else { self.play_memo(pos, m, memo) };
            if let Some(v) = self.resolved(&child) {
                let v = if child.moves() % 2 == me { v } else { -v };
                if v > best {
                    best = v;
                    best_i = Some(i);
                }
            }
        }
        if let Some(i) = best_i {
            moves[..=i].rotate_right(1);
        }
    }

    /// The ordering score of a stone on `cell` (more first), given the mover's winning spots
    /// before it, `mine`, the cells just above the opponent's, `above_theirs`, and after it,
    /// `spots`, of which `forced` are playable (the opponent must block them).
    ///
    /// One more than the number of winning spots the move leaves its player, not counting
    /// spots just above an opponent's spot: whoever fills the cell below lets the other win,
    /// so neither does (L1_R3 first 6: 17.8M -> 15.5M nodes). One fewer for a stone just below
    /// one's own winning spot, which lets the opponent block it (L1_R3 first 6: 21.6M ->
    /// 18.4M). And a move that makes a *new* threat the opponent must block at once (not one
    /// of the mover's spots before it) first: it forces the reply and keeps the move, what
    /// quick wins are made of (first 100 of Test_L1_R1, TT 2^16: 218,429 -> 195,536 nodes;
    /// all 1000 1.61 M -> 1.30 M; Test_L2_R2 first 300 4.28 M -> 4.25 M; Test_L1_R2 first 20
    /// 5.65 M -> 5.53 M; Test_L1_R3 positions 6 and 14 1.288 M -> 1.256 M).
    #[inline]
    fn order_score(&self, mine: u64, above_theirs: u64, cell: u64, spots: u64, forced: u64) -> u32 {
        let below_own = u32::from((cell << 1) & mine != 0);
        let new_forcing = if forced != 0 && forced & mine == 0 { FORCING_BONUS } else { 0 };
        (spots & !above_theirs).count_ones() + 1 - below_own + new_forcing
    }
}

impl Game for ConnectFour {
    type Position = Board;
    type Move = Column;
    type Key = u64;

    #[inline]
    fn to_move(&self, pos: &Board) -> Player {
        if pos.moves() % 2 == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    #[inline]
    fn terminal_value(&self, pos: &Board) -> Option<Value> {
        self.resolved(pos)
    }

    #[inline]
    fn generate_moves(&self, pos: &Board, moves: &mut Vec<Column>) {
        let nl = self.non_losing(pos);
        for &c in &self.order {
            if nl & self.geom.column_mask(c as usize) != 0 {
                moves.push(Column(c));
            }
        }
    }

    #[inline]
    fn play(&self, pos: &Board, mv: Column) -> (Board, Value) {
        (self.settle(pos.play(&self.geom, mv.index())), 0)
    }

    #[inline]
    fn key(&self, pos: &Board) -> u64 {
        let code = pos.code();
        code.min(self.geom.mirror(code))
    }

    /// [`Game::key`], and symmetry 1 (the left-right mirror) when the key is the mirror
    /// image's code, so that the TT's best move is stored and read in the key's orientation.
    #[inline]
    fn canonical_key(&self, pos: &Board) -> (u64, Symmetry) {
        let code = pos.code();
        let mirrored = self.geom.mirror(code);
        if mirrored < code {
            (mirrored, Symmetry::Map(1))
        } else {
            (code, Symmetry::IDENTITY)
        }
    }

    #[inline]
    fn move_to_canonical(&self, mv: Column, symmetry: u8) -> Column {
        if symmetry == 0 {
            mv
        } else {
            Column(self.geom.width() as u8 - 1 - mv.0)
        }
    }

    #[inline]
    fn move_from_canonical(&self, mv: Column, symmetry: u8) -> Column {
        self.move_to_canonical(mv, symmetry)
    }

    #[inline]
    fn value_bounds(&self, pos: &Board) -> (Value, Value) {
        // For a position that is not terminal ([`ConnectFour::resolved`]): the opponent does
        // not win with its next stone, so at the earliest with its second (n + 3 stones before
        // it); the mover wins neither with its next stone nor with its second, so at the
        // earliest with its third (n + 4 stones before it).
        // Claimeven: an upper bound when an even number of cells is empty, a lower bound from
        // the mover's moves otherwise. Test_L1_R3, first 20, TT 2^16,
        // one run: 303.2M nodes 65.4 s without, 256.0M 62.8 s with the upper bound, 235.8M
        // 59.0 s with both.
        self.bounds_below(pos, self.win_now(pos.moves() + 4))
    }

    #[inline]
    fn order_moves(&self, pos: &Board, moves: &mut [Column]) {
        // Insertion sort by score, most threats first, stable; the scores in a small array
        // beside the moves (a board has at most 32 columns).
        let mut scores = [0u8; 64];
        for i in 0..moves.len() {
            let m = moves[i];
            let cell = pos.landing_cell(&self.geom, m.index());
            let spots = self.geom.winning_spots(pos.current() | cell, pos.mask() | cell);
            let forced = self.geom.playable(pos.mask() | cell) & spots;
            let t = self.order_score(pos.my_spots(), pos.their_spots() << 1, cell, spots, forced) as u8;
            let mut j = i;
            while j > 0 && scores[j - 1] < t {
                moves[j] = moves[j - 1];
                scores[j] = scores[j - 1];
                j -= 1;
            }
            moves[j] = m;
            scores[j] = t;
        }
    }
    /// The search uses the hooks of [`Expansion`] (the moves made with the terminal test).
    fn visit_search<V: SearchVisitor<Self>>(visitor: V) -> V::Output {
        visitor.expanded()
    }
}
/// Connect Four's search hooks: the moves made with the terminal test, the winning spots after
/// each move kept as the node's memo, the quick wins looked for where the window asks.
impl Expansion for ConnectFour {
    const EXPANDS_WITH_TERMINAL_TEST: bool = true;

    /// [`ConnectFour::resolved`], and the moves of a position it does not resolve, ordered as
    /// by [`Game::order_moves`]: the win-in-two test computes the winning spots after every
    /// move that does not lose at once, which are all the moves, and the ordering counts them
    /// (computed once instead of twice).
    #[inline]
    fn terminal_or_moves(&self, b: &Board, moves: &mut Vec<Column>, memo: &mut Vec<u64>) -> Option<Value> {
        let mask = b.mask();
        let playable = self.geom.playable(mask);
        if b.my_spots() & playable != 0 {
            return Some(self.win_now(b.moves()));
        }
        let nl = self.non_losing(b);
        if nl == 0 {
            return Some(-self.win_now(b.moves() + 1));
        }
        if b.moves() as usize + 2 >= self.geom.cells() {
            return Some(0);
        }
        let mine = b.my_spots();
        let above_theirs = b.their_spots() << 1;
        // The memo: the mover's winning spots after a stone in column `c` at `memo[c]`, for
        // `play_memo`.
        if memo.len() < self.geom.width() {
            memo.resize(self.geom.width(), 0);
        }
        // Sort keys: the score of `order_moves` above the place in the centre-first order, so
        // that sorting them (most threats first) gives `order_moves`' stable order whatever
        // the order the moves are found in.
        let mut keys = [0u16; 32];
        let mut n = 0;
        let mut rest = nl;
        while rest != 0 {
            let cell = rest & rest.wrapping_neg();
            rest ^= cell;
            let (c, rank) = self.bit_column[cell.trailing_zeros() as usize];
            // The win-in-two test of `wins_in_two` for this move.
            let child_mask = mask | cell;
            let spots = self.geom.winning_spots(b.current() | cell, child_mask);
            let child_playable = self.geom.playable(child_mask);
            let forced = child_playable & spots;
            if forced & forced.wrapping_sub(1) != 0 {
                return Some(self.win_now(b.moves() + 2));
            }
            let allowed = if forced != 0 { forced } else { child_playable };
            if allowed & !(spots >> 1) == 0 {
                return Some(self.win_now(b.moves() + 2));
            }
            memo[c as usize] = spots;
            // The score of `order_moves`, inserted stably, most threats first.
            let t = self.order_score(mine, above_theirs, cell, spots, forced);
            let key = (t << 6 | (63 - u32::from(rank))) as u16;
            let mut j = n;
            while j > 0 && keys[j - 1] < key {
                keys[j] = keys[j - 1];
                j -= 1;
            }
            keys[j] = key;
            n += 1;
        }
        // The key's low bits name the column (its place in the centre-first order).
        moves.extend(keys[..n].iter().map(|&k| Column(self.order[usize::from(63 - (k & 63))])));
        None
    }

    // Off: on the small in-cache tables of Pons' easy sets the probe before the expansion saves
    // about 2 % of the instructions (L1_R1), but on the empty 7x6 board (TT 2^24) it cost about
    // 5 % of the time with the same nodes (36.7 / 37.6 s against 34.8 s, 130,689,965 nodes): the
    // probe's cache miss no longer overlaps the expansion. The hooks below stay, tested.
    const PROBES_BEFORE_EXPANSION: bool = false;

    /// The cheap part of [`ConnectFour::resolved`]: a win at once, every move losing at once, a
    /// draw by the cells left; not the win with the next-but-one stone (a pass over the moves,
    /// left to [`Expansion::terminal_or_moves`] after the TT probe).
    #[inline]
    fn quick_terminal_value(&self, b: &Board) -> Option<Value> {
        if b.my_spots() & self.geom.playable(b.mask()) != 0 {
            return Some(self.win_now(b.moves()));
        }
        if self.non_losing(b) == 0 {
            return Some(-self.win_now(b.moves() + 1));
        }
        if b.moves() as usize + 2 >= self.geom.cells() {
            return Some(0);
        }
        None
    }

    /// [`Game::value_bounds`] with the upper bound of a position that may still be won with
    /// the next-but-one stone (the side to move does not win with its next one).
    #[inline]
    fn early_value_bounds(&self, pos: &Board) -> (Value, Value) {
        self.bounds_below(pos, self.win_now(pos.moves() + 2))
    }

    /// The upper bound of [`Game::value_bounds`]: not won with the next-but-one stone either.
    #[inline]
    fn expanded_value_bounds(&self, pos: &Board, (lo, hi): (Value, Value)) -> (Value, Value) {
        (lo, hi.min(self.win_now(pos.moves() + 4)))
    }

    /// [`Game::play`] with the winning spots after the move that `terminal_or_moves` left in
    /// `memo` (not computed again).
    #[inline]
    fn play_memo(&self, pos: &Board, mv: Column, memo: &[u64]) -> (Board, Value) {
        let cell = pos.landing_cell(&self.geom, mv.index());
        let spots = memo[mv.index()];
        debug_assert_eq!(spots, self.geom.winning_spots(pos.current() | cell, pos.mask() | cell));
        (self.settle(pos.play_cell_with_spots(cell, spots)), 0)
    }

    /// Where the window's `alpha` is at least `QUICK_WIN_FLOOR`, 5 (the search hunts a quick
    /// win), the stones just below one's own winning spot (last in the ordering) are looked at
    /// again (`ConnectFour::quick_win_first`).
    #[inline]
    fn order_in_window(
        &self,
        pos: &Board,
        moves: &mut [Column],
        memo: &[u64],
        (alpha, _beta): (Value, Value),
        _bounds: (Value, Value),
    ) {
        // A single move has no order to change (the engine calls this hook at such nodes too).
        if alpha >= QUICK_WIN_FLOOR && moves.len() > 1 {
            self.quick_win_first(pos, moves, memo, alpha);
        }
    }
}
