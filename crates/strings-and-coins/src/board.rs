//! The board: coins (cells) and the strings (lines) that tie them to each other or to the ground.

/// Most strings a board holds: a set of strings is a `u64` bitboard.
pub const MAX_STRINGS: usize = 64;

/// Most coins a board holds: a set of coins is a `u64` bitboard.
pub const MAX_COINS: usize = 64;

/// The one or two coins a string ties, as fixed-size tables for the hot paths.
///
/// A string to the ground (a rim segment or line) has mask 0 and bit 0 for its missing second
/// coin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Border {
    /// The string sets of the coins (each coin's strings, drawn or not).
    pub masks: [u64; 2],
    /// The coins as coin-set bits (`1 << index in Board::coins()`).
    pub bits: [u64; 2],
}

impl Border {
    /// The coins completed in `drawn` (a set containing the string), as coin bits.
    #[inline]
    #[must_use]
    pub const fn completed(&self, drawn: u64) -> u64 {
        let [m0, m1] = self.masks;
        let first = if drawn & m0 == m0 { self.bits[0] } else { 0 };
        let second = if m1 != 0 && drawn & m1 == m1 { self.bits[1] } else { 0 };
        first | second
    }

    /// How many of the coins `drawn` leaves exactly one string short (offered to the next
    /// player: capturable).
    #[inline]
    #[must_use]
    pub const fn offered(&self, drawn: u64) -> u32 {
        let [m0, m1] = self.masks;
        let first = (m0 & !drawn).count_ones() == 1;
        let second = m1 != 0 && (m1 & !drawn).count_ones() == 1;
        first as u32 + second as u32
    }

    /// Whether the string ties its coin to the ground (one coin only).
    #[inline]
    #[must_use]
    pub const fn is_ground(&self) -> bool {
        self.masks[1] == 0
    }
}

/// A list of coins that is not a strings-and-coins board ([`Board::new`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// More strings than a `u64` holds.
    #[error("{0} strings: at most {MAX_STRINGS} are supported")]
    TooManyStrings(usize),
    /// More coins than a `u64` holds.
    #[error("{0} coins: at most {MAX_COINS} are supported")]
    TooManyCoins(usize),
    /// A coin has no string.
    #[error("coin {0} has no string")]
    EmptyCoin(usize),
    /// A coin names a string at or beyond the number of strings.
    #[error("coin {coin} has string {string}, but the board has {strings} strings")]
    NoSuchString {
        /// The coin's index.
        coin: usize,
        /// The first string out of range.
        string: usize,
        /// The number of strings of the board.
        strings: usize,
    },
    /// A string belongs to no coin.
    #[error("string {0} belongs to no coin")]
    LooseString(usize),
    /// A string belongs to three coins or more.
    #[error("string {string} belongs to coins {coins:?} (at most two)")]
    SharedString {
        /// The string.
        string: usize,
        /// Every coin holding it.
        coins: Vec<usize>,
    },
    /// Two coins have exactly the same strings (each string then ties the pair, a shape the
    /// hot paths, which tell coins apart by their masks, do not support).
    #[error("coins {0} and {1} have the same strings")]
    SameStrings(usize, usize),
}

/// A strings-and-coins board (Berlekamp, *The Dots and Boxes Game*, 2000, ch. 2): coins
/// `0..coins().len()`, strings `0..strings()`, each string tying one coin to the ground or two
/// coins together. A position is the set of drawn (cut) strings as a `u64`, bit `s` for string
/// `s`; a coin whose strings are all drawn is completed (captured) by whoever drew the last one.
///
/// In dots-and-boxes a coin is a box and a string a line (a border line ties its box to the
/// ground); in Triangle War a coin is a unit triangle and a string a segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Each coin's strings.
    coins: Vec<u64>,
    /// For each string, the one or two coins it ties.
    borders: Vec<Border>,
    /// Every string.
    all: u64,
    /// Twin strings: for each coin with two or more strings to the ground, those strings
    /// ([`Board::twin_groups`]).
    twins: Vec<u64>,
    /// For each twin group, the group and, for each `k` from 0 to its size, its `k` lowest
    /// strings ([`Board::normalise_twins`]).
    twin_prefixes: Vec<(u64, Vec<u64>)>,
    /// Each coin's strings by coin index, in a fixed array for the hot loops (0 past the last
    /// coin).
    coin_masks: [u64; MAX_COINS],
    /// For each string, the coin bits of the coin or two coins it ties (0 past the last string).
    links: [u64; MAX_STRINGS],
    /// The strings that tie a coin to the ground.
    ground: u64,
}

/// The open coins of a drawn set by their number of strings left ([`Board::coin_classes`]), as
/// coin sets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CoinClasses {
    /// Coins with one string left (capturable).
    pub one: u64,
    /// Coins with two strings left.
    pub two: u64,
    /// Coins with three strings or more left (junctions).
    pub many: u64,
}

impl CoinClasses {
    /// Every open coin (not yet completed).
    #[inline]
    #[must_use]
    pub const fn open(&self) -> u64 {
        self.one | self.two | self.many
    }
}

impl Board {
    /// The board whose coin `i` has the strings `coin_masks[i]` (bit `s`: string `s`), on
    /// `strings` strings.
    ///
    /// # Errors
    /// [`BoardError`] if there are more than 64 strings or coins, a coin has no string or one
    /// at or beyond `strings`, a string belongs to no coin or to more than two, or two coins
    /// have the same strings.
    pub fn new(coin_masks: &[u64], strings: usize) -> Result<Self, BoardError> {
        if strings > MAX_STRINGS {
            return Err(BoardError::TooManyStrings(strings));
        }
        if coin_masks.len() > MAX_COINS {
            return Err(BoardError::TooManyCoins(coin_masks.len()));
        }
        let all = if strings == MAX_STRINGS { u64::MAX } else { (1u64 << strings) - 1 };
        for (coin, &mask) in coin_masks.iter().enumerate() {
            if mask == 0 {
                return Err(BoardError::EmptyCoin(coin));
            }
            if mask & !all != 0 {
                let string = (mask & !all).trailing_zeros() as usize;
                return Err(BoardError::NoSuchString { coin, string, strings });
            }
            if let Some(other) = coin_masks[..coin].iter().position(|&m| m == mask) {
                return Err(BoardError::SameStrings(other, coin));
            }
        }
        let mut borders = Vec::with_capacity(strings);
        for string in 0..strings {
            let coins: Vec<usize> =
                (0..coin_masks.len()).filter(|&c| coin_masks[c] >> string & 1 == 1).collect();
            let mut border = Border { masks: [0; 2], bits: [0; 2] };
            match coins[..] {
                [] => return Err(BoardError::LooseString(string)),
                [_] | [_, _] => {
                    for (k, &c) in coins.iter().enumerate() {
                        border.masks[k] = coin_masks[c];
                        border.bits[k] = 1 << c;
                    }
                }
                _ => return Err(BoardError::SharedString { string, coins }),
            }
            borders.push(border);
        }
        let twins = coin_masks
            .iter()
            .map(|&mask| {
                (0..strings)
                    .filter(|&s| mask >> s & 1 == 1 && borders[s].is_ground())
                    .fold(0u64, |g, s| g | 1 << s)
            })
            .filter(|g| g.count_ones() >= 2)
            .collect::<Vec<u64>>();
        let twin_prefixes = twins
            .iter()
            .map(|&group| {
                let mut prefixes = vec![0u64];
                let mut left = group;
                while left != 0 {
                    prefixes.push(prefixes[prefixes.len() - 1] | (left & left.wrapping_neg()));
                    left &= left - 1;
                }
                (group, prefixes)
            })
            .collect();
        let mut masks = [0u64; MAX_COINS];
        masks[..coin_masks.len()].copy_from_slice(coin_masks);
        let mut links = [0u64; MAX_STRINGS];
        let mut ground = 0u64;
        for (s, b) in borders.iter().enumerate() {
            links[s] = b.bits[0] | b.bits[1];
            if b.is_ground() {
                ground |= 1 << s;
            }
        }
        Ok(Board {
            coins: coin_masks.to_vec(),
            borders,
            all,
            twins,
            twin_prefixes,
            coin_masks: masks,
            links,
            ground,
        })
    }

    /// Each coin's strings, by coin index.
    #[inline]
    #[must_use]
    pub fn coins(&self) -> &[u64] {
        &self.coins
    }

    /// The number of strings.
    #[must_use]
    pub fn strings(&self) -> usize {
        self.borders.len()
    }

    /// The set of every string.
    #[inline]
    #[must_use]
    pub fn all_strings(&self) -> u64 {
        self.all
    }

    /// The coins that string `s` ties (one to the ground, or two). Panics if `s` is not a string
    /// of the board.
    #[inline]
    #[must_use]
    pub fn border(&self, s: usize) -> Border {
        self.borders[s]
    }

    /// The coins that drawing string `s` completes in `drawn` (the set before the move; `s` is
    /// undrawn), as coin bits.
    #[inline]
    #[must_use]
    pub fn completed(&self, drawn: u64, s: usize) -> u64 {
        self.borders[s].completed(drawn | 1 << s)
    }

    /// The groups of twin strings, as string sets: for each coin with at least two strings to
    /// the ground (a corner box; a corner triangle of Triangle War), those strings. Cutting
    /// one or another of a group leaves isomorphic graphs (the swap of the two strings is an
    /// automorphism of the board), so the value of a drawn set depends only on how many of
    /// each group are drawn ([`crate::Pruning::twins`], [`Board::normalise_twins`]; Barker and
    /// Korf's corner symmetry).
    #[inline]
    #[must_use]
    pub fn twin_groups(&self) -> &[u64] {
        &self.twins
    }

    /// `drawn` with the drawn strings of each twin group moved to the group's lowest strings
    /// (as many as were drawn): a drawn set with the same value for the side to move, the same
    /// for every drawn set that differs from `drawn` only by which twins are drawn.
    #[inline]
    #[must_use]
    pub fn normalise_twins(&self, drawn: u64) -> u64 {
        self.twin_prefixes.iter().fold(drawn, |out, (group, prefixes)| {
            (out & !group) | prefixes[(drawn & group).count_ones() as usize]
        })
    }

    /// The coins with a string left in `drawn` (not yet completed), as coin bits.
    #[must_use]
    pub fn open_coins(&self, drawn: u64) -> u64 {
        self.coin_classes(drawn).open()
    }

    /// The open coins of `drawn` by their number of strings left, in one pass over the coins.
    #[inline]
    #[must_use]
    pub fn coin_classes(&self, drawn: u64) -> CoinClasses {
        let mut classes = CoinClasses::default();
        for (i, &t) in self.coins.iter().enumerate() {
            let open = t & !drawn;
            let rest = open & open.wrapping_sub(1);
            let bit = 1u64 << i;
            if rest == 0 {
                if open != 0 {
                    classes.one |= bit;
                }
            } else if rest & rest.wrapping_sub(1) == 0 {
                classes.two |= bit;
            } else {
                classes.many |= bit;
            }
        }
        classes
    }

    /// The strings of coin `c` (an index below 64; 0 past the last coin).
    #[inline]
    pub(crate) fn coin_mask(&self, c: usize) -> u64 {
        self.coin_masks[c & (MAX_COINS - 1)]
    }

    /// The coin bits of the coin or two coins that string `s` ties (an index below 64).
    #[inline]
    pub(crate) fn link(&self, s: usize) -> u64 {
        self.links[s & (MAX_STRINGS - 1)]
    }

    /// The strings that tie a coin to the ground.
    #[inline]
    #[must_use]
    pub fn ground_strings(&self) -> u64 {
        self.ground
    }

    /// The coin on the other side of string `s` from the coin with strings `mask` (0: the
    /// ground).
    #[inline]
    pub(crate) fn across(&self, s: usize, mask: u64) -> u64 {
        let [a, b] = self.borders[s].masks;
        if a == mask {
            b
        } else {
            a
        }
    }
}
