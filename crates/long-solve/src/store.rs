//! The durable store of a split solve (`--store DIR`): a directory of append-only record
//! files, one per writer (`main.rec` for a coordinator, `shard-I-of-N.rec` for a shard), each a
//! header naming the solve and fixed-size records with a CRC-32 each
//! ([`split_solve::record`]); the coordinators' progress lines; what a split proved as the
//! root driver's result and principal variation.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use search_core::{Checkpoint, Game, RootMove, RootResult, Value};
use split_solve::record::{decode_store, encode_header, RecordError};
use split_solve::{Record, Split};

/// The serial coordinator's TT snapshot in the store directory (not a `*.rec` file: the
/// store's reader skips it).
pub const SNAPSHOT_NAME: &str = "main.tt";

/// The store's identity line of a solve (game, board options, root).
fn identity_text(identity: &search_core::SolveIdentity) -> String {
    format!("game {}; options {}; root {}", identity.game, identity.options, identity.root)
}

/// The durable store: a directory of record files.
pub struct Store {
    dir: PathBuf,
    header: Vec<u8>,
    /// This run's own file, opened when the first record is written.
    own: PathBuf,
    file: Option<File>,
    /// Records written by this run.
    pub written: u64,
}

impl Store {
    /// Opens the store `dir` (created when missing) for the solve `identity`, this run writing
    /// `own_name`; returns it with every intact record of every file. Damaged records and
    /// records cut short are reported on stderr and skipped.
    ///
    /// # Errors
    /// A directory or file that cannot be read or created, a file that is not a store or
    /// belongs to another solve (named, and refused).
    pub fn open(
        dir: &Path,
        identity: &search_core::SolveIdentity,
        own_name: &str,
    ) -> Result<(Store, Vec<Record>)> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the store directory {}", dir.display()))?;
        let identity = identity_text(identity);
        let own = dir.join(own_name);
        let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
            .with_context(|| format!("cannot read the store directory {}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "rec"))
            .collect();
        names.sort();
        let mut records = Vec::new();
        for path in &names {
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read store file {}", path.display()))?;
            let read =
                decode_store(&bytes).map_err(|e| anyhow!("store file {}: {e}; refused", path.display()))?;
            if read.identity != identity {
                bail!(
                    "store file {} belongs to another solve ({:?}), not this one ({identity:?}); refused (use another --store)",
                    path.display(),
                    read.identity
                );
            }
            for r in read.records {
                match r {
                    Ok(r) => records.push(r),
                    Err(e @ RecordError::Checksum { .. }) => {
                        eprintln!(
                            "games-cli: store file {}: {e}; skipped (its job is solved again)",
                            path.display()
                        );
                    }
                    Err(e) => bail!("store file {}: {e}", path.display()),
                }
            }
            if read.tail_bytes > 0 {
                eprintln!(
                    "games-cli: store file {}: ends in a record cut short ({} bytes, an interrupted write); ignored",
                    path.display(),
                    read.tail_bytes
                );
                if *path == own {
                    let f = OpenOptions::new().write(true).open(path)?;
                    f.set_len(read.whole_len as u64)
                        .with_context(|| format!("cannot cut the short record off {}", path.display()))?;
                }
            }
        }
        let store =
            Store { dir: dir.to_path_buf(), header: encode_header(&identity), own, file: None, written: 0 };
        Ok((store, records))
    }

    /// Appends `record` to this run's file and syncs it to the disk.
    ///
    /// # Errors
    /// The file cannot be created or written.
    pub fn append(&mut self, record: &Record) -> Result<()> {
        let own = &self.own;
        let write = |file: &mut Option<File>, header: &[u8]| -> std::io::Result<()> {
            if file.is_none() {
                let mut f = OpenOptions::new().create(true).append(true).open(own)?;
                if f.metadata()?.len() == 0 {
                    f.write_all(header)?;
                }
                *file = Some(f);
            }
            let f = file.as_mut().expect("opened above");
            f.write_all(&record.encode())?;
            f.sync_data()
        };
        write(&mut self.file, &self.header)
            .with_context(|| format!("cannot write store file {}", self.own.display()))?;
        self.written += 1;
        Ok(())
    }

    /// The store's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
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
