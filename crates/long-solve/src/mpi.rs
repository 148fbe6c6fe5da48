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
//! Before the first job every worker proves that it solves what the manager solves: the
//! manager sends its description of the split (the store's identity: game, board options,
//! root, key scheme and split depth; whether first-move values are asked; the frontier's size
//! and a digest of its keys in index order; the record format), and a worker whose own
//! description differs refuses with it; the manager then names both and aborts the run before
//! any job is handed out or any record written (a job travels as its frontier index, so ranks
//! that built other frontiers would answer other questions).
//!
//! Messages are `i64` arrays: manager to worker `[HELLO, bytes, text...]` (the description,
//! eight bytes a word), `[JOB, leaf, threshold]`, `[CANCEL, leaf, threshold]` or `[STOP, 0,
//! 0]`; worker to manager `[AGREE]`, `[REFUSE, bytes, text...]` (its own description),
//! `[RESULT, leaf, threshold, value, nodes]` or `[DROPPED, leaf, threshold, 0, nodes]`. Waiting ranks poll with short sleeps instead of
//! blocking receives, which Open MPI spins on, so that a manager on a core of its own costs
//! almost nothing. MPI aborts the whole run when one rank fails: the store is what lets the
//! relaunch continue.
//!
//! Without the cargo feature `mpi`, `--mpi` is refused with how to build it.

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
pub use with_mpi::solve;

#[cfg(feature = "mpi")]
mod with_mpi {
    use std::collections::HashMap;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use anyhow::{anyhow, Result};
    use mpi::point_to_point::{Destination, MatchedReceiveVec, Source};
    use mpi::topology::{Communicator, Rank, SimpleCommunicator};
    use mpi::Threading;
    use search_core::{Engine, Game, Limits, Value};
    use split_solve::{Split, SplitOptions};

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
    /// How long a waiting rank sleeps between polls.
    const POLL: Duration = Duration::from_millis(1);

    /// The next message from `rank` (any rank if `None`), polling: `(sender, words)`.
    fn wait(world: &SimpleCommunicator, rank: Option<Rank>) -> (Rank, Vec<i64>) {
        loop {
            if let Some(m) = poll(world, rank) {
                return m;
            }
            std::thread::sleep(POLL);
        }
    }

    /// A busy worker's job `(leaf, threshold)` and when it was handed out.
    type Busy = ((u32, Value), Instant);

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
        let (universe, _) = mpi::initialize_with_threading(Threading::Funneled)
            .ok_or_else(|| anyhow!("MPI could not be initialised (already initialised?)"))?;
        let world = universe.world();
        if world.size() < 2 {
            anyhow::bail!(
                "--mpi needs at least 2 ranks (rank 0 coordinates, the others search): run it as `mpirun -np 3 games-cli …`"
            );
        }
        if world.rank() == 0 {
            match manage(&world, engine, pos, spec, options) {
                Ok(solved) => Ok(solved),
                Err(e) => {
                    eprintln!("games-cli: {e:#}");
                    world.abort(2)
                }
            }
        } else {
            let identity = StoreIdentity::of(&spec.identity, engine.game(), options.depth);
            work(&world, engine, pos, options, &identity);
            Err(PartDone(String::new()).into())
        }
    }

    fn manage<G: Game + Clone + Send>(
        world: &SimpleCommunicator,
        engine: &mut Engine<G>,
        pos: &G::Position,
        spec: &RootSolve<'_, G>,
        options: SplitOptions,
    ) -> Result<Solved<G::Move>>
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
        // A worker's answer to the job it was given: recorded (and, unless the workers are
        // stopping, the jobs it made unnecessary cancelled) or, dropped, handed out again
        // later. Gives the job's nodes.
        let mut answer = |w: Rank,
                          m: Vec<i64>,
                          split: &mut Split<G>,
                          busy: &mut HashMap<Rank, Busy>,
                          stopping: bool|
         -> Result<u64> {
            let Some(((leaf, threshold), started)) = busy.remove(&w).filter(|_| m.len() == 5) else {
                anyhow::bail!("rank {w} sent an unexpected message {m:?}");
            };
            if m[1] != i64::from(leaf) || m[2] != threshold {
                anyhow::bail!("rank {w} answered another job than its own: {m:?}");
            }
            let id = (leaf, threshold);
            let job_nodes = u64::try_from(m[4]).unwrap_or(0);
            match m[0] {
                RESULT => {
                    let rec = split.finish(id, m[3], job_nodes).map_err(|e| store.explain(&records, &e))?;
                    store.append(&rec)?;
                    let took: Duration = started.elapsed();
                    if took >= LONG_JOB {
                        eprintln!("split: {}", job_line(&rec, leaf, took));
                    }
                    for gone in split.cancelled().into_iter().filter(|_| !stopping) {
                        if let Some((&r, _)) = busy.iter().find(|(_, &(j, _))| j == gone) {
                            world.process_at_rank(r).send(&[CANCEL, i64::from(gone.0), gone.1][..]);
                        }
                    }
                }
                DROPPED => split.abandon(id),
                _ => anyhow::bail!("rank {w} sent an unexpected message {m:?}"),
            }
            Ok(job_nodes)
        };
        let mut busy: HashMap<Rank, Busy> = HashMap::new();
        'jobs: loop {
            while let Some(&w) = idle.last() {
                let Some(job) = split.next_job() else { break };
                world.process_at_rank(w).send(&[JOB, i64::from(job.leaf), job.threshold][..]);
                busy.insert(w, ((job.leaf, job.threshold), Instant::now()));
                idle.pop();
            }
            if busy.is_empty() || out_of_time() {
                break;
            }
            // Wait for a worker, with a progress line every few seconds meanwhile (the nodes
            // of the jobs finished so far); the time limit ends the wait.
            let (w, m) = loop {
                if let Some(m) = poll(world, None) {
                    break m;
                }
                if out_of_time() {
                    break 'jobs;
                }
                if reporter.is_due() {
                    reporter.report(|| split.progress(), run_nodes, false);
                }
                std::thread::sleep(POLL);
            };
            run_nodes += answer(w, m, &mut split, &mut busy, false)?;
            idle.push(w);
            reporter.report(|| split.progress(), run_nodes, false);
        }
        // Every worker stops; a busy one answers its job once more (its result if it finished
        // meanwhile, else dropped), so that no result already found is lost.
        for w in 1..world.size() {
            world.process_at_rank(w).send(&[STOP, 0, 0][..]);
        }
        while !busy.is_empty() {
            let (w, m) = wait(world, None);
            run_nodes += answer(w, m, &mut split, &mut busy, true)?;
        }
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
        Ok(Solved { result, stop, stats, from_checkpoint: from_store, known_pv })
    }

    fn work<G: Game + Clone + Send>(
        world: &SimpleCommunicator,
        engine: &mut Engine<G>,
        pos: &G::Position,
        options: SplitOptions,
        identity: &StoreIdentity,
    ) where
        G::Key: Into<u128>,
        G::Position: Send,
    {
        let split = Split::new(engine.game().clone(), pos, options);
        let ours = description(&split, identity);
        loop {
            let (_, m) = wait(world, Some(0));
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
        loop {
            let (_, m) = wait(world, Some(0));
            match m.first() {
                Some(&JOB) if m.len() == 3 => {}
                Some(&STOP) => return,
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
                while !search.is_finished() {
                    match poll(world, Some(0)) {
                        Some((_, c)) if c.first() == Some(&CANCEL) && c.get(1..3) == Some(&[m[1], t][..]) => {
                            stop.store(true, Ordering::Relaxed);
                        }
                        Some((_, c)) if c.first() == Some(&STOP) => {
                            stop.store(true, Ordering::Relaxed);
                            stop_after = true;
                        }
                        Some(_) => {}
                        None => std::thread::sleep(POLL),
                    }
                }
                search.join().expect("the search thread does not panic")
            });
            let nodes = i64::try_from(engine.stats().nodes - before).unwrap_or(i64::MAX);
            let reply = match result {
                Ok(v) => [RESULT, m[1], t, v, nodes],
                Err(_) => [DROPPED, m[1], t, 0, nodes],
            };
            // Told to stop mid-job: the answer still goes back (the manager waits for it), then
            // the worker is done.
            world.process_at_rank(0).send(&reply[..]);
            if stop_after {
                return;
            }
        }
    }
}
