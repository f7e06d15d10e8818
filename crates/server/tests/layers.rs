//! The server crate's modules import downwards only (docs/server.md, "Layers"): this
//! reads `src/` as text, takes every `crate::X` path as an edge from the top-level module
//! the file belongs to (`hub/seats.rs` is `hub`, `lib.rs` and a `crate::Item` of its are
//! `lib`, which also names modules as `X::`) to `X`, and fails on a circle between top-level modules or on an edge the
//! layering forbids. Comment lines are skipped. `super::` is not followed: in this crate
//! it names the file's own top-level module or one inside it (a top-level file's only
//! `super::` is its tests' `use super::*`).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

type Edges = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// Edges a lower layer must not have, whatever else changes: `(from, to)`.
const FORBIDDEN: &[(&str, &str)] = &[
    ("store", "protocol"),
    ("store", "hub"),
    ("store", "app"),
    ("protocol", "store"),
    ("protocol", "hub"),
    ("mail", "app"),
    ("hub", "app"),
    ("hub", "api"),
    ("hub", "accounts"),
    ("hub", "ws"),
];

/// Modules that import nothing of the crate: the bottom of the picture.
const LEAVES: &[&str] = &["model", "time"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of `src/` belongs to.
fn node_of(relative: &Path) -> String {
    let first = relative
        .components()
        .next()
        .expect("a file")
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    match first.strip_suffix(".rs") {
        Some("lib") => "lib".to_string(),
        Some(module) => module.to_string(),
        None => first,
    }
}

/// The identifiers `text` names right after each `crate::` (a `crate::{a, b::C}` group
/// gives each of its first identifiers).
fn crate_paths(text: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut names = Vec::new();
    for (at, _) in text.match_indices("crate::") {
        // `$crate::` and `some_crate::` are other crates.
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let rest = &text[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0usize;
            let mut start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        names.push(ident(group[start..i].trim_start()));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        names.push(ident(group[start..i].trim_start()));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            names.push(ident(rest));
        }
    }
    names.retain(|n| !n.is_empty());
    names
}

/// Whether `text` names `module::` as a path of its own (not `other::module::`).
fn names_bare(text: &str, module: &str) -> bool {
    let path = format!("{module}::");
    text.match_indices(&path).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
    })
}

fn edges(src: &Path) -> Edges {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<String> = files
        .iter()
        .map(|f| node_of(f.strip_prefix(src).expect("under src/")))
        .collect();
    let mut edges = Edges::new();
    for file in &files {
        let relative = file.strip_prefix(src).expect("under src/");
        let from = node_of(relative);
        let text: String = fs::read_to_string(file)
            .expect("a source file")
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let mut names = crate_paths(&text);
        if from == "lib" {
            // The crate root names its modules without `crate::`.
            names.extend(modules.iter().filter(|m| names_bare(&text, m)).cloned());
        }
        for name in names {
            // `crate::Item` is an item of lib.rs itself.
            let to = if modules.contains(&name) {
                name
            } else {
                "lib".to_string()
            };
            if to != from {
                edges
                    .entry(from.clone())
                    .or_default()
                    .entry(to)
                    .or_default()
                    .insert(relative.display().to_string());
            }
        }
    }
    edges
}

/// The strongly connected components of more than one module (Tarjan's algorithm).
fn circles(edges: &Edges) -> Vec<Vec<String>> {
    struct Search<'a> {
        edges: &'a Edges,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        circles: Vec<Vec<String>>,
    }
    impl<'a> Search<'a> {
        fn visit(&mut self, node: &'a str) {
            let n = self.index.len();
            self.index.insert(node, n);
            self.low.insert(node, n);
            self.stack.push(node);
            for next in self.edges.get(node).into_iter().flat_map(|m| m.keys()) {
                let next = next.as_str();
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next]);
                    self.low.insert(node, low);
                } else if self.stack.contains(&next) {
                    let low = self.low[node].min(self.index[next]);
                    self.low.insert(node, low);
                }
            }
            if self.low[node] == self.index[node] {
                let mut component = Vec::new();
                while let Some(top) = self.stack.pop() {
                    component.push(top.to_string());
                    if top == node {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.circles.push(component);
                }
            }
        }
    }
    let mut search = Search {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        circles: Vec::new(),
    };
    for node in edges.keys() {
        if !search.index.contains_key(node.as_str()) {
            search.visit(node);
        }
    }
    search.circles
}

fn describe(edges: &Edges, circle: &[String]) -> String {
    let mut lines = vec![format!("circle: {}", circle.join(", "))];
    for from in circle {
        for (to, files) in edges.get(from).into_iter().flatten() {
            if circle.contains(to) {
                let files: Vec<&str> = files.iter().map(String::as_str).collect();
                lines.push(format!("  {from} -> {to} ({})", files.join(", ")));
            }
        }
    }
    lines.join("\n")
}

#[test]
fn the_server_modules_import_downwards_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = edges(&src);
    assert!(edges.contains_key("hub"), "the source was read: {edges:?}");
    let found = circles(&edges);
    let report: Vec<String> = found.iter().map(|c| describe(&edges, c)).collect();
    assert!(found.is_empty(), "{}", report.join("\n"));
    for (from, to) in FORBIDDEN {
        let files = edges.get(*from).and_then(|m| m.get(*to));
        assert!(files.is_none(), "{from} imports {to}: {files:?}");
    }
    for leaf in LEAVES {
        assert!(
            !edges.contains_key(*leaf),
            "{leaf} imports {:?}",
            edges[*leaf]
        );
    }
}

#[test]
fn the_reader_finds_paths_and_circles() {
    assert_eq!(
        crate_paths("use crate::store::Status;\nlet x = crate::hub::now_ms();"),
        ["store", "hub"]
    );
    assert_eq!(
        crate_paths("use crate::{model::Clock, time};"),
        ["model", "time"]
    );
    assert!(crate_paths("use $crate::x; serde_crate::y").is_empty());
    assert!(names_bare("hub::Hub::new()", "hub"));
    assert!(!names_bare("crate::hub::now_ms; axum::routing", "hub"));
    let mut edges = Edges::new();
    for (from, to) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        edges
            .entry(from.into())
            .or_default()
            .entry(to.into())
            .or_default()
            .insert("f.rs".into());
    }
    assert_eq!(circles(&edges), [["a", "b", "c"]]);
}
