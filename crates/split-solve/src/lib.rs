#![doc = include_str!("../README.md")]

pub mod record;

use std::collections::{BinaryHeap, HashMap, HashSet};

use search_core::{Game, Threshold, Value, INFINITY};

pub use record::Record;

/// How a [`Split`] is built and what it proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitOptions {
    /// Plies from the root to the frontier (0: the root itself is the one job; at least 1 with
    /// `exact_moves`).
    pub depth: u32,
    /// How the margin is narrowed, one null-window question at a time: the engine's
    /// [`Threshold`] policy, [`SplitOptions::default`]'s MTD(f) from 0 ("greater than 0?"
    /// first, then the bound nearest 0: few questions when the value is near 0, as in
    /// Triangle War and dots-and-boxes) or [`Threshold::Bisection`].
    pub threshold: Threshold,
    /// Make every root move's value exact (first-move values, as for an analysis), not only
    /// the root's.
    pub exact_moves: bool,
}

/// MTD(f) whose first test is "greater than 0?": the split's default [`Threshold`].
pub const MTD_FROM_ZERO: Threshold = Threshold::Mtd { first: 0 };

impl Default for SplitOptions {
    fn default() -> Self {
        SplitOptions { depth: 3, threshold: MTD_FROM_ZERO, exact_moves: false }
    }
}

/// A job: the null-window question "is the value of `position` (side to move) greater than
/// `threshold`?", to be searched with the window `(threshold, threshold + 1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job<P> {
    /// Index of the frontier position (0 to [`Split::frontier_len`] - 1).
    pub leaf: u32,
    /// The position's TT key, widened (what its [`Record`] names).
    pub key: u128,
    /// A position with that key (the first one the expansion met).
    pub position: P,
    /// The question's threshold.
    pub threshold: Value,
}

/// Bounds on the moves of a node of the frontier tree, `(move, lo, hi)` from the side to move
/// there, the move's gain included ([`Split::move_bounds`]).
pub type MoveBounds<M> = Vec<(M, Value, Value)>;

/// The identity of a job: frontier index and threshold.
pub type JobId = (u32, Value);

/// Which jobs a round of independent jobs holds ([`Split::round_of`]: what `--shard` slices,
/// where the shards cannot see each other's results).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RoundKind {
    /// Every job the current questions need: every child of every node whose bounds do not
    /// answer its question ([`Split::round`]).
    Full,
    /// The jobs of the first alpha-beta order, as a serial search would try them if every
    /// first move were the best: the first question's node is a PV node whose first child is
    /// again a PV node and whose other moves are expected not to beat the threshold; a node
    /// expected above its threshold needs only its first undecided child (expected to prove
    /// it), a node expected not above needs all of them (each expected to fail). When a guess
    /// is wrong, the next round (or the merge) asks the next moves.
    #[default]
    FirstOrder,
}

/// What a [`RoundKind::FirstOrder`] round expects of a node's question "value > t?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// Not known: a PV node.
    Unknown,
    /// Yes: one child proves it.
    Above,
    /// No: every child must fail.
    NotAbove,
}

/// Errors of a split solve.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SplitError {
    /// A result contradicts the bounds already proven (a record of another game, board or
    /// engine, a forged or mis-copied record, or a search that is not exact): nothing is
    /// changed.
    #[error("{0}")]
    Contradiction(Box<Contradiction>),
    /// A result for a frontier index that does not exist.
    #[error("no frontier position {0}")]
    NoSuchLeaf(u32),
}

/// A result that, applied, would give the position with key `at` a lower bound above its
/// upper bound, there or where its bounds reach an ancestor ([`SplitError::Contradiction`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "a result for key {:#x} (threshold {}, fail-soft {}) contradicts the bounds proven: position {at:#x} would be at least {lo} by {} and at most {hi} by {}",
    record.key,
    record.threshold,
    record.value,
    records_text(lower),
    records_text(upper)
)]
pub struct Contradiction {
    /// The result that was refused.
    pub record: Record,
    /// The key of the node where the bounds cross (the result's own position, or an
    /// ancestor's).
    pub at: u128,
    /// The lower bound the node would get.
    pub lo: Value,
    /// The upper bound the node would get.
    pub hi: Value,
    /// Records that prove the lower bound (at most [`MAX_NAMED_RECORDS`]; empty when it is the
    /// game's own bound).
    pub lower: Vec<Record>,
    /// Records that prove the upper bound (at most [`MAX_NAMED_RECORDS`]).
    pub upper: Vec<Record>,
}

/// Most records a [`SplitError::Contradiction`] names on each side.
pub const MAX_NAMED_RECORDS: usize = 6;

/// Records in words for an error message: `record (key K, threshold T, fail-soft V)` each, or
/// the game's bounds when there are none.
#[must_use]
pub fn records_text(records: &[Record]) -> String {
    if records.is_empty() {
        return "the game's own bounds".to_string();
    }
    let words: Vec<String> = records
        .iter()
        .map(|r| format!("record (key {:#x}, threshold {}, fail-soft {})", r.key, r.threshold, r.value))
        .collect();
    words.join(", ")
}

/// No record set this bound (it is the game's own, or derived from the children).
const NO_SOURCE: u32 = u32::MAX;

/// One edge of the frontier tree (12 bytes: a deep tree has tens of millions of them). The
/// move is not kept: [`Split::move_bounds_after`] finds an edge by its child's key.
#[derive(Clone, Copy, Debug)]
struct Edge {
    /// The child's node index.
    child: u32,
    /// The points the move banks for the mover.
    gain: i32,
    /// The mover moves again in the child.
    same: bool,
}

impl Edge {
    fn child(&self) -> usize {
        self.child as usize
    }

    /// The child's threshold for the question "is the move's value > t?".
    fn child_threshold(&self, t: Value) -> Value {
        let gain = Value::from(self.gain);
        if self.same {
            t - gain
        } else {
            gain - t - 1
        }
    }

    /// The question "is the move's value > t?" whose child question has the threshold `tc`
    /// ([`Edge::child_threshold`] undone).
    fn parent_threshold(&self, tc: Value) -> Value {
        let gain = Value::from(self.gain);
        if self.same {
            tc + gain
        } else {
            gain - tc - 1
        }
    }

    /// Bounds on the move's value (side to move of the parent) from the child's bounds.
    fn move_bounds(&self, (lo, hi): (Value, Value)) -> (Value, Value) {
        let gain = Value::from(self.gain);
        if self.same {
            (gain + lo, gain + hi)
        } else {
            (gain - hi, gain - lo)
        }
    }
}

/// A node of the frontier tree.
#[derive(Clone, Debug)]
struct Node<P> {
    pos: P,
    lo: Value,
    hi: Value,
    edges: Vec<Edge>,
    /// Frontier index, for a job position.
    leaf: Option<u32>,
    /// Index in [`Split::applied`] of the record that set `lo`, or [`NO_SOURCE`].
    lo_src: u32,
    /// Index in [`Split::applied`] of the record that set `hi`, or [`NO_SOURCE`].
    hi_src: u32,
}

impl<P> Node<P> {
    /// Whether the bounds answer "is the value > t?".
    fn answers(&self, t: Value) -> bool {
        self.lo > t || self.hi <= t
    }
}

/// Counts for a progress line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Jobs whose results were recorded (read from a store or finished in this run).
    pub done: u64,
    /// Jobs handed out and not finished.
    pub in_flight: usize,
    /// Jobs the current questions still need, not handed out (more may follow once they are
    /// answered).
    pub left: usize,
    /// Nodes of the recorded jobs.
    pub nodes: u64,
    /// Bounds on the root's value, side to move.
    pub root: (Value, Value),
    /// With [`SplitOptions::exact_moves`]: the root's children (positions after one move,
    /// folded by key, so one per class of symmetric first moves) whose values are exact, and
    /// how many there are; `None` without.
    pub first_moves: Option<(usize, usize)>,
}

/// The coordinator of a split solve: the frontier tree with bounds, the questions being asked
/// and the jobs in flight. See the crate's documentation.
#[derive(Debug)]
pub struct Split<G: Game> {
    game: G,
    options: SplitOptions,
    nodes: Vec<Node<G::Position>>,
    /// The parents of node `n` (each once) are `parents[parent_start[n]..parent_start[n + 1]]`.
    parent_start: Vec<u32>,
    parents: Vec<u32>,
    /// Node index of each frontier position.
    leaves: Vec<usize>,
    /// Frontier index by widened key.
    by_key: HashMap<u128, u32>,
    /// The interior nodes (neither frontier nor terminal) by widened key, for records of a
    /// shallower split ([`Split::apply`]).
    interior_by_key: HashMap<u128, Vec<u32>>,
    in_flight: HashSet<JobId>,
    /// The whole plan (needed jobs in order) for [`Split::round`] and [`Split::progress`],
    /// rebuilt when asked for after bounds changed.
    plan: Vec<JobId>,
    plan_stale: bool,
    done: u64,
    nodes_done: u64,
    /// The records that set a node's bound directly, for naming them in a
    /// [`SplitError::Contradiction`].
    applied: Vec<Record>,
}

/// A node's bounds and their sources before a change, to undo it.
type Undo = Vec<(usize, Value, Value, u32, u32)>;

impl<G: Game> Split<G>
where
    G::Key: Into<u128>,
{
    /// The frontier tree of `root` to `options.depth` plies: moves in the game's order
    /// ([`Game::generate_moves`], then [`Game::order_moves`]), positions of one depth folded by
    /// key, terminal positions exact, every other node bounded by [`Game::value_bounds`].
    pub fn new(game: G, root: &G::Position, options: SplitOptions) -> Self {
        let mut split = Split {
            game,
            options,
            nodes: Vec::new(),
            parent_start: Vec::new(),
            parents: Vec::new(),
            leaves: Vec::new(),
            by_key: HashMap::new(),
            interior_by_key: HashMap::new(),
            in_flight: HashSet::new(),
            plan: Vec::new(),
            plan_stale: true,
            done: 0,
            nodes_done: 0,
            applied: Vec::new(),
        };
        let root_node = split.new_node(root);
        let mut level = vec![root_node];
        let mut moves = Vec::new();
        // First-move values need the root's moves in the tree.
        let depth = if options.exact_moves { options.depth.max(1) } else { options.depth };
        for _ in 0..depth {
            let mut next: HashMap<u128, usize> = HashMap::new();
            let mut next_level = Vec::new();
            for &n in &level {
                if split.is_terminal(n) {
                    continue;
                }
                let pos = split.nodes[n].pos;
                moves.clear();
                split.game.generate_moves(&pos, &mut moves);
                split.game.order_moves(&pos, &mut moves);
                let me = split.game.to_move(&pos);
                for &mv in &moves {
                    let (child, gain) = split.game.play(&pos, mv);
                    let same = split.game.to_move(&child) == me;
                    let key: u128 = split.game.key(&child).into();
                    let c = match next.get(&key) {
                        Some(&c) => c,
                        None => {
                            let c = split.new_node(&child);
                            next.insert(key, c);
                            next_level.push(c);
                            c
                        }
                    };
                    let child = u32::try_from(c).expect("at most 2^32 nodes in a frontier tree");
                    let gain = i32::try_from(gain).expect("a move's gain fits in 32 bits");
                    split.nodes[n].edges.push(Edge { child, gain, same });
                }
            }
            level = next_level;
        }
        for &n in &level {
            if !split.is_terminal(n) {
                let key: u128 = split.game.key(&split.nodes[n].pos).into();
                let leaf = split.leaves.len() as u32;
                split.leaves.push(n);
                split.by_key.insert(key, leaf);
                split.nodes[n].leaf = Some(leaf);
            }
        }
        for n in 0..split.nodes.len() {
            if !split.nodes[n].edges.is_empty() {
                let key: u128 = split.game.key(&split.nodes[n].pos).into();
                split.interior_by_key.entry(key).or_default().push(n as u32);
            }
        }
        split.link_parents();
        for n in (0..split.nodes.len()).rev() {
            // The game's own bounds do not cross for a sound game; if they did, the node
            // keeps what it has and the records applied later are checked against it.
            let mut undo = Undo::new();
            if split.tighten(n, &mut undo).is_err() {
                split.roll_back(undo);
            }
        }
        split
    }

    /// Fills the parent lists from the edges (a parent with several edges to one child is
    /// listed once).
    fn link_parents(&mut self) {
        let mut count = vec![0u32; self.nodes.len() + 1];
        let mut last = vec![u32::MAX; self.nodes.len()];
        for (n, node) in self.nodes.iter().enumerate() {
            for e in &node.edges {
                if last[e.child()] != n as u32 {
                    last[e.child()] = n as u32;
                    count[e.child() + 1] += 1;
                }
            }
        }
        for i in 1..count.len() {
            count[i] += count[i - 1];
        }
        let mut parents = vec![0u32; count[self.nodes.len()] as usize];
        let mut fill = count.clone();
        last.fill(u32::MAX);
        for (n, node) in self.nodes.iter().enumerate() {
            for e in &node.edges {
                if last[e.child()] != n as u32 {
                    last[e.child()] = n as u32;
                    parents[fill[e.child()] as usize] = n as u32;
                    fill[e.child()] += 1;
                }
            }
        }
        self.parent_start = count;
        self.parents = parents;
    }

    /// The parents of node `n`.
    fn parents_of(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        let (a, b) = (self.parent_start[n] as usize, self.parent_start[n + 1] as usize);
        self.parents[a..b].iter().map(|&p| p as usize)
    }

    fn new_node(&mut self, pos: &G::Position) -> usize {
        let (lo, hi) = match self.game.terminal_value(pos) {
            Some(v) => (v, v),
            None => {
                let (lo, hi) = self.game.value_bounds(pos);
                (lo.max(-INFINITY / 2), hi.min(INFINITY / 2))
            }
        };
        self.nodes.push(Node {
            pos: *pos,
            lo,
            hi,
            edges: Vec::new(),
            leaf: None,
            lo_src: NO_SOURCE,
            hi_src: NO_SOURCE,
        });
        self.nodes.len() - 1
    }

    fn is_terminal(&self, n: usize) -> bool {
        self.game.terminal_value(&self.nodes[n].pos).is_some()
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The options the split was built with.
    #[must_use]
    pub fn options(&self) -> SplitOptions {
        self.options
    }

    /// Number of frontier positions (distinct keys at the frontier depth, terminal ones left
    /// out): the jobs of one question are at most this many.
    #[must_use]
    pub fn frontier_len(&self) -> usize {
        self.leaves.len()
    }

    /// A 64-bit digest (FNV-1a) of the frontier's keys in index order: two splits with the same
    /// digest hand out the same position under the same frontier index (what a job travelling
    /// as its index between processes needs), whatever machine built them.
    #[must_use]
    pub fn frontier_digest(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for leaf in 0..self.leaves.len() {
            let key: u128 = self.game.key(&self.nodes[self.leaves[leaf]].pos).into();
            for b in key.to_le_bytes() {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
        h
    }

    /// Nodes of the frontier tree (the root, the interior nodes, the frontier and the terminal
    /// positions above it).
    #[must_use]
    pub fn tree_len(&self) -> usize {
        self.nodes.len()
    }

    /// The frontier position `leaf` and its widened key.
    ///
    /// # Panics
    /// If `leaf >= frontier_len()`.
    #[must_use]
    pub fn leaf(&self, leaf: u32) -> (G::Position, u128) {
        let n = self.leaves[leaf as usize];
        let pos = self.nodes[n].pos;
        (pos, self.game.key(&pos).into())
    }

    /// The position of the tree with widened key `key`: the frontier position, or else an
    /// interior node's (the position a record of a shallower split was written for), or
    /// `None` if no non-terminal node of this tree has that key.
    #[must_use]
    pub fn position_of(&self, key: u128) -> Option<G::Position> {
        self.nodes_with_key(key).next().map(|n| self.nodes[n].pos)
    }

    /// The non-terminal nodes with widened key `key`: the frontier node first, then the
    /// interior ones.
    fn nodes_with_key(&self, key: u128) -> impl Iterator<Item = usize> + '_ {
        let leaf = self.by_key.get(&key).map(|&leaf| self.leaves[leaf as usize]);
        let interior = self.interior_by_key.get(&key).into_iter().flatten().map(|&n| n as usize);
        leaf.into_iter().chain(interior)
    }

    /// Bounds `(lo, hi)` on the root's value, side to move.
    #[must_use]
    pub fn root_bounds(&self) -> (Value, Value) {
        (self.nodes[0].lo, self.nodes[0].hi)
    }

    /// Bounds on every root move's value (side to move of the root, the move's gain included),
    /// in the frontier tree's move order: `(move, lo, hi)`. Empty for a terminal root.
    #[must_use]
    pub fn move_bounds(&self) -> MoveBounds<G::Move> {
        self.move_bounds_after(&[]).map(|(_, m)| m).unwrap_or_default()
    }

    /// The position that the moves `path` reach from the root and [`Split::move_bounds`]
    /// there: `(move, lo, hi)` for each of its moves in the game's order, from the side to move
    /// in that position (empty at a frontier or terminal position). `None` if the path leaves
    /// the tree (a move that is not legal there, or a path through the frontier).
    ///
    /// Positions of one depth with one key are one node of the tree, whose position is the
    /// first of them that the expansion met, so the path is played on the real positions and
    /// each child found by its key: every move is read, and every move given, in the
    /// coordinates of the position the path reaches, not in those of a symmetric image. Under
    /// keys that are not the same for every member of a class (Triangle War's twin segments),
    /// a move whose child the tree holds under another key is left out.
    #[must_use]
    pub fn move_bounds_after(&self, path: &[G::Move]) -> Option<(G::Position, MoveBounds<G::Move>)> {
        let mut n = 0;
        let mut pos = self.nodes[0].pos;
        for mv in path {
            if !self.moves_of(&pos).contains(mv) {
                return None;
            }
            let child = self.game.play(&pos, *mv).0;
            n = self.edge_to(&self.keyed_edges(n), &child)?.child();
            pos = child;
        }
        let edges = self.keyed_edges(n);
        let moves = self
            .moves_of(&pos)
            .into_iter()
            .filter_map(|mv| {
                let e = self.edge_to(&edges, &self.game.play(&pos, mv).0)?;
                let c = &self.nodes[e.child()];
                let (lo, hi) = e.move_bounds((c.lo, c.hi));
                Some((mv, lo, hi))
            })
            .collect();
        Some((pos, moves))
    }

    /// The legal moves of `pos` in the tree's order (none at a terminal position).
    fn moves_of(&self, pos: &G::Position) -> Vec<G::Move> {
        let mut moves = Vec::new();
        if self.game.terminal_value(pos).is_none() {
            self.game.generate_moves(pos, &mut moves);
            self.game.order_moves(pos, &mut moves);
        }
        moves
    }

    /// Node `n`'s edges, each with its child's key.
    fn keyed_edges(&self, n: usize) -> Vec<(u128, &Edge)> {
        self.nodes[n].edges.iter().map(|e| (self.game.key(&self.nodes[e.child()].pos).into(), e)).collect()
    }

    /// The edge among `edges` (a node's [`Split::keyed_edges`]) to `child`'s key, where `child`
    /// is a child of a position with that node's key, maybe not its position. `None` where the
    /// node's position reaches that child's class under another key (keys that fold twin
    /// segments, as Triangle War's do, are not the same for every member of a class).
    fn edge_to<'e>(&self, edges: &[(u128, &'e Edge)], child: &G::Position) -> Option<&'e Edge> {
        let key: u128 = self.game.key(child).into();
        edges.iter().find(|&&(k, _)| k == key).map(|&(_, e)| e)
    }

    /// Whether everything asked is proven: the root's value is exact (and with
    /// [`SplitOptions::exact_moves`] every root move's).
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.targets().iter().all(|&n| self.nodes[n].lo == self.nodes[n].hi)
    }

    /// The nodes whose values must be exact.
    fn targets(&self) -> Vec<usize> {
        let mut t = vec![0];
        if self.options.exact_moves {
            for e in &self.nodes[0].edges {
                if !t.contains(&e.child()) {
                    t.push(e.child());
                }
            }
        }
        t
    }

    /// Counts for a progress line. Counting the jobs left walks the whole plan (when bounds
    /// changed since the last count): seconds on a frontier of a million jobs, so callers ask
    /// for it only when they print it.
    pub fn progress(&mut self) -> Progress {
        self.refresh_plan();
        let left = self.plan.iter().filter(|j| !self.in_flight.contains(j)).count();
        Progress {
            done: self.done,
            in_flight: self.in_flight.len(),
            left,
            nodes: self.nodes_done,
            root: self.root_bounds(),
            first_moves: self.options.exact_moves.then(|| {
                let children = &self.targets()[1..];
                let exact = children.iter().filter(|&&n| self.nodes[n].lo == self.nodes[n].hi).count();
                (exact, children.len())
            }),
        }
    }

    /// The questions being asked: each target node not yet exact with the threshold of its interval.
    fn questions(&self) -> Vec<(usize, Value)> {
        self.targets()
            .into_iter()
            .filter(|&n| self.nodes[n].lo < self.nodes[n].hi)
            .map(|n| (n, self.options.threshold.next(self.nodes[n].lo, self.nodes[n].hi)))
            .collect()
    }

    /// Recomputes interior node `n`'s bounds from its children, keeping the tighter of old and
    /// new (the old state logged in `undo` when they change); returns whether they changed.
    ///
    /// # Errors
    /// `Err(n)` when the new lower bound is above the new upper bound (the bounds are then
    /// set, for [`Split::evidence`], and undone by the caller).
    fn tighten(&mut self, n: usize, undo: &mut Undo) -> Result<bool, usize> {
        if self.nodes[n].edges.is_empty() {
            return Ok(false);
        }
        let (mut lo, mut hi) = (-INFINITY, -INFINITY);
        for e in &self.nodes[n].edges {
            let c = &self.nodes[e.child()];
            let (l, h) = e.move_bounds((c.lo, c.hi));
            lo = lo.max(l);
            hi = hi.max(h);
        }
        let node = &mut self.nodes[n];
        let (new_lo, new_hi) = (node.lo.max(lo), node.hi.min(hi));
        let changed = (new_lo, new_hi) != (node.lo, node.hi);
        if changed {
            undo.push((n, node.lo, node.hi, node.lo_src, node.hi_src));
            if new_lo != node.lo {
                node.lo_src = NO_SOURCE;
            }
            if new_hi != node.hi {
                node.hi_src = NO_SOURCE;
            }
        }
        node.lo = new_lo;
        node.hi = new_hi;
        if new_lo > new_hi {
            return Err(n);
        }
        Ok(changed)
    }

    /// Carries a change of node `changed`'s bounds up to its ancestors, as far as theirs
    /// change. Nodes are recomputed deepest first (children have larger indices than their
    /// parents), so each ancestor once, after all its changed children: the result is the
    /// same as recomputing every node of the tree bottom-up.
    ///
    /// # Errors
    /// `Err(n)` at the first ancestor `n` whose bounds cross (the changes stay in `undo`).
    fn propagate_from(&mut self, changed: usize, undo: &mut Undo) -> Result<(), usize> {
        let mut heap: BinaryHeap<usize> = self.parents_of(changed).collect();
        let mut last = usize::MAX;
        while let Some(n) = heap.pop() {
            if n == last {
                continue;
            }
            last = n;
            if self.tighten(n, undo)? {
                let parents: Vec<usize> = self.parents_of(n).collect();
                heap.extend(parents);
            }
        }
        Ok(())
    }

    /// Restores the bounds `undo` logged, newest first.
    fn roll_back(&mut self, undo: Undo) {
        for (n, lo, hi, lo_src, hi_src) in undo.into_iter().rev() {
            let node = &mut self.nodes[n];
            (node.lo, node.hi, node.lo_src, node.hi_src) = (lo, hi, lo_src, hi_src);
        }
    }

    /// The records that prove node `n`'s lower bound (`lower`) or upper bound: the record
    /// that set it, or else those of the children it was derived from (for a lower bound the
    /// move that reaches it, for an upper bound every move), at most [`MAX_NAMED_RECORDS`].
    fn evidence(&self, n: usize, lower: bool) -> Vec<Record> {
        let mut found: Vec<Record> = Vec::new();
        let mut stack = vec![(n, lower)];
        let mut seen = HashSet::new();
        while let Some((n, lower)) = stack.pop() {
            if found.len() >= MAX_NAMED_RECORDS || seen.len() > 100_000 || !seen.insert((n, lower)) {
                continue;
            }
            let node = &self.nodes[n];
            let src = if lower { node.lo_src } else { node.hi_src };
            if src != NO_SOURCE {
                let r = self.applied[src as usize];
                if !found.contains(&r) {
                    found.push(r);
                }
                continue;
            }
            for e in &node.edges {
                let c = &self.nodes[e.child()];
                let (l, _) = e.move_bounds((c.lo, c.hi));
                // A move's lower bound is the child's lower bound when the mover moves again,
                // its upper bound otherwise (and the other way round).
                let child_lower = lower == e.same;
                if lower && l == node.lo {
                    stack.push((e.child(), child_lower));
                    break;
                }
                if !lower {
                    stack.push((e.child(), child_lower));
                }
            }
        }
        found
    }

    /// Rebuilds the whole plan if bounds changed since it was made.
    fn refresh_plan(&mut self) {
        if !self.plan_stale {
            return;
        }
        self.plan = self.full_plan();
        self.plan_stale = false;
    }

    /// Every job the current questions need, in order (each needed `(node, threshold)` visited
    /// once).
    fn full_plan(&self) -> Vec<JobId> {
        let mut plan = Vec::new();
        let mut seen = HashSet::new();
        for (n, t) in self.questions() {
            self.collect(n, t, &mut seen, &mut plan);
        }
        plan
    }

    /// Appends to `plan` the leaf questions that "is the value of node `n` > `t`?" still needs,
    /// in move order (each `(node, t)` visited once).
    fn collect(&self, n: usize, t: Value, seen: &mut HashSet<(usize, Value)>, plan: &mut Vec<JobId>) {
        let node = &self.nodes[n];
        if node.answers(t) || !seen.insert((n, t)) {
            return;
        }
        if let Some(leaf) = node.leaf {
            plan.push((leaf, t));
            return;
        }
        for e in &node.edges {
            self.collect(e.child(), e.child_threshold(t), seen, plan);
        }
    }

    /// Appends to `plan` the leaf questions of the first alpha-beta order below "is the value
    /// of node `n` > `t`?", expected as `expect` says ([`RoundKind::FirstOrder`]).
    fn collect_first(
        &self,
        n: usize,
        t: Value,
        expect: Expect,
        seen: &mut HashSet<(usize, Value)>,
        plan: &mut Vec<JobId>,
    ) {
        let node = &self.nodes[n];
        if node.answers(t) || !seen.insert((n, t)) {
            return;
        }
        if let Some(leaf) = node.leaf {
            plan.push((leaf, t));
            return;
        }
        let mut first = true;
        for e in &node.edges {
            let (c, tc) = (e.child(), e.child_threshold(t));
            if self.nodes[c].answers(tc) {
                continue;
            }
            // The child's question "> tc?" is the move's "> t?" when the mover moves again,
            // its negation otherwise.
            let (move_above, move_not_above) =
                if e.same { (Expect::Above, Expect::NotAbove) } else { (Expect::NotAbove, Expect::Above) };
            let child = match (expect, first) {
                (Expect::Unknown, true) => Expect::Unknown,
                (Expect::Above, true) => move_above,
                (Expect::Above, false) => break,
                _ => move_not_above,
            };
            self.collect_first(c, tc, child, seen, plan);
            first = false;
        }
    }

    /// The first job [`Split::collect`] would append for "is node `n` > `t`?" that is not in
    /// flight (the same walk, stopped there).
    fn first_free(&self, n: usize, t: Value, seen: &mut HashSet<(usize, Value)>) -> Option<JobId> {
        let node = &self.nodes[n];
        if node.answers(t) || !seen.insert((n, t)) {
            return None;
        }
        if let Some(leaf) = node.leaf {
            return Some((leaf, t)).filter(|id| !self.in_flight.contains(id));
        }
        node.edges.iter().find_map(|e| self.first_free(e.child(), e.child_threshold(t), seen))
    }

    /// Whether job `id` is in the whole plan: some question being asked reaches its position
    /// with its threshold through nodes whose bounds do not answer theirs. Walks up from the
    /// position.
    fn needed(&self, (leaf, t): JobId) -> bool {
        let Some(&n) = self.leaves.get(leaf as usize) else { return false };
        let questions = self.questions();
        let mut stack = vec![(n, t)];
        let mut seen = HashSet::new();
        while let Some((n, t)) = stack.pop() {
            if self.nodes[n].answers(t) || !seen.insert((n, t)) {
                continue;
            }
            if questions.contains(&(n, t)) {
                return true;
            }
            for p in self.parents_of(n) {
                for e in self.nodes[p].edges.iter().filter(|e| e.child() == n) {
                    stack.push((p, e.parent_threshold(t)));
                }
            }
        }
        false
    }

    /// The job `id` as a worker needs it.
    fn job(&self, (leaf, threshold): JobId) -> Job<G::Position> {
        let (position, key) = self.leaf(leaf);
        Job { leaf, key, position, threshold }
    }

    /// The next job the current questions need that is not in flight, now marked in flight;
    /// `None` when every needed job is in flight (or the solve is finished).
    pub fn next_job(&mut self) -> Option<Job<G::Position>> {
        let mut seen = HashSet::new();
        let id = self.questions().into_iter().find_map(|(n, t)| self.first_free(n, t, &mut seen))?;
        self.in_flight.insert(id);
        Some(self.job(id))
    }

    /// [`Split::next_job`] with the young brothers waiting (Feldmann's YBWC): below a node
    /// none of whose moves is answered yet, only its first unanswered move is searched, since
    /// that move alone may answer the node and make the others unnecessary; once one move is
    /// answered without answering the node (the eldest brother failed to cut), the others go
    /// out together. Fewer jobs are handed out in vain, at the price of idle workers; with
    /// nothing in flight it finds the job [`Split::next_job`] would.
    pub fn next_job_eldest_first(&mut self) -> Option<Job<G::Position>> {
        let mut seen = HashSet::new();
        let id = self.questions().into_iter().find_map(|(n, t)| self.first_free_eldest(n, t, &mut seen))?;
        self.in_flight.insert(id);
        Some(self.job(id))
    }

    /// [`Split::first_free`] with the young brothers waiting for the eldest to be answered.
    fn first_free_eldest(&self, n: usize, t: Value, seen: &mut HashSet<(usize, Value)>) -> Option<JobId> {
        let node = &self.nodes[n];
        if node.answers(t) || !seen.insert((n, t)) {
            return None;
        }
        if let Some(leaf) = node.leaf {
            return Some((leaf, t)).filter(|id| !self.in_flight.contains(id));
        }
        let answered = |e: &&Edge| self.nodes[e.child()].answers(e.child_threshold(t));
        if node.edges.iter().any(|e| answered(&e)) {
            node.edges.iter().find_map(|e| self.first_free_eldest(e.child(), e.child_threshold(t), seen))
        } else {
            let eldest = node.edges.iter().find(|e| !answered(e))?;
            self.first_free_eldest(eldest.child(), eldest.child_threshold(t), seen)
        }
    }

    /// Every job the current questions need, in order, whether in flight or not: a round of
    /// independent jobs ([`RoundKind::Full`]). Nothing is marked in flight.
    pub fn round(&mut self) -> Vec<Job<G::Position>> {
        self.refresh_plan();
        self.plan.iter().map(|&id| self.job(id)).collect()
    }

    /// A round of independent jobs of the current questions as `kind` chooses them, in order,
    /// whether in flight or not (what `--shard` slices). Nothing is marked in flight.
    pub fn round_of(&mut self, kind: RoundKind) -> Vec<Job<G::Position>> {
        if kind == RoundKind::Full {
            return self.round();
        }
        let mut plan = Vec::new();
        let mut seen = HashSet::new();
        for (n, t) in self.questions() {
            self.collect_first(n, t, Expect::Unknown, &mut seen, &mut plan);
        }
        plan.into_iter().map(|id| self.job(id)).collect()
    }

    /// Whether job `id` is one the current questions need (it is in [`Split::round`]).
    pub fn is_needed(&mut self, id: JobId) -> bool {
        self.needed(id)
    }

    /// Whether the bounds proven on frontier position `leaf` already answer "greater than
    /// `threshold`?".
    #[must_use]
    pub fn is_answered(&self, leaf: u32, threshold: Value) -> bool {
        self.leaves.get(leaf as usize).is_some_and(|&n| {
            let node = &self.nodes[n];
            node.lo > threshold || node.hi <= threshold
        })
    }

    /// The jobs in flight that the current questions no longer need (a sibling answered for
    /// them, or the bounds moved), now no longer in flight: their workers can be stopped.
    pub fn cancelled(&mut self) -> Vec<JobId> {
        let mut gone: Vec<JobId> = self.in_flight.iter().filter(|&&j| !self.needed(j)).copied().collect();
        gone.sort_unstable();
        for j in &gone {
            self.in_flight.remove(j);
        }
        gone
    }

    /// A job handed out that will not be finished (its worker stopped or died): it goes back
    /// to the jobs to hand out, if still needed.
    pub fn abandon(&mut self, id: JobId) {
        self.in_flight.remove(&id);
    }

    /// Records the fail-soft result `value` of job `id` (a search with the window
    /// `(t, t + 1)` that visited `nodes` nodes) and returns its [`Record`] for the store.
    ///
    /// # Errors
    /// [`SplitError::NoSuchLeaf`], or [`SplitError::Contradiction`] if the result contradicts
    /// the bounds proven on the position (then nothing is changed).
    pub fn finish(&mut self, id: JobId, value: Value, nodes: u64) -> Result<Record, SplitError> {
        self.in_flight.remove(&id);
        let (_, key) =
            self.leaves.get(id.0 as usize).map(|_| self.leaf(id.0)).ok_or(SplitError::NoSuchLeaf(id.0))?;
        let record = Record { key, threshold: id.1, value, nodes };
        self.apply(&record)?;
        Ok(record)
    }

    /// Applies a stored [`Record`] (read back on a restart, or sent by another process):
    /// returns `false` if its key is nowhere in the tree (a record of a deeper split), which is
    /// then ignored.
    ///
    /// A record whose key is an interior node's (a record of a shallower split: a store
    /// written at depth `d` serves a split at any depth `>= d`) bounds that node, and every
    /// interior node with its key, as a frontier job's bounds its position: the planner then
    /// needs no job below a node whose bounds answer its question, and asks the children of
    /// one whose bounds do not. So a job too large for one run can be split deeper without
    /// losing the records already written.
    ///
    /// # Errors
    /// [`SplitError::Contradiction`] if it contradicts the bounds proven on the position or,
    /// carried up the tree, on an ancestor's (then nothing is changed): the error names the
    /// records on each side.
    pub fn apply(&mut self, record: &Record) -> Result<bool, SplitError> {
        let nodes: Vec<usize> = self.nodes_with_key(record.key).collect();
        if nodes.is_empty() {
            return Ok(false);
        }
        let bounded = |node: &Node<G::Position>| {
            if record.is_above() {
                (node.lo.max(record.value), node.hi)
            } else {
                (node.lo, node.hi.min(record.value))
            }
        };
        let src = u32::try_from(self.applied.len()).unwrap_or(NO_SOURCE);
        self.applied.push(*record);
        let mut undo = Undo::new();
        let mut crossed = None;
        for &n in &nodes {
            let (lo, hi) = bounded(&self.nodes[n]);
            let node = &mut self.nodes[n];
            if (lo, hi) == (node.lo, node.hi) {
                continue;
            }
            undo.push((n, node.lo, node.hi, node.lo_src, node.hi_src));
            if lo != node.lo {
                node.lo_src = src;
            }
            if hi != node.hi {
                node.hi_src = src;
            }
            node.lo = lo;
            node.hi = hi;
            if lo > hi {
                crossed = Some(n);
                break;
            }
            if let Err(at) = self.propagate_from(n, &mut undo) {
                crossed = Some(at);
                break;
            }
        }
        if let Some(at) = crossed {
            let node = &self.nodes[at];
            let error = SplitError::Contradiction(Box::new(Contradiction {
                record: *record,
                at: self.game.key(&node.pos).into(),
                lo: node.lo,
                hi: node.hi,
                lower: self.evidence(at, true),
                upper: self.evidence(at, false),
            }));
            self.roll_back(undo);
            self.applied.pop();
            return Err(error);
        }
        if undo.is_empty() {
            // Nothing narrowed: no bound names this record.
            self.applied.pop();
        } else {
            self.plan_stale = true;
        }
        self.done += 1;
        self.nodes_done += record.nodes;
        Ok(true)
    }

    /// Runs every job in this process, in plan order, each by `search` (the fail-soft result of
    /// the window `(t, t + 1)` on the job's position and the nodes it took), calling `record`
    /// with each finished job's [`Record`], until the solve is finished.
    ///
    /// # Errors
    /// The first error of `search` or `record` (the job is then abandoned), or a
    /// [`SplitError`] as `E`.
    pub fn run_serial<E: From<SplitError>>(
        &mut self,
        mut search: impl FnMut(&Job<G::Position>) -> Result<(Value, u64), E>,
        mut record: impl FnMut(&Record) -> Result<(), E>,
    ) -> Result<(), E> {
        while let Some(job) = self.next_job() {
            let id = (job.leaf, job.threshold);
            let (value, nodes) = match search(&job) {
                Ok(r) => r,
                Err(e) => {
                    self.abandon(id);
                    return Err(e);
                }
            };
            let rec = self.finish(id, value, nodes)?;
            record(&rec)?;
        }
        Ok(())
    }
}

/// The frontier of `root` at `depth` plies, folded by key: how many jobs one question over it
/// can need (for sizing a split before solving).
pub fn frontier_len<G: Game>(game: G, root: &G::Position, depth: u32) -> usize
where
    G::Key: Into<u128>,
{
    Split::new(game, root, SplitOptions { depth, ..SplitOptions::default() }).frontier_len()
}

/// The number of distinct non-terminal positions (by key) at each depth `0..=max_depth` from
/// `root`, reported to `each(depth, count)` as each level is complete: the frontier jobs a
/// split at that depth would have, for sizing a solve before choosing the depth. Holds one
/// level's positions at a time (a key and a position each), not the tree.
pub fn frontier_sizes<G: Game>(game: &G, root: &G::Position, max_depth: u32, mut each: impl FnMut(u32, usize))
where
    G::Key: Into<u128>,
{
    let mut level: Vec<G::Position> =
        if game.terminal_value(root).is_some() { Vec::new() } else { vec![*root] };
    each(0, level.len());
    let mut moves = Vec::new();
    for depth in 1..=max_depth {
        let mut seen: HashSet<u128> = HashSet::new();
        let mut next = Vec::new();
        for pos in &level {
            moves.clear();
            game.generate_moves(pos, &mut moves);
            for &mv in &moves {
                let (child, _) = game.play(pos, mv);
                if game.terminal_value(&child).is_none() && seen.insert(game.key(&child).into()) {
                    next.push(child);
                }
            }
        }
        level = next;
        each(depth, level.len());
    }
}

#[cfg(test)]
mod tests {
    //! The incremental coordinator against a full re-plan after every result (what it did
    //! before updates were incremental): the same bounds on every node, the same next job, the
    //! same cancellations and the same answer to "is this job needed?", at every step.

    use super::*;
    use search_core::Engine;

    /// Every node's bounds after recomputing every interior node bottom-up.
    fn fully_propagated<G: Game>(split: &Split<G>) -> Vec<(Value, Value)>
    where
        G::Key: Into<u128>,
    {
        let mut bounds: Vec<(Value, Value)> = split.nodes.iter().map(|n| (n.lo, n.hi)).collect();
        for n in (0..bounds.len()).rev() {
            let edges = &split.nodes[n].edges;
            if edges.is_empty() {
                continue;
            }
            let (mut lo, mut hi) = (-INFINITY, -INFINITY);
            for e in edges {
                let (l, h) = e.move_bounds(bounds[e.child()]);
                lo = lo.max(l);
                hi = hi.max(h);
            }
            bounds[n] = (bounds[n].0.max(lo), bounds[n].1.min(hi));
        }
        bounds
    }

    /// Runs a split with `workers` workers (finishing the newest job one time in three, the
    /// oldest otherwise, and honouring cancellations), checking every step against a full
    /// re-plan; returns the number of jobs asked.
    fn check<G: Game + Clone>(game: &G, root: &G::Position, options: SplitOptions, workers: usize) -> usize
    where
        G::Key: Into<u128>,
    {
        let mut engine = Engine::new(game.clone(), 16);
        let value = engine.solve(root);
        let mut split = Split::new(game.clone(), root, options);
        let mut in_flight: Vec<Job<G::Position>> = Vec::new();
        let (mut asked, mut step) = (0, 0);
        let thresholds: Vec<Value> = (-3..=3).collect();
        loop {
            while in_flight.len() < workers {
                let plan = split.full_plan();
                let expected = plan.iter().find(|j| !split.in_flight.contains(j)).copied();
                let got = split.next_job().map(|j| (j, (j.leaf, j.threshold)));
                assert_eq!(got.map(|g| g.1), expected, "{options:?}, {workers} workers, step {step}");
                let Some((job, _)) = got else { break };
                asked += 1;
                in_flight.push(job);
            }
            let Some(job) = (if step % 3 == 0 {
                in_flight.pop()
            } else {
                (!in_flight.is_empty()).then(|| in_flight.remove(0))
            }) else {
                break;
            };
            step += 1;
            let v = engine.search(&job.position, job.threshold, job.threshold + 1);
            split.finish((job.leaf, job.threshold), v, 1).unwrap();
            let bounds: Vec<(Value, Value)> = split.nodes.iter().map(|n| (n.lo, n.hi)).collect();
            assert_eq!(fully_propagated(&split), bounds, "{options:?}, step {step}");
            let plan = split.full_plan();
            for leaf in 0..split.frontier_len() as u32 {
                for &t in &thresholds {
                    assert_eq!(
                        split.is_needed((leaf, t)),
                        plan.contains(&(leaf, t)),
                        "{options:?}, step {step}"
                    );
                }
            }
            let mut expected: Vec<JobId> =
                split.in_flight.iter().filter(|j| !plan.contains(j)).copied().collect();
            expected.sort_unstable();
            let gone = split.cancelled();
            assert_eq!(gone, expected, "{options:?}, step {step}");
            in_flight.retain(|j| !gone.contains(&(j.leaf, j.threshold)));
        }
        assert!(split.is_finished(), "{options:?}");
        assert_eq!(split.root_bounds(), (value, value), "{options:?}");
        asked
    }

    fn every_option(depths: &[u32]) -> Vec<SplitOptions> {
        let mut all = Vec::new();
        for &depth in depths {
            for threshold in [MTD_FROM_ZERO, Threshold::Bisection] {
                for exact_moves in [false, true] {
                    all.push(SplitOptions { depth, threshold, exact_moves });
                }
            }
        }
        all
    }

    #[test]
    fn incremental_planning_asks_what_a_full_replan_asks_on_triangle_war() {
        use triangle_war::{Geometry, Position, TriangleWar};
        let game = TriangleWar::new(Geometry::new(3).unwrap());
        for options in every_option(&[1, 2, 3]) {
            for workers in [1, 3] {
                assert!(check(&game, &Position::start(), options, workers) > 0);
            }
        }
        // A mid-game side-4 position with captures within the frontier's plies.
        let geometry = Geometry::new(4).unwrap();
        let mut pos = Position::start();
        for s in [0, 1, 3, 5, 6, 8, 10, 12] {
            pos = pos.play(&geometry, s).0;
        }
        for options in every_option(&[2]) {
            check(&TriangleWar::new(geometry.clone()), &pos, options, 2);
        }
    }

    /// A result is a proven bound: finishing a job a second time (the same result from a
    /// second worker it was handed to) is no error and changes no bound, on every step of a
    /// solve, which still ends with the right value.
    #[test]
    fn a_result_applied_twice_changes_nothing() {
        use tic_tac_toe::{Geometry, MnkGame, Position, Scoring};
        let geometry = Geometry::new(3, 3, 3).unwrap();
        let game = MnkGame::new(geometry, Scoring::EmptyPlusOne);
        let root = Position::empty(geometry);
        let mut engine = Engine::new(game.clone(), 16);
        let value = engine.solve(&root);
        for options in every_option(&[1, 2]) {
            let mut split = Split::new(game.clone(), &root, options);
            while let Some(job) = split.next_job() {
                let id = (job.leaf, job.threshold);
                let v = engine.search(&job.position, job.threshold, job.threshold + 1);
                let first = split.finish(id, v, 1).unwrap();
                let bounds: Vec<(Value, Value)> = split.nodes.iter().map(|n| (n.lo, n.hi)).collect();
                split.cancelled();
                assert_eq!(split.finish(id, v, 1).unwrap(), first, "{options:?}");
                assert_eq!(split.apply(&first), Ok(true), "{options:?}");
                let again: Vec<(Value, Value)> = split.nodes.iter().map(|n| (n.lo, n.hi)).collect();
                assert_eq!(again, bounds, "{options:?}");
                assert!(split.cancelled().is_empty(), "{options:?}");
            }
            assert!(split.is_finished(), "{options:?}");
            assert_eq!(split.root_bounds(), (value, value), "{options:?}");
        }
    }

    #[test]
    fn incremental_planning_asks_what_a_full_replan_asks_on_tic_tac_toe_and_connect_four() {
        use tic_tac_toe::{Geometry, MnkGame, Position, Scoring};
        let geometry = Geometry::new(3, 3, 3).unwrap();
        let game = MnkGame::new(geometry, Scoring::EmptyPlusOne);
        for options in every_option(&[1, 2, 3]) {
            check(&game, &Position::empty(geometry), options, 2);
        }
        let game = connect_four::ConnectFour::new(connect_four::Geometry::new(4, 4).unwrap());
        for options in every_option(&[2]) {
            check(&game, &connect_four::Board::default(), options, 3);
        }
    }
}
