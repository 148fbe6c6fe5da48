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
