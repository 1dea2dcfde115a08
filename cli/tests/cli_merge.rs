//! `stickdice tournament --shard I/K` and `stickdice merge`, run as a user would: shards
//! (one of them killed with SIGKILL part-way and resumed) merge into the report of the same
//! tournament on one machine; missing games are listed with exit status 2 and nothing
//! written; an undecided SPRT batch exits with status 3.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use common::{bin, lines, reports, succeeded, temp};

/// Issiren with a rule option (it must survive the trip through the shard headers), three
/// agents, 3 tables × 300 rotations: 1800 games.
fn tournament(out: &Path) -> Command {
    let mut c = bin();
    c.args([
        "tournament",
        "--game",
        "issiren",
        "--option",
        "max_throws=3000",
        "--agents",
        "random,greedy,random",
        "--games",
        "600",
        "--seed",
        "11",
        "--threads",
        "1",
        "--out",
    ])
    .arg(out);
    c
}

fn ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn killed_shards_resume_and_merge_into_the_one_machine_report() {
    let root = temp("kill");
    let whole = root.join("whole");
    ok(tournament(&whole).stdout(Stdio::null()).output().unwrap());
    let shards: Vec<PathBuf> = (0..3).map(|i| root.join(format!("shard-{i}"))).collect();
    for (i, dir) in shards.iter().enumerate() {
        let shard = format!("{i}/3");
        if i == 1 {
            // Killed (SIGKILL) part-way, then run again: it resumes its log.
            let mut child = tournament(dir)
                .args(["--shard", &shard])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let log = dir.join("games.jsonl");
            let start = Instant::now();
            while lines(&log) < 50 && start.elapsed() < Duration::from_secs(60) {
                std::thread::sleep(Duration::from_millis(1));
            }
            let finished_early = child.try_wait().unwrap().is_some();
            child.kill().unwrap();
            child.wait().unwrap();
            eprintln!(
                "shard 1/3 killed after {} log lines (finished early: {finished_early})",
                lines(&log)
            );
            // Merging now fails, naming shard 1's missing games, and writes nothing.
            let merged = root.join("merged");
            let out = bin()
                .arg("merge")
                .arg(&merged)
                .args(&shards[..2])
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{err}");
            assert!(err.contains("shard 2/3: games"), "{err}");
            if !finished_early {
                assert!(err.contains("shard 1/3: games"), "{err}");
            }
            assert!(err.contains("shards not given: 2/3"), "{err}");
            assert!(!merged.exists());
        }
        let stdout = ok(tournament(dir).args(["--shard", &shard]).output().unwrap());
        assert!(stdout.contains(&format!("shard {shard}: ")), "{stdout}");
        assert!(
            !dir.join("report.json").exists(),
            "a shard writes no report"
        );
    }
    // 3 tables × 300 rotations: 900 units of 2 games dealt round-robin, 300 units each;
    // one header line, and no game logged twice after the kill.
    for dir in &shards {
        assert_eq!(lines(&dir.join("games.jsonl")), 601);
    }
    let merged = root.join("merged");
    let mut reversed = shards.clone();
    reversed.reverse();
    let stdout = ok(bin()
        .arg("merge")
        .arg(&merged)
        .args(&reversed)
        .output()
        .unwrap());
    assert!(stdout.contains("3 shard folders, 1800 games"), "{stdout}");
    assert_eq!(reports(&merged), reports(&whole));
    // The report folder may not be a shard.
    let out = bin()
        .arg("merge")
        .arg(&shards[0])
        .args(&shards)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is the shard folder"));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn an_undecided_sprt_batch_exits_with_status_3() {
    let root = temp("sprt");
    let sprt = |dir: &Path, i: usize, until: &str| {
        let mut c = bin();
        c.args([
            "tournament",
            "--agents",
            "greedy,random",
            "--sprt",
            "--elo1",
            "20",
            "--seed",
            "3",
            "--shard",
            &format!("{i}/2"),
            "--until-rotation",
            until,
            "--out",
        ])
        .arg(dir);
        ok(c.output().unwrap());
    };
    let shards = [root.join("a"), root.join("b")];
    let merged = root.join("merged");
    for until in ["2", "4"] {
        for (i, d) in shards.iter().enumerate() {
            sprt(d, i, until);
        }
        let out = bin()
            .arg("merge")
            .arg(&merged)
            .args(&shards)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        if until == "2" {
            assert_eq!(out.status.code(), Some(3), "{stdout}");
            assert!(stdout.contains("after 2 rotations") && stdout.contains("undecided"));
            assert!(!merged.exists());
        } else {
            assert_eq!(out.status.code(), Some(0), "{stdout}");
            assert!(stdout.contains("H1 accepted"), "{stdout}");
            assert!(merged.join("report.json").exists());
        }
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn luck_adjusted_scores_merge_like_one_machine() {
    let root = temp("luck");
    // Sig (El Oued), whose reference is exact (its solved values), so luck is cheap.
    let tournament = |dir: &Path, extra: &[&str]| {
        let mut c = bin();
        c.args([
            "tournament",
            "--game",
            "sig-el-oued",
            "--agents",
            "random,perfect",
            "--seed",
            "5",
            "--threads",
            "2",
        ])
        .args(extra)
        .arg("--out")
        .arg(dir);
        c
    };
    let run = |dir: &Path, extra: &[&str]| ok(tournament(dir, extra).output().unwrap());
    let merge = |out: &Path, shards: &[PathBuf], extra: &[&str]| {
        bin()
            // A plain progress line after every game measured (standard error is a pipe).
            .env("STICKDICE_PROGRESS_EVERY", "0")
            .arg("merge")
            .arg(out)
            .args(shards)
            .args(extra)
            .output()
            .unwrap()
    };
    // A fixed-size tournament: --luck on one machine = shards merged with --luck.
    let whole = root.join("whole");
    run(&whole, &["--games", "60", "--luck"]);
    let shards: Vec<PathBuf> = (0..2).map(|i| root.join(format!("shard-{i}"))).collect();
    for (i, dir) in shards.iter().enumerate() {
        run(dir, &["--games", "60", "--shard", &format!("{i}/2")]);
    }
    let merged = root.join("merged");
    let out = succeeded(merge(&merged, &shards, &["--luck", "--threads", "1"]));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.lines()
            .any(|l| l.starts_with("progress: ") && l.contains(" games (luck)")),
        "no progress line while measuring luck:\n{err}"
    );
    let report = std::fs::read_to_string(merged.join("report.json")).unwrap();
    assert!(report.contains("\"luck\":"), "{report}");
    assert_eq!(reports(&merged), reports(&whole));
    // Resumed with --luck, the tournament measures the logged games' luck first, with its
    // progress, and ends with the same report.
    let resumed = root.join("resumed");
    std::fs::create_dir_all(&resumed).unwrap();
    let log = std::fs::read_to_string(whole.join("games.jsonl")).unwrap();
    let head: Vec<&str> = log.lines().take(21).collect();
    std::fs::write(resumed.join("games.jsonl"), head.join("\n") + "\n").unwrap();
    let out = succeeded(
        tournament(&resumed, &["--games", "60", "--luck"])
            .env("STICKDICE_PROGRESS_EVERY", "0")
            .output()
            .unwrap(),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.lines().any(|l| l.starts_with("progress: ")
            && l.contains("/20 games (luck of the games in the log)")),
        "no progress line while measuring the logged games' luck:\n{err}"
    );
    assert_eq!(reports(&resumed), reports(&whole));
    // Without --luck the merged report has no luck section, so it differs.
    let plain = root.join("plain");
    assert!(merge(&plain, &shards, &[]).status.success());
    assert_ne!(reports(&plain)[0], reports(&whole)[0]);
    // A shard refuses --luck (it writes no report), naming merge.
    let mut c = bin();
    c.args(["tournament", "--shard", "0/2", "--luck", "--out"])
        .arg(root.join("refused"));
    let out = c.output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("stickdice merge"));

    // An SPRT on luck-adjusted scores: batches over two shards decide where one machine
    // does, with the same report.
    let sprt = ["--sprt", "--elo1", "40", "--luck-adjusted"];
    let whole = root.join("sprt-whole");
    let stdout = run(&whole, &sprt);
    assert!(stdout.contains("accepted"), "{stdout}");
    let shards: Vec<PathBuf> = (0..2).map(|i| root.join(format!("sprt-{i}"))).collect();
    let merged = root.join("sprt-merged");
    let mut decided = false;
    for until in (2..=400).step_by(2) {
        for (i, dir) in shards.iter().enumerate() {
            let until = until.to_string();
            run(
                dir,
                &[
                    "--sprt",
                    "--elo1",
                    "40",
                    "--shard",
                    &format!("{i}/2"),
                    "--until-rotation",
                    &until,
                ],
            );
        }
        let out = merge(&merged, &shards, &["--luck-adjusted"]);
        match out.status.code() {
            Some(0) => {
                decided = true;
                break;
            }
            Some(3) => assert!(!merged.exists()),
            _ => panic!("{}", String::from_utf8_lossy(&out.stderr)),
        }
    }
    assert!(decided, "the SPRT did not decide within 400 rotations");
    assert_eq!(reports(&merged), reports(&whole));
    let _ = std::fs::remove_dir_all(&root);
}
