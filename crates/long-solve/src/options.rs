//! The long-solve options of a subcommand, as the user gives them on the command line
//! (`--time-limit`, `--checkpoint`, `--store`, `--shard`, `--mpi`, ...): clap argument groups
//! that every searching subcommand of a front end flattens into its own arguments.

use std::path::PathBuf;
use std::time::Duration;

/// The long-solve options of a subcommand, as the user gave them.
#[derive(clap::Args, Debug, Clone)]
#[group(id = "long_files", args = ["checkpoint", "store"], multiple = false)]
pub struct LongSolveArgs {
    /// Stop each search after this many seconds (more than 0, at most 1e9) and print the
    /// bounds proven so far (exit status 3); later cases are still answered.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Keep what has been proven at the root in FILE (rewritten after every step, atomically)
    /// and continue from it when it exists: a killed or time-limited solve resumes where it
    /// stopped. One case per run.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// With --checkpoint: also save the expensive part of the TT (FILE.tt) every this many
    /// seconds (more than 0, at most 1e9; at least one second apart in practice), so that a
    /// resumed solve does not redo an interrupted step's finished subtrees. When standard error
    /// is not a terminal, a progress line is printed there as often. With --store (without
    /// --shard): the same snapshot as DIR/main.tt, saved as often while a job is searched.
    #[arg(long, value_name = "SECONDS", default_value = "300", value_parser = parse_seconds, requires = "long_files")]
    pub save_every: Duration,
    /// At most this many TT entries in the snapshot (FILE.tt, DIR/main.tt), the largest
    /// subtrees first (of at least 4,096 nodes each; about 32 bytes of text and as many of
    /// memory while it is written). More make a resumed solve redo less of the work before it
    /// (the 4x5 dots-and-boxes solve's scratch store keeps 20,000,000, its committed copy
    /// 200,000).
    #[arg(long, value_name = "N", default_value_t = 200_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000), requires = "long_files")]
    pub snapshot_entries: u64,
    /// `--store`, `--shard`, `--split-depth`, `--node-budget`, `--mpi`: a distributed solve.
    #[command(flatten)]
    pub split: SplitArgs,
}

impl LongSolveArgs {
    /// Whether the root driver is asked for (a time limit or a checkpoint).
    pub fn is_set(&self) -> bool {
        self.time_limit.is_some() || self.one_case()
    }

    /// Whether a file or store belongs to the run's one case (`--checkpoint`, `--store`).
    pub fn one_case(&self) -> bool {
        self.checkpoint.is_some()
            || self.split.store.is_some()
            || self.split.count_frontier.is_some()
            || self.split.sample_jobs.is_some()
    }
}

/// `--share-work`'s default under `--mpi`: every entry a worker stores goes to the other
/// workers, whatever their number (a TT miss of one worker is then never one of the others'
/// too, once the entry has arrived). On a 2-core x86-64 VM (`cargo xtask dist-bench
/// --share-work N`): two workers of 4 GiB on the empty side-5 Triangle War against one process
/// of 8 GiB, 1+ 1.08x the nodes, 0.58x the longest worker's TT misses and 0.62x the search
/// time, against 1.14x, 0.68x and 0.66x with 4+ (2+ 0.65x the misses); eight workers of
/// 512 MiB on the empty 4x4 dots-and-boxes against one process of 8 GiB, 1+ 1.06x the nodes
/// against 1.16x with 4+, sixteen 1.08x against 1.19x. Smaller subtrees send more bytes (every
/// entry goes to every other worker: 15.7 GB against 9.47 GB at eight of 512 MiB), and crowd
/// small tables: sixteen workers of 64 MiB (1 GiB in all) search 5.14x the nodes of one
/// process of 1 GiB sharing every entry, 4.65x sharing 4+.
pub const DEFAULT_SHARE_WORK: u32 = 1;

/// `--share-work`'s default for the runs that share entries through the store's files
/// (`--shard`): fewer, larger subtrees, since every entry is written to a file.
pub const DEFAULT_SHARE_WORK_FILES: u32 = 1024;

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
    /// With --mpi: a job not answered within this many seconds of being handed out (more than
    /// 0, at most 1e9) is handed to an idle worker as well, so that a worker that hangs without
    /// dying does not hold the solve up; the first answer counts, a later one is ignored. By
    /// default 4 times the longest job answered so far, at least 5 seconds.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, requires = "mpi")]
    pub job_timeout: Option<Duration>,
    /// With --store: share the proven TT entries of subtrees of at least N nodes between the
    /// runs that search the store's jobs, so that a subtree one proved is not searched again by
    /// another: under --mpi every worker sends them to the others (default 1: every entry); a --shard run
    /// appends them to its file `DIR/shard-I-of-N.ent` and reads the other shards' files as it
    /// goes, and a run without --shard reads them all first (default 1024). 0: share nothing.
    #[arg(long, value_name = "N", requires = "store")]
    pub share_work: Option<u32>,
    /// With --mpi and sharing: plies below a job's root within which the workers tell each
    /// other the positions on their search paths and put off a move into a position on another
    /// worker's path until their other moves are searched, so that its result may arrive first
    /// (0: no paths). By default the game's (8 for dots-and-boxes, none for Triangle War, 16
    /// for the others).
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(0..=64), requires = "mpi")]
    pub path_plies: Option<u32>,
    /// With --mpi: which jobs go to idle workers. `eldest-first`: below a node none of whose
    /// moves is answered yet, only its first move (it may answer the node alone; the others
    /// wait for it, as in YBWC). `any`: every job the questions need, at once (more jobs
    /// searched in vain, fewer idle workers).
    #[arg(long, value_enum, default_value_t = JobOrder::EldestFirst, requires = "mpi")]
    pub job_order: JobOrder,
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

/// Which jobs an MPI manager hands to idle workers (`--job-order`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobOrder {
    // Plain text: clap prints these doc comments as the values' help.
    /// Young brothers wait for the eldest (split-solve's `Split::next_job_eldest_first`)
    EldestFirst,
    /// Every job the questions need (split-solve's `Split::next_job`)
    Any,
}

/// Reads `I/N` with `0 <= I < N` (a shard of a job array: the `I`-th of `N` slices).
///
/// # Errors
/// A message naming the text when it is not two whole numbers `I/N` with `I < N`.
pub fn parse_shard(text: &str) -> std::result::Result<(u32, u32), String> {
    let bad = || format!("expected I/N with whole numbers 0 <= I < N (e.g. 0/4), found {text:?}");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (u32, u32) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// Largest number of seconds a time option accepts (`--time-limit`, `--save-every`, and the
/// front ends' own, e.g. `serve --time-budget`): 1e9 s, about 31 years. Larger values, like
/// `inf`, are refused.
pub const MAX_SECONDS: f64 = 1e9;

/// clap's value parser of every option that takes seconds: a decimal number greater than 0 and
/// at most [`MAX_SECONDS`]; `-1`, `0`, `NaN`, `inf` and `1e20` are refused with a message that
/// names the range, so that [`Duration`] never sees a bad value.
///
/// # Errors
/// The message clap prints after `invalid value 'TEXT' for '--OPTION <SECONDS>':`.
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let bad = || {
        format!(
            "expected a number of seconds greater than 0 and at most {MAX_SECONDS:e}, found {}",
            judge_text::quote(text)
        )
    };
    let seconds: f64 = text.trim().parse().map_err(|_| bad())?;
    if !(seconds > 0.0 && seconds <= MAX_SECONDS) {
        return Err(bad());
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| bad())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_finite_positive_and_bounded() {
        assert_eq!(parse_seconds("0.05"), Ok(Duration::from_millis(50)));
        assert_eq!(parse_seconds("1e9"), Ok(Duration::from_secs(1_000_000_000)));
        assert_eq!(parse_seconds(" 300 "), Ok(Duration::from_secs(300)));
        for bad in ["0", "-0", "-1", "NaN", "nan", "inf", "-inf", "infinity", "1e20", "1e9000", "", "x", "5s"]
        {
            let err = parse_seconds(bad).unwrap_err();
            assert!(
                err.starts_with("expected a number of seconds greater than 0 and at most 1e9"),
                "{bad}: {err}"
            );
        }
    }

    #[derive(clap::Parser, Debug)]
    struct Cli {
        #[command(flatten)]
        long: LongSolveArgs,
    }

    fn parse(args: &[&str]) -> Result<LongSolveArgs, clap::Error> {
        use clap::Parser;
        Cli::try_parse_from(std::iter::once("games-cli").chain(args.iter().copied())).map(|c| c.long)
    }

    #[test]
    fn the_job_timeout_is_seconds_and_only_with_mpi() {
        let args = parse(&["--store", "d", "--mpi", "--job-timeout", "2.5"]).unwrap();
        assert_eq!(args.split.job_timeout, Some(Duration::from_millis(2500)));
        assert_eq!(parse(&["--store", "d", "--mpi"]).unwrap().split.job_timeout, None);
        for bad in
            [&["--store", "d", "--mpi", "--job-timeout", "0"][..], &["--store", "d", "--job-timeout", "3"]]
        {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn shards_are_i_of_n() {
        assert_eq!(parse_shard("0/4"), Ok((0, 4)));
        assert_eq!(parse_shard(" 3 / 4 "), Ok((3, 4)));
        for bad in ["4/4", "1", "a/b", "-1/2", "1/0"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}
