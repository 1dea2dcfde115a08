//! Puts the commit into `stickdice --version` when the crate is built from a git checkout
//! of its repository: `STICKDICE_VERSION` is `0.1.0 (commit 1a2b3c4d5e6f)`, or just the
//! crate's version where no commit is known (a published package, a source archive,
//! no git on the machine).

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(root: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

fn main() {
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    // The repository's root is the crate's parent folder; only a checkout has `.git`
    // there (a folder in a clone, a file in a worktree). A package unpacked anywhere,
    // even inside another repository, has none, and names no commit.
    let root = manifest.parent().map(Path::to_path_buf).unwrap_or_default();
    let commit = if root.join(".git").exists() {
        git(&root, &["rev-parse", "--short=12", "HEAD"])
    } else {
        None
    };
    let line = match &commit {
        Some(c) => format!("{version} (commit {c})"),
        None => version,
    };
    println!("cargo:rustc-env=STICKDICE_VERSION={line}");
    println!("cargo:rerun-if-changed=build.rs");
    // Rebuilt when the checked-out commit moves: HEAD, the branch it names, packed refs.
    if commit.is_some() {
        for (args, file) in [
            (["rev-parse", "--git-path", "HEAD"], None),
            (["rev-parse", "--git-path", "packed-refs"], None),
            (["symbolic-ref", "-q", "HEAD"], Some(())),
        ] {
            let Some(out) = git(&root, &args) else {
                continue;
            };
            let path = if file.is_some() {
                // A branch: the file of its ref.
                match git(&root, &["rev-parse", "--git-path", &out]) {
                    Some(p) => p,
                    None => continue,
                }
            } else {
                out
            };
            let path = if Path::new(&path).is_absolute() {
                PathBuf::from(path)
            } else {
                root.join(path)
            };
            // A path that does not exist would rerun this script on every build.
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
}
