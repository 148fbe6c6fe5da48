//! `cargo xtask ffo-bench`: the Othello endgame benchmark. Builds the `othello-solver`
//! example `ffo` in release mode and runs it on FFO files (`../shared/othello/fforum-*.obf`
//! beside the workspace by default): per position its empties, our value, the file's best
//! score, the nodes (the engine's and the endgame code's), the seconds and nodes per second;
//! then the totals. `--baseline BIN` runs a second `ffo` binary (built from an earlier
//! commit) on the same files right after, for a ratio measured in the same run.

use std::path::PathBuf;
use std::process::Command;

/// Arguments of `cargo xtask ffo-bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// OBF files to solve (default: FFO 1-19, 20-39 and 40-59 from `../shared/othello/`).
    pub files: Vec<PathBuf>,
    /// Skip positions with more empties than this.
    #[arg(long, default_value_t = 64)]
    pub max_empties: u32,
    /// TT size, 2^bits entries.
    #[arg(long, default_value_t = 22)]
    pub tt_bits: u32,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// A second `ffo` example binary, run on the same files after this one.
    #[arg(long)]
    pub baseline: Option<PathBuf>,
}

/// Builds the example and runs it (then the baseline) on every file.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let root = crate::workspace_root();
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--release", "--quiet", "-p", "othello-solver", "--example", "ffo"])
        .current_dir(&root)
        .status()?;
    anyhow::ensure!(status.success(), "cargo build --release -p othello-solver --example ffo failed");
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let ours = target.join("release").join("examples").join("ffo");
    let files = if args.files.is_empty() {
        let shared = root.join("..").join("shared").join("othello");
        ["fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf"].iter().map(|f| shared.join(f)).collect()
    } else {
        args.files.clone()
    };
    for file in &files {
        anyhow::ensure!(
            file.is_file(),
            "{}: no such file (the FFO files are in ../shared/othello/)",
            file.display()
        );
    }
    let mut binaries = vec![("this build", ours)];
    if let Some(base) = &args.baseline {
        binaries.push(("baseline", base.clone()));
    }
    for (name, bin) in &binaries {
        for file in &files {
            println!("## {name}: {}", file.display());
            let status = Command::new(bin)
                .arg(file)
                .arg(args.max_empties.to_string())
                .arg(args.tt_bits.to_string())
                .arg(args.threads.to_string())
                .status()?;
            anyhow::ensure!(status.success(), "{} {} failed", bin.display(), file.display());
        }
    }
    Ok(())
}
