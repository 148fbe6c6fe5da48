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
    // The TT snapshot beside it: a sealed file of `key value bound best work` lines, read back
    // on resume.
    let snapshot = std::fs::read_to_string(dir.join("side4.checkpoint.tt")).unwrap();
    let lines: Vec<&str> = snapshot.lines().collect();
    assert_eq!(
        lines[..4],
        [
            "game-solvers tt-snapshot 2",
            "game triangle-war",
            "options side 4 keys 1 twins graph",
            "root drawn 0x0, A to move"
        ]
    );
    assert!(lines[lines.len() - 1].starts_with("checksum "));
    for line in &lines[4..lines.len() - 1] {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert!(f.len() == 5 && ["exact", "lower", "upper"].contains(&f[2]), "{line}");
        assert!(f[4].parse::<u32>().unwrap() >= 4096, "{line}");
    }
    // A damaged snapshot is refused naming the file and why (and the good one then used).
    let tt = dir.join("side4.checkpoint.tt");
    std::fs::write(&tt, "9 -6 lower 5 69762\n41 6 maybe - 3\n").unwrap();
    let damaged = games_cli().args(&base).output().unwrap();
    assert_eq!(damaged.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&damaged.stderr);
    assert!(stderr.contains("side4.checkpoint.tt: no checksum line at the end"), "{stderr}");
    std::fs::write(&tt, &snapshot).unwrap();
    // Saved under other keys (here other `--rules`: no twin keys), it is refused too, not read
    // as bounds on the positions its keys would name now.
    let other_keys = games_cli().args(&base).args(["--rules", "all,no-twins"]).output().unwrap();
    assert_eq!(other_keys.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&other_keys.stderr);
    assert!(stderr.contains("side4.checkpoint.tt") && stderr.contains("refused"), "{stderr}");
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
    let side4 = ["triangle-war", "--side", "4", "--empty", "--analyze", "--format", "json"];
    let (plain, driven) = plain_and_checkpointed_analysis("side4", &side4, "18", "0.05");
    assert_eq!(driven["value"], plain["value"]);
    assert_eq!(driven["value"], -2);
    assert_eq!(move_values(&driven), move_values(&plain));
    assert_eq!(move_values(&driven).len(), 30);
    let g = triangle_war::Geometry::new(4).unwrap();
    let mut pos = triangle_war::Position::start();
    for mv in driven["pv"].as_array().unwrap() {
        let s = triangle_war::parse_segment(&g, mv.as_str().unwrap()).unwrap();
        pos = pos.try_play(&g, s).unwrap().0;
    }
    assert!(pos.is_over(&g));
    assert_eq!(pos.margin(), -2);
}

/// Runs `args` (an `--analyze --format json` solve of one position) plainly, then under
/// `--tt-bits TT_BITS --checkpoint` in a fresh directory, first stopped by `--time-limit
/// SECONDS` (exit status 3) and then resumed to the end; returns both JSON answers.
fn plain_and_checkpointed_analysis(
    name: &str,
    args: &[&str],
    tt_bits: &str,
    seconds: &str,
) -> (serde_json::Value, serde_json::Value) {
    let dir = std::env::temp_dir().join(format!("games-cli-analysis-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cp = dir.join("checkpoint");
    let plain = serde_json::from_slice(&games_cli().args(args).output().unwrap().stdout).unwrap();
    let base = [args, &["--tt-bits", tt_bits, "--checkpoint", cp.to_str().unwrap()]].concat();
    let first = games_cli().args(&base).args(["--time-limit", seconds]).output().unwrap();
    assert_eq!(first.status.code(), Some(3), "{}", String::from_utf8_lossy(&first.stderr));
    let resumed = games_cli().args(&base).output().unwrap();
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    let _ = std::fs::remove_dir_all(&dir);
    (plain, serde_json::from_slice(&resumed.stdout).unwrap())
}

/// A JSON analysis' moves as (move, value) pairs, sorted by move.
fn move_values(a: &serde_json::Value) -> Vec<(String, i64)> {
    let mut m: Vec<(String, i64)> = a["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["move"].as_str().unwrap().to_string(), m["value"].as_i64().unwrap()))
        .collect();
    m.sort();
    m
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

/// `games-cli ARGS` in a shell whose address space is capped at `kib` KiB (`ulimit -v`):
/// exit status, stdout, stderr.
fn run_within_address_space(kib: u64, args: &str) -> (Option<i32>, String, String) {
    let bin = env!("CARGO_BIN_EXE_games-cli");
    let output =
        Command::new("sh").arg("-c").arg(format!("ulimit -v {kib} && exec {bin} {args}")).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (output.status.code(), text(&output.stdout), text(&output.stderr))
}

/// A Triangle War TT of 2^24 entries (about 400 MB) is allocated once, by the judge and by
/// the long-solve driver: both run in an address space of 650 MB, which two such tables
/// would not fit.
#[test]
fn a_triangle_war_tt_is_allocated_once() {
    let batch = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/triangle-war/side4-batch.in");
    let (code, stdout, stderr) =
        run_within_address_space(650_000, &format!("triangle-war --side 4 --tt-bits 24 {batch}"));
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout.lines().count(), 40, "{stdout}");
    let (code, stdout, stderr) = run_within_address_space(
        650_000,
        "triangle-war --side 5 --empty --threads 1 --tt-bits 24 --time-limit 0.2",
    );
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stdout.starts_with("Game 1: not finished: final margin (A minus B) in ["), "{stdout}");
}

/// Dots-and-boxes under `--checkpoint`: an analysis from the root driver (every root move made
/// exact, resumed after a time limit) with the plain analysis' value and move values, and a
/// principal variation that replays to the value.
#[test]
fn a_checkpointed_dots_and_boxes_analysis_matches_the_plain_one() {
    let board = ["dots-and-boxes", "--size", "2x4", "--empty", "--analyze", "--format", "json"];
    let (plain, driven) = plain_and_checkpointed_analysis("2x4", &board, "14", "0.02");
    assert_eq!((driven["value"].as_i64(), plain["value"].as_i64()), (Some(2), Some(2)));
    assert_eq!(move_values(&driven), move_values(&plain));
    assert_eq!(move_values(&driven).len(), 22);
    let g = dots_and_boxes::Geometry::new(2, 4).unwrap();
    let mut pos = dots_and_boxes::Position::start();
    for mv in driven["pv"].as_array().unwrap() {
        pos = pos.try_play(&g, mv.as_str().unwrap().parse().unwrap()).unwrap().0;
    }
    assert!(pos.is_over(&g));
    assert_eq!(pos.margin(), 2);
}

/// Dots-and-boxes takes the same table and thread options as Triangle War: the answer does not
/// depend on them, a table larger than the memory is refused before allocating.
#[test]
fn dots_and_boxes_table_and_threads() {
    for extra in [&["--threads", "2", "--tt-mib", "16"][..], &["--tt-bits", "12"], &["--threads", "0"]] {
        let out =
            games_cli().args(["dots-and-boxes", "--size", "3x3", "--empty"]).args(extra).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{extra:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8(out.stdout).unwrap(), format!("{} -3\n", "0".repeat(24)), "{extra:?}");
    }
    for (extra, message) in [
        (&["--tt-mib", "1000000000"][..], "games-cli: a TT of 1000000000 MiB needs "),
        (&["--tt-mib", "0"], "games-cli: a TT of 0 MiB is too small"),
    ] {
        let out =
            games_cli().args(["dots-and-boxes", "--size", "4x4", "--empty"]).args(extra).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with(message), "{extra:?}: {stderr}");
    }
}

/// Replaces line `line` (0-based) of a sealed file's text by `new` and seals it again, as
/// someone who knows the format would: only the content checks can refuse it then.
fn resealed(text: &str, line: usize, new: &str, kind: search_core::SealedKind) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let header = |i: usize| lines[i].split_once(' ').unwrap().1.to_string();
    let identity = search_core::SolveIdentity { game: header(1), options: header(2), root: header(3) };
    let mut body: Vec<String> = lines[4..lines.len() - 1].iter().map(|l| l.to_string()).collect();
    body[line - 4] = new.to_string();
    search_core::seal(kind, &identity, &body.iter().map(|l| format!("{l}\n")).collect::<String>())
}

/// No edit of a checkpoint or its TT snapshot changes an answer: random edits of values, moves
/// and keys (one character each) on side 3 and 4 checkpoints are all refused with the file
/// named (the checksum), and edits sealed again with a valid checksum are refused when a value
/// is outside the game's range or a move is not the board's, and otherwise cannot change the
/// answer (bounds are checked against the game's, the TT's entries against the board).
#[test]
fn edited_checkpoints_are_refused_or_change_nothing() {
    use search_core::SealedKind;
    let dir = std::env::temp_dir().join(format!("games-cli-edited-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    for side in ["3", "4"] {
        // The clean answer, from the plain judge (no checkpoint).
        let plain = games_cli().args(["triangle-war", "--side", side, "--empty"]).output().unwrap();
        let answer = String::from_utf8(plain.stdout).unwrap();
        assert!(answer.starts_with("Game 1: "), "{answer}");
        let cp = dir.join(format!("side{side}.ckpt"));
        let tt = dir.join(format!("side{side}.ckpt.tt"));
        let _ = std::fs::remove_file(&cp);
        let _ = std::fs::remove_file(&tt);
        let args = [
            "triangle-war",
            "--side",
            side,
            "--empty",
            "--tt-bits",
            "18",
            "--checkpoint",
            cp.to_str().unwrap(),
        ];
        // Stopped early so that the checkpoint holds bounds still open and a TT snapshot.
        let first =
            games_cli().args(args).args(["--time-limit", "0.02", "--save-every", "1"]).output().unwrap();
        assert!(first.status.code() == Some(3) || first.status.success());
        // A finished checkpoint is only read: its TT snapshot is then never looked at.
        let finished = first.status.success();
        let clean_cp = std::fs::read_to_string(&cp).unwrap();
        let clean_tt = std::fs::read_to_string(&tt).unwrap_or_default();
        let tt_entries = clean_tt.lines().count().saturating_sub(5);
        for round in 0..24 {
            let on_tt = round % 2 == 1 && tt_entries > 0;
            let (file, clean) = if on_tt { (&tt, &clean_tt) } else { (&cp, &clean_cp) };
            // One character of the body changed to another digit or sign.
            let body_start = clean.match_indices('\n').nth(3).unwrap().0 + 1;
            let body_end = clean.rfind("checksum").unwrap();
            let mut bytes = clean.as_bytes().to_vec();
            let at = body_start + next(body_end - body_start);
            let old = bytes[at];
            bytes[at] =
                if old.is_ascii_digit() { b'0' + ((old - b'0' + 1 + next(9) as u8) % 10) } else { b'-' };
            if bytes[at] == old {
                continue;
            }
            std::fs::write(file, &bytes).unwrap();
            let out = games_cli().args(args).output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            if on_tt && finished {
                assert_eq!(String::from_utf8_lossy(&out.stdout), answer, "{stderr}");
                std::fs::write(file, clean).unwrap();
                continue;
            }
            assert_eq!(out.status.code(), Some(2), "side {side} round {round}: {stderr}");
            assert!(stderr.contains(file.file_name().unwrap().to_str().unwrap()), "{stderr}");
            assert!(stderr.contains("checksum") || stderr.contains("line"), "{stderr}");
            std::fs::write(file, clean).unwrap();
        }
        // Sealed again: a root bound beyond the game's range, a TT value beyond it, a TT move
        // that is no segment, are refused.
        let first_move = clean_cp.lines().nth(4).unwrap().split_whitespace().next().unwrap().to_string();
        let cases = [
            (resealed(&clean_cp, 4, &format!("{first_move} 1000 1000"), SealedKind::Checkpoint), "outside"),
            (resealed(&clean_cp, 4, &format!("{first_move} -1000 1000"), SealedKind::Checkpoint), "outside"),
            (resealed(&clean_cp, 4, "99 0 0", SealedKind::Checkpoint), "legal moves"),
        ];
        for (text, why) in cases {
            std::fs::write(&cp, &text).unwrap();
            let out = games_cli().args(args).output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{stderr}");
            assert!(stderr.contains(why) && stderr.contains("refused"), "{stderr}");
            std::fs::write(&cp, &clean_cp).unwrap();
        }
        if tt_entries > 0 && !finished {
            let line = clean_tt.lines().nth(4).unwrap();
            let f: Vec<&str> = line.split_whitespace().collect();
            for (edit, why) in [
                (format!("{} -1000 {} {} {}", f[0], f[2], f[3], f[4]), "no position of this game"),
                (format!("{} {} {} 200 {}", f[0], f[1], f[2], f[4]), "no position of this game"),
            ] {
                std::fs::write(&tt, resealed(&clean_tt, 4, &edit, SealedKind::TtSnapshot)).unwrap();
                let out = games_cli().args(args).output().unwrap();
                let stderr = String::from_utf8_lossy(&out.stderr);
                assert_eq!(out.status.code(), Some(2), "{stderr}");
                assert!(stderr.contains(why) && stderr.contains(".tt"), "{stderr}");
            }
            std::fs::write(&tt, &clean_tt).unwrap();
        }
        // Another board's checkpoint is refused by its header.
        let other = if side == "3" { "4" } else { "3" };
        let out = games_cli()
            .args(["triangle-war", "--side", other, "--empty", "--checkpoint", cp.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("made for options `side {side}`")));
        // The clean files still give the answer.
        let out = games_cli().args(args).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), answer, "{}", String::from_utf8_lossy(&out.stderr));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--time-limit` is per game: a batch whose first games are stopped still answers the later
/// ones, and ends with exit status 3 naming the unfinished games.
#[test]
fn a_time_limit_on_a_batch_stops_each_game_not_the_batch() {
    // Two empty side-5 boards (far beyond 0.2 s), then a game with one segment left.
    let segments: Vec<(u32, u32)> = (1..=5u32)
        .flat_map(|r| {
            let dot = move |r: u32, c: u32| r * (r + 1) / 2 + c + 1;
            (0..r).flat_map(move |c| {
                [(dot(r - 1, c), dot(r, c)), (dot(r - 1, c), dot(r, c + 1)), (dot(r, c), dot(r, c + 1))]
            })
        })
        .collect();
    assert_eq!(segments.len(), 45);
    let mut input = format!("3\n0\n0\n{}\n", segments.len() - 1);
    for (a, b) in &segments[..segments.len() - 1] {
        input.push_str(&format!("{a} {b}\n"));
    }
    let path = std::env::temp_dir().join(format!("games-cli-batch-{}.in", std::process::id()));
    std::fs::write(&path, input).unwrap();
    let out =
        games_cli().args(["triangle-war", "--side", "5", "--time-limit", "0.2"]).arg(&path).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(lines[0].starts_with("Game 1: not finished") && lines[1].starts_with("Game 2: not finished"));
    assert!(lines[2] == "Game 3: A wins." || lines[2] == "Game 3: B wins.", "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("stopped by the time limit before finishing games 1, 2"), "{stderr}");
    let _ = std::fs::remove_file(&path);
}

/// Runs `games-cli ARGS` with `input` on stdin; returns (exit code, stdout, stderr).
fn run_with_input(args: &[&str], input: &[u8]) -> (Option<i32>, String, String) {
    use std::io::Write;
    let mut child = games_cli()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from another thread: the answers are read while the input is still being sent.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Every option that takes seconds refuses values that are not finite, not positive or above
/// the documented maximum (1e9 s) with a clap error (exit status 2), never a panic or a silent
/// 0; the largest value is accepted.
#[test]
fn seconds_options_refuse_bad_values() {
    let commands: [&[&str]; 5] = [
        &["triangle-war", "--empty", "--time-limit"],
        &["winning-move", "--empty", "--time-limit"],
        &["triangle-war", "--empty", "--checkpoint", "/nonexistent/cp", "--save-every"],
        &["connect-four", "--empty", "--time-limit"],
        &["serve", "--port", "0", "--time-budget"],
    ];
    for command in commands {
        let (option, rest) = command.split_last().unwrap();
        for bad in ["-1", "0", "NaN", "inf", "-inf", "1e20", "1e19", "ten"] {
            let output = games_cli().args(rest).arg(format!("{option}={bad}")).output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{command:?} {bad}: {stderr}");
            assert!(
                stderr.contains("expected a number of seconds greater than 0 and at most 1e9"),
                "{command:?} {bad}: {stderr}"
            );
        }
    }
    let output = games_cli().args(["triangle-war", "--empty", "--time-limit", "1e9"]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(String::from_utf8_lossy(&output.stdout), "Game 1: B wins.\n");
}

/// `--threads` is capped at 256 (0 still means every core); `--node-budget 0` is refused.
#[test]
fn thread_counts_are_capped_and_node_budgets_positive() {
    for command in [&["triangle-war", "--empty"][..], &["connect-four", "--empty", "--size", "4x4"]] {
        let output = games_cli().args(command).args(["--threads", "257"]).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("257 is not in 0..=256"), "{stderr}");
    }
    let output =
        games_cli().args(["connect-four", "--empty", "--size", "5x4", "--threads", "256"]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(String::from_utf8_lossy(&output.stdout), " 0\n");
    let output = games_cli().args(["serve", "--port", "0", "--node-budget", "0"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("invalid value '0' for '--node-budget <NODES>'"), "{stderr}");
}

/// `--algorithm` (and so `--stats`) cannot be combined with the root driver's options, which
/// would ignore them: refused with a message naming both.
#[test]
fn algorithm_with_a_time_limit_or_checkpoint_is_refused() {
    let output = games_cli()
        .args(["winning-move", "--empty", "--algorithm", "minimax", "--time-limit", "5"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot be used with"));
    for extra in [&["--time-limit", "5"][..], &["--checkpoint", "/nonexistent/cp"]] {
        let output = games_cli()
            .args(["triangle-war", "--empty", "--algorithm", "minimax", "--stats"])
            .args(extra)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("cannot be used with") && stderr.contains("--algorithm"), "{stderr}");
    }
}

/// connect-four answers each line as soon as it is read: the first answer arrives while the
/// input is still open.
#[test]
fn connect_four_answers_each_line_before_the_input_ends() {
    use std::io::Write;
    let mut child = games_cli()
        .args(["connect-four"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    for (input, answer) in [
        ("12345671234567\n", "12345671234567 11\n"),
        ("2252576253462244111563365343671351441\n", "2252576253462244111563365343671351441 -1\n"),
    ] {
        stdin.write_all(input.as_bytes()).unwrap();
        stdin.flush().unwrap();
        line.clear();
        stdout.read_line(&mut line).unwrap();
        assert_eq!(line, answer);
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

/// Blank and whitespace-only lines (a trailing CRLF line included) are skipped, never solved as
/// the empty board; `--empty` asks for it. A line of other white space (no-break space) is an
/// error, not a blank line.
#[test]
fn connect_four_skips_blank_lines_and_answers_the_empty_board_with_empty() {
    let (code, stdout, stderr) = run_with_input(
        &["connect-four"],
        b"\n  \n\t\r\n2252576253462244111563365343671351441\r\n \t \r\n\r\n",
    );
    assert_eq!(
        (code, stdout.as_str(), stderr.as_str()),
        (Some(0), "2252576253462244111563365343671351441 -1\n", "")
    );
    let (code, stdout, _) = run_with_input(&["connect-four"], b"\r\n");
    assert_eq!((code, stdout.as_str()), (Some(0), ""));
    let output = games_cli().args(["connect-four", "--size", "4x4", "--empty"]).output().unwrap();
    assert!(output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stdout), " 0\n");
    let (code, stdout, stderr) =
        run_with_input(&["connect-four"], "2252576253462244111563365343671351441\n\u{a0}\n".as_bytes());
    assert_eq!((code, stdout.as_str()), (Some(2), "2252576253462244111563365343671351441 -1\n"));
    assert!(stderr.starts_with("games-cli: line 2, column 1: move 1: '\\u{a0}' is not a column"), "{stderr}");
}

/// A huge bad field is quoted cut, not repeated whole; a huge line is refused by its length
/// (memory stays one bounded line); the answers before it stay printed.
#[test]
fn connect_four_quotes_a_bounded_prefix_of_a_bad_field() {
    let mut input = b"2252576253462244111563365343671351441\n4453 ".to_vec();
    input.extend(std::iter::repeat(b'x').take(100_000));
    input.push(b'\n');
    let (code, stdout, stderr) = run_with_input(&["connect-four"], &input);
    assert_eq!((code, stdout.as_str()), (Some(2), "2252576253462244111563365343671351441 -1\n"));
    assert!(stderr.len() < 200, "{} bytes: {stderr}", stderr.len());
    assert!(
        stderr.starts_with("games-cli: line 2, column 6: expected an integer score, found `xxx"),
        "{stderr}"
    );
    assert!(stderr.trim_end().ends_with("x…`"), "{stderr}");
    let mut input = b"2252576253462244111563365343671351441\n".to_vec();
    input.extend(std::iter::repeat(b'1').take(3 << 20));
    let (code, stdout, stderr) = run_with_input(&["connect-four"], &input);
    assert_eq!((code, stdout.as_str()), (Some(2), "2252576253462244111563365343671351441 -1\n"));
    assert_eq!(stderr, "games-cli: line 2: expected a line of at most 1048576 bytes, found a longer one\n");
}

/// `--time-limit` on connect-four is per position: a position it stops is printed as not
/// finished with the bounds proven, the next ones are still answered, and the exit status is 3
/// (without the bundled book, which answers the one-stone position at once).
#[test]
fn connect_four_time_limit_stops_one_position_and_answers_the_next() {
    let quick = "2252576253462244111563365343671351441";
    let input = format!("1\n{quick}\n");
    let (code, stdout, stderr) =
        run_with_input(&["connect-four", "--no-book", "--time-limit", "0.05"], input.as_bytes());
    assert_eq!(code, Some(3), "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(lines[0].starts_with("1 not finished: score in ["), "{stdout}");
    let bounds = lines[0].trim_start_matches("1 not finished: score in [").trim_end_matches(']');
    let (lo, hi) = bounds.split_once(", ").unwrap();
    let (lo, hi): (i64, i64) = (lo.parse().unwrap(), hi.parse().unwrap());
    // After one stone on 7x6 the side to move scores between -20 and 21; the truth is 2 (the
    // first player's column-1 opening loses with O's 20th stone).
    assert!((-20..=2).contains(&lo) && (2..=21).contains(&hi), "{lo} {hi}");
    assert_eq!(lines[1], format!("{quick} -1"));
    assert_eq!(stderr, "games-cli: stopped by the time limit before finishing line 1\n");
    let (code, stdout, _) =
        run_with_input(&["connect-four", "--no-book", "--time-limit", "0.05", "--format", "json"], b"1\n");
    assert_eq!(code, Some(3));
    assert!(stdout.contains("\"finished\":false") && stdout.contains("\"score_lo\""), "{stdout}");
}

/// `play` echoes piped input with control characters escaped: ESC and BEL never reach the
/// terminal.
#[test]
fn play_escapes_control_characters_in_its_echo() {
    let (code, stdout, _) =
        run_with_input(&["play", "connect-four", "--size", "4x4"], b"\x1b[2J\x07\nquit\n");
    assert_eq!(code, Some(0));
    assert!(!stdout.contains('\u{1b}') && !stdout.contains('\u{7}'), "{stdout:?}");
    assert!(stdout.contains("\\u{1b}[2J\\u{7}"), "{stdout}");
}

/// A checkpoint write that fails (here: a file-size limit of 0) names the file and leaves no
/// temporary file beside it.
#[test]
fn a_failed_checkpoint_write_names_the_file_and_leaves_nothing_behind() {
    let dir = std::env::temp_dir().join(format!("games-cli-failed-write-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cp = dir.join("side4.ckpt");
    let command = format!(
        "trap '' XFSZ; ulimit -f 0; exec '{}' triangle-war --side 4 --empty --tt-bits 16 --checkpoint '{}' --time-limit 0.05",
        env!("CARGO_BIN_EXE_games-cli"),
        cp.display()
    );
    let output = Command::new("bash").args(["-c", &command]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let expected = format!("games-cli: cannot write checkpoint {}: ", cp.display());
    assert!(stderr.starts_with(&expected), "{stderr}");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `winning-move --time-limit` is per case: the empty 6x6 board (k = 4, about a minute) is
/// printed as not finished, the next case is still answered, and the exit status is 3.
#[test]
fn winning_move_time_limit_stops_one_case_and_answers_the_next() {
    let input = "?\n......\n......\n......\n......\n......\n......\n?\nxxx...\n......\n......\n......\n......\nooo...\n$\n";
    let args = ["winning-move", "--size", "6x6", "--k", "4", "--time-limit", "0.2"];
    let (code, stdout, stderr) = run_with_input(&args, input.as_bytes());
    assert_eq!(code, Some(3), "{stderr}");
    assert_eq!(stdout, "not finished\n(0,3)\n");
    assert_eq!(stderr, "games-cli: stopped by the time limit before finishing case 1\n");
    let (code, stdout, _) = run_with_input(&[&args[..], &["--format", "json"]].concat(), input.as_bytes());
    assert_eq!(code, Some(3));
    assert!(stdout.starts_with("{\"case\":1,\"finished\":false}\n"), "{stdout}");
    assert!(stdout.contains("\"answer\":\"(0,3)\""), "{stdout}");
}

/// `play --time-limit`: on the empty 7x6 board without a book (minutes to solve) the solver's
/// reply and the hint each end after the limit, said so; on a small board the replies are the
/// proven ones.
#[test]
fn play_replies_within_its_time_limit() {
    let started = std::time::Instant::now();
    let (code, stdout, stderr) =
        run_with_input(&["play", "--time-limit", "0.2", "--no-book", "connect-four"], b"hint\n4\nquit\n");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("no exact hint within 0.2 s"), "{stdout}");
    assert!(
        stdout.contains("(no move proven best within 0.2 s: playing the first legal move)\nO plays 1"),
        "{stdout}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(30), "{:?}", started.elapsed());
    let (code, stdout, _) =
        run_with_input(&["play", "--time-limit", "30", "connect-four", "--size", "4x4"], b"hint\n1\nquit\n");
    assert_eq!(code, Some(0));
    assert!(stdout.contains("value: ") && !stdout.contains("no move proven"), "{stdout}");
}

/// `play --threads N` changes the solver's time, not its replies or hints: the same transcript
/// on one thread and on three, in games of several moves on 5x4 Connect Four and side-3
/// Triangle War.
#[test]
fn play_replies_the_same_on_any_number_of_threads() {
    let games: [(&[&str], &[u8]); 2] = [
        (&["connect-four", "--size", "5x4"], b"hint\n3\nhint\n2\n4\nhint\n1\nquit\n"),
        (&["triangle-war", "--side", "3"], b"hint\n1-2\nhint\n4-5\nhint\nquit\n"),
    ];
    for (game, input) in games {
        let transcript = |threads: &str| {
            let args: Vec<&str> = ["play", "--threads", threads].iter().chain(game).copied().collect();
            let (code, stdout, stderr) = run_with_input(&args, input);
            assert_eq!(code, Some(0), "{args:?}: {stderr}");
            stdout
        };
        let one = transcript("1");
        assert!(one.matches("value").count() >= 2, "{one}");
        assert_eq!(transcript("3"), one, "{game:?}");
    }
}

/// `winning-move --checkpoint FILE` keeps its Maker-Breaker proofs in `FILE.proofs`: a run
/// stopped by `--time-limit` (exit 3) leaves them, the next run reads them and goes on, and
/// the answer is the one without a checkpoint (the empty 7x7 board with k = 5: no winning
/// move); proofs damaged or of another board are refused naming the file.
#[test]
fn winning_move_keeps_its_maker_breaker_proofs_across_runs() {
    let dir = std::env::temp_dir().join(format!("games-cli-mb-proofs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cp = dir.join("7x7k5.ckpt");
    let proofs = dir.join("7x7k5.ckpt.proofs");
    let board = ["winning-move", "--size", "7x7", "--k", "5", "--empty", "--checkpoint"];
    let run = |extra: &[&str]| {
        let args: Vec<&str> =
            board.iter().copied().chain([cp.to_str().unwrap()]).chain(extra.iter().copied()).collect();
        run_with_input(&args, b"")
    };
    let (code, stdout, stderr) = run(&["--time-limit", "0.02"]);
    assert_eq!((code, stdout.trim()), (Some(3), "not finished"), "{stderr}");
    let first = std::fs::metadata(&proofs).expect("proofs kept").len();
    let (code, stdout, stderr) = run(&["--time-limit", "0.02"]);
    assert_eq!(code, Some(3), "{stdout}{stderr}");
    assert!(stderr.contains("games-cli: read ") && stderr.contains(" proven positions from "), "{stderr}");
    assert!(std::fs::metadata(&proofs).unwrap().len() > first, "the second run added proofs");
    let (code, stdout, stderr) = run(&[]);
    assert_eq!((code, stdout.trim()), (Some(0), "#####"), "{stderr}");
    let (code, plain, _) = run_with_input(&board[..board.len() - 1], b"");
    assert_eq!((code, plain.trim()), (Some(0), "#####"));
    // Answered from the proofs alone now.
    let (code, stdout, stderr) = run(&["--time-limit", "5"]);
    assert_eq!((code, stdout.trim()), (Some(0), "#####"), "{stderr}");
    // One bit changed: refused, naming the file.
    let mut bytes = std::fs::read(&proofs).unwrap();
    bytes[100] ^= 4;
    std::fs::write(&proofs, &bytes).unwrap();
    let (code, _, stderr) = run(&[]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains(&format!("proofs {}: damaged", proofs.display())), "{stderr}");
    // Proofs of the 7x7 board read for the 6x6 one: refused.
    bytes[100] ^= 4;
    std::fs::write(dir.join("6x6.ckpt.proofs"), &bytes).unwrap();
    let six = dir.join("6x6.ckpt");
    let (code, _, stderr) = run_with_input(
        &["winning-move", "--size", "6x6", "--k", "5", "--empty", "--checkpoint", six.to_str().unwrap()],
        b"",
    );
    assert_eq!(code, Some(2));
    assert!(stderr.contains("a table of the 7x7 k=5 board, not of 6x6 k=5"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// connect-four and winning-move take `--checkpoint` as triangle-war does (one long-solve
/// driver): stopped by `--time-limit`, the run says `not finished` (exit 3) and leaves a sealed
/// checkpoint; run again with it, it ends with the plain solver's answer; a checkpoint with one
/// value changed, or one of another position or board, is refused naming the file.
#[test]
fn connect_four_and_winning_move_resume_from_their_checkpoints() {
    let dir = std::env::temp_dir().join(format!("games-cli-long-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Name, arguments, input, the arguments of another board, the words of a stopped run.
    type Case<'a> = (&'a str, &'a [&'a str], &'a str, &'a [&'a str], &'a str);
    let cases: [Case<'_>; 2] = [
        (
            "connect-four",
            &["connect-four", "--no-book"],
            "44536217\n",
            &["connect-four", "--size", "8x6"],
            "not finished: score in",
        ),
        // x wins at (1,1), the first winning cell in row-major order; the search proves the
        // centre first.
        (
            "winning-move",
            &["winning-move", "--size", "5x6", "--k", "4", "--empty"],
            "",
            &["winning-move", "--size", "5x6", "--k", "3", "--empty"],
            "not finished",
        ),
    ];
    for (name, args, input, other, stopped) in cases {
        let run = |args: &[&str], extra: &[&str]| {
            let mut child = games_cli()
                .args(args)
                .args(extra)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            std::io::Write::write_all(&mut child.stdin.take().unwrap(), input.as_bytes()).unwrap();
            child.wait_with_output().unwrap()
        };
        let plain = run(args, &[]);
        assert!(plain.status.success(), "{name}: {}", String::from_utf8_lossy(&plain.stderr));
        if name == "winning-move" {
            assert_eq!(String::from_utf8_lossy(&plain.stdout), "(1,1)\n");
        }
        let cp = dir.join(format!("{name}.ckpt"));
        let cp_arg = cp.to_str().unwrap();
        let first = run(args, &["--checkpoint", cp_arg, "--time-limit", "0.03"]);
        let stdout = String::from_utf8_lossy(&first.stdout);
        assert_eq!(
            first.status.code(),
            Some(3),
            "{name}: {stdout} {}",
            String::from_utf8_lossy(&first.stderr)
        );
        assert!(stdout.contains(stopped), "{name}: {stdout}");
        let text = std::fs::read_to_string(&cp).unwrap();
        assert!(text.starts_with("game-solvers checkpoint 2\n"), "{text}");
        // Edited: one bound line's value changed (the seal no longer matches).
        let edited = text.replacen(" -", " +", 1).replacen(" 1\n", " 0\n", 1);
        assert_ne!(edited, text);
        std::fs::write(&cp, &edited).unwrap();
        let out = run(args, &["--checkpoint", cp_arg]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{name}: {stderr}");
        assert!(stderr.contains(cp_arg) && stderr.contains("refused"), "{name}: {stderr}");
        std::fs::write(&cp, &text).unwrap();
        // Another board or position: refused by the header (winning-move's proofs of the other
        // board, read first, by theirs).
        let out = run(other, &["--checkpoint", cp_arg]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let refused = stderr.contains("made for options") || stderr.contains("a table of the 5x6 k=4 board");
        assert!(!out.status.success() && refused, "{name}: {stderr}");
        // Resumed: the plain answer.
        let resumed = run(args, &["--checkpoint", cp_arg]);
        assert!(resumed.status.success(), "{name}: {}", String::from_utf8_lossy(&resumed.stderr));
        assert_eq!(
            String::from_utf8_lossy(&resumed.stdout),
            String::from_utf8_lossy(&plain.stdout),
            "{name}"
        );
        // Solved: answered from the file alone.
        let again = run(args, &["--checkpoint", cp_arg]);
        assert_eq!(again.stdout, plain.stdout, "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// dots-and-boxes: `--checkpoint` solves 3x3 at the root (the file sealed for that board and
/// position, read back with the answer), a 3x3 checkpoint is refused for 2x4, a tiny time
/// limit on 4x4 prints the bounds proven and exits with status 3.
#[test]
fn dots_and_boxes_checkpoint_and_time_limit() {
    let dir = std::env::temp_dir().join(format!("games-cli-dab-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cp = dir.join("3x3.checkpoint");
    let cp_arg = cp.to_str().unwrap();
    let args = ["dots-and-boxes", "--size", "3x3", "--empty", "--checkpoint", cp_arg];
    for _ in 0..2 {
        let out = games_cli().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8(out.stdout).unwrap(), format!("{} -3\n", "0".repeat(24)));
    }
    let text = std::fs::read_to_string(&cp).unwrap();
    assert!(text.contains("game dots-and-boxes") && text.contains("options size 3x3"), "{text}");
    let out = games_cli()
        .args(["dots-and-boxes", "--size", "2x4", "--empty", "--checkpoint", cp_arg])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("refused"));
    let out = games_cli()
        .args(["dots-and-boxes", "--size", "4x4", "--empty", "--time-limit", "0.05"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with(&format!("{} not finished: value in [", "0".repeat(40))), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The subcommands a `--help` text lists (its `Commands:` section), `help` left out.
fn listed_subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .map_while(|l| l.split_whitespace().next())
        .filter(|&name| name != "help")
        .map(str::to_string)
        .collect()
}

/// The help of every subcommand, at every level (`play GAME` too), is plain text: no rustdoc
/// link syntax (`[`...`]`) leaks from a doc comment into it.
#[test]
fn help_texts_carry_no_rustdoc_links() {
    let mut pending: Vec<Vec<String>> = vec![Vec::new()];
    let mut seen = 0;
    while let Some(path) = pending.pop() {
        let output = games_cli().args(&path).arg("--help").output().unwrap();
        assert!(output.status.success(), "{path:?} --help: {:?}", output.status);
        let help = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(!help.contains("[`"), "{path:?} --help shows rustdoc link syntax:\n{help}");
        for name in listed_subcommands(&help) {
            pending.push(path.iter().cloned().chain([name]).collect());
        }
        seen += 1;
    }
    assert!(seen >= 9, "only {seen} help texts read");
}

/// The JSON lines of `games-cli ARGS < testdata/INPUT`, parsed.
fn json_lines(args: &[&str], input: &str) -> Vec<serde_json::Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata").join(input);
    let output =
        games_cli().args(args).stdin(Stdio::from(std::fs::File::open(&path).unwrap())).output().unwrap();
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn json_without_analyze_gives_the_analysis_value_and_answer_without_move_values() {
    for (game, input) in [
        ("triangle-war", "triangle-war/sample.in"),
        ("young-chess", "young-chess/sample.in"),
        ("winning-move", "winning-move/sample.in"),
        ("board-eval", "board-eval/sample.in"),
        ("connect-four", "connect-four/sample.in"),
        ("dots-and-boxes", "dots-and-boxes/json.in"),
    ] {
        let value = json_lines(&[game, "--format", "json"], input);
        let analysed = json_lines(&[game, "--analyze", "--format", "json"], input);
        assert_eq!(value.len(), analysed.len(), "{game}");
        assert!(!value.is_empty(), "{game}");
        for (v, a) in value.iter().zip(&analysed) {
            assert!(v.get("moves").is_none() && v.get("pv").is_none(), "{game}: {v}");
            assert!(a.get("moves").is_some() && a.get("pv").is_some(), "{game}: {a}");
            for (key, got) in v.as_object().unwrap() {
                assert_eq!(Some(got), a.get(key), "{game}: key {key} of {v} against {a}");
            }
        }
    }
}

/// The 7x6 opening book of the repository answers the judge and `play`; a book of another
/// board, a damaged or truncated one, or one given to a game without books is refused with
/// exit status 2 and a message naming the file and what is wrong.
#[test]
fn opening_books_are_read_or_refused_by_name() {
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/../../books/connect-four-7x6-p4.book");
    let output = games_cli().args(["connect-four", "--empty", "--book", book]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(String::from_utf8_lossy(&output.stdout), " 1\n");
    let mut replies = games_cli()
        .args(["play", "connect-four", "--you", "second", "--book", book])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(replies.stdin.take());
    let output = replies.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let bytes = std::fs::read(book).unwrap();
    let dir = std::env::temp_dir().join(format!("games-cli-books-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (damaged, truncated) = (dir.join("damaged.book"), dir.join("truncated.book"));
    let mut flipped = bytes.clone();
    flipped[100] ^= 1;
    std::fs::write(&damaged, flipped).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let refused = |args: &[&str], want: &str| {
        let output = games_cli().args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(want), "{args:?}: {stderr}");
    };
    refused(
        &["connect-four", "--empty", "--size", "6x5", "--book", book],
        "the book is for game \"connect-four 7x6\", not \"connect-four 6x5\"",
    );
    for file in [&damaged, &truncated] {
        let path = file.to_str().unwrap();
        refused(&["connect-four", "--empty", "--book", path], "the book is damaged or truncated");
        refused(&["play", "connect-four", "--book", path], path);
    }
    refused(&["play", "tic-tac-toe", "--book", book], "has no opening book");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Without `--book`, Connect Four 7x6 reads the book bundled with the game: the empty board
/// (25 s of search without a book) is answered at once, well within a 20-second limit;
/// `--no-book` reads none (the same limit of 1 s then stops the search: exit status 3), and
/// cannot be given with `--book`.
#[test]
fn the_bundled_book_answers_the_opening_unless_no_book_is_given() {
    let output = games_cli().args(["connect-four", "--empty", "--time-limit", "20"]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(String::from_utf8_lossy(&output.stdout), " 1\n");
    let output =
        games_cli().args(["connect-four", "--empty", "--no-book", "--time-limit", "1"]).output().unwrap();
    assert_eq!(output.status.code(), Some(3), "{}", String::from_utf8_lossy(&output.stderr));
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/../../books/connect-four-7x6-p4.book");
    let output = games_cli().args(["connect-four", "--empty", "--no-book", "--book", book]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let output = games_cli().args(["play", "connect-four", "--no-book", "--book", book]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
}

/// The judge's principal variation of the empty 7x6 board walks its first stones in the
/// bundled reply book (about 0.3 M nodes; 6.5 M through the score book alone), and is the same
/// line with another score book (the 4-ply one) given.
#[test]
fn the_judges_principal_variation_walks_the_reply_book() {
    let run = |extra: &[&str]| {
        let mut args = vec!["connect-four", "--empty", "--analyze", "--format", "json", "--threads", "1"];
        args.extend_from_slice(extra);
        let output = games_cli().args(&args).output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        serde_json::from_slice::<serde_json::Value>(&output.stdout).unwrap()
    };
    let with = run(&[]);
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/../../books/connect-four-7x6-p4.book");
    let other = run(&["--book", book]);
    assert_eq!(with["pv"], other["pv"]);
    assert_eq!(with["pv"][0], "4");
    assert_eq!(with["pv"].as_array().map(Vec::len), Some(41));
    let nodes = |v: &serde_json::Value| v["stats"]["nodes"].as_u64().unwrap();
    assert!(nodes(&with) < 1_000_000, "{} nodes", nodes(&with));
}

/// `othello --first-guess` changes the work, never a score: the same values and move values
/// from guesses across the range (negative ones written as plain values), other node counts
/// from other guesses, the same value through a checkpointed solve; a guess off the scale is
/// refused with exit status 2.
#[test]
fn othello_first_guess_changes_the_work_not_the_scores() {
    let input =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/othello/json.in")).unwrap();
    let analyze = |guess: &str| {
        let (code, out, err) =
            run_with_input(&["othello", "--analyze", "--format", "json", "--first-guess", guess], &input);
        assert_eq!(code, Some(0), "{err}");
        out.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()).collect::<Vec<_>>()
    };
    let plain = analyze("0");
    assert_eq!(plain.len(), 2);
    assert_eq!(plain[0]["value"], 18);
    for guess in ["-64", "-20", "18", "64"] {
        let other = analyze(guess);
        for (a, b) in plain.iter().zip(&other) {
            assert_eq!(a["value"], b["value"], "guess {guess}");
            assert_eq!(move_values(a), move_values(b), "guess {guess}");
        }
    }
    let first_line = String::from_utf8(input.clone()).unwrap().lines().next().unwrap().to_string();
    let nodes = |guess: &str| {
        let (code, out, err) = run_with_input(
            &["othello", "--analyze", "--format", "json", "--first-guess", guess],
            first_line.as_bytes(),
        );
        assert_eq!(code, Some(0), "{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["value"], 18);
        v["stats"]["nodes"].as_u64().unwrap()
    };
    // The guess reaches the engine: the null-window searches, and so the work, differ.
    assert_ne!(nodes("18"), nodes("-64"));
    let dir = std::env::temp_dir().join(format!("games-cli-first-guess-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cp = dir.join("checkpoint");
    let (code, out, err) = run_with_input(
        &["othello", "--first-guess", "-10", "--checkpoint", cp.to_str().unwrap()],
        first_line.as_bytes(),
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.trim().ends_with(" X +18"), "{out}");
    for bad in ["65", "-65", "two", ""] {
        let (code, _, err) = run_with_input(&["othello", "--first-guess", bad], b"");
        assert_eq!(code, Some(2), "{bad}: {err}");
        assert!(err.contains("--first-guess"), "{err}");
    }
}
