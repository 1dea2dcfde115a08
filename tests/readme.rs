//! The code blocks of the README, the book (`docs/`) and the crate docs, as a user meets them:
//!
//! * every Rust block of a page runs as a doctest of the core crate (`src/lib.rs`,
//!   `docs_code_blocks`): each page with one is listed there;
//! * a Rust block that is a whole example program (it starts with `//!`) equals, character
//!   for character, the file of `examples/` it names, which CI builds and runs;
//! * no Rust block, and no code block of the library crates' docs, names a crate that a
//!   user's program would not have: only `std` and the three documented crates (`stickdice`
//!   re-exports `rand` for seeding: `stickdice::rand`, `stickdice::Rng`).

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The README and every Markdown page of the book, relative to the root.
fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut out = vec![PathBuf::from(ROOT).join("README.md")];
    walk(&Path::new(ROOT).join("docs"), &mut out);
    out.sort();
    out
}

/// The code blocks of a Markdown text: (fence info, body). Fences may be indented (a block
/// inside a list item); the indentation is removed from the body.
fn blocks(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            let indent = line.len() - trimmed.len();
            let mut body = String::new();
            for inner in lines.by_ref() {
                if inner.trim_start().starts_with("```") {
                    break;
                }
                body.push_str(inner.get(indent..).unwrap_or(inner.trim_start()));
                body.push('\n');
            }
            out.push((info.trim().to_string(), body));
        }
    }
    out
}

fn is_rust(info: &str) -> bool {
    info.split(',').next() == Some("rust")
}

fn relative(path: &Path) -> String {
    path.strip_prefix(ROOT)
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

/// Crates a user's program does not have (the workspace's other dependencies): a block
/// naming one as a path's first segment would not compile in a fresh project.
const NOT_A_USERS: &[&str] = &[
    "rand",
    "rand_pcg",
    "smallvec",
    "ahash",
    "rayon",
    "serde",
    "serde_json",
    "proptest",
    "criterion",
    "clap",
    "indicatif",
    "axum",
    "tokio",
];

/// The foreign crates a code block names: `use rand::…`, `rand_pcg::Pcg64Mcg`, but not
/// `stickdice::rand::…`.
fn foreign_crates(code: &str) -> Vec<&'static str> {
    let mut found = Vec::new();
    for name in NOT_A_USERS {
        let pattern = format!("{name}::");
        for (at, _) in code.match_indices(&pattern) {
            let before = code[..at].chars().next_back();
            let starts_path =
                !matches!(before, Some(c) if c.is_alphanumeric() || c == '_' || c == ':');
            if starts_path && !found.contains(name) {
                found.push(*name);
            }
        }
    }
    found
}

#[test]
fn every_page_with_rust_blocks_runs_them_as_doctests() {
    let lib = std::fs::read_to_string(format!("{ROOT}/src/lib.rs")).unwrap();
    let mut pages_with_rust = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        if blocks(&text).iter().any(|(info, _)| is_rust(info)) {
            pages_with_rust += 1;
            let include = format!("include_str!(\"../{}\")", relative(&page));
            assert!(
                lib.contains(&include),
                "{} has Rust blocks: list it in src/lib.rs (docs_code_blocks) as {include}",
                relative(&page)
            );
        }
    }
    assert!(
        pages_with_rust >= 3,
        "the README, the library and extending chapters"
    );
}

#[test]
fn whole_programs_are_the_examples() {
    let mut programs = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (info, body) in blocks(&text) {
            if !is_rust(&info) || !body.starts_with("//!") {
                continue;
            }
            programs += 1;
            let examples = std::fs::read_dir(format!("{ROOT}/examples")).unwrap();
            let matching = examples
                .map(|e| e.unwrap().path())
                .find(|p| std::fs::read_to_string(p).is_ok_and(|f| f == body));
            let path = matching.unwrap_or_else(|| {
                panic!(
                    "{}: a whole program that equals no file of examples/:\n{body}",
                    relative(&page)
                )
            });
            let name = relative(&path);
            assert!(text.contains(&name), "{} names {name}", relative(&page));
            assert!(
                info.contains("no_run"),
                "{}: {name} is run by CI as an example; mark its block rust,no_run",
                relative(&page)
            );
        }
    }
    assert!(
        programs >= 2,
        "first_game.rs and tournament.rs are shown whole"
    );
}

#[test]
fn rust_blocks_name_only_a_users_crates() {
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (info, body) in blocks(&text) {
            if is_rust(&info) {
                let foreign = foreign_crates(&body);
                assert!(
                    foreign.is_empty(),
                    "{}: a block uses {foreign:?}:\n{body}",
                    relative(&page)
                );
            }
        }
    }
}

/// The code blocks of `///` and `//!` comments of a source file.
fn doc_blocks(source: &str) -> Vec<(String, String)> {
    let docs: String = source
        .lines()
        .filter_map(|l| {
            let t = l.trim_start();
            t.strip_prefix("///").or_else(|| t.strip_prefix("//!"))
        })
        .map(|l| format!("{}\n", l.strip_prefix(' ').unwrap_or(l)))
        .collect();
    blocks(&docs)
}

#[test]
fn crate_doc_examples_name_only_a_users_crates() {
    let mut checked = 0;
    for dir in ["src", "agents/src", "evaluation/src", "web/src"] {
        let mut files = Vec::new();
        fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    out.push(path);
                }
            }
        }
        walk(&Path::new(ROOT).join(dir), &mut files);
        for file in files {
            let source = std::fs::read_to_string(&file).unwrap();
            for (info, body) in doc_blocks(&source) {
                // Rustdoc runs a block without a language, or marked rust, as Rust.
                let lang = info.split(',').next().unwrap_or("");
                if !(lang.is_empty() || lang == "rust") || info.contains("ignore") {
                    continue;
                }
                checked += 1;
                let foreign = foreign_crates(&body);
                assert!(
                    foreign.is_empty(),
                    "{}: a doc example uses {foreign:?}, which a user's crate does not have:\n{body}",
                    relative(&file)
                );
            }
        }
    }
    assert!(checked >= 20, "only {checked} doc examples found");
}
