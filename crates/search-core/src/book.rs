//! Opening books: [`Book`], the exact value of every position within a number of plies of a
//! game's start, keyed by the game's TT key ([`Game::canonical_key`]: symmetric positions
//! once), read back from a compact, versioned binary file with a CRC-32 ([`Book::from_bytes`])
//! and written to one ([`Book::to_bytes`]); [`BookIdentity`], what a book must belong to before
//! an engine reads it ([`Book::check`]); [`BookError`], why a file is refused.
//!
//! An [`crate::Engine`] given a book ([`crate::Engine::set_book`]) reads it like a TT of exact
//! entries at the nodes within the book's depth of each search's root, before the TT probe: a
//! position of the book costs one node. Nothing here touches a file: front ends read and write
//! the bytes.
//!
//! # Format (version 1, little-endian)
//!
//! ```text
//! magic       8 bytes  "GSBOOK\r\n"
//! version     u32      1
//! game        u16 length, UTF-8   the game and its board, e.g. "connect-four 7x6"
//! key scheme  u16 length, UTF-8   Game::key_scheme
//! plies       u32      the depth the book covers
//! count       u64      entries
//! entries     count x (key delta: LEB128, value: zigzag LEB128), keys strictly ascending,
//!             each key stored as its difference from the one before (the first from 0)
//! checksum    u32      CRC-32 (IEEE) of every byte before it
//! ```
//!
//! Connect Four 7 x 6 keys (49-bit position codes) take about 3 to 5 bytes an entry.

use std::collections::HashMap;

use crate::game::{Game, TtKey, Value};

/// The first 8 bytes of a book file.
pub const BOOK_MAGIC: [u8; 8] = *b"GSBOOK\r\n";

/// The format version [`Book::to_bytes`] writes and [`Book::from_bytes`] reads.
pub const BOOK_VERSION: u32 = 1;

/// What a book belongs to: compared with the book's header by [`Book::check`] before an engine
/// reads it, so that a book of another game, board or key encoding is refused rather than read
/// as values of other positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookIdentity {
    /// The game and the board options that change values, e.g. `connect-four 7x6`.
    pub game: String,
    /// [`Game::key_scheme`] of the game whose keys the book holds.
    pub key_scheme: String,
    /// The least and greatest value a position of the board can have (side to move): every
    /// entry must lie in `[lo, hi]`.
    pub values: (Value, Value),
}

/// Why a book file was refused. A refused book is never read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// The bytes end before the part named.
    #[error("the book is truncated: {len} bytes end inside {part}")]
    Truncated {
        /// What was being read.
        part: &'static str,
        /// The file's length in bytes.
        len: usize,
    },
    /// The file does not start with [`BOOK_MAGIC`].
    #[error("not a book file: it does not start with the book magic bytes")]
    NotABook,
    /// A format version this code does not read.
    #[error("book format version {found}, this program reads version {BOOK_VERSION}")]
    Version {
        /// The file's version.
        found: u32,
    },
    /// The CRC-32 stored at the end differs from the one of the bytes before it.
    #[error("the book is damaged or truncated: checksum {stored:08x} stored, {computed:08x} computed")]
    Checksum {
        /// The stored checksum.
        stored: u32,
        /// The checksum of the bytes read.
        computed: u32,
    },
    /// A header or entry field that cannot be what the format says.
    #[error("the book is malformed: {0}")]
    Malformed(String),
    /// The book belongs to another game, board or key encoding.
    #[error("the book is for {field} {book:?}, not {expected:?}")]
    Mismatch {
        /// `game` or `key scheme`.
        field: &'static str,
        /// The book's.
        book: String,
        /// The one asked for.
        expected: String,
    },
    /// An entry whose value no position of the board can have.
    #[error("the book's entry {key:#x} has value {value}, outside the board's range [{lo}, {hi}]")]
    ValueOutOfRange {
        /// The entry's key.
        key: u128,
        /// Its value.
        value: Value,
        /// The least value possible.
        lo: Value,
        /// The greatest value possible.
        hi: Value,
    },
    /// A book made before every one of its deepest positions was solved.
    #[error("{missing} of the book's {leaves} deepest positions have no value yet")]
    Incomplete {
        /// Positions without a value.
        missing: usize,
        /// The deepest positions in all.
        leaves: usize,
    },
    /// The game has no books.
    #[error("{game} has no opening book")]
    Unsupported {
        /// The game's name.
        game: String,
    },
}

/// The exact values of the positions within `plies` plies of a game's start, by TT key.
///
/// Keys are [`Game::canonical_key`]s widened to `u128` ([`TtKey::to_u128`]); values are the
/// engine's (the remaining play's margin for the side to move, in the game's units).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    game: String,
    key_scheme: String,
    plies: u32,
    values: HashMap<u128, Value>,
}

impl Book {
    /// A book of `identity`'s game covering `plies` plies, holding `entries` (key, value).
    ///
    /// # Errors
    /// [`BookError::ValueOutOfRange`] for a value outside `identity.values`;
    /// [`BookError::Malformed`] for a key given twice with two values.
    pub fn new(
        identity: &BookIdentity,
        plies: u32,
        entries: impl IntoIterator<Item = (u128, Value)>,
    ) -> Result<Book, BookError> {
        let mut values = HashMap::new();
        for (key, value) in entries {
            if let Some(old) = values.insert(key, value) {
                if old != value {
                    return Err(BookError::Malformed(format!(
                        "key {key:#x} given the values {old} and {value}"
                    )));
                }
            }
        }
        let book =
            Book { game: identity.game.clone(), key_scheme: identity.key_scheme.clone(), plies, values };
        book.check(identity)?;
        Ok(book)
    }

    /// The game and board the book belongs to ([`BookIdentity::game`]).
    #[must_use]
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The key scheme of its keys ([`Game::key_scheme`]).
    #[must_use]
    pub fn key_scheme(&self) -> &str {
        &self.key_scheme
    }

    /// The depth it covers: every position within this many plies of the start (in the moves
    /// of the game it was built with) is in it, but for finished ones.
    #[must_use]
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The number of entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the book has no entry.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The exact value of the position whose TT key is `key`, if the book has it.
    #[inline]
    #[must_use]
    pub fn value<K: TtKey>(&self, key: K) -> Option<Value> {
        self.values.get(&key.to_u128()).copied()
    }

    /// Every entry, (key, value), in ascending key order.
    #[must_use]
    pub fn entries(&self) -> Vec<(u128, Value)> {
        let mut entries: Vec<(u128, Value)> = self.values.iter().map(|(&k, &v)| (k, v)).collect();
        entries.sort_unstable();
        entries
    }

    /// Whether the book belongs to `identity`: the same game and board, the same key scheme,
    /// every value within the board's range.
    ///
    /// # Errors
    /// [`BookError::Mismatch`] naming the field that differs, or
    /// [`BookError::ValueOutOfRange`] naming the first entry outside the range.
    pub fn check(&self, identity: &BookIdentity) -> Result<(), BookError> {
        for (field, book, expected) in
            [("game", &self.game, &identity.game), ("key scheme", &self.key_scheme, &identity.key_scheme)]
        {
            if book != expected {
                return Err(BookError::Mismatch { field, book: book.clone(), expected: expected.clone() });
            }
        }
        let (lo, hi) = identity.values;
        if let Some((key, value)) = self.entries().into_iter().find(|&(_, v)| v < lo || v > hi) {
            return Err(BookError::ValueOutOfRange { key, value, lo, hi });
        }
        Ok(())
    }

    /// The book as the bytes of a book file (see the module's format).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + 5 * self.values.len());
        out.extend_from_slice(&BOOK_MAGIC);
        out.extend_from_slice(&BOOK_VERSION.to_le_bytes());
        for text in [&self.game, &self.key_scheme] {
            let len = u16::try_from(text.len()).expect("header strings are short");
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(text.as_bytes());
        }
        out.extend_from_slice(&self.plies.to_le_bytes());
        out.extend_from_slice(&(self.values.len() as u64).to_le_bytes());
        let mut last = 0u128;
        for (key, value) in self.entries() {
            write_leb128(&mut out, key - last);
            write_leb128(&mut out, u128::from(zigzag(value)));
            last = key;
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// A book read back from the bytes of a book file, verified: the magic bytes, the version,
    /// the checksum, the header, keys strictly ascending. Whom it belongs to is checked by
    /// [`Book::check`].
    ///
    /// # Errors
    /// [`BookError::NotABook`], [`BookError::Version`], [`BookError::Truncated`],
    /// [`BookError::Checksum`] or [`BookError::Malformed`], naming what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        let len = bytes.len();
        if len < BOOK_MAGIC.len() || bytes[..BOOK_MAGIC.len()] != BOOK_MAGIC {
            return Err(if len < BOOK_MAGIC.len() && BOOK_MAGIC.starts_with(bytes) {
                BookError::Truncated { part: "the magic bytes", len }
            } else {
                BookError::NotABook
            });
        }
        let mut r = Reader { bytes, at: BOOK_MAGIC.len() };
        let version = u32::from_le_bytes(r.take::<4>("the version")?);
        if version != BOOK_VERSION {
            return Err(BookError::Version { found: version });
        }
        // The checksum before any field after the version: a damaged byte is reported as such.
        if len < BOOK_MAGIC.len() + 4 + 4 {
            return Err(BookError::Truncated { part: "the header", len });
        }
        let (body, tail) = bytes.split_at(len - 4);
        let stored = u32::from_le_bytes(tail.try_into().expect("four bytes"));
        let computed = crc32fast::hash(body);
        if stored != computed {
            return Err(BookError::Checksum { stored, computed });
        }
        let mut r = Reader { bytes: body, at: r.at };
        let game = r.text("the game name")?;
        let key_scheme = r.text("the key scheme")?;
        let plies = u32::from_le_bytes(r.take::<4>("the depth")?);
        let count = u64::from_le_bytes(r.take::<8>("the entry count")?);
        // Every entry takes at least two bytes: a count beyond that is not believed.
        let left = (body.len() - r.at) as u64;
        if count > left / 2 {
            return Err(BookError::Malformed(format!("{count} entries announced, {left} bytes of entries")));
        }
        let mut values = HashMap::with_capacity(count as usize);
        let mut last = 0u128;
        for i in 0..count {
            let delta = r.leb128("an entry's key")?;
            if i > 0 && delta == 0 {
                return Err(BookError::Malformed(format!("entry {} repeats the key {last:#x}", i + 1)));
            }
            let key = last
                .checked_add(delta)
                .ok_or_else(|| BookError::Malformed(format!("entry {}'s key is beyond 128 bits", i + 1)))?;
            let raw = r.leb128("an entry's value")?;
            let value =
                u64::try_from(raw).ok().map(unzigzag).filter(|v| v.abs() < crate::INFINITY).ok_or_else(
                    || BookError::Malformed(format!("entry {}'s value is out of range", i + 1)),
                )?;
            values.insert(key, value);
            last = key;
        }
        if r.at != body.len() {
            return Err(BookError::Malformed(format!("{} bytes after the last entry", body.len() - r.at)));
        }
        Ok(Book { game, key_scheme, plies, values })
    }
}

/// Reads the fields of a book file.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self, part: &'static str) -> Result<[u8; N], BookError> {
        let end = self.at.checked_add(N).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(BookError::Truncated { part, len: self.bytes.len() })?;
        let out = self.bytes[self.at..end].try_into().expect("N bytes");
        self.at = end;
        Ok(out)
    }

    fn text(&mut self, part: &'static str) -> Result<String, BookError> {
        let n = usize::from(u16::from_le_bytes(self.take::<2>(part)?));
        let end = (self.at + n <= self.bytes.len())
            .then_some(self.at + n)
            .ok_or(BookError::Truncated { part, len: self.bytes.len() })?;
        let text = std::str::from_utf8(&self.bytes[self.at..end])
            .map_err(|_| BookError::Malformed(format!("{part} is not UTF-8")))?;
        self.at = end;
        Ok(text.to_string())
    }

    fn leb128(&mut self, part: &'static str) -> Result<u128, BookError> {
        let mut value = 0u128;
        for shift in (0..128).step_by(7) {
            let [byte] = self.take::<1>(part)?;
            let bits = u128::from(byte & 0x7f);
            // The last group (bits 126 and 127) has room for two bits.
            if shift == 126 && bits > 3 {
                return Err(BookError::Malformed(format!("{part} is beyond 128 bits")));
            }
            value |= bits << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(BookError::Malformed(format!("{part} is beyond 128 bits")))
    }
}

fn write_leb128(out: &mut Vec<u8>, mut v: u128) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn zigzag(v: Value) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(u: u64) -> Value {
    ((u >> 1) as Value) ^ -((u & 1) as Value)
}

/// The identity a book of `game`'s keys has with `board` naming the game and its board and
/// `values` its range ([`BookIdentity`]).
#[must_use]
pub fn book_identity<G: Game>(game: &G, board: &str, values: (Value, Value)) -> BookIdentity {
    BookIdentity { game: board.to_string(), key_scheme: game.key_scheme(), values }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity() -> BookIdentity {
        BookIdentity { game: "test 3x3".into(), key_scheme: "1".into(), values: (-10, 10) }
    }

    fn sample() -> Book {
        let entries = [(0u128, 3), (5, -10), (1 << 70, 0), (u128::MAX, 10), (77, -1)];
        Book::new(&identity(), 4, entries).unwrap()
    }

    #[test]
    fn bytes_round_trip() {
        let book = sample();
        let bytes = book.to_bytes();
        let back = Book::from_bytes(&bytes).unwrap();
        assert_eq!(back, book);
        assert_eq!(back.value(5u64), Some(-10));
        assert_eq!(back.value(6u64), None);
        assert_eq!(back.value(u128::MAX), Some(10));
        assert_eq!((back.plies(), back.len(), back.game(), back.key_scheme()), (4, 5, "test 3x3", "1"));
        back.check(&identity()).unwrap();
    }

    #[test]
    fn every_damaged_byte_and_every_truncation_is_refused() {
        let bytes = sample().to_bytes();
        for i in 0..bytes.len() {
            for bit in [0x01, 0x80] {
                let mut bad = bytes.clone();
                bad[i] ^= bit;
                assert!(Book::from_bytes(&bad).is_err(), "byte {i} bit {bit:#x} flipped was read");
            }
        }
        for n in 0..bytes.len() {
            let err = Book::from_bytes(&bytes[..n]).unwrap_err();
            assert!(
                matches!(
                    err,
                    BookError::Truncated { .. } | BookError::Checksum { .. } | BookError::Malformed(_)
                ),
                "{n} bytes: {err}"
            );
        }
        assert_eq!(Book::from_bytes(b"hello world, no book"), Err(BookError::NotABook));
        let mut v2 = bytes.clone();
        v2[8] = 2;
        assert_eq!(Book::from_bytes(&v2), Err(BookError::Version { found: 2 }));
    }

    #[test]
    fn other_games_boards_and_values_are_refused() {
        let book = sample();
        let other_board = BookIdentity { game: "test 4x3".into(), ..identity() };
        let err = book.check(&other_board).unwrap_err();
        assert!(matches!(err, BookError::Mismatch { field: "game", .. }), "{err}");
        assert!(err.to_string().contains("test 4x3"), "{err}");
        let other_keys = BookIdentity { key_scheme: "2".into(), ..identity() };
        assert!(matches!(book.check(&other_keys), Err(BookError::Mismatch { field: "key scheme", .. })));
        let narrow = BookIdentity { values: (-9, 9), ..identity() };
        assert_eq!(
            book.check(&narrow),
            Err(BookError::ValueOutOfRange { key: 5, value: -10, lo: -9, hi: 9 })
        );
        assert!(Book::new(&narrow, 1, [(1, 12)]).is_err());
        assert!(Book::new(&identity(), 1, [(1, 2), (1, 3)]).is_err());
    }

    #[test]
    fn values_and_keys_encode_at_the_extremes() {
        for v in [0, 1, -1, 63, -64, 64, Value::MAX / 8, -Value::MAX / 8] {
            assert_eq!(unzigzag(zigzag(v)), v);
        }
        let mut out = Vec::new();
        write_leb128(&mut out, u128::MAX);
        let mut r = Reader { bytes: &out, at: 0 };
        assert_eq!(r.leb128("k"), Ok(u128::MAX));
        assert!(Reader { bytes: &[0xff; 20], at: 0 }.leb128("k").is_err());
    }
}
