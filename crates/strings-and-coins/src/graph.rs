//! Graph keys: a position named by the chains and loops of its strings-and-coins graph.

use crate::{Board, CoinClasses};

/// Components a graph key holds (one byte each under the flag bit).
pub const GRAPH_KEY_COMPONENTS: usize = 7;

/// The code of one simple component (a path or cycle of coins with two strings each) in a split
/// key ([`crate::Board::split_graph`]): its kind in the top two bits (the number of its strings
/// to the ground, 0 to 2, or 3 for a cycle: no end, no ground) and its number of coins (at
/// most 63) below. `ends` counts its coins with one string left.
#[must_use]
pub fn component_code(ground: u32, ends: u32, coins: u32) -> u8 {
    let kind = if ground + ends == 0 { 3 } else { ground as u8 };
    kind << 6 | coins as u8
}

/// The simple components' codes ([`component_code`], at most [`GRAPH_KEY_COMPONENTS`]) as one
/// key: sorted in decreasing order (the components' places forgotten), one byte each.
#[must_use]
pub fn components_key(codes: &mut [u8]) -> u64 {
    codes.sort_unstable_by(|a, b| b.cmp(a));
    codes.iter().enumerate().fold(0u64, |key, (i, &c)| key | u64::from(c) << (8 * i))
}

/// The flag bit of every graph key ([`Board::graph_key`]).
pub const GRAPH_KEY_FLAG: u64 = 1 << 63;

impl Board {
    /// The graph key of `drawn` ([`crate::Pruning::graph_keys`]), if every open coin has at most
    /// two strings and the graph has at most [`GRAPH_KEY_COMPONENTS`] components of at most 63
    /// coins each: bit 63 set ([`GRAPH_KEY_FLAG`]), then one byte per component, largest first,
    /// `kind << 6 | coins` with `kind` 0, 1 or 2 for a path with that many ends on the ground
    /// (a path end off the ground is a capturable coin) and 3 for a cycle.
    ///
    /// Two drawn sets with the same key have isomorphic graphs, so the same value for the side
    /// to move (Berlekamp, *The Dots and Boxes Game*, 2000, ch. 2: the value depends on the
    /// strings-and-coins graph alone). Drawn sets of at most 63 strings never set bit 63, so
    /// on such boards the two kinds of key never meet (a game on 64 strings needs another way
    /// to tell them apart). The encoding is part of the TT snapshot format of the games that
    /// save their TT: keys saved by one run are read by the next.
    #[must_use]
    pub fn graph_key(&self, drawn: u64) -> Option<u64> {
        // Three strings or more on a coin (an untouched triangle, a box with three or four):
        // the graph is not a union of paths and cycles.
        let classes = self.coin_classes(drawn);
        if classes.many != 0 {
            return None;
        }
        // With no junction every component is simple: the split's code names them all.
        self.split_graph_with(drawn, classes).map(|(_, code)| GRAPH_KEY_FLAG | code)
    }

    /// The graph split into its simple and its junction parts, for keys of positions that are
    /// not yet endgames ([`crate::Pruning::graph_keys`] on a game whose key holds 128 bits): the
    /// drawn set with every string of the simple components counted as drawn, and the code of
    /// the simple components (paths and cycles: components of the graph of open coins, tied by
    /// their strings between coins, in which no coin has three strings or more), coded as
    /// [`Board::graph_key`] codes them without its flag bit (0: no simple component). `None`
    /// if there are more than [`GRAPH_KEY_COMPONENTS`] simple components or one of more than
    /// 63 coins.
    ///
    /// Two drawn sets with the same junction part (up to a symmetry of the board) and the same
    /// code have isomorphic graphs, so the same value for the side to move: the components
    /// with a junction are fixed by their undrawn strings, each simple one up to isomorphism by
    /// its number of coins and of ends on the ground. With no junction left, the junction part
    /// is every string and the code is the graph key's.
    #[must_use]
    pub fn split_graph(&self, drawn: u64) -> Option<(u64, u64)> {
        self.split_graph_with(drawn, self.coin_classes(drawn))
    }

    /// [`Board::split_graph`] with the coin classes of `drawn` ([`Board::coin_classes`])
    /// already known.
    #[must_use]
    pub fn split_graph_with(&self, drawn: u64, classes: CoinClasses) -> Option<(u64, u64)> {
        // Open coins with one or two strings: a simple component is made of them alone.
        let low = classes.one | classes.two;
        let ground_strings = self.ground_strings();
        let mut codes = [0u8; GRAPH_KEY_COMPONENTS];
        let (mut n, mut hidden) = (0, 0u64);
        let mut left = low;
        while left != 0 {
            // The component of the first low coin left, through low coins; it is simple unless
            // a string leads to a coin with three strings or more (a junction).
            // The coins reached (the component and its neighbours) and the strings of the
            // component's coins.
            let (mut component, mut todo, mut reach, mut strings_of) =
                (0u64, left & left.wrapping_neg(), 0u64, 0u64);
            while todo != 0 {
                component |= 1 << todo.trailing_zeros();
                let mut strings = self.coin_mask(todo.trailing_zeros() as usize) & !drawn;
                strings_of |= strings;
                while strings != 0 {
                    reach |= self.link(strings.trailing_zeros() as usize);
                    strings &= strings - 1;
                }
                todo = reach & low & !component;
            }
            left &= !component;
            if reach & !low != 0 {
                continue;
            }
            // Ends: coins with one string; a string to the ground belongs to one coin only.
            let ends = (component & classes.one).count_ones();
            let ground = (strings_of & ground_strings).count_ones();
            let coins = component.count_ones();
            if n == GRAPH_KEY_COMPONENTS || coins > 63 {
                return None;
            }
            codes[n] = component_code(ground, ends, coins);
            n += 1;
            hidden |= strings_of;
        }
        Some((drawn | hidden, components_key(&mut codes[..n])))
    }

    /// The strings that [`crate::Pruning::simple_openings`] leaves out in `drawn`, a position
    /// with no capturable coin: every string of the independent chains (paths of open coins
    /// with two strings each, both ends on the ground) and loops (cycles of such coins), except
    /// one per isomorphism class (kind and number of coins): for a chain of two coins its
    /// middle string, for another chain its lowest string to the ground, for a loop its lowest
    /// string. 0 when there is no such component.
    #[must_use]
    pub fn simple_openings(&self, drawn: u64) -> u64 {
        self.dropped_openings(drawn, true, false)
    }

    /// The strings that [`crate::Pruning::chain_ends`] leaves out in `drawn`, a position with no
    /// capturable coin: of each chain with an end on a junction (a path of open coins with
    /// two strings each, from the ground or a coin with three strings or more to such a coin)
    /// of two coins both end strings, of three coins or more every string but the lowest end
    /// string, and every string of a chain with the same number of coins and the same two ends
    /// (coins, or the ground) as one met before. 0 when there is no such chain.
    #[must_use]
    pub fn chain_cuts(&self, drawn: u64) -> u64 {
        self.dropped_openings(drawn, false, true)
    }

    /// The strings left out by [`Board::simple_openings`] (if `simple`) and
    /// [`Board::chain_cuts`] (if `chains`) together, in one walk of the components.
    #[must_use]
    pub(crate) fn dropped_openings(&self, drawn: u64, simple: bool, chains: bool) -> u64 {
        self.dropped_openings_with(drawn, self.coin_classes(drawn).two, simple, chains)
    }

    /// [`Board::dropped_openings`] with `two`, the open coins with exactly two strings, known.
    pub(crate) fn dropped_openings_with(&self, drawn: u64, two: u64, simple: bool, chains: bool) -> u64 {
        let ground_strings = self.ground_strings();
        // Classes seen: `ground << 6 | coins` (ground 2 for a chain, 0 for a loop).
        let mut seen = [0u8; 64];
        let mut n_seen = 0;
        // Chains with an end on a junction met so far: `coins << 16 | end << 8 | end`, the ends
        // as coin indices (64: the ground), lower first.
        let mut chains_seen = [0u32; 32];
        let mut n_chains = 0;
        let mut dropped = 0u64;
        let mut left = two;
        while left != 0 {
            // The coins reached (the component and its neighbours), the strings of the
            // component's coins and those of two of them (the strings inside the component).
            let (mut component, mut todo, mut reach, mut strings_of, mut inner) =
                (0u64, left & left.wrapping_neg(), 0u64, 0u64, 0u64);
            while todo != 0 {
                component |= 1 << todo.trailing_zeros();
                let strings = self.coin_mask(todo.trailing_zeros() as usize) & !drawn;
                inner |= strings_of & strings;
                strings_of |= strings;
                let mut left_strings = strings;
                while left_strings != 0 {
                    reach |= self.link(left_strings.trailing_zeros() as usize);
                    left_strings &= left_strings - 1;
                }
                todo = reach & two & !component;
            }
            left &= !component;
            let ground = strings_of & ground_strings;
            let junction = reach & !two != 0;
            let coins = component.count_ones();
            let grounds = ground.count_ones();
            if junction {
                // A chain with an end on a junction: a path (its coins tied in a row by
                // `coins - 1` strings, two strings out) of two coins or more.
                let ends = strings_of & !inner;
                if chains && inner.count_ones() + 1 == coins && ends.count_ones() == 2 {
                    // What each end string ties the chain to.
                    let end_of = |e: u64| {
                        let b = self.border(e.trailing_zeros() as usize);
                        let out = (b.bits[0] | b.bits[1]) & !component;
                        if b.masks[1] == 0 || out == 0 {
                            64
                        } else {
                            out.trailing_zeros()
                        }
                    };
                    let (e0, e1) = (end_of(ends & ends.wrapping_neg()), end_of(ends & (ends - 1)));
                    let class = coins << 16 | e0.min(e1) << 8 | e0.max(e1);
                    if chains_seen[..n_chains].contains(&class) {
                        dropped |= strings_of;
                        continue;
                    }
                    if n_chains < chains_seen.len() {
                        chains_seen[n_chains] = class;
                        n_chains += 1;
                    }
                    if coins >= 2 {
                        dropped |= if coins == 2 { ends } else { strings_of & !(ends & ends.wrapping_neg()) };
                    }
                }
                continue;
            }
            if !simple {
                continue;
            }
            // A component reaching a coin with three strings or more, or (on boards where a
            // coin has several strings to the ground) a path with another number of ends on
            // the ground, is searched in full.
            if junction || coins > 63 || (grounds != 0 && grounds != 2) {
                continue;
            }
            let class = (grounds as u8) << 6 | coins as u8;
            if seen[..n_seen].contains(&class) || n_seen == seen.len() {
                dropped |= strings_of;
                continue;
            }
            seen[n_seen] = class;
            n_seen += 1;
            let keep = if grounds == 0 {
                strings_of & strings_of.wrapping_neg()
            } else if coins == 2 {
                strings_of & !ground
            } else {
                ground & ground.wrapping_neg()
            };
            dropped |= strings_of & !keep;
        }
        dropped
    }
}
