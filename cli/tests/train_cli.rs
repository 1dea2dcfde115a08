//! `stickdice train` and `stickdice calibration`: a tiny training run is reproducible and
//! resumes to the same weights; the weights it writes work as `eval=FILE`; errors are clear.

mod common;

use common::{bin, temp};

fn train(out: &std::path::Path, games: u64, extra: &[&str]) -> std::process::Output {
    bin()
        .args(["train", "--game", "issiren", "--hidden", "4", "--seed", "3"])
        .args(["--games", &games.to_string(), "--checkpoint-every", "2"])
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn training_reproduces_resumes_and_its_weights_play() {
    let (a, b) = (temp("a"), temp("b"));
    let out = train(&a, 6, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("trained 6 games"));
    // Half the games, then resumed to all of them: the same bytes.
    assert!(train(&b, 3, &[]).status.success());
    let out = train(&b, 6, &["--resume"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (wa, wb) = (
        std::fs::read(a.join("issiren.sdw")).unwrap(),
        std::fs::read(b.join("issiren.sdw")).unwrap(),
    );
    assert_eq!(wa, wb);
    // A second run into the same folder without --resume is refused, as is --resume with
    // other settings or without a checkpoint.
    let out = train(&a, 6, &[]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--resume"));
    let out = train(&a, 8, &["--resume", "--lambda", "0.5"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("other settings"));
    let c = temp("c");
    let out = train(&c, 2, &["--resume"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no checkpoint"));
    // Only Issiren is trained.
    let out = bin()
        .args(["train", "--game", "sig-el-oued", "--out"])
        .arg(&c)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("no learned evaluation"));
    // The weights play as eval=FILE, named so in the log.
    let t = temp("t");
    let spec = format!("greedy:eval={}", a.join("issiren.sdw").display());
    let out = bin()
        .args(["tournament", "--game", "issiren", "-n", "4", "--agents"])
        .arg(format!("{spec},greedy:eval=hand"))
        .arg("--out")
        .arg(&t)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = std::fs::read_to_string(t.join("games.jsonl")).unwrap();
    assert!(log.contains(&spec));
    // Calibration (self-play part only) writes its three files.
    let cal = temp("cal");
    let out = bin()
        .args(["calibration", "--game", "issiren", "--games", "5", "--out"])
        .arg(&cal)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for f in ["calibration.json", "calibration.md", "calibration.svg"] {
        assert!(cal.join(f).exists(), "{f}");
    }
    for d in [a, b, c, t, cal] {
        let _ = std::fs::remove_dir_all(d);
    }
}
