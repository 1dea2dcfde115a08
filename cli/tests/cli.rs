//! The `stickdice tournament` and `stickdice replay` commands, run as a user would: a
//! tournament killed part-way and restarted ends with the same report as an uninterrupted
//! one on another thread count; a foreign log is refused; replay shows a logged game.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use common::{bin, lines, reports, succeeded, temp};

/// Sig wa Duqqan has no decisions, so random agents are as good as any, and it is
/// available with every agent set.
const ARGS: [&str; 8] = [
    "tournament",
    "--game",
    "sig-wa-duqqan",
    "--players",
    "3",
    "--agents",
    "random,random,random,random",
    "--seed",
];

fn tournament(out: &Path, games: &str, threads: &str) -> Command {
    let mut c = bin();
    c.args(ARGS)
        .args(["7", "--games", games, "--threads", threads, "--out"])
        .arg(out);
    c
}

#[test]
fn a_killed_tournament_resumes_to_the_report_of_an_uninterrupted_run() {
    let whole = temp("whole");
    let parts = temp("parts");
    let games = "5001"; // per table; 4 tables of 3 from 4 agents: 20004 games
    let st = tournament(&whole, games, "1")
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(st.success());

    let mut child = tournament(&parts, games, "2")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let log = parts.join("games.jsonl");
    let start = Instant::now();
    while lines(&log) < 200 && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let finished_early = child.try_wait().unwrap().is_some();
    child.kill().unwrap();
    child.wait().unwrap();
    let logged = lines(&log);
    eprintln!("killed after {logged} log lines (finished early: {finished_early})");
    assert!(logged > 1, "the killed run logged nothing");
    if !finished_early {
        assert!(
            !parts.join("report.json").exists(),
            "killed before the end, yet a report"
        );
    }
    let out = succeeded(tournament(&parts, games, "2").output().unwrap());
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !finished_early {
        assert!(stdout.contains("more from the log"), "{stdout}");
    }
    assert_eq!(reports(&whole), reports(&parts));
    assert_eq!(
        lines(&log),
        20005,
        "one header and one line per game, none twice"
    );

    // The same folder with other settings is refused, naming the difference.
    let out = bin()
        .args(ARGS)
        .args(["8", "--games", games, "--out"])
        .arg(&parts)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("different tournament") && err.contains("seed: 8 vs 7"),
        "{err}"
    );

    // Replay shows a logged game move by move.
    let out = succeeded(
        bin()
            .args(["replay"])
            .arg(&log)
            .args(["--index", "5", "--quiet"])
            .output()
            .unwrap(),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("game 5 (table") && text.contains("throw    1  P"),
        "{text}"
    );
    assert!(text.contains("place 1"), "{text}");
    let out = bin()
        .args(["replay"])
        .arg(&parts)
        .args(["--index", "999999"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no game 999999"));
    // The old name of --index gets a hint.
    let out = bin()
        .args(["replay"])
        .arg(&parts)
        .args(["--game", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("use --index 5"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A logged result that does not replay is refused, as resuming refuses it.
    let text = std::fs::read_to_string(&log).unwrap();
    let line5 = text
        .lines()
        .find(|l| l.contains("\"index\":5,"))
        .unwrap()
        .to_string();
    let mut record: serde_json::Value = serde_json::from_str(&line5).unwrap();
    for key in ["places", "scores"] {
        record[key].as_array_mut().unwrap().reverse();
    }
    let flipped = record.to_string();
    assert_ne!(flipped, line5);
    let bad = parts.join("flipped.jsonl");
    std::fs::write(&bad, text.replace(&line5, &flipped)).unwrap();
    let out = bin()
        .args(["replay"])
        .arg(&bad)
        .args(["--index", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("places"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let _ = std::fs::remove_dir_all(&whole);
    let _ = std::fs::remove_dir_all(&parts);
}

#[test]
fn bad_settings_are_explained() {
    let dir = temp("bad");
    for (args, expect) in [
        (vec!["--agents", "random,wizard"], "unknown agent `wizard`"),
        (vec!["--agents", "random"], "at least 2 agents"),
        (
            vec!["--sprt", "--agents", "random,random,random"],
            "exactly two agents",
        ),
        (vec!["--sprt", "--elo0", "10", "--elo1", "5"], "elo0 < elo1"),
        (vec!["--format", "swiss"], "round-robin or gauntlet"),
        (vec!["--threads", "0"], "at least 1"),
    ] {
        let out = bin()
            .args([
                "tournament",
                "--game",
                "sig-wa-duqqan",
                "--games",
                "2",
                "--out",
            ])
            .arg(&dir)
            .args(&args)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expect), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Misspelt agents, games, rule options and agent parameters get the closest name; a rule
/// option given twice or with a value it does not take is refused, saying so; game names
/// are read whatever their case; and no tablebase note comes before the error.
#[test]
fn misspellings_get_a_did_you_mean() {
    let dir = temp("misspelt");
    let run = |args: &[&str]| {
        let out = bin().args(args).current_dir(&dir).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    std::fs::create_dir_all(&dir).unwrap();
    for (args, expect) in [
        (
            &["tournament", "--agents", "greddy,random", "-n", "2"][..],
            "error: unknown agent `greddy` (did you mean `greedy`?): the agents are ",
        ),
        (
            &["tournament", "--game", "issirin", "-n", "2"][..],
            // The list's games in its order (a description added since comes after these).
            "error: unknown game `issirin` (did you mean `issiren`?): the games are sig-wa-duqqan, sig-el-oued, issiren, sig-el-oued-capture, siryu-race, sig-wa-duqqan-houmt-taourit, siryu-war, sig-mzab, sig-tozeur, kioz, tab, sijat-el-taba, es-sig, sig-western-sahara",
        ),
        (
            &["play", "--game", "sig-el-oued", "--option", "cairo_alway_three=true"][..],
            "error: sig-el-oued has no rule option `cairo_alway_three` (did you mean `cairo_always_three`?); its options are: ",
        ),
        (
            &["play", "--game", "issiren", "-o", "max_throws=1", "-o", "max_throws=2"][..],
            "error: rule option `max_throws` is given twice: give each option once",
        ),
        (
            &["tournament", "--game", "tab", "-o", "columns=8", "-n", "2"][..],
            "error: rule option `columns` takes one of 7, 9, 11, 13, 15, not `8`",
        ),
        (
            &["tournament", "--agents", "mcts:iteration=20,random", "-n", "2"][..],
            "error: agent `mcts` has no parameter `iteration` (did you mean `iterations`?); it takes: ",
        ),
        (
            &["tournament", "--game", "chess", "-n", "2"][..],
            "error: unknown game `chess`: the games are ",
        ),
    ] {
        let (code, err) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.starts_with(expect), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: only the error: {err}");
    }
    // Game names in any case.
    for name in ["Issiren", "ISSIREN", "Sig-Wa-Duqqan"] {
        let (code, err) = run(&["play", "--game", name, "--seed", "1"]);
        assert_eq!(code, Some(0), "{name}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Sig (Western Sahara) is played by four (two teams) unless `-p` says otherwise, as its
/// rules say; three seats are refused naming the counts it allows.
#[test]
fn sig_western_sahara_is_played_by_four_unless_told_otherwise() {
    let dir = temp("western-sahara-seats");
    let tournament = |name: &str, extra: &[&str]| {
        bin()
            .args([
                "tournament",
                "-g",
                "sig-western-sahara",
                "--agents",
                "random,greedy,random,greedy",
            ])
            .args(["--games", "2", "--seed", "1", "--threads", "1"])
            .args(["--option", "max_throws=60"])
            .args(extra)
            .arg("--out")
            .arg(dir.join(name))
            .output()
            .unwrap()
    };
    let seats = |name: &str| {
        let text = std::fs::read_to_string(dir.join(name).join("report.json")).unwrap();
        let report: serde_json::Value = serde_json::from_str(&text).unwrap();
        report["seats"].as_array().unwrap().len()
    };
    succeeded(tournament("default", &[]));
    assert_eq!(seats("default"), 4);
    succeeded(tournament("two", &["-p", "2"]));
    assert_eq!(seats("two"), 2);
    let out = tournament("three", &["-p", "3"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("sig-western-sahara is played by 2 or 4 players, not 3"),
        "{err}"
    );
    let out = succeeded(
        bin()
            .args(["play", "-g", "sig-western-sahara", "--seed", "3", "--quiet"])
            .args(["--option", "max_throws=20"])
            .output()
            .unwrap(),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("Sig (Western Sahara) — 4 players"),
        "{text}"
    );
}
