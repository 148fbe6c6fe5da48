//! `cargo xtask book GAME --plies N [--out FILE]`: builds an opening book, the exact value of
//! every position within N plies of the start ([`search_core::BookPlan`]), resumably.
//!
//! The deepest positions (the leaves) are solved one by one on one thread; each solved value
//! is appended at once to a progress file (`FILE.progress`: a header naming the game, the
//! board, the key scheme and the depth, then one line per leaf, `KEY VALUE CRC`, the CRC-32 of
//! `KEY VALUE` in hex), so that a stopped build goes on from where it stopped when run again
//! with the same arguments; a line that is incomplete or whose CRC differs is solved again.
//! Progress goes to standard error. When every leaf is solved, the shallower positions are
//! valued from them and the book is written to FILE (through a temporary file renamed over
//! it). The progress file stays: run again, the command writes the same book in seconds from
//! it; remove it once the book is kept.
//!
//! `--shard I/N` splits the build over processes (cores, or machines sharing the directory):
//! it solves only the unsolved leaves of index `I` modulo `N`, into its own progress file
//! (`FILE.shard-I-of-N.progress`), and stops without writing the book. Every run reads the
//! progress file and every shard's beside it, so that the run without `--shard` solves only
//! what the shards left and writes the book.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, ensure, Context};
use connect_four::{Board, ConnectFour, Geometry, Solver};
use search_core::{BookIdentity, BookPlan, TtKey, Value};

/// Arguments of `cargo xtask book`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game: `connect-four`.
    pub game: String,
    /// The board, as the game's `--size` reads it (Connect Four: COLUMNSxROWS).
    #[arg(long, default_value = "7x6")]
    pub size: String,
    /// The depth: every position within this many plies of the start (the game's moves, a
    /// forced reply folded into the move before it) is in the book.
    #[arg(long)]
    pub plies: u32,
    /// The book file to write; default `books/GAME-SIZE-pN.book` in the workspace.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The solver's TT size, log2 of entries (kept from one leaf to the next).
    #[arg(long, default_value_t = connect_four::DEFAULT_TT_BITS)]
    pub tt_bits: u32,
    /// Seconds between progress lines on standard error.
    #[arg(long, default_value_t = 10)]
    pub progress_every: u64,
    /// Solve only the leaves of index I modulo N (0 <= I < N), into `FILE.shard-I-of-N.progress`,
    /// and write no book: run N shards at once, then the command without `--shard`.
    #[arg(long, value_name = "I/N", value_parser = long_solve::parse_shard)]
    pub shard: Option<(u32, u32)>,
    /// Build the reply book instead ([`connect_four::Replies`]): the solver's reply in every
    /// position it faces within `--plies` stones, playing either side by these replies against
    /// any opponent (default file `books/GAME-SIZE-rN.replies`). The replies are computed as
    /// `games-cli play` computes them (the bundled score book, the default TT), level by level.
    #[arg(long)]
    pub replies: bool,
}

/// The shard progress files beside `progress` (`FILE.progress` -> `FILE.shard-I-of-N.progress`).
fn shard_progress_files(out: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let Some(name) = out.file_name().and_then(|n| n.to_str()) else { return Ok(Vec::new()) };
    let prefix = format!("{name}.shard-");
    let entries = match fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("listing {}", dir.display())),
    };
    let mut files = Vec::new();
    for entry in entries {
        let path = entry?.path();
        let file = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if file.starts_with(&prefix) && file.ends_with(".progress") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// The first line of a progress file of `identity`'s book of `plies` plies.
fn progress_header(identity: &BookIdentity, plies: u32) -> String {
    format!(
        "game-solvers book progress 1 | {} | keys {} | plies {plies}\n",
        identity.game, identity.key_scheme
    )
}

/// One progress line: the leaf's key in hex, its value, the CRC-32 of both.
fn progress_line(key: u128, value: Value) -> String {
    let body = format!("{key:x} {value}");
    format!("{body} {:08x}\n", crc32fast::hash(body.as_bytes()))
}

/// The values a progress file holds: every complete line whose CRC matches; the rest (a line
/// cut short by a stop) is solved again. `None` when there is no file.
fn read_progress(path: &Path, header: &str) -> anyhow::Result<Option<HashMap<u128, Value>>> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let Some(rest) = text.strip_prefix(header) else {
        bail!(
            "{}: not the progress of this book (its first line is not {:?}); remove it or choose another --out",
            path.display(),
            header.trim_end()
        );
    };
    let mut values = HashMap::new();
    for line in rest.split_inclusive('\n').filter(|l| l.ends_with('\n')) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [key, value, crc] = fields[..] else { continue };
        if format!("{:08x}", crc32fast::hash(format!("{key} {value}").as_bytes())) != crc {
            continue;
        }
        if let (Ok(key), Ok(value)) = (u128::from_str_radix(key, 16), value.parse::<Value>()) {
            values.insert(key, value);
        }
    }
    Ok(Some(values))
}

/// The progress files of a build writing `out`: this run's (`FILE.progress`, or the shard's
/// `FILE.shard-I-of-N.progress`), open for appending, and every one beside it to read.
struct Progress {
    out: PathBuf,
    main: PathBuf,
    header: String,
    file: fs::File,
}

impl Progress {
    /// Opens (creates, with `header` as its first line) the progress file of `shard` of the
    /// build writing `out`, creating `out`'s folder.
    fn open(out: &Path, shard: Option<(u32, u32)>, header: String) -> anyhow::Result<Progress> {
        let main = PathBuf::from(format!("{}.progress", out.display()));
        let path = match shard {
            Some((i, n)) => PathBuf::from(format!("{}.shard-{i}-of-{n}.progress", out.display())),
            None => main.clone(),
        };
        if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let mut file = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        if file.metadata()?.len() == 0 {
            file.write_all(header.as_bytes())?;
        }
        Ok(Progress { out: out.to_path_buf(), main, header, file })
    }

    /// Adds to `values` what every progress file of the build holds.
    fn read_all(&self, values: &mut HashMap<u128, Value>) -> anyhow::Result<()> {
        for path in std::iter::once(self.main.clone()).chain(shard_progress_files(&self.out)?) {
            values.extend(read_progress(&path, &self.header)?.unwrap_or_default());
        }
        Ok(())
    }

    /// Appends one solved position at once.
    fn append(&mut self, key: u128, value: Value) -> anyhow::Result<()> {
        self.file.write_all(progress_line(key, value).as_bytes())?;
        self.file.flush()?;
        Ok(())
    }
}

/// `cargo xtask book`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    ensure!(
        args.game == "connect-four",
        "no book builder for {:?}: the games with books are: connect-four",
        args.game
    );
    let (w, h) = connect_four::parse_size(&args.size).map_err(anyhow::Error::msg)?;
    let geom = Geometry::new(w, h).map_err(|e| anyhow::anyhow!("--size {w}x{h}: {e}"))?;
    if args.replies {
        return run_replies(args, geom);
    }
    let game = ConnectFour::new(geom);
    let identity = game.book_identity();
    let out = args.out.clone().unwrap_or_else(|| {
        crate::workspace_root().join("books").join(format!("{}-{w}x{h}-p{}.book", args.game, args.plies))
    });
    let started = Instant::now();
    let plan = BookPlan::new(&game, &Board::default(), args.plies);
    eprintln!(
        "book {} to {} plies: positions per ply {:?} ({:.1} s)",
        identity.game,
        args.plies,
        plan.level_sizes(),
        started.elapsed().as_secs_f64()
    );
    let mut progress = Progress::open(&out, args.shard, progress_header(&identity, args.plies))?;
    let mut values = HashMap::new();
    progress.read_all(&mut values)?;
    let leaves: Vec<_> = match args.shard {
        Some((i, n)) => plan.leaves().iter().skip(i as usize).step_by(n as usize).cloned().collect(),
        None => plan.leaves().to_vec(),
    };
    let done_before = leaves.iter().filter(|(k, _)| values.contains_key(&k.to_u128())).count();
    eprintln!("book: {} leaves at ply {}, {done_before} solved before", leaves.len(), args.plies);
    let mut solver = Solver::with_tt_bits(geom, args.tt_bits);
    let (mut solved, mut last_report) = (0usize, Instant::now());
    let solving = Instant::now();
    for (key, board) in &leaves {
        let key = key.to_u128();
        if values.contains_key(&key) {
            continue;
        }
        let value = Value::from(solver.score_board(board));
        progress.append(key, value)?;
        values.insert(key, value);
        solved += 1;
        if last_report.elapsed() >= Duration::from_secs(args.progress_every) {
            last_report = Instant::now();
            let done = done_before + solved;
            let secs = solving.elapsed().as_secs_f64();
            let left = (leaves.len() - done) as f64 * secs / solved as f64;
            eprintln!(
                "book: {done}/{} leaves ({:.1} %), {solved} in {secs:.0} s this run, {:.0} M nodes, about {left:.0} s left",
                leaves.len(),
                100.0 * done as f64 / leaves.len() as f64,
                solver.stats().nodes as f64 / 1e6
            );
        }
    }
    if let Some((i, n)) = args.shard {
        eprintln!(
            "book: shard {i}/{n} done ({} leaves, {solved} solved in this run); the command without --shard writes the book",
            leaves.len()
        );
        return Ok(());
    }
    let book = plan.finish(&game, &identity, &values).context("making the book")?;
    let bytes = book.to_bytes();
    let tmp = PathBuf::from(format!("{}.tmp", out.display()));
    fs::write(&tmp, &bytes).with_context(|| format!("writing {}", tmp.display()))?;
    fs::rename(&tmp, &out).with_context(|| format!("renaming {} to {}", tmp.display(), out.display()))?;
    eprintln!(
        "book: {} entries, {} bytes, written to {} ({:.1} s, {:.1} M nodes this run)",
        book.len(),
        bytes.len(),
        out.display(),
        started.elapsed().as_secs_f64(),
        solver.stats().nodes as f64 / 1e6
    );
    Ok(())
}

/// `cargo xtask book connect-four --replies`: walks the solver's strategy
/// ([`connect_four::strategy_walk`]) with the replies known so far, solves the positions it
/// stops at (this shard's share first, then those the other shards have not solved yet, by
/// their progress files), appends each to the progress file, and walks again until nothing is
/// missing; then writes the reply book (without `--shard`) from every progress file.
fn run_replies(args: &Args, geom: Geometry) -> anyhow::Result<()> {
    use connect_four::{Column, ConnectFourFront, Replies};
    use game_front::{Front, SolverSettings};
    let identity = Replies::identity(geom);
    let (w, h) = (geom.width(), geom.height());
    let out = args.out.clone().unwrap_or_else(|| {
        crate::workspace_root().join("books").join(format!("{}-{w}x{h}-r{}.replies", args.game, args.plies))
    });
    let mut progress = Progress::open(&out, args.shard, progress_header(&identity, args.plies))?;
    let front = ConnectFourFront::with_geometry(geom);
    let mut solver = front.solver(SolverSettings { threads: Some(1), ..SolverSettings::default() });
    solver.set_replies(None);
    let started = Instant::now();
    let (mut solved, mut last_report) = (0usize, Instant::now());
    let mut values = HashMap::new();
    loop {
        progress.read_all(&mut values)?;
        let known = |p: &connect_four::Position| {
            let c = values.get(&u128::from(p.board().code()))?;
            Some(Column(u8::try_from(*c).ok()?))
        };
        let walk = connect_four::strategy_walk(geom, args.plies, known);
        if walk.missing.is_empty() {
            if let Some((i, n)) = args.shard {
                eprintln!(
                    "replies: shard {i}/{n} done ({solved} solved in this run); the command without --shard writes the book"
                );
                return Ok(());
            }
            let replies = Replies::new(geom, args.plies, walk.faced).context("making the reply book")?;
            let bytes = replies.to_bytes();
            let tmp = PathBuf::from(format!("{}.tmp", out.display()));
            fs::write(&tmp, &bytes).with_context(|| format!("writing {}", tmp.display()))?;
            fs::rename(&tmp, &out)
                .with_context(|| format!("renaming {} to {}", tmp.display(), out.display()))?;
            eprintln!(
                "replies: {} positions, {} bytes, written to {} ({:.1} s, {solved} solved in this run)",
                replies.len(),
                bytes.len(),
                out.display(),
                started.elapsed().as_secs_f64()
            );
            return Ok(());
        }
        let stones = walk.missing.iter().map(|p| p.moves_played()).min().unwrap_or(0);
        // This shard's share of the missing positions first, then the others' left over.
        let (i, n) = args.shard.unwrap_or((0, 1));
        // By a hash of the code, so that shards reading the files at different times still
        // share the same positions out the same way.
        let share = |p: &connect_four::Position| {
            (p.board().code().wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) % u64::from(n) == u64::from(i)
        };
        let (mine, theirs): (Vec<&connect_four::Position>, Vec<_>) =
            walk.missing.iter().partition(|p| share(p));
        eprintln!(
            "replies: {} positions to solve (from {stones} stones on), {} of them this shard's; {} known",
            walk.missing.len(),
            mine.len(),
            walk.faced.len()
        );
        let own = mine.len();
        for (j, pos) in mine.into_iter().chain(theirs).enumerate() {
            // Past this shard's share, what the other shards have solved meanwhile is skipped.
            if j >= own && (j - own) % 16 == 0 {
                progress.read_all(&mut values)?;
            }
            let key = u128::from(pos.board().code());
            if values.contains_key(&key) {
                continue;
            }
            let c = solver.try_best_column(pos).map_err(|e| anyhow::anyhow!("{e}"))?;
            let value = Value::from(c.0);
            progress.append(key, value)?;
            values.insert(key, value);
            solved += 1;
            if last_report.elapsed() >= Duration::from_secs(args.progress_every) {
                last_report = Instant::now();
                eprintln!(
                    "replies: {solved} solved in {:.0} s this run, {:.0} M nodes",
                    started.elapsed().as_secs_f64(),
                    solver.stats().nodes as f64 / 1e6
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_lines_read_back_and_damaged_ones_are_dropped() {
        let dir = std::env::temp_dir().join(format!("xtask-book-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("p.progress");
        let identity = BookIdentity { game: "g".into(), key_scheme: "1".into(), values: (-9, 9) };
        let header = progress_header(&identity, 3);
        let good = progress_line(0x1f, -3);
        let bad = progress_line(0x20, 4).replace(" 4 ", " 5 ");
        let cut = &progress_line(0x21, 7)[..5];
        fs::write(&path, format!("{header}{good}{bad}{cut}")).unwrap();
        let values = read_progress(&path, &header).unwrap().unwrap();
        assert_eq!(values, HashMap::from([(0x1f, -3)]));
        assert!(read_progress(&path, &progress_header(&identity, 4)).is_err());
        assert_eq!(read_progress(&dir.join("none"), &header).unwrap(), None);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_reply_book_built_in_two_shards_holds_the_solvers_replies() {
        use connect_four::{Replies, Solver};
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("r.replies");
        let geom = Geometry::new(5, 4).unwrap();
        let args = |shard| Args {
            game: "connect-four".into(),
            size: "5x4".into(),
            plies: 6,
            out: Some(out.clone()),
            tt_bits: 16,
            progress_every: 1000,
            shard,
            replies: true,
        };
        run(&args(Some((0, 2)))).unwrap();
        assert!(!out.exists(), "a shard writes no book");
        run(&args(Some((1, 2)))).unwrap();
        run(&args(None)).unwrap();
        let replies = Replies::from_bytes(geom, &fs::read(&out).unwrap()).unwrap();
        assert_eq!(replies.stones(), 6);
        let walk = connect_four::strategy_walk(geom, 6, |p| replies.reply(p));
        assert!(walk.missing.is_empty());
        assert_eq!(walk.faced.len(), replies.len());
        for (pos, reply) in &walk.faced {
            let scores = Solver::with_tt_bits(geom, 16).column_scores(pos);
            let best = scores.iter().map(|&(_, s)| s).max().unwrap();
            assert_eq!(scores.iter().find(|&&(_, s)| s == best).unwrap().0, *reply, "{}", pos.moves_string());
        }
    }

    #[test]
    fn the_shards_progress_files_are_found_beside_the_book() {
        let dir = std::env::temp_dir().join(format!("xtask-book-shards-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        for name in [
            "b.book.progress",
            "b.book.shard-0-of-2.progress",
            "b.book.shard-1-of-2.progress",
            "c.book.shard-0-of-2.progress",
            "b.book.shard-0-of-2.progress.tmp",
        ] {
            fs::write(dir.join(name), "").unwrap();
        }
        let found: Vec<String> = shard_progress_files(&dir.join("b.book"))
            .unwrap()
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(found, ["b.book.shard-0-of-2.progress", "b.book.shard-1-of-2.progress"]);
        assert!(shard_progress_files(&dir.join("missing").join("b.book")).unwrap().is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }
}
