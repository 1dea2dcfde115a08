//! Hardening of the newer surfaces (docs/performance/hardening.md): `stickdice compare
//! --out` against a second run, a failed write and an earlier comparison's outputs; weights
//! files and the protocol against hostile input.

use crate::common;
use common::bin;

/// A quick comparison's arguments (a second or so in release).
fn quick(configs: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = vec!["compare".into()];
    for g in configs {
        a.extend(["--game".into(), g.to_string()]);
    }
    for s in [
        "--games",
        "8",
        "--detailed",
        "4",
        "--luck-games",
        "0",
        "--trace",
        "none",
        "--no-exact",
        "--metrics",
        "Balance,DurationTurns",
    ] {
        a.push(s.into());
    }
    a
}

#[test]
fn compare_out_is_locked_against_a_second_run() {
    let dir = common::temp("locked");
    std::fs::create_dir_all(&dir).unwrap();
    // Held as a running comparison (or tournament, or training) holds it.
    let held = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(".stickdice.lock"))
        .unwrap();
    held.try_lock().unwrap();
    let out = bin()
        .args(quick(&["sig-wa-duqqan"]))
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("in use by another stickdice run"), "{err}");
    assert!(!dir.join("comparison.json").exists());
    drop(held);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compare_out_never_mixes_two_comparisons_nor_looks_whole_after_a_failed_write() {
    let dir = common::temp("mixed");
    // Two configurations: a family tree.
    let two = bin()
        .args(quick(&["sig-wa-duqqan", "sig-el-oued"]))
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        two.status.success(),
        "{}",
        String::from_utf8_lossy(&two.stderr)
    );
    assert!(dir.join("family.svg").exists() && dir.join("Balance.svg").exists());
    // One configuration and another metric: no family tree, no Balance chart; the earlier
    // comparison's are gone, not left beside the new one as if they belonged to it.
    let mut args = quick(&["sig-wa-duqqan"]);
    let m = args.len() - 1;
    args[m] = "DurationTurns".into();
    let one = bin().args(&args).arg("--out").arg(&dir).output().unwrap();
    assert!(
        one.status.success(),
        "{}",
        String::from_utf8_lossy(&one.stderr)
    );
    for stale in ["family.svg", "family.json", "family.nwk", "Balance.svg"] {
        assert!(
            !dir.join(stale).exists(),
            "{stale} of the earlier comparison is left"
        );
    }
    assert!(dir.join("DurationTurns.svg").exists());
    assert!(!dir.join(".stickdice.lock").exists());
    // A write that fails midway (here a folder where a chart goes; a full disk or a kill
    // alike): an error naming the file, and no comparison.json, old or new.
    std::fs::remove_file(dir.join("profiles.svg")).unwrap();
    std::fs::create_dir(dir.join("profiles.svg")).unwrap();
    std::fs::write(dir.join("profiles.svg").join("x"), "keep").unwrap();
    let failed = bin().args(&args).arg("--out").arg(&dir).output().unwrap();
    assert!(!failed.status.success());
    let err = String::from_utf8_lossy(&failed.stderr);
    assert!(err.contains("profiles.svg"), "{err}");
    assert!(
        !dir.join("comparison.json").exists(),
        "a comparison whose outputs were not all written looks whole"
    );
    assert!(!dir.join("profiles.svg.tmp").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compare_file_is_read_bounded() {
    // Before: /dev/zero was read until the memory ran out, a named pipe waited for ever.
    // Since issue 39 a device is not read at all.
    let out = bin()
        .args(["compare", "--file", "/dev/zero"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a regular file"), "{err}");
    let dir = common::temp("long-file");
    std::fs::create_dir_all(&dir).unwrap();
    let long = dir.join("configurations.toml");
    std::fs::File::create(&long)
        .unwrap()
        .set_len((64 << 20) + 1)
        .unwrap();
    let out = bin()
        .args(["compare", "--file"])
        .arg(&long)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("longer than 64 MiB"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    let dir = common::temp("fifo");
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("configurations.toml");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let mut child = bin()
        .args(["compare", "--file"])
        .arg(&fifo)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("compare --file on a named pipe still waits after 30 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(!status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `cmd` to its end, or kills it after `secs` seconds (then `None`): a hang is a
/// failure of the test, not a test that never ends.
fn run_bounded(cmd: &mut std::process::Command, secs: u64) -> Option<std::process::Output> {
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    loop {
        if child.try_wait().unwrap().is_some() {
            return Some(child.wait_with_output().unwrap());
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Issue 39: a character device named as a weights or tablebase file (`/dev/ptmx`, whose
/// reads wait for a writer) hung every door for good, beyond `cancel`, `quit` and Ctrl-C;
/// `/dev/zero` was read to the 64 MiB bound. Only regular files are opened as such files.
#[test]
fn devices_named_as_weights_or_tablebases_are_refused_in_every_door() {
    let dir = common::temp("devices");
    std::fs::create_dir_all(&dir).unwrap();
    let t = dir.join("t");
    let o = bin()
        .args([
            "tournament",
            "--game",
            "issiren",
            "--agents",
            "random,random",
        ])
        .args(["--games", "2", "--threads", "1", "--out"])
        .arg(&t)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", common::stderr(&o));
    let log = t.join("games.jsonl").display().to_string();
    let tout = dir.join("t2").display().to_string();
    for dev in ["/dev/ptmx", "/dev/zero"] {
        if !std::path::Path::new(dev).exists() {
            continue;
        }
        let eval = format!("greedy:eval={dev}");
        let tb = format!("expectimax:depth=1,tablebase={dev}");
        let tournament_agents = format!("random,{eval}");
        for args in [
            vec!["play", "--game", "issiren", "--agents", &eval],
            vec!["play", "--game", "issiren", "--agents", &tb],
            vec![
                "tournament",
                "--game",
                "issiren",
                "--agents",
                &tournament_agents,
                "--games",
                "2",
                "--out",
                &tout,
            ],
            vec!["review", &log, "--reference-eval", dev],
            vec![
                "analyze",
                "--game",
                "issiren",
                "--tablebase",
                dev,
                "--no-svg",
            ],
        ] {
            let o = run_bounded(bin().args(&args), 60)
                .unwrap_or_else(|| panic!("{args:?} still runs after 60 s"));
            let e = common::stderr(&o);
            assert!(!o.status.success(), "{args:?}");
            assert!(e.contains("not a regular file"), "{args:?}: {e}");
        }
    }
    // serve: the agent_move is answered with the file's problem, and quit is answered.
    let input = [
        r#"{"id":1,"cmd":"new_game","game":"issiren","seed":3}"#,
        r#"{"id":2,"cmd":"throw","marked":4}"#,
        r#"{"id":3,"cmd":"agent_move","agent":"greedy:eval=/dev/ptmx","time_limit_ms":1000}"#,
        r#"{"id":4,"cmd":"agent_move","agent":"expectimax:depth=1,tablebase=/dev/ptmx"}"#,
        r#"{"id":5,"cmd":"quit"}"#,
    ]
    .join("\n");
    let in_file = dir.join("requests.jsonl");
    std::fs::write(&in_file, input + "\n").unwrap();
    // Its input is the file (run_bounded gives no input otherwise).
    let o = run_bounded(
        std::process::Command::new("sh").arg("-c").arg(format!(
            "exec '{}' serve < '{}'",
            env!("CARGO_BIN_EXE_stickdice"),
            in_file.display()
        )),
        60,
    )
    .expect("serve still runs after 60 s");
    let answers: Vec<serde_json::Value> = common::stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 5, "{answers:?}");
    for a in &answers[2..4] {
        assert_eq!(a["error"]["code"], "bad_agent", "{a}");
        assert!(a.to_string().contains("not a regular file"), "{a}");
    }
    assert_eq!(answers[4]["id"], 5);
    assert!(o.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 39: `compare --out` removed every file named as a comparison's output
/// (`family.svg`, `Drama.svg`…) from a folder that held no comparison: a user's own files.
/// Now only the outputs an earlier comparison wrote there are removed.
#[test]
fn compare_out_removes_only_an_earlier_comparisons_outputs() {
    let dir = common::temp("foreign");
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["family.svg", "Drama.svg", "notes.txt"] {
        std::fs::write(dir.join(name), "the user's own").unwrap();
    }
    let o = bin()
        .args(quick(&["sig-wa-duqqan"]))
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", common::stderr(&o));
    for name in ["family.svg", "Drama.svg", "notes.txt"] {
        assert_eq!(
            std::fs::read_to_string(dir.join(name)).ok().as_deref(),
            Some("the user's own"),
            "{name}"
        );
    }
    assert!(dir.join("comparison.json").exists() && dir.join("Balance.svg").exists());
    // A second comparison without Balance: the first one's Balance chart goes, the user's
    // files stay.
    let mut args = quick(&["sig-wa-duqqan"]);
    let m = args.len() - 1;
    args[m] = "DurationTurns".into();
    let o = bin().args(&args).arg("--out").arg(&dir).output().unwrap();
    assert!(o.status.success(), "{}", common::stderr(&o));
    assert!(!dir.join("Balance.svg").exists());
    assert!(dir.join("DurationTurns.svg").exists());
    for name in ["family.svg", "Drama.svg", "notes.txt"] {
        assert!(dir.join(name).exists(), "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 39: `review`'s luck-adjusted scores outside [0, 1] came without a word of what they
/// mean; now a note says, whenever one is shown.
#[test]
fn review_explains_adjusted_scores_outside_zero_to_one() {
    let dir = common::temp("adjusted");
    let t = dir.join("t");
    let o = bin()
        .args([
            "tournament",
            "--game",
            "issiren",
            "--agents",
            "random,greedy",
        ])
        .args(["--games", "6", "--threads", "1", "--seed", "3", "--out"])
        .arg(&t)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", common::stderr(&o));
    let json = bin().arg("review").arg(&t).arg("--json").output().unwrap();
    assert!(json.status.success(), "{}", common::stderr(&json));
    let reviews: serde_json::Value = serde_json::from_str(&common::stdout(&json)).unwrap();
    let outside = reviews
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["summary"].as_array().unwrap())
        .map(|s| s["adjusted"].as_f64().unwrap())
        .filter(|a| !(0.0..=1.0).contains(a))
        .count();
    assert!(outside > 0, "no adjusted score outside [0, 1] at this seed");
    let text = common::stdout(&bin().arg("review").arg(&t).output().unwrap());
    assert!(
        text.contains("An adjusted score outside [0, 1] is no score a game can give"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 39: a log whose header had the agents' names swapped passed every check (the
/// seating indexes the header's list) and `review` credited each game to the wrong agent.
/// Now the header's agents replay a game from its seed and must make the logged actions.
#[test]
fn a_header_with_the_agents_swapped_is_refused() {
    let dir = common::temp("swapped");
    let t = dir.join("t");
    let o = bin()
        .args([
            "tournament",
            "--game",
            "issiren",
            "--agents",
            "random,greedy",
        ])
        .args(["--games", "2", "--threads", "1", "--out"])
        .arg(&t)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", common::stderr(&o));
    for cmd in [&["review"][..], &["replay", "--index", "0"][..]] {
        let o = bin().args(cmd).arg(&t).output().unwrap();
        assert!(o.status.success(), "{cmd:?}: {}", common::stderr(&o));
    }
    let text = std::fs::read_to_string(t.join("games.jsonl")).unwrap();
    let swapped = text.replacen(
        r#""agents":["random","greedy"]"#,
        r#""agents":["greedy","random"]"#,
        1,
    );
    assert_ne!(swapped, text);
    let s = dir.join("s");
    std::fs::create_dir_all(&s).unwrap();
    std::fs::write(s.join("games.jsonl"), swapped).unwrap();
    for cmd in [&["review"][..], &["replay", "--index", "0"][..]] {
        let o = bin().args(cmd).arg(&s).output().unwrap();
        let e = common::stderr(&o);
        assert!(!o.status.success(), "{cmd:?} accepted the swapped header");
        assert!(
            e.contains("not the agents that played the game"),
            "{cmd:?}: {e}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
