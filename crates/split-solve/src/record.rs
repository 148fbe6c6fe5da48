//! The result records of a split solve, as bytes: what a durable store keeps of every finished
//! job, written once and never rewritten.
//!
//! A store file is a header, then records of [`RECORD_BYTES`] bytes each:
//!
//! - header: the 8 bytes `GSSPLIT1`, the identity's length (`u32`, little-endian), the identity
//!   (UTF-8 text naming the game, its options and the root position, chosen by the caller), and
//!   the CRC-32 of everything before it (`u32`, little-endian);
//! - record: the position's key (`u128`), the threshold `t` (`i64`), the fail-soft result `r` of
//!   the null-window search `(t, t + 1)` (`i64`), the nodes the job took (`u64`), all
//!   little-endian, then the CRC-32 of those 40 bytes (`u32`).
//!
//! A record states a bound on the position's value from its side to move: a lower bound `r`
//! when `r > t`, an upper bound `r` otherwise. Being a fact about the position, it holds for any
//! frontier depth and any pruning rules of the same game and board.

use search_core::Value;

/// The magic bytes that start a store file (the format's version is its last character).
pub const MAGIC: &[u8; 8] = b"GSSPLIT1";

/// Bytes of one encoded [`Record`].
pub const RECORD_BYTES: usize = 44;

/// Longest identity a header may carry, in bytes (a guard against reading garbage as a length).
pub const MAX_IDENTITY_BYTES: usize = 1 << 16;

/// One finished job: the null-window question "is the value of the position with key `key`
/// greater than `threshold`?" and the fail-soft answer `value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    /// The position's TT key ([`search_core::Game::key`]) widened to 128 bits.
    pub key: u128,
    /// The question's threshold `t` (side to move of the position).
    pub threshold: Value,
    /// The fail-soft result `r` of the search with the window `(t, t + 1)`: the value is at
    /// least `r` if `r > t`, at most `r` otherwise.
    pub value: Value,
    /// Nodes the job's search visited.
    pub nodes: u64,
}

impl Record {
    /// Whether the answer is "yes, the value is greater than the threshold".
    #[must_use]
    pub fn is_above(&self) -> bool {
        self.value > self.threshold
    }

    /// The record's bytes, checksum last.
    #[must_use]
    pub fn encode(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[0..16].copy_from_slice(&self.key.to_le_bytes());
        b[16..24].copy_from_slice(&self.threshold.to_le_bytes());
        b[24..32].copy_from_slice(&self.value.to_le_bytes());
        b[32..40].copy_from_slice(&self.nodes.to_le_bytes());
        let crc = crc32fast::hash(&b[0..40]);
        b[40..44].copy_from_slice(&crc.to_le_bytes());
        b
    }

    /// Reads [`Record::encode`]'s bytes.
    ///
    /// # Errors
    /// [`RecordError::Checksum`] (with `index` 0) if the checksum does not match.
    pub fn decode(b: &[u8; RECORD_BYTES]) -> Result<Record, RecordError> {
        let word = |r: std::ops::Range<usize>| -> [u8; 8] { b[r].try_into().expect("8 bytes") };
        let crc = u32::from_le_bytes(b[40..44].try_into().expect("4 bytes"));
        if crc32fast::hash(&b[0..40]) != crc {
            return Err(RecordError::Checksum { index: 0, offset: 0 });
        }
        Ok(Record {
            key: u128::from_le_bytes(b[0..16].try_into().expect("16 bytes")),
            threshold: i64::from_le_bytes(word(16..24)),
            value: i64::from_le_bytes(word(24..32)),
            nodes: u64::from_le_bytes(word(32..40)),
        })
    }
}

/// What is wrong with a store file's bytes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The file does not start with [`MAGIC`].
    #[error("not a split-solve store (expected it to start with `GSSPLIT1`)")]
    NotAStore,
    /// The header is cut short or its checksum does not match.
    #[error("the header is damaged (cut short, or its checksum does not match)")]
    Header,
    /// A record's checksum does not match its bytes.
    #[error("record {index} (byte offset {offset}) is damaged: its checksum does not match")]
    Checksum {
        /// 0-based index of the record in the file.
        index: usize,
        /// Byte offset of the record in the file.
        offset: usize,
    },
}

/// The header bytes of a store file for `identity`.
#[must_use]
pub fn encode_header(identity: &str) -> Vec<u8> {
    let mut b = Vec::with_capacity(16 + identity.len());
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&u32::try_from(identity.len()).unwrap_or(u32::MAX).to_le_bytes());
    b.extend_from_slice(identity.as_bytes());
    let crc = crc32fast::hash(&b);
    b.extend_from_slice(&crc.to_le_bytes());
    b
}

/// A store file's bytes, read: its identity, each record or what is wrong with it, and where the
/// whole records end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreBytes {
    /// The identity of the header.
    pub identity: String,
    /// Every whole record in file order: the record, or [`RecordError::Checksum`] naming it.
    pub records: Vec<Result<Record, RecordError>>,
    /// Length of the header and the whole records: a file longer than this ends in a record cut
    /// short (a write that a crash interrupted), which an appender truncates first.
    pub whole_len: usize,
    /// Bytes after the last whole record (0 for an intact file).
    pub tail_bytes: usize,
}

/// Reads a store file's bytes ([`encode_header`] then [`Record::encode`]s).
///
/// # Errors
/// [`RecordError::NotAStore`] or [`RecordError::Header`]; damaged records are reported one by
/// one in [`StoreBytes::records`], not as an error.
pub fn decode_store(bytes: &[u8]) -> Result<StoreBytes, RecordError> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(RecordError::NotAStore);
    }
    let len_end = MAGIC.len() + 4;
    let len = bytes.get(MAGIC.len()..len_end).ok_or(RecordError::Header)?;
    let len = u32::from_le_bytes(len.try_into().expect("4 bytes")) as usize;
    if len > MAX_IDENTITY_BYTES {
        return Err(RecordError::Header);
    }
    let id_end = len_end + len;
    let crc_end = id_end + 4;
    let crc = bytes.get(id_end..crc_end).ok_or(RecordError::Header)?;
    if crc32fast::hash(&bytes[..id_end]) != u32::from_le_bytes(crc.try_into().expect("4 bytes")) {
        return Err(RecordError::Header);
    }
    let identity = String::from_utf8(bytes[len_end..id_end].to_vec()).map_err(|_| RecordError::Header)?;
    let body = &bytes[crc_end..];
    let mut records = Vec::with_capacity(body.len() / RECORD_BYTES);
    let chunks = body.chunks_exact(RECORD_BYTES);
    let tail_bytes = chunks.remainder().len();
    for (index, chunk) in chunks.enumerate() {
        let r = Record::decode(chunk.try_into().expect("whole record"));
        let offset = crc_end + index * RECORD_BYTES;
        records.push(r.map_err(|_| RecordError::Checksum { index, offset }));
    }
    Ok(StoreBytes { identity, records, whole_len: bytes.len() - tail_bytes, tail_bytes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_damage_is_named() {
        let recs = [
            Record { key: 0x1234_5678_9abc_def0_u128 << 64 | 7, threshold: -3, value: -5, nodes: 42 },
            Record { key: 1, threshold: 0, value: 2, nodes: u64::MAX },
        ];
        let mut bytes = encode_header("triangle-war side 4");
        for r in &recs {
            bytes.extend_from_slice(&r.encode());
        }
        let read = decode_store(&bytes).unwrap();
        assert_eq!(read.identity, "triangle-war side 4");
        assert_eq!(read.records, vec![Ok(recs[0]), Ok(recs[1])]);
        assert_eq!((read.whole_len, read.tail_bytes), (bytes.len(), 0));
        assert!(!recs[0].is_above() && recs[1].is_above());

        // A flipped bit in the second record: that record, and only it, is refused.
        let mut damaged = bytes.clone();
        let at = damaged.len() - RECORD_BYTES + 20;
        damaged[at] ^= 1;
        let read = decode_store(&damaged).unwrap();
        assert_eq!(read.records[0], Ok(recs[0]));
        let offset = bytes.len() - RECORD_BYTES;
        assert_eq!(read.records[1], Err(RecordError::Checksum { index: 1, offset }));

        // A record cut short is a tail, not a record.
        let cut = &bytes[..bytes.len() - 10];
        let read = decode_store(cut).unwrap();
        assert_eq!(read.records.len(), 1);
        assert_eq!((read.whole_len, read.tail_bytes), (bytes.len() - RECORD_BYTES, RECORD_BYTES - 10));

        assert_eq!(decode_store(b"hello world"), Err(RecordError::NotAStore));
        let mut bad_header = bytes.clone();
        bad_header[13] ^= 1;
        assert_eq!(decode_store(&bad_header), Err(RecordError::Header));
        assert_eq!(decode_store(&bytes[..14]), Err(RecordError::Header));
    }
}
