//! `stickdice tablebase` and the tablebase when asked for (the default `off` whatever the
//! cache holds, `tablebase=cache`, labels, resume, merge, review, damaged files), and
//! `stickdice ladder` end to end on a tiny ladder.

use crate::common;
use common::{bin, temp};

use std::path::Path;
use std::process::Output;

use stickdice_agents::solve::tablebase::{cache_file_name, Tablebase};

fn run(args: &[&str], cache: &Path, cwd: &Path) -> Output {
    std::fs::create_dir_all(cwd).unwrap();
    bin()
        .args(args)
        .env("STICKDICE_CACHE", cache)
        .current_dir(cwd)
        .output()
        .unwrap()
}

fn text(o: &Output) -> (String, String) {
    (common::stdout(o), common::stderr(o))
}

/// `stickdice tournament --agents AGENTS -n N --out OUT`, then `extra`, as [`run`] runs it.
fn tournament(
    agents: &str,
    n: &str,
    out: &str,
    extra: &[&str],
    cache: &Path,
    cwd: &Path,
) -> Output {
    let args = ["tournament", "--agents", agents, "-n", n, "--out", out];
    run(&[&args[..], extra].concat(), cache, cwd)
}

/// Asserts that the run succeeded; its standard output and error.
#[track_caller]
fn succeeded(o: &Output) -> (String, String) {
    let (out, err) = text(o);
    assert!(o.status.success(), "{err}");
    (out, err)
}

/// Asserts that the run was refused (exit code 2); its standard error.
#[track_caller]
fn refused(o: &Output) -> String {
    let (_, err) = text(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    err
}

/// A tablebase of the 1v1 positions only (a valid file, built in well under a second),
/// in the cache folder.
fn partial_cache(cache: &Path) {
    std::fs::create_dir_all(cache).unwrap();
    let (tb, _) = Tablebase::build_partial(1, |_, _, _| {});
    tb.save(&cache.join(cache_file_name())).unwrap();
}

#[test]
fn the_cache_is_reported_and_a_damaged_file_is_refused_clearly() {
    let dir = temp("tb-status");
    let cache = dir.join("cache");
    let o = run(&["tablebase", "--path"], &cache, &dir);
    assert!(o.status.success());
    assert_eq!(
        text(&o).0.trim(),
        cache.join(cache_file_name()).display().to_string()
    );
    let o = run(&["tablebase"], &cache, &dir);
    assert!(o.status.success());
    assert!(text(&o).0.starts_with("not built:"), "{:?}", text(&o));
    // The searchers are labelled with the default, tablebase=off, in the log and the report
    // (the terminal names them as given), and no note is printed.
    let o = tournament("random,mcts:iterations=20", "2", "t", &[], &cache, &dir);
    let (out, err) = succeeded(&o);
    assert!(
        out.contains("mcts:iterations=20 ") && !out.contains("tablebase"),
        "{out}"
    );
    let report = std::fs::read_to_string(dir.join("t").join("report.json")).unwrap();
    assert!(
        report.contains("mcts:iterations=20,tablebase=off"),
        "{report}"
    );
    assert!(!err.contains("note:") && !err.contains("cache"), "{err}");
    // Other games have no tablebase: labels unchanged, no note.
    let agents = "random,mcts:iterations=20";
    let o = tournament(agents, "2", "e", &["--game", "sig-el-oued"], &cache, &dir);
    let (out, err) = succeeded(&o);
    assert!(
        out.contains("mcts:iterations=20 ") && !out.contains("tablebase"),
        "{out}"
    );
    assert!(!err.contains("tablebase"), "{err}");
    // A damaged cached file: a clear error, never a panic, and nothing played.
    std::fs::create_dir_all(&cache).unwrap();
    std::fs::write(cache.join(cache_file_name()), b"SDTBISS1 not really").unwrap();
    let err = refused(&run(&["tablebase"], &cache, &dir));
    assert!(
        err.contains("not a valid Issiren tablebase") && err.contains("--rebuild"),
        "{err}"
    );
    let agents = "random,expectimax:depth=1,tablebase=cache";
    let err = refused(&tournament(agents, "2", "d", &[], &cache, &dir));
    assert!(
        err.contains("cannot be used") && err.contains("stickdice tablebase --build"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(!dir.join("d").join("games.jsonl").exists());
    // The default never reads the cache: a damaged file there changes nothing.
    succeeded(&tournament(
        "random,expectimax:depth=1",
        "2",
        "d",
        &[],
        &cache,
        &dir,
    ));
    // `auto`, the former cache-dependent default, is refused with the reason.
    let agents = "random,mcts:iterations=20,tablebase=auto";
    let err = refused(&tournament(agents, "2", "a", &[], &cache, &dir));
    assert!(
        err.contains("`auto` is no longer accepted") && err.contains("tablebase=cache"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The games of a tournament log (its lines after the header) without the time each agent
/// took, the one thing in them that depends on the machine.
fn games_without_times(log: &str) -> Vec<serde_json::Value> {
    log.lines()
        .skip(1)
        .map(|line| {
            let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
            if let Some(o) = v.as_object_mut() {
                o.retain(|k, _| !k.contains("time") && !k.contains("seconds"));
            }
            v
        })
        .collect()
}

#[test]
fn the_default_plays_the_same_games_whatever_the_cache_holds() {
    let dir = temp("tb-default");
    let cache = dir.join("cache");
    let empty = dir.join("empty");
    partial_cache(&cache);
    // Searchers that reach 1v1 endgames (the partial table's domain) in these games: with the
    // table they would play other moves there, and their labels would say tablebase=cache.
    let agents = "expectimax:depth=2,mcts:iterations=60";
    let mut logs = Vec::new();
    for (c, out) in [(&empty, "without"), (&cache, "with")] {
        let o = tournament(
            agents,
            "4",
            out,
            &["--seed", "5", "--threads", "1"],
            c,
            &dir,
        );
        let (stdout, err) = succeeded(&o);
        assert!(!err.contains("note:") && !err.contains("cache"), "{err}");
        assert!(!stdout.contains("tablebase"), "{stdout}");
        let header = std::fs::read_to_string(dir.join(out).join("games.jsonl")).unwrap();
        let header = header.lines().next().unwrap();
        assert!(
            header.contains("expectimax:depth=2,tablebase=off")
                && header.contains("mcts:iterations=60,tablebase=off"),
            "{header}"
        );
        logs.push(std::fs::read_to_string(dir.join(out).join("games.jsonl")).unwrap());
    }
    let headers: Vec<&str> = logs.iter().map(|l| l.lines().next().unwrap()).collect();
    assert_eq!(headers[0], headers[1]);
    let games = games_without_times(&logs[0]);
    assert_eq!(games.len(), 4);
    assert_eq!(games, games_without_times(&logs[1]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_cached_table_asked_for_is_named_in_the_log_and_resume_merge_and_review_rebuild_it() {
    let dir = temp("tb-cache");
    let cache = dir.join("cache");
    partial_cache(&cache);
    let o = run(&["tablebase"], &cache, &dir);
    assert!(o.status.success());
    assert!(text(&o).0.starts_with("valid:"), "{:?}", text(&o));
    let agents = "random,mcts:iterations=20,tablebase=cache,ismcts:iterations=20,tablebase=cache";
    let (out, _) = succeeded(&tournament(agents, "2", "t", &[], &cache, &dir));
    let log = std::fs::read_to_string(dir.join("t/games.jsonl")).unwrap();
    let header = log.lines().next().unwrap();
    assert!(
        header.contains(r#""mcts:iterations=20,tablebase=cache""#)
            && header.contains(r#""ismcts:iterations=20,tablebase=cache""#),
        "{header}"
    );
    assert!(out.contains("tablebase=cache"), "{out}");
    // Resumed with the same command and the table there: the same tournament.
    let o = tournament(agents, "4", "t", &[], &cache, &dir);
    assert!(
        o.status.code() == Some(2),
        "more games per table is another tournament"
    );
    succeeded(&tournament(agents, "2", "t", &[], &cache, &dir));
    // Merge and review rebuild the agents the log names.
    succeeded(&run(&["merge", "m", "t"], &cache, &dir));
    succeeded(&run(&["review", "t"], &cache, &dir));
    // The plain specs are another tournament (tablebase=off), and the refusal says how to
    // resume.
    let plain = "random,mcts:iterations=20,ismcts:iterations=20";
    let err = refused(&tournament(plain, "2", "t", &[], &cache, &dir));
    assert!(
        err.contains("different tournament") && err.contains("tablebase=cache"),
        "{err}"
    );
    // The table gone: resuming and merging the log name the missing table.
    let no_cache = dir.join("empty");
    let err = refused(&tournament(agents, "2", "t", &[], &no_cache, &dir));
    assert!(err.contains("no tablebase in the cache"), "{err}");
    let err = refused(&run(&["merge", "m2", "t"], &no_cache, &dir));
    assert!(err.contains("no tablebase in the cache"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A ladder report without the thinking times (the one figure that depends on the
/// machine once the budgets are fixed).
fn figures(text: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    for row in v["rows"].as_array_mut().unwrap() {
        row.as_object_mut().unwrap().remove("seconds_per_game");
    }
    v
}

#[test]
fn a_tiny_ladder_runs_end_to_end_and_replays_from_its_specs() {
    let dir = temp("ladder");
    let cache = dir.join("no-cache");
    let args = [
        "ladder",
        "--millis",
        "0.05,0.1",
        "--games",
        "2",
        "--positions",
        "3",
        "--threads",
        "2",
        "--series",
        "random",
        "--series",
        "greedy",
        "--series",
        "mcts",
        "--series",
        "x=expectimax:pruning=none",
        "--out",
        "l",
    ];
    let o = run(&args, &cache, &dir);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("calibrate mcts at "), "{err}");
    assert!(err.contains("match 1/"), "{err}");
    let l = dir.join("l");
    for f in [
        "specs.json",
        "ladder.md",
        "ladder.csv",
        "ladder.json",
        "ladder.svg",
    ] {
        assert!(l.join(f).is_file(), "{f}");
    }
    assert!(
        out.contains("| random | – |") && out.contains("anchor"),
        "{out}"
    );
    let report = figures(&std::fs::read_to_string(l.join("ladder.json")).unwrap());
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(
        rows.len(),
        2 + 2 * 2,
        "random, greedy, two levels of two series"
    );
    assert_eq!(rows[0]["elo"].as_f64(), Some(0.0));
    let budgets: Vec<u64> = rows
        .iter()
        .filter(|r| r["family"] == "mcts")
        .map(|r| r["budget"].as_u64().unwrap())
        .collect();
    assert!(budgets[0] <= budgets[1], "{budgets:?}");
    let csv = std::fs::read_to_string(l.join("ladder.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + rows.len());
    assert!(std::fs::read_to_string(l.join("ladder.svg"))
        .unwrap()
        .starts_with("<svg"));
    // The same folder again: refused unless resumed; resumed, the same report.
    let o = run(&args, &cache, &dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("--resume"), "{:?}", text(&o));
    let o = run(
        &[
            "ladder",
            "--resume",
            "--games",
            "2",
            "--threads",
            "1",
            "--out",
            "l",
        ],
        &cache,
        &dir,
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let again = std::fs::read_to_string(l.join("ladder.json")).unwrap();
    assert_eq!(figures(&again), report);
    // Elsewhere from the specs, on one thread: the same games and figures.
    let specs = l.join("specs.json");
    let o = run(
        &[
            "ladder",
            "--specs",
            specs.to_str().unwrap(),
            "--games",
            "2",
            "--threads",
            "1",
            "--out",
            "r",
        ],
        &cache,
        &dir,
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let replayed = std::fs::read_to_string(dir.join("r/ladder.json")).unwrap();
    assert_eq!(figures(&replayed), report);
    // Two levels of a series calibrated to the same budget (as happens on a loaded machine)
    // play as `SPEC` and `SPEC#2` in their matches and still get a row each.
    let mut same: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&specs).unwrap()).unwrap();
    for family in same["families"].as_array_mut().unwrap() {
        if family["family"]["label"] == "mcts" {
            let levels = family["levels"].as_array_mut().unwrap();
            let first = levels[0].clone();
            levels[1]["spec"] = first["spec"].clone();
            levels[1]["budget"] = first["budget"].clone();
        }
    }
    let same_specs = dir.join("same-specs.json");
    std::fs::write(&same_specs, same.to_string()).unwrap();
    let o = run(
        &[
            "ladder",
            "--specs",
            same_specs.to_str().unwrap(),
            "--games",
            "2",
            "--out",
            "s",
        ],
        &cache,
        &dir,
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let same = figures(&std::fs::read_to_string(dir.join("s/ladder.json")).unwrap());
    assert_eq!(same["rows"].as_array().unwrap().len(), rows.len());
    // Bad settings: clear errors.
    for (bad, needle) in [
        (
            vec!["ladder", "--millis", "5,2", "--out", "b1"],
            "ascending",
        ),
        (
            vec!["ladder", "--series", "mcts:iterations=5", "--out", "b2"],
            "sets `iterations`",
        ),
        (
            vec!["ladder", "--series", "random", "--out", "b3"],
            "at least two series",
        ),
        // The old spelling is read as the new one, with a note; the two do not mix.
        (
            vec!["ladder", "--family", "random", "--out", "b5"],
            "note: --family is now --series",
        ),
        (
            vec!["ladder", "--family", "random", "--out", "b6"],
            "at least two series",
        ),
        (
            vec![
                "ladder", "--family", "random", "--series", "greedy", "--out", "b7",
            ],
            "cannot be used with",
        ),
        (
            vec![
                "ladder",
                "--specs",
                "/nonexistent/specs.json",
                "--out",
                "b4",
            ],
            "cannot read",
        ),
    ] {
        let o = run(&bad, &cache, &dir);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {err}");
        assert!(err.contains(needle), "{bad:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
