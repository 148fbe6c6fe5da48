//! The proven pruning rules of strings and coins: forced capture, capture before sacrificing,
//! all but two, and the moves they leave alone.

use crate::{Board, CoinClasses};

/// Pruning rules of a strings-and-coins search: proven value-preserving restrictions of the
/// moves searched. Values are exact with any setting; only the work differs.
///
/// The rules read the board as strings and coins (E. Berlekamp, *The Dots and Boxes Game*,
/// 2000, ch. 2; J. Barker and R. Korf, "Solving Dots-And-Boxes", AAAI 2012): a cell (unit
/// triangle, box) is a coin, its undrawn sides are its strings (a rim side is a string to the
/// ground), and a coin with one string left is *capturable*. Cutting a string completes the
/// coins it leaves with no string, which the mover banks before moving again. The value of the
/// remaining play depends on this graph alone.
///
/// [`Board::candidates`] applies `capture`, `capture_first`, `all_but_two`, `simple_openings`,
/// `chain_ends` and `twin_moves`; `fold_forced`,
/// `graph_keys`, `twins` and `loony_values` are for the game's `play`, key and bounds
/// ([`Board::folded_move`], [`Board::graph_key`], [`Board::normalise_twins`],
/// [`Board::loony_value`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// Forced capture: when a capturable coin `C` hangs by its string `s` from the ground, from
    /// a coin `D` with at least three strings (an untouched triangle; a box with three or four),
    /// or from a coin `D` that `s` also completes, drawing `s` at once is optimal and it is the
    /// only move searched.
    ///
    /// Proof (by induction on the number of strings; `P` the position, `Q` the position after
    /// `s`, `v` the value for the side to move). The ground and single-string cases change
    /// nothing else, so either player may take them on any later turn. For `D` with at least
    /// three strings, `v(P) >= 1 + v(Q)` since `s` is legal. Conversely let `t != s` be any
    /// other move. `t` completes the same coins in `P` and `Q` (it cannot complete `D`, which
    /// keeps at least two strings in `Q`). If `t` completes nothing, the opponent may answer
    /// with `s`, so `val(t) <= -1 - v(Q - t) <= v(Q) - 1`. If `t` completes coins and `D` keeps
    /// at least three strings, the induction gives `val(t) = g + 1 + v(Q - t) <= 1 + v(Q)`. If
    /// `t` completes a coin `E` through a string of `D`, then `E` hung from `D` as `C` does:
    /// drawing `t` in `P` and drawing `s` in `P` lead to the same strings-and-coins graph with
    /// `C` and `E` exchanged, so `val(t) = val(s)`.
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
    /// All but two (Berlekamp): with [`Pruning::capture_first`], the double-dealing move at the
    /// open end of a chain of three or more coins is not searched. Let the chain be `C` (open,
    /// string `s` to `D`), `D` (strings `s`, `e`), `F` (strings `e`, `f`), and let `f` complete
    /// nothing. Double-dealing at `C` (drawing `e`) leaves the opponent the pair `C`-`D` and
    /// the open chain from `F`; drawing `s` then `f` banks `C` and leaves the pair `D`-`F` and
    /// the open chain beyond `F`. The opponent facing the first can take `F` and stand where
    /// the second leaves him, one coin up, so the first is worth at least two less.
    pub all_but_two: bool,
    /// A move that the rules leave alone in its position (a forced capture, or a capture that
    /// is the only candidate) is played inside the move that allows it (the game's `play`
    /// then draws several strings and returns the net gain of the mover), so it costs no node,
    /// TT probe or entry of its own. A search technique, not a move rule: games played string
    /// by string (sessions, a web page) switch it off. See [`Board::folded_move`].
    pub fold_forced: bool,
    /// Graph keys: once no coin is untouched (every coin has at most two strings), the
    /// strings-and-coins graph is a disjoint union of paths and cycles, and the TT key is the
    /// multiset of its components ([`Board::graph_key`]) instead of the drawn set, so that
    /// positions with the same chains and loops in different places of the board share one
    /// entry. A keying technique, not a move rule: the value of the remaining play depends on
    /// the graph alone, up to isomorphism, and a path is fixed up to isomorphism by its number
    /// of coins and of ends on the ground, a cycle by its number of coins.
    pub graph_keys: bool,
    /// Twin keys (J. Barker and R. Korf's corner symmetry, generalised): strings that tie the
    /// same coin to the ground ([`Board::twin_groups`]: the two rim lines of a corner box) are
    /// interchangeable, so the game's TT key counts the drawn twins of each coin instead of
    /// naming them ([`Board::normalise_twins`]): the two positions after one or the other
    /// corner line share one entry. A keying technique, not a move rule: every legal move is
    /// still searched (the second twin is a TT hit), so the moves at the root stay the legal
    /// ones, as the root driver's analysis and its checkpoints need.
    ///
    /// Proof: exchanging two strings that tie the same coin to the ground maps the board onto
    /// itself (an automorphism of the strings-and-coins graph), so it maps every drawn set to
    /// one of the same value.
    pub twins: bool,
    /// Loony values: a simple loony endgame (every open coin has exactly two strings: chains
    /// and loops, no capturable coin, no safe move) is valued by [`Board::loony_value`], a
    /// recursion over the multiset of its components, instead of being searched. A valuing
    /// technique, not a move rule: the game reports the value as both of its bounds
    /// (`search_core::Game::value_bounds`), which ends the node.
    pub loony_values: bool,
    /// Simple openings: where no coin is capturable, of the strings of the independent chains
    /// (components of the graph of open coins that are paths with both ends on the ground,
    /// every coin with two strings) and loops (cycles, likewise) only one string per
    /// isomorphism class of component (its kind and number of coins) is searched: an end
    /// string of a chain of one coin or of three or more, the middle string of a chain of
    /// two, any string of a loop ([`Board::simple_openings`]). A move rule: the moves of a
    /// position with such a component (also at the root of a search) are fewer than the legal
    /// ones; [`Board::folded_move`] ignores it (it folds captures only).
    ///
    /// Proof (`P` the position, `R` the rest of the graph beside the component, `v` the value
    /// for the side to move). Every string of the component completes nothing and offers a
    /// coin, so the opponent moves next. Isomorphic components give isomorphic positions, and
    /// so do the strings of a loop (its rotations) and the two ends of a chain (its
    /// reflection). A chain of `n >= 3` opened at an end leaves the opponent worth exactly
    /// `max(n + v(R), n - 2 - v(R + D))`, `D` a domino (two coins tied by one string, both
    /// taken by it): by [`Pruning::capture_first`] and [`Pruning::all_but_two`] he takes the coins
    /// one by one and can only stop to double-deal the last two. Cut inside, it leaves two
    /// pieces of `a` and `b` coins, each hanging from the cut with its other end on the
    /// ground: the opponent can take both (`n + v(R)`), or take one and all but the last two of
    /// the other (one of them has two coins or more) and double-deal them (`n - 2 - v(R +
    /// D)`), so an inside cut is worth no more to the opener than the end. A chain of two cut
    /// in its middle leaves two coins hanging from the ground, which the forced-capture rule
    /// ([`Pruning::capture`]) takes at once (`2 + v(R)` to the opponent); cut at an end, the
    /// opponent can do the same, so the middle is worth at least as much to the opener.
    pub simple_openings: bool,
    /// Chain ends: where no coin is capturable, of the strings of a chain with an end on a
    /// junction (a path of open coins with two strings each, from the ground or a coin with
    /// three strings or more to such a coin; both ends may be the same coin) only one is
    /// searched: the middle string of a chain of two coins, the lowest end string of a chain
    /// of three or more ([`Board::chain_cuts`]; chains of one coin keep both strings, chains
    /// with both ends on the ground are [`Pruning::simple_openings`]' own); and of several such
    /// chains with the same number of coins between the same two ends, only the first. A move
    /// rule, like the simple openings; [`Board::folded_move`] ignores it.
    ///
    /// Proof (`P` the position, nothing capturable; the chain `c1 .. cn`, coin `ci` with the
    /// strings `s(i-1)` and `si`, `s0` tying `c1` to its end `E0` and `sn` tying `cn` to `En`,
    /// each end the ground or a coin with three strings or more, possibly the same coin; `w`
    /// the value of a position for its side to move). Every string of the chain completes
    /// nothing and offers a coin, so the opponent moves next.
    ///
    /// `n >= 3`. After `s0` the only capturable coin is `c1` (an end junction keeps at least
    /// two strings), and while at least three coins of the chain are left the opponent's moves
    /// are the capture, dominated double-dealing ([`Pruning::all_but_two`]: the coin beyond the
    /// pair has two strings and the string past it completes nothing, as an end keeps at least
    /// two strings) and moves dominated by [`Pruning::capture_first`]; so
    /// `w(P + s0) = n - 2 + w(Y)`, `Y = P + s0 + .. + s(n-2)` with `c(n-1)` capturable. After
    /// an inside cut `si`, `1 <= i <= n - 2`, the opponent can draw `s(i-1) .. s0` and
    /// `s(i+1) .. s(n-2)`, each completing one coin, and stand in `Y` with the same `n - 2`
    /// coins: `w(P + si) >= w(P + s0)`, so `si` is worth no more to the opener than `s0`; by
    /// the chain's reflection every `si` with `2 <= i <= n - 1` is worth no more than `sn`. The
    /// two ends are worth the same: `w(P + sn) = n - 2 + w(Y')`, `Y' = P + s2 + .. + sn`, and
    /// in `Y` (in `Y'`) the opponent's moves that are not dominated are the capture of `c(n-1)`
    /// (of `c2`), after which the last coin hangs from the ground or from a junction that still
    /// has three strings or more and is taken at once ([`Pruning::capture`]), and the
    /// double-dealing `sn` (`s0`): both reach the same line sets from `Y` and `Y'` up to a
    /// separate domino (every string of the chain drawn; all but one string of a pair). Where
    /// `E0` and `En` are the same coin, `Y` and `Y'` are themselves isomorphic (the chain
    /// reversed).
    ///
    /// `n = 2`. After the middle string `s1` both coins hang from their ends, which are the
    /// ground or have three strings or more, so the opponent takes one at once
    /// ([`Pruning::capture`]): `w(P + s1) = 1 + w(P + s0 + s1) = 1 + w(P + s1 + s2)`. After `s0`
    /// the opponent can draw `s1` and stand in `P + s0 + s1` with one coin:
    /// `w(P + s0) >= w(P + s1)`, and likewise for `s2`: the middle is worth at least as much to
    /// the opener as either end.
    ///
    /// Equal chains. Two chains with the same number of coins between the same two ends (the
    /// ground counting as one end) are exchanged, coin for coin and string for string, by an
    /// automorphism of the graph that fixes everything else; so a cut of the second is worth
    /// what the cut of the first at the same place is, and one of the first's ends is searched
    /// (by the above, either end; for a chain of one coin, both strings are kept on the
    /// first).
    pub chain_ends: bool,
    /// Loony offers: a position in which the player to move can take a capturable coin and
    /// its neighbour or decline them ([`Board::loony_offer`]) is worth at least 0 to that
    /// player (at least 1 when an odd number of coins is open: the value, the player's coins
    /// minus the opponent's of those still open, has the parity of their number). A bounding
    /// technique, not a move rule: the game raises its lower bound
    /// (`search_core::Game::value_bounds`), which ends the node where the window lies below.
    ///
    /// Proof (E. Berlekamp's loony moves; `P` the position, `v` the value for the side to
    /// move). The coin `C` has one string `s`, across `s` lies a coin `D` with two strings `s`
    /// and `e`, and drawing `e` completes nothing (across `e` lies the ground or a coin with
    /// two strings or more). Taking `C` (by `s`) and then `D` (by `e`) banks two coins and
    /// leaves the mover to move in `X = P + s + e`: `2 + v(X)`. Declining, by drawing `e`,
    /// completes nothing and leaves `C` and `D` tied by `s` alone, which the opponent takes
    /// at once ([`Pruning::capture`]: `s` completes both) before moving in the same `X`:
    /// `-(2 + v(X))`. So `v(P) >= max(2 + v(X), -2 - v(X)) >= 0`.
    pub loony_offers: bool,
    /// Twin moves: of the undrawn strings of a twin group ([`Board::twin_groups`]: the
    /// strings that tie one coin to the ground, the two rim lines of a corner box) that the
    /// other rules keep, only the lowest is searched; except in the start position (nothing
    /// drawn), whose moves stay the legal ones, as root checkpoints of the empty board list
    /// them. A move rule, the move form of [`Pruning::twins`]; [`Board::folded_move`] ignores it
    /// (it folds captures only).
    ///
    /// Proof: exchanging two strings that tie the same coin to the ground is an automorphism
    /// of the strings-and-coins graph ([`Pruning::twins`]) that fixes every other string, so
    /// it maps the position after one of them onto the position after the other, with the
    /// same coins completed: both moves have the same value, and the one kept stands for the
    /// other.
    pub twin_moves: bool,
}

impl Pruning {
    /// The key scheme of a game keyed by these rules (its `search_core::Game::key_scheme`):
    /// version 1 of the keys (canonical under the board's symmetries) and the rules that change
    /// them, `twins` (twin keys) and `graph` (graph and split keys), e.g. `1 twins graph`.
    #[must_use]
    pub fn key_scheme(&self) -> String {
        let mut scheme = "1".to_string();
        if self.twins {
            scheme.push_str(" twins");
        }
        if self.graph_keys {
            scheme.push_str(" graph");
        }
        scheme
    }

    /// Every rule on.
    pub const ALL: Pruning = Pruning {
        capture: true,
        capture_first: true,
        all_but_two: true,
        fold_forced: true,
        graph_keys: true,
        twins: true,
        loony_values: true,
        simple_openings: true,
        chain_ends: true,
        loony_offers: true,
        twin_moves: true,
    };
    /// No rule: the plain game tree.
    pub const NONE: Pruning = Pruning {
        capture: false,
        capture_first: false,
        all_but_two: false,
        fold_forced: false,
        graph_keys: false,
        twins: false,
        loony_values: false,
        simple_openings: false,
        chain_ends: false,
        loony_offers: false,
        twin_moves: false,
    };
}

/// How the coin(s) completed by a capturing string hang in the strings-and-coins graph
/// ([`Board::hang`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hang {
    /// From the ground, from a coin with at least three strings, or from a coin the same string
    /// completes: the forced-capture rule ([`Pruning::capture`]) applies.
    Free,
    /// From a coin with two strings (a chain); `double_deal` is the move that leaves the coin
    /// and its neighbour as a pair, `None` where [`Pruning::all_but_two`] drops it.
    Chain {
        /// The double-dealing move (a string index), if it is searched.
        double_deal: Option<usize>,
    },
}

impl Board {
    /// The undrawn strings that complete at least one coin of `drawn`, as a string set.
    #[inline]
    #[must_use]
    pub fn capturing(&self, drawn: u64) -> u64 {
        self.coins().iter().fold(0, |acc, &t| {
            let open = t & !drawn;
            // Exactly one bit, without a population count (slow where the CPU has none).
            if open != 0 && open & (open - 1) == 0 {
                acc | open
            } else {
                acc
            }
        })
    }

    /// [`Board::capturing`] given `one`, the open coins with one string left.
    #[inline]
    fn capturing_of(&self, drawn: u64, one: u64) -> u64 {
        let (mut left, mut strings) = (one, 0u64);
        while left != 0 {
            strings |= self.coin_mask(left.trailing_zeros() as usize);
            left &= left - 1;
        }
        strings & !drawn
    }

    /// How the coin(s) that the capturing string `s` completes in `drawn` hang (see [`Hang`]);
    /// with `all_but_two` ([`Pruning::all_but_two`]) the double-dealing move inside a chain of
    /// three or more is dropped. `s` must be in [`Board::capturing`]`(drawn)`.
    #[inline]
    #[must_use]
    pub fn hang(&self, drawn: u64, s: usize, all_but_two: bool) -> Hang {
        let [m0, m1] = self.border(s).masks;
        let (open0, open1) = (m0 & !drawn, m1 & !drawn);
        let neighbour = match (open0.count_ones(), open1.count_ones()) {
            (1, 2) => m1,
            (2, 1) => m0,
            _ => return Hang::Free,
        };
        let e = (neighbour & !drawn & !(1 << s)).trailing_zeros() as usize;
        if all_but_two && self.chain_continues(drawn, e, neighbour) {
            Hang::Chain { double_deal: None }
        } else {
            Hang::Chain { double_deal: Some(e) }
        }
    }

    /// Whether the chain goes on past the double-dealing move `e` of the neighbour `d_mask`: the
    /// coin across `e` has two strings, and its other string `f` completes nothing else (across
    /// `f` lies the ground or a coin with at least two strings).
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

    /// The moves searched in `drawn` under `rules`, as a string set: every undrawn string, or
    /// the subset that [`Pruning::capture`], [`Pruning::capture_first`] and [`Pruning::all_but_two`]
    /// keep (a single string for a forced capture), and where nothing is capturable
    /// [`Pruning::simple_openings`] and [`Pruning::chain_ends`]; then [`Pruning::twin_moves`]. Never
    /// empty while a string is undrawn.
    #[inline]
    #[must_use]
    pub fn candidates(&self, drawn: u64, rules: Pruning) -> u64 {
        self.candidates_with(drawn, self.coin_classes(drawn), rules)
    }

    /// [`Board::candidates`] with the coin classes of `drawn` ([`Board::coin_classes`]) already
    /// known.
    #[inline]
    #[must_use]
    pub fn candidates_with(&self, drawn: u64, classes: CoinClasses, rules: Pruning) -> u64 {
        let capturing = if classes.one == 0 { 0 } else { self.capturing_of(drawn, classes.one) };
        let candidates = self.rule_candidates(drawn, capturing, || classes.two, rules);
        if rules.twin_moves && drawn != 0 {
            self.without_twin_moves(candidates)
        } else {
            candidates
        }
    }

    /// `candidates` without the strings [`Pruning::twin_moves`] drops: of each twin group's
    /// strings in `candidates`, all but the lowest.
    #[inline]
    #[must_use]
    pub fn without_twin_moves(&self, candidates: u64) -> u64 {
        self.twin_groups().iter().fold(candidates, |c, &group| {
            let kept = c & group;
            // Every string of the group in `candidates` but the lowest.
            c & !(kept & kept.wrapping_sub(1))
        })
    }

    /// [`Board::candidates`] before [`Pruning::twin_moves`]: `capturing` is [`Board::capturing`]`(drawn)`, `two` gives the open coins with two
    /// strings (asked for only where nothing is capturable, by the openings rules).
    #[inline]
    fn rule_candidates(&self, drawn: u64, capturing: u64, two: impl FnOnce() -> u64, rules: Pruning) -> u64 {
        let free = self.all_strings() & !drawn;
        let mut candidates = free;
        if rules.capture || rules.capture_first || rules.simple_openings || rules.chain_ends {
            if capturing == 0 {
                if rules.simple_openings || rules.chain_ends {
                    candidates &=
                        !self.dropped_openings_with(drawn, two(), rules.simple_openings, rules.chain_ends);
                }
                return candidates;
            }
            let mut left = capturing;
            while left != 0 {
                let s = left.trailing_zeros() as usize;
                left &= left - 1;
                let double_deal = match self.hang(drawn, s, rules.all_but_two) {
                    Hang::Free if rules.capture => return 1 << s,
                    Hang::Free => None,
                    Hang::Chain { double_deal } => double_deal,
                };
                // Any capturable coin gives a valid restriction: prefer one whose chain needs
                // no double-dealing move.
                if rules.capture_first && (candidates == free || double_deal.is_none()) {
                    candidates = capturing | double_deal.map_or(0, |e| 1 << e);
                }
            }
        }
        candidates
    }

    /// Whether the player to move in `drawn` faces a loony offer ([`Pruning::loony_offers`]): a
    /// capturable coin `C` (one string `s`) hanging from a coin `D` with two strings, `s` and
    /// `e`, where drawing `e` completes nothing (across `e` lies the ground or a coin with two
    /// strings or more). Taking both coins and declining them (drawing `e`) then reach the
    /// same drawn set, so the position is worth at least 0 to the player to move.
    #[inline]
    #[must_use]
    pub fn loony_offer(&self, drawn: u64) -> bool {
        self.loony_offer_of(drawn, self.capturing(drawn))
    }

    /// [`Board::loony_offer`] with the coin classes of `drawn` ([`Board::coin_classes`])
    /// already known.
    #[inline]
    #[must_use]
    pub fn loony_offer_with(&self, drawn: u64, classes: CoinClasses) -> bool {
        if classes.one == 0 {
            return false;
        }
        self.loony_offer_of(drawn, self.capturing_of(drawn, classes.one))
    }

    /// [`Board::loony_offer`] given the capturing strings of `drawn`.
    #[inline]
    fn loony_offer_of(&self, drawn: u64, capturing: u64) -> bool {
        let mut left = capturing;
        while left != 0 {
            let s = left.trailing_zeros() as usize;
            left &= left - 1;
            let [m0, m1] = self.border(s).masks;
            let d = match ((m0 & !drawn).count_ones(), (m1 & !drawn).count_ones()) {
                (1, 2) => m1,
                (2, 1) => m0,
                _ => continue,
            };
            let e = (d & !drawn & !(1 << s)).trailing_zeros() as usize;
            let f = self.across(e, d);
            if f == 0 || (f & !drawn).count_ones() >= 2 {
                return true;
            }
        }
        false
    }

    /// The string that [`Pruning::fold_forced`] plays next inside the game's `play` in `drawn`,
    /// if any: the only candidate the rules leave ([`Board::candidates`]). It is always a
    /// capture (every restriction keeps one), so the turn stays with the player to move.
    #[inline]
    #[must_use]
    pub fn folded_move(&self, drawn: u64, rules: Pruning) -> Option<usize> {
        // Nothing capturable: every undrawn string is a candidate, and a single one left would
        // complete its coins (so be capturable).
        let capturing = self.capturing(drawn);
        if capturing == 0 {
            return None;
        }
        // Folding ignores the openings rules: the coins with two strings are never asked for.
        let only =
            self.rule_candidates(drawn, capturing, || self.coin_classes(drawn).two, Self::folding(rules));
        (only != 0 && only & (only - 1) == 0).then(|| only.trailing_zeros() as usize)
    }

    /// The rules [`Board::folded_move`] applies: `rules` without the move rules that only
    /// narrow a choice (the openings, chain ends and twin moves).
    #[inline]
    const fn folding(rules: Pruning) -> Pruning {
        Pruning { simple_openings: false, chain_ends: false, twin_moves: false, ..rules }
    }

    /// [`Board::folded_move`] with the coin classes of `drawn` ([`Board::coin_classes`])
    /// already known.
    #[inline]
    #[must_use]
    pub fn folded_move_with(&self, drawn: u64, classes: CoinClasses, rules: Pruning) -> Option<usize> {
        if classes.one == 0 {
            return None;
        }
        let only = self.candidates_with(drawn, classes, Self::folding(rules));
        (only != 0 && only & (only - 1) == 0).then(|| only.trailing_zeros() as usize)
    }
}
