//! Distributed solves, written once for every long-solve game: the [`split_solve`] coordinator
//! over a durable result store (`--store DIR`), run in this process, as one slice of a job
//! array (`--shard I/N`), or under MPI (`--mpi`, the cargo feature `mpi`: rank 0 coordinates,
//! the other ranks search, see [`crate::mpi_run`]).
//!
//! The store is a directory of append-only files (`*.rec`), one per writer: `main.rec` for a
//! coordinator, `shard-I-of-N.rec` for a shard, so that the slices of a job array never write
//! one file. Each file is a header naming the solve (game, board, root position) and fixed-size
//! records with a CRC-32 each ([`split_solve::record`]); every finished job's record is written
//! and synced at once. A run reads every file of the directory first: a file of another solve
//! is refused, a damaged record is skipped with a warning naming the file and the record (its
//! job is solved again), and a record cut short at the end of this run's own file (a crash in
//! the middle of a write) is cut off before appending. The one-process coordinator also keeps
//! a TT snapshot there ([`SNAPSHOT_NAME`]), saved every `--save-every` while a job is searched.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use search_core::{Checkpoint, Engine, Game, Limits, RootMove, RootResult, Value};
use split_solve::record::{decode_store, encode_header, RecordError};
use split_solve::{Record, Split, SplitOptions};

use crate::long_solve::{RootSolve, Solved, Stop};

/// The serial coordinator's TT snapshot in the store directory (not a `*.rec` file: the
/// store's reader skips it).
pub const SNAPSHOT_NAME: &str = "main.tt";

/// The distributed-solve options of a long-solve subcommand.
#[derive(clap::Args, Debug, Clone)]
pub struct SplitArgs {
    /// Solve through a split into null-window jobs on a frontier, keeping every finished job's
    /// result in the store DIR (a directory, created when missing); a run started again with
    /// the same DIR skips the jobs already there. One case per run.
    #[arg(long, value_name = "DIR", conflicts_with = "checkpoint")]
    pub store: Option<PathBuf>,
    /// With --store: solve only the I-th of N slices (0 <= I < N) of the frontier jobs the
    /// current question needs, write them into the store and stop (exit status 0); the same
    /// command without --shard then answers from the store, solving only what is missing.
    #[arg(long, value_name = "I/N", value_parser = parse_shard, requires = "store")]
    pub shard: Option<(u32, u32)>,
    /// With --shard: which jobs a round holds. `first`: the first alpha-beta order (a node
    /// expected to be proven above its threshold needs only its first undecided move; the first
    /// move of the first question's node is a PV node): far fewer jobs, and what a wrong guess
    /// leaves goes to the next round or the merge. `full`: every job the current question needs.
    #[arg(long, value_enum, default_value_t = ShardRound::First, requires = "shard")]
    pub shard_round: ShardRound,
    /// With --store or --sample-jobs: plies from the root to the frontier of jobs (0 to 12).
    #[arg(long, value_name = "PLIES", default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=12))]
    pub split_depth: u32,
    /// With --store: stop this process after about N nodes of search (the job in progress is
    /// dropped and solved again by the next run), as a time limit that does not depend on the
    /// machine.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), requires = "store", conflicts_with = "mpi")]
    pub node_budget: Option<u64>,
    /// With --store, under `mpirun` / `srun`: rank 0 coordinates and writes the store, the other
    /// ranks solve jobs (needs a games-cli built with the cargo feature `mpi`).
    #[arg(long, requires = "store", conflicts_with = "shard")]
    pub mpi: bool,
    /// Print the number of frontier jobs (distinct positions by key) at every depth up to
    /// PLIES and stop, without solving: for choosing --split-depth.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(0..=12), conflicts_with_all = ["store", "checkpoint"])]
    pub count_frontier: Option<u32>,
    /// Search K frontier jobs at --split-depth, drawn at random (seed 20), each the question
    /// "greater than 0?" under a budget of --sample-nodes nodes, print the nodes each took
    /// and stop, without solving: for sizing a solve.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=100_000), conflicts_with_all = ["store", "checkpoint", "count_frontier"])]
    pub sample_jobs: Option<u32>,
    /// With --store: re-solve K records of the store drawn at random (seed 20) among those
    /// whose position is a node of the split at --split-depth (a frontier job, or an interior
    /// node for a record written at a shallower depth) and whose search took at most
    /// --recheck-max-nodes nodes, with this run's engine (its --rules, TT and threads), print
    /// whether each answer agrees with the stored one, and stop: a check of a store by another
    /// configuration or machine. Exit status 0 when all agree, 2 otherwise.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..), requires = "store", conflicts_with_all = ["shard", "mpi"])]
    pub recheck: Option<u32>,
    /// With --recheck: draw only among records whose stored search took at most N nodes.
    #[arg(long, value_name = "N", default_value_t = u64::MAX, value_parser = clap::value_parser!(u64).range(1..), requires = "recheck")]
    pub recheck_max_nodes: u64,
    /// With --sample-jobs: the node budget of each sampled job.
    #[arg(long, value_name = "N", default_value_t = 10_000_000, value_parser = clap::value_parser!(u64).range(1..), requires = "sample_jobs")]
    pub sample_nodes: u64,
}

/// Which jobs a round of shards holds (`--shard-round`): [`split_solve::RoundKind`].
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardRound {
    // Plain text: clap prints these doc comments as the values' help.
    /// The first alpha-beta order (split-solve's `RoundKind::FirstOrder`)
    First,
    /// Every job the current question needs (split-solve's `RoundKind::Full`)
    Full,
}

/// Reads `I/N` with `0 <= I < N`.
fn parse_shard(text: &str) -> std::result::Result<(u32, u32), String> {
    let bad = || format!("expected I/N with whole numbers 0 <= I < N (e.g. 0/4), found {text:?}");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (u32, u32) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// A run that did its part and has no answer to print: a shard that filled its slice, an MPI
/// worker rank. `main` prints the message (if any) on stderr and exits with status 0.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct PartDone(pub String);

/// `--count-frontier`: prints `depth D: N frontier jobs` lines on stdout for the root `pos`.
///
/// # Errors
/// [`PartDone`] (nothing to answer) once printed.
pub fn count_frontier<G: Game>(game: &G, pos: &G::Position, max_depth: u32) -> Result<()>
where
    G::Key: Into<u128>,
{
    let start = Instant::now();
    split_solve::frontier_sizes(game, pos, max_depth, |depth, n| {
        println!("depth {depth}: {n} frontier jobs ({:.1} s)", start.elapsed().as_secs_f64());
    });
    Err(PartDone(String::new()).into())
}

/// `--sample-jobs`: searches `k` random frontier jobs of the split at `depth` under a budget of
/// `budget` nodes each with `engine` and prints one line per job and a summary on stdout.
///
/// # Errors
/// [`PartDone`] (nothing to answer) once printed.
pub fn sample_jobs<G: Game + Clone>(
    engine: &mut Engine<G>,
    pos: &G::Position,
    depth: u32,
    k: u32,
    budget: u64,
) -> Result<()>
where
    G::Key: Into<u128>,
{
    use rand::{Rng, SeedableRng};
    let split = Split::new(engine.game().clone(), pos, SplitOptions { depth, ..SplitOptions::default() });
    let n = split.frontier_len();
    println!("depth {depth}: {n} frontier jobs; {k} drawn at random, \"greater than 0?\" under {budget} nodes each");
    if n == 0 {
        return Err(PartDone(String::new()).into());
    }
    let mut rng = rand::rngs::SmallRng::seed_from_u64(20);
    let (mut finished, mut finished_nodes, mut all_nodes) = (0u64, 0u64, 0u64);
    for i in 0..k {
        let leaf = rng.gen_range(0..n) as u32;
        let (job_pos, _) = split.leaf(leaf);
        let before = engine.stats().nodes;
        engine.set_limits(Limits { max_nodes: Some(before.saturating_add(budget)), ..Limits::default() });
        let start = Instant::now();
        let r = engine.try_search(&job_pos, 0, 1);
        let nodes = engine.stats().nodes - before;
        all_nodes += nodes;
        let secs = start.elapsed().as_secs_f64();
        match r {
            Ok(v) => {
                finished += 1;
                finished_nodes += nodes;
                println!(
                    "job {i} (frontier {leaf}): {} in {nodes} nodes, {secs:.1} s",
                    if v > 0 { "yes" } else { "no" }
                );
            }
            Err(_) => println!("job {i} (frontier {leaf}): not finished within {nodes} nodes, {secs:.1} s"),
        }
    }
    println!(
        "finished {finished} of {k} within the budget (mean {:.0} nodes each); {all_nodes} nodes in all",
        finished_nodes as f64 / finished.max(1) as f64
    );
    Err(PartDone(String::new()).into())
}

/// `--recheck`: re-solves `k` random records of the store `spec.args.split.store` whose
/// positions are nodes of the split of `pos` at `--split-depth` (frontier jobs, or interior
/// nodes: records written at a shallower depth) and whose stored search took at most
/// `--recheck-max-nodes`, with `engine`, and prints on stdout one line per record (threshold,
/// stored and new fail-soft results and nodes, and whether they agree: the same side of the
/// threshold) and a summary.
///
/// # Errors
/// Store errors; no record to check; an error naming the records that disagree; otherwise
/// [`PartDone`].
pub fn recheck<G: Game + Clone>(
    engine: &mut Engine<G>,
    pos: &G::Position,
    spec: &RootSolve<'_, G>,
    k: u32,
) -> Result<()>
where
    G::Key: Into<u128>,
{
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let args = &spec.args.split;
    let dir = args.store.as_deref().expect("called with --store");
    // Read only: the run's own file name is one no run writes.
    let (_, records) = Store::open(dir, &spec.identity, "recheck.rec")?;
    let split = Split::new(
        engine.game().clone(),
        pos,
        SplitOptions { depth: args.split_depth, ..SplitOptions::default() },
    );
    let mut eligible: Vec<(&Record, G::Position)> = records
        .iter()
        .filter(|r| r.nodes <= args.recheck_max_nodes)
        .filter_map(|r| split.position_of(r.key).map(|p| (r, p)))
        .collect();
    println!(
        "{} records in {}, {} of them nodes of the split at depth {} within the node limit; {k} drawn at random",
        records.len(),
        dir.display(),
        eligible.len(),
        args.split_depth
    );
    if eligible.is_empty() {
        bail!(
            "--recheck: no record of {} is a node of the split at --split-depth {} within --recheck-max-nodes (give the depth the store was written at, or a deeper one)",
            dir.display(),
            args.split_depth
        );
    }
    let mut rng = rand::rngs::SmallRng::seed_from_u64(20);
    eligible.shuffle(&mut rng);
    let mut disagree = Vec::new();
    let (mut stored_nodes, mut new_nodes) = (0u64, 0u64);
    for (i, (record, job_pos)) in eligible.iter().take(k as usize).enumerate() {
        let t = record.threshold;
        let before = engine.stats().nodes;
        let start = Instant::now();
        let r = engine.search(job_pos, t, t + 1);
        let nodes = engine.stats().nodes - before;
        let agrees = (r > t) == (record.value > t);
        let side = |v: Value| if v > t { format!("> {t} ({v})") } else { format!("<= {t} ({v})") };
        println!(
            "record {i} (key {:#x}): stored {} in {} nodes; now {} in {nodes} nodes, {:.1} s: {}",
            record.key,
            side(record.value),
            record.nodes,
            side(r),
            start.elapsed().as_secs_f64(),
            if agrees { "agrees" } else { "DISAGREES" }
        );
        stored_nodes += record.nodes;
        new_nodes += nodes;
        if !agrees {
            disagree.push(i);
        }
    }
    let n = eligible.len().min(k as usize);
    println!("{} of {n} agree; {stored_nodes} nodes stored, {new_nodes} nodes now", n - disagree.len());
    if !disagree.is_empty() {
        bail!("--recheck: records {disagree:?} of the store disagree with this run's answers");
    }
    Err(PartDone(String::new()).into())
}

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
        // Under `GAMES_CLI_ZERO_TIMES` (the golden tests) the time and the rate print as 0.
        let secs = if crate::report::zero_times() { 0.0 } else { self.start.elapsed().as_secs_f64() };
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

/// Solves the non-terminal `pos` through the split as `spec.args` asks (`--store`, `--shard`,
/// `--split-depth`, `--node-budget`, `--mpi`, `--time-limit`), searching jobs with `engine`.
///
/// # Errors
/// Store errors; [`PartDone`] when this run was a shard or an MPI worker and has nothing to
/// print.
pub fn solve<G: Game + Clone + Send>(
    engine: &mut Engine<G>,
    pos: &G::Position,
    spec: &RootSolve<'_, G>,
) -> Result<Solved<G::Move>>
where
    G::Key: std::fmt::Display + std::str::FromStr + Into<u128>,
    G::Position: Send,
{
    let args = &spec.args.split;
    let dir = args.store.as_deref().expect("called with --store");
    let options =
        SplitOptions { depth: args.split_depth, exact_moves: spec.exact_all, ..SplitOptions::default() };
    if args.mpi {
        return crate::mpi_run::solve(engine, pos, spec, options);
    }
    let own = match args.shard {
        Some((i, n)) => format!("shard-{i}-of-{n}.rec"),
        None => "main.rec".to_string(),
    };
    let (mut store, records) = Store::open(dir, &spec.identity, &own)?;
    let mut split = Split::new(engine.game().clone(), pos, options);
    for r in &records {
        split.apply(r).with_context(|| format!("store {}", dir.display()))?;
    }
    let from_store = split.is_finished();
    let stats0 = engine.stats();
    let mut reporter = Reporter::new(spec.bounds_text);
    let deadline = spec.args.time_limit.map(|t| Instant::now() + t);
    eprintln!(
        "split: depth {}, {} frontier jobs (folded by key), {} records read from {}",
        options.depth,
        split.frontier_len(),
        records.len(),
        dir.display()
    );
    // The serial coordinator keeps a TT snapshot beside its records (`DIR/main.tt`: the
    // expensive part of the TT, as `--checkpoint` keeps `FILE.tt`), read at the start and saved
    // every `--save-every` seconds while a job is searched and when a limit stops the run, so
    // that a job interrupted by a stop, a kill or the end of a session resumes with its
    // finished subtrees. Shards share the directory and keep none.
    let snapshot = args.shard.is_none().then(|| dir.join(SNAPSHOT_NAME));
    let tt_identity = crate::long_solve::snapshot_identity(&spec.identity, &engine.game().key_scheme());
    if let Some(path) = snapshot.as_ref().filter(|p| p.exists()) {
        crate::long_solve::load_snapshot(engine, path, &tt_identity, spec.entry_ok)?;
        eprintln!("split: TT snapshot {} read", path.display());
    }
    let save_every = spec.args.save_every.max(Duration::from_secs(1));
    let max_nodes = args.node_budget.map(|b| stats0.nodes.saturating_add(b));
    let mut run_nodes = 0u64;
    let mut last_save = Instant::now();
    // The fail-soft result of a job (`Err` with what stopped it when a limit did) and its
    // nodes, searched in slices that end `--save-every` after the last snapshot (counted
    // across jobs: a run of short jobs saves as often as one long job). The engine counts nodes
    // against the budget in blocks, so it may stop a little short of it: a stop before the
    // deadline and the slice's end is the budget's.
    let mut search =
        |job: &split_solve::Job<G::Position>| -> Result<(std::result::Result<Value, Stop>, u64)> {
            let before = engine.stats().nodes;
            let started = Instant::now();
            let r = loop {
                if let Some(path) = snapshot.as_ref().filter(|_| last_save.elapsed() >= save_every) {
                    crate::long_solve::save_snapshot(engine, path, &tt_identity, spec.args.snapshot_entries)?;
                    last_save = Instant::now();
                    let nodes = engine.stats().nodes - stats0.nodes;
                    eprintln!(
                        "split: TT snapshot saved in job {} (threshold {}); {nodes} nodes in this run",
                        job.leaf, job.threshold
                    );
                }
                let now = Instant::now();
                let slice_end = snapshot.as_ref().map(|_| last_save + save_every);
                let end = match (deadline, slice_end) {
                    (Some(d), Some(s)) => Some(d.min(s)),
                    (d, s) => d.or(s),
                };
                engine.set_limits(Limits {
                    time: end.map(|e| e.saturating_duration_since(now)),
                    max_nodes,
                    ..Limits::default()
                });
                let r = engine.try_search(&job.position, job.threshold, job.threshold + 1);
                let now = Instant::now();
                let stop = match r {
                    Ok(v) => break Ok(v),
                    Err(_) if deadline.is_some_and(|d| now >= d) => Stop::TimeLimit,
                    // The top of the loop saves the snapshot and searches the job again.
                    Err(_) if slice_end.is_some_and(|s| now >= s) => continue,
                    Err(_) if args.node_budget.is_some() => Stop::NodeBudget,
                    Err(_) => Stop::TimeLimit,
                };
                if let Some(path) = &snapshot {
                    crate::long_solve::save_snapshot(engine, path, &tt_identity, spec.args.snapshot_entries)?;
                }
                break Err(stop);
            };
            let nodes = engine.stats().nodes - before;
            if let (Ok(value), true) = (r, started.elapsed() >= LONG_JOB) {
                let rec = Record { key: job.key, threshold: job.threshold, value, nodes };
                eprintln!("split: {}", job_line(&rec, job.leaf, started.elapsed()));
            }
            Ok((r, nodes))
        };
    let mut stop = None;
    let mut part_done = None;
    if let Some((index, count)) = args.shard {
        // One slice of the round the store's bounds call for, fixed at the start; a job that
        // this slice's own results made unnecessary is skipped.
        let kind = match args.shard_round {
            ShardRound::First => split_solve::RoundKind::FirstOrder,
            ShardRound::Full => split_solve::RoundKind::Full,
        };
        let mine: Vec<_> = split.round_of(kind).into_iter().filter(|j| j.leaf % count == index).collect();
        eprintln!("split: shard {index}/{count}: {} jobs in this slice of the round", mine.len());
        let mut skipped = 0;
        for job in mine {
            if !split.is_needed((job.leaf, job.threshold)) {
                skipped += 1;
                continue;
            }
            let (value, nodes) = search(&job)?;
            run_nodes += nodes;
            let value = match value {
                Ok(v) => v,
                Err(s) => {
                    stop = Some(s);
                    break;
                }
            };
            let rec = split.finish((job.leaf, job.threshold), value, nodes)?;
            store.append(&rec)?;
            reporter.report(|| split.progress(), run_nodes, false);
        }
        if stop.is_none() {
            part_done = Some(format!(
                "shard {index}/{count} done: {} jobs solved into {}, {skipped} no longer needed; run the other shards, then the same command without --shard",
                store.written,
                dir.display()
            ));
        }
    } else {
        while let Some(job) = split.next_job() {
            let (value, nodes) = search(&job)?;
            run_nodes += nodes;
            let value = match value {
                Ok(v) => v,
                Err(s) => {
                    split.abandon((job.leaf, job.threshold));
                    stop = Some(s);
                    break;
                }
            };
            let rec = split.finish((job.leaf, job.threshold), value, nodes)?;
            store.append(&rec)?;
            reporter.report(|| split.progress(), run_nodes, false);
            if deadline.is_some_and(|d| Instant::now() >= d) {
                stop = Some(Stop::TimeLimit);
                break;
            }
        }
    }
    reporter.report(|| split.progress(), run_nodes, true);
    if let Some(message) = part_done {
        return Err(PartDone(message).into());
    }
    let result = root_result(&split, pos);
    // A run that ran out of jobs while a deadline passed is finished, not stopped.
    let stop = if result.finished { None } else { stop.or(Some(Stop::TimeLimit)) };
    let known_pv = store_pv(&split);
    Ok(Solved { result, stop, stats: engine.stats().since(&stats0), from_checkpoint: from_store, known_pv })
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
