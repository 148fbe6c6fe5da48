//! `cargo xtask process-words`: documents and comments describe the code as it is, not how the
//! work on it was organised. This scans every `*.md` file of the workspace and every comment line
//! of its `*.rs`, `*.py`, `*.pyi`, `*.toml` and `*.sh` files and reports, as `file:line`, each
//! word of the work's history:
//!
//! - a step of work by its number: `stop` / `stops`, `round` / `rounds`, `issue` / `issues`
//!   followed by a number (`issue #` too); "stop flag", "a second round of shards" or
//!   "null-window round" without a number are fine;
//! - `this` or `that` before `machine` or `session` (name a machine by its class: "a 2-core
//!   x86-64 VM");
//! - a commit hash: a word of 7 to 40 lowercase hexadecimal digits with at least one digit and
//!   one letter (not a `0b` binary literal, nor a word after `checksum` / `crc`; a revision of
//!   another project cited as `owner/repo@rev` is a source, not provenance of this work);
//! - a branch as provenance: `this` before `branch`, `main at`, `branch` followed by a branch-like name
//!   (a word with a digit, such as a work branch's name).
//!
//! Comments are the lines whose trimmed text starts with `//` in Rust (`///`, `//!` included)
//! and with `#` in Python, TOML and shell files; code itself (string constants, hexadecimal
//! literals) is not read. Skipped: `target/`, `.git/`, `node_modules/`, Python virtual
//! environments and `fuzz/corpus/` / `fuzz/artifacts/`.
//! The test `process_words::tests::workspace_has_no_process_words` runs it in `cargo test`.

use std::fs;
use std::path::{Path, PathBuf};

/// One word of the work's history found in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// The file, relative to the scanned root.
    pub file: PathBuf,
    /// 1-based line number.
    pub line: usize,
    /// What was found (the matched text and the rule).
    pub what: String,
}

impl std::fmt::Display for Hit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file.display(), self.line, self.what)
    }
}

/// Directory names never entered.
const SKIPPED_DIRS: [&str; 6] = ["target", ".git", "node_modules", ".venv", "venv", "__pycache__"];
/// Paths (relative to the root) never entered.
const SKIPPED_PATHS: [&str; 2] = ["fuzz/corpus", "fuzz/artifacts"];

/// How a file's lines are read: all of them, or its comment lines only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Markdown,
    SlashComments,
    HashComments,
}

fn kind_of(path: &Path) -> Option<Kind> {
    match path.extension()?.to_str()? {
        "md" => Some(Kind::Markdown),
        "rs" => Some(Kind::SlashComments),
        "py" | "pyi" | "toml" | "sh" => Some(Kind::HashComments),
        _ => None,
    }
}

/// Scans every file under `root` (see the module docs) and returns the hits, sorted by file.
///
/// # Errors
/// A directory or file cannot be read.
pub fn scan_tree(root: &Path) -> std::io::Result<Vec<Hit>> {
    let mut files = Vec::new();
    collect(root, root, &mut files)?;
    files.sort();
    let mut hits = Vec::new();
    for rel in files {
        let Some(kind) = kind_of(&rel) else { continue };
        let bytes = fs::read(root.join(&rel))?;
        let text = String::from_utf8_lossy(&bytes);
        hits.extend(scan_text(&rel, kind_name(kind), &text));
    }
    Ok(hits)
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Markdown => "md",
        Kind::SlashComments => "rs",
        Kind::HashComments => "sh",
    }
}

fn collect(root: &Path, dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let rel = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
        let file_type = entry.file_type()?;
        if file_type.is_dir() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let rel_text = rel.to_string_lossy().replace('\\', "/");
            if SKIPPED_DIRS.contains(&name.as_ref()) || SKIPPED_PATHS.contains(&rel_text.as_str()) {
                continue;
            }
            collect(root, &path, files)?;
        } else if file_type.is_file() && kind_of(&rel).is_some() {
            files.push(rel);
        }
    }
    Ok(())
}

/// Scans one file's text. `kind` is `"md"` (every line), `"rs"` (lines starting with `//`) or
/// `"sh"` (lines starting with `#`, as in Python, TOML and shell files).
pub fn scan_text(file: &Path, kind: &str, text: &str) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let scanned = match kind {
            "md" => true,
            "rs" => trimmed.starts_with("//"),
            _ => trimmed.starts_with('#'),
        };
        if !scanned {
            continue;
        }
        for what in scan_line(line) {
            hits.push(Hit { file: file.to_path_buf(), line: index + 1, what });
        }
    }
    hits
}

/// The words of `line`: maximal runs of ASCII letters, digits and `_`, with their byte offsets.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        let word_char = c.is_ascii_alphanumeric() || c == '_';
        match (word_char, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, &line[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out
}

fn is_commit_hash(word: &str) -> bool {
    (7..=40).contains(&word.len())
        && word.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        && word.bytes().any(|b| b.is_ascii_digit())
        && word.bytes().any(|b| b.is_ascii_lowercase())
}

/// Whether a branch-like name follows: a word with a digit and a letter (`c4-s22`, `dbs24`).
fn branch_name(rest: &str) -> Option<&str> {
    let rest = rest.trim_start().trim_start_matches('`');
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '/'))
        .unwrap_or(rest.len());
    let name = &rest[..end];
    (name.bytes().any(|b| b.is_ascii_digit()) && name.bytes().any(|b| b.is_ascii_alphabetic()))
        .then_some(name)
}

/// Every finding of one line, as text for the report.
pub fn scan_line(line: &str) -> Vec<String> {
    let lower = line.to_ascii_lowercase();
    let words = words(&lower);
    let mut found = Vec::new();
    for (n, &(offset, word)) in words.iter().enumerate() {
        let after = &lower[offset + word.len()..];
        match word {
            "stop" | "stops" | "round" | "rounds" | "issue" | "issues" => {
                let rest = after.trim_start_matches([' ', '\t']);
                let spaced = rest.len() < after.len();
                let rest =
                    if word.starts_with("issue") { rest.strip_prefix('#').unwrap_or(rest) } else { rest };
                let separated = spaced || (word.starts_with("issue") && after.starts_with('#'));
                if separated && rest.starts_with(|c: char| c.is_ascii_digit()) {
                    let number: String = rest.chars().take_while(char::is_ascii_digit).collect();
                    found.push(format!("`{word} {number}` (a step of the work)"));
                }
            }
            "this" | "that" => {
                if let Some(&(next_offset, next)) = words.get(n + 1) {
                    let gap = &lower[offset + word.len()..next_offset];
                    if gap.chars().all(char::is_whitespace) && (next == "machine" || next == "session") {
                        found.push(format!("`{word} {next}` (name a machine by its class)"));
                    }
                    if gap.chars().all(char::is_whitespace) && next == "branch" {
                        found.push(format!("`{word} {next}` (a branch as provenance)"));
                    }
                }
            }
            "main" if after.starts_with(" at ") => found.push("`main at` (a branch as provenance)".into()),
            "branch" | "branches" => {
                if let Some(name) = branch_name(after) {
                    found.push(format!("`{word} {name}` (a branch as provenance)"));
                }
            }
            _ => {}
        }
        let binary = word.strip_prefix("0b").is_some_and(|bits| bits.bytes().all(|b| b == b'0' || b == b'1'));
        let checksum = n > 0 && matches!(words[n - 1].1, "checksum" | "crc" | "crc32");
        let cited = lower[..offset].ends_with('@');
        let lowercase = line.as_bytes()[offset..offset + word.len()].iter().all(|b| !b.is_ascii_uppercase());
        if is_commit_hash(word) && lowercase && !binary && !checksum && !cited {
            found.push(format!("`{word}` (a commit hash)"));
        }
    }
    found
}

/// `cargo xtask process-words`: prints every hit and fails if there is one.
///
/// # Errors
/// A file cannot be read, or a process word was found.
pub fn run() -> anyhow::Result<()> {
    let hits = scan_tree(&crate::workspace_root())?;
    for hit in &hits {
        println!("{hit}");
    }
    anyhow::ensure!(hits.is_empty(), "{} process word(s) in documents and comments", hits.len());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hits(line: &str) -> usize {
        scan_line(line).len()
    }

    #[test]
    fn finds_steps_of_the_work() {
        // The words are split in the source so that this file holds none of them.
        assert_eq!(hits(concat!("Since st", "op 58 every first move is exact")), 1);
        assert_eq!(hits(concat!("### St", "op 61: the minute")), 1);
        assert_eq!(hits(concat!("st", "ops 49 to 58 finished")), 1);
        assert_eq!(hits(concat!("A second rou", "nd 2 of the bench")), 1);
        assert_eq!(hits(concat!("the rules of iss", "ue 21")), 1);
        assert_eq!(hits(concat!("see iss", "ue #17")), 1);
        assert_eq!(hits(concat!("measured on th", "is machine")), 1);
        assert_eq!(hits(concat!("the idle 2-core machine of that ses", "sion")), 1);
        assert_eq!(hits(concat!("main at 70a", "3967")), 2);
        assert_eq!(hits(concat!("the branch `c4-", "s22` keeps it")), 1);
        assert_eq!(hits(concat!("Bra", "nch dbs24 halved the instructions")), 1);
        assert_eq!(hits(concat!("on th", "is branch")), 1);
    }

    #[test]
    fn leaves_ordinary_words_alone() {
        assert_eq!(hits("a stop flag raised after the budget"), 0);
        assert_eq!(hits("each null-window round narrows the margin"), 0);
        assert_eq!(hits("a second round of shards goes further"), 0);
        assert_eq!(hits("the machine's L3 cache"), 0);
        assert_eq!(hits("a branch on the geometry; branch-free code"), 0);
        assert_eq!(hits("decimal 1234567 and the word deadbeef"), 0);
        assert_eq!(hits("a constant 0x9e3779b97f4a7c15 and 9E3779B9"), 0);
        assert_eq!(hits("DBN 101000100000 value 0"), 0);
        assert_eq!(hits("path = 0b01010; checksum 1a2b3c4d"), 0);
        assert_eq!(hits("the files of mbarbin/c4solver@39cd635"), 0);
        assert_eq!(hits("the issue tracker; stopping 5 times"), 0);
    }

    #[test]
    fn reads_only_comments_in_code() {
        let code = "let hash = \"70a3967\"; // a constant\n// since stop 58\n    /// on this machine\n";
        let found = scan_text(Path::new("x.rs"), "rs", code);
        assert_eq!(found.iter().map(|h| h.line).collect::<Vec<_>>(), [2, 3]);
        let toml = "key = \"issue 5\"\n# issue 5\n";
        assert_eq!(scan_text(Path::new("x.toml"), "sh", toml).len(), 1);
        let md = "intro\nmain at abc1234\n";
        assert_eq!(scan_text(Path::new("x.md"), "md", md)[0].line, 2);
    }

    #[test]
    fn a_word_added_to_a_clean_tree_fails_it() {
        let dir = std::env::temp_dir().join(format!("process-words-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("docs")).unwrap();
        fs::create_dir_all(dir.join("target")).unwrap();
        fs::write(dir.join("docs/a.md"), "# Results\n\nA wins 13-12.\n").unwrap();
        fs::write(dir.join("lib.rs"), "//! A crate.\nfn f() {}\n").unwrap();
        fs::write(dir.join("target/skipped.md"), "stop 3\n").unwrap();
        assert_eq!(scan_tree(&dir).unwrap(), []);
        fs::write(dir.join("lib.rs"), "//! A crate.\n// measured in stop 63\nfn f() {}\n").unwrap();
        let found = scan_tree(&dir).unwrap();
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].to_string(), "lib.rs:2: `stop 63` (a step of the work)");
    }

    /// Every document and comment of this workspace is free of process words.
    #[test]
    fn workspace_has_no_process_words() {
        let hits = scan_tree(&crate::workspace_root()).unwrap();
        let list: Vec<String> = hits.iter().map(ToString::to_string).collect();
        assert!(
            hits.is_empty(),
            "{} process word(s) in documents and comments:\n{}",
            hits.len(),
            list.join("\n")
        );
    }
}
