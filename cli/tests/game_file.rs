//! `--game-file PATH`, a user's description file, in every command that chooses a game:
//! play, tournament, analyze, compare, ladder, and the log readers replay, review and merge,
//! which refuse a file other than the one a log was played with.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common;
use common::{bin, stderr, stdout, succeeded, temp};

/// The tutorial's reading of Tab (docs/described/tab-no-out-gate.toml).
fn reading() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/described/tab-no-out-gate.toml")
}

/// A copy of the reading with another title: another description (another digest).
fn changed(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let text = std::fs::read_to_string(reading()).unwrap();
    let path = dir.join("changed.toml");
    std::fs::write(
        &path,
        text.replace("title = \"Tab (no out gate)\"", "title = \"Tab (changed)\""),
    )
    .unwrap();
    path
}

/// A file that is not a description: a misspelt field on line 3.
fn bad(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("bad.toml");
    std::fs::write(
        &path,
        "format = 1\nextends = \"tab\"\nnmae = \"x\"\ntitle = \"X\"\n",
    )
    .unwrap();
    path
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

#[track_caller]
fn refused(out: &Output, says: &[&str]) -> String {
    assert_eq!(out.status.code(), Some(2), "{}", stderr(out));
    let err = stderr(out);
    assert!(!err.contains("panicked"), "{err}");
    for s in says {
        assert!(err.contains(s), "`{s}` not in: {err}");
    }
    err
}

/// A small tournament of the reading in `out`.
fn tournament(file: &Path, out: &Path, extra: &[&str]) -> Output {
    bin()
        .args(["tournament", "--game-file"])
        .arg(file)
        .args([
            "--agents",
            "random,random",
            "--games",
            "4",
            "--seed",
            "5",
            "--threads",
            "1",
        ])
        .args(extra)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn play_shows_the_files_own_title() {
    let r = reading();
    let out = succeeded(run(&[
        "play",
        "--game-file",
        r.to_str().unwrap(),
        "--seed",
        "3",
        "--quiet",
    ]));
    let text = stdout(&out);
    assert!(
        text.starts_with("Tab (no out gate) — 2 players, seed 3, columns=7"),
        "{text}"
    );
    assert!(text.contains("ranking after"), "{text}");
    // An option of the file is an option of the game.
    let out = succeeded(run(&[
        "play",
        "--game-file",
        r.to_str().unwrap(),
        "--option",
        "columns=9",
        "--quiet",
    ]));
    assert!(stdout(&out).contains("columns=9"), "{}", stdout(&out));
    // --game and --game-file do not go together.
    refused(
        &run(&["play", "--game", "tab", "--game-file", r.to_str().unwrap()]),
        &["--game-file"],
    );
}

#[test]
fn a_bad_file_is_refused_with_its_line_and_field_in_every_command() {
    let dir = temp("bad-file");
    let b = bad(&dir);
    let b = b.to_str().unwrap();
    for args in [
        vec!["play", "--game-file", b],
        vec!["tournament", "--game-file", b, "--agents", "random,random"],
        vec!["analyze", "--game-file", b, "--games", "2"],
        vec!["compare", "--game-file", b, "--games", "2"],
        vec!["ladder", "--game-file", b, "--series", "random"],
    ] {
        refused(
            &run(&args),
            &["bad.toml:3:1", "nmae", "did you mean `name`?"],
        );
    }
    refused(
        &run(&["play", "--game-file", "/no/such/file.toml"]),
        &["/no/such/file.toml", "cannot read the file"],
    );
    // No description loaded: the slot of the list says how to give one.
    refused(
        &run(&["play", "--game", "game-file"]),
        &["--game-file PATH"],
    );
}

#[test]
fn a_tournament_logs_the_description_and_its_readers_refuse_another() {
    let dir = temp("tournament");
    let out = dir.join("t");
    let r = reading();
    let o = succeeded(tournament(&r, &out, &[]));
    assert!(
        stderr(&o).contains("Tab (no out gate): 2 players"),
        "{}",
        stderr(&o)
    );
    let log = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    let header: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    let config = &header["config"];
    assert_eq!(config["game"], "tab-no-out-gate");
    let d = &config["description"];
    assert_eq!(d["name"], "tab-no-out-gate");
    assert_eq!(d["text"], std::fs::read_to_string(&r).unwrap().as_str());
    let digest = d["digest"].as_str().unwrap().to_string();
    assert_eq!(digest.len(), 64);

    // Replay and review: with the log's own text, with the same file, not with another.
    let log_path = out.join("games.jsonl");
    let lp = log_path.to_str().unwrap();
    let rp = r.to_str().unwrap();
    let replayed = succeeded(run(&["replay", lp, "--index", "0", "--quiet"]));
    assert!(
        stdout(&replayed).starts_with("Tab (no out gate) — game 0"),
        "{}",
        stdout(&replayed)
    );
    let with_file = succeeded(run(&[
        "replay",
        lp,
        "--index",
        "0",
        "--quiet",
        "--game-file",
        rp,
    ]));
    assert_eq!(stdout(&with_file), stdout(&replayed));
    let other = changed(&dir);
    let op = other.to_str().unwrap();
    refused(
        &run(&["replay", lp, "--index", "0", "--game-file", op]),
        &[&digest, "tab-no-out-gate", "not the one given"],
    );
    succeeded(run(&[
        "review",
        lp,
        "--index",
        "0",
        "--game-file",
        rp,
        "--reference-depth",
        "1",
    ]));
    refused(
        &run(&["review", lp, "--index", "0", "--game-file", op]),
        &[&digest, "not the one given"],
    );
    // A log of a game of the list takes no --game-file.
    let plain = dir.join("plain");
    succeeded(
        bin()
            .args([
                "tournament",
                "--game",
                "tab",
                "--agents",
                "random,random",
                "--games",
                "2",
                "--threads",
                "1",
                "--out",
            ])
            .arg(&plain)
            .output()
            .unwrap(),
    );
    let plain_log = plain.join("games.jsonl");
    refused(
        &run(&[
            "replay",
            plain_log.to_str().unwrap(),
            "--index",
            "0",
            "--game-file",
            rp,
        ]),
        &["leave out --game-file"],
    );
    assert!(!std::fs::read_to_string(&plain_log)
        .unwrap()
        .contains("description"));

    // Resuming with another file is refused, and the log is left as it was.
    let before = std::fs::read(&log_path).unwrap();
    refused(&tournament(&other, &out, &[]), &["description"]);
    assert_eq!(std::fs::read(&log_path).unwrap(), before);
}

#[test]
fn shards_of_a_file_merge_with_that_file_only() {
    let dir = temp("shards");
    let r = reading();
    let shards: Vec<PathBuf> = (0..2).map(|i| dir.join(format!("s{i}"))).collect();
    for (i, s) in shards.iter().enumerate() {
        succeeded(tournament(&r, s, &["--shard", &format!("{i}/2")]));
    }
    let merged = dir.join("merged");
    let merge = |file: Option<&Path>| {
        let mut c = bin();
        c.arg("merge").arg(&merged).args(&shards);
        if let Some(f) = file {
            c.arg("--game-file").arg(f);
        }
        c.output().unwrap()
    };
    let other = changed(&dir);
    refused(&merge(Some(&other)), &["not the one given"]);
    assert!(!merged.join("report.json").exists());
    succeeded(merge(Some(&r)));
    let report = std::fs::read_to_string(merged.join("report.md")).unwrap();
    assert!(
        report.contains("Tournament report: tab-no-out-gate"),
        "{report}"
    );
}

#[test]
fn analyze_compare_and_ladder_take_a_file() {
    let dir = temp("others");
    let r = reading();
    let rp = r.to_str().unwrap();
    let out = succeeded(run(&[
        "analyze",
        "--game-file",
        rp,
        "--games",
        "20",
        "--agents",
        "random",
        "--json",
    ]));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["game"], "tab-no-out-gate");
    assert_eq!(json["title"], "Tab (no out gate)");

    let out = succeeded(run(&[
        "compare",
        "--game-file",
        rp,
        "--game",
        "tab",
        "--games",
        "10",
        "--detailed",
        "5",
        "--luck-games",
        "0",
        "--trace",
        "none",
        "--metrics",
        "DurationThrows,AdvantageP1",
        "--format",
        "json",
    ]));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = json.to_string();
    assert!(text.contains("tab-no-out-gate 2p"), "{text}");
    assert!(text.contains("\"tab 2p\""), "{text}");

    std::fs::create_dir_all(&dir).unwrap();
    let o = bin()
        .args([
            "ladder",
            "--game-file",
            rp,
            "--millis",
            "0.05",
            "--games",
            "2",
            "--positions",
            "2",
            "--threads",
            "1",
            "--family",
            "random",
            "--family",
            "greedy",
            "--out",
            "l",
        ])
        .env("STICKDICE_CACHE", dir.join("no-cache"))
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    // `--family`, the old spelling of `--series`, still plays, with a note.
    assert!(
        stderr(&o).contains("note: --family is now --series"),
        "{}",
        stderr(&o)
    );
    let specs = std::fs::read_to_string(dir.join("l").join("specs.json")).unwrap_or_default();
    assert!(specs.contains("tab-no-out-gate"), "{specs}");
}
