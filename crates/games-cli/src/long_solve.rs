//! Long solves, written once for every game: the root driver ([`Engine::solve_root`]) run in
//! slices under `--time-limit`, with `--checkpoint FILE` (sealed bounds per root move, rewritten
//! atomically after every step) and its TT snapshot `FILE.tt` (the expensive part of the TT,
//! every `--save-every` seconds), and a progress line on a terminal (in a log, one line per
//! `--save-every`). Each game's subcommand
//! builds its engine and a [`RootSolve`] (what the files belong to, how its moves and bounds
//! read), calls [`solve`], and words the [`RootResult`] in its own judge format.
//!
//! A checkpoint or snapshot of another game, board or position, or one damaged or edited, is
//! refused with the file named ([`search_core::unseal`]); a TT entry is read only if its value
//! and move are possible on the board. Moves are written as their [`PackedMove`] codes (for
//! Triangle War the segment index, so older side-5 checkpoints stay valid).

use std::fmt::Display;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Result};
use search_core::{
    Checkpoint, Engine, Game, Limits, PackedMove, RootMove, RootResult, SolveIdentity, Stats, TtEntry, Value,
};

/// A TT snapshot keeps entries whose subtrees took at least this many nodes, at most
/// `--snapshot-entries` of them, the largest subtrees first.
const SNAPSHOT_MIN_WORK: u32 = 1 << 12;

/// The long-solve options of a subcommand, as the user gave them.
#[derive(clap::Args, Debug, Clone)]
#[group(id = "long_files", args = ["checkpoint", "store"], multiple = false)]
pub struct LongSolveArgs {
    /// Stop each search after this many seconds (more than 0, at most 1e9) and print the
    /// bounds proven so far (exit status 3); later cases are still answered.
    #[arg(long, value_name = "SECONDS", value_parser = crate::common::parse_seconds)]
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
    #[arg(long, value_name = "SECONDS", default_value = "300", value_parser = crate::common::parse_seconds, requires = "long_files")]
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
    pub split: crate::distributed::SplitArgs,
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

/// A check of a TT entry of game `G` read from a snapshot ([`RootSolve::entry_ok`]).
pub type EntryCheck<'a, G> = dyn Fn(&TtEntry<<G as Game>::Key, <G as Game>::Move>) -> bool + 'a;

/// One root solve as a game's subcommand describes it to [`solve`].
pub struct RootSolve<'a, G: Game> {
    /// The user's options.
    pub args: &'a LongSolveArgs,
    /// What the checkpoint and TT snapshot belong to (game, board options, root position).
    pub identity: SolveIdentity,
    /// Make every root move's value exact (for `--analyze`), not only the best.
    pub exact_all: bool,
    /// Whether a TT entry read from a snapshot is possible on this board (its value within the
    /// game's range, its move one of the board's moves): an entry is trusted as a proven bound.
    pub entry_ok: &'a EntryCheck<'a, G>,
    /// A root move in the game's notation, for the progress line.
    pub move_text: &'a dyn Fn(G::Move) -> String,
    /// The root's value bounds (side to move) in the game's words, for the progress line, e.g.
    /// `final margin in [-2, +4]`.
    pub bounds_text: &'a dyn Fn((Value, Value)) -> String,
}

/// What stopped a long solve before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// `--time-limit`.
    TimeLimit,
    /// `--node-budget` (a distributed solve).
    NodeBudget,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stop::TimeLimit => "the time limit",
            Stop::NodeBudget => "the node budget",
        })
    }
}

/// What [`solve`] ends with.
pub struct Solved<M> {
    /// The root driver's result: bounds (side to move), `finished`, the bounds per move.
    pub result: RootResult<M>,
    /// What stopped the solve when `result` is not finished.
    pub stop: Option<Stop>,
    /// The search statistics of this run (not of earlier runs of the checkpoint).
    pub stats: Stats,
    /// Whether the answer was read from a checkpoint that already held it (nothing searched).
    pub from_checkpoint: bool,
    /// The start of a principal variation already proven by a split's store (`--store`): each
    /// move the first, in the tree's order, whose bounds meet at its position's value, down to
    /// the frontier ([`crate::distributed::store_pv`]); empty without a store, or when the root
    /// is not exact.
    pub known_pv: Vec<M>,
}

/// A checkpoint with each move as its [`PackedMove`] code (the file's notation).
fn to_codes<M: PackedMove>(cp: &Checkpoint<M>) -> Checkpoint<u16> {
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
fn from_codes<M: PackedMove>(cp: &Checkpoint<u16>) -> Checkpoint<M> {
    Checkpoint {
        moves: cp.moves.iter().map(|m| RootMove { mv: M::unpack(m.mv), lo: m.lo, hi: m.hi }).collect(),
    }
}

/// `path` with `.tt` appended.
fn snapshot_path(path: &Path) -> PathBuf {
    let mut name = path.to_path_buf().into_os_string();
    name.push(".tt");
    PathBuf::from(name)
}

/// Writes `text` to a temporary file in `path`'s directory, then renames it over `path`: a
/// reader sees the old file or the new one, and a failed write leaves nothing behind (the
/// temporary file is removed when dropped unpersisted).
fn write_atomically(what: &str, path: &Path, text: &str) -> Result<()> {
    let write = || -> std::io::Result<()> {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
        tmp.write_all(text.as_bytes())?;
        tmp.as_file().sync_all()?;
        tmp.persist(path).map_err(|e| e.error)?;
        Ok(())
    };
    write().map_err(|e| anyhow!("cannot write {what} {}: {e}", path.display()))
}

/// Solves the non-terminal `pos` at the root with `engine` (its threads and TT) as `spec`
/// asks (through [`crate::distributed::solve`] with `--store`): from the checkpoint file when it exists, in slices that save it, under the time
/// limit, with a progress line on a terminal. A checkpoint that already holds the answer is
/// only read: nothing is searched or written.
///
/// # Errors
/// A checkpoint or TT snapshot that cannot be read or is refused (the file named, and why), a
/// file that cannot be written.
pub fn solve<G: Game + Clone + Send>(
    engine: &mut Engine<G>,
    pos: &G::Position,
    spec: &RootSolve<'_, G>,
) -> Result<Solved<G::Move>>
where
    G::Key: Display + FromStr + Into<u128>,
    G::Position: Send,
{
    if let Some(depth) = spec.args.split.count_frontier {
        crate::distributed::count_frontier(engine.game(), pos, depth)?;
    }
    if let Some(k) = spec.args.split.sample_jobs {
        let split = &spec.args.split;
        crate::distributed::sample_jobs(engine, pos, split.split_depth, k, split.sample_nodes)?;
    }
    if let Some(k) = spec.args.split.recheck {
        crate::distributed::recheck(engine, pos, spec, k)?;
    }
    if spec.args.split.store.is_some() {
        return crate::distributed::solve(engine, pos, spec);
    }
    let args = spec.args;
    let identity = &spec.identity;
    let fresh = search_core::root_checkpoint(engine.game(), pos);
    let checkpoint: Option<Checkpoint<G::Move>> = match &args.checkpoint {
        Some(path) if path.exists() => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| anyhow!("cannot read checkpoint {}: {e}", path.display()))?;
            let cp = Checkpoint::from_sealed_text(&text, identity, &to_codes(&fresh)).map_err(|e| {
                anyhow!("checkpoint {}: {e}; refused (delete it to start afresh)", path.display())
            })?;
            Some(from_codes(&cp))
        }
        _ => None,
    };
    let stats0 = engine.stats();
    let exact_all = spec.exact_all;
    let already_solved = checkpoint
        .as_ref()
        .is_some_and(|cp| cp.is_solved() && (!exact_all || cp.moves.iter().all(|m| m.lo == m.hi)));
    if already_solved {
        let cp = checkpoint.expect("checked above");
        let bounds = cp.bounds();
        let result = RootResult { bounds, finished: true, checkpoint: cp };
        return Ok(Solved {
            result,
            stop: None,
            stats: Stats::default(),
            from_checkpoint: true,
            known_pv: Vec::new(),
        });
    }
    let tt_path = args.checkpoint.as_deref().map(snapshot_path);
    let tt_identity = snapshot_identity(identity, &engine.game().key_scheme());
    if let Some(path) = tt_path.as_ref().filter(|p| p.exists()) {
        load_snapshot(engine, path, &tt_identity, spec.entry_ok)?;
    }
    let save = |cp: &Checkpoint<G::Move>| -> Result<()> {
        match &args.checkpoint {
            Some(path) => write_atomically("checkpoint", path, &to_codes(cp).to_sealed_text(identity)),
            None => Ok(()),
        }
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    });
    // The solve runs in slices: after each one the checkpoint and the TT snapshot are saved
    // and the progress line is refreshed; the next slice re-enters the interrupted step, whose
    // finished subtrees are still in the TT.
    let start = Instant::now();
    let deadline = args.time_limit.map(|t| start + t);
    let save_every = args.save_every.max(Duration::from_secs(1));
    let slice = match (&bar, &args.checkpoint) {
        (Some(_), _) => Some(save_every.min(Duration::from_secs(5))),
        (None, Some(_)) => Some(save_every),
        (None, None) => None,
    };
    let mut last_tt_save = Instant::now();
    let mut checkpoint = checkpoint;
    let result = loop {
        let remaining = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let limit = match (slice, remaining) {
            (Some(s), Some(r)) => Some(s.min(r)),
            (s, r) => s.or(r),
        };
        engine.set_limits(Limits { time: limit, ..Limits::default() });
        let mut save_error = None;
        let result = engine
            .solve_root(pos, checkpoint.take(), exact_all, |p| {
                if let Err(e) = save(&p.checkpoint) {
                    save_error.get_or_insert(e);
                }
            })
            .map_err(|e| {
                let path = args.checkpoint.as_deref().unwrap_or(Path::new("-"));
                anyhow!("checkpoint {} does not fit this position: {e}", path.display())
            })?;
        if let Some(e) = save_error {
            return Err(e);
        }
        save(&result.checkpoint)?;
        let out_of_time = deadline.is_some_and(|d| Instant::now() >= d);
        if let Some(path) = &tt_path {
            if result.finished || out_of_time || last_tt_save.elapsed() >= save_every {
                save_snapshot(engine, path, &tt_identity, args.snapshot_entries)?;
                last_tt_save = Instant::now();
            }
        }
        // On a terminal the progress bar; in a log (stderr not a terminal, a checkpointed solve
        // run in the background) one line per slice, that is every `--save-every`.
        let logged = bar.is_none() && slice.is_some() && !(result.finished || out_of_time);
        if bar.is_some() || logged {
            // The root move being proven: the first that may still beat the best proven one.
            let best_lo = result.bounds.0;
            let moves = &result.checkpoint.moves;
            let proving = moves
                .iter()
                .position(|m| m.lo != m.hi && (exact_all || m.hi > best_lo))
                .map_or_else(String::new, |i| {
                    format!("proving move {}/{} ({}): ", i + 1, moves.len(), (spec.move_text)(moves[i].mv))
                });
            let nodes = engine.stats().nodes - stats0.nodes;
            let elapsed = start.elapsed();
            let message = format!(
                "{proving}{}; {nodes} nodes, {:.0} nodes/s, {:.0?}",
                (spec.bounds_text)(result.bounds),
                nodes as f64 / elapsed.as_secs_f64().max(1e-9),
                elapsed
            );
            match &bar {
                Some(bar) => bar.set_message(message),
                None => eprintln!("games-cli: progress: {message}"),
            }
        }
        if result.finished || out_of_time || slice.is_none() {
            break result;
        }
        checkpoint = Some(result.checkpoint);
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    engine.set_limits(Limits {
        time: deadline.map(|d| d.saturating_duration_since(Instant::now())),
        ..Limits::default()
    });
    // Without a store only the time limit stops the root driver.
    let stop = (!result.finished).then_some(Stop::TimeLimit);
    Ok(Solved {
        result,
        stop,
        stats: engine.stats().since(&stats0),
        from_checkpoint: false,
        known_pv: Vec::new(),
    })
}

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
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow!("cannot read TT snapshot {}: {e}", path.display()))?;
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

/// The error that ends a run whose `what` (e.g. `game 3`) `stop` stopped, with the bounds in
/// words: exit status 3.
pub fn stopped(what: &str, stop: Stop, bounds: &str) -> anyhow::Error {
    crate::common::Incomplete(format!("{what}: stopped by {stop} with {bounds}")).into()
}

/// Answers one position per line of `reader` (blank lines skipped) with `answer(number, text,
/// unfinished)`, each answered before the next is read so that the answers before a bad line
/// stay printed; `--checkpoint` and `--store` (`long.one_case()`) take one position per run.
/// Then the run's end: `Ok` when no position was stopped, else [`unfinished_error`] over the
/// lines that `answer` (or the caller before, e.g. for `--empty`) added to `unfinished`.
///
/// # Errors
/// The first error of reading, of `answer`, a second position under `one_case`, or the
/// unfinished lines.
pub fn answer_lines(
    long: &LongSolveArgs,
    reader: Option<Box<dyn std::io::BufRead>>,
    mut unfinished: Vec<(usize, Stop)>,
    mut answer: impl FnMut(usize, &str, &mut Vec<(usize, Stop)>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    if let Some(reader) = reader {
        let mut lines = judge_text::LineReader::new(reader);
        let mut answered = 0;
        while let Some(line) = lines.next_line()? {
            if line.is_blank() {
                continue;
            }
            let number = line.number;
            answered += 1;
            anyhow::ensure!(
                answered == 1 || !long.one_case(),
                "line {number}: --checkpoint and --store take one position per run"
            );
            answer(number, line.text, &mut unfinished)?;
        }
    }
    if unfinished.is_empty() {
        return Ok(());
    }
    Err(unfinished_error("line", &unfinished))
}

/// The error that ends a run whose cases `unfinished` (the number of each, in order, and what
/// stopped it) a limit stopped, each named as a `noun` (`line`, `case`, `game`): exit status 3,
/// e.g. `stopped by the time limit before finishing lines 2, 5`.
pub fn unfinished_error(noun: &str, unfinished: &[(usize, Stop)]) -> anyhow::Error {
    let mut parts = Vec::new();
    for stop in [Stop::TimeLimit, Stop::NodeBudget] {
        let numbers: Vec<String> =
            unfinished.iter().filter(|u| u.1 == stop).map(|u| u.0.to_string()).collect();
        if !numbers.is_empty() {
            let plural = if numbers.len() == 1 { "" } else { "s" };
            parts.push(format!("by {stop} before finishing {noun}{plural} {}", numbers.join(", ")));
        }
    }
    crate::common::Incomplete(format!("stopped {}", parts.join(" and "))).into()
}
