//! Helpers shared by the tests that run the `stickdice` binary.
#![allow(dead_code)] // each test file uses its own part

use std::path::{Path, PathBuf};
use std::process::Command;

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

/// A fresh (removed) path in the temporary folder, named after the test file, `name` and
/// the process.
pub fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!(
        "stickdice-{}-{name}-{}",
        env!("CARGO_CRATE_NAME"),
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
