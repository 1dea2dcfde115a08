//! `stickdice compare` run as a user would: groups of --game/--option/--players expand in
//! order, every output is written, the figures do not depend on the thread count, and bad
//! requests are refused with a message naming the problem.

use crate::common;
use common::bin;

fn run(args: &[&str]) -> std::process::Output {
    bin().arg("compare").args(args).output().unwrap()
}

fn refused(args: &[&str], says: &str) {
    let out = run(args);
    assert!(!out.status.success(), "{args:?} was accepted");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(says), "{args:?}: {err}");
}

#[test]
fn unknown_game_option_metric_and_misplaced_options_are_refused() {
    refused(&["--game", "sig-el-oeud"], "did you mean `sig-el-oued`");
    refused(
        &["--game", "issiren", "--option", "colour=red"],
        "issiren has no rule option `colour`",
    );
    refused(
        &[
            "--game",
            "sig-el-oued",
            "--option",
            "cairo_always_three=yes,maybe",
        ],
        "cairo_always_three",
    );
    refused(
        &["--game", "issiren", "--metrics", "Balanse"],
        "did you mean `Balance`",
    );
    refused(
        &["--option", "max_throws=5", "--game", "issiren"],
        "before any --game",
    );
    refused(&["--game", "issiren", "--players", "3"], "not 3");
    refused(&[], "nothing to compare");
    refused(&["--game", "issiren", "--format", "xml"], "--format");
}

#[test]
fn groups_expand_in_order_and_every_output_is_written() {
    let dir = common::temp("out");
    let base = [
        "--game",
        "sig-wa-duqqan",
        "--players",
        "2,3",
        "--game",
        "sig-el-oued",
        "--option",
        "cairo_always_three=false,true",
        "--games",
        "40",
        "--detailed",
        "10",
        "--luck-games",
        "10",
        "--trace",
        "none",
        // Solving Sig wa Duqqan for 3 players takes 10 s: not here.
        "--no-exact",
        "--metrics",
        "DurationTurns,AdvantageP1,DecisionMoves,DurationThrows",
        "--format",
        "json",
    ];
    let json = |threads: &str, out: Option<&std::path::Path>| {
        let mut c = bin();
        c.arg("compare").args(base).args(["--threads", threads]);
        if let Some(d) = out {
            c.arg("--out").arg(d);
        }
        let o = c.output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        for r in v["results"].as_array_mut().unwrap() {
            r["seconds"] = serde_json::Value::Null;
        }
        v
    };
    let one = json("1", Some(&dir));
    let labels: Vec<&str> = one["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["label"].as_str().unwrap())
        .collect();
    assert_eq!(
        labels,
        [
            "sig-wa-duqqan 2p",
            "sig-wa-duqqan 3p",
            "sig-el-oued 2p cairo_always_three=false",
            "sig-el-oued 2p cairo_always_three=true",
        ]
    );
    assert_eq!(one, json("2", None), "the thread count changed the figures");
    for f in [
        "comparison.json",
        "comparison.csv",
        "comparison.md",
        "table.txt",
        "DurationTurns.svg",
        "profiles.svg",
        "family.svg",
    ] {
        let text = std::fs::read_to_string(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert!(!text.is_empty(), "{f}");
    }
    let csv = std::fs::read_to_string(dir.join("comparison.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 4 * 4);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--all` compares every game of the list, two players each, in the registry's order; under
/// budgets of throws the long games play fewer games (the table says how many), and the
/// JSON is the same on one thread and on two.
#[test]
fn every_game_within_budgets_on_one_thread_and_two() {
    let dir = common::temp("all");
    let base = [
        "--all",
        "--games",
        "300",
        "--throws",
        "30000",
        "--detailed",
        "2",
        "--luck-games",
        "2",
        "--trace",
        "mcts:iterations=2,playout=random,cutoff=0,prior=0",
        "--trace-rotations",
        "12",
        "--trace-throws",
        "2000",
        // Solving Houmt Taourit takes 2 s: not here.
        "--no-exact",
        "--metrics",
        "DurationThrows,AdvantageP1,BranchingFactor,SkillTrace",
        "--format",
        "json",
    ];
    let json = |threads: &str, out: Option<&std::path::Path>| {
        let mut c = bin();
        c.arg("compare").args(base).args(["--threads", threads]);
        if let Some(d) = out {
            c.arg("--out").arg(d);
        }
        let o = c.output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        for r in v["results"].as_array_mut().unwrap() {
            r["seconds"] = serde_json::Value::Null;
        }
        v
    };
    let one = json("1", None);
    let results = one["results"].as_array().unwrap();
    let names: Vec<&str> = results
        .iter()
        .map(|r| r["configuration"]["game"].as_str().unwrap())
        .collect();
    // Every game of the family: the list without its `game-file` slot.
    let all: Vec<&str> = stickdice::GameKind::ALL
        .iter()
        .filter(|k| **k != stickdice::GameKind::GameFile)
        .map(|k| k.name())
        .collect();
    assert_eq!(names, all);
    // The fourteen games of this test's day, or more (a description added since).
    assert!(names.len() >= 14, "{names:?}");
    assert!(results.iter().all(|r| r["configuration"]["players"] == 2));
    assert_eq!(one["settings"]["throws"], 30000);
    assert_eq!(one["settings"]["trace_throws"], 2000);
    // Self-play: all 300 games where they fit the budget (Tab: about 57 throws a game),
    // the fewest, 100, where they are long (Kioz: about 880), in between for Sig wa Duqqan
    // (about 134). The skill trace: its 12 rotations (24 games) for Tab, the fewest, 10,
    // for Kioz.
    let games = |name: &str| {
        let r = &results[names.iter().position(|n| *n == name).unwrap()];
        (
            r["rows"][0]["games"].as_u64().unwrap(),
            r["skill_trace"][0]["games"].as_u64().unwrap(),
        )
    };
    assert_eq!(games("tab"), (300, 24));
    assert_eq!(games("kioz"), (100, 20));
    let (duqqan, _) = games("sig-wa-duqqan");
    assert!((101..300).contains(&duqqan), "{duqqan} games");
    assert_eq!(
        one,
        json("2", Some(&dir)),
        "the thread count changed the figures"
    );
    // The table names the budgets and the games each configuration played.
    let table = std::fs::read_to_string(dir.join("table.txt")).unwrap();
    assert!(
        table.contains("Budgets: self-play 30000 throws, each step of the skill trace 2000 throws")
            && table.contains("kioz 2p 100 (skill trace 20)")
            && table.contains("tab 2p 300 (skill trace 24)"),
        "{table}"
    );
    assert!(std::fs::read_to_string(dir.join("family.nwk"))
        .unwrap()
        .contains("sig-mzab 2p"));
    let _ = std::fs::remove_dir_all(&dir);
    refused(&["--all", "--throws", "0"], "positive --throws");
}
