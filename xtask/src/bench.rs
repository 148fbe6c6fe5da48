//! `cargo xtask bench`: wall-clock time of whole `games-cli` processes, as a table.
//!
//! Each case runs `--runs` times (after one warm-up run); the table gives the minimum and the
//! median, with the reference figure quoted in the issue for comparison.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::bench_case::BenchCase;

/// Arguments of `cargo xtask bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Timed runs per case.
    #[arg(long, default_value_t = 5)]
    pub runs: usize,
    /// Only cases whose label contains this text.
    #[arg(long)]
    pub filter: Option<String>,
    /// A second `games-cli` binary (e.g. built from an earlier commit) timed in the same run,
    /// alternating with this one; the table then adds its median and the ratio.
    #[arg(long)]
    pub baseline: Option<PathBuf>,
}

fn time_once(bin: &PathBuf, case: &BenchCase) -> anyhow::Result<Duration> {
    let input_path = std::env::temp_dir().join(format!("xtask-bench-{}.in", std::process::id()));
    fs::write(&input_path, &case.input)?;
    let start = Instant::now();
    let status = Command::new(bin)
        .args(&case.args)
        .stdin(Stdio::from(fs::File::open(&input_path)?))
        .stdout(Stdio::null())
        .status()?;
    let elapsed = start.elapsed();
    anyhow::ensure!(status.success(), "games-cli {} failed", case.args.join(" "));
    Ok(elapsed)
}

/// Runs every case and prints the table.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let bin = crate::build_games_cli()?;
    let mut cases = crate::games::triangle_war_bench()?;
    cases.extend(crate::games::young_chess_bench()?);
    cases.extend(crate::games::tic_tac_toe_bench()?);
    if let Some(f) = &args.filter {
        cases.retain(|c| c.label.contains(f.as_str()));
    }
    if let Some(base) = &args.baseline {
        println!("| case | command | min | median | baseline median | ratio | reference |");
        println!("|---|---|---:|---:|---:|---:|---|");
        for case in &cases {
            time_once(&bin, case)?; // warm-up
            time_once(base, case)?;
            let (mut ours, mut theirs) = (Vec::new(), Vec::new());
            // Alternate, so that both see the same machine load.
            for _ in 0..args.runs.max(1) {
                ours.push(time_once(&bin, case)?);
                theirs.push(time_once(base, case)?);
            }
            ours.sort();
            theirs.sort();
            let (m, b) = (ours[ours.len() / 2], theirs[theirs.len() / 2]);
            println!(
                "| {} | games-cli {} | {} | {} | {} | {:.2} | {} |",
                case.label,
                case.args.join(" "),
                fmt(ours[0]),
                fmt(m),
                fmt(b),
                m.as_secs_f64() / b.as_secs_f64(),
                case.reference
            );
        }
        return Ok(());
    }
    println!("| case | command | min | median | reference |");
    println!("|---|---|---:|---:|---|");
    for case in &cases {
        time_once(&bin, case)?; // warm-up
        let mut times: Vec<Duration> =
            (0..args.runs.max(1)).map(|_| time_once(&bin, case)).collect::<anyhow::Result<_>>()?;
        times.sort();
        println!(
            "| {} | games-cli {} | {} | {} | {} |",
            case.label,
            case.args.join(" "),
            fmt(times[0]),
            fmt(times[times.len() / 2]),
            case.reference
        );
    }
    Ok(())
}

fn fmt(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1.0 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}
