//! `cargo xtask test`: the README's test command. Installs what the tests need when it is
//! missing (headless Chromium and chromedriver for the web page's browser test, from Debian's
//! packages through `.ci/install-browser.sh`, which needs root), then runs `cargo test
//! --workspace` with any extra arguments, then the Python module's pytest suite: a virtual
//! environment `target/py-venv` gets maturin, pytest and OpenSpiel (`open-spiel`, for the
//! cross-checks against `pyspiel`) from PyPI when missing, `maturin develop` builds the module
//! into it, and pytest runs `crates/game-solvers-py/tests`.
//! `.ci/run` calls this same command.

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

/// Installs the browser when missing, then runs the workspace's tests, the Python module's
/// (installing maturin, pytest and OpenSpiel into `target/py-venv`), and the distributed solve
/// under MPI (`scripts/mpi-check.sh`, which installs Open MPI and libclang when missing).
///
/// # Errors
/// The browser or MPI cannot be installed (not root, no package registry), or a test fails.
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
    python_tests(&root)?;
    let status = Command::new("bash")
        .arg(root.join("scripts/mpi-check.sh"))
        .current_dir(&root)
        .status()
        .context("running scripts/mpi-check.sh")?;
    ensure!(status.success(), "scripts/mpi-check.sh failed (the distributed solve under MPI)");
    Ok(())
}

/// The OpenSpiel release the Python tests cross-check against (`pyspiel`): its wheels for
/// CPython 3.11 on manylinux x86-64 need no compiler.
const OPEN_SPIEL: &str = "open-spiel==2.0.2";

/// Runs `program` with `args` in `dir`, naming it in the error.
fn run_in(dir: &Path, program: &Path, args: &[&str], env: &[(&str, &std::ffi::OsStr)]) -> anyhow::Result<()> {
    let status = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(dir)
        .status()
        .with_context(|| format!("running {}", program.display()))?;
    ensure!(status.success(), "{} {} failed", program.display(), args.join(" "));
    Ok(())
}

/// Builds the Python module into `target/py-venv` (made, with maturin, pytest and OpenSpiel
/// from PyPI, when missing) and runs its pytest suite against this checkout's `games-cli`.
fn python_tests(root: &Path) -> anyhow::Result<()> {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), Into::into);
    let venv = root.join("target").join("py-venv");
    let bin = venv.join("bin");
    let python = bin.join("python");
    if !python.exists() {
        eprintln!("xtask test: making the virtual environment {}", venv.display());
        run_in(root, Path::new("python3"), &["-m", "venv", venv.to_str().context("venv path")?], &[])?;
    }
    if !bin.join("maturin").exists() || !bin.join("pytest").exists() {
        eprintln!("xtask test: installing maturin and pytest from PyPI into {}", venv.display());
        run_in(root, &python, &["-m", "pip", "install", "--quiet", "maturin>=1.5,<2", "pytest"], &[])?;
    }
    let has_openspiel = Command::new(&python)
        .args(["-c", "import pyspiel"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !has_openspiel {
        eprintln!(
            "xtask test: installing {OPEN_SPIEL} from PyPI into {} (the OpenSpiel cross-checks)",
            venv.display()
        );
        run_in(root, &python, &["-m", "pip", "install", "--quiet", "--only-binary=:all:", OPEN_SPIEL], &[])?;
    }
    let path = std::env::join_paths(
        std::iter::once(bin.clone()).chain(std::env::var_os("PATH").iter().flat_map(std::env::split_paths)),
    )?;
    let env = [("VIRTUAL_ENV", venv.as_os_str()), ("PATH", path.as_os_str())];
    run_in(
        root,
        &bin.join("maturin"),
        &["develop", "--quiet", "-m", "crates/game-solvers-py/Cargo.toml"],
        &env,
    )?;
    let cli = target.join("debug").join("games-cli");
    let env = [("VIRTUAL_ENV", venv.as_os_str()), ("PATH", path.as_os_str()), ("GAMES_CLI", cli.as_os_str())];
    run_in(root, &python, &["-m", "pytest", "-q", "crates/game-solvers-py/tests"], &env)
}
