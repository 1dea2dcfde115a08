//! Helpers shared by the tests that run the `stickdice` binary.
#![allow(dead_code)] // each test file uses its own part

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use stickdice_evaluation::tournament::REPORT_FILES;

/// The binary under test, with an empty tablebase cache (`STICKDICE_CACHE` naming a
/// folder that does not exist), so that a tablebase built in the developer's cache does
/// not change what the tests see; a test that wants one sets the variable again.
pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_stickdice"));
    c.env(
        "STICKDICE_CACHE",
        std::env::temp_dir().join("stickdice-tests-no-tablebase-cache"),
    );
    c
}

/// A fresh (removed) path in the temporary folder, named after `name`, the process and a
/// number of its own.
pub fn temp(name: &str) -> PathBuf {
    // Numbered per call: every test file runs in one process, and several ask for the same
    // name.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let p = std::env::temp_dir().join(format!(
        "stickdice-cli-test-{}-{n}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&p);
    p
}

/// The report files of a tournament folder, in [`REPORT_FILES`] order.
pub fn reports(dir: &Path) -> Vec<String> {
    REPORT_FILES
        .iter()
        .map(|f| std::fs::read_to_string(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}")))
        .collect()
}

/// The number of lines of a file (0 when it is missing).
pub fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |s| s.lines().count())
}

/// The run's standard error, as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The run's standard output, as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Asserts that the run succeeded (showing its standard error when not), and returns it.
#[track_caller]
pub fn succeeded(out: Output) -> Output {
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

/// The binary run with `args` then the folder `--out OUT`, to its end.
pub fn run_out<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>, out: &Path) -> Output {
    bin().args(args).arg("--out").arg(out).output().unwrap()
}

/// The file `name` in two folders: the same bytes (`what` says which runs they are).
#[track_caller]
pub fn assert_same_file(a: &Path, b: &Path, name: &str, what: &str) -> Vec<u8> {
    let (wa, wb) = (
        std::fs::read(a.join(name)).unwrap(),
        std::fs::read(b.join(name)).unwrap(),
    );
    assert_eq!(wa, wb, "{what}");
    wa
}
