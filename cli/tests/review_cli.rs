//! `stickdice review` and `stickdice tournament --luck` / `--luck-adjusted`, run as a user
//! would: the table and JSON of one game and of a whole log, the luck-adjusted report
//! (the same whatever the thread count), and clear errors for bad input.

use std::path::Path;
use std::process::Output;

use crate::common;
use common::{bin, temp};

fn run(args: &[&str], out: Option<&Path>) -> Output {
    let mut c = bin();
    c.args(args);
    if let Some(o) = out {
        c.arg(o);
    }
    c.output().expect("the binary runs")
}

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}\n{}",
        String::from_utf8_lossy(&o.stderr),
        String::from_utf8_lossy(&o.stdout)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn err(o: &Output) -> String {
    assert!(!o.status.success(), "should fail");
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// A two-player Sig (El Oued) tournament of random against greedy, with luck.
fn el_oued(out: &Path, threads: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "tournament",
        "--game",
        "sig-el-oued",
        "--agents",
        "random,greedy",
        "--games",
        "40",
        "--seed",
        "3",
        "--threads",
        threads,
    ];
    args.extend_from_slice(extra);
    args.push("--out");
    run(&args, Some(out))
}

#[test]
fn review_of_one_game_and_of_a_log() {
    let dir = temp("log");
    ok(&el_oued(&dir, "2", &[]));
    let d = dir.to_str().unwrap();
    // One game: the table, and JSON with the documented shape.
    let table = ok(&run(&["review", d, "--index", "5"], None));
    assert!(table.contains("exact: the solved values"), "{table}");
    assert!(table.contains("adjusted"), "{table}");
    assert!(table.contains("P1") && table.contains("greedy"), "{table}");
    let json = ok(&run(&["review", d, "--index", "5", "--json"], None));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["index"], 5);
    assert_eq!(v["exact"], true);
    let steps = v["steps"].as_array().unwrap();
    assert!(steps.iter().any(|s| s["kind"] == "throw"));
    let throw = steps.iter().find(|s| s["kind"] == "throw").unwrap();
    assert_eq!(throw["outcomes"].as_array().unwrap().len(), 7);
    assert_eq!(v["summary"].as_array().unwrap().len(), 2);
    // Telescoping, from the JSON alone.
    for s in v["summary"].as_array().unwrap() {
        let f = |k: &str| s[k].as_f64().unwrap();
        let sum = f("start") + f("luck") - f("total_error") + f("opponent_effect") + f("drift");
        assert!((sum - f("final_score")).abs() < 1e-9, "{s}");
    }
    // The whole log: one line per game and seat, then per agent; JSON is a list.
    let all = ok(&run(&["review", d, "--threads", "1"], None));
    assert!(all.starts_with("40 games reviewed"), "{all}");
    assert!(all.contains("mean luck"), "{all}");
    let json = ok(&run(&["review", d, "--json"], None));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 40);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn luck_adjusted_reports_do_not_depend_on_threads_and_resume() {
    let a = temp("luck-a");
    let b = temp("luck-b");
    ok(&el_oued(&a, "1", &["--luck"]));
    // Played without luck, then the report rebuilt with luck from the log.
    ok(&el_oued(&b, "2", &[]));
    let plain = std::fs::read_to_string(b.join("report.json")).unwrap();
    assert!(!plain.contains("\"luck\""), "no luck section unless asked");
    let out = ok(&el_oued(&b, "2", &["--luck"]));
    assert!(out.contains("luck measured for 40 games"), "{out}");
    for f in ["report.json", "report.md", "standings.csv"] {
        let x = std::fs::read_to_string(a.join(f)).unwrap();
        let y = std::fs::read_to_string(b.join(f)).unwrap();
        assert_eq!(x, y, "{f}");
    }
    let md = std::fs::read_to_string(a.join("report.md")).unwrap();
    assert!(md.contains("## Luck-adjusted scores"), "{md}");
    let csv = std::fs::read_to_string(a.join("standings.csv")).unwrap();
    assert!(
        csv.lines().next().unwrap().ends_with("variance_reduction"),
        "{csv}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(a.join("report.json")).unwrap()).unwrap();
    let agents = v["luck"]["agents"].as_array().unwrap();
    assert_eq!(agents.len(), 2);
    for s in agents {
        // Far narrower with the exact reference.
        assert!(s["width_ratio"].as_f64().unwrap() < 0.7, "{s}");
    }
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

#[test]
fn the_sprt_runs_on_adjusted_scores() {
    let dir = temp("sprt");
    let out = ok(&el_oued(
        &dir,
        "2",
        &["--sprt", "--elo0", "0", "--elo1", "40", "--luck-adjusted"],
    ));
    assert!(out.contains("SPRT"), "{out}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert!(v["sprt"]["luck_adjusted"].as_bool().unwrap(), "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_explained() {
    let dir = temp("bad");
    // One thread: the log's lines are in game order, so line 2 holds game 0 (with two
    // threads the games' lines are written as they finish, and the damaged one below
    // might not be the one reviewed).
    ok(&el_oued(&dir, "1", &[]));
    let d = dir.to_str().unwrap();
    let e = err(&run(&["review", d, "--index", "999"], None));
    assert!(e.contains("holds no game 999"), "{e}");
    let e = err(&run(&["review", d, "--reference-depth", "2"], None));
    assert!(e.contains("reviewed by a search"), "{e}");
    let e = err(&run(&["review", d, "--blunder=-1"], None));
    assert!(e.contains("--blunder"), "{e}");
    // A damaged log: a game line whose actions are cut.
    let log = dir.join("games.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut g: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
    let events = g["events"].as_array_mut().unwrap();
    let keep = events.len() / 2;
    events.truncate(keep);
    lines[1] = serde_json::to_string(&g).unwrap();
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let e = err(&run(&["review", d, "--index", "0"], None));
    assert!(
        e.contains("line 2") && e.contains("stop before the end of the game"),
        "{e}"
    );
    let e = err(&run(&["review", "/nonexistent/stickdice"], None));
    assert!(!e.is_empty());
    // A game the reference cannot handle.
    let four = temp("four");
    let four_players = |extra: &[&str]| {
        let args = ["tournament", "--game", "sig-wa-duqqan", "--players", "4"];
        let more = ["--agents", "random,random,random,random", "--games", "4"];
        run(&[&args[..], &more, extra, &["--out"]].concat(), Some(&four))
    };
    ok(&four_players(&[]));
    let e = err(&run(
        &["review", four.to_str().unwrap(), "--index", "0"],
        None,
    ));
    assert!(e.contains("2 to 3 players"), "{e}");
    let e = err(&four_players(&["--luck"]));
    assert!(
        e.contains("luck-adjusted") && e.contains("2 to 3 players"),
        "{e}"
    );
    // Issiren: a tablebase that cannot be loaded.
    let iss = temp("issiren");
    ok(&run(
        &[
            "tournament",
            "--game",
            "issiren",
            "--agents",
            "greedy,greedy",
            "--games",
            "2",
            "--out",
        ],
        Some(&iss),
    ));
    let e = err(&run(
        &[
            "review",
            iss.to_str().unwrap(),
            "--index",
            "0",
            "--reference-tablebase",
            "/nonexistent/issiren.tb",
        ],
        None,
    ));
    assert!(e.contains("/nonexistent/issiren.tb"), "{e}");
    let table = ok(&run(
        &[
            "review",
            iss.to_str().unwrap(),
            "--index",
            "1",
            "--reference-depth",
            "1",
        ],
        None,
    ));
    assert!(table.contains("expectimax to depth 1"), "{table}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&four);
    let _ = std::fs::remove_dir_all(&iss);
}

#[test]
fn a_whole_log_is_reviewed_in_the_order_of_its_games() {
    let dir = temp("order");
    ok(&el_oued(&dir, "2", &[]));
    // The log holds games in the order they finished: put them in reverse.
    let log = dir.join("games.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1..].reverse();
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let o = run(&["review", dir.to_str().unwrap(), "--threads", "2"], None);
    let table = ok(&o);
    let games: Vec<usize> = table
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .nth(1)
                .is_some_and(|t| t.starts_with('P'))
        })
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    assert!(games.len() >= 40, "{table}");
    assert!(games.windows(2).all(|w| w[0] <= w[1]), "{games:?}");
    assert_eq!(games[0], 0);
    let _ = std::fs::remove_dir_all(&dir);
}
