//! One benchmark instance of `cargo xtask bench` ([`BenchCase`]), below both the table's
//! runner (`bench.rs`) and the games' case lists (`games/*`).

use std::fs;

use anyhow::Context;

/// One benchmark instance: `games-cli <args>` with `input` on stdin.
pub struct BenchCase {
    /// Short description shown in the table.
    pub label: String,
    /// Arguments after `games-cli`.
    pub args: Vec<String>,
    /// Text fed to stdin (empty for `--empty` runs).
    pub input: String,
    /// The reference time to compare with (free text, e.g. "textbook 0.5 s").
    pub reference: String,
}

impl BenchCase {
    /// A case whose input is a file under `testdata/`.
    pub fn from_testdata(label: &str, args: &[&str], file: &str, reference: &str) -> anyhow::Result<Self> {
        let path = crate::workspace_root().join("testdata").join(file);
        let input = fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        Ok(Self::new(label, args, input, reference))
    }

    /// A case with the given stdin text.
    pub fn new(label: &str, args: &[&str], input: String, reference: &str) -> Self {
        BenchCase {
            label: label.to_string(),
            args: args.iter().map(|s| (*s).to_string()).collect(),
            input,
            reference: reference.to_string(),
        }
    }
}
