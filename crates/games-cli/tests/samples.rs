//! Every judge subcommand of the registry answers its sample as its problem statement says:
//! `games-cli <command> < testdata/<command>/sample.in` prints exactly
//! `testdata/<command>/sample.out`, a plain file written from outside the solver. The four
//! contest problems' expected files are their official sample outputs (POJ 1085, LOJ 2471,
//! UVa 10111, CCF CSP 201803-4); Connect Four's are the scores of Pons' test sets carried by
//! its input lines; Othello's the best move scores listed in the FFO files; dots-and-boxes'
//! are the values of a plain minimax over every line order of the 2x2 board. A problem added
//! to the registry without such a pair fails here.

use std::path::Path;
use std::process::{Command, Stdio};

#[test]
fn every_registered_problem_answers_its_sample() {
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    assert!(!game_registry::PROBLEMS.is_empty());
    for problem in game_registry::PROBLEMS {
        let dir = testdata.join(problem.command);
        let input = std::fs::read(dir.join("sample.in"))
            .unwrap_or_else(|e| panic!("{}: sample.in: {e}", problem.command));
        let expected = std::fs::read_to_string(dir.join("sample.out"))
            .unwrap_or_else(|e| panic!("{}: sample.out: {e}", problem.command));
        let mut child = Command::new(env!("CARGO_BIN_EXE_games-cli"))
            .arg(problem.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), &input).unwrap();
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}: {:?}", problem.command, output);
        assert_eq!(String::from_utf8_lossy(&output.stdout), expected, "{}", problem.command);
    }
}
