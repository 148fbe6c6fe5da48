//! Checkpoint files and TT snapshots: a root checkpoint with its moves as [`PackedMove`] codes,
//! the expensive part of the TT as sealed text, both written atomically (a temporary file
//! renamed over the old one).

use std::fmt::Display;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::{anyhow, Result};
use search_core::{Checkpoint, Engine, Game, PackedMove, RootMove, SolveIdentity, TtEntry};

use crate::outcome::EntryCheck;

/// Longest TT snapshot read, in bytes (1 TiB: some 30 billion entries, beyond the most
/// `--snapshot-entries` allows).
pub const MAX_SNAPSHOT_BYTES: u64 = 1 << 40;

/// A TT snapshot keeps entries whose subtrees took at least this many nodes, at most
/// `--snapshot-entries` of them, the largest subtrees first.
const SNAPSHOT_MIN_WORK: u32 = 1 << 12;

/// A checkpoint with each move as its [`PackedMove`] code (the file's notation).
pub(crate) fn to_codes<M: PackedMove>(cp: &Checkpoint<M>) -> Checkpoint<u16> {
    Checkpoint {
        moves: cp
            .moves
            .iter()
            .map(|m| RootMove { mv: m.mv.pack().expect("root moves have codes"), lo: m.lo, hi: m.hi })
            .collect(),
    }
}

/// [`to_codes`] undone: every code must be one of `fresh`'s moves (checked by the caller
/// against `fresh` before).
pub(crate) fn from_codes<M: PackedMove>(cp: &Checkpoint<u16>) -> Checkpoint<M> {
    Checkpoint {
        moves: cp.moves.iter().map(|m| RootMove { mv: M::unpack(m.mv), lo: m.lo, hi: m.hi }).collect(),
    }
}

/// `path` with `.tt` appended.
pub(crate) fn snapshot_path(path: &Path) -> PathBuf {
    let mut name = path.to_path_buf().into_os_string();
    name.push(".tt");
    PathBuf::from(name)
}

/// Writes `text` to a temporary file in `path`'s directory, then renames it over `path`: a
/// reader sees the old file or the new one, and a failed write leaves nothing behind (the
/// temporary file is removed when dropped unpersisted).
pub(crate) fn write_atomically(what: &str, path: &Path, text: &str) -> Result<()> {
    write_bytes_atomically(what, path, text.as_bytes())
}

/// Writes `bytes` to a temporary file in `path`'s directory, then renames it over `path`: a
/// reader sees the old file or the new one, and a failed write leaves nothing behind (`what`
/// names the file in the error).
///
/// # Errors
/// The file cannot be written: named.
pub fn write_bytes_atomically(what: &str, path: &Path, bytes: &[u8]) -> Result<()> {
    let write = || -> std::io::Result<()> {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
        tmp.write_all(bytes)?;
        tmp.as_file().sync_all()?;
        tmp.persist(path).map_err(|e| e.error)?;
        Ok(())
    };
    write().map_err(|e| anyhow!("cannot write {what} {}: {e}", path.display()))
}

/// `path` with `.proofs` appended: where a problem's own proofs are kept beside its
/// checkpoint (`game_front::Problem::proofs`).
#[must_use]
pub fn proofs_path(path: &Path) -> PathBuf {
    let mut name = path.to_path_buf().into_os_string();
    name.push(".proofs");
    PathBuf::from(name)
}

/// Largest file of proofs read back ([`proofs_path`]): 64 GiB.
pub const MAX_PROOFS_BYTES: u64 = 64 << 30;

/// Seeds `engine`'s TT with the TT snapshot at `path` (saved by [`save_snapshot`] under
/// `identity`, [`snapshot_identity`]), reading only the entries whose move is one of the
/// game's codes and which `entry_ok` finds possible on the board.
///
/// # Errors
/// The file cannot be read, or is refused (another solve or key scheme, damaged): named.
pub fn load_snapshot<G: Game>(
    engine: &mut Engine<G>,
    path: &Path,
    identity: &SolveIdentity,
    entry_ok: &EntryCheck<'_, G>,
) -> Result<()>
where
    G::Key: Display + FromStr,
{
    let bytes = crate::store::read_regular_file("TT snapshot", path, MAX_SNAPSHOT_BYTES)?;
    let text = String::from_utf8(bytes).map_err(|_| {
        anyhow!("TT snapshot {}: not UTF-8 text; refused (delete it to start afresh)", path.display())
    })?;
    // A move code must be a move's own code, and the entry possible on the board.
    let possible = |e: &TtEntry<G::Key, u16>| {
        e.best.map_or(true, |c| G::Move::unpack(c).pack() == Some(c))
            && entry_ok(&TtEntry {
                key: e.key,
                value: e.value,
                bound: e.bound,
                best: e.best.map(G::Move::unpack),
                work: e.work,
            })
    };
    let entries = search_core::tt_snapshot_from_text::<G::Key, u16>(&text, identity, possible)
        .map_err(|e| anyhow!("TT snapshot {}: {e}; refused (delete it to start afresh)", path.display()))?;
    let entries: Vec<TtEntry<G::Key, G::Move>> = entries
        .into_iter()
        .map(|e| TtEntry {
            key: e.key,
            value: e.value,
            bound: e.bound,
            best: e.best.map(G::Move::unpack),
            work: e.work,
        })
        .collect();
    engine.seed_tt(&entries);
    Ok(())
}

/// Writes the expensive part of `engine`'s TT (the entries of the largest subtrees, at most
/// `max_entries` of at least 4,096 nodes each, the largest first) to `path` atomically, sealed
/// with `identity`.
///
/// # Errors
/// The file cannot be written.
pub fn save_snapshot<G: Game>(
    engine: &Engine<G>,
    path: &Path,
    identity: &SolveIdentity,
    max_entries: u64,
) -> Result<()>
where
    G::Key: Display,
{
    let mut entries = engine.heavy_entries(SNAPSHOT_MIN_WORK);
    entries.sort_unstable_by_key(|e| std::cmp::Reverse(e.work));
    entries.truncate(usize::try_from(max_entries).unwrap_or(usize::MAX));
    let entries: Vec<TtEntry<G::Key, u16>> = entries
        .into_iter()
        .map(|e| TtEntry {
            key: e.key,
            value: e.value,
            bound: e.bound,
            best: e.best.and_then(PackedMove::pack),
            work: e.work,
        })
        .collect();
    write_atomically("TT snapshot", path, &search_core::tt_snapshot_to_text(identity, &entries))
}

/// What a TT snapshot belongs to: the checkpoint's `identity` with the game's key scheme
/// ([`Game::key_scheme`]) added to its options, so that a snapshot saved under other keys
/// (another version of the key function, other `--rules`) is refused instead of read as bounds
/// on the positions its keys would now name.
pub fn snapshot_identity(identity: &SolveIdentity, key_scheme: &str) -> SolveIdentity {
    SolveIdentity { options: format!("{} keys {key_scheme}", identity.options), ..identity.clone() }
}
