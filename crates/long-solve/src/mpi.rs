//! `--mpi`: a distributed solve under `mpirun` / `srun`, in the manager / worker shape of
//! GamesmanOne's MPI solver. Rank 0 is the manager: it reads the store, keeps the
//! [`split_solve::Split`] coordinator, hands one job at a time to each idle worker, writes every
//! result to the store as it arrives, and tells workers to drop jobs that a result made
//! unnecessary. Every other rank is a worker: it builds the same frontier (the split is
//! deterministic, so a job travels as its frontier index and threshold), searches each job with
//! its own engine (its TT, threads and TT size from the command line) and answers with the
//! fail-soft result and the nodes it took. The manager prints a job that took 10 s or more
//! from hand-out to answer on a line of its own, as the serial loop does
//! ([`crate::store::job_line`]).
//!
//! A worker may hang without dying (stopped by a signal, a stalled node): nothing tells the
//! manager, so it bounds how long a job may stay unanswered ([`job_bound`]: `--job-timeout`,
//! else 4 times the longest job answered so far, at least 5 s). A job unanswered past the
//! bound is handed to an idle worker as well, when the needed jobs are all out; its first
//! worker stays busy. The first result of a job is recorded and its other copies cancelled; a
//! later one is a duplicate and ignored (a result is a proven bound, so applying it again
//! would change nothing, but it is neither written nor counted twice); a copy dropped while
//! another runs keeps the job in flight.
//!
//! The manager stops handing out jobs as soon as the answer is proven (the root exact, and
//! every first move's value with `--analyze`), or at the time limit. It then tells every
//! worker to stop, records the jobs they answer meanwhile, and waits for each to say it has
//! stopped: 1 s for a rank whose job is late or that holds none, else until its job is late,
//! at most 10 s. A rank that has not said so by then hangs. A hanging rank would keep
//! `MPI_Finalize`, and so the run, waiting: the manager then returns its answer with MPI kept
//! open, and the front end, once the answer is printed and flushed, ends the run with
//! `MPI_Abort` and its own exit status ([`end_hung_run`]; `mpirun` kills every rank, prints a
//! note about the abort on stderr and exits with that status, 0 for an answer). Every result
//! is in the store (written and synced as it arrives) before that. Debian's Open MPI 4.1.4
//! `mpirun` often fails in its own teardown after such an abort (it crashes in
//! `PMIx_server_finalize`, or hangs with every rank ended): the answer is printed and the store
//! complete by then, but its exit status is not the answer's.
//!
//! Before the first job every worker proves that it solves what the manager solves: the
//! manager sends its description of the split (the store's identity: game, board options,
//! root, key scheme and split depth; whether first-move values are asked; the frontier's size
//! and a digest of its keys in index order; the record format), and a worker whose own
//! description differs refuses with it; the manager then names both and aborts the run before
//! any job is handed out or any record written (a job travels as its frontier index, so ranks
//! that built other frontiers would answer other questions). A worker that hangs before it
//! answers this keeps the manager waiting: the bound applies to jobs only.
//!
//! The workers share what they prove (`--share-work N`, default [`DEFAULT_SHARE_WORK`]): each
//! worker's engine hands out, through its [`search_core::Exchange`], every TT entry it stores
//! whose subtree took at least N nodes; the worker sends them to every other worker (every
//! 20 ms while a job runs, and when it ends, before the job's answer), and stores the entries
//! it receives in its own table (at its search's periodic checks, and at once while it waits
//! for a job; past [`search_core::MAX_GIVEN_ENTRIES`] waiting, the oldest are dropped: a
//! worker's memory stays bounded however much the others send). Jobs of one split share
//! most of their deep subtrees, which one process's table answers from one job to the next:
//! without sharing, each worker searches them again. The sends run on a thread of their own
//! (MPI with `MPI_THREAD_MULTIPLE`; a library without it gets no sharing, said on stderr), so
//! that a worker that receives nothing (hung) holds up only its sender thread: while the
//! thread's queue is full, the entries wait in the worker's backlog, the oldest dropped past
//! 2^22 of them. Entries come only from ranks that proved that they solve the same split, in the
//! game's own key scheme; a message that is no list of entries is ignored, named on stderr.
//!
//! The workers also tell each other where their searches are (ABDADA's deferral, Weill 1996,
//! across ranks): with the entries, a worker sends the keys of the positions on its search
//! path within `--path-plies` (by default its engine's
//! [`search_core::SearchOptions::peer_defer_plies`]) of the job's root
//! when the path has changed ([`search_core::Exchange::take_path`]); a worker puts off a move
//! into a position on another worker's path until its other moves are searched, so that the
//! other's result may arrive first. Paths only order moves, whatever they hold. Empty 4x4
//! dots-and-boxes (8 plies, `cargo xtask dist-bench`): 2.5 % fewer nodes with two workers,
//! 6 % with four, 8 % with eight.
//!
//! Messages are `i64` arrays: manager to worker `[HELLO, bytes, text...]` (the description,
//! eight bytes a word), `[JOB, leaf, threshold]`, `[CANCEL, leaf, threshold]`, `[STOP, 0,
//! 0]` or, once every worker has said it stopped, `[FINISH, 0, 0]`; worker to manager
//! `[AGREE]`, `[REFUSE, bytes, text...]` (its own description), `[RESULT, leaf, threshold,
//! value, nodes]`, `[DROPPED, leaf, threshold, 0, nodes]` or, after STOP, `[BYE, nodes,
//! messages, bytes, entries sent, received, dropped, TT misses]` (the manager prints their
//! sums, and the most nodes and TT misses of one worker: the longest chain of work; a miss is
//! a TT look-up that found no entry, a position the worker expanded and searched itself);
//! worker to worker `[SHARE, count,
//! entries...]` ([`encode_entries`]) and `[PATH, keys...]`. A worker that said BYE receives
//! (and drops) what the others still send it until FINISH, so that no send waits on a rank
//! that has ended. Waiting ranks poll with short sleeps instead of blocking receives, which
//! Open MPI spins on, so that a manager on a core of its own costs almost nothing. MPI aborts
//! the whole run when one rank fails: the store is what lets the relaunch continue.
//!
//! Without the cargo feature `mpi`, `--mpi` is refused with how to build it.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use search_core::Value;

#[cfg(doc)]
use crate::entries::encode_entries;
#[cfg(doc)]
use crate::options::DEFAULT_SHARE_WORK;

#[cfg(not(feature = "mpi"))]
use crate::outcome::{RootSolve, Solved};
#[cfg(not(feature = "mpi"))]
use anyhow::Result;
#[cfg(not(feature = "mpi"))]
use search_core::{Engine, Game};
#[cfg(not(feature = "mpi"))]
use split_solve::SplitOptions;

/// Would solve `pos` under MPI: this build has no MPI.
///
/// # Errors
/// Always, saying how to build it.
#[cfg(not(feature = "mpi"))]
pub fn solve<G: Game + Clone + Send>(
    _engine: &mut Engine<G>,
    _pos: &G::Position,
    _spec: &RootSolve<'_, G>,
    _options: SplitOptions,
) -> Result<Solved<G::Move>>
where
    G::Key: Into<u128>,
    G::Position: Send,
{
    anyhow::bail!(
        "--mpi needs a games-cli built with the cargo feature `mpi` (cargo build --release -p games-cli --features mpi, with Open MPI and libclang installed)"
    )
}

#[cfg(feature = "mpi")]
pub use with_mpi::{end_hung_run, solve};

/// Ends the run with exit status `status` when this process is an MPI coordinator that left
/// ranks hanging (see the module's documentation); otherwise (and without the cargo feature
/// `mpi`) returns at once. A front end calls it after the answer is printed and flushed.
#[cfg(not(feature = "mpi"))]
pub fn end_hung_run(_status: u8) {}

/// The floor of the default job bound ([`job_bound`]).
pub const JOB_BOUND_FLOOR: Duration = Duration::from_secs(5);

/// The default job bound is this many times the longest job answered so far ([`job_bound`]).
pub const JOB_BOUND_FACTOR: u32 = 4;

/// How long a job may stay unanswered before it is handed to an idle worker as well:
/// `timeout` (`--job-timeout`) when given, else [`JOB_BOUND_FACTOR`] times `longest` (the
/// longest job answered so far, from hand-out to answer), at least [`JOB_BOUND_FLOOR`].
#[must_use]
pub fn job_bound(timeout: Option<Duration>, longest: Duration) -> Duration {
    timeout.unwrap_or_else(|| longest.saturating_mul(JOB_BOUND_FACTOR).max(JOB_BOUND_FLOOR))
}

/// A job as it travels: its frontier index and threshold.
type JobId = (u32, Value);

/// What [`Handouts::take`] found about a rank's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
struct Taken {
    /// From its hand-out to the answer.
    took: Duration,
    /// A result for the job came before (from another rank it was handed to).
    duplicate: bool,
    /// Another rank still holds the job.
    still_held: bool,
}

/// The manager's record of the jobs its workers hold: which rank holds which job since when
/// (a job may be held by several ranks once it was handed out again), the jobs answered in
/// this run, and the longest answer so far, for the job bound. Pure bookkeeping: the manager
/// sends the messages.
#[derive(Debug)]
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
struct Handouts {
    /// Rank to (job, handed out at, still wanted: neither answered elsewhere nor cancelled).
    busy: HashMap<i32, (JobId, Instant, bool)>,
    /// Jobs answered with a result in this run: a later result for one is a duplicate.
    answered: HashSet<JobId>,
    /// The longest time from hand-out to the first result of a job.
    longest: Duration,
    /// `--job-timeout`.
    timeout: Option<Duration>,
}

#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
impl Handouts {
    fn new(timeout: Option<Duration>) -> Self {
        Handouts { busy: HashMap::new(), answered: HashSet::new(), longest: Duration::ZERO, timeout }
    }

    /// The current job bound ([`job_bound`]).
    fn bound(&self) -> Duration {
        job_bound(self.timeout, self.longest)
    }

    /// `rank` is given `job` at `now`.
    fn give(&mut self, rank: i32, job: JobId, now: Instant) {
        self.busy.insert(rank, (job, now, true));
    }

    fn is_empty(&self) -> bool {
        self.busy.is_empty()
    }

    /// The job `rank` holds.
    fn job_of(&self, rank: i32) -> Option<JobId> {
        self.busy.get(&rank).map(|&(job, _, _)| job)
    }

    /// The ranks that hold `job`, in order.
    fn holders(&self, job: JobId) -> Vec<i32> {
        let mut ranks: Vec<i32> =
            self.busy.iter().filter(|(_, &(j, _, _))| j == job).map(|(&r, _)| r).collect();
        ranks.sort_unstable();
        ranks
    }

    /// `job` is no longer wanted (answered, or no longer needed): no copy of it is handed out
    /// again on its account.
    fn unwanted(&mut self, job: JobId) {
        for (j, _, wanted) in self.busy.values_mut() {
            if *j == job {
                *wanted = false;
            }
        }
    }

    /// `rank` answered at `now` (with a result if `result`, else dropped): its job is taken
    /// back. `None` if it held none.
    fn take(&mut self, rank: i32, now: Instant, result: bool) -> Option<Taken> {
        let (job, since, _) = self.busy.remove(&rank)?;
        let took = now.saturating_duration_since(since);
        let duplicate = self.answered.contains(&job);
        if result && !duplicate {
            self.answered.insert(job);
            self.longest = self.longest.max(took);
            self.unwanted(job);
        }
        let still_held = self.busy.values().any(|&(j, _, _)| j == job);
        Some(Taken { took, duplicate, still_held })
    }

    /// The wanted job whose newest hand-out is the oldest of those older than the bound at
    /// `now`: the one to hand to an idle worker as well.
    fn overdue(&self, now: Instant) -> Option<JobId> {
        let bound = self.bound();
        let mut newest: HashMap<JobId, Instant> = HashMap::new();
        for &(job, since, _) in self.busy.values().filter(|e| e.2) {
            let e = newest.entry(job).or_insert(since);
            *e = (*e).max(since);
        }
        newest
            .into_iter()
            .filter(|&(_, since)| now.saturating_duration_since(since) > bound)
            .min_by_key(|&(job, since)| (since, job))
            .map(|(job, _)| job)
    }

    /// The busy ranks whose job was handed out longer than the bound before `now`, in order.
    fn late(&self, now: Instant) -> Vec<i32> {
        let bound = self.bound();
        let mut ranks: Vec<i32> = self
            .busy
            .iter()
            .filter(|(_, &(_, since, _))| now.saturating_duration_since(since) > bound)
            .map(|(&r, _)| r)
            .collect();
        ranks.sort_unstable();
        ranks
    }
}

#[cfg(feature = "mpi")]
mod with_mpi {
    use std::cell::RefCell;
    use std::collections::HashSet;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use anyhow::{anyhow, Result};
    use mpi::environment::Universe;
    use mpi::point_to_point::{Destination, MatchedReceiveVec, Source};
    use mpi::topology::{Communicator, Rank, SimpleCommunicator};
    use mpi::Threading;
    use search_core::{Engine, Exchange, Game, Limits, PackedMove, TtEntry, TtKey};
    use split_solve::{Split, SplitOptions};

    use super::{Handouts, JobId};
    use crate::entries::{decode_entries, encode_entries};

    use crate::options::JobOrder;
    use crate::outcome::PartDone;
    use crate::outcome::{RootSolve, Solved};
    use crate::store::{apply_records, job_line, root_result, Reporter, Store, StoreIdentity, LONG_JOB};

    const JOB: i64 = 1;
    const CANCEL: i64 = 2;
    const STOP: i64 = 3;
    const HELLO: i64 = 4;
    const RESULT: i64 = 1;
    const DROPPED: i64 = 2;
    const AGREE: i64 = 5;
    const REFUSE: i64 = 6;
    const BYE: i64 = 7;
    const SHARE: i64 = 8;
    const FINISH: i64 = 9;
    const PATH: i64 = 10;
    /// How often a busy worker sends the entries its search proved meanwhile.
    const SHARE_EVERY: Duration = Duration::from_millis(20);
    /// Batches a worker's sender thread holds at most; more wait in the worker's backlog.
    const SHARE_QUEUE: usize = 8;
    /// Entries a worker's backlog holds at most; the oldest are dropped beyond.
    const MAX_BACKLOG: usize = 1 << 22;
    /// How long a waiting rank sleeps between polls.
    const POLL: Duration = Duration::from_millis(1);
    /// How long the manager waits after STOP for a rank that holds no job, or one whose job is
    /// late, to say it has stopped.
    const STOP_GRACE: Duration = Duration::from_secs(1);
    /// How long it waits at most for a rank whose job is not late.
    const STOP_WAIT: Duration = Duration::from_secs(10);

    thread_local! {
        /// The MPI environment of a manager that left ranks hanging: kept, not finalized (which
        /// would wait for them), until [`end_hung_run`] aborts the run.
        static HUNG: RefCell<Option<Universe>> = const { RefCell::new(None) };
    }

    /// Ends the run with exit status `status` (MPI_Abort: `mpirun` kills every rank and exits
    /// with it) when this process is a manager that left ranks hanging; otherwise returns at
    /// once. A front end calls it after the answer is printed and flushed.
    pub fn end_hung_run(status: u8) {
        if let Some(universe) = HUNG.with(|h| h.borrow_mut().take()) {
            universe.world().abort(i32::from(status));
        }
    }

    /// The next message from `rank` (any rank if `None`), polling: `(sender, words)`.
    fn wait(world: &SimpleCommunicator, rank: Option<Rank>) -> (Rank, Vec<i64>) {
        loop {
            if let Some(m) = poll(world, rank) {
                return m;
            }
            std::thread::sleep(POLL);
        }
    }

    /// A message from `rank` (any rank if `None`) if one has arrived.
    fn poll(world: &SimpleCommunicator, rank: Option<Rank>) -> Option<(Rank, Vec<i64>)> {
        let probe = match rank {
            Some(r) => world.process_at_rank(r).immediate_matched_probe(),
            None => world.any_process().immediate_matched_probe(),
        };
        let (words, status) = probe?.matched_receive_vec::<i64>();
        Some((status.source_rank(), words))
    }

    /// What a rank solves, in words: every rank of a run must give the same text.
    fn description<G: Game>(split: &Split<G>, identity: &StoreIdentity) -> String
    where
        G::Key: Into<u128>,
    {
        format!(
            "{}; first-move values {}; frontier {} jobs, digest {:016x}; records {}",
            identity.text(),
            if split.options().exact_moves { "yes" } else { "no" },
            split.frontier_len(),
            split.frontier_digest(),
            String::from_utf8_lossy(split_solve::record::MAGIC)
        )
    }

    /// `[code, bytes, text...]`: `text` packed eight bytes a word.
    fn pack(code: i64, text: &str) -> Vec<i64> {
        let bytes = text.as_bytes();
        let mut words = vec![code, i64::try_from(bytes.len()).unwrap_or(i64::MAX)];
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            words.push(i64::from_le_bytes(b));
        }
        words
    }

    /// [`pack`] undone (a malformed message reads as a text that matches nothing).
    fn unpack(words: &[i64]) -> String {
        let len = words.get(1).and_then(|&n| usize::try_from(n).ok()).unwrap_or(0);
        let bytes: Vec<u8> = words.iter().skip(2).flat_map(|w| w.to_le_bytes()).take(len).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Solves `pos` under MPI as the module says: rank 0 returns the answer, the workers
    /// [`PartDone`] with no message.
    ///
    /// # Errors
    /// MPI already initialised or fewer than 2 ranks; on rank 0, store errors (the other ranks
    /// are aborted).
    pub fn solve<G: Game + Clone + Send>(
        engine: &mut Engine<G>,
        pos: &G::Position,
        spec: &RootSolve<'_, G>,
        options: SplitOptions,
    ) -> Result<Solved<G::Move>>
    where
        G::Key: Into<u128>,
        G::Position: Send,
    {
        let (universe, threading) = mpi::initialize_with_threading(Threading::Multiple)
            .ok_or_else(|| anyhow!("MPI could not be initialised (already initialised?)"))?;
        let world = universe.world();
        if world.size() < 2 {
            anyhow::bail!(
                "--mpi needs at least 2 ranks (rank 0 coordinates, the others search): run it as `mpirun -np 3 games-cli …`"
            );
        }
        if world.rank() == 0 {
            if threading != Threading::Multiple && spec.args.split.share_work != Some(0) {
                eprintln!(
                    "split: the MPI library does not give MPI_THREAD_MULTIPLE: the workers share no entries (--share-work)"
                );
            }
            // The manager never searches: its engine holds no table (allocated at a first
            // use, never made here; freed if something used it).
            engine.release_table();
            match manage(&world, engine, pos, spec, options) {
                Ok((solved, hung)) => {
                    if !hung.is_empty() {
                        let ranks: Vec<String> = hung.iter().map(ToString::to_string).collect();
                        eprintln!(
                            "split: rank {} did not stop (hung?); the run ends with MPI_Abort once the answer is printed",
                            ranks.join(", ")
                        );
                        HUNG.with(|h| *h.borrow_mut() = Some(universe));
                    }
                    Ok(solved)
                }
                Err(e) => {
                    eprintln!("games-cli: {e:#}");
                    world.abort(2)
                }
            }
        } else {
            let identity = StoreIdentity::of(&spec.identity, engine.game(), options.depth);
            // A worker's sender thread needs MPI_THREAD_MULTIPLE.
            let share_work = spec.args.split.share_work.unwrap_or(crate::options::DEFAULT_SHARE_WORK);
            let share_work = if threading == Threading::Multiple { share_work } else { 0 };
            let path_plies =
                spec.args.split.path_plies.map_or(engine.options().peer_defer_plies, |p| p as usize);
            work(&world, engine, pos, options, &identity, share_work, path_plies);
            Err(PartDone(String::new()).into())
        }
    }

    fn manage<G: Game + Clone + Send>(
        world: &SimpleCommunicator,
        engine: &mut Engine<G>,
        pos: &G::Position,
        spec: &RootSolve<'_, G>,
        options: SplitOptions,
    ) -> Result<(Solved<G::Move>, Vec<Rank>)>
    where
        G::Key: Into<u128>,
    {
        let dir = spec.args.split.store.as_deref().expect("--mpi requires --store");
        let identity = StoreIdentity::of(&spec.identity, engine.game(), options.depth);
        let (mut store, records) = Store::open(dir, &identity, Some("main.rec"))?;
        let mut split = Split::new(engine.game().clone(), pos, options);
        apply_records(&store, &mut split, &records)?;
        // Every worker proves that it builds the same split before it is given a job.
        let ours = description(&split, &identity);
        for w in 1..world.size() {
            world.process_at_rank(w).send(&pack(HELLO, &ours)[..]);
        }
        let mut refused = Vec::new();
        for w in 1..world.size() {
            let (_, m) = wait(world, Some(w));
            match m.first() {
                Some(&AGREE) => {}
                Some(&REFUSE) => refused.push(format!("rank {w} solves {:?}", unpack(&m))),
                _ => refused.push(format!("rank {w} answered {m:?}")),
            }
        }
        if !refused.is_empty() {
            anyhow::bail!(
                "the ranks do not solve the same thing: {}, but rank 0 (the coordinator, which writes the store) solves {ours:?}; refused before any job (give every rank the same game, board, root, --rules and --split-depth)",
                refused.join("; ")
            );
        }
        let from_store = split.is_finished();
        eprintln!(
            "split: depth {}, {} frontier jobs (folded by key), {} records read from {}; {} worker ranks",
            options.depth,
            split.frontier_len(),
            records.len(),
            dir.display(),
            world.size() - 1
        );
        let deadline = spec.args.time_limit.map(|t| Instant::now() + t);
        let mut reporter = Reporter::new(spec.bounds_text);
        let mut idle: Vec<Rank> = (1..world.size()).rev().collect();
        let mut run_nodes = 0u64;
        let out_of_time = || deadline.is_some_and(|d| Instant::now() >= d);
        let send = |r: Rank, code: i64, (leaf, threshold): JobId| {
            world.process_at_rank(r).send(&[code, i64::from(leaf), threshold][..]);
        };
        // A worker's answer to the job it holds. The first result of a job is recorded, its
        // other copies and the jobs it made unnecessary cancelled (unless the workers are
        // stopping); a later result of the same job is a duplicate, ignored; a job dropped by
        // its last holder goes back to be handed out again. Gives the job's nodes.
        // Jobs dropped unfinished (cancelled: another result made them unnecessary) or
        // answered twice, and their nodes: the work done in vain.
        let mut in_vain = (0u64, 0u64);
        let mut answer = |w: Rank,
                          m: Vec<i64>,
                          split: &mut Split<G>,
                          handouts: &mut Handouts,
                          stopping: bool|
         -> Result<u64> {
            let Some(id) = handouts.job_of(w).filter(|_| m.len() == 5) else {
                anyhow::bail!("rank {w} sent an unexpected message {m:?}");
            };
            if m[1] != i64::from(id.0) || m[2] != id.1 {
                anyhow::bail!("rank {w} answered another job than its own: {m:?}");
            }
            let result = match m[0] {
                RESULT => true,
                DROPPED => false,
                _ => anyhow::bail!("rank {w} sent an unexpected message {m:?}"),
            };
            let job_nodes = u64::try_from(m[4]).unwrap_or(0);
            let Some(taken) = handouts.take(w, Instant::now(), result) else {
                anyhow::bail!("rank {w} answered without a job");
            };
            if !result || taken.duplicate {
                in_vain.0 += 1;
                in_vain.1 += job_nodes;
            }
            if result && !taken.duplicate {
                let rec = split.finish(id, m[3], job_nodes).map_err(|e| store.explain(&records, &e))?;
                store.append(&rec)?;
                if taken.took >= LONG_JOB {
                    eprintln!("split: {}", job_line(&rec, id.0, taken.took));
                }
                let mut gone = split.cancelled();
                gone.insert(0, id);
                for job in gone.into_iter().filter(|_| !stopping) {
                    handouts.unwanted(job);
                    for r in handouts.holders(job) {
                        send(r, CANCEL, job);
                    }
                }
            } else if !result && !taken.duplicate && !taken.still_held {
                split.abandon(id);
            }
            Ok(job_nodes)
        };
        let mut handouts = Handouts::new(spec.args.split.job_timeout);
        'jobs: loop {
            let now = Instant::now();
            while let Some(&w) = idle.last() {
                let job = match spec.args.split.job_order {
                    JobOrder::EldestFirst => split.next_job_eldest_first(),
                    JobOrder::Any => split.next_job(),
                };
                let Some(job) = job else { break };
                send(w, JOB, (job.leaf, job.threshold));
                handouts.give(w, (job.leaf, job.threshold), now);
                idle.pop();
            }
            // A job unanswered for longer than the bound goes to an idle worker as well: its
            // worker may hang without dying. It stays busy; whichever answer comes first counts.
            while let Some(&w) = idle.last() {
                let Some(job) = handouts.overdue(now) else { break };
                let ranks: Vec<String> = handouts.holders(job).iter().map(ToString::to_string).collect();
                eprintln!(
                    "split: job {} (threshold {}) not answered by rank {} within {:.1} s: handed to rank {w} as well",
                    job.0,
                    job.1,
                    ranks.join(", "),
                    handouts.bound().as_secs_f64()
                );
                send(w, JOB, job);
                handouts.give(w, job, now);
                idle.pop();
            }
            // A proven answer is given at once, whatever the workers still hold.
            if handouts.is_empty() || out_of_time() || split.is_finished() {
                break;
            }
            // Wait for a worker, with a progress line every few seconds meanwhile (the nodes
            // of the jobs finished so far); the time limit ends the wait, a late job with an
            // idle worker to take it too interrupts it.
            let (w, m) = loop {
                if let Some(m) = poll(world, None) {
                    break m;
                }
                if out_of_time() {
                    break 'jobs;
                }
                if !idle.is_empty() && handouts.overdue(Instant::now()).is_some() {
                    continue 'jobs;
                }
                if reporter.is_due() {
                    reporter.report(|| split.progress(), run_nodes, false);
                }
                std::thread::sleep(POLL);
            };
            run_nodes += answer(w, m, &mut split, &mut handouts, false)?;
            idle.push(w);
            reporter.report(|| split.progress(), run_nodes, false);
        }
        // Every worker stops and says so; a busy one first answers its job once more (its
        // result if it finished meanwhile, else dropped), so that no result already found is
        // lost. A rank that has not said so after STOP_GRACE, holding no job or a late one, or
        // after STOP_WAIT, hangs: it is not waited for.
        for w in 1..world.size() {
            world.process_at_rank(w).send(&[STOP, 0, 0][..]);
        }
        let stopped_at = Instant::now();
        let mut running: HashSet<Rank> = (1..world.size()).collect();
        let mut traffic = Traffic::default();
        while !running.is_empty() {
            if let Some((w, m)) = poll(world, None) {
                if m.first() == Some(&BYE) {
                    running.remove(&w);
                    traffic.add(&m);
                } else {
                    run_nodes += answer(w, m, &mut split, &mut handouts, true)?;
                }
                continue;
            }
            let now = Instant::now();
            let late = handouts.late(now);
            let waited = now.saturating_duration_since(stopped_at);
            let waited_for = running.iter().any(|r| handouts.job_of(*r).is_some() && !late.contains(r));
            if waited >= STOP_WAIT || (waited >= STOP_GRACE && !waited_for) {
                break;
            }
            std::thread::sleep(POLL);
        }
        let mut hung: Vec<Rank> = running.into_iter().collect();
        hung.sort_unstable();
        // The workers that said they stopped send nothing more: they may end.
        for w in (1..world.size()).filter(|w| !hung.contains(w)) {
            world.process_at_rank(w).send(&[FINISH, 0, 0][..]);
        }
        eprintln!("split: {}", traffic.text(world.size() - 1));
        eprintln!("split: {} jobs dropped unfinished or answered twice, {} nodes", in_vain.0, in_vain.1);
        reporter.report(|| split.progress(), run_nodes, true);
        let result = root_result(&split, pos);
        let known_pv = crate::store::store_pv(&split);
        let stats = search_core::Stats { nodes: run_nodes, ..search_core::Stats::default() };
        // Only the time limit stops a run under MPI (no node budget); a run that ends
        // unfinished before it has no job left, which is said as such.
        let stop = match result.finished {
            true => None,
            false if out_of_time() => Some(crate::outcome::Stop::TimeLimit),
            false => return Err(crate::store::no_job_left(&split, dir)),
        };
        Ok((Solved { result, stop, stats, from_checkpoint: from_store, known_pv }, hung))
    }

    /// What the workers said when they stopped ([`BYE`] messages): their nodes and TT misses,
    /// and what they sent each other.
    #[derive(Default)]
    struct Traffic {
        /// Nodes of each worker that said it stopped.
        nodes: Vec<u64>,
        /// TT look-ups that found no entry, of each worker that said it stopped.
        misses: Vec<u64>,
        messages: u64,
        bytes: u64,
        sent: u64,
        received: u64,
        dropped: u64,
    }

    impl Traffic {
        /// Adds a worker's `[BYE, nodes, messages, bytes, sent, received, dropped, misses]`.
        fn add(&mut self, m: &[i64]) {
            let word = |i: usize| m.get(i).and_then(|&w| u64::try_from(w).ok()).unwrap_or(0);
            self.nodes.push(word(1));
            self.misses.push(word(7));
            self.messages += word(2);
            self.bytes += word(3);
            self.sent += word(4);
            self.received += word(5);
            self.dropped += word(6);
        }

        /// The line the manager prints: `workers W (S stopped): nodes N in all, at most L on
        /// one; shared: E entries sent, R received, D dropped, M messages, B bytes; TT misses X
        /// in all, at most Y on one`.
        fn text(&self, workers: i32) -> String {
            format!(
                "workers {workers} ({} stopped): nodes {} in all, at most {} on one; shared: {} entries sent, {} received, {} dropped, {} messages, {} bytes; TT misses {} in all, at most {} on one",
                self.nodes.len(),
                self.nodes.iter().sum::<u64>(),
                self.nodes.iter().max().copied().unwrap_or(0),
                self.sent,
                self.received,
                self.dropped,
                self.messages,
                self.bytes,
                self.misses.iter().sum::<u64>(),
                self.misses.iter().max().copied().unwrap_or(0),
            )
        }
    }

    /// A worker's traffic besides its jobs: the entries it sends the other workers (through
    /// its sender thread) and those it receives from them (given to its engine's exchange).
    struct Peers<'w, K, M> {
        world: &'w SimpleCommunicator,
        exchange: Option<Arc<Exchange<K, M>>>,
        /// Batches of entries for the sender thread; `None` once it is told to end.
        queue: Option<SyncSender<Vec<i64>>>,
        /// Entries proven while the sender thread's queue was full, sent with the next batch.
        backlog: Vec<TtEntry<K, M>>,
        sender: Option<std::thread::JoinHandle<()>>,
        /// Raised when the run stops: the sender thread drops the batches it still holds.
        ending: Arc<AtomicBool>,
        /// Messages and bytes the sender thread has sent.
        messages: Arc<AtomicU64>,
        bytes: Arc<AtomicU64>,
        /// Entries handed to the sender thread (each for every other worker), dropped
        /// because its queue was full, and received.
        sent: u64,
        dropped: u64,
        received: u64,
    }

    impl<K: TtKey, M: PackedMove> Peers<'_, K, M> {
        /// The next message from the manager, if one has arrived; entries from other workers
        /// that arrived meanwhile go to the exchange.
        fn poll_manager(&mut self) -> Option<Vec<i64>> {
            while let Some((r, m)) = poll(self.world, None) {
                if r == 0 {
                    return Some(m);
                }
                self.receive(r, &m);
            }
            None
        }

        /// The next message from the manager, waiting for it; `idle` runs after each poll
        /// (the worker's engine stores the entries received meanwhile, so that they do not
        /// pile up while it has no job).
        fn wait_manager(&mut self, mut idle: impl FnMut()) -> Vec<i64> {
            loop {
                if let Some(m) = self.poll_manager() {
                    return m;
                }
                idle();
                std::thread::sleep(POLL);
            }
        }

        /// A message from worker `r`: entries it proved, for the exchange.
        fn receive(&mut self, r: Rank, m: &[i64]) {
            let entries = match m.split_first() {
                Some((&SHARE, rest)) => decode_entries::<K, M>(rest),
                Some((&PATH, rest)) => {
                    if let Some(x) = &self.exchange {
                        let keys: Vec<u64> = rest.iter().map(|&w| w as u64).collect();
                        x.set_peer_path(r as u64, &keys);
                    }
                    return;
                }
                _ => None,
            };
            match (entries, &self.exchange) {
                (Some(entries), Some(x)) => {
                    self.received += entries.len() as u64;
                    x.give(entries);
                }
                (Some(_), None) => {}
                (None, _) => eprintln!(
                    "games-cli: rank {}: a message from rank {r} that is no list of entries ({} words): ignored",
                    self.world.rank(),
                    m.len()
                ),
            }
        }

        /// Hands the entries the engine proved since the last call, with those still waiting,
        /// to the sender thread, for every other worker. While its queue is full they wait,
        /// gathered into one batch; past [`MAX_BACKLOG`] entries the oldest are dropped (a
        /// worker that receives nothing, hung, holds the sends up: sharing is an economy,
        /// never needed for an answer).
        fn share(&mut self) {
            let (Some(x), Some(queue)) = (&self.exchange, &self.queue) else { return };
            if let Some(path) = x.take_path() {
                let mut words = vec![PATH];
                words.extend(path.iter().map(|&k| k as i64));
                let _ = queue.try_send(words);
            }
            self.backlog.extend(x.take_proven());
            if self.backlog.len() > MAX_BACKLOG {
                let over = self.backlog.len() - MAX_BACKLOG;
                self.backlog.drain(..over);
                self.dropped += over as u64;
            }
            if self.backlog.is_empty() {
                return;
            }
            let mut words = vec![SHARE];
            words.extend(encode_entries(&self.backlog));
            if queue.try_send(words).is_ok() {
                self.sent += self.backlog.len() as u64;
                self.backlog.clear();
            }
        }

        /// Before this worker says it stopped: no more sharing; the sender thread drops the
        /// batches it holds and finishes the one it is sending, while this rank receives what
        /// the others still send it, for at most
        /// [`STOP_GRACE`] (a hung worker can hold its sends up; the run then ends with
        /// `MPI_Abort` anyway).
        fn end_sharing(&mut self) {
            self.ending.store(true, Ordering::Relaxed);
            self.queue = None;
            let start = Instant::now();
            while self.sender.as_ref().is_some_and(|t| !t.is_finished()) && start.elapsed() < STOP_GRACE {
                if self.poll_manager().is_none() {
                    std::thread::sleep(POLL);
                }
            }
            if let Some(t) = self.sender.take().filter(std::thread::JoinHandle::is_finished) {
                let _ = t.join();
            }
        }

        /// After this worker said it stopped: receives (and drops) what other workers still
        /// send it, so that none waits on a send to it, until the manager says every worker
        /// has stopped.
        fn wait_finish(&mut self) {
            loop {
                match poll(self.world, None) {
                    Some((0, m)) if m.first() == Some(&FINISH) => return,
                    Some(_) => {}
                    None => std::thread::sleep(POLL),
                }
            }
        }
    }

    /// The sender thread of a worker: sends every batch of `queue` to every other worker
    /// (the MPI library runs with `MPI_THREAD_MULTIPLE`), counting messages and bytes, until
    /// the queue is closed; once `ending` is raised it drops the batches left.
    fn start_sender(
        queue: Receiver<Vec<i64>>,
        ending: Arc<AtomicBool>,
        messages: Arc<AtomicU64>,
        bytes: Arc<AtomicU64>,
    ) -> Option<std::thread::JoinHandle<()>> {
        let run = move || {
            let world = SimpleCommunicator::world();
            let me = world.rank();
            let peers: Vec<Rank> = (1..world.size()).filter(|&r| r != me).collect();
            for words in queue {
                if ending.load(Ordering::Relaxed) {
                    continue;
                }
                // To every peer at once: a batch takes as long as the slowest receiver, not
                // the sum of all.
                mpi::request::multiple_scope(peers.len(), |scope, requests| {
                    for &r in &peers {
                        requests.add(world.process_at_rank(r).immediate_send(scope, &words[..]));
                    }
                    // Polled with short sleeps: MPI_Waitall spins, and would take a core from
                    // the searches while a receiver is slow to take the batch.
                    let mut done = Vec::new();
                    while !requests.test_all(&mut done) {
                        std::thread::sleep(POLL);
                    }
                });
                messages.fetch_add(peers.len() as u64, Ordering::Relaxed);
                bytes.fetch_add(8 * (words.len() * peers.len()) as u64, Ordering::Relaxed);
            }
        };
        std::thread::Builder::new().name("mpi-share".into()).spawn(run).ok()
    }

    #[allow(clippy::too_many_lines)]
    fn work<G: Game + Clone + Send>(
        world: &SimpleCommunicator,
        engine: &mut Engine<G>,
        pos: &G::Position,
        options: SplitOptions,
        identity: &StoreIdentity,
        share_work: u32,
        path_plies: usize,
    ) where
        G::Key: Into<u128>,
        G::Position: Send,
    {
        // The table's allocation (seconds for gigabytes) before the worker agrees to search,
        // so that the manager's clock starts with the workers ready.
        engine.allocate_table();
        let split = Split::new(engine.game().clone(), pos, options);
        let ours = description(&split, identity);
        // One worker has no one to share with.
        let exchange = (share_work > 0 && world.size() > 2)
            .then(|| Arc::new(Exchange::new(share_work).with_defer_plies(path_plies)));
        let (messages, bytes) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
        let ending = Arc::new(AtomicBool::new(false));
        let (queue, sender) = match exchange {
            Some(_) => {
                let (queue, batches) = sync_channel(SHARE_QUEUE);
                (Some(queue), start_sender(batches, ending.clone(), messages.clone(), bytes.clone()))
            }
            None => (None, None),
        };
        // No sender thread (the system refused one): no sharing.
        let exchange = exchange.filter(|_| sender.is_some());
        engine.set_exchange(exchange.clone());
        let mut peers = Peers {
            world,
            exchange,
            queue,
            backlog: Vec::new(),
            sender,
            ending,
            messages,
            bytes,
            sent: 0,
            dropped: 0,
            received: 0,
        };
        loop {
            let m = peers.wait_manager(|| engine.store_given());
            match m.first() {
                Some(&HELLO) if unpack(&m) == ours => {
                    world.process_at_rank(0).send(&[AGREE][..]);
                    break;
                }
                Some(&HELLO) => {
                    eprintln!(
                        "games-cli: rank {}: refused: this rank solves {ours:?}, rank 0 solves {:?}",
                        world.rank(),
                        unpack(&m)
                    );
                    world.process_at_rank(0).send(&pack(REFUSE, &ours)[..]);
                }
                Some(&STOP) => return,
                _ => {}
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        engine.set_limits(Limits { stop: Some(stop.clone()), ..Limits::default() });
        // What this worker says when it stops: its nodes, the messages and bytes it sent the
        // other workers, the entries it sent and received, its TT misses.
        let bye = |engine: &Engine<G>, peers: &mut Peers<'_, G::Key, G::Move>| {
            peers.end_sharing();
            let n = |x: u64| i64::try_from(x).unwrap_or(i64::MAX);
            let stats = engine.stats();
            [
                BYE,
                n(stats.nodes),
                n(peers.messages.load(Ordering::Relaxed)),
                n(peers.bytes.load(Ordering::Relaxed)),
                n(peers.sent),
                n(peers.received),
                // Dropped unsent (a full backlog) or received and dropped unstored.
                n(peers.dropped + peers.exchange.as_ref().map_or(0, |x| x.dropped())),
                n(stats.tt_probes - stats.tt_hits),
            ]
        };
        loop {
            let m = peers.wait_manager(|| engine.store_given());
            match m.first() {
                Some(&JOB) if m.len() == 3 => {}
                Some(&STOP) => {
                    world.process_at_rank(0).send(&bye(engine, &mut peers)[..]);
                    peers.wait_finish();
                    return;
                }
                _ => continue, // a cancel for a job already answered
            }
            let Some(leaf) = u32::try_from(m[1]).ok().filter(|&l| (l as usize) < split.frontier_len()) else {
                eprintln!("games-cli: rank {}: no frontier position {}", world.rank(), m[1]);
                world.abort(2);
            };
            let (job_pos, _) = split.leaf(leaf);
            let t = m[2];
            stop.store(false, Ordering::Relaxed);
            let before = engine.stats().nodes;
            let mut stop_after = false;
            let result = std::thread::scope(|s| {
                let search = s.spawn(|| engine.try_search(&job_pos, t, t + 1));
                let mut shared_at = Instant::now();
                while !search.is_finished() {
                    if shared_at.elapsed() >= SHARE_EVERY {
                        peers.share();
                        shared_at = Instant::now();
                    }
                    match peers.poll_manager() {
                        Some(c) if c.first() == Some(&CANCEL) && c.get(1..3) == Some(&[m[1], t][..]) => {
                            stop.store(true, Ordering::Relaxed);
                        }
                        Some(c) if c.first() == Some(&STOP) => {
                            stop.store(true, Ordering::Relaxed);
                            stop_after = true;
                        }
                        Some(_) => {}
                        None => std::thread::sleep(POLL),
                    }
                }
                search.join().expect("the search thread does not panic")
            });
            // What the job proved goes out before its answer (not once the run stops: the
            // other workers may have ended).
            if !stop_after {
                peers.share();
            }
            let nodes = i64::try_from(engine.stats().nodes - before).unwrap_or(i64::MAX);
            let reply = match result {
                Ok(v) => [RESULT, m[1], t, v, nodes],
                Err(_) => [DROPPED, m[1], t, 0, nodes],
            };
            // Told to stop mid-job: the answer still goes back (the manager waits for it), then
            // the worker is done.
            world.process_at_rank(0).send(&reply[..]);
            if stop_after {
                world.process_at_rank(0).send(&bye(engine, &mut peers)[..]);
                peers.wait_finish();
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: fn(u64) -> Duration = Duration::from_secs;

    #[test]
    fn the_bound_is_the_option_or_a_multiple_of_the_longest_job_with_a_floor() {
        assert_eq!(job_bound(None, Duration::ZERO), JOB_BOUND_FLOOR);
        assert_eq!(job_bound(None, Duration::from_millis(300)), JOB_BOUND_FLOOR);
        assert_eq!(job_bound(None, S(2)), S(8));
        assert_eq!(job_bound(None, S(3600)), S(4 * 3600));
        assert_eq!(job_bound(Some(Duration::from_millis(500)), S(3600)), Duration::from_millis(500));
        assert_eq!(job_bound(None, Duration::MAX), Duration::MAX);
    }

    #[test]
    fn a_late_job_is_handed_out_again_and_its_first_result_counts() {
        let t0 = Instant::now();
        let mut h = Handouts::new(None);
        h.give(1, (7, 0), t0);
        h.give(2, (8, 0), t0);
        assert_eq!(h.overdue(t0 + S(5)), None, "not later than the floor");
        // Rank 2 answers after 2 s: the bound becomes 8 s.
        let t = h.take(2, t0 + S(2), true).unwrap();
        assert_eq!(t, Taken { took: S(2), duplicate: false, still_held: false });
        assert_eq!(h.bound(), S(8));
        assert_eq!(h.overdue(t0 + S(8)), None);
        assert_eq!(h.overdue(t0 + S(9)), Some((7, 0)));
        assert_eq!(h.late(t0 + S(9)), vec![1]);
        // Handed to rank 3 as well: no longer overdue until the bound passes again.
        h.give(3, (7, 0), t0 + S(9));
        assert_eq!(h.holders((7, 0)), vec![1, 3]);
        assert_eq!(h.overdue(t0 + S(10)), None);
        assert_eq!(h.late(t0 + S(10)), vec![1]);
        // Rank 3 answers first; rank 1's copy is no longer wanted, its late result a duplicate.
        let t = h.take(3, t0 + S(10), true).unwrap();
        assert_eq!(t, Taken { took: S(1), duplicate: false, still_held: true });
        h.unwanted((7, 0));
        assert_eq!(h.overdue(t0 + S(100)), None, "an answered job is not handed out again");
        let t = h.take(1, t0 + S(600), true).unwrap();
        assert!(t.duplicate && !t.still_held);
        assert_eq!(h.bound(), S(8), "a duplicate does not stretch the bound");
        assert!(h.is_empty());
        assert_eq!(h.take(1, t0 + S(600), true), None);
    }

    #[test]
    fn a_copy_dropped_while_another_runs_keeps_the_job_held() {
        let t0 = Instant::now();
        let mut h = Handouts::new(Some(S(1)));
        h.give(1, (3, -2), t0);
        h.give(2, (3, -2), t0 + S(2));
        let t = h.take(1, t0 + S(3), false).unwrap();
        assert_eq!(t, Taken { took: S(3), duplicate: false, still_held: true });
        let t = h.take(2, t0 + S(4), false).unwrap();
        assert_eq!(t, Taken { took: S(2), duplicate: false, still_held: false });
        assert_eq!(h.bound(), S(1), "a dropped job does not stretch the bound");
    }

    #[test]
    fn a_cancelled_job_is_not_handed_out_again() {
        let t0 = Instant::now();
        let mut h = Handouts::new(Some(S(1)));
        h.give(1, (3, 0), t0);
        h.give(2, (4, 0), t0 + S(1));
        h.unwanted((3, 0));
        assert_eq!(h.overdue(t0 + S(10)), Some((4, 0)));
        assert_eq!(h.late(t0 + S(10)), vec![1, 2]);
    }
}
