//! The command line under hostile input and faults (issue 16): a reader that goes away,
//! counts past the limits, a second run on a busy output folder, endless input files.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_stickdice"))
}

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("stickdice-hard-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    p
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

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
