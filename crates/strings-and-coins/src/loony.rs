//! Values of simple loony endgames: positions whose graph is a disjoint union of chains and
//! loops with no capturable coin, valued by a recursion over the multiset of their lengths
//! instead of a search (E. Berlekamp, *The Dots and Boxes Game*, 2000; K. Buzzard
//! and M. Ciere, "Playing simple loony dots and boxes endgames optimally", INTEGERS 14, 2014).

use crate::{Board, CoinClasses};

/// Most components a position may have for [`Board::loony_value`] to value it.
pub const LOONY_COMPONENTS: usize = 24;

/// Most states of the recursion over sub-multisets ([`Board::loony_value`]): the product over
/// the distinct components of their multiplicity plus one.
const LOONY_STATES: usize = 1024;

/// A component of a simple loony endgame, `kind << 8 | coins`: a chain of `coins` coins with
/// both ends on the ground (`kind` 0), or a loop of `coins` coins (`kind` 1).
type Part = u16;

/// A chain of `coins` coins.
const fn chain(coins: u32) -> Part {
    coins as Part
}

/// A loop of `coins` coins.
const fn cycle(coins: u32) -> Part {
    1 << 8 | coins as Part
}

/// The value of opening the component `part` for the player who opens it, when the rest of
/// the position is worth `rest` to whoever moves in it.
///
/// - A chain of one or two coins: the opener hands it out (a two-chain cut in its middle, the
///   "hard-hearted handout", so that no double-dealing answer exists); the opponent takes it
///   and moves in the rest.
/// - A chain of `n >= 3`: the opponent takes all `n` and moves in the rest (`n + rest`), or
///   takes `n - 2` and double-deals the last two, which the opener takes before moving in the
///   rest (`n - 4 - rest`); the opener gets the negation of the better of the two.
/// - A loop of `n >= 4`: the same with all but four (two double-dealt pairs): `n + rest` or
///   `n - 8 - rest`.
#[inline]
fn opened(part: Part, rest: i32) -> i32 {
    let n = i32::from(part & 0xff);
    match part >> 8 {
        0 if n <= 2 => -(n + rest),
        0 => -(n + rest).max(n - 4 - rest),
        _ => -(n + rest).max(n - 8 - rest),
    }
}

impl Board {
    /// The value of `drawn` for the side to move when it is a simple loony endgame: every open
    /// coin has exactly two strings (so no coin is capturable and every move offers a coin:
    /// no safe move is left), the graph is a disjoint union of chains (paths with both ends on
    /// the ground, of any length) and loops of at least four coins, at most
    /// [`LOONY_COMPONENTS`] components. `None` otherwise (also when no coin is open, or when
    /// the recursion would need more than 1024 states).
    ///
    /// Every move opens one component; the value is the recursion over the multiset of
    /// components `V(∅) = 0`, `V(G) = max` over the components `c` of `G` of the value of
    /// opening `c` with `V(G - c)` left (`opened`: the opener hands out short chains
    /// hard-heartedly; the opponent takes a long chain or loop whole, or declines its last two
    /// or four coins by double-dealing and keeps control). This is the classical valuation of
    /// loony endgames (Berlekamp, *The Dots and Boxes Game*: the controlled value and its
    /// exceptions); Buzzard and Ciere prove the optimal play when every chain has at least
    /// three coins and every loop at least four. Here short chains are included and the
    /// recursion is exact over the multiset, not a closed form; the tests check it against
    /// plain searches on every position of small boards and on thousands of random endgames
    /// of dots-and-boxes (3x3 to 4x4) and Triangle War.
    ///
    /// Costs one pass over the coins when the position is not such an endgame (stopping at the
    /// first coin with one, three or four strings; none with [`Board::loony_value_with`]), and
    /// a walk of the graph and a recursion of at most 1024 states when it is.
    #[must_use]
    pub fn loony_value(&self, drawn: u64) -> Option<i32> {
        // The open coins, stopping at the first with one string or three or more.
        let mut two = 0u64;
        for (i, &t) in self.coins().iter().enumerate() {
            let open = t & !drawn;
            if open == 0 {
                continue;
            }
            let rest = open & open.wrapping_sub(1);
            if rest == 0 || rest & rest.wrapping_sub(1) != 0 {
                return None;
            }
            two |= 1 << i;
        }
        self.loony_value_with(drawn, CoinClasses { one: 0, two, many: 0 })
    }

    /// [`Board::loony_value`] with the coin classes of `drawn` ([`Board::coin_classes`])
    /// already known.
    #[must_use]
    pub fn loony_value_with(&self, drawn: u64, classes: CoinClasses) -> Option<i32> {
        let open_coins = classes.two;
        if classes.one | classes.many != 0 || open_coins == 0 {
            return None;
        }
        let ground_strings = self.ground_strings();
        let mut parts: [Part; LOONY_COMPONENTS] = [0; LOONY_COMPONENTS];
        let mut n = 0;
        let mut left = open_coins;
        while left != 0 {
            let (mut component, mut todo, mut ground) = (0u64, left & left.wrapping_neg(), 0u32);
            while todo != 0 {
                let c = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                component |= 1 << c;
                let strings = self.coin_mask(c) & !drawn;
                ground += (strings & ground_strings).count_ones();
                let mut between = strings & !ground_strings;
                while between != 0 {
                    let s = between.trailing_zeros() as usize;
                    between &= between - 1;
                    todo |= self.link(s) & !component;
                }
            }
            left &= !component;
            let coins = component.count_ones();
            if n == LOONY_COMPONENTS {
                return None;
            }
            // Every coin has two strings: a component with strings to the ground is a chain
            // with both ends there, one without is a loop.
            parts[n] = if ground > 0 {
                chain(coins)
            } else if coins >= 4 {
                cycle(coins)
            } else {
                // Loops of two or three coins (not in dots-and-boxes or Triangle War): their
                // answers differ; left to the search.
                return None;
            };
            n += 1;
        }
        loony_recursion(&mut parts[..n])
    }
}

/// `V` of the multiset `parts` (sorted here), by dynamic programming over its sub-multisets in
/// mixed radix: one digit per distinct component, its multiplicity. `None` beyond
/// [`LOONY_STATES`] states.
fn loony_recursion(parts: &mut [Part]) -> Option<i32> {
    parts.sort_unstable();
    // Distinct components, their multiplicities and place values.
    let mut kinds: [Part; LOONY_COMPONENTS] = [0; LOONY_COMPONENTS];
    let mut counts = [0usize; LOONY_COMPONENTS];
    let mut places = [0usize; LOONY_COMPONENTS];
    let (mut k, mut states) = (0, 1usize);
    for (i, &p) in parts.iter().enumerate() {
        if i > 0 && parts[i - 1] == p {
            counts[k - 1] += 1;
        } else {
            (kinds[k], counts[k]) = (p, 1);
            k += 1;
        }
    }
    for i in 0..k {
        places[i] = states;
        states = states.checked_mul(counts[i] + 1).filter(|&s| s <= LOONY_STATES)?;
    }
    // Values fit in an i8 (at most 64 coins): a small table to clear.
    let mut value = [0i8; LOONY_STATES];
    for state in 1..states {
        let mut best = i32::MIN;
        for i in 0..k {
            if (state / places[i]) % (counts[i] + 1) > 0 {
                best = best.max(opened(kinds[i], i32::from(value[state - places[i]])));
            }
        }
        value[state] = best as i8;
    }
    Some(i32::from(value[states - 1]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(parts: &[Part]) -> i32 {
        loony_recursion(&mut parts.to_vec()).unwrap()
    }

    #[test]
    fn known_values() {
        // One component: the opener gives it all away.
        assert_eq!(v(&[chain(1)]), -1);
        assert_eq!(v(&[chain(5)]), -5);
        assert_eq!(v(&[cycle(4)]), -4);
        // Two 3-chains: after the first is opened, the opponent taking all of it gets
        // 3 + (-3) = 0, declining the last two keeps control: 3 - 4 - (-3) = 2.
        assert_eq!(v(&[chain(3), chain(3)]), -2);
        // A 1-chain first hands the turn over: -1 - V(3-chain) = -1 + 3 = 2.
        assert_eq!(v(&[chain(1), chain(3)]), 2);
        // A 4-loop and a 3-chain: opening the loop gives -max(4 - 3, 4 - 8 + 3) = -1; opening
        // the chain gives -max(3 - 4, 3 - 4 + 4) = -3.
        assert_eq!(v(&[cycle(4), chain(3)]), -1);
        // Order does not matter.
        assert_eq!(v(&[chain(3), chain(1), cycle(6)]), v(&[cycle(6), chain(3), chain(1)]));
    }
}
