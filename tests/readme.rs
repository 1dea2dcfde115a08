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

/// Every "Python 3.N" the README and the book give as the lowest version is the Python
/// package's own (`requires-python` in python/pyproject.toml).
#[test]
fn the_python_version_is_the_packages_everywhere() {
    let pyproject = std::fs::read_to_string(Path::new(ROOT).join("python/pyproject.toml")).unwrap();
    let required = pyproject
        .lines()
        .find_map(|l| l.trim().strip_prefix("requires-python = \">="))
        .and_then(|v| v.strip_suffix('"'))
        .expect("python/pyproject.toml: requires-python = \">=3.N\"");
    let mut found = 0;
    let mut wrong = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap().replace('\n', " ");
        for (at, _) in text.match_indices("Python 3.") {
            let version: String = text[at + "Python ".len()..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let version = version.trim_end_matches('.');
            let after: String = text[at..].chars().take(40).collect();
            if after.contains("or later") || after.contains("and later") {
                found += 1;
                if version != required {
                    wrong.push(format!("{}: {after}", relative(&page)));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "not Python {required}:\n{}",
        wrong.join("\n")
    );
    assert!(found >= 3, "only {found} Python versions found");
}

/// The book speaks to a reader of the rules and the tool, not of its own history (that is
/// the CHANGELOG's): no issue numbers, no section numbers from files the reader never sees,
/// no seed file names, no "former" defaults or throwaway work.
#[test]
fn the_book_does_not_read_like_a_lab_notebook() {
    let seed_file = |line: &str| {
        line.as_bytes().windows(20).any(|w| {
            w[..3].iter().all(u8::is_ascii_digit)
                && w[3] == b'_'
                && w[4..].iter().all(|b| b.is_ascii_hexdigit())
        }) || line.contains("`000_")
            || line.contains("`001_")
            || line.contains("seeds/")
    };
    // The specification's first two files, which the reader never sees (spelt in pieces:
    // .ci/check_links.py refuses the names outside the book's games chapters).
    let rules_files = [format!("{}.md", "RULES"), format!("{}-family.md", "RULES")];
    let mut found = Vec::new();
    for page in pages() {
        let name = relative(&page);
        if !name.starts_with("docs/") {
            continue;
        }
        let text = std::fs::read_to_string(&page).unwrap();
        for (n, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            let issue_number = lower
                .match_indices("issue ")
                .any(|(at, _)| lower[at + 6..].starts_with(|c: char| c.is_ascii_digit()));
            let hit = issue_number
                || lower.contains("issue's")
                || lower.contains("(issue")
                || line.contains('§')
                || lower.contains("first written")
                || lower.contains("throwaway")
                || lower.contains("former default")
                || line.contains(&rules_files[0])
                || line.contains(&rules_files[1])
                || seed_file(line);
            if hit {
                found.push(format!("{name}:{}: {line}", n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "history in the book:\n{}",
        found.join("\n")
    );
}

/// Each game's rules chapter ties its squares to the names the tools show (Conventions:
/// (row, col) and a1–l4, or idx).
#[test]
fn every_rules_chapter_gives_the_tools_notation() {
    let dir = Path::new(ROOT).join("docs/games");
    let mut chapters = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if ["overview.md", "conventions.md", "readings.md"].contains(&name.as_str()) {
            continue;
        }
        chapters += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("conventions.md#everywhere"),
            "docs/games/{name} does not point to the notation in Conventions"
        );
        // A board of rows and columns (the capture games) is drawn with both names.
        if text.contains(" rows × ") {
            assert!(
                text.contains("`a1`") && text.contains("(0,0)"),
                "docs/games/{name}: a board without its squares' names"
            );
        }
    }
    assert!(chapters >= 7, "only {chapters} rules chapters");
}
