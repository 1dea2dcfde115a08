//! `stickdice train` and `stickdice calibration`: a tiny training run is reproducible and
//! resumes to the same weights; the weights it writes work as `eval=FILE`; errors are clear.

use crate::common;

use std::path::Path;
use std::process::Output;

use common::{assert_same_file, bin, run_out, stderr, stdout, succeeded, temp};

fn train(out: &Path, games: u64, extra: &[&str]) -> Output {
    let games = games.to_string();
    let args = ["train", "--game", "issiren", "--hidden", "4", "--seed", "3"];
    let more = ["--games", &games, "--checkpoint-every", "2"];
    run_out(args.iter().chain(&more).chain(extra), out)
}

/// A tournament of `game`, `n` games between `agents`, into `out`.
fn tournament(game: &str, n: &str, agents: &str, out: &Path) -> Output {
    run_out(
        ["tournament", "--game", game, "-n", n, "--agents", agents],
        out,
    )
}

#[test]
fn training_reproduces_resumes_and_its_weights_play() {
    let (a, b) = (temp("a"), temp("b"));
    let out = succeeded(train(&a, 6, &[]));
    assert!(stdout(&out).contains("trained 6 games"));
    // Half the games, then resumed to all of them: the same bytes.
    assert!(train(&b, 3, &[]).status.success());
    succeeded(train(&b, 6, &["--resume"]));
    assert_same_file(&a, &b, "issiren.sdw", "6 games, and 3 resumed to 6");
    // A second run into the same folder without --resume is refused, as is --resume with
    // other settings or without a checkpoint.
    let out = train(&a, 6, &[]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--resume"));
    let out = train(&a, 8, &["--resume", "--lambda", "0.5"]);
    assert!(stderr(&out).contains("other settings"));
    let c = temp("c");
    let out = train(&c, 2, &["--resume"]);
    assert!(stderr(&out).contains("no checkpoint"));
    // Only Issiren is trained.
    let out = run_out(["train", "--game", "sig-el-oued"], &c);
    assert!(stderr(&out).contains("no learned evaluation"));
    // The weights play as eval=FILE, named so in the log.
    let t = temp("t");
    let spec = format!("greedy:eval={}", a.join("issiren.sdw").display());
    succeeded(tournament(
        "issiren",
        "4",
        &format!("{spec},greedy:eval=hand"),
        &t,
    ));
    let log = std::fs::read_to_string(t.join("games.jsonl")).unwrap();
    assert!(log.contains(&spec));
    // Calibration (self-play part only) writes its three files.
    let cal = temp("cal");
    succeeded(run_out(
        ["calibration", "--game", "issiren", "--games", "5"],
        &cal,
    ));
    for f in ["calibration.json", "calibration.md", "calibration.svg"] {
        assert!(cal.join(f).exists(), "{f}");
    }
    for d in [a, b, c, t, cal] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// `calibration` shows its progress: without a terminal, plain lines (here one after every
/// game, as `STICKDICE_PROGRESS_EVERY=0` asks).
#[test]
fn calibration_shows_progress_without_a_terminal() {
    let cal = temp("cal-progress");
    let out = succeeded(
        bin()
            .env("STICKDICE_PROGRESS_EVERY", "0")
            .args(["calibration", "--game", "issiren", "--games", "4", "--out"])
            .arg(&cal)
            .output()
            .unwrap(),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.lines()
            .any(|l| l.starts_with("progress: ") && l.contains("/4 games (self-play)")),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(cal);
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
    let tb = tb.to_str().unwrap();
    let run = |out: &Path, stop: u64, extra: &[&str]| {
        let stop = stop.to_string();
        let args = ["train", "--game", "issiren", "--endgame", "--hidden", "3"];
        let more = ["--seed", "2", "--checkpoint-every", "30000"];
        let tablebase = ["--stop-after", &stop, "--tablebase", tb];
        run_out(args.iter().chain(&more).chain(&tablebase).chain(extra), out)
    };
    let (a, b) = (dir.join("a"), dir.join("b"));
    let with_main = ["--main", main_file.to_str().unwrap()];
    let out = succeeded(run(&a, 90_000, &with_main));
    assert!(stdout(&out).contains("continue with --resume"));
    assert!(run(&b, 45_000, &with_main).status.success());
    succeeded(run(&b, 90_000, &["--resume"]));
    let wa = assert_same_file(
        &a,
        &b,
        "issiren.sdw",
        "stopped and resumed: the same weights",
    );
    let net = Network::from_bytes(&wa).unwrap();
    assert_eq!(net.endgame().unwrap().settings().done, 90_000);
    let plain = Network::load(&main_file).unwrap();
    assert_eq!(
        net.clone().with_endgame(None),
        plain,
        "the main network of --main"
    );
    // --endgame needs a tablebase; --main does not go with --resume.
    let out = run_out(["train", "--game", "issiren", "--endgame"], &dir.join("c"));
    assert!(stderr(&out).contains("--tablebase"));
    let out = run(
        &b,
        90_000,
        &["--resume", "--main", main_file.to_str().unwrap()],
    );
    assert!(stderr(&out).contains("--main"));
    // The file plays as eval=FILE.
    let spec = format!("greedy:eval={}", a.join("issiren.sdw").display());
    let agents = format!("{spec},greedy:eval=hand");
    succeeded(tournament("issiren", "2", &agents, &dir.join("t")));
}

/// `train --distill`: rounds from the shipped network, resumed to more rounds = the same
/// bytes as one run; the endgame network of the start is kept; errors are clear.
#[test]
fn distillation_resumes_keeps_the_endgame_network_and_plays() {
    use stickdice_agents::learned::Network;
    let dir = temp("distill");
    let run = |out: &Path, rounds: u32, extra: &[&str]| {
        let rounds = rounds.to_string();
        let args = ["train", "--game", "issiren", "--distill", "--seed", "4"];
        let more = ["--games", "2", "--depth", "1", "--epochs", "1"];
        run_out(
            args.iter()
                .chain(&more)
                .chain(&["--rounds", &rounds])
                .chain(extra),
            out,
        )
    };
    let (a, b) = (dir.join("a"), dir.join("b"));
    let out = succeeded(run(&a, 2, &[]));
    assert!(stdout(&out).contains("distilled 2 rounds"));
    assert!(stderr(&out).contains("round 2 of 2"));
    assert!(run(&b, 1, &[]).status.success());
    succeeded(run(&b, 2, &["--resume"]));
    let wa = assert_same_file(
        &a,
        &b,
        "issiren.sdw",
        "one round, resumed to two: the same weights",
    );
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
    assert!(stderr(&out).contains("other settings"));
    let td = dir.join("td");
    assert!(train(&td, 2, &[]).status.success());
    let out = run(&td, 1, &["--resume"]);
    assert!(stderr(&out).contains("not a --distill checkpoint"));
    let out = run_out(
        ["train", "--game", "issiren", "--distill", "--depth", "4"],
        &dir.join("c"),
    );
    assert!(stderr(&out).contains("depth must be 1 to 3"));
    let out = run(&dir.join("c"), 1, &["--hidden", "8"]);
    assert!(stderr(&out).contains("--hidden"));
    let out = run(&dir.join("c"), 1, &["--endgame"]);
    assert!(stderr(&out).contains("choose one"));
    let out = train(&dir.join("c"), 2, &["--depth", "2"]);
    assert!(stderr(&out).contains("for --distill runs"));
    // The file plays as eval=FILE.
    let spec = format!("greedy:eval={}", a.join("issiren.sdw").display());
    let agents = format!("{spec},greedy:eval=hand");
    succeeded(tournament("issiren", "2", &agents, &dir.join("t")));
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
        let run = |out: &Path, games: u64, extra: &[&str]| {
            let games = games.to_string();
            let args = ["train", "--game", game, "--hidden", "4", "--seed", "5"];
            let more = ["--games", &games, "--checkpoint-every", "2"];
            run_out(args.iter().chain(&more).chain(extra), out)
        };
        let (a, b) = (temp(&format!("{game}-a")), temp(&format!("{game}-b")));
        let out = succeeded(run(&a, 4, &[]));
        assert!(stdout(&out).contains("trained 4 games"));
        assert!(run(&b, 2, &[]).status.success());
        assert!(run(&b, 4, &["--resume"]).status.success());
        let file = format!("{game}.sdw");
        assert_same_file(&a, &b, &file, game);
        let out = run(&b, 6, &["--resume", "--alpha", "0.05"]);
        assert!(stderr(&out).contains("other settings"));
        for extra in [
            &["--endgame"][..],
            &["--distill"],
            &["--tablebase", "build"],
        ] {
            let out = run(&temp(&format!("{game}-x")), 2, extra);
            assert!(!out.status.success());
            assert!(stderr(&out).contains("self-play only"), "{}", stderr(&out));
        }
        // The weights play as eval=FILE (greedy, and MCTS at its leaves), named so in the log.
        let t = temp(&format!("{game}-t"));
        let path = a.join(&file).display().to_string();
        let specs =
            format!("greedy:eval={path},mcts:eval={path},iterations=20,greedy:eval=learned");
        succeeded(tournament(game, "2", &specs, &t));
        let log = std::fs::read_to_string(t.join("games.jsonl")).unwrap();
        assert!(log.contains(&format!("greedy:eval={path}")));
        // Another game's file is refused, naming the game it is for.
        let agents = format!("greedy:eval={path},random");
        let out = tournament(other[k], "2", &agents, &temp(&format!("{game}-u")));
        assert!(!out.status.success());
        assert!(
            stderr(&out).contains(&format!("weights for the game `{game}`")),
            "{}",
            stderr(&out)
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
