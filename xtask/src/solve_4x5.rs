//! `cargo xtask solve-4x5`: one more run of the empty 4x5 dots-and-boxes solve, which goes on
//! from run to run through its split-solve store (`docs/results/dots-and-boxes-4x5.md`). The
//! store holds the value and, with `--first-moves`, every first move's exact value: a run on
//! the finished store has no job left.
//!
//! The committed store is `testdata/dots-and-boxes/solve-4x5/store/`: `main.rec` (the finished
//! jobs) and `main.tt.xz` (the TT snapshot of the job in progress, `xz -T1` so that the archive
//! is the same on every machine). The run works in a scratch directory (`target/solve-4x5` by
//! default), taking the committed store when it holds more records than the scratch one (a
//! fresh clone, or progress made on another machine), runs `games-cli dots-and-boxes --size 4x5
//! --empty --store DIR --split-depth 6` under `--time-limit`, its progress lines shown and kept
//! in `DIR/run.log`, ends with a line for the run table (minutes, jobs, nodes, nodes per second,
//! the nodes of every job of 10 s or more), then copies the store and the compressed snapshot
//! back for a commit. The scratch snapshot keeps up to `--snapshot-entries` TT entries (20 M by
//! default), the committed one the first [`COMMITTED_SNAPSHOT_ENTRIES`] of them (the largest
//! subtrees).

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, ensure, Context};

/// Arguments of `cargo xtask solve-4x5`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Wall-clock minutes of search (`--time-limit`; the snapshot is saved as it stops).
    #[arg(long, default_value_t = 60)]
    pub minutes: u64,
    /// The scratch directory the solve works in.
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// The TT's size in MiB (`games-cli --tt-mib`; 16 GiB on the 24 GiB machines of this
    /// project).
    #[arg(long, default_value_t = 16384)]
    pub tt_mib: u64,
    /// Search threads (`games-cli --threads`; 0, the default, is every core: games-cli's own
    /// default is one thread).
    #[arg(long, default_value_t = 0)]
    pub threads: u64,
    /// Leave the committed store as it is (a trial run).
    #[arg(long)]
    pub no_copy_back: bool,
    /// TT entries in the scratch store's snapshot (`games-cli --snapshot-entries`; the largest
    /// subtrees first, about 32 bytes each). The committed copy keeps the first
    /// [`COMMITTED_SNAPSHOT_ENTRIES`] of them. On a model of the solve (3x4, a TT of 2^16
    /// entries, stopped every 5 M nodes), a snapshot of 1.1e-4 of the table (the ratio of
    /// 200,000 to the 4x5 table's 1.74 G entries) cost 25% more nodes than no stop, one of 6e-3
    /// (20,000,000 here) 12%.
    #[arg(long, default_value_t = 20_000_000)]
    pub snapshot_entries: u64,
    /// Go on past the root's value to the exact value of every first move (games-cli
    /// `--analyze --format json`, which asks the split for them: `SplitOptions::exact_moves`); the same
    /// store, whose records serve both questions.
    #[arg(long)]
    pub first_moves: bool,
}

/// The entries of the committed TT snapshot (`main.tt.xz`, about 1.3 MB): the largest subtrees
/// of the scratch one.
pub const COMMITTED_SNAPSHOT_ENTRIES: usize = 200_000;

/// Plies from the root to the frontier of jobs. The store's first 1,205 records were written
/// at depth 4 (37,868 frontier jobs); one job of depth 4 took about 25 G nodes over two runs
/// without finishing, more than one run of about an hour and a half (about 20 G) and more than a
/// scratch TT snapshot survives (a new checkout keeps only the committed 200,000 entries). At
/// depth 6 (2,019,374 frontier jobs; a frontier tree of about 0.9 GB) the records of depth 4
/// still bound their nodes, now interior ([`split_solve::Split::apply`]), and the node they
/// left open is asked through its children, each a job that lands as a record.
const SPLIT_DEPTH: &str = "6";

/// The committed store, relative to the workspace root.
const STORE: &str = "testdata/dots-and-boxes/solve-4x5/store";

/// Valid records in the store file `path` (0 if there is none).
fn records(path: &Path) -> anyhow::Result<usize> {
    if !path.exists() {
        return Ok(0);
    }
    let bytes = fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let store = split_solve::record::decode_store(&bytes)
        .map_err(|e| anyhow::anyhow!("{}: not a store file: {e}", path.display()))?;
    Ok(store.records.iter().filter(|r| r.is_ok()).count())
}

/// Runs `xz` with `args`, its standard output to `out`.
fn xz(args: &[&str], input: &Path, out: &Path) -> anyhow::Result<()> {
    let file = fs::File::create(out).with_context(|| format!("creating {}", out.display()))?;
    let status = Command::new("xz")
        .args(args)
        .arg(input)
        .stdout(file)
        .status()
        .context("running xz (Debian: apt-get install xz-utils)")?;
    ensure!(status.success(), "xz {} {} failed", args.join(" "), input.display());
    Ok(())
}

/// The arguments of the `games-cli` run: the 4x5 solve through the store in `dir` for
/// `seconds`, with `args`' table and threads.
fn games_cli_args(args: &Args, dir: &Path, seconds: u64) -> Vec<std::ffi::OsString> {
    let mut out: Vec<std::ffi::OsString> = [
        "dots-and-boxes",
        "--size",
        "4x5",
        "--empty",
        "--split-depth",
        SPLIT_DEPTH,
        "--save-every",
        "600",
        "--store",
    ]
    .map(Into::into)
    .into();
    out.push(dir.into());
    for (flag, value) in [
        ("--tt-mib", args.tt_mib),
        ("--time-limit", seconds),
        ("--threads", args.threads),
        ("--snapshot-entries", args.snapshot_entries),
    ] {
        out.extend([flag.into(), value.to_string().into()]);
    }
    if args.first_moves {
        out.extend(["--analyze".into(), "--format".into(), "json".into()]);
    }
    out
}

/// Prepares the scratch store, runs the solve for `args.minutes`, and copies the store back.
///
/// # Errors
/// A store file that cannot be read, `xz` missing, `games-cli` failing other than by its time
/// limit (exit status 3).
pub fn run(args: &Args) -> anyhow::Result<()> {
    ensure!(args.minutes > 0, "--minutes must be at least 1");
    let root = crate::workspace_root();
    let committed = root.join(STORE);
    let dir = args.dir.clone().unwrap_or_else(|| root.join("target").join("solve-4x5"));
    fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let (have, ours) = (records(&dir.join("main.rec"))?, records(&committed.join("main.rec"))?);
    if ours > have || !dir.join("main.tt").exists() {
        eprintln!(
            "xtask solve-4x5: starting from the committed store ({ours} records; {have} in {})",
            dir.display()
        );
        fs::copy(committed.join("main.rec"), dir.join("main.rec"))
            .context("copying the committed main.rec")?;
        xz(&["-dc"], &committed.join("main.tt.xz"), &dir.join("main.tt"))?;
    } else {
        eprintln!("xtask solve-4x5: going on in {} ({have} records; {ours} committed)", dir.display());
    }
    let before = records(&dir.join("main.rec"))?;
    let cli = crate::build_games_cli()?;
    let seconds = args.minutes * 60;
    let mut command = Command::new(&cli);
    command.args(games_cli_args(args, &dir, seconds));
    let started = Instant::now();
    let mut child =
        command.stderr(Stdio::piped()).spawn().with_context(|| format!("starting {}", cli.display()))?;
    let mut log = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("run.log"))
        .context("opening run.log")?;
    writeln!(
        log,
        "== {} minutes, TT {} MiB{}",
        args.minutes,
        args.tt_mib,
        if args.first_moves { ", every first move exact" } else { "" }
    )?;
    let mut tally = Tally::default();
    if let Some(stderr) = child.stderr.take() {
        for line in BufReader::new(stderr).lines() {
            let line = line.context("reading games-cli's progress")?;
            eprintln!("{line}");
            writeln!(log, "{line}")?;
            tally.read(&line);
        }
    }
    let status = child.wait().context("waiting for games-cli")?;
    let minutes = started.elapsed().as_secs_f64() / 60.0;
    match status.code() {
        // 0: solved; 3: stopped by the time limit (the snapshot saved).
        Some(0 | 3) => {}
        _ => bail!("games-cli dots-and-boxes failed ({status}); the store in {} is kept", dir.display()),
    }
    let after = records(&dir.join("main.rec"))?;
    let summary = format!(
        "xtask solve-4x5: {minutes:.1} min, {} jobs finished ({before} -> {after} records); {}",
        after - before,
        tally.summary(minutes)
    );
    eprintln!("{summary}");
    writeln!(log, "{summary}")?;
    if args.no_copy_back {
        return Ok(());
    }
    fs::copy(dir.join("main.rec"), committed.join("main.rec")).context("copying main.rec back")?;
    let snapshot = dir.join("main.tt");
    let text = fs::read_to_string(&snapshot).with_context(|| format!("reading {}", snapshot.display()))?;
    let first = first_entries(&text, COMMITTED_SNAPSHOT_ENTRIES)
        .map_err(|e| anyhow::anyhow!("{}: not a TT snapshot: {e}", snapshot.display()))?;
    let kept = dir.join("main.tt.committed");
    fs::write(&kept, first).with_context(|| format!("writing {}", kept.display()))?;
    xz(&["-kf", "-T1", "-c"], &kept, &committed.join("main.tt.xz"))?;
    eprintln!("xtask solve-4x5: store and snapshot copied to {STORE}: commit them");
    Ok(())
}

/// What a run's progress lines tell (games-cli's stderr): the nodes of the run so far and of
/// every job that got a line of its own (10 s or more: `split: job LEAF ...: ..., N nodes, S
/// s`), for a table of the runs.
#[derive(Debug, Default, PartialEq)]
struct Tally {
    /// The last "N nodes in this run" seen.
    run_nodes: u64,
    /// The nodes of each job with a line of its own, in order.
    jobs: Vec<u64>,
    /// The last "first moves exact: K of N classes" seen (runs with `--first-moves`).
    first_moves: Option<String>,
}

impl Tally {
    /// Takes in one progress line (others are ignored).
    fn read(&mut self, line: &str) {
        let last_number = |before: &str| line.split(before).next()?.rsplit(' ').next()?.parse::<u64>().ok();
        if line.starts_with("split: job ") && line.contains(" nodes, ") {
            if let Some(n) = last_number(" nodes, ") {
                self.jobs.push(n);
            }
        } else if line.contains(" nodes in this run") {
            if let Some(n) = last_number(" nodes in this run") {
                self.run_nodes = n;
            }
            if let Some(rest) = line.split("; first moves exact: ").nth(1) {
                self.first_moves = rest.split(';').next().map(str::to_string);
            }
        }
    }

    /// `N G nodes (R M/s); per job of 10 s or more: a / b / ... G` over `minutes`.
    fn summary(&self, minutes: f64) -> String {
        let giga = |n: u64| format!("{:.2}", n as f64 / 1e9);
        let jobs: Vec<String> = self.jobs.iter().map(|&n| giga(n)).collect();
        format!(
            "{} G nodes ({:.2} M/s); per job of 10 s or more: {}{}",
            giga(self.run_nodes),
            self.run_nodes as f64 / 1e6 / (minutes * 60.0).max(1e-9),
            if jobs.is_empty() { "none".to_string() } else { format!("{} G", jobs.join(" / ")) },
            self.first_moves.as_ref().map(|f| format!("; first moves exact: {f}")).unwrap_or_default()
        )
    }
}

/// The sealed TT snapshot `text` cut to its first `n` entries (the largest subtrees: games-cli
/// writes them in that order), sealed again for the same solve.
///
/// # Errors
/// The text is not a TT snapshot: a header field missing, or [`search_core::unseal`]'s errors
/// (checksum, format).
fn first_entries(text: &str, n: usize) -> Result<String, search_core::CheckpointError> {
    use search_core::{seal, unseal, CheckpointError, SealedKind, SolveIdentity};
    let field = |i: usize, name: &str| {
        text.lines()
            .nth(i)
            .and_then(|l| l.strip_prefix(name))
            .map(str::to_string)
            .ok_or(CheckpointError::Truncated)
    };
    let identity =
        SolveIdentity { game: field(1, "game ")?, options: field(2, "options ")?, root: field(3, "root ")? };
    let body = unseal(SealedKind::TtSnapshot, &identity, text)?;
    let first: String =
        body.lines().filter(|l| !l.trim().is_empty()).take(n).map(|l| format!("{l}\n")).collect();
    Ok(seal(SealedKind::TtSnapshot, &identity, &first))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(threads: u64) -> Args {
        Args {
            minutes: 5,
            dir: None,
            tt_mib: 512,
            threads,
            no_copy_back: true,
            snapshot_entries: 1000,
            first_moves: false,
        }
    }

    #[test]
    fn every_core_is_asked_for_unless_threads_is_given() {
        let line = |a: &Args| {
            games_cli_args(a, Path::new("/tmp/s"), 300)
                .iter()
                .map(|s| s.to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(
            line(&args(0)),
            "dots-and-boxes --size 4x5 --empty --split-depth 6 --save-every 600 --store /tmp/s \
             --tt-mib 512 --time-limit 300 --threads 0 --snapshot-entries 1000"
        );
        assert!(line(&args(1)).contains("--threads 1 "));
        assert!(!line(&args(0)).contains("--format"));
        assert!(line(&Args { first_moves: true, ..args(0) }).ends_with(" --analyze --format json"));
    }

    #[test]
    fn the_run_summary_adds_up_the_progress_lines() {
        let mut tally = Tally::default();
        for line in [
            "split: depth 4, 37868 frontier jobs (folded by key), 109 records read from /s",
            "split: TT snapshot saved in job 288 (threshold 0); 2876489728 nodes in this run",
            "split: job 288 (threshold 0): at most 0 (fail-soft 0), 3444374297 nodes, 743.5 s",
            "split: jobs 110 done, 0 in flight, 37789 left; 3444374297 nodes in this run, 4592184 \
             nodes/s; value in [-20, 20]; 750.1 s",
            "split: job 290 (threshold 0): above 0 (fail-soft 2), 841713209 nodes, 205.7 s",
            "split: jobs 111 done, 0 in flight, 37788 left; 6000000000 nodes in this run, 4 nodes/s",
        ] {
            tally.read(line);
        }
        assert_eq!(
            tally,
            Tally { run_nodes: 6_000_000_000, jobs: vec![3_444_374_297, 841_713_209], first_moves: None }
        );
        assert_eq!(tally.summary(20.0), "6.00 G nodes (5.00 M/s); per job of 10 s or more: 3.44 / 0.84 G");
        tally.read(
            "split: jobs 700 done, 0 in flight, 37600 left; 7000000000 nodes in this run, 5 nodes/s; \
             value in [0, 0]; first moves exact: 2 of 14 classes; 900.0 s",
        );
        assert_eq!(tally.first_moves.as_deref(), Some("2 of 14 classes"));
        assert!(tally.summary(20.0).ends_with("3.44 / 0.84 G; first moves exact: 2 of 14 classes"));
        assert_eq!(Tally::default().summary(1.0), "0.00 G nodes (0.00 M/s); per job of 10 s or more: none");
    }

    #[test]
    fn the_committed_snapshot_keeps_the_first_entries_sealed_again() {
        use search_core::{tt_snapshot_from_text, tt_snapshot_to_text, Bound, SolveIdentity, TtEntry};
        let identity = SolveIdentity {
            game: "dots-and-boxes".into(),
            options: "size 4x5 keys 1 twins graph codes7".into(),
            root: "dbn 000".into(),
        };
        let entries: Vec<TtEntry<u128, u16>> = (0..5u32)
            .map(|i| TtEntry {
                key: u128::from(i) << 70,
                value: 1,
                bound: Bound::Lower,
                best: Some(7),
                work: 100 - i,
            })
            .collect();
        let text = tt_snapshot_to_text(&identity, &entries);
        let cut = first_entries(&text, 3).unwrap();
        let back: Vec<TtEntry<u128, u16>> = tt_snapshot_from_text(&cut, &identity, |_| true).unwrap();
        assert_eq!(back, entries[..3]);
        assert_eq!(first_entries(&text, 10).unwrap(), text, "fewer entries than asked: the same file");
        let damaged = text.replacen("lower", "upper", 1);
        assert!(first_entries(&damaged, 3).is_err(), "a damaged snapshot is refused");
        assert!(first_entries("checksum 0\n", 3).is_err());
    }
}
