//! A split's store under careless or hostile use: records that contradict each other are named
//! and refused (no false answer, no false reason), empty and header-damaged files are set
//! aside and their jobs solved again, a second writer of one file is refused, a store that
//! cannot be written or was written deeper or under other keys is refused before the first
//! job, and checkpoints, snapshots and record files that are special files are refused unread.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use search_core::Game;
use split_solve::record::decode_store;
use split_solve::Record;

fn games_cli() -> Command {
    Command::new(env!("CARGO_BIN_EXE_games-cli"))
}

/// A fresh, empty directory for one test.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("games-cli-robust-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The output of `command`, which must end within `secs` seconds (killed and failed if not:
/// a read of a FIFO or of `/dev/zero` would never end).
fn output_within(command: &mut Command, secs: u64, what: &str) -> Output {
    let mut child: Child =
        command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let o = child.wait_with_output().unwrap();
            panic!("{what}: still running after {secs} s: {}", stderr(&o));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

const SIDE3: [&str; 4] = ["triangle-war", "--side", "3", "--empty"];
const ANSWER3: &str = "Game 1: B wins.\n";

/// Solves the empty side-3 board into the store `dir` at `depth` plies.
fn solve_into(dir: &Path, depth: &str) {
    let o = games_cli()
        .args(SIDE3)
        .args(["--store", dir.to_str().unwrap(), "--split-depth", depth])
        .output()
        .unwrap();
    assert_eq!(stdout(&o), ANSWER3, "{}", stderr(&o));
}

/// The header bytes of store file `path`.
fn header_of(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    let read = decode_store(&bytes).unwrap();
    bytes[..read.whole_len - read.records.len() * split_solve::record::RECORD_BYTES].to_vec()
}

#[test]
fn records_that_contradict_each_other_are_named_and_refused_without_a_false_reason() {
    let dir = fresh_dir("forged");
    solve_into(&dir, "2");
    // A forged record of the root (side to move A; B wins by 3): "A wins by more than 2",
    // in a file read before main.rec and sealed with a correct CRC. Alone it fits the game's
    // bounds; the true records then prove the root at most -3.
    let game = triangle_war::TriangleWar::new(triangle_war::Geometry::new(3).unwrap());
    let root_key: u128 = game.key(&triangle_war::Position::start()).into();
    let mut forged = header_of(&dir.join("main.rec"));
    forged.extend_from_slice(&Record { key: root_key, threshold: 2, value: 3, nodes: 1 }.encode());
    let forged_path = dir.join("forged.rec");
    std::fs::write(&forged_path, &forged).unwrap();
    for _ in 0..2 {
        let o = games_cli().args(SIDE3).args(["--store", dir.to_str().unwrap()]).output().unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{}{err}", stdout(&o));
        assert!(stdout(&o).is_empty(), "no answer from contradicting records: {}", stdout(&o));
        assert!(err.contains("records contradict each other"), "{err}");
        assert!(err.contains(&format!("record 0 of {}", forged_path.display())), "{err}");
        assert!(err.contains("main.rec"), "the true records are named too: {err}");
        assert!(err.contains("--recheck"), "{err}");
        assert!(!err.contains("time limit"), "no limit was given: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn empty_and_header_damaged_files_are_set_aside_and_their_jobs_solved_again() {
    let dir = fresh_dir("aside");
    solve_into(&dir, "2");
    let main = dir.join("main.rec");
    let intact = std::fs::read(&main).unwrap();
    // An empty file (a disk full at the first write), and a copy whose header has a flipped
    // byte: both are set aside, not a reason to refuse the store.
    std::fs::write(dir.join("shard-0-of-2.rec"), b"").unwrap();
    let mut flipped = intact.clone();
    flipped[14] ^= 0x20;
    std::fs::write(dir.join("shard-1-of-2.rec"), &flipped).unwrap();
    let o = games_cli().args(SIDE3).args(["--store", dir.to_str().unwrap()]).output().unwrap();
    let err = stderr(&o);
    assert_eq!(stdout(&o), ANSWER3, "{err}");
    assert!(err.contains("shard-0-of-2.rec is empty or its header cut short; set aside as"), "{err}");
    assert!(err.contains("shard-1-of-2.rec has a damaged header; set aside as"), "{err}");
    assert!(dir.join("shard-0-of-2.rec.damaged").exists() && dir.join("shard-1-of-2.rec.damaged").exists());
    assert!(!dir.join("shard-0-of-2.rec").exists() && !dir.join("shard-1-of-2.rec").exists());
    // This run's own file with a damaged header: set aside, made again, its jobs solved again.
    std::fs::write(&main, &flipped).unwrap();
    let o = games_cli().args(SIDE3).args(["--store", dir.to_str().unwrap()]).output().unwrap();
    let err = stderr(&o);
    assert_eq!(stdout(&o), ANSWER3, "{err}");
    assert!(err.contains("main.rec has a damaged header; set aside as"), "{err}");
    let read = decode_store(&std::fs::read(&main).unwrap()).unwrap();
    assert!(!read.records.is_empty() && read.records.iter().all(|r| r.is_ok()));
    // An empty own file gets its header and the run goes on.
    std::fs::write(&main, b"").unwrap();
    let o = games_cli().args(SIDE3).args(["--store", dir.to_str().unwrap()]).output().unwrap();
    assert_eq!(stdout(&o), ANSWER3, "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_writer_of_one_record_file_is_refused() {
    let dir = fresh_dir("lock");
    let store = dir.to_str().unwrap();
    // A long job (the whole empty 4x4 dots-and-boxes board, a minute or more) holds main.rec.
    let mut first = games_cli()
        .args(["dots-and-boxes", "--size", "4x4", "--empty", "--store", store, "--split-depth", "0"])
        .args(["--threads", "1", "--tt-bits", "16", "--time-limit", "60"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !dir.join("main.rec").exists() && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    let o = games_cli()
        .args(["dots-and-boxes", "--size", "4x4", "--empty", "--store", store, "--split-depth", "0"])
        .args(["--threads", "1", "--tt-bits", "16", "--node-budget", "100000"])
        .output()
        .unwrap();
    let _ = first.kill();
    let _ = first.wait();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("main.rec is being written by another run"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_store_that_cannot_be_written_is_refused_before_the_first_job() {
    let dir = fresh_dir("readonly");
    std::fs::create_dir_all(&dir).unwrap();
    let bin = env!("CARGO_BIN_EXE_games-cli");
    let root = std::process::Command::new("id").arg("-u").output().map(|o| stdout(&o).trim() == "0");
    let mut command = if root.unwrap_or(false) {
        // Root writes anywhere: the run is made as the unprivileged user `nobody`.
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", bin]);
        c
    } else {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).unwrap();
        Command::new(bin)
    };
    let o = command.args(SIDE3).args(["--store", dir.to_str().unwrap()]).output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("the store must be writable before the first job is solved"), "{err}");
    assert!(!err.contains("split: depth"), "refused before the split was read: {err}");
    let _ = std::process::Command::new("chmod").args(["-R", "u+w"]).arg(&dir).status();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_store_of_a_deeper_split_or_other_keys_is_refused_in_one_line() {
    let dir = fresh_dir("depth");
    let store = dir.to_str().unwrap();
    solve_into(&dir, "3");
    let o = games_cli().args(SIDE3).args(["--store", store, "--split-depth", "2"]).output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("main.rec was written at --split-depth 3, deeper than this run's 2")
            && err.contains("give --split-depth 3 or more"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // Deeper than written: the records serve.
    let o = games_cli().args(SIDE3).args(["--store", store, "--split-depth", "4"]).output().unwrap();
    assert_eq!(stdout(&o), ANSWER3, "{}", stderr(&o));
    // A shard under other rules names positions by other keys: refused.
    let o = games_cli()
        .args(SIDE3)
        .args(["--store", store, "--split-depth", "3", "--rules", "none", "--shard", "0/2"])
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("was written with the key scheme"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn special_files_are_refused_unread() {
    let dir = fresh_dir("special");
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    for path in [fifo.as_path(), Path::new("/dev/zero")] {
        let o = output_within(
            games_cli().args(SIDE3).args(["--time-limit", "10", "--checkpoint"]).arg(path),
            20,
            &format!("--checkpoint {}", path.display()),
        );
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(&format!("checkpoint {} is not a regular file", path.display())), "{err}");
    }
    // A FIFO among a store's record files.
    let store = dir.join("store");
    std::fs::create_dir_all(&store).unwrap();
    assert!(Command::new("mkfifo").arg(store.join("x.rec")).status().unwrap().success());
    let o = output_within(games_cli().args(SIDE3).arg("--store").arg(&store), 20, "a FIFO in the store");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("x.rec is not a regular file"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
