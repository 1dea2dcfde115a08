//! `stickdice play` as a user runs it: the same seed gives the same game, bad input gives
//! a clear error and a non-zero exit.

use std::process::{Command, Output};

fn stickdice(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stickdice"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_same_seed_plays_the_same_game_and_ends_with_a_ranking() {
    for game in ["sig-wa-duqqan", "sig-el-oued", "issiren"] {
        let a = stickdice(&["play", "--game", game, "--seed", "11"]);
        let b = stickdice(&["play", "--game", game, "--seed", "11"]);
        assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
        assert_eq!(stdout(&a), stdout(&b));
        let text = stdout(&a);
        assert!(
            text.contains("ranking after"),
            "{game}: no ranking in\n{text}"
        );
        assert!(
            text.contains("throw    1  P1:"),
            "{game}: the first throw is not shown"
        );
        let other = stickdice(&["play", "--game", game, "--seed", "12"]);
        assert_ne!(
            stdout(&other),
            text,
            "{game}: another seed played the same game"
        );
    }
}

#[test]
fn players_and_options_are_honoured() {
    let o = stickdice(&[
        "play",
        "-g",
        "sig-el-oued",
        "-p",
        "4",
        "-o",
        "cairo_always_three=true",
        "-o",
        "max_throws=30",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    assert!(text.contains("4 players"), "{text}");
    assert!(text.contains("cairo_always_three=true"), "{text}");
    assert!(text.contains("ranking after 30 throws"), "{text}");
    assert!(text.contains("P4: place"), "{text}");
}

#[test]
fn bad_input_is_a_clear_error_with_a_non_zero_exit() {
    for (args, says) in [
        (&["play", "--game", "chess"][..], "unknown game `chess`"),
        (
            &["play", "--game", "issiren", "--players", "3"][..],
            "exactly 2 players",
        ),
        (
            &["play", "--game", "sig-wa-duqqan", "--option", "ghoula=off"][..],
            "no rule option `ghoula`",
        ),
        (
            &[
                "play",
                "--game",
                "sig-wa-duqqan",
                "--option",
                "max_throws=-5",
            ][..],
            "max_throws",
        ),
        (
            &[
                "play",
                "--game",
                "sig-el-oued",
                "--option",
                "cairo_always_three",
            ][..],
            "key=value",
        ),
    ] {
        let o = stickdice(args);
        assert!(!o.status.success(), "{args:?} succeeded");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(says),
            "{args:?}: stderr does not say {says:?}:\n{err}"
        );
        assert!(!err.contains("panicked"), "{args:?} panicked:\n{err}");
    }
}

/// `check-game` prints the digest that names the description's content: the same for a
/// copy with a comment added, another for a copy with a value changed.
#[test]
fn check_game_prints_the_descriptions_content_digest() {
    let digest_of = |text: &str| {
        let path = std::env::temp_dir().join(format!(
            "stickdice-cli-play-digest-{}-{}.toml",
            std::process::id(),
            text.len()
        ));
        std::fs::write(&path, text).unwrap();
        let out = stickdice(&["check-game", path.to_str().unwrap(), "--games", "0"]);
        let _ = std::fs::remove_file(&path);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        stdout
            .lines()
            .find_map(|l| l.strip_prefix("content digest: sha256:"))
            .unwrap_or_else(|| panic!("no digest in {stdout}"))
            .to_string()
    };
    let tab = stickdice::Tab::TEXT;
    let want = stickdice::described::Base::parse("tab.toml", tab)
        .unwrap()
        .digest();
    assert_eq!(digest_of(tab), want);
    assert_eq!(digest_of(&format!("# my copy\n{tab}")), want);
    let patched = tab.replacen("title = \"Tab\"", "title = \"My Tab\"", 1);
    assert_ne!(patched, tab);
    assert_ne!(digest_of(&patched), want);
}
