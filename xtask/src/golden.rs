//! `cargo xtask golden`: golden outputs for every `testdata/<dir>/<name>.in`.
//!
//! The command run is `games-cli <dir> <words of <name>.args>` with `<name>.in` on stdin.
//! `<name>.out` holds its stdout; `<name>.err` holds `exit status: N` and its stderr, and exists
//! only when the status is non-zero or stderr is not empty. `GAMES_CLI_ZERO_TIMES=1` is set so
//! that timings print as 0 and outputs are reproducible.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::Context;

/// One golden case and what the binary printed for it.
struct Case {
    input: PathBuf,
    stdout: String,
    err: Option<String>,
}

/// All `*.in` files under `testdata/*/`, sorted.
fn inputs(root: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for dir in fs::read_dir(root.join("testdata"))? {
        let dir = dir?.path();
        if !dir.is_dir() {
            continue;
        }
        for f in fs::read_dir(&dir)? {
            let f = f?.path();
            if f.extension().is_some_and(|e| e == "in") {
                files.push(f);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// The arguments for `input`: its folder's name, then the words of the `.args` file if any.
pub fn case_args(input: &Path) -> anyhow::Result<Vec<String>> {
    let dir = input.parent().and_then(Path::file_name).context("input outside a folder")?;
    let mut args = vec![dir.to_string_lossy().into_owned()];
    let args_file = input.with_extension("args");
    if args_file.exists() {
        args.extend(fs::read_to_string(&args_file)?.split_whitespace().map(String::from));
    }
    Ok(args)
}

fn run_case(bin: &Path, input: &Path) -> anyhow::Result<Case> {
    let output = Command::new(bin)
        .args(case_args(input)?)
        .env("GAMES_CLI_ZERO_TIMES", "1")
        .stdin(Stdio::from(fs::File::open(input)?))
        .output()
        .with_context(|| format!("running games-cli on {}", input.display()))?;
    let stdout = String::from_utf8(output.stdout)?;
    let stderr = String::from_utf8(output.stderr)?;
    let code = output.status.code().unwrap_or(-1);
    let err = (code != 0 || !stderr.is_empty()).then(|| format!("exit status: {code}\n{stderr}"));
    Ok(Case { input: input.to_path_buf(), stdout, err })
}

/// Writes (or checks) every golden file; in write mode also refreshes the insta snapshots.
pub fn run(check: bool) -> anyhow::Result<()> {
    let root = crate::workspace_root();
    let bin = crate::build_games_cli()?;
    let mut stale = Vec::new();
    let files = inputs(&root)?;
    for input in &files {
        let case = run_case(&bin, input)?;
        let out_path = case.input.with_extension("out");
        let err_path = case.input.with_extension("err");
        let old_out = fs::read_to_string(&out_path).ok();
        let old_err = fs::read_to_string(&err_path).ok();
        if old_out.as_deref() != Some(case.stdout.as_str()) {
            stale.push(out_path.clone());
        }
        if old_err != case.err {
            stale.push(err_path.clone());
        }
        if !check {
            fs::write(&out_path, &case.stdout)?;
            match &case.err {
                Some(err) => fs::write(&err_path, err)?,
                None if err_path.exists() => fs::remove_file(&err_path)?,
                None => {}
            }
        }
    }
    let names: Vec<String> =
        stale.iter().map(|p| p.strip_prefix(&root).unwrap_or(p).display().to_string()).collect();
    if check {
        anyhow::ensure!(
            stale.is_empty(),
            "{} golden file(s) stale; run `cargo xtask golden`:\n  {}",
            stale.len(),
            names.join("\n  ")
        );
        println!("golden: {} inputs, all outputs current", files.len());
        return Ok(());
    }
    for name in &names {
        println!("updated {name}");
    }
    // Refresh the insta snapshots from the same binary outputs.
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["test", "--quiet", "-p", "games-cli", "--test", "golden"])
        .env("INSTA_UPDATE", "always")
        .env("INSTA_FORCE_PASS", "1")
        .env_remove("CI")
        .current_dir(&root)
        .status()?;
    anyhow::ensure!(status.success(), "refreshing insta snapshots failed");
    println!("golden: {} inputs, {} file(s) updated", files.len(), names.len());
    Ok(())
}
