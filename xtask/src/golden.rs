//! `cargo xtask golden`: the golden outputs of every `testdata/<dir>/<name>.in`, kept as insta
//! snapshots `testdata/<dir>/<name>.snap` (see `crates/games-cli/tests/golden.rs`).
//!
//! Writing runs that test with `INSTA_UPDATE=always` and removes snapshots whose input is gone;
//! `--check` runs it with `INSTA_UPDATE=no` and refuses orphan snapshots.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Snapshots under `testdata/*/` with no `.in` beside them.
fn orphans(root: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    for dir in fs::read_dir(root.join("testdata"))? {
        let dir = dir?.path();
        if !dir.is_dir() {
            continue;
        }
        for f in fs::read_dir(&dir)? {
            let f = f?.path();
            if f.extension().is_some_and(|e| e == "snap") && !f.with_extension("in").exists() {
                found.push(f);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Writes (or, with `check`, verifies) every golden snapshot.
pub fn run(check: bool) -> anyhow::Result<()> {
    let root = crate::workspace_root();
    let mut test = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    test.args(["test", "--quiet", "-p", "games-cli", "--test", "golden"]).current_dir(&root);
    if check {
        test.env("INSTA_UPDATE", "no");
    } else {
        test.env("INSTA_UPDATE", "always").env("INSTA_FORCE_PASS", "1").env_remove("CI");
    }
    anyhow::ensure!(test.status()?.success(), "golden outputs differ; review, then run `cargo xtask golden`");
    let orphans = orphans(&root)?;
    if check {
        let names: Vec<String> = orphans.iter().map(|p| p.display().to_string()).collect();
        anyhow::ensure!(orphans.is_empty(), "snapshots without input:\n  {}", names.join("\n  "));
        println!("golden: all snapshots current");
    } else {
        for f in &orphans {
            fs::remove_file(f)?;
            println!("removed {}", f.display());
        }
        println!("golden: snapshots written");
    }
    Ok(())
}
