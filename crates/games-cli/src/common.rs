//! Helpers shared by the subcommands: reading the input, output options, broken pipes.

use std::io::{self, Read};
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
    /// After each judge answer, explain it: the board, every move's value, the best line.
    #[arg(long)]
    pub analyze: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Judge)]
    pub format: Format,
}

impl OutputArgs {
    /// Whether answers need an analysis (`--analyze` or `--format json`), not only the judge's
    /// answer.
    pub fn explains(&self) -> bool {
        self.analyze || self.format == Format::Json
    }
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

    /// The whole input as text. Bytes that are not UTF-8 become U+FFFD, so that the parser
    /// reports them with their line number after answering the cases before them; a leading
    /// byte-order mark is dropped.
    pub fn read(&self) -> anyhow::Result<String> {
        let mut bytes = Vec::new();
        match &self.file {
            Some(path) if path.as_os_str() != "-" => {
                bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            }
            _ => {
                io::stdin().read_to_end(&mut bytes).context("cannot read standard input")?;
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        Ok(text.strip_prefix('\u{feff}').unwrap_or(&text).to_string())
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
    /// The value of `pos` for its side to move by the chosen algorithm (which must be set),
    /// printing the statistics of case `case` on stderr with `--stats`.
    pub fn value<G: search_core::Game + Clone>(
        &self,
        case: usize,
        game: &G,
        pos: &G::Position,
        tt_bits: u32,
    ) -> search_core::Value {
        let mut total = search_core::Stats::default();
        let v = self.value_quiet(game, pos, tt_bits, &mut total);
        self.report(case, v, &total);
        v
    }

    /// The value of `pos` by the chosen algorithm, adding its statistics to `total`.
    pub fn value_quiet<G: search_core::Game + Clone>(
        &self,
        game: &G,
        pos: &G::Position,
        tt_bits: u32,
        total: &mut search_core::Stats,
    ) -> search_core::Value {
        let (v, stats) = search_core::reference::solve_with(self.algorithm(), game, pos, tt_bits);
        total.nodes += stats.nodes;
        total.tt_probes += stats.tt_probes;
        total.tt_hits += stats.tt_hits;
        total.cutoffs += stats.cutoffs;
        total.elapsed += stats.elapsed;
        v
    }

    /// With `--stats`, prints `stats: case N, ALGORITHM: value V, …` on stderr.
    pub fn report(&self, case: usize, value: search_core::Value, stats: &search_core::Stats) {
        if self.stats {
            let micros = if crate::report::zero_times() { 0 } else { stats.elapsed.as_micros() };
            eprintln!(
                "stats: case {case}, {}: value {value}, {} nodes, {} TT hits, {} cutoffs, {micros} us",
                self.algorithm().name(),
                stats.nodes,
                stats.tt_hits,
                stats.cutoffs
            );
        }
    }

    fn algorithm(&self) -> search_core::reference::Algorithm {
        self.algorithm.expect("an algorithm was chosen")
    }
}

/// A solve stopped by its limits before finishing: reported with exit status 3, after the
/// bounds proven so far were printed.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Incomplete(pub String);

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
