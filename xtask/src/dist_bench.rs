//! `cargo xtask dist-bench`: how a distributed solve (`--store --mpi`) scales. One solve, the
//! same split, by one process (the reference: one thread, the whole table memory) and by 1, 2,
//! 4, 8 and 16 MPI workers (each one thread with an equal share of that memory), oversubscribed
//! past the cores with `mpirun --oversubscribe`: there the nodes and the longest chain of work
//! (the most nodes one worker searched) count, not the wall time. Prints one row per run: total
//! nodes and their ratio to the reference, the longest chain and its ratio, the entries,
//! messages and bytes the workers sent each other, the wall time, and the efficiency
//! (reference nodes / (workers x longest chain)); then the search time (the split's own
//! clock, from its first job to the answer: the wall time less the start, whose table
//! allocation varies from run to run) and the most TT misses of one worker (look-ups that
//! found no entry: the positions expanded, which cost more than the nodes a table answers)
//! with its ratio to the reference's. With `--mib-per-worker M` the memory grows
//! with the workers instead, as on a cluster (M MiB a worker), and the reference has the
//! largest run's total, M x the most workers. Needs Open MPI (`mpirun`) and libclang to
//! build games-cli with the cargo feature `mpi` (`scripts/mpi-check.sh` installs them).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context, Result};

/// Arguments of `cargo xtask dist-bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The solve: `dots-and-boxes-4x4` (the empty 4x4 board), `triangle-war-5` (the empty
    /// side-5 board), or `dots-and-boxes-3x4` and `triangle-war-4` (seconds, for a quick look).
    #[arg(long, default_value = "dots-and-boxes-4x4")]
    pub solve: String,
    /// Worker counts to run.
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16")]
    pub workers: Vec<u32>,
    /// Table memory in MiB of the reference process, shared equally by the workers of a run.
    #[arg(long, default_value_t = 1024)]
    pub tt_mib: u32,
    /// Table memory in MiB of each worker, whatever their number (the memory grows with the
    /// workers, as on a cluster); the reference then has the largest run's total, this times
    /// the most workers. Overrides `--tt-mib`.
    #[arg(long)]
    pub mib_per_worker: Option<u32>,
    /// `--split-depth` of every run.
    #[arg(long, default_value_t = 3)]
    pub split_depth: u32,
    /// `--share-work` of the MPI runs (0: the workers share nothing).
    #[arg(long)]
    pub share_work: Option<u32>,
    /// Leave out the one-process reference (ratios are then not printed).
    #[arg(long)]
    pub no_reference: bool,
    /// `--job-order` of the MPI runs (`eldest-first` or `any`; default the
    /// games-cli default).
    #[arg(long)]
    pub job_order: Option<String>,
    /// `--path-plies` of the MPI runs (plies of the workers' paths; 0: none; default the
    /// game's).
    #[arg(long)]
    pub path_plies: Option<u32>,
}

/// The games-cli arguments of a named solve.
fn solve_args(name: &str) -> Result<Vec<&'static str>> {
    Ok(match name {
        "dots-and-boxes-4x4" => vec!["dots-and-boxes", "--size", "4x4", "--empty"],
        "dots-and-boxes-3x4" => vec!["dots-and-boxes", "--size", "3x4", "--empty"],
        "triangle-war-5" => vec!["triangle-war", "--side", "5", "--empty"],
        "triangle-war-4" => vec!["triangle-war", "--side", "4", "--empty"],
        _ => bail!("unknown solve {name:?}: dots-and-boxes-4x4, dots-and-boxes-3x4, triangle-war-5 or triangle-war-4"),
    })
}

/// What one run gave.
struct Run {
    answer: String,
    nodes: u64,
    /// Most nodes of one worker (the reference: all of them).
    chain: u64,
    /// Entries sent, messages, bytes (MPI runs).
    traffic: Option<(u64, u64, u64)>,
    seconds: f64,
    /// The split's own clock at its last progress line (first job to answer).
    search_seconds: f64,
    /// Most TT misses of one worker (the reference: all of them).
    misses_chain: u64,
}

/// The number before `suffix` in `line`, as in `"... 1234 nodes in this run"`.
fn number_before(line: &str, suffix: &str) -> Option<u64> {
    let head = &line[..line.find(suffix)?];
    head.rsplit(' ').find(|w| !w.is_empty())?.parse().ok()
}

/// The number after `prefix` in `line`, as in `"nodes 1234 in all"`.
fn number_after(line: &str, prefix: &str) -> Option<u64> {
    let tail = &line[line.find(prefix)? + prefix.len()..];
    tail.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

/// Runs `cmd` and reads its answer and the split's lines on stderr.
fn run(mut cmd: Command, mpi: bool) -> Result<Run> {
    let start = Instant::now();
    let out = cmd.output().with_context(|| format!("cannot run {cmd:?}"))?;
    let seconds = start.elapsed().as_secs_f64();
    let err = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        bail!("{cmd:?} failed ({}):\n{err}", out.status);
    }
    let mut run = read_stderr(&err, mpi)?;
    run.answer = String::from_utf8_lossy(&out.stdout).trim().to_string();
    run.seconds = seconds;
    Ok(run)
}

/// What a run's standard error `err` says (the answer and the wall time left empty): the
/// split's last progress line, and the one-process run's TT line or an MPI run's workers line.
fn read_stderr(err: &str, mpi: bool) -> Result<Run> {
    let last_progress = err.lines().rfind(|l| l.contains(" nodes in this run"));
    let nodes = last_progress
        .and_then(|l| number_before(l, " nodes in this run"))
        .context("no progress line with the run's nodes on stderr")?;
    let search_seconds = last_progress
        .and_then(|l| l.rsplit("; ").next()?.strip_suffix(" s")?.parse().ok())
        .context("no seconds at the end of the last progress line")?;
    let mut run = Run {
        answer: String::new(),
        nodes,
        chain: nodes,
        traffic: None,
        seconds: 0.0,
        search_seconds,
        misses_chain: 0,
    };
    if !mpi {
        run.misses_chain = err
            .lines()
            .find_map(|l| number_before(l, " of them misses"))
            .context("no line with the run's TT misses on stderr")?;
        return Ok(run);
    }
    let workers =
        err.lines().find(|l| l.starts_with("split: workers ")).context("no workers line on stderr")?;
    let field =
        |prefix: &str| number_after(workers, prefix).with_context(|| format!("no {prefix:?} in {workers:?}"));
    run.chain = number_before(workers, " on one").context("no largest worker")?;
    run.nodes = field("nodes ")?;
    let entries = field("shared: ")?;
    let messages = number_before(workers, " messages").context("no messages")?;
    let bytes = number_before(workers, " bytes").context("no bytes")?;
    run.traffic = Some((entries, messages, bytes));
    let misses = &workers[workers.find("TT misses ").context("no TT misses")?..];
    run.misses_chain = number_before(misses, " on one").context("no largest worker's TT misses")?;
    Ok(run)
}

/// A ratio with two decimals, or `-` without a reference.
fn ratio(x: u64, reference: Option<u64>) -> String {
    reference.map_or_else(|| "-".to_string(), |r| format!("{:.2}", x as f64 / r as f64))
}

/// Builds games-cli with MPI, runs the reference and every worker count, prints the table.
pub fn run_bench(args: &Args) -> Result<()> {
    let solve = solve_args(&args.solve)?;
    let bin = crate::build_games_cli_with(&["mpi"])?;
    let scratch = tempfile::tempdir()?;
    let depth = args.split_depth.to_string();
    let base = |store: &Path, mib: u32| -> Vec<String> {
        let mut a: Vec<String> = solve.iter().map(ToString::to_string).collect();
        a.extend(["--store".into(), store.display().to_string(), "--split-depth".into(), depth.clone()]);
        a.extend(["--threads".into(), "1".into(), "--tt-mib".into(), mib.to_string()]);
        a
    };
    let most_workers = args.workers.iter().copied().max().unwrap_or(1).max(1);
    // (the reference's MiB, a worker's MiB with `w` workers)
    let reference_mib = args.mib_per_worker.map_or(args.tt_mib, |m| m * most_workers);
    let worker_mib = |w: u32| args.mib_per_worker.unwrap_or((args.tt_mib / w).max(1));
    match args.mib_per_worker {
        Some(m) => println!(
            "solve: games-cli {}, --split-depth {depth}, {m} MiB of table a worker, {reference_mib} MiB for the one process",
            solve.join(" ")
        ),
        None => println!(
            "solve: games-cli {}, --split-depth {depth}, {} MiB of tables in all",
            solve.join(" "),
            args.tt_mib
        ),
    }
    println!();
    println!("| workers | nodes | x one | longest chain | x one | efficiency | entries sent | messages | bytes | wall s | search s | most TT misses | x one |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut reference = None;
    let mut reference_misses = None;
    let mut answer = None;
    if !args.no_reference {
        let mut cmd = Command::new(&bin);
        cmd.args(base(&scratch.path().join("one"), reference_mib));
        let r = run(cmd, false)?;
        println!(
            "| one process | {} | 1.00 | {} | 1.00 | 1.00 | - | - | - | {:.1} | {:.1} | {} | 1.00 |",
            r.nodes, r.chain, r.seconds, r.search_seconds, r.misses_chain
        );
        reference = Some(r.nodes);
        reference_misses = Some(r.misses_chain);
        answer = Some(r.answer);
    }
    for &w in &args.workers {
        anyhow::ensure!(w >= 1, "a run needs at least one worker");
        let mut cmd = Command::new("mpirun");
        cmd.env("OMPI_ALLOW_RUN_AS_ROOT", "1").env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        cmd.args(["--oversubscribe", "-np", &(w + 1).to_string()]).arg(&bin);
        cmd.args(base(&scratch.path().join(format!("w{w}")), worker_mib(w)));
        cmd.arg("--mpi");
        if let Some(n) = args.share_work {
            cmd.args(["--share-work", &n.to_string()]);
        }
        if let Some(order) = &args.job_order {
            cmd.args(["--job-order", order]);
        }
        if let Some(p) = args.path_plies {
            cmd.args(["--path-plies", &p.to_string()]);
        }
        let r = run(cmd, true)?;
        if let Some(a) = &answer {
            anyhow::ensure!(&r.answer == a, "{w} workers answered {:?}, one process {a:?}", r.answer);
        }
        answer.get_or_insert(r.answer.clone());
        let (entries, messages, bytes) = r.traffic.unwrap_or_default();
        let efficiency = reference.map_or_else(
            || "-".to_string(),
            |one| format!("{:.2}", one as f64 / (f64::from(w) * r.chain as f64)),
        );
        println!(
            "| {w} | {} | {} | {} | {} | {efficiency} | {entries} | {messages} | {bytes} | {:.1} | {:.1} | {} | {} |",
            r.nodes,
            ratio(r.nodes, reference),
            r.chain,
            ratio(r.chain, reference),
            r.seconds,
            r.search_seconds,
            r.misses_chain,
            ratio(r.misses_chain, reference_misses)
        );
    }
    println!();
    println!("answer (every run): {}", answer.unwrap_or_default());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_numbers_are_read_from_the_lines_games_cli_prints() {
        let progress = "split: jobs 131 done, 0 in flight, 0 left; 6502689 nodes in this run, 4933323 nodes/s; value in [0, 0]; 1.3 s";
        assert_eq!(number_before(progress, " nodes in this run"), Some(6_502_689));
        let workers = "split: workers 2 (2 stopped): nodes 6502689 in all, at most 3295521 on one; shared: 5969 entries sent, 5969 received, 0 dropped, 151 messages, 193424 bytes; TT misses 1012345 in all, at most 523456 on one";
        assert_eq!(number_after(workers, "nodes "), Some(6_502_689));
        assert_eq!(number_before(workers, " on one"), Some(3_295_521));
        assert_eq!(number_after(workers, "shared: "), Some(5969));
        assert_eq!(number_before(workers, " messages"), Some(151));
        assert_eq!(number_before(workers, " bytes"), Some(193_424));
        assert_eq!(number_before("no number here", " bytes"), None);
        let one = format!("{progress}\nsplit: 7000000 TT look-ups in this run, 812345 of them misses (no entry: the position expanded)\n");
        let r = read_stderr(&one, false).unwrap();
        assert_eq!(
            (r.nodes, r.chain, r.misses_chain, r.search_seconds),
            (6_502_689, 6_502_689, 812_345, 1.3)
        );
        let two = format!("{progress}\n{workers}\n");
        let r = read_stderr(&two, true).unwrap();
        assert_eq!((r.nodes, r.chain, r.misses_chain), (6_502_689, 3_295_521, 523_456));
        assert_eq!(r.traffic, Some((5969, 151, 193_424)));
        assert!(read_stderr(progress, false).is_err());
        assert!(read_stderr(&format!("{progress}\n{}", workers.replace("; TT misses", ";")), true).is_err());
    }
}
