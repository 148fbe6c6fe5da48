//! `cargo xtask mnk-table`: which empty m,n,k boards (up to 8 x 8, k = 4, 5, 6 by default)
//! `games-cli winning-move` solves, by which algorithm, in how long: one row per board, each solve in its own process
//! with a time limit. `default` is the subcommand's own solver (the Maker-Breaker prover
//! first, then alpha-beta), the other names are `--algorithm` values.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Arguments of `cargo xtask mnk-table`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Seconds allowed per solve.
    #[arg(long, default_value_t = 60)]
    pub time_limit: u64,
    /// Largest side.
    #[arg(long, default_value_t = 8)]
    pub max_side: usize,
    /// Line lengths (boards with both sides below k are left out).
    #[arg(long, value_delimiter = ',', default_value = "4,5,6")]
    pub k: Vec<usize>,
    /// Algorithms to compare: `default` (games-cli's own solver) or `--algorithm` values.
    #[arg(long, value_delimiter = ',', default_value = "default")]
    pub algorithms: Vec<String>,
}

/// What one solve gave.
enum Outcome {
    Answer(String, Duration, String),
    TimedOut,
}

fn solve(
    bin: &std::path::Path,
    rows: usize,
    cols: usize,
    k: usize,
    algorithm: &str,
    limit: Duration,
) -> anyhow::Result<Outcome> {
    let size = format!("{rows}x{cols}");
    let k_text = k.to_string();
    let start = Instant::now();
    let mut args = vec!["winning-move", "--size", &size, "--k", &k_text, "--empty"];
    if algorithm != "default" {
        args.extend(["--algorithm", algorithm, "--stats"]);
    }
    let mut child = Command::new(bin).args(&args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()?;
    loop {
        if child.try_wait()?.is_some() {
            let elapsed = start.elapsed();
            let output = child.wait_with_output()?;
            let answer = String::from_utf8_lossy(&output.stdout).trim().to_string();
            let stats = String::from_utf8_lossy(&output.stderr);
            let nodes = stats.split(", ").find(|w| w.ends_with(" nodes")).unwrap_or("-").to_string();
            return Ok(Outcome::Answer(answer, elapsed, nodes));
        }
        if start.elapsed() > limit {
            child.kill()?;
            child.wait()?;
            return Ok(Outcome::TimedOut);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Prints the table.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let bin = crate::build_games_cli()?;
    let limit = Duration::from_secs(args.time_limit);
    print!("| board | k | x's first forced win |");
    for a in &args.algorithms {
        print!(" {a} |");
    }
    println!();
    println!("|---|---:|---|{}", "---:|".repeat(args.algorithms.len()));
    for rows in 3..=args.max_side {
        for cols in rows..=args.max_side {
            for &k in args.k.iter().filter(|&&k| k <= cols) {
                let mut answer = None;
                let mut cells = Vec::new();
                for a in &args.algorithms {
                    match solve(&bin, rows, cols, k, a, limit)? {
                        Outcome::Answer(text, t, nodes) => {
                            cells.push(if nodes == "-" {
                                format!("{:.2} s", t.as_secs_f64())
                            } else {
                                format!("{:.2} s, {nodes}", t.as_secs_f64())
                            });
                            answer = Some(text);
                        }
                        Outcome::TimedOut => cells.push(format!("> {} s", args.time_limit)),
                    }
                }
                let answer = answer.map_or("unsolved".to_string(), |a| {
                    if a == "#####" {
                        "none (draw)".to_string()
                    } else {
                        a
                    }
                });
                println!("| {rows}x{cols} | {k} | {answer} | {} |", cells.join(" | "));
            }
        }
    }
    Ok(())
}
