//! Process-level behaviour that golden files cannot show: closed pipes and usage errors.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

fn games_cli() -> Command {
    Command::new(env!("CARGO_BIN_EXE_games-cli"))
}

#[test]
fn a_closed_stdout_pipe_is_not_an_error() {
    let batch = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/triangle-war/batch-10000.in");
    let mut child = games_cli()
        .args(["triangle-war", batch])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    // The reader is dropped here: the pipe is closed after one line, like `| head -1`.
    assert!(first.starts_with("Game 1: "));
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "status {:?}", output.status);
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

#[test]
fn unsupported_side_is_refused_with_exit_status_2() {
    let output = games_cli().args(["triangle-war", "--side", "7", "--empty"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "games-cli: side 7 is not supported: expected 1 to 6\n"
    );
}

#[test]
fn a_missing_file_is_named() {
    let output = games_cli().args(["triangle-war", "/nonexistent/in.txt"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.starts_with("games-cli: cannot read /nonexistent/in.txt: "), "{stderr}");
}

/// A side-4 solve on `threads` threads stopped by its time limit exits with status 3 and the
/// bounds proven so far; started again with the same checkpoint file, it finishes with the
/// uninterrupted one-thread answer (text and JSON), as does the plain judge on those threads.
fn time_limited_solve_resumes_from_its_checkpoint(threads: &str) {
    let dir = std::env::temp_dir().join(format!("games-cli-checkpoint-{threads}t-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cp = dir.join("side4.checkpoint");
    let _ = std::fs::remove_file(&cp);
    let cp_arg = cp.to_str().unwrap();
    let side4 = ["triangle-war", "--side", "4", "--empty", "--threads", threads];
    let base = [&side4[..], &["--tt-bits", "18", "--checkpoint", cp_arg]].concat();
    let first = games_cli().args(&base).args(["--time-limit", "0.05"]).output().unwrap();
    assert_eq!(first.status.code(), Some(3), "{}", String::from_utf8_lossy(&first.stderr));
    let stdout = String::from_utf8_lossy(&first.stdout);
    assert!(stdout.starts_with("Game 1: not finished: final margin (A minus B) in ["), "{stdout}");
    let saved = std::fs::read_to_string(&cp).unwrap();
    assert!(!saved.is_empty());
    // The TT snapshot beside it: `key value bound best work` lines, read back on resume.
    let snapshot = std::fs::read_to_string(dir.join("side4.checkpoint.tt")).unwrap();
    for line in snapshot.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert!(f.len() == 5 && ["exact", "lower", "upper"].contains(&f[2]), "{line}");
        assert!(f[4].parse::<u32>().unwrap() >= 4096, "{line}");
    }
    // A damaged snapshot is refused with the line that is wrong (and the good one then used).
    let tt = dir.join("side4.checkpoint.tt");
    std::fs::write(&tt, "9 -6 lower 5 69762\n41 6 maybe - 3\n").unwrap();
    let damaged = games_cli().args(&base).output().unwrap();
    assert_eq!(damaged.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&damaged.stderr);
    assert!(stderr.contains("side4.checkpoint.tt: line 2: expected `key value"), "{stderr}");
    std::fs::write(&tt, snapshot).unwrap();
    let resumed = games_cli().args(&base).output().unwrap();
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert_eq!(String::from_utf8_lossy(&resumed.stdout), "Game 1: B wins.\n");
    let json = games_cli().args(&base).args(["--format", "json"]).output().unwrap();
    let json = String::from_utf8_lossy(&json.stdout);
    assert!(json.contains("\"finished\":true") && json.contains("\"value\":-2"), "{json}");
    // Without limits or checkpoint: the judge's search.
    let plain = games_cli().args(side4).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&plain.stdout), "Game 1: B wins.\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A checkpoint that already holds the answer (the side-5 solve kept in testdata) is only
/// read: the answer comes at once, and neither the checkpoint nor a TT snapshot is written.
#[test]
fn a_solved_checkpoint_is_answered_without_search_or_writes() {
    let dir = std::env::temp_dir().join(format!("games-cli-solved-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cp = dir.join("side5.checkpoint");
    let text = std::fs::read_to_string("../../testdata/triangle-war/side5-empty.ckpt").unwrap();
    std::fs::write(&cp, &text).unwrap();
    let args =
        ["triangle-war", "--side", "5", "--empty", "--format", "json", "--checkpoint", cp.to_str().unwrap()];
    let output = games_cli().args(args).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("\"finished\":true") && stdout.contains("\"nodes\":0"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&cp).unwrap(), text);
    assert!(!dir.join("side5.checkpoint.tt").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--analyze` with a checkpoint runs the root driver with every root move made exact; stopped
/// by a time limit and resumed, it gives the judge's analysis of the empty side-4 board (the
/// same value and move values) and a principal variation that replays to the value.
#[test]
fn a_checkpointed_analysis_matches_the_plain_one_and_its_pv_replays() {
    use serde_json::Value;
    let dir = std::env::temp_dir().join(format!("games-cli-analysis-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cp = dir.join("side4.checkpoint");
    let side4 = ["triangle-war", "--side", "4", "--empty", "--analyze", "--format", "json"];
    let plain = games_cli().args(side4).output().unwrap();
    let plain: Value = serde_json::from_slice(&plain.stdout).unwrap();
    let base = [&side4[..], &["--tt-bits", "18", "--checkpoint", cp.to_str().unwrap()]].concat();
    let first = games_cli().args(&base).args(["--time-limit", "0.05"]).output().unwrap();
    assert_eq!(first.status.code(), Some(3), "{}", String::from_utf8_lossy(&first.stderr));
    let resumed = games_cli().args(&base).output().unwrap();
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    let driven: Value = serde_json::from_slice(&resumed.stdout).unwrap();
    assert_eq!(driven["value"], plain["value"]);
    assert_eq!(driven["value"], -2);
    let sorted = |a: &Value| {
        let mut m: Vec<(String, i64)> = a["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["move"].as_str().unwrap().to_string(), m["value"].as_i64().unwrap()))
            .collect();
        m.sort();
        m
    };
    assert_eq!(sorted(&driven), sorted(&plain));
    assert_eq!(sorted(&driven).len(), 30);
    let g = triangle_war::Geometry::new(4).unwrap();
    let mut pos = triangle_war::Position::start();
    for mv in driven["pv"].as_array().unwrap() {
        let s = triangle_war::parse_segment(&g, mv.as_str().unwrap()).unwrap();
        pos = pos.try_play(&g, s).unwrap().0;
    }
    assert!(pos.is_over(&g));
    assert_eq!(pos.margin(), -2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_time_limited_solve_resumes_from_its_checkpoint() {
    time_limited_solve_resumes_from_its_checkpoint("1");
}

/// The same on two threads: the parallel engine drives the root.
#[test]
fn a_time_limited_two_thread_solve_resumes_from_its_checkpoint() {
    time_limited_solve_resumes_from_its_checkpoint("2");
}

#[test]
fn an_oversized_tt_is_refused_before_allocating() {
    let output = games_cli()
        .args(["triangle-war", "--side", "4", "--empty", "--tt-mib", "1000000000"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.starts_with("games-cli: a TT of 1000000000 MiB needs "), "{stderr}");
}
