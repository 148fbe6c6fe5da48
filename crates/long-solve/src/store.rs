//! The durable store of a split solve (`--store DIR`): a directory of append-only record
//! files, one per writer (`main.rec` for a coordinator, `shard-I-of-N.rec` for a shard), each a
//! header naming the solve and fixed-size records with a CRC-32 each
//! ([`split_solve::record`]); the coordinators' progress lines; what a split proved as the
//! root driver's result and principal variation.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use search_core::{Checkpoint, Game, RootMove, RootResult, SolveIdentity, Value};
use split_solve::record::{decode_store, encode_header, RecordError, MAGIC, RECORD_BYTES};
use split_solve::{Record, Split, SplitError};

/// The serial coordinator's TT snapshot in the store directory (not a `*.rec` file: the
/// store's reader skips it).
pub const SNAPSHOT_NAME: &str = "main.tt";

/// What a store file's header names: the solve (game, board options, root), the game's key
/// scheme ([`Game::key_scheme`]: records name positions by key, so keys of another scheme
/// name other positions) and the split depth the file was written at.
///
/// The header's text is `game G; options O; root R; keys K; split-depth D`. A file whose
/// header has only the first three fields (written before the key scheme and the depth were
/// recorded) is read as one of this solve with unknown depth and keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreIdentity {
    /// The game, its board options and the root position.
    pub solve: SolveIdentity,
    /// The game's key scheme.
    pub key_scheme: String,
    /// Plies from the root to the frontier of this run's split.
    pub depth: u32,
}

impl StoreIdentity {
    /// The identity of a split of depth `depth` of the solve `solve` of `game`.
    pub fn of<G: Game>(solve: &SolveIdentity, game: &G, depth: u32) -> StoreIdentity {
        StoreIdentity { solve: solve.clone(), key_scheme: game.key_scheme(), depth }
    }

    /// The first three fields of the header's text.
    fn base_text(&self) -> String {
        let id = &self.solve;
        format!("game {}; options {}; root {}", id.game, id.options, id.root)
    }

    /// The header's text of a file written by this run.
    #[must_use]
    pub fn text(&self) -> String {
        format!("{}; keys {}; split-depth {}", self.base_text(), self.key_scheme, self.depth)
    }

    /// Checks the identity `found` of the header of store file `path` against this run's:
    /// the same solve and keys, written at this run's depth or a shallower one (a record of a
    /// shallower split bounds an interior node; one of a deeper split is no node of this one).
    ///
    /// # Errors
    /// A file of another solve, another key scheme or a deeper split, in one line naming both.
    ///
    /// `strict` off (a read-only check of the store under another configuration,
    /// `--recheck`) accepts any key scheme and depth: a record whose key names no node of
    /// this split is simply not checked.
    fn check(&self, path: &Path, found: &str, strict: bool) -> Result<()> {
        let base = self.base_text();
        let Some(rest) = found.strip_prefix(base.as_str()) else {
            bail!(
                "store file {} belongs to another solve ({found:?}), not this one ({:?}); refused (use another --store)",
                path.display(),
                self.text()
            );
        };
        if rest.is_empty() || !strict {
            return Ok(());
        }
        let parsed = rest
            .strip_prefix("; keys ")
            .and_then(|r| r.rsplit_once("; split-depth "))
            .and_then(|(keys, depth)| Some((keys, depth.parse::<u32>().ok()?)));
        let Some((keys, depth)) = parsed else {
            bail!(
                "store file {} belongs to another solve ({found:?}), not this one ({:?}); refused (use another --store)",
                path.display(),
                self.text()
            );
        };
        if keys != self.key_scheme {
            bail!(
                "store file {} was written with the key scheme {keys:?}, this run's is {:?} (other --rules, or another version of the game's keys): its records name other positions; refused (use the same --rules, or another --store)",
                path.display(),
                self.key_scheme
            );
        }
        if depth > self.depth {
            bail!(
                "store file {} was written at --split-depth {depth}, deeper than this run's {}: none of its records is a node of this split and all would be solved again; refused (give --split-depth {depth} or more)",
                path.display(),
                self.depth
            );
        }
        Ok(())
    }
}

/// A record read from the store, with where it was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredRecord {
    /// The record.
    pub record: Record,
    /// Index of its file in [`Store::files`].
    pub file: usize,
    /// 0-based index of the record in its file.
    pub index: usize,
}

/// Longest store file read, in bytes (a record file of 2^40 bytes holds 25 billion records).
pub const MAX_STORE_FILE_BYTES: u64 = 1 << 40;

/// Reads the regular file `path` (`what` names it in messages), refusing special files
/// (FIFOs, devices, directories: a FIFO would block, `/dev/zero` never ends) and files longer
/// than `max_bytes` before reading them.
///
/// # Errors
/// A missing, special or oversized file, or one that cannot be read: named.
pub fn read_regular_file(what: &str, path: &Path, max_bytes: u64) -> Result<Vec<u8>> {
    let meta = std::fs::metadata(path).map_err(|e| anyhow!("cannot read {what} {}: {e}", path.display()))?;
    if !meta.is_file() {
        bail!("{what} {} is not a regular file (a FIFO, a device or a directory); refused", path.display());
    }
    if meta.len() > max_bytes {
        bail!(
            "{what} {} has {} bytes, more than the {max_bytes} a {what} may have; refused",
            path.display(),
            meta.len()
        );
    }
    let mut file = File::open(path).map_err(|e| anyhow!("cannot read {what} {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    // A file that grew after the size check is read up to the bound only.
    (&mut file)
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| anyhow!("cannot read {what} {}: {e}", path.display()))?;
    if bytes.len() as u64 > max_bytes {
        bail!("{what} {} has more than the {max_bytes} bytes a {what} may have; refused", path.display());
    }
    Ok(bytes)
}

/// Whether the bytes of a store file, refused with `error`, are a header cut short or damaged
/// (an empty file, a start of [`MAGIC`], or a header whose checksum does not match): such a
/// file is set aside, not refused. A file that starts with something else is not a store.
fn header_damaged(bytes: &[u8], error: &RecordError) -> bool {
    match error {
        RecordError::Header => true,
        RecordError::NotAStore => bytes.len() < MAGIC.len() && MAGIC.starts_with(bytes),
        RecordError::Checksum { .. } => false,
    }
}

/// Takes the exclusive lock of store file `file` without waiting.
///
/// # Errors
/// Another open file holds the lock (`Ok(false)`), or locking fails.
fn try_lock(file: &File, path: &Path) -> Result<bool> {
    match fs4::FileExt::try_lock(file) {
        Ok(()) => Ok(true),
        Err(fs4::TryLockError::WouldBlock) => Ok(false),
        Err(fs4::TryLockError::Error(e)) => Err(anyhow!("cannot lock store file {}: {e}", path.display())),
    }
}

/// Renames the damaged store file `path` to `NAME.damaged` (or `NAME.damaged-2`, ...: never a
/// `*.rec` name, so the store's reader skips it) and returns the new path.
fn set_aside(path: &Path) -> Result<PathBuf> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    for i in 1..1000 {
        let suffix = if i == 1 { String::new() } else { format!("-{i}") };
        let aside = path.with_file_name(format!("{name}.damaged{suffix}"));
        if !aside.exists() {
            std::fs::rename(path, &aside)
                .with_context(|| format!("cannot set the damaged store file {} aside", path.display()))?;
            return Ok(aside);
        }
    }
    bail!("cannot set the damaged store file {} aside: too many damaged copies beside it", path.display())
}

/// The durable store: a directory of record files.
pub struct Store {
    dir: PathBuf,
    /// Every file the records were read from, in name order.
    files: Vec<PathBuf>,
    /// This run's own file, locked against a second writer; `None` when read only.
    own: Option<(PathBuf, File)>,
    /// Records written by this run.
    pub written: u64,
    /// The solve the store belongs to.
    identity: StoreIdentity,
    /// For every other writer's file read: the bytes of its whole records read so far, or
    /// `None` when it is not read again (another solve, a damaged header).
    read_upto: HashMap<PathBuf, Option<usize>>,
}

impl Store {
    /// Opens the store `dir` (created when missing) for the solve `identity`, this run writing
    /// `own_name` (read only when `None`); returns it with every intact record of every file.
    ///
    /// This run's own file is opened (created with its header when missing), locked and
    /// checked writable before anything is read, so that a second writer of it (two shards
    /// given one `I/N`) or a store that cannot be written is refused before the first job. A
    /// file whose header is cut short or damaged (an empty file: a disk full at the first
    /// write) is renamed aside with a warning (its records are solved again), unless another
    /// run holds its lock (it is being written). Damaged records and records cut short are
    /// reported on stderr and skipped. Special files are refused unread.
    ///
    /// # Errors
    /// A directory or file that cannot be read, created, written or locked, a file locked by
    /// another writer, a file that is not a store or belongs to another solve, key scheme or a
    /// deeper split (named, and refused).
    pub fn open(
        dir: &Path,
        identity: &StoreIdentity,
        own_name: Option<&str>,
    ) -> Result<(Store, Vec<StoredRecord>)> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the store directory {}", dir.display()))?;
        let own = match own_name {
            Some(name) => Some(Self::open_own(&dir.join(name), identity)?),
            None => None,
        };
        let own_path = own.as_ref().map(|(p, _)| p.clone());
        let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
            .with_context(|| format!("cannot read the store directory {}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "rec"))
            .collect();
        names.sort();
        let mut records = Vec::new();
        let mut files = Vec::new();
        let mut read_upto = HashMap::new();
        for path in &names {
            let bytes = read_regular_file("store file", path, MAX_STORE_FILE_BYTES)?;
            let read = match decode_store(&bytes) {
                Ok(read) => read,
                Err(e) if header_damaged(&bytes, &e) && Some(path) != own_path.as_ref() => {
                    Self::damaged_other(path, &e, own.is_some())?;
                    continue;
                }
                Err(e) => bail!("store file {}: {e}; refused", path.display()),
            };
            identity.check(path, &read.identity, own.is_some())?;
            let file = files.len();
            files.push(path.clone());
            if Some(path) != own_path.as_ref() {
                read_upto.insert(path.clone(), Some(read.whole_len));
            }
            for (index, r) in read.records.into_iter().enumerate() {
                match r {
                    Ok(record) => records.push(StoredRecord { record, file, index }),
                    Err(e) => eprintln!(
                        "games-cli: store file {}: {e}; skipped (its job is solved again)",
                        path.display()
                    ),
                }
            }
            if read.tail_bytes > 0 {
                eprintln!(
                    "games-cli: store file {}: ends in a record cut short ({} bytes, an interrupted write); ignored",
                    path.display(),
                    read.tail_bytes
                );
                if let Some((own, f)) = own.as_ref().filter(|(own, _)| own == path) {
                    f.set_len(read.whole_len as u64)
                        .with_context(|| format!("cannot cut the short record off {}", own.display()))?;
                }
            }
        }
        let store =
            Store { dir: dir.to_path_buf(), files, own, written: 0, identity: identity.clone(), read_upto };
        Ok((store, records))
    }

    /// The records that other writers (the other shards of a round, running at the same
    /// time) appended to their files since the store was opened or this was last called, new
    /// files included. Problems are said on stderr, never an error: a damaged record is
    /// skipped, a record cut short is read once whole, a file that cannot be read is tried
    /// again next time, and one of another solve or with a damaged header is not read again.
    pub fn read_new_records(&mut self) -> Vec<StoredRecord> {
        let own = self.own.as_ref().map(|(p, _)| p.clone());
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return Vec::new() };
        let mut names: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "rec") && Some(p) != own.as_ref())
            .collect();
        names.sort();
        let mut records = Vec::new();
        for path in names {
            let upto = self.read_upto.get(&path).copied();
            if upto == Some(None) {
                continue;
            }
            let Ok(bytes) = read_regular_file("store file", &path, MAX_STORE_FILE_BYTES) else { continue };
            let read = match decode_store(&bytes) {
                Ok(read) => read,
                // A header not whole yet (a file being made) is read next time.
                Err(RecordError::NotAStore) if bytes.len() < MAGIC.len() => continue,
                Err(e) => {
                    eprintln!("games-cli: warning: store file {}: {e}; not read", path.display());
                    self.read_upto.insert(path, None);
                    continue;
                }
            };
            if let Err(e) = self.identity.check(&path, &read.identity, true) {
                eprintln!("games-cli: warning: {e:#}; not read");
                self.read_upto.insert(path, None);
                continue;
            }
            let from = upto.flatten().unwrap_or(0);
            let file = match self.files.iter().position(|f| *f == path) {
                Some(i) => i,
                None => {
                    self.files.push(path.clone());
                    self.files.len() - 1
                }
            };
            let header = read.whole_len - RECORD_BYTES * read.records.len();
            for (index, r) in read.records.into_iter().enumerate() {
                if header + index * RECORD_BYTES < from {
                    continue;
                }
                match r {
                    Ok(record) => records.push(StoredRecord { record, file, index }),
                    Err(e) => eprintln!(
                        "games-cli: store file {}: {e}; skipped (its job is solved again)",
                        path.display()
                    ),
                }
            }
            self.read_upto.insert(path, Some(read.whole_len));
        }
        records
    }

    /// Another run's file `path` whose header is damaged or cut short: set aside with a
    /// warning when no run holds its lock and this run writes (`writable`), else skipped.
    fn damaged_other(path: &Path, error: &RecordError, writable: bool) -> Result<()> {
        let what = if error == &RecordError::NotAStore {
            "is empty or its header cut short"
        } else {
            "has a damaged header"
        };
        let locked_by_other = match OpenOptions::new().read(true).write(true).open(path) {
            Ok(f) => !try_lock(&f, path)?,
            Err(_) => false,
        };
        if locked_by_other {
            eprintln!(
                "games-cli: store file {} {what}, and another run is writing it; skipped this time",
                path.display()
            );
        } else if writable {
            let aside = set_aside(path)?;
            eprintln!(
                "games-cli: warning: store file {} {what}; set aside as {} (its records are solved again)",
                path.display(),
                aside.display()
            );
        } else {
            eprintln!("games-cli: warning: store file {} {what}; skipped", path.display());
        }
        Ok(())
    }

    /// Opens (creating it with its header when missing), locks and checks this run's own
    /// file `path`: a damaged header is set aside and the file made again.
    fn open_own(path: &Path, identity: &StoreIdentity) -> Result<(PathBuf, File)> {
        let cannot = |e: std::io::Error| {
            anyhow!(
                "cannot write store file {}: {e}; the store must be writable before the first job is solved",
                path.display()
            )
        };
        for _ in 0..2 {
            if !path.exists() {
                // A new file appears with its whole header (written to a temporary file, then
                // linked in place, which fails if another run made it meanwhile), so that a
                // reader never sees it empty.
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                let tmp = path.with_file_name(format!(".{name}.new-{}", std::process::id()));
                let made = (|| -> std::io::Result<()> {
                    let mut f = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
                    f.write_all(&encode_header(&identity.text()))?;
                    f.sync_all()?;
                    match std::fs::hard_link(&tmp, path) {
                        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => Err(e),
                        _ => Ok(()),
                    }
                })();
                let _ = std::fs::remove_file(&tmp);
                made.map_err(cannot)?;
            }
            let meta = std::fs::metadata(path).map_err(cannot)?;
            if !meta.is_file() {
                bail!("store file {} is not a regular file; refused", path.display());
            }
            let mut file = OpenOptions::new().read(true).append(true).open(path).map_err(cannot)?;
            if !try_lock(&file, path)? {
                bail!(
                    "store file {} is being written by another run (one writer a file: give each shard its own --shard I/N, and run one coordinator at a time); refused",
                    path.display()
                );
            }
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes)
                .map_err(|e| anyhow!("cannot read store file {}: {e}", path.display()))?;
            if bytes.is_empty() {
                file.write_all(&encode_header(&identity.text())).map_err(cannot)?;
                file.sync_data().map_err(cannot)?;
                return Ok((path.to_path_buf(), file));
            }
            match decode_store(&bytes) {
                Ok(read) => {
                    identity.check(path, &read.identity, true)?;
                    return Ok((path.to_path_buf(), file));
                }
                Err(e) if header_damaged(&bytes, &e) => {
                    drop(file);
                    let aside = set_aside(path)?;
                    eprintln!(
                        "games-cli: warning: store file {} has a damaged header; set aside as {} (its records are solved again)",
                        path.display(),
                        aside.display()
                    );
                }
                Err(e) => bail!("store file {}: {e}; refused", path.display()),
            }
        }
        bail!("store file {} could not be made again after its damaged header was set aside", path.display())
    }

    /// Appends `record` to this run's file and syncs it to the disk.
    ///
    /// # Errors
    /// The store was opened read only, or the file cannot be written.
    pub fn append(&mut self, record: &Record) -> Result<()> {
        let Some((path, file)) = self.own.as_mut() else {
            bail!("the store {} was opened read only", self.dir.display());
        };
        let write = |f: &mut File| -> std::io::Result<()> {
            f.write_all(&record.encode())?;
            f.sync_data()
        };
        write(file).with_context(|| format!("cannot write store file {}", path.display()))?;
        self.written += 1;
        Ok(())
    }

    /// The store's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The files the records were read from, in name order ([`StoredRecord::file`]).
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// The place of `record` among `records` in words (`record 3 of DIR/main.rec`), or that
    /// it was found by this run.
    fn place(&self, records: &HashMap<Record, (usize, usize)>, record: &Record) -> String {
        match records.get(record) {
            Some(&(file, index)) => format!("record {index} of {}", self.files[file].display()),
            None => "this run's result".to_string(),
        }
    }

    /// A [`SplitError`] from applying the store's records or a job's result, in words naming
    /// the files and records involved and what to do.
    #[must_use]
    pub fn explain(&self, records: &[StoredRecord], error: &SplitError) -> anyhow::Error {
        let SplitError::Contradiction(c) = error else {
            return anyhow!("store {}: {error}", self.dir.display());
        };
        let split_solve::Contradiction { record, lower, upper, .. } = c.as_ref();
        let places: HashMap<Record, (usize, usize)> =
            records.iter().map(|r| (r.record, (r.file, r.index))).collect();
        let list = |rs: &[Record]| -> String {
            if rs.is_empty() {
                return "the game's own bounds".to_string();
            }
            rs.iter().map(|r| self.place(&places, r)).collect::<Vec<_>>().join(", ")
        };
        anyhow!(
            "store {}: records contradict each other: {error} (refused: {}; lower bound from {}; upper bound from {}). No answer is given from them: a CRC detects damage, not forgery, so one of them is false (forged, copied from another solve, or found by an engine that is not exact): check the store with --recheck K (e.g. --recheck 1000) and set aside the file that holds the false record",
            self.dir.display(),
            self.place(&places, record),
            list(lower),
            list(upper)
        )
    }
}

/// Applies the store's `records` to `split`, warning in one line for each file none of
/// whose records is a node of the split (a file of a deeper split, written before the
/// header recorded the depth).
///
/// # Errors
/// Records that contradict each other ([`Store::explain`]).
pub fn apply_records<G: Game>(store: &Store, split: &mut Split<G>, records: &[StoredRecord]) -> Result<()>
where
    G::Key: Into<u128>,
{
    let mut used = vec![(0usize, 0usize); store.files.len()];
    for r in records {
        let applied = split.apply(&r.record).map_err(|e| store.explain(records, &e))?;
        used[r.file].0 += 1;
        used[r.file].1 += usize::from(applied);
    }
    for (file, &(all, applied)) in used.iter().enumerate() {
        if all > 0 && applied == 0 {
            eprintln!(
                "games-cli: warning: none of the {all} records of store file {} is a node of this split at --split-depth {} (written at a deeper depth?): they are not used",
                store.files[file].display(),
                split.options().depth
            );
        }
    }
    Ok(())
}

/// A progress line on stderr at most every few seconds, and the last one at the end.
pub struct Reporter<'a> {
    start: Instant,
    last: Option<Instant>,
    /// The least time between two lines: 2 s, or 20 times what the last count took (counting
    /// the jobs left walks the whole plan: seconds on a frontier of a million jobs), so that
    /// progress costs the coordinator at most 5% of its time.
    interval: Duration,
    bounds_text: &'a dyn Fn((Value, Value)) -> String,
}

impl<'a> Reporter<'a> {
    /// A reporter wording root bounds with `bounds_text`.
    pub fn new(bounds_text: &'a dyn Fn((Value, Value)) -> String) -> Self {
        Reporter { start: Instant::now(), last: None, interval: Duration::from_secs(2), bounds_text }
    }

    /// Whether a line is due (the last one is at least `interval` old).
    pub fn is_due(&self) -> bool {
        self.last.map_or(true, |l| l.elapsed() >= self.interval)
    }

    /// Prints the counts `progress` returns (with `nodes` searched by this run) if a line is
    /// due, or `force`; `progress` (which walks the whole plan) is called only then.
    pub fn report(&mut self, progress: impl FnOnce() -> split_solve::Progress, nodes: u64, force: bool) {
        if !(self.is_due() || force) {
            return;
        }
        let counting = Instant::now();
        let p = progress();
        self.interval = Duration::from_secs(2).max(counting.elapsed() * 20);
        self.last = Some(Instant::now());
        let secs = self.start.elapsed().as_secs_f64();
        let rate = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
        let first_moves = p
            .first_moves
            .map(|(exact, all)| format!("; first moves exact: {exact} of {all} classes"))
            .unwrap_or_default();
        eprintln!(
            "split: jobs {} done, {} in flight, {} left; {nodes} nodes in this run, {rate:.0} nodes/s; {}{first_moves}; {secs:.1} s",
            p.done,
            p.in_flight,
            p.left,
            (self.bounds_text)(p.root)
        );
    }
}

/// Jobs that took at least this long get a line of their own on stderr ([`job_line`]), from
/// the serial loop and the MPI manager (the time from handing the job out to its answer).
pub const LONG_JOB: Duration = Duration::from_secs(10);

/// One finished job in words, for the progress on stderr: `job LEAF (threshold T): at most T
/// (fail-soft R), N nodes, S s`; "above T" when the answer is yes.
pub fn job_line(rec: &Record, leaf: u32, took: Duration) -> String {
    let answer = if rec.is_above() { "above" } else { "at most" };
    format!(
        "job {leaf} (threshold {}): {answer} {} (fail-soft {}), {} nodes, {:.1} s",
        rec.threshold,
        rec.threshold,
        rec.value,
        rec.nodes,
        took.as_secs_f64()
    )
}

/// What the split proved, as the root driver's [`RootResult`]: the root's bounds and every
/// root move's, in the game's generation order (what the subcommands print from).
pub fn root_result<G: Game + Clone>(split: &Split<G>, pos: &G::Position) -> RootResult<G::Move>
where
    G::Key: Into<u128>,
{
    let fresh = search_core::root_checkpoint(split.game(), pos);
    let bounds = split.move_bounds();
    let moves = fresh
        .moves
        .iter()
        .map(|m| match bounds.iter().find(|b| b.0 == m.mv) {
            Some(&(mv, lo, hi)) => RootMove { mv, lo: lo.max(m.lo), hi: hi.min(m.hi) },
            None => *m,
        })
        .collect();
    let root = split.root_bounds();
    RootResult { bounds: root, finished: split.is_finished(), checkpoint: Checkpoint { moves } }
}

/// The principal variation (PV) the split's proven tree holds from the root: at each node the
/// first move in the tree's order whose bounds (side to move, gain included) both meet the
/// node's value, down to where no move's do (the frontier, or a node not proven exactly);
/// empty while the root's value is not exact. The moves are the split's game's
/// ([`Split::move_bounds_after`]); [`search_core::Engine::root_analysis_from`] goes on from
/// its end.
pub fn store_pv<G: Game + Clone>(split: &Split<G>) -> Vec<G::Move>
where
    G::Key: Into<u128>,
{
    let (lo, hi) = split.root_bounds();
    let (mut path, mut value) = (Vec::new(), lo);
    if lo != hi {
        return path;
    }
    let game = split.game();
    while let Some((pos, moves)) = split.move_bounds_after(&path) {
        let Some(&(mv, _, _)) = moves.iter().find(|&&(_, m_lo, m_hi)| m_lo == value && m_hi == value) else {
            break;
        };
        value = search_core::play_keeping(game, &pos, mv, value).1;
        path.push(mv);
    }
    path
}

/// The error of a split that has no job left and has not proven what it was asked (which
/// bounds that contradict each other would cause, were they not refused as they are applied):
/// never reported as a stop by a limit that was not reached.
pub(crate) fn no_job_left<G: Game>(split: &Split<G>, dir: &std::path::Path) -> anyhow::Error
where
    G::Key: Into<u128>,
{
    let (lo, hi) = split.root_bounds();
    anyhow::anyhow!(
        "the split over the store {} has no job left but has not proven the root's value (bounds [{lo}, {hi}]): its records do not fit together; check them with --recheck K and set aside the file that holds a false record",
        dir.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_jobs_line_gives_its_answer_and_cost() {
        let above = Record { key: 7, threshold: 0, value: 2, nodes: 5_896_145_716 };
        assert_eq!(
            job_line(&above, 208, Duration::from_millis(1_308_800)),
            "job 208 (threshold 0): above 0 (fail-soft 2), 5896145716 nodes, 1308.8 s"
        );
        let at_most = Record { key: 7, threshold: -1, value: -4, nodes: 12 };
        assert_eq!(
            job_line(&at_most, 3, Duration::from_secs(10)),
            "job 3 (threshold -1): at most -1 (fail-soft -4), 12 nodes, 10.0 s"
        );
    }
}
