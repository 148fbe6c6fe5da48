//! Architecture invariant: no file-level import cycle in any crate of the workspace.
//!
//! A file's edges are the module files it names: `crate::a::b` paths, `super::` paths and
//! paths through its own child modules (`child::item`). The crate root (`lib.rs`, `main.rs`)
//! declares the modules and re-exports their items, so a path that ends at the root
//! (`crate::Item`) is not an edge. Test modules at the end of a file (`#[cfg(test)] mod tests`)
//! are not read: their `super::*` names the file itself.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The module path of `file` under `src` (`a/b.rs` and `a/b/mod.rs`: `["a", "b"]`; the root:
/// `[]`).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop().expect("a file name");
    match last.as_str() {
        "lib.rs" | "main.rs" | "mod.rs" => {}
        name => parts.push(name.trim_end_matches(".rs").to_string()),
    }
    parts
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without comments and without its trailing test module.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(at) => &l[..at],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths (`a::b::c` as words) that start at `start` in `code`: each word run joined by
/// `::`, including names in `{...}` groups of `use` lines only as far as the group.
fn paths_after(code: &str, start: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    let mut from = 0;
    while let Some(at) = code[from..].find(start) {
        let begin = from + at;
        from = begin + start.len();
        // A whole word: not `xcrate::` or `a::crate::`.
        if begin > 0
            && (bytes[begin - 1].is_ascii_alphanumeric()
                || bytes[begin - 1] == b'_'
                || bytes[begin - 1] == b':')
        {
            continue;
        }
        let rest = &code[from..];
        let words: Vec<String> = rest
            .split("::")
            .map(|w| w.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>())
            .take_while(|w| !w.is_empty())
            .collect();
        found.push(words);
    }
    found
}

/// The module files of one crate (by module path) and the edges between them.
fn edges(src: &Path) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    // Binaries under src/bin are crates of their own.
    files.retain(|f| !f.strip_prefix(src).is_ok_and(|r| r.starts_with("bin")));
    let modules: BTreeMap<Vec<String>, PathBuf> =
        files.iter().map(|f| (module_path(src, f), f.clone())).collect();
    let longest_module = |path: &[String]| -> Option<Vec<String>> {
        (1..=path.len()).rev().map(|n| path[..n].to_vec()).find(|p| modules.contains_key(p))
    };
    let mut graph = BTreeMap::new();
    for (module, file) in &modules {
        let code = code(&fs::read_to_string(file).expect("readable"));
        let mut targets = BTreeSet::new();
        for words in paths_after(&code, "crate::") {
            targets.extend(longest_module(&words));
        }
        // `super::` from a file module is its parent module.
        if !module.is_empty() {
            let parent = &module[..module.len() - 1];
            for words in paths_after(&code, "super::") {
                let mut path = parent.to_vec();
                path.extend(words);
                targets.extend(longest_module(&path).filter(|p| !p.is_empty()));
                if !parent.is_empty() && longest_module(&path).is_none() {
                    targets.insert(parent.to_vec());
                }
            }
        }
        // Paths through a child module: `child::item`.
        for (child, _) in modules.range(module.clone()..) {
            if child.len() != module.len() + 1 || child[..module.len()] != module[..] {
                continue;
            }
            let name = format!("{}::", child.last().expect("a child has a name"));
            if !paths_after(&code, &name).is_empty() {
                targets.insert(child.clone());
            }
        }
        targets.remove(module);
        targets.remove(&Vec::new());
        graph.insert(module.clone(), targets);
    }
    graph
}

/// A cycle of `graph`, if any, as the module paths along it.
fn find_cycle(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(
        node: &Vec<String>,
        graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        marks: &mut BTreeMap<Vec<String>, Mark>,
        stack: &mut Vec<Vec<String>>,
    ) -> Option<Vec<String>> {
        marks.insert(node.clone(), Mark::Open);
        stack.push(node.clone());
        for next in graph.get(node).into_iter().flatten() {
            match marks.get(next).copied().unwrap_or(Mark::New) {
                Mark::Open => {
                    let at = stack.iter().position(|n| n == next).expect("open nodes are on the stack");
                    let mut cycle: Vec<String> = stack[at..].iter().map(|p| p.join("::")).collect();
                    cycle.push(next.join("::"));
                    return Some(cycle);
                }
                Mark::New => {
                    if let Some(c) = visit(next, graph, marks, stack) {
                        return Some(c);
                    }
                }
                Mark::Done => {}
            }
        }
        stack.pop();
        marks.insert(node.clone(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for node in graph.keys() {
        if marks.get(node).copied().unwrap_or(Mark::New) == Mark::New {
            if let Some(c) = visit(node, graph, &mut marks, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn no_crate_has_an_import_cycle_between_its_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut srcs: Vec<PathBuf> = fs::read_dir(root.join("crates"))
        .expect("crates/")
        .flatten()
        .map(|e| e.path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
    srcs.push(root.join("xtask/src"));
    srcs.sort();
    let mut cycles = Vec::new();
    for src in &srcs {
        if let Some(cycle) = find_cycle(&edges(src)) {
            cycles.push(format!("{}: {}", src.display(), cycle.join(" -> ")));
        }
    }
    assert!(cycles.is_empty(), "import cycles between files:\n{}", cycles.join("\n"));
}

#[test]
fn the_checker_finds_a_cycle() {
    let dir = std::env::temp_dir().join(format!("import-cycles-{}", std::process::id()));
    fs::create_dir_all(dir.join("a")).unwrap();
    fs::write(dir.join("lib.rs"), "mod a;\nmod b;\n").unwrap();
    fs::write(dir.join("a/mod.rs"), "mod c;\nuse crate::b::Thing;\n").unwrap();
    fs::write(dir.join("a/c.rs"), "pub fn f() {}\n").unwrap();
    fs::write(dir.join("b.rs"), "// crate::a is only named in a comment\npub struct Thing;\n").unwrap();
    assert_eq!(find_cycle(&edges(&dir)), None);
    fs::write(dir.join("b.rs"), "pub struct Thing;\nfn g() { crate::a::c::f() }\n").unwrap();
    // b -> a::c only: still no cycle.
    assert_eq!(find_cycle(&edges(&dir)), None);
    fs::write(dir.join("a/c.rs"), "pub fn f() { super::super::b::Thing; }\n").unwrap();
    let cycle = find_cycle(&edges(&dir)).expect("a -> b -> a::c -> b");
    assert!(cycle.contains(&"b".to_string()), "{cycle:?}");
    fs::remove_dir_all(&dir).unwrap();
}
