//! `cargo xtask test`: the README's test command. Installs what the tests need when it is
//! missing (headless Chromium and chromedriver for the web page's browser test, from Debian's
//! packages through `.ci/install-browser.sh`, which needs root), then runs `cargo test
//! --workspace` with any extra arguments. `.ci/run` calls this same command.

use std::path::Path;
use std::process::Command;

use anyhow::{ensure, Context};

/// Arguments of `cargo xtask test`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Arguments passed on to `cargo test --workspace` (e.g. `--locked`, `-- --nocapture`).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub cargo_args: Vec<String>,
}

/// Where the browser test looks for Chromium and its driver (Debian's packages).
const BROWSER: [&str; 2] = ["/usr/bin/chromium", "/usr/bin/chromedriver"];

/// Installs the browser when missing, then runs the workspace's tests.
///
/// # Errors
/// The browser cannot be installed (not root, no package registry), or a test fails.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let root = crate::workspace_root();
    if !BROWSER.iter().all(|p| Path::new(p).exists()) {
        eprintln!("xtask test: installing chromium and chromium-driver for the browser test");
        let status = Command::new("bash")
            .arg(root.join(".ci/install-browser.sh"))
            .status()
            .context("running .ci/install-browser.sh")?;
        ensure!(
            status.success(),
            "could not install chromium and chromium-driver (run `sudo bash .ci/install-browser.sh` once)"
        );
    }
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["test", "--workspace"])
        .args(&args.cargo_args)
        .current_dir(&root)
        .status()
        .context("running cargo test")?;
    ensure!(status.success(), "cargo test --workspace failed");
    Ok(())
}
