//! Data-driven golden tests: for every `testdata/<dir>/<name>.in`, run
//! `games-cli <dir> <words of name.args>` with the input on stdin and compare the arguments,
//! exit status, stdout and stderr with the insta snapshot `testdata/<dir>/<name>.snap` -- the
//! one golden source. `cargo xtask golden` rewrites the snapshots; `cargo xtask golden --check`
//! (and this test) fail on any difference.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

/// The arguments for `input`: its folder's name, then the words of the `.args` file if any.
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
        // Panics must never reach the user, whatever the input.
        assert!(!stderr.contains("panicked"), "{}: panicked:\n{stderr}", input.display());

        let dir = input.parent().unwrap();
        let stem = input.file_stem().unwrap().to_string_lossy().into_owned();
        insta::with_settings!({
            snapshot_path => dir,
            prepend_module_to_snapshot => false,
            snapshot_suffix => "",
            omit_expression => true,
            input_file => input,
        }, {
            insta::assert_snapshot!(stem, format!(
                "args: {}\nexit status: {code}\n--- stdout\n{stdout}--- stderr\n{stderr}",
                case_args(input).join(" ")
            ));
        });
    });
}
