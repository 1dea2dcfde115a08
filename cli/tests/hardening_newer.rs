//! Hardening of the newer surfaces (docs/performance/hardening.md): `stickdice compare
//! --out` against a second run, a failed write and an earlier comparison's outputs; weights
//! files and the protocol against hostile input.

mod common;
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
    let out = bin()
        .args(["compare", "--file", "/dev/zero"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("longer than 64 MiB"), "{err}");
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
