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
