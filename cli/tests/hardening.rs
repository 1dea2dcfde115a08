//! The command line under hostile input and faults (issue 16): a reader that goes away,
//! counts past the limits, a second run on a busy output folder, endless input files.

use std::io::{BufRead, BufReader};
use std::process::{Output, Stdio};

use crate::common;
use common::{bin, stderr, temp};

/// Runs `args`, reads `lines` lines of its output, then closes the pipe as `head` does.
fn read_then_close(args: &[&str], lines: usize) -> Output {
    let mut child = bin()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        for _ in 0..lines {
            line.clear();
            out.read_line(&mut line).unwrap();
            assert!(!line.is_empty(), "{args:?} printed too little");
        }
    } // The pipe's reading end is closed here.
    child.wait_with_output().unwrap()
}

#[test]
fn a_reader_that_goes_away_ends_the_program_quietly() {
    for (args, lines) in [
        (&["agents"][..], 1),
        (&["play"][..], 2),
        (&["games"][..], 1),
        (&["play", "--game", "sig-wa-duqqan", "--quiet"][..], 3),
    ] {
        let o = read_then_close(args, lines);
        assert!(
            o.status.success(),
            "{args:?}: {:?} {}",
            o.status,
            stderr(&o)
        );
        assert_eq!(stderr(&o), "", "{args:?}");
    }
}

#[test]
fn counts_past_the_limits_are_refused_before_any_work() {
    for (args, want) in [
        (
            &["tournament", "--games", "1000000000000"][..],
            "--games 1000000000000 is more than the limit of 1000000",
        ),
        (
            &["tournament", "--games", "18446744073709551615"][..],
            "is more than the limit",
        ),
        (
            &["tournament", "--games", "2", "--threads", "20000"][..],
            "--threads 20000 is more than the limit of 256",
        ),
        (
            &["analyze", "--games", "1000000000000"][..],
            "--games 1000000000000 is more than the limit of 1000000",
        ),
        (
            &["analyze", "--rotations", "1000000000000"][..],
            "--rotations 1000000000000 is more than the limit",
        ),
        (
            &["analyze", "--threads", "0"][..],
            "--threads must be at least 1",
        ),
        (
            &["calibration", "--games", "1000000000000", "--out", "c"][..],
            "--games 1000000000000 is more than the limit of 100000",
        ),
        (
            &["calibration", "--positions", "1000000000000", "--out", "c"][..],
            "--positions 1000000000000 is more than the limit of 1000000",
        ),
        (
            &["review", "games.jsonl", "--reference-depth", "500"][..],
            "500 is not in 1..=64",
        ),
        (
            &["tournament", "--luck", "--reference-depth", "1000"][..],
            "1000 is not in 1..=64",
        ),
        (
            &[
                "merge",
                "out",
                "a",
                "b",
                "--luck",
                "--reference-depth",
                "1000",
            ][..],
            "1000 is not in 1..=64",
        ),
        (
            &["tournament", "--luck", "--reference-depth", "0"][..],
            "0 is not in 1..=64",
        ),
    ] {
        // Run in an empty folder: nothing may be written there.
        let dir = temp("limits");
        std::fs::create_dir_all(&dir).unwrap();
        let o = bin().args(args).current_dir(&dir).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            0,
            "{args:?} wrote"
        );
        assert!(o.stdout.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_second_tournament_on_a_busy_folder_is_refused() {
    let out = temp("busy");
    // The first run: long enough to be still running when the second starts.
    let mut first = bin()
        .args([
            "tournament",
            "--game",
            "sig-wa-duqqan",
            "--agents",
            "random,random",
            "--games",
            "1000000",
            "--threads",
            "1",
            "--out",
        ])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let log = out.join("games.jsonl");
    let start = std::time::Instant::now();
    while std::fs::metadata(&log).map_or(0, |m| m.len()) < 1000 {
        assert!(
            start.elapsed().as_secs() < 120,
            "the first run never logged"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let second = bin()
        .args([
            "tournament",
            "--game",
            "sig-wa-duqqan",
            "--agents",
            "random,random",
            "--games",
            "1000000",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    first.kill().unwrap();
    first.wait().unwrap();
    assert_eq!(second.status.code(), Some(2));
    assert!(
        stderr(&second).contains("in use by another stickdice tournament"),
        "{}",
        stderr(&second)
    );
    // The log the first run left resumes: no line of the second run got in.
    let text = std::fs::read_to_string(&log).unwrap();
    let whole = text.lines().count() - usize::from(!text.ends_with('\n'));
    assert!(whole >= 2);
    let _ = std::fs::remove_dir_all(&out);
}

/// A `stickdice serve` process and its pipes.
struct Serve {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: BufReader<std::process::ChildStdout>,
}

impl Serve {
    fn start() -> Serve {
        let mut child = bin()
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        Serve {
            input: child.stdin.take().unwrap(),
            output: BufReader::new(child.stdout.take().unwrap()),
            child,
        }
    }

    fn send(&mut self, request: &str) {
        use std::io::Write as _;
        writeln!(self.input, "{request}").unwrap();
        self.input.flush().unwrap();
    }

    fn answer(&mut self) -> serde_json::Value {
        let mut line = String::new();
        self.output.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
    }

    fn ask(&mut self, request: &str) -> serde_json::Value {
        self.send(request);
        self.answer()
    }
}

#[test]
fn serve_answers_during_a_search_and_cancel_or_a_time_limit_stop_it_keeping_the_game() {
    let mut s = Serve::start();
    // Issiren, seed 3: a decision between b1 and a2 after these steps.
    for r in [
        r#"{"id":1,"cmd":"new_game","game":"issiren","seed":3}"#,
        r#"{"id":2,"cmd":"throw","marked":4}"#,
        r#"{"id":3,"cmd":"act","action":"a1"}"#,
        r#"{"id":4,"cmd":"throw"}"#,
    ] {
        let a = s.ask(r);
        assert_eq!(a["ok"], true, "{r}: {a}");
    }
    let before = s.ask(r#"{"id":5,"cmd":"state"}"#)["result"].clone();
    assert_eq!(before["legal_actions"], serde_json::json!(["b1", "a2"]));
    // A search that would take days; the server still answers a state, holds the throw
    // until the search ends, and cancels it.
    s.send(r#"{"id":"big","cmd":"agent_move","agent":"mcts","budget":{"iterations":1000000000000},"apply":true}"#);
    let a = s.ask(r#"{"id":6,"cmd":"state"}"#);
    assert_eq!(a["id"], 6, "state is answered during the search: {a}");
    assert_eq!(a["result"]["searching"], "big");
    assert_eq!(a["result"]["undo_steps"], before["undo_steps"]);
    s.send(r#"{"id":7,"cmd":"throw"}"#);
    let a = s.ask(r#"{"id":8,"cmd":"cancel"}"#);
    assert_eq!(
        a,
        serde_json::json!({"id":8,"ok":true,"result":{"cancelled":true,"search":"big"}})
    );
    let a = s.answer();
    assert_eq!(a["id"], "big");
    assert_eq!(a["error"]["code"], "cancelled", "{a}");
    // The waiting throw comes after: a decision is due, as before the search.
    let a = s.answer();
    assert_eq!(a["id"], 7);
    assert_eq!(a["error"]["code"], "decision_due", "{a}");
    let a = s.ask(r#"{"id":9,"cmd":"state"}"#);
    assert_eq!(
        a["result"], before,
        "the game and its undo history are kept"
    );
    // Time limits, on each searching agent.
    for agent in [
        r#""agent":"expectimax","budget":{"depth":64}"#,
        r#""agent":"mcts","budget":{"millis":1000000000}"#,
        r#""agent":"ismcts","budget":{"iterations":1000000000000}"#,
    ] {
        let a = s.ask(&format!(
            r#"{{"id":10,"cmd":"agent_move",{agent},"time_limit_ms":200,"apply":true}}"#
        ));
        assert_eq!(a["error"]["code"], "time_limit", "{agent}: {a}");
        assert_eq!(s.ask(r#"{"id":11,"cmd":"state"}"#)["result"], before);
    }
    let a = s.ask(r#"{"id":12,"cmd":"agent_move","agent":"mcts","time_limit_ms":0}"#);
    assert_eq!(a["error"]["code"], "bad_value", "{a}");
    // A quick search still answers as before, and applies its move.
    let a = s.ask(r#"{"id":13,"cmd":"agent_move","agent":"mcts:iterations=50","apply":true}"#);
    assert_eq!(a["ok"], true, "{a}");
    assert_eq!(a["result"]["undo_steps"], 4);
    // quit during a search cancels it and ends the server.
    let a = s.ask(r#"{"id":14,"cmd":"undo"}"#);
    assert_eq!(a["result"]["legal_actions"], before["legal_actions"]);
    s.send(
        r#"{"id":"big2","cmd":"agent_move","agent":"mcts","budget":{"iterations":1000000000000}}"#,
    );
    s.send(r#"{"id":15,"cmd":"quit"}"#);
    assert_eq!(s.answer()["error"]["code"], "cancelled");
    assert_eq!(s.answer()["id"], 15);
    assert!(s.child.wait().unwrap().success());
}

#[test]
fn every_command_reads_agent_lists_alike() {
    // The example in the spec error is itself accepted by play, as by tournament.
    let o = bin()
        .args([
            "play",
            "--game",
            "sig-el-oued",
            "--quiet",
            "--agents",
            "mcts:iterations=50,c=1.4",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("P1 mcts:iterations=50,c=1.4")
            && text.contains("P2 mcts:iterations=50,c=1.4"),
        "{text}"
    );
    let o = bin().args(["play", "--agents", "c=1.4"]).output().unwrap();
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2));
    // The error's example, run as it is written, is accepted.
    let example = e
        .split("e.g. ")
        .nth(1)
        .and_then(|x| x.split(')').next())
        .unwrap_or_else(|| panic!("no example in {e}"));
    let o = bin()
        .args(["play", "--game", "sig-el-oued", "--quiet", "--agents"])
        .arg(example.replace("2000", "20"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{example}: {}", stderr(&o));
}

#[test]
fn play_shows_the_board_once_per_throw() {
    let o = bin().args(["play", "--seed", "3"]).output().unwrap();
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    let boards = text.matches("Throws made:").count();
    let throws = text.lines().filter(|l| l.starts_with("throw ")).count();
    // The starting board, then at most one per throw.
    assert!(
        throws > 10 && boards <= throws + 1,
        "{boards} boards, {throws} throws"
    );
    assert!(boards * 2 > throws, "{boards} boards, {throws} throws");
}

#[test]
fn analyze_checks_its_output_paths_before_the_work() {
    let dir = temp("paths");
    let missing = dir.join("no-such-folder");
    let start = std::time::Instant::now();
    for args in [
        vec![
            "analyze".to_string(),
            "--game".into(),
            "issiren".into(),
            "--write-tablebase".into(),
            missing.join("tb.bin").display().to_string(),
        ],
        vec![
            "analyze".into(),
            "--game".into(),
            "sig-wa-duqqan".into(),
            "--svg".into(),
            missing.join("x.svg").display().to_string(),
        ],
    ] {
        let o = bin().args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("cannot write"), "{}", stderr(&o));
        assert!(o.stdout.is_empty(), "no figures before the refusal");
    }
    // Refused at once, not after building the tablebase (about 30 s).
    assert!(start.elapsed().as_secs() < 20);
    // A good path: the figures are printed, then the file written.
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("lengths.svg");
    let o = bin()
        .args([
            "analyze",
            "--game",
            "sig-wa-duqqan",
            "-n",
            "20",
            "--no-exact",
            "--svg",
        ])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A small tournament folder (2 games of random against random on Issiren) for the tests
/// that read a log.
fn small_tournament(name: &str) -> std::path::PathBuf {
    let out = temp(name);
    let o = bin()
        .args([
            "tournament",
            "--game",
            "issiren",
            "--agents",
            "random,random",
            "--games",
            "2",
            "--threads",
            "1",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    out
}

#[test]
fn endless_files_named_in_specs_and_options_are_refused_at_once() {
    let out = small_tournament("endless");
    let log = out.join("games.jsonl").display().to_string();
    let tout = out.join("t").display().to_string();
    let lout = out.join("l").display().to_string();
    let wout = out.join("w.sdw").display().to_string();
    let cout = out.join("c").display().to_string();
    for args in [
        vec![
            "play",
            "--game",
            "issiren",
            "--agents",
            "greedy:eval=/dev/zero",
        ],
        vec![
            "tournament",
            "--game",
            "issiren",
            "--agents",
            "random,greedy:eval=/dev/zero",
            "--games",
            "2",
            "--out",
            &tout,
        ],
        vec!["ladder", "--specs", "/dev/zero", "--out", &lout],
        vec![
            "train",
            "--distill",
            "--main",
            "/dev/zero",
            "--out",
            &wout,
            "--games",
            "1",
        ],
        vec!["calibration", "--eval", "/dev/zero", "--out", &cout],
        vec!["review", &log, "--reference-eval", "/dev/zero"],
        vec![
            "tournament",
            "--game",
            "issiren",
            "--agents",
            "random,random",
            "--games",
            "2",
            "--luck",
            "--reference-eval",
            "/dev/zero",
            "--out",
            &tout,
        ],
    ] {
        let start = std::time::Instant::now();
        let o = bin().args(&args).output().unwrap();
        let e = stderr(&o);
        assert!(!o.status.success(), "{args:?}");
        // (A device since issue 39: "not a regular file", read not at all.)
        assert!(e.contains("not a regular file"), "{args:?}: {e}");
        assert!(
            start.elapsed().as_secs() < 10,
            "{args:?} took {:?}",
            start.elapsed()
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn serve_refuses_an_endless_eval_file_at_once() {
    let mut s = Serve::start();
    let a = s.ask(r#"{"id":1,"cmd":"new_game","game":"issiren","seed":3}"#);
    assert_eq!(a["ok"], true, "{a}");
    let a = s.ask(r#"{"id":2,"cmd":"throw","marked":4}"#);
    assert_eq!(a["ok"], true, "{a}");
    let start = std::time::Instant::now();
    let a = s
        .ask(r#"{"id":3,"cmd":"agent_move","agent":"greedy:eval=/dev/zero","time_limit_ms":1000}"#);
    assert_eq!(a["ok"], false, "{a}");
    assert!(a.to_string().contains("not a regular file"), "{a}");
    assert!(start.elapsed().as_secs() < 10);
    s.send(r#"{"id":4,"cmd":"quit"}"#);
    assert_eq!(s.answer()["id"], 4);
    assert!(s.child.wait().unwrap().success());
}

#[test]
fn serve_refuses_a_tablebase_built_during_a_time_limited_move() {
    let mut s = Serve::start();
    for r in [
        r#"{"id":1,"cmd":"new_game","game":"issiren","seed":3}"#,
        r#"{"id":2,"cmd":"throw","marked":4}"#,
    ] {
        assert_eq!(s.ask(r)["ok"], true, "{r}");
    }
    let start = std::time::Instant::now();
    let a = s.ask(
        r#"{"id":3,"cmd":"agent_move","agent":"mcts:iterations=20,tablebase=build","time_limit_ms":1000}"#,
    );
    assert_eq!(a["error"]["code"], "bad_agent", "{a}");
    assert!(
        a["error"]["message"]
            .as_str()
            .unwrap()
            .contains("stickdice tablebase --build"),
        "{a}"
    );
    assert!(start.elapsed().as_secs() < 5);
    // serve reads files named in specs (it is the user's own program), unlike the web server.
    let a = s.ask(r#"{"id":4,"cmd":"agent_move","agent":"greedy:eval=/no/such/file"}"#);
    assert!(
        a["error"]["message"]
            .as_str()
            .unwrap()
            .contains("cannot read the weights file"),
        "{a}"
    );
    s.send(r#"{"id":5,"cmd":"quit"}"#);
    assert_eq!(s.answer()["id"], 5);
    assert!(s.child.wait().unwrap().success());
}

/// Holds `dir`'s lock (`.stickdice.lock`) as a running tournament does.
fn hold_lock(dir: &std::path::Path) -> std::fs::File {
    std::fs::create_dir_all(dir).unwrap();
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(".stickdice.lock"))
        .unwrap();
    f.try_lock().unwrap();
    f
}

#[test]
fn merge_and_train_take_their_output_folders_lock() {
    let t = small_tournament("locks");
    // A finished tournament let its folder go and removed the lock file.
    assert!(t.join("games.jsonl").exists());
    assert!(!t.join(".stickdice.lock").exists());
    let merged = t.with_file_name(format!(
        "{}-merged",
        t.file_name().unwrap().to_str().unwrap()
    ));
    let _ = std::fs::remove_dir_all(&merged);
    let lock = hold_lock(&merged);
    let o = bin().arg("merge").arg(&merged).arg(&t).output().unwrap();
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("is in use by another stickdice run"),
        "{}",
        stderr(&o)
    );
    assert!(!merged.join("report.json").exists(), "nothing written");
    drop(lock);
    let o = bin().arg("merge").arg(&merged).arg(&t).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(merged.join("report.json").exists());
    assert!(
        !merged.join(".stickdice.lock").exists(),
        "a finished merge removes its lock file"
    );

    let trained = t.join("trained");
    let train = || {
        bin()
            .args([
                "train", "--game", "issiren", "--hidden", "4", "--seed", "3", "--games", "2",
                "--out",
            ])
            .arg(&trained)
            .output()
            .unwrap()
    };
    let lock = hold_lock(&trained);
    let o = train();
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("is in use by another stickdice run"),
        "{}",
        stderr(&o)
    );
    assert!(!trained.join("issiren.sdw").exists());
    drop(lock);
    // A temporary file left by a run that failed (a full disk) is removed by the next.
    std::fs::write(trained.join("issiren.sdw.tmp"), "partial").unwrap();
    let o = train();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(trained.join("issiren.sdw").exists());
    assert!(!trained.join("issiren.sdw.tmp").exists());
    assert!(
        !trained.join(".stickdice.lock").exists(),
        "a finished training removes its lock file"
    );
    let _ = std::fs::remove_dir_all(&t);
    let _ = std::fs::remove_dir_all(&merged);
}

/// Copies of the log of `dir` with game 0 tampered with: seating swapped, an impossible
/// throw count, places and scores flipped. Each is written to a folder of its own.
fn tampered_logs(dir: &std::path::Path) -> Vec<(&'static str, std::path::PathBuf)> {
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let mut out = Vec::new();
    for what in ["seating", "throws", "result"] {
        let lines: Vec<String> = text
            .lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                if v["type"] != "game" || v["index"] != 0 {
                    return l.to_string();
                }
                let flip = |x: &mut serde_json::Value| {
                    let a = x.as_array_mut().unwrap();
                    a.reverse();
                };
                match what {
                    "seating" => flip(&mut v["seating"]),
                    "throws" => v["throws"] = 999.into(),
                    _ => {
                        flip(&mut v["places"]);
                        flip(&mut v["scores"]);
                    }
                }
                v.to_string()
            })
            .collect();
        let d = dir.join(format!("tampered-{what}"));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("games.jsonl"), lines.join("\n") + "\n").unwrap();
        out.push((what, d));
    }
    out
}

#[test]
fn review_verifies_seating_throws_and_result_as_replay_does() {
    let t = small_tournament("tampered");
    let o = bin().arg("review").arg(&t).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    for (what, d) in tampered_logs(&t) {
        for cmd in ["replay", "review"] {
            let mut c = bin();
            c.arg(cmd).arg(&d);
            if cmd == "replay" {
                c.args(["--index", "0"]);
            }
            let o = c.output().unwrap();
            assert!(
                !o.status.success(),
                "{cmd} of a log with {what} tampered with"
            );
            assert!(
                stderr(&o).contains("line 2"),
                "{cmd} {what}: {}",
                stderr(&o)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&t);
}

/// Issue 39: the end of piped input cancelled the running search (before, `cancelled`
/// in about half the runs of a piped script, and the requests after it applied to
/// another position); now the search finishes and every request read is answered as sent.
#[test]
fn serve_finishes_a_running_search_at_the_end_of_its_input() {
    let mut s = Serve::start();
    assert_eq!(
        s.ask(r#"{"id":1,"cmd":"new_game","game":"issiren","seed":3}"#)["ok"],
        true
    );
    for r in [
        r#"{"id":2,"cmd":"throw","marked":4}"#,
        r#"{"id":2,"cmd":"act","action":"a1"}"#,
        r#"{"id":2,"cmd":"throw"}"#,
    ] {
        assert_eq!(s.ask(r)["ok"], true, "{r}");
    }
    s.send(r#"{"id":3,"cmd":"agent_move","agent":"mcts:iterations=20000","apply":true}"#);
    s.send(r#"{"id":4,"cmd":"state"}"#);
    s.send(r#"{"id":5,"cmd":"throw","marked":2}"#);
    let Serve {
        mut child,
        input,
        mut output,
    } = s;
    drop(input);
    let mut answers = Vec::new();
    let mut line = String::new();
    while output.read_line(&mut line).unwrap() > 0 {
        answers.push(serde_json::from_str::<serde_json::Value>(&line).unwrap());
        line.clear();
    }
    assert!(child.wait().unwrap().success());
    let ids: Vec<_> = answers.iter().map(|a| a["id"].clone()).collect();
    assert_eq!(ids.len(), 3, "{answers:?}");
    let by = |id: i64| answers.iter().find(|a| a["id"] == id).unwrap();
    assert_eq!(by(3)["ok"], true, "the search finishes: {}", by(3));
    // The throw waited for the move and applies after it.
    assert_eq!(by(5)["ok"], true, "{}", by(5));
    assert_eq!(by(5)["result"]["undo_steps"], 5, "{}", by(5));
}

/// `stickdice --version` names the crate's version and, in a git checkout, the commit
/// it was built from (issue 26, item 6).
#[test]
fn version_names_the_version_and_the_commit() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_stickdice"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let expected = format!("stickdice {}", env!("CARGO_PKG_VERSION"));
    assert!(text.starts_with(&expected), "{text}");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let head = std::process::Command::new("git")
        .arg("-C")
        .arg(&root)
        .args(["rev-parse", "--short=12", "HEAD"])
        .output();
    match head {
        Ok(h) if h.status.success() && root.join(".git").exists() => {
            let commit = String::from_utf8(h.stdout).unwrap();
            assert_eq!(
                text.trim(),
                format!("{expected} (commit {})", commit.trim()),
                "built from this checkout"
            );
        }
        _ => assert_eq!(text.trim(), expected),
    }
}
