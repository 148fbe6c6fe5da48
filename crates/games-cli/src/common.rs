//! Helpers shared by the subcommands: reading the input, output options, broken pipes, and
//! the value parsers of the options that take seconds or thread counts.

use std::io;
use std::path::PathBuf;

use anyhow::Context;

/// How answers are printed.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// The judge's exact output format.
    #[default]
    Judge,
    /// JSON Lines: one object per case (see the README for the keys).
    Json,
}

/// Output options shared by every solving subcommand.
#[derive(clap::Args, Debug, Clone)]
pub struct OutputArgs {
    /// After each judge answer, explain it: the board, every move's value, the best line
    /// (with `--format json`: the keys `moves`, `pv` and `stats`).
    #[arg(long)]
    pub analyze: bool,
    /// Output format: the judge's lines, or JSON Lines (one object per case; the value and the
    /// answer, and with `--analyze` every move's value and the principal variation).
    #[arg(long, value_enum, default_value_t = Format::Judge)]
    pub format: Format,
}

/// Input file option shared by every solving subcommand.
#[derive(clap::Args, Debug, Clone)]
pub struct InputArgs {
    /// Input file in the judge's format; standard input if absent or `-`.
    pub file: Option<PathBuf>,
}

impl InputArgs {
    /// The input as a byte stream, read as the parser asks (a 200 MB batch is never held
    /// whole). The judge parsers skip a byte-order mark and report bytes that are not UTF-8 by
    /// line, after answering the cases before them.
    pub fn reader(&self) -> anyhow::Result<Box<dyn io::BufRead>> {
        match &self.file {
            Some(path) if path.as_os_str() != "-" => {
                let file =
                    std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
                Ok(Box::new(io::BufReader::new(file)))
            }
            _ => Ok(Box::new(io::stdin().lock())),
        }
    }
}

/// Whether `err` is a write to a closed pipe (e.g. `games-cli … | head`), which is not an error.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| e.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe))
}

/// `--algorithm` and `--stats`, shared by the solving subcommands: compare search algorithms on
/// the same cases (the answers are the same; the work differs).
#[derive(clap::Args, Debug, Clone)]
pub struct AlgorithmArgs {
    /// Answer each case with this algorithm instead of the subcommand's own solver.
    #[arg(long, value_name = "ALGORITHM", value_parser = algorithm_parser())]
    pub algorithm: Option<search_core::reference::Algorithm>,
    /// With --algorithm: print each case's search statistics on stderr (value, nodes, TT hits,
    /// cutoffs, time).
    #[arg(long, requires = "algorithm")]
    pub stats: bool,
}

/// `--algorithm`'s values: the names of `search_core::reference::Algorithm::ALL`.
fn algorithm_parser() -> impl clap::builder::TypedValueParser<Value = search_core::reference::Algorithm> {
    use clap::builder::TypedValueParser;
    use search_core::reference::Algorithm;
    clap::builder::PossibleValuesParser::new(Algorithm::ALL.map(Algorithm::name)).map(|name| {
        Algorithm::ALL.into_iter().find(|a| a.name() == name).expect("a possible value names an algorithm")
    })
}

impl AlgorithmArgs {
    /// With `--stats`, prints `stats: case N, ALGORITHM: value V, …` on stderr.
    pub fn report(&self, case: usize, value: search_core::Value, stats: &search_core::Stats) {
        if let (true, Some(algorithm)) = (self.stats, self.algorithm) {
            let micros = stats.elapsed.as_micros();
            eprintln!(
                "stats: case {case}, {}: value {value}, {} nodes, {} TT hits, {} cutoffs, {micros} us",
                algorithm.name(),
                stats.nodes,
                stats.tt_hits,
                stats.cutoffs
            );
        }
    }
}

/// The spinner long solves show on stderr (as `triangle-war`'s root solve does): ticking on
/// its own, its message set by the caller; `None` when stderr is not a terminal, so that pipes,
/// files and the golden tests never see it.
pub fn progress_spinner() -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        bar
    })
}

/// Where a solve's progress messages go: the latest on a [`progress_spinner`] when stderr is a
/// terminal; otherwise, when `log_every` is set, one `games-cli: progress: MESSAGE` line at most
/// every `log_every` (the first at once); otherwise nowhere. Dropping it clears the spinner.
pub struct ProgressReport {
    terminal: bool,
    log_every: Option<std::time::Duration>,
    spinner: Option<indicatif::ProgressBar>,
    last_line: Option<std::time::Instant>,
}

impl ProgressReport {
    /// A report for a run whose stderr is a terminal (`terminal`), logging at most every
    /// `log_every` otherwise.
    pub fn new(terminal: bool, log_every: Option<std::time::Duration>) -> ProgressReport {
        ProgressReport { terminal, log_every, spinner: None, last_line: None }
    }

    /// Shows `message` as the report's rules say.
    pub fn report(&mut self, message: &str) {
        if self.terminal {
            if self.spinner.is_none() {
                self.spinner = progress_spinner();
            }
            if let Some(bar) = &self.spinner {
                bar.set_message(message.to_string());
            }
        } else if let Some(every) = self.log_every {
            if self.last_line.map_or(true, |t| t.elapsed() >= every) {
                self.last_line = Some(std::time::Instant::now());
                eprintln!("games-cli: progress: {message}");
            }
        }
    }
}

impl Drop for ProgressReport {
    fn drop(&mut self) {
        if let Some(bar) = self.spinner.take() {
            bar.finish_and_clear();
        }
    }
}

/// Largest `--threads N` accepted (0 still means every core): 256. A thread the system refuses
/// to create is not an error: the search runs on the threads it has.
pub const MAX_THREADS: u16 = 256;

/// clap's value parser of `--threads N`: 0 (every core) to [`MAX_THREADS`].
pub fn threads_parser() -> clap::builder::RangedI64ValueParser<u16> {
    clap::value_parser!(u16).range(0..=i64::from(MAX_THREADS))
}

/// The number of search threads `--threads N` asks for: `N`, or every core for 0.
pub fn thread_count(n: u16) -> usize {
    match n {
        0 => std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
        n => usize::from(n),
    }
}

/// The search engine's table and threads, for the games solved by the generic engine on large
/// boards (Triangle War, dots-and-boxes): `--tt-bits`, `--tt-mib`, `--threads`.
#[derive(clap::Args, Debug, Clone)]
pub struct TableArgs {
    /// TT size as a power of two (entries of about 32 bytes), for boards solved by search.
    /// Default: by the board's size, from 8 MiB on the judges' boards to 1 GiB on the largest
    /// (when the memory allows).
    #[arg(long, value_parser = clap::value_parser!(u32).range(10..=30), conflicts_with = "tt_mib")]
    pub tt_bits: Option<u32>,
    /// TT size in MiB (the largest power-of-two table that fits, for the number of threads
    /// asked for); refused before allocating if the memory available is smaller.
    #[arg(long, value_name = "MIB")]
    pub tt_mib: Option<u64>,
    /// Search threads for boards solved by search (lazy SMP over a shared TT; the answers do
    /// not depend on it); 0 means every core, at most 256.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = threads_parser())]
    pub threads: u16,
}

impl TableArgs {
    /// The number of search threads ([`thread_count`]).
    pub fn threads(&self) -> usize {
        thread_count(self.threads)
    }

    /// The TT size in bits for game `G`'s engine: `--tt-bits`, or the largest table within
    /// `--tt-mib` on [`TableArgs::threads`] threads (checked against the memory available),
    /// or `None` (the game's default).
    ///
    /// # Errors
    /// `--tt-mib` too small, or larger than the memory available.
    pub fn tt_bits<G: search_core::Game>(&self) -> anyhow::Result<Option<u32>> {
        self.tt_bits_with::<G>(&search_core::SearchOptions::DEFAULT)
    }

    /// [`TableArgs::tt_bits`] for the table `options` build (their one-thread table).
    ///
    /// # Errors
    /// As [`TableArgs::tt_bits`].
    pub fn tt_bits_with<G: search_core::Game>(
        &self,
        options: &search_core::SearchOptions,
    ) -> anyhow::Result<Option<u32>> {
        let Some(mib) = self.tt_mib else { return Ok(self.tt_bits) };
        let available = crate::memory::mem_available().map(|b| u64::try_from(b).unwrap_or(u64::MAX));
        let options = search_core::SearchOptions { threads: self.threads(), ..*options };
        Ok(Some(search_core::Engine::<G>::table_bits_for_mib(mib, &options, available)?))
    }
}

/// The opening book in the file at `path` (`--book`), verified as a book file
/// ([`search_core::Book::from_bytes`]: magic bytes, version, checksum); whose board it is, the
/// game checks.
///
/// # Errors
/// The file cannot be read, or is not an intact book file: the message names the file.
pub fn read_book(path: &std::path::Path) -> anyhow::Result<std::sync::Arc<search_core::Book>> {
    let bytes =
        std::fs::read(path).with_context(|| format!("--book {}: cannot read the file", path.display()))?;
    let book = search_core::Book::from_bytes(&bytes).with_context(|| format!("--book {}", path.display()))?;
    Ok(std::sync::Arc::new(book))
}
