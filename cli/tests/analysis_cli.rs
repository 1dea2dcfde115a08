//! `stickdice analyze` run as a user would: the JSON figures are consistent and do not
//! depend on the thread count, the histogram is written, and bad requests are refused
//! with a message naming the problem.

use std::path::PathBuf;

use crate::common;
use common::{bin, succeeded};

fn temp(name: &str) -> PathBuf {
    let p = common::temp(name);
    std::fs::create_dir_all(&p).unwrap();
    p
}

fn analyze_json(args: &[&str], threads: &str, svg: &PathBuf) -> serde_json::Value {
    let out = succeeded(
        bin()
            .arg("analyze")
            .args(args)
            .args(["--json", "--threads", threads, "--svg"])
            .arg(svg)
            .output()
            .unwrap(),
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn figures_are_consistent_and_independent_of_threads() {
    let dir = temp("json");
    let args = [
        "--game",
        "sig-el-oued",
        "--games",
        "300",
        "--agents",
        "perfect,greedy",
        "--rotations",
        "40",
        "--seed",
        "9",
    ];
    let one = analyze_json(&args, "1", &dir.join("a.svg"));
    let two = analyze_json(&args, "2", &dir.join("b.svg"));
    let strip = |mut v: serde_json::Value| {
        v["exact"]["seconds"] = serde_json::Value::Null;
        v["svg"] = serde_json::Value::Null;
        v
    };
    assert_eq!(
        strip(one.clone()),
        strip(two),
        "figures depend on the thread count"
    );
    // Exact: the two seats' chances of ranking first sum to 1 (no ties without a cap).
    let first = one["exact"]["first"].as_array().unwrap();
    let sum: f64 = first.iter().map(|x| x.as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-9, "{sum}");
    let outcomes: f64 = one["exact"]["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o[1].as_f64().unwrap())
        .sum();
    assert!((outcomes - 1.0).abs() < 1e-9);
    // Self-play: 300 games, seat scores sum to one game's total (1 point between two).
    let sp = &one["self_play"];
    assert_eq!(sp["games"], 300);
    let scores: f64 = sp["score"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["mean"].as_f64().unwrap())
        .sum();
    assert!((scores - 1.0).abs() < 1e-9);
    // Every decision in Sig (El Oued) is the leftover choice: use or decline.
    assert_eq!(sp["mean_choices"].as_f64(), Some(2.0));
    assert_eq!(sp["capped"]["mean"].as_f64(), Some(0.0));
    // Median ≤ 90th percentile ≤ max.
    let t = &sp["throws"];
    assert!(t["median"].as_f64().unwrap() <= t["p90"].as_f64().unwrap());
    assert!(t["p90"].as_u64().unwrap() <= t["max"].as_u64().unwrap());
    // Skill: two agents, 80 games each, and the strongest is one of them.
    let skill = one["skill"].as_array().unwrap();
    assert_eq!(skill.len(), 2);
    assert_eq!(skill[0]["games"], 80);
    let strongest = one["strongest"].as_str().unwrap();
    assert!(strongest == "perfect" || strongest == "greedy");
    // The histogram.
    let svg = std::fs::read_to_string(dir.join("a.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("throws per game (300 games)"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_table_names_every_figure() {
    let dir = temp("table");
    let out = succeeded(
        bin()
            .args([
                "analyze",
                "--game",
                "sig-wa-duqqan",
                "--games",
                "200",
                "--svg",
            ])
            .arg(dir.join("h.svg"))
            .output()
            .unwrap(),
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "exact P(rank first)",
        "exact P(reach the Ka'aba)",
        "simulated P(rank first)",
        "exact expected throws (any play, no cap)",
        "turns",
        "no decisions",
        "burials per game",
        "games ending at the cap",
        "P1 > P2 (P1 arrived, P2 buried)",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in:\n{text}");
    }
    // Sig wa Duqqan captures nothing: no line of zeros for it.
    assert!(!text.contains("captures per game"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nothing_is_written_unasked_and_no_figure_is_zero_by_the_rules() {
    let dir = temp("unasked");
    let out = succeeded(
        bin()
            .current_dir(&dir)
            .args([
                "analyze",
                "--game",
                "issiren",
                "--games",
                "20",
                "--rotations",
                "2",
            ])
            .output()
            .unwrap(),
    );
    let text = String::from_utf8(out.stdout).unwrap();
    // Issiren buries nothing; it captures.
    assert!(!text.contains("burials per game"), "{text}");
    assert!(text.contains("captures per game"), "{text}");
    assert!(!text.contains("histogram"), "{text}");
    let written: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(written.is_empty(), "analyze wrote {written:?} unasked");
    // `--svg` alone: the default name, in the current folder.
    succeeded(
        bin()
            .current_dir(&dir)
            .args([
                "analyze",
                "--game",
                "sig-wa-duqqan",
                "--games",
                "20",
                "--svg",
            ])
            .output()
            .unwrap(),
    );
    let svg = dir.join("analyze-sig-wa-duqqan-2p-lengths.svg");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_requests_are_refused_with_a_reason() {
    for (args, needle) in [
        (
            vec!["--game", "sig-wa-duqqan", "--tablebase", "build"],
            "no endgame tablebase",
        ),
        (vec!["--game", "issiren", "--games", "0"], "--games"),
        (
            vec!["--game", "issiren", "--agents", "wizard"],
            "unknown agent",
        ),
        (
            vec!["--game", "issiren", "--agents", "perfect"],
            "cannot play here",
        ),
        (vec!["--game", "chess"], "unknown game"),
        (
            vec!["--game", "issiren", "--tablebase", "/nonexistent/file.tb"],
            "/nonexistent/file.tb",
        ),
    ] {
        let out = bin()
            .arg("analyze")
            .args(&args)
            .arg("--no-svg")
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}
