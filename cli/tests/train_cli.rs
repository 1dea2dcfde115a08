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

/// `train --endgame`: the supervised fit to the tablebase (here the 1v1 table only) stops
/// at `--stop-after` with a checkpoint, resumes to the same bytes as a run never stopped,
/// keeps the main network of `--main`, and its file plays as `eval=FILE`.
#[test]
fn endgame_training_stops_resumes_and_its_weights_play() {
    use stickdice_agents::learned::Network;
    let dir = temp("endgame");
    std::fs::create_dir_all(&dir).unwrap();
    let tb = dir.join("one-v-one.tb");
    stickdice_agents::solve::tablebase::Tablebase::build_partial(1, |_, _, _| {})
        .0
        .save(&tb)
        .unwrap();
    let main = dir.join("main");
    assert!(train(&main, 2, &[]).status.success());
    let main_file = main.join("issiren.sdw");
    let run = |out: &std::path::Path, stop: u64, extra: &[&str]| {
        bin()
            .args(["train", "--game", "issiren", "--endgame", "--hidden", "3"])
            .args(["--seed", "2", "--checkpoint-every", "30000"])
            .args(["--stop-after", &stop.to_string(), "--tablebase"])
            .arg(&tb)
            .arg("--out")
            .arg(out)
            .args(extra)
            .output()
            .unwrap()
    };
    let (a, b) = (dir.join("a"), dir.join("b"));
    let with_main = ["--main", main_file.to_str().unwrap()];
    let out = run(&a, 90_000, &with_main);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("continue with --resume"));
    assert!(run(&b, 45_000, &with_main).status.success());
    let out = run(&b, 90_000, &["--resume"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (wa, wb) = (
        std::fs::read(a.join("issiren.sdw")).unwrap(),
        std::fs::read(b.join("issiren.sdw")).unwrap(),
    );
    assert_eq!(wa, wb, "stopped and resumed: the same weights");
    let net = Network::from_bytes(&wa).unwrap();
    assert_eq!(net.endgame().unwrap().settings().done, 90_000);
    let plain = Network::load(&main_file).unwrap();
    assert_eq!(
        net.clone().with_endgame(None),
        plain,
        "the main network of --main"
    );
    // --endgame needs a tablebase; --main does not go with --resume.
    let out = bin()
        .args(["train", "--game", "issiren", "--endgame", "--out"])
        .arg(dir.join("c"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("--tablebase"));
    let out = run(
        &b,
        90_000,
        &["--resume", "--main", main_file.to_str().unwrap()],
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("--main"));
    // The file plays as eval=FILE.
    let t = dir.join("t");
    let spec = format!("greedy:eval={}", a.join("issiren.sdw").display());
    let out = bin()
        .args(["tournament", "--game", "issiren", "-n", "2", "--agents"])
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
}

/// `train --distill`: rounds from the shipped network, resumed to more rounds = the same
/// bytes as one run; the endgame network of the start is kept; errors are clear.
#[test]
fn distillation_resumes_keeps_the_endgame_network_and_plays() {
    use stickdice_agents::learned::Network;
    let dir = temp("distill");
    let run = |out: &std::path::Path, rounds: u32, extra: &[&str]| {
        bin()
            .args(["train", "--game", "issiren", "--distill", "--seed", "4"])
            .args(["--games", "2", "--depth", "1", "--epochs", "1"])
            .args(["--rounds", &rounds.to_string(), "--out"])
            .arg(out)
            .args(extra)
            .output()
            .unwrap()
    };
    let (a, b) = (dir.join("a"), dir.join("b"));
    let out = run(&a, 2, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("distilled 2 rounds"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("round 2 of 2"));
    assert!(run(&b, 1, &[]).status.success());
    let out = run(&b, 2, &["--resume"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (wa, wb) = (
        std::fs::read(a.join("issiren.sdw")).unwrap(),
        std::fs::read(b.join("issiren.sdw")).unwrap(),
    );
    assert_eq!(wa, wb, "one round, resumed to two: the same weights");
    let net = Network::from_bytes(&wa).unwrap();
    let shipped = stickdice_agents::learned::shipped();
    assert_eq!(net.distilled().unwrap().rounds_done, 2);
    assert_eq!(net.endgame(), shipped.endgame(), "the endgame network kept");
    assert_eq!(net.settings(), shipped.settings());
    assert_ne!(
        net.clone().without_distilled(),
        shipped.clone().without_distilled()
    );
    // Errors: other settings on resume, a TD checkpoint, a depth out of range, the
    // network's shape, --endgame with --distill.
    let out = run(&a, 3, &["--resume", "--explore", "0.3"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("other settings"));
    let td = dir.join("td");
    assert!(train(&td, 2, &[]).status.success());
    let out = run(&td, 1, &["--resume"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a --distill checkpoint"));
    let out = bin()
        .args([
            "train",
            "--game",
            "issiren",
            "--distill",
            "--depth",
            "4",
            "--out",
        ])
        .arg(dir.join("c"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("depth must be 1 to 3"));
    let out = run(&dir.join("c"), 1, &["--hidden", "8"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--hidden"));
    let out = run(&dir.join("c"), 1, &["--endgame"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("choose one"));
    let out = train(&dir.join("c"), 2, &["--depth", "2"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("for --distill runs"));
    // The file plays as eval=FILE.
    let t = dir.join("t");
    let spec = format!("greedy:eval={}", a.join("issiren.sdw").display());
    let out = bin()
        .args(["tournament", "--game", "issiren", "-n", "2", "--agents"])
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
    let _ = std::fs::remove_dir_all(dir);
}

/// `train --game sig-el-oued-capture` and `--game siryu-war`: a tiny self-play run is
/// reproducible, resumes to the same bytes, writes `GAME.sdw`, plays as `eval=FILE` with
/// greedy and MCTS, and is refused for the other game; Issiren's tablebase, endgame and
/// distillation runs are refused for these games.
#[test]
fn the_capture_games_train_resume_and_their_weights_play() {
    let other = ["siryu-war", "sig-el-oued-capture"];
    for (k, game) in ["sig-el-oued-capture", "siryu-war"].into_iter().enumerate() {
        let run = |out: &std::path::Path, games: u64, extra: &[&str]| {
            bin()
                .args(["train", "--game", game, "--hidden", "4", "--seed", "5"])
                .args(["--games", &games.to_string(), "--checkpoint-every", "2"])
                .arg("--out")
                .arg(out)
                .args(extra)
                .output()
                .unwrap()
        };
        let (a, b) = (temp(&format!("{game}-a")), temp(&format!("{game}-b")));
        let out = run(&a, 4, &[]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("trained 4 games"));
        assert!(run(&b, 2, &[]).status.success());
        assert!(run(&b, 4, &["--resume"]).status.success());
        let file = format!("{game}.sdw");
        let (wa, wb) = (
            std::fs::read(a.join(&file)).unwrap(),
            std::fs::read(b.join(&file)).unwrap(),
        );
        assert_eq!(wa, wb, "{game}");
        let out = run(&b, 6, &["--resume", "--alpha", "0.05"]);
        assert!(String::from_utf8_lossy(&out.stderr).contains("other settings"));
        for extra in [
            &["--endgame"][..],
            &["--distill"],
            &["--tablebase", "build"],
        ] {
            let out = run(&temp(&format!("{game}-x")), 2, extra);
            assert!(!out.status.success());
            assert!(
                String::from_utf8_lossy(&out.stderr).contains("self-play only"),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        // The weights play as eval=FILE (greedy, and MCTS at its leaves), named so in the log.
        let t = temp(&format!("{game}-t"));
        let path = a.join(&file).display().to_string();
        let specs =
            format!("greedy:eval={path},mcts:eval={path},iterations=20,greedy:eval=learned");
        let out = bin()
            .args(["tournament", "--game", game, "-n", "2", "--agents", &specs])
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
        assert!(log.contains(&format!("greedy:eval={path}")));
        // Another game's file is refused, naming the game it is for.
        let out = bin()
            .args(["tournament", "--game", other[k], "-n", "2", "--agents"])
            .arg(format!("greedy:eval={path},random"))
            .arg("--out")
            .arg(temp(&format!("{game}-u")))
            .output()
            .unwrap();
        assert!(!out.status.success());
        assert!(
            String::from_utf8_lossy(&out.stderr)
                .contains(&format!("weights for the game `{game}`")),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        for d in [
            a,
            b,
            t,
            temp(&format!("{game}-x")),
            temp(&format!("{game}-u")),
        ] {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}
