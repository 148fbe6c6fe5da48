//! Depth-first proof-number search (df-pn): a second exact algorithm for yes/no questions
//! ("does this player finish more than `t` ahead?"), generic over [`Game`].
//!
//! Proof-number search grows the game tree towards the move that needs the fewest leaves to
//! prove (proof number, `pn`) or disprove (disproof number, `dn`) the question; df-pn runs it
//! depth-first with thresholds, so that only a TT of `(pn, dn)` pairs is kept, not the tree.
//! It shines where a few forcing lines decide (threat sequences in m,n,k-games), where
//! alpha-beta's fixed ordering wanders.
//!
//! Turns need not alternate: a node is an OR node when the attacker (the player whose question
//! it is) is to move, an AND node otherwise. Gains banked on the way count towards the margin,
//! so the TT key is the game's key together with the margin banked since the root and whether
//! the attacker is to move.
//!
//! # Sources
//! - L. V. Allis, M. van der Meulen and H. J. van den Herik, "Proof-number search",
//!   *Artificial Intelligence* 66 (1994).
//! - A. Nagai, "Df-pn algorithm for searching AND/OR trees and its applications", PhD thesis,
//!   University of Tokyo (2002).

use std::collections::HashMap;

use crate::{Game, Player, Stats, Value};

/// Proof and disproof numbers at or above this are infinite.
const INF: u32 = u32::MAX / 2;

/// Proof and disproof numbers of one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Numbers {
    pn: u32,
    dn: u32,
}

/// The answer of a [`ProofSearch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The statement holds.
    Proved,
    /// The statement does not hold.
    Disproved,
    /// The node budget ran out first.
    Unknown,
}

/// A df-pn search of one game, with its own TT (kept across questions on the same game).
pub struct ProofSearch<G: Game> {
    game: G,
    /// Keyed by the game's key, the attacker's margin banked since the root, and whether the
    /// attacker is to move (game keys may ignore who is to move).
    tt: HashMap<(G::Key, Value, bool), Numbers>,
    stats: Stats,
    budget: u64,
    deadline: Option<std::time::Instant>,
    attacker: Player,
    threshold: Value,
}

impl<G: Game> ProofSearch<G> {
    /// A search for `game` with no node budget.
    pub fn new(game: G) -> Self {
        ProofSearch {
            game,
            tt: HashMap::new(),
            stats: Stats::default(),
            budget: u64::MAX,
            deadline: None,
            attacker: Player::First,
            threshold: 0,
        }
    }

    /// Stops each question after about `nodes` more node expansions ([`Proof::Unknown`]).
    pub fn set_node_budget(&mut self, nodes: u64) {
        self.budget = nodes;
    }

    /// Stops each question at `deadline` too ([`Proof::Unknown`]); `None`: no deadline.
    pub fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.deadline = deadline;
    }

    /// Statistics accumulated so far (`nodes` counts expansions; `tt_hits` look-ups that found
    /// proof numbers).
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Entries in the TT.
    pub fn tt_len(&self) -> usize {
        self.tt.len()
    }

    /// Whether the value of `pos` for its side to move (the margin of the remaining play, as
    /// [`crate::Engine::solve`] gives it) is greater than `threshold`.
    pub fn value_exceeds(&mut self, pos: &G::Position, threshold: Value) -> Proof {
        let start = std::time::Instant::now();
        let attacker = self.game.to_move(pos);
        if (attacker, threshold) != (self.attacker, self.threshold) {
            // The numbers belong to one question.
            self.tt.clear();
            self.attacker = attacker;
            self.threshold = threshold;
        }
        let limit = self.stats.nodes.saturating_add(self.budget);
        let root = self.mid(pos, 0, Numbers { pn: INF, dn: INF }, limit);
        self.stats.elapsed += start.elapsed();
        if root.pn == 0 {
            Proof::Proved
        } else if root.dn == 0 {
            Proof::Disproved
        } else {
            Proof::Unknown
        }
    }

    /// Proof numbers of a leaf from the game's own knowledge: terminal values and
    /// [`Game::value_bounds`]. `banked` is the attacker's margin banked since the root.
    fn leaf(&self, pos: &G::Position, banked: Value) -> Option<Numbers> {
        let sign = if self.game.to_move(pos) == self.attacker { 1 } else { -1 };
        let (lo, hi) = match self.game.terminal_value(pos) {
            Some(v) => (v, v),
            None => self.game.value_bounds(pos),
        };
        // From the attacker's side: [banked + lo, banked + hi], or mirrored.
        let (lo, hi) = if sign == 1 { (lo, hi) } else { (-hi, -lo) };
        if banked.saturating_add(lo) > self.threshold {
            Some(Numbers { pn: 0, dn: INF })
        } else if banked.saturating_add(hi) <= self.threshold {
            Some(Numbers { pn: INF, dn: 0 })
        } else {
            None
        }
    }

    /// Numbers of a child not searched yet: from the TT, a leaf's, or (1, 1).
    fn lookup(&mut self, pos: &G::Position, banked: Value) -> Numbers {
        if let Some(n) = self.leaf(pos, banked) {
            return n;
        }
        self.stats.tt_probes += 1;
        let attacker_moves = self.game.to_move(pos) == self.attacker;
        match self.tt.get(&(self.game.key(pos), banked, attacker_moves)) {
            Some(&n) => {
                self.stats.tt_hits += 1;
                n
            }
            None => Numbers { pn: 1, dn: 1 },
        }
    }

    /// Multiple iterative deepening at `pos` (attacker's margin `banked` so far) until its
    /// proof or disproof number reaches its threshold or the node `limit` is reached.
    fn mid(&mut self, pos: &G::Position, banked: Value, th: Numbers, limit: u64) -> Numbers {
        if let Some(n) = self.leaf(pos, banked) {
            return n;
        }
        self.stats.nodes += 1;
        let or_node = self.game.to_move(pos) == self.attacker;
        let mut moves = Vec::new();
        self.game.generate_moves(pos, &mut moves);
        self.game.order_moves(pos, &mut moves);
        let children: Vec<(G::Position, Value)> = moves
            .iter()
            .map(|&m| {
                let (child, gain) = self.game.play(pos, m);
                let gain = if or_node { gain } else { -gain };
                (child, banked.saturating_add(gain))
            })
            .collect();
        let mut numbers: Vec<Numbers> = children.iter().map(|(c, b)| self.lookup(c, *b)).collect();
        let key = (self.game.key(pos), banked, or_node);
        loop {
            let me = combine(&numbers, or_node);
            if me.pn >= th.pn
                || me.dn >= th.dn
                || self.stats.nodes >= limit
                || self.deadline.is_some_and(|d| std::time::Instant::now() >= d)
            {
                self.tt.insert(key, me);
                return me;
            }
            // The most promising child and the runner-up's number.
            let pick = |n: &Numbers| if or_node { n.pn } else { n.dn };
            let (mut best, mut second) = (0, INF);
            for i in 1..numbers.len() {
                if pick(&numbers[i]) < pick(&numbers[best]) {
                    second = pick(&numbers[best]);
                    best = i;
                } else {
                    second = second.min(pick(&numbers[i]));
                }
            }
            if numbers.len() == 1 {
                second = INF;
            }
            let c = numbers[best];
            let child_th = if or_node {
                Numbers {
                    pn: th.pn.min(second.saturating_add(1)),
                    dn: sub(th.dn, me.dn).saturating_add(c.dn).min(INF),
                }
            } else {
                Numbers {
                    pn: sub(th.pn, me.pn).saturating_add(c.pn).min(INF),
                    dn: th.dn.min(second.saturating_add(1)),
                }
            };
            let (child, child_banked) = children[best];
            numbers[best] = self.mid(&child, child_banked, child_th, limit);
        }
    }
}

/// `a - b`, saturating at 0 and keeping infinity infinite.
fn sub(a: u32, b: u32) -> u32 {
    if a >= INF {
        INF
    } else {
        a.saturating_sub(b)
    }
}

/// A node's numbers from its children's: at an OR node the least proof number and the sum of
/// disproof numbers; at an AND node the other way round.
fn combine(children: &[Numbers], or_node: bool) -> Numbers {
    let min_pn = children.iter().map(|n| n.pn).min().unwrap_or(INF);
    let min_dn = children.iter().map(|n| n.dn).min().unwrap_or(INF);
    let sum = |f: fn(&Numbers) -> u32| children.iter().map(f).fold(0u32, |a, b| a.saturating_add(b).min(INF));
    if or_node {
        Numbers { pn: min_pn, dn: sum(|n| n.dn) }
    } else {
        Numbers { pn: sum(|n| n.pn), dn: min_dn }
    }
}
