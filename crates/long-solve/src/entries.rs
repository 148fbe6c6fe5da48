//! The proven TT entries that the runs of one store share through its directory (`--shard`
//! runs, whose only channel is the store, and the run that merges them): each writer appends
//! the entries its engine hands out ([`search_core::Exchange`]) to a file of its own
//! (`shard-I-of-N.ent`, `main.ent`), and reads the other writers' files from where its last
//! read stopped, so that a subtree one shard proved is not searched again by another, nor by
//! a later round or the merge.
//!
//! A file is a header as a record file's ([`split_solve::record::encode_header`]) whose
//! identity is [`entries_identity`] (the solve and the key scheme: an entry is a fact about a
//! position, whatever the split depth), then blocks: the number of words (`u32`), the CRC-32
//! of the words' bytes (`u32`), and the words (`i64`, little-endian), which are
//! [`encode_entries`]'s. A file of another solve or key scheme is skipped with a
//! warning; a damaged block ends the reading of its file with a warning (its entries, and any
//! after it, are not believed); a block cut short at the end (being written, or a crash) is
//! read once it is whole. Entries only spare work: a file lost or skipped makes a run slower,
//! never wrong.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context, Result};
use search_core::{Bound, PackedMove, TtEntry, TtKey, INFINITY, MAX_MOVE_CODE};
use split_solve::record::{decode_store, encode_header};

use crate::store::{read_regular_file, StoreIdentity, MAX_STORE_FILE_BYTES};

/// The largest work a shared entry carries: larger ones are sent as this ([`encode_entries`]).
pub const MAX_SHARED_WORK: u32 = i32::MAX as u32;

/// Words a shared entry takes in a message ([`encode_entries`]).
const ENTRY_WORDS: usize = 4;

/// Proven TT entries as the words of a message after its code: their count, then four words
/// each: the key's low and high 64 bits, the value, and `bound | (move code + 1) << 2 | work
/// << 32` (bound 0 exact, 1 lower, 2 upper; move code 0 for none; work at most
/// [`MAX_SHARED_WORK`]).
#[must_use]
pub fn encode_entries<K: TtKey, M: PackedMove>(entries: &[TtEntry<K, M>]) -> Vec<i64> {
    let mut words = Vec::with_capacity(1 + ENTRY_WORDS * entries.len());
    words.push(entries.len() as i64);
    for e in entries {
        let wide = e.key.to_u128();
        let bound = match e.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let code = e.best.and_then(PackedMove::pack).map_or(0, |c| i64::from(c) + 1);
        words.extend([
            wide as u64 as i64,
            (wide >> 64) as u64 as i64,
            e.value,
            bound | code << 2 | i64::from(e.work.min(MAX_SHARED_WORK)) << 32,
        ]);
    }
    words
}

/// [`encode_entries`] undone: `None` for words that are not such a message (a wrong count, a
/// key the game's key type cannot hold, an unknown bound, a move code that is no move's own
/// code, a value outside +-[`INFINITY`]).
#[must_use]
pub fn decode_entries<K: TtKey, M: PackedMove>(words: &[i64]) -> Option<Vec<TtEntry<K, M>>> {
    let (&count, rest) = words.split_first()?;
    if usize::try_from(count).ok()?.checked_mul(ENTRY_WORDS)? != rest.len() {
        return None;
    }
    rest.chunks_exact(ENTRY_WORDS)
        .map(|w| {
            let key = K::from_u128(u128::from(w[0] as u64) | u128::from(w[1] as u64) << 64)?;
            let value = w[2];
            let meta = w[3];
            let bound = match meta & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                2 => Bound::Upper,
                _ => return None,
            };
            let best = match (meta >> 2) & 0x3fff_ffff {
                0 => None,
                c => {
                    let code = u16::try_from(c - 1).ok()?;
                    let m = M::unpack(code);
                    (code <= MAX_MOVE_CODE && m.pack() == Some(code)).then_some(m)?.into()
                }
            };
            let work = u32::try_from(meta >> 32).ok()?;
            (-INFINITY..=INFINITY).contains(&value).then_some(TtEntry { key, value, bound, best, work })
        })
        .collect()
}

/// The extension of an entries file.
pub const EXTENSION: &str = "ent";

/// The identity in an entries file's header: `TT entries; game G; options O; root R; keys K`.
#[must_use]
pub fn entries_identity(identity: &StoreIdentity) -> String {
    let id = &identity.solve;
    format!(
        "TT entries; game {}; options {}; root {}; keys {}",
        id.game, id.options, id.root, identity.key_scheme
    )
}

/// What a reader knows of another writer's file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seen {
    /// Read up to this byte offset (the header's end or a block's).
    Upto(usize),
    /// Not read again: another solve, or a damaged block (already said).
    Skipped,
}

/// This run's entries file and what it has read of the others'.
pub struct EntryFiles {
    dir: PathBuf,
    identity: String,
    /// This run's own file; `None` for a reader.
    own: Option<(PathBuf, File)>,
    seen: HashMap<PathBuf, Seen>,
    /// Words written by this run, in blocks.
    pub written_entries: u64,
}

impl EntryFiles {
    /// Opens (creating it with its header when missing) this run's entries file `own_name` in
    /// the store `dir` (which exists) for the solve `identity`. A block cut short at its end (a
    /// crash in the middle of a write) is cut off; a file of the same name with another header
    /// or a damaged block is started afresh (its entries only spared work).
    ///
    /// # Errors
    /// The file cannot be created or written.
    pub fn open(dir: &Path, identity: &StoreIdentity, own_name: &str) -> Result<EntryFiles> {
        let identity = entries_identity(identity);
        let path = dir.join(own_name);
        let header = encode_header(&identity);
        let cannot = |e: std::io::Error| anyhow!("cannot write entries file {}: {e}", path.display());
        let whole_end = std::fs::read(&path).ok().and_then(|b| {
            if b.get(..header.len()) != Some(&header[..]) {
                return None;
            }
            let (blocks, end) = read_blocks(&b, header.len());
            (!blocks.iter().any(Option::is_none)).then_some(end)
        });
        let file = match whole_end {
            Some(end) => {
                let f = OpenOptions::new().append(true).open(&path).map_err(cannot)?;
                f.set_len(end as u64).map_err(cannot)?;
                f
            }
            None => {
                let mut f = File::create(&path).map_err(cannot)?;
                f.write_all(&header).map_err(cannot)?;
                f
            }
        };
        Ok(EntryFiles {
            dir: dir.to_path_buf(),
            identity,
            own: Some((path, file)),
            seen: HashMap::new(),
            written_entries: 0,
        })
    }

    /// A reader of the entries files of the store `dir` for the solve `identity`, writing none.
    #[must_use]
    pub fn reader(dir: &Path, identity: &StoreIdentity) -> EntryFiles {
        EntryFiles {
            dir: dir.to_path_buf(),
            identity: entries_identity(identity),
            own: None,
            seen: HashMap::new(),
            written_entries: 0,
        }
    }

    /// Appends one block of `words` ([`encode_entries`]'s, `entries` entries) to
    /// this run's file (not synced: entries are an economy, not a result).
    ///
    /// # Errors
    /// A reader ([`EntryFiles::reader`]), or the file cannot be written.
    pub fn append(&mut self, words: &[i64], entries: u64) -> Result<()> {
        let payload: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut block = Vec::with_capacity(8 + payload.len());
        block.extend_from_slice(&u32::try_from(words.len()).unwrap_or(u32::MAX).to_le_bytes());
        block.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        block.extend_from_slice(&payload);
        let Some((path, file)) = &mut self.own else {
            anyhow::bail!("the entries files of {} were opened to be read only", self.dir.display());
        };
        file.write_all(&block).with_context(|| format!("cannot write entries file {}", path.display()))?;
        self.written_entries += entries;
        Ok(())
    }

    /// The blocks of the other writers' files written since the last call, as words (one
    /// vector a block), in file name order. Problems are said on stderr, never an error: a
    /// file that cannot be read is tried again next time, one of another solve or with a
    /// damaged block is not read again.
    pub fn read_new(&mut self) -> Vec<Vec<i64>> {
        let mut names: Vec<PathBuf> = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == EXTENSION))
                .filter(|p| !self.own.as_ref().is_some_and(|(own, _)| p == own))
                .collect(),
            Err(_) => return Vec::new(),
        };
        names.sort();
        let mut blocks = Vec::new();
        for path in names {
            let seen = self.seen.get(&path).copied();
            if seen == Some(Seen::Skipped) {
                continue;
            }
            let Ok(bytes) = read_regular_file("entries file", &path, MAX_STORE_FILE_BYTES) else { continue };
            let start = match seen {
                Some(Seen::Upto(at)) => at,
                _ => match self.header_end(&path, &bytes) {
                    Some(at) => at,
                    None => continue,
                },
            };
            let (read, end) = read_blocks(&bytes, start);
            blocks.extend(read.iter().flatten().cloned());
            let damaged = read.last().is_some_and(Option::is_none);
            if damaged {
                eprintln!(
                    "games-cli: warning: entries file {}: a damaged block at byte {end}; it and the rest of the file are not read",
                    path.display()
                );
            }
            self.seen.insert(path, if damaged { Seen::Skipped } else { Seen::Upto(end) });
        }
        blocks
    }

    /// [`EntryFiles::read_new`] read as entries of the game's key and move types; a block
    /// that is no list of such entries is skipped.
    pub fn read_new_entries<K: TtKey, M: PackedMove>(&mut self) -> Vec<TtEntry<K, M>> {
        self.read_new().iter().filter_map(|block| decode_entries(block)).flatten().collect()
    }

    /// Where the header of another writer's file ends, if it is one of this solve; a file of
    /// another solve is marked skipped (said once); one whose header is not whole yet is
    /// tried again later (`None`).
    fn header_end(&mut self, path: &Path, bytes: &[u8]) -> Option<usize> {
        let header = encode_header(&self.identity);
        if bytes.len() < header.len() {
            return None;
        }
        if bytes[..header.len()] == header[..] {
            return Some(header.len());
        }
        let found = decode_store(bytes)
            .map_or_else(|_| "a damaged header".to_string(), |r| format!("{:?}", r.identity));
        eprintln!(
            "games-cli: warning: entries file {} belongs to another solve ({found}), not this one ({:?}); not read",
            path.display(),
            self.identity
        );
        self.seen.insert(path.to_path_buf(), Seen::Skipped);
        None
    }
}

/// The whole blocks of `bytes` from offset `start`: each block's words, or `None` for a
/// damaged block (its CRC does not match, or its length is absurd), which ends the list; and
/// the offset where the blocks read end (a block cut short is left for later).
fn read_blocks(bytes: &[u8], start: usize) -> (Vec<Option<Vec<i64>>>, usize) {
    let mut blocks = Vec::new();
    let mut at = start;
    while let Some(head) = bytes.get(at..at + 8) {
        let words = u32::from_le_bytes(head[0..4].try_into().expect("4 bytes")) as usize;
        let crc = u32::from_le_bytes(head[4..8].try_into().expect("4 bytes"));
        let Some(len) = words.checked_mul(8).filter(|&l| l <= MAX_STORE_FILE_BYTES as usize) else {
            blocks.push(None);
            break;
        };
        let Some(payload) = bytes.get(at + 8..at + 8 + len) else { break };
        if crc32fast::hash(payload) != crc {
            blocks.push(None);
            break;
        }
        blocks.push(Some(
            payload.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes"))).collect(),
        ));
        at += 8 + len;
    }
    (blocks, at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use search_core::SolveIdentity;

    #[test]
    fn shared_entries_read_back_as_written_and_damaged_words_are_refused() {
        let entries: Vec<TtEntry<u128, u8>> = vec![
            TtEntry { key: u128::MAX - 5, value: -7, bound: Bound::Lower, best: Some(12), work: 1 << 19 },
            TtEntry { key: 3, value: INFINITY, bound: Bound::Exact, best: None, work: MAX_SHARED_WORK },
            TtEntry { key: 1 << 100, value: -INFINITY, bound: Bound::Upper, best: Some(0), work: 1 },
        ];
        let words = encode_entries(&entries);
        assert_eq!(words.len(), 1 + 4 * entries.len());
        assert_eq!(decode_entries::<u128, u8>(&words), Some(entries.clone()));
        assert_eq!(decode_entries::<u128, u8>(&encode_entries::<u128, u8>(&[])), Some(vec![]));
        let mut heavy = entries[..1].to_vec();
        heavy[0].work = u32::MAX;
        assert_eq!(decode_entries::<u128, u8>(&encode_entries(&heavy)).unwrap()[0].work, MAX_SHARED_WORK);
        // A 64-bit key type cannot hold the first and third keys.
        assert_eq!(decode_entries::<u64, u8>(&words), None);
        let one: Vec<TtEntry<u64, u8>> =
            vec![TtEntry { key: 9, value: 2, bound: Bound::Exact, best: Some(3), work: 40 }];
        assert_eq!(decode_entries::<u64, u8>(&encode_entries(&one)), Some(one.clone()));
        let damaged = |change: &dyn Fn(&mut Vec<i64>)| {
            let mut w = encode_entries(&one);
            change(&mut w);
            decode_entries::<u64, u8>(&w)
        };
        assert_eq!(damaged(&|w| w[0] = 2), None, "a count that does not match");
        assert_eq!(damaged(&|w| w[0] = -1), None, "a negative count");
        assert_eq!(damaged(&|w| w.truncate(4)), None, "a short entry");
        assert_eq!(damaged(&|w| w[3] = INFINITY + 1), None, "a value out of range");
        assert_eq!(damaged(&|w| w[4] |= 3), None, "an unknown bound");
        assert_eq!(damaged(&|w| w[4] = (w[4] & !0xffff_fffc) | (300 << 2)), None, "a move code no u8 has");
        assert_eq!(damaged(&|w| w[4] |= 1 << 63), None, "a negative work");
        assert_eq!(decode_entries::<u64, u8>(&[]), None, "no count");
    }

    fn identity(root: &str) -> StoreIdentity {
        StoreIdentity {
            solve: SolveIdentity { game: "g".into(), options: "o".into(), root: root.into() },
            key_scheme: "k".into(),
            depth: 3,
        }
    }

    #[test]
    fn blocks_written_by_one_run_are_read_by_another_once_and_damage_is_not_believed() {
        let dir = tempfile::tempdir().unwrap();
        let mut a = EntryFiles::open(dir.path(), &identity("r"), "shard-0-of-2.ent").unwrap();
        let mut b = EntryFiles::open(dir.path(), &identity("r"), "shard-1-of-2.ent").unwrap();
        assert!(b.read_new().is_empty());
        a.append(&[1, 10, 20, 30, 40], 1).unwrap();
        a.append(&[0], 0).unwrap();
        assert_eq!(b.read_new(), vec![vec![1, 10, 20, 30, 40], vec![0]]);
        assert!(b.read_new().is_empty(), "read once");
        assert!(a.read_new().is_empty(), "a run does not read its own file");
        // A block cut short is read once whole.
        let path = dir.path().join("shard-0-of-2.ent");
        let whole = std::fs::read(&path).unwrap();
        a.append(&[7, 8], 0).unwrap();
        let longer = std::fs::read(&path).unwrap();
        std::fs::write(&path, &longer[..longer.len() - 3]).unwrap();
        assert!(b.read_new().is_empty());
        std::fs::write(&path, &longer).unwrap();
        assert_eq!(b.read_new(), vec![vec![7, 8]]);
        // A damaged block: not believed, and the file not read again.
        let mut damaged = longer.clone();
        damaged.extend_from_slice(&2u32.to_le_bytes());
        damaged.extend_from_slice(&0u32.to_le_bytes());
        damaged.extend_from_slice(&[0u8; 16]);
        damaged.extend_from_slice(&whole[whole.len() - 48..]);
        std::fs::write(&path, &damaged).unwrap();
        assert!(b.read_new().is_empty());
        let mut c = EntryFiles::open(dir.path(), &identity("r"), "main.ent").unwrap();
        let all = c.read_new();
        assert_eq!(all.len(), 3, "a fresh reader reads up to the damaged block: {all:?}");
        // A file of another solve is not read; reopening one's own file keeps its blocks.
        let mut other = EntryFiles::open(dir.path(), &identity("another root"), "x.ent").unwrap();
        other.append(&[5], 0).unwrap();
        drop(other);
        let mut d = EntryFiles::open(dir.path(), &identity("r"), "shard-1-of-2.ent").unwrap();
        assert_eq!(d.read_new().len(), 3);
        // Its writer, opening its damaged file again, starts it afresh.
        let mut again = EntryFiles::open(dir.path(), &identity("r"), "shard-0-of-2.ent").unwrap();
        again.append(&[9], 0).unwrap();
        let mut e = EntryFiles::open(dir.path(), &identity("r"), "main2.ent").unwrap();
        assert_eq!(e.read_new(), vec![vec![9]]);
        // A block cut short at the end of one's own file is cut off on opening.
        let own = dir.path().join("main2.ent");
        let mut e2 = EntryFiles::open(dir.path(), &identity("r"), "main2.ent").unwrap();
        e2.append(&[4, 4], 0).unwrap();
        let bytes = std::fs::read(&own).unwrap();
        std::fs::write(&own, &bytes[..bytes.len() - 1]).unwrap();
        let mut e3 = EntryFiles::open(dir.path(), &identity("r"), "main2.ent").unwrap();
        e3.append(&[6], 0).unwrap();
        let mut f = EntryFiles::open(dir.path(), &identity("r"), "main3.ent").unwrap();
        assert_eq!(f.read_new(), vec![vec![6], vec![9]], "in file name order");
    }
}
