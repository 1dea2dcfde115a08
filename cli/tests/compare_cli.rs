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
