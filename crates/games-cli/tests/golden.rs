//! Data-driven golden tests: for every `testdata/<dir>/<name>.in`, run
//! `games-cli <dir> <words of name.args>` with the input on stdin and compare the arguments,
//! exit status, stdout and stderr with the insta snapshot `testdata/<dir>/<name>.snap` -- the
//! one golden source. `cargo xtask golden` rewrites the snapshots; `cargo xtask golden --check`
//! (and this test) fail on any difference. One more snapshot, `solve-4x5/proof.snap`, is read
//! from the committed store of the 4x5 dots-and-boxes solve ([`solve_4x5_proof`]).

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

/// Times differ from run to run: the snapshots hold them as 0. The `--analyze` and `--stats`
/// lines' microseconds, the JSON `micros`, and the split's progress line (its rate and seconds).
const TIMING_FILTERS: [(&str, &str); 4] = [
    (r"\b\d+ us\b", "0 us"),
    (r#""micros":\d+"#, r#""micros":0"#),
    (r"\b\d+ nodes/s", "0 nodes/s"),
    (r"(?m)^(split: jobs .*); \d+\.\d s$", "$1; 0.0 s"),
];

#[test]
fn golden_outputs() {
    insta::glob!("../../../testdata", "*/*.in", |input| {
        let output = Command::new(env!("CARGO_BIN_EXE_games-cli"))
            .args(case_args(input))
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
            filters => TIMING_FILTERS.to_vec(),
        }, {
            insta::assert_snapshot!(stem, format!(
                "args: {}\nexit status: {code}\n--- stdout\n{stdout}--- stderr\n{stderr}",
                case_args(input).join(" ")
            ));
        });
    });
}

/// The 4x5 dots-and-boxes proof kept in the committed store of `cargo xtask solve-4x5`
/// (`testdata/dots-and-boxes/solve-4x5/store/main.rec`, read at split depth 6, the depth `cargo
/// xtask solve-4x5` writes at; the first 1,205 records, of depth 4, bound interior nodes of
/// that tree): the root's value, the
/// bounds the store proves on every first move (first player's net boxes, generation order) and
/// the principal variation (PV) through the proven frontier tree, at every node the first move
/// whose bounds meet at the node's value. Snapshot `testdata/dots-and-boxes/solve-4x5/proof.snap`
/// (rewritten by `cargo xtask golden` with the others).
#[test]
fn solve_4x5_proof() {
    use dots_and_boxes::{DotsAndBoxes, Geometry, Position, Pruning};
    use split_solve::{record::decode_store, Split, SplitOptions};

    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/dots-and-boxes/solve-4x5");
    let bytes = fs::read(root.join("store/main.rec")).unwrap();
    let store = decode_store(&bytes).unwrap();
    let game = DotsAndBoxes::with_pruning(Geometry::new(4, 5).unwrap(), Pruning::ALL);
    let options = SplitOptions { depth: 6, ..SplitOptions::default() };
    let mut split = Split::new(game, &Position::start(), options);
    for rec in store.records.iter().flatten() {
        assert!(split.apply(rec).unwrap(), "every record is a node of the depth-6 tree");
    }
    let (lo, hi) = split.root_bounds();
    assert_eq!(lo, hi, "the store proves the empty 4x5 board's value");
    let mut out = format!("{}\nvalue: {lo} (first player's net boxes)\nfirst moves:\n", store.identity);
    let moves = split.move_bounds();
    assert_eq!(moves.len(), 49);
    assert!(moves.iter().all(|&(_, _, m_hi)| m_hi <= lo), "no first move is proven above the value");
    for (mv, m_lo, m_hi) in &moves {
        let value = if m_lo == m_hi {
            format!("{m_lo}")
        } else {
            format!("at most {m_hi} (proven in [{m_lo}, {m_hi}])")
        };
        out.push_str(&format!("  {mv:>2}: {value}\n"));
    }
    // The PV through the proven tree, as `--analyze` through the store starts its PV.
    let path = long_solve::store::store_pv(&split);
    assert!((4..=6).contains(&path.len()), "the PV reaches the depth-4 records or below: {path:?}");
    let line: Vec<String> = path.iter().map(u8::to_string).collect();
    out.push_str(&format!("pv to the frontier: {}\n", line.join(" ")));
    insta::with_settings!({
        snapshot_path => root,
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!("proof", out);
    });
}
