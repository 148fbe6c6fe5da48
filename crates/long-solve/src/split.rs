//! Distributed solves, written once for every long-solve game: the [`split_solve`] coordinator
//! over the durable store ([`crate::store`], `--store DIR`), run in this process, as one slice
//! of a job array (`--shard I/N`), or under MPI (`--mpi`, the cargo feature `mpi`: rank 0
//! coordinates, the other ranks search, see [`crate::mpi`]); and the commands that size a split
//! without solving it (`--count-frontier`, `--sample-jobs`) or check a store (`--recheck`).
//!
//! A run reads every file of the store first: a file of another solve is refused, a damaged
//! record is skipped with a warning naming the file and the record (its job is solved again),
//! and a record cut short at the end of this run's own file (a crash in the middle of a write)
//! is cut off before appending. The one-process coordinator also keeps a TT snapshot there
//! ([`crate::store::SNAPSHOT_NAME`]), saved every `--save-every` while a job is searched.
//!
//! Shards of one round run at the same time and see each other only through the store: before
//! each job a shard reads the records the others appended meanwhile (a job they made
//! unnecessary is skipped) and their proven TT entries ([`crate::entries`], `--share-work`),
//! and after each job it appends its own entries; a run without `--shard` (the merge) reads
//! every shard's entries first.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use search_core::{Engine, Exchange, Game, Limits, Value};
use split_solve::{Record, Split, SplitOptions};

use crate::entries::{self, encode_entries, EntryFiles};
use crate::options::{ShardRound, DEFAULT_SHARE_WORK_FILES};
use crate::outcome::{PartDone, RootSolve, Solved, Stop};
use crate::snapshot::{load_snapshot, save_snapshot, snapshot_identity};
use crate::store::{
    apply_records, job_line, root_result, store_pv, Reporter, Store, StoreIdentity, LONG_JOB, SNAPSHOT_NAME,
};

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
    let identity = StoreIdentity::of(&spec.identity, engine.game(), args.split_depth);
    let (_, records) = Store::open(dir, &identity, None)?;
    let records: Vec<Record> = records.iter().map(|r| r.record).collect();
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
        return crate::mpi::solve(engine, pos, spec, options);
    }
    let own = match args.shard {
        Some((i, n)) => format!("shard-{i}-of-{n}.rec"),
        None => "main.rec".to_string(),
    };
    let identity = StoreIdentity::of(&spec.identity, engine.game(), options.depth);
    let (mut store, mut records) = Store::open(dir, &identity, Some(&own))?;
    let mut split = Split::new(engine.game().clone(), pos, options);
    apply_records(&store, &mut split, &records)?;
    // Proven TT entries shared through the store: a shard writes its own file and reads the
    // others' as it goes; a run without --shard reads them all first.
    let share_work = args.share_work.unwrap_or(DEFAULT_SHARE_WORK_FILES);
    let mut entry_files = match args.shard {
        Some((i, n)) if share_work > 0 => {
            Some(EntryFiles::open(dir, &identity, &format!("shard-{i}-of-{n}.{}", entries::EXTENSION))?)
        }
        _ => None,
    };
    let exchange = entry_files.as_ref().map(|_| Arc::new(Exchange::new(share_work)));
    engine.set_exchange(exchange.clone());
    if share_work > 0 && args.shard.is_none() {
        let mut reader = EntryFiles::reader(dir, &identity);
        let given = reader.read_new_entries::<G::Key, G::Move>();
        engine.seed_tt(&given);
        if !given.is_empty() {
            eprintln!("split: {} proven TT entries read from the shards' files", given.len());
        }
    }
    let from_store = split.is_finished();
    if !from_store {
        // The table's allocation (seconds for gigabytes) before the clock starts.
        engine.allocate_table();
    }
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
    let tt_identity = snapshot_identity(&spec.identity, &engine.game().key_scheme());
    if let Some(path) = snapshot.as_ref().filter(|p| p.exists()) {
        load_snapshot(engine, path, &tt_identity, spec.entry_ok)?;
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
                    save_snapshot(engine, path, &tt_identity, spec.args.snapshot_entries)?;
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
                    save_snapshot(engine, path, &tt_identity, spec.args.snapshot_entries)?;
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
            // What the other shards proved meanwhile: their records (a job they made
            // unnecessary is skipped) and their TT entries.
            let new = store.read_new_records();
            for r in &new {
                split
                    .apply(&r.record)
                    .map_err(|e| store.explain(&[records.as_slice(), &new].concat(), &e))?;
            }
            records.extend(new);
            if let (Some(files), Some(x)) = (entry_files.as_mut(), exchange.as_ref()) {
                x.give(files.read_new_entries());
            }
            if !split.is_needed((job.leaf, job.threshold)) {
                skipped += 1;
                continue;
            }
            let (value, nodes) = search(&job)?;
            if let (Some(files), Some(x)) = (entry_files.as_mut(), exchange.as_ref()) {
                let proven = x.take_proven();
                files.append(&encode_entries(&proven), proven.len() as u64)?;
            }
            run_nodes += nodes;
            let value = match value {
                Ok(v) => v,
                Err(s) => {
                    stop = Some(s);
                    break;
                }
            };
            let rec = split
                .finish((job.leaf, job.threshold), value, nodes)
                .map_err(|e| store.explain(&records, &e))?;
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
            let rec = split
                .finish((job.leaf, job.threshold), value, nodes)
                .map_err(|e| store.explain(&records, &e))?;
            store.append(&rec)?;
            reporter.report(|| split.progress(), run_nodes, false);
            if deadline.is_some_and(|d| Instant::now() >= d) {
                stop = Some(Stop::TimeLimit);
                break;
            }
        }
    }
    reporter.report(|| split.progress(), run_nodes, true);
    let stats = engine.stats().since(&stats0);
    eprintln!(
        "split: {} TT look-ups in this run, {} of them misses (no entry: the position expanded)",
        stats.tt_probes,
        stats.tt_probes - stats.tt_hits
    );
    if let Some(message) = part_done {
        return Err(PartDone(message).into());
    }
    let result = root_result(&split, pos);
    // A run that ran out of jobs while a deadline passed is finished, not stopped.
    let stop = if result.finished {
        None
    } else {
        Some(stop.ok_or_else(|| crate::store::no_job_left(&split, dir))?)
    };
    let known_pv = store_pv(&split);
    Ok(Solved { result, stop, stats, from_checkpoint: from_store, known_pv })
}
