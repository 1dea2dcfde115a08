//! Every integration test of stickdice, in one test binary: each file of tests/ is a
//! module here (one binary to compile and link instead of one per file; see the book's
//! performance chapter on CI). `cargo test --release -p stickdice --test integration NAME::`
//! runs one file's tests. A new file in tests/ must be added below (a test checks it).

mod allocation;
mod analysis_exact;
mod arena_games;
mod conformance;
mod described_errors;
mod described_rules;
mod golden;
mod houmt_taourit_rules;
mod issiren_rules;
mod pinned_by_mutants;
mod properties;
mod protocol_props;
mod readme;
mod sig_el_oued_capture_rules;
mod sig_el_oued_rules;
mod sig_wa_duqqan_rules;
mod siryu_race_rules;
mod siryu_war_rules;

/// Every crate of the workspace with more than one file of tests has them in one binary: a
/// file of `tests/` that `tests/main.rs` does not name would never be compiled (the crates
/// set `autotests = false`), its tests silently skipped.
#[test]
fn every_test_file_is_a_module_of_its_crates_test_binary() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut crates = vec![root.to_path_buf()];
    for entry in std::fs::read_dir(root).unwrap() {
        let dir = entry.unwrap().path();
        if dir.join("Cargo.toml").is_file() && dir.join("tests").is_dir() {
            crates.push(dir);
        }
    }
    let mut checked = 0;
    for dir in crates {
        let mut files: Vec<String> = std::fs::read_dir(dir.join("tests"))
            .unwrap()
            .filter_map(|e| {
                let name = e.unwrap().file_name().into_string().unwrap();
                name.strip_suffix(".rs").map(str::to_string)
            })
            .filter(|name| name != "main")
            .collect();
        files.sort();
        if files.len() < 2 {
            continue;
        }
        let main = std::fs::read_to_string(dir.join("tests/main.rs")).unwrap_or_default();
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        assert!(
            manifest.contains("autotests = false") && manifest.contains("\"tests/main.rs\""),
            "{}: set `autotests = false` and a [[test]] `integration` at tests/main.rs",
            dir.join("Cargo.toml").display()
        );
        for name in &files {
            assert!(
                main.lines().any(|l| l.trim() == format!("mod {name};")),
                "{}: add `mod {name};` (tests/{name}.rs is compiled only as a module of it)",
                dir.join("tests/main.rs").display()
            );
        }
        checked += 1;
    }
    assert!(
        checked >= 6,
        "only {checked} crates with a test binary found"
    );
}
