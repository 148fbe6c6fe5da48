//! Distributed solves through `--store`: side-4 Triangle War by 4 shards and a merge against
//! the one-machine answer (value and every first move's value); a run stopped mid-way by its
//! node budget and relaunched finishes with the same answer without solving a finished job
//! again (counted from the store's records), reading the TT snapshot the stop left, and says
//! what stopped it; damaged records, stores of another solve and bad options are reported,
//! never a panic; sampled jobs (`--sample-jobs`) answer and count their nodes.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use split_solve::record::decode_store;

fn games_cli() -> Command {
    Command::new(env!("CARGO_BIN_EXE_games-cli"))
}

/// A fresh, empty directory for one test's store.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("games-cli-store-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)))
}

/// Every record of every file of the store `dir`: `(key, threshold)` of each.
fn records(dir: &Path) -> Vec<(u128, i64)> {
    let mut all = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().map_or(true, |x| x != "rec") {
            continue; // the TT snapshot `main.tt`
        }
        let bytes = std::fs::read(path).unwrap();
        for r in decode_store(&bytes).unwrap().records {
            let r = r.unwrap();
            all.push((r.key, r.threshold));
        }
    }
    all
}

const SIDE4: [&str; 4] = ["triangle-war", "--side", "4", "--empty"];

#[test]
fn four_shards_and_a_merge_give_the_one_machine_value_and_first_move_values() {
    let one = json(&games_cli().args(SIDE4).args(["--analyze", "--format", "json"]).output().unwrap());
    assert_eq!(one["value"], -2);
    let dir = fresh_dir("shards");
    let store = dir.to_str().unwrap();
    for i in 0..4 {
        let shard = format!("{i}/4");
        let o = games_cli()
            .args(SIDE4)
            .args(["--analyze", "--store", store, "--shard", &shard])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(o.stdout.is_empty(), "a shard prints no answer");
        assert!(stderr(&o).contains(&format!("games-cli: shard {i}/4 done: ")), "{}", stderr(&o));
        assert!(dir.join(format!("shard-{i}-of-4.rec")).exists());
    }
    let from_shards = records(&dir).len();
    let merged_run =
        games_cli().args(SIDE4).args(["--analyze", "--format", "json", "--store", store]).output().unwrap();
    let merged = json(&merged_run);
    // The last progress line counts the classes of first moves made exact: all of them.
    let last = stderr(&merged_run).lines().rfind(|l| l.starts_with("split: jobs ")).map(str::to_string);
    let classes = last
        .as_deref()
        .and_then(|l| l.split("; first moves exact: ").nth(1))
        .unwrap_or_else(|| panic!("no first-move count in the last progress line: {}", stderr(&merged_run)));
    let (exact, all) = classes.split_once(" classes").unwrap().0.split_once(" of ").unwrap();
    assert_eq!(exact, all, "{classes}");
    assert!(all.parse::<usize>().unwrap() >= 1, "{classes}");
    assert_eq!(merged["value"], one["value"]);
    assert_eq!(merged["moves"], one["moves"], "every first move's value");
    // Asked again, the store answers without a job.
    let again = games_cli().args(SIDE4).args(["--store", store]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&again.stdout), "Game 1: B wins.\n", "{}", stderr(&again));
    assert!(records(&dir).len() > from_shards);
    let _ = std::fs::remove_dir_all(&dir);

    // Full rounds (every job the question needs) give the same answer.
    let dir = fresh_dir("shards-full");
    let store = dir.to_str().unwrap();
    for i in 0..4 {
        let shard = format!("{i}/4");
        let o = games_cli()
            .args(SIDE4)
            .args(["--store", store, "--shard", &shard, "--shard-round", "full"])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    assert!(!records(&dir).is_empty());
    let merged = games_cli().args(SIDE4).args(["--store", store]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&merged.stdout), "Game 1: B wins.\n", "{}", stderr(&merged));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_stopped_mid_way_and_relaunched_finishes_without_solving_a_finished_job_again() {
    let dir = fresh_dir("resume");
    let store = dir.to_str().unwrap();
    let first = games_cli().args(SIDE4).args(["--store", store, "--node-budget", "300000"]).output().unwrap();
    assert_eq!(first.status.code(), Some(3), "{}", stderr(&first));
    let stdout = String::from_utf8_lossy(&first.stdout);
    assert!(stdout.starts_with("Game 1: not finished: final margin (A minus B) in ["), "{stdout}");
    assert!(
        stderr(&first).contains("games-cli: game 1: stopped by the node budget with the final margin in ["),
        "{}",
        stderr(&first)
    );
    let done = records(&dir).len();
    assert!(done > 0, "the first run finished some jobs");
    // The stopped run left the expensive part of its TT beside its records; the next reads it.
    assert!(dir.join("main.tt").exists(), "no TT snapshot after a stop");
    let second = games_cli().args(SIDE4).args(["--store", store, "--format", "json"]).output().unwrap();
    let v = json(&second);
    assert_eq!(v["value"], -2);
    assert!(stderr(&second).contains(&format!("{done} records read from")), "{}", stderr(&second));
    assert!(stderr(&second).contains("main.tt read"), "{}", stderr(&second));
    // No question was asked twice: every (position, threshold) has one record.
    let all = records(&dir);
    let distinct: HashSet<_> = all.iter().collect();
    assert_eq!(distinct.len(), all.len(), "a finished job was solved again");
    assert!(all.len() > done);
    // The same answer as a run without a store, with fewer nodes in the second run than in one
    // uninterrupted split run.
    let whole_dir = fresh_dir("resume-whole");
    let whole = json(
        &games_cli()
            .args(SIDE4)
            .args(["--store", whole_dir.to_str().unwrap(), "--format", "json"])
            .output()
            .unwrap(),
    );
    assert_eq!(whole["value"], -2);
    assert!(v["nodes"].as_u64().unwrap() < whole["nodes"].as_u64().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&whole_dir);
}

#[test]
fn a_damaged_record_is_named_and_skipped_and_a_cut_record_is_cut_off() {
    let dir = fresh_dir("damaged");
    let store = dir.to_str().unwrap();
    let o = games_cli().args(SIDE4).args(["--store", store]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout), "Game 1: B wins.\n");
    let file = dir.join("main.rec");
    let mut bytes = std::fs::read(&file).unwrap();
    let header = bytes.len() - records(&dir).len() * 44;
    // Flip a bit in record 3, and leave half a record at the end.
    bytes[header + 3 * 44 + 5] ^= 0x10;
    bytes.extend_from_slice(&[1, 2, 3, 4, 5, 6, 7]);
    std::fs::write(&file, &bytes).unwrap();
    let o = games_cli().args(SIDE4).args(["--store", store]).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "Game 1: B wins.\n");
    let err = stderr(&o);
    let name = file.display().to_string();
    assert!(err.contains(&format!("store file {name}: record 3 (byte offset {})", header + 3 * 44)), "{err}");
    assert!(err.contains("checksum does not match; skipped"), "{err}");
    assert!(err.contains("ends in a record cut short (7 bytes"), "{err}");
    // The cut record was removed before appending: the file reads back whole.
    let read = decode_store(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(read.tail_bytes, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn recheck_re_solves_records_under_other_rules_and_names_forged_ones() {
    let dir = fresh_dir("recheck");
    let store = dir.to_str().unwrap();
    let o = games_cli().args(SIDE4).args(["--store", store]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout), "Game 1: B wins.\n");
    let recheck = |extra: &[&str]| {
        games_cli()
            .args(SIDE4)
            .args(["--store", store, "--rules", "none", "--recheck", "6"])
            .args(extra)
            .output()
            .unwrap()
    };
    let o = recheck(&[]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(out.contains("6 of 6 agree"), "{out}");
    assert_eq!(out.matches(": agrees").count(), 6, "{out}");
    // Split deeper than the store was written: its records are interior nodes there, and are
    // rechecked all the same.
    let o = recheck(&["--split-depth", "5"]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(out.contains("nodes of the split at depth 5") && out.contains("6 of 6 agree"), "{out}");
    // The same records with every answer moved to the other side of its threshold (checksums
    // made anew): each one now disagrees.
    let file = dir.join("main.rec");
    let bytes = std::fs::read(&file).unwrap();
    let read = decode_store(&bytes).unwrap();
    let mut forged = bytes[..bytes.len() - read.records.len() * 44].to_vec();
    for r in read.records {
        let mut r = r.unwrap();
        r.value = if r.value > r.threshold { r.threshold } else { r.threshold + 1 };
        forged.extend_from_slice(&r.encode());
    }
    std::fs::write(&file, &forged).unwrap();
    let o = recheck(&[]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("0 of 6 agree"), "{out}");
    assert!(stderr(&o).contains("records [0, 1, 2, 3, 4, 5] of the store disagree"), "{}", stderr(&o));
    // No record at another depth: said, not a silent pass.
    let o = recheck(&["--split-depth", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no record of"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_store_of_another_solve_and_bad_options_are_refused() {
    let dir = fresh_dir("other");
    let store = dir.to_str().unwrap();
    let o = games_cli().args(["triangle-war", "--side", "4", "--empty", "--store", store]).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = games_cli().args(["triangle-war", "--side", "5", "--empty", "--store", store]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("main.rec belongs to another solve") && err.contains("side 4"), "{err}");

    std::fs::write(dir.join("junk.rec"), b"not a store").unwrap();
    let o = games_cli().args(SIDE4).args(["--store", store]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("junk.rec: not a split-solve store"), "{}", stderr(&o));

    for bad in ["4/4", "1", "a/b", "-1/3"] {
        let o = games_cli().args(SIDE4).args(["--store", store, &format!("--shard={bad}")]).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(stderr(&o).contains("expected I/N with whole numbers 0 <= I < N"), "{bad}: {}", stderr(&o));
    }
    let o = games_cli().args(SIDE4).args(["--shard", "0/2"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "--shard without --store");
    let o = games_cli().args(SIDE4).args(["--store", store, "--checkpoint", "x.ckpt"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "--store with --checkpoint");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_without_the_feature_says_how_to_build_it() {
    let dir = fresh_dir("nompi");
    let o = games_cli().args(SIDE4).args(["--store", dir.to_str().unwrap(), "--mpi"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--features mpi"), "{}", stderr(&o));
}

#[test]
fn every_long_solve_subcommand_takes_a_store() {
    // dots-and-boxes 3x3 (Wilson: -3) by 2 shards and a merge, every first move's value
    // against the one-machine analysis; connect-four and winning-move through one process.
    let dab = ["dots-and-boxes", "--size", "3x3", "--empty", "--analyze", "--format", "json"];
    let one = json(&games_cli().args(dab).output().unwrap());
    assert_eq!(one["value"], -3);
    let dir = fresh_dir("dab");
    let store = dir.to_str().unwrap();
    for i in 0..2 {
        let o =
            games_cli().args(dab).args(["--store", store, "--shard", &format!("{i}/2")]).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let merged = json(&games_cli().args(dab).args(["--store", store]).output().unwrap());
    assert_eq!((&merged["value"], &merged["moves"]), (&one["value"], &one["moves"]));
    // Both PVs (the merged run's starts with the store's proven tree) keep the value at every
    // move, by the retrograde table.
    for answer in [&one, &merged] {
        assert_pv_keeps_the_value(answer, 3, 3);
    }
    // Asked again, the finished store answers with the same analysis.
    let again = json(&games_cli().args(dab).args(["--store", store]).output().unwrap());
    assert_eq!(
        (&again["value"], &again["moves"], &again["pv"]),
        (&merged["value"], &merged["moves"], &merged["pv"])
    );
    let _ = std::fs::remove_dir_all(&dir);

    for (args, answer) in [
        (&["connect-four", "--size", "5x4", "--empty"][..], " 0\n"),
        // 5x5 with k = 4: the empty 4x4 board's frontier is settled by pairing bounds alone.
        (&["winning-move", "--size", "5x5", "--k", "4", "--empty"][..], "#####\n"),
    ] {
        let plain = games_cli().args(args).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&plain.stdout), answer);
        let dir = fresh_dir(args[0]);
        let o = games_cli().args(args).args(["--store", dir.to_str().unwrap()]).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&o.stdout), answer, "{}", stderr(&o));
        assert!(!records(&dir).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Checks that the dots-and-boxes analysis `answer` (JSON) of the empty `rows` x `cols` board
/// has a whole principal variation: every move keeps its position's value (a move's value is
/// the boxes it completes plus the child's value when the mover goes on, minus it otherwise),
/// by D. Wilson's retrograde table, and the line ends with every line drawn.
fn assert_pv_keeps_the_value(answer: &serde_json::Value, rows: usize, cols: usize) {
    use dots_and_boxes::{DotsAndBoxes, Geometry, Position, Pruning, RetrogradeTable};
    use search_core::Game;
    let geometry = Geometry::new(rows, cols).unwrap();
    let table = RetrogradeTable::build(&geometry).unwrap();
    let game = DotsAndBoxes::with_pruning(geometry.clone(), Pruning::NONE);
    let pv: Vec<u8> =
        answer["pv"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().parse().unwrap()).collect();
    assert_eq!(pv.len(), geometry.line_count(), "{pv:?}");
    assert_eq!(answer["value"], table.value(0), "the first player's value");
    let mut pos = Position::start();
    for mv in pv {
        let (child, gain) = game.play(&pos, mv);
        let v = table.value(child.drawn());
        let kept = if game.to_move(&child) == game.to_move(&pos) { gain + v } else { gain - v };
        assert_eq!(kept, table.value(pos.drawn()), "line {mv} of the PV keeps the value");
        pos = child;
    }
}

/// The entry lines of the TT snapshot in `dir` (its body: after the four header lines, before
/// the checksum), each `key value bound best work`.
fn snapshot_entries(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("main.tt")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 5 && lines[lines.len() - 1].starts_with("checksum "), "{text}");
    lines[4..lines.len() - 1].iter().map(|l| l.to_string()).collect()
}

#[test]
fn snapshot_entries_caps_the_snapshot_to_its_largest_subtrees() {
    let stop = |name: &str, extra: &[&str]| {
        let dir = fresh_dir(name);
        let out = games_cli()
            .args(SIDE4)
            .args(["--store", dir.to_str().unwrap(), "--node-budget", "300000"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
        dir
    };
    let work = |line: &String| line.split_whitespace().last().unwrap().parse::<u64>().unwrap();
    let full_dir = stop("snap-full", &[]);
    let full = snapshot_entries(&full_dir);
    assert!(full.len() > 5, "{} entries of at least 4,096 nodes", full.len());
    let capped_dir = stop("snap-capped", &["--snapshot-entries", "5"]);
    let capped = snapshot_entries(&capped_dir);
    assert_eq!(capped.len(), 5);
    // The largest subtrees first: the capped snapshot's works are the full one's five largest.
    let mut works: Vec<u64> = full.iter().map(work).collect();
    works.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(capped.iter().map(work).collect::<Vec<_>>(), works[..5]);
    // The capped snapshot resumes like any other.
    let resumed = games_cli()
        .args(SIDE4)
        .args(["--store", capped_dir.to_str().unwrap(), "--format", "json", "--snapshot-entries", "5"])
        .output()
        .unwrap();
    assert_eq!(json(&resumed)["value"], -2);
    assert!(stderr(&resumed).contains("main.tt read"), "{}", stderr(&resumed));
    // 0 is refused, by name.
    let zero = games_cli()
        .args(SIDE4)
        .args(["--store", capped_dir.to_str().unwrap(), "--snapshot-entries", "0"])
        .output()
        .unwrap();
    assert_eq!(zero.status.code(), Some(2));
    assert!(stderr(&zero).contains("--snapshot-entries"), "{}", stderr(&zero));
    for dir in [full_dir, capped_dir] {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_stopped_run_says_what_stopped_it() {
    // The node budget and the time limit, through a store, on every kind of subcommand's
    // message; each run exits with status 3 after printing the bounds.
    let cases: [(&[&str], &[&str], &str); 4] = [
        (&SIDE4, &["--node-budget", "1000"], "games-cli: game 1: stopped by the node budget with "),
        (&SIDE4, &["--time-limit", "0.001"], "games-cli: game 1: stopped by the time limit with "),
        (
            &["dots-and-boxes", "--size", "3x3", "--empty"],
            &["--node-budget", "1000"],
            "games-cli: stopped by the node budget before finishing line 1\n",
        ),
        (
            &["winning-move", "--size", "5x5", "--k", "4", "--empty"],
            &["--node-budget", "10"],
            "games-cli: stopped by the node budget before finishing case 1\n",
        ),
    ];
    for (i, (game, limit, message)) in cases.into_iter().enumerate() {
        let dir = fresh_dir(&format!("stopped-{i}"));
        let o = games_cli().args(game).args(["--store", dir.to_str().unwrap()]).args(limit).output().unwrap();
        assert_eq!(o.status.code(), Some(3), "{game:?} {limit:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "{game:?} {limit:?}: {}", stderr(&o));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn every_rules_setting_gives_the_same_value_by_one_machine_and_through_a_store() {
    // Side 3 (B wins by 3; a retrograde table answers without --time-limit, the root driver
    // searches with it) under every setting (all 2^RULE_NAMES.len()), side 4 (B wins by 2) under all,
    // none (16.8 M nodes) and every rule but one: the root driver on one machine and a split
    // solve through a store.
    let mut side3: Vec<String> = Vec::new();
    for bits in 0..1u32 << triangle_war::RULE_NAMES.len() {
        let on: Vec<&str> = triangle_war::RULE_NAMES
            .iter()
            .enumerate()
            .filter(|(i, _)| bits >> i & 1 == 1)
            .map(|(_, n)| *n)
            .collect();
        side3.push(if on.is_empty() { "none".to_string() } else { on.join(",") });
    }
    let mut side4 = vec!["all".to_string(), "none".to_string()];
    side4.extend(triangle_war::RULE_NAMES.iter().map(|n| format!("all,no-{n}")));
    for (side, settings, depth, value) in [("3", side3, "2", -3), ("4", side4, "3", -2)] {
        for rules in &settings {
            let game = ["triangle-war", "--side", side, "--empty", "--format", "json", "--rules", rules];
            let one = json(&games_cli().args(game).args(["--time-limit", "600"]).output().unwrap());
            assert_eq!(one["value"], value, "side {side}, --rules {rules}, one machine");
            let dir = fresh_dir(&format!("rules-{side}-{rules}"));
            let store = dir.to_str().unwrap();
            let split = json(
                &games_cli().args(game).args(["--store", store, "--split-depth", depth]).output().unwrap(),
            );
            assert_eq!(split["value"], value, "side {side}, --rules {rules}, --store");
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
    // The judge's search (no root driver) under other rules.
    let o = games_cli().args(SIDE4).args(["--rules", "all,no-capture"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout), "Game 1: B wins.\n", "{}", stderr(&o));
    let o = games_cli().args(SIDE4).args(["--rules", "all,captures"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown rule \"captures\""), "{}", stderr(&o));
}

#[test]
fn sampled_jobs_answer_and_count_their_nodes() {
    let sample = |extra: &[&str]| {
        let o = games_cli().args(SIDE4).args(["--sample-jobs", "5"]).args(extra).output().unwrap();
        (o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned(), stderr(&o))
    };
    let (code, out, err) = sample(&["--split-depth", "3", "--sample-nodes", "100000000"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("depth 3: ") && out.contains("finished 5 of 5 within the budget"), "{out}");
    // Every line's nodes add up to the summary's.
    let nodes: u64 = out
        .lines()
        .filter(|l| l.starts_with("job "))
        .map(|l| l.split(" in ").nth(1).unwrap().split(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    let answered =
        |l: &&str| l.contains("(frontier ") && (l.contains("): yes in ") || l.contains("): no in "));
    assert_eq!(out.lines().filter(answered).count(), 5, "{out}");
    assert!(out.contains(&format!("; {nodes} nodes in all")), "{out}");
    // The same seed draws the same jobs.
    assert_eq!(sample(&["--split-depth", "3", "--sample-nodes", "100000000"]).1, out);
    // One ply in, none of the five finishes within 10 nodes.
    let (code, out, _) = sample(&["--split-depth", "1", "--sample-nodes", "10"]);
    assert_eq!(code, Some(0));
    assert_eq!(out.matches(": not finished within ").count(), 5, "{out}");
    assert!(out.contains("finished 0 of 5"), "{out}");
    let o = games_cli().args(SIDE4).args(["--sample-nodes", "4"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--sample-jobs"), "{}", stderr(&o));
}
