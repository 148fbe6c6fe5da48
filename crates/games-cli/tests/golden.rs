//! Data-driven golden tests: for every `testdata/<dir>/<name>.in`, run
//! `games-cli <dir> <words of name.args>` with the input on stdin, then compare stdout with
//! `<name>.out`, exit status and stderr with `<name>.err` (absent when the run is clean), and
//! snapshot all three with insta. Regenerate with `cargo xtask golden`.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

fn case_args(input: &Path) -> Vec<String> {
    let dir = input.parent().and_then(Path::file_name).expect("input in a folder");
    let mut args = vec![dir.to_string_lossy().into_owned()];
    if let Ok(words) = fs::read_to_string(input.with_extension("args")) {
        args.extend(words.split_whitespace().map(String::from));
    }
    args
}

#[test]
fn golden_outputs() {
    insta::glob!("../../../testdata", "*/*.in", |input| {
        let output = Command::new(env!("CARGO_BIN_EXE_games-cli"))
            .args(case_args(input))
            .env("GAMES_CLI_ZERO_TIMES", "1")
            .stdin(Stdio::from(fs::File::open(input).unwrap()))
            .output()
            .unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        let code = output.status.code().unwrap_or(-1);
        let err = (code != 0 || !stderr.is_empty()).then(|| format!("exit status: {code}\n{stderr}"));

        let name = input.display();
        let want_out = fs::read_to_string(input.with_extension("out"))
            .unwrap_or_else(|_| panic!("{name}: no .out; run `cargo xtask golden`"));
        assert_eq!(stdout, want_out, "{name}: stdout differs from .out");
        let want_err = fs::read_to_string(input.with_extension("err")).ok();
        assert_eq!(err, want_err, "{name}: exit status / stderr differ from .err");
        // Panics must never reach the user, whatever the input.
        assert!(!stderr.contains("panicked"), "{name}: panicked:\n{stderr}");

        // One snapshot per input, named `<folder>-<stem>` so that equal file names in two
        // folders do not collide.
        let dir = input.parent().and_then(Path::file_name).unwrap().to_string_lossy();
        let stem = input.file_stem().unwrap().to_string_lossy();
        insta::with_settings!({ snapshot_suffix => format!("{dir}-{stem}"), prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!(format!(
                "args: {}\nexit status: {code}\n--- stdout\n{stdout}--- stderr\n{stderr}",
                case_args(input).join(" ")
            ));
        });
    });
}
