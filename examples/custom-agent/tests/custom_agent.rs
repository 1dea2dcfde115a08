//! The example's `rollout` kind of agent, registered from this crate, named by spec strings
//! exactly like a built-in agent: in a tournament against `random` (the tournament
//! builder), in the ladder, in the review of the tournament's log, and in a protocol server
//! started from here (`stickdice_evaluation::protocol::serve`).

use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc;

use serde_json::Value;
use stickdice::{Game, Issiren, SigElOued};
use stickdice_evaluation::ladder::{self, LadderOptions, Series};
use stickdice_evaluation::review::{self, BLUNDER};
use stickdice_evaluation::schedule::Schedule;
use stickdice_evaluation::tournament::{verify_game, LOG_FILE};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "stickdice-custom-agent-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn the_kind_is_listed_with_its_parameters() {
    stickdice_example_custom_agent::register();
    let info = stickdice_agents::info("rollout").expect("registered");
    assert_eq!(info.params[0].key, "playouts");
    assert_eq!(info.params[0].default, "8");
    assert!(stickdice_agents::agents()
        .iter()
        .any(|a| a.name == "rollout"));
    let game = Issiren::with_seats(2).unwrap();
    for (bad, why) in [
        ("rollout:playouts=0", "playouts"),
        ("rollout:playouts=200000", "1 to 100000"),
        ("rollout:depth=2", "depth"),
    ] {
        let e = stickdice_agents::build_str(bad, &game, 1).err().expect(bad);
        assert!(e.to_string().contains(why), "{bad}: {e}");
    }
}

/// A tournament of `random` against `rollout` by spec strings through the builder, its log
/// reviewed game by game. Issiren, 20 games (fixed seed): were `rollout` no better than
/// `random` (each game a fair coin), a score of at least 0.75 would have probability 2.1%
/// (binomial, 15 of 20).
#[test]
fn a_tournament_against_a_built_in_agent_by_spec_string_and_its_review() {
    stickdice_example_custom_agent::register();
    let game = Issiren::with_seats(2).unwrap();
    let out = temp_dir("tournament");
    let summary = stickdice_evaluation::tournament(&game)
        .agent("random")
        .agent("rollout:playouts=32")
        .games(20)
        .seed(11)
        .threads(1)
        .out(&out)
        .run()
        .unwrap();
    let report = summary.report.as_ref().expect("finished");
    assert_eq!(report.games, 20);
    let rollout = report
        .standings
        .iter()
        .find(|s| s.agent == "rollout:playouts=32")
        .unwrap_or_else(|| panic!("no rollout in {:?}", report.standings));
    let score = rollout.score.value;
    assert!(score >= 0.75, "rollout scored {score}");

    // Review (as `stickdice review` does): each logged game checked against its schedule,
    // then each decision of both agents against the reference search.
    let contents = stickdice_evaluation::log::read(&out.join(LOG_FILE))
        .unwrap()
        .unwrap();
    let c = &contents.config;
    assert_eq!(c.agents, ["random", "rollout:playouts=32"]);
    let schedule = Schedule::new(
        c.format,
        c.agents.len(),
        c.players,
        c.games_per_table,
        c.seed,
    )
    .unwrap();
    let mut reference = review::Search::<Issiren>::new(1).unwrap();
    let mut decisions = 0;
    for (_, record) in &contents.games {
        verify_game(&game, &schedule, record).unwrap();
        let r = review::review(&game, &mut reference, &record.events, None, BLUNDER).unwrap();
        decisions += r.summary.iter().map(|s| s.decisions).sum::<usize>();
    }
    assert!(decisions > 0);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_ladder_calibrates_and_plays_the_agent() {
    stickdice_example_custom_agent::register();
    let game = SigElOued::with_seats(2).unwrap();
    let series = vec![
        Series::new("random", "random").unwrap(),
        Series::parse("rollout=rollout:playouts=2").unwrap(),
    ];
    let options = LadderOptions {
        millis: vec![1.0],
        positions: 4,
        games: 4,
        seed: 3,
        threads: Some(1),
    };
    let specs = ladder::calibrate(&game, &series, &options, &|_| {}).unwrap();
    assert_eq!(specs.series[1].levels[0].spec, "rollout:playouts=2");
    let out = temp_dir("ladder");
    let report = ladder::play(&game, &specs, &options, &out, &|_| {}).unwrap();
    assert!(report.to_markdown().contains("rollout"));
    let _ = std::fs::remove_dir_all(&out);
}

/// What `serve` writes, handed to the test line by line.
struct Lines(mpsc::Sender<Vec<u8>>);

impl Write for Lines {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let _ = self.0.send(bytes.to_vec());
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The next response line `serve` wrote.
fn next_answer(rx: &mpsc::Receiver<Vec<u8>>, pending: &mut Vec<u8>) -> Value {
    loop {
        if let Some(i) = pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = pending.drain(..=i).collect();
            return serde_json::from_slice(&line[..i]).unwrap();
        }
        pending.extend(rx.recv().expect("serve answers every request"));
    }
}

#[test]
fn a_protocol_server_started_here_plays_the_agent() {
    stickdice_example_custom_agent::register();
    let requests = [
        r#"{"cmd":"hello"}"#,
        r#"{"cmd":"new_game","game":"issiren","seed":5}"#,
        r#"{"cmd":"throw","marked":1}"#,
        r#"{"cmd":"agent_move","agent":"rollout:playouts=0"}"#,
        r#"{"id":7,"cmd":"agent_move","agent":"rollout","budget":{"playouts":3},"apply":true}"#,
        r#"{"cmd":"quit"}"#,
    ];
    // The server reads a pipe that stays open until each answer is in (the end of its
    // input would cancel a running search), and writes its lines to this test.
    let (reader, mut writer) = std::io::pipe().unwrap();
    let (tx, rx) = mpsc::channel();
    let server = std::thread::spawn(move || {
        stickdice_evaluation::protocol::serve(std::io::BufReader::new(reader), Lines(tx))
    });
    let mut pending = Vec::new();
    let mut answers = Vec::new();
    for r in requests {
        writeln!(writer, "{r}").unwrap();
        answers.push(next_answer(&rx, &mut pending));
    }
    drop(writer);
    server.join().unwrap().unwrap();
    let hello = &answers[0]["result"];
    assert!(
        hello["agents"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["name"] == "rollout"),
        "{hello}"
    );
    assert_eq!(answers[3]["error"]["code"], "bad_agent", "{}", answers[3]);
    let moved = &answers[4];
    assert_eq!(moved["id"], 7);
    assert_eq!(moved["ok"], true, "{moved}");
    assert_eq!(moved["result"]["move"]["agent"], "rollout:playouts=3");
    assert_eq!(moved["result"]["move"]["applied"], true);
    let game = Issiren::with_seats(2).unwrap();
    let mut s = game.initial_state();
    game.apply_throw(&mut s, "1".parse().unwrap()).unwrap();
    let action = game
        .parse_action(moved["result"]["move"]["action"].as_str().unwrap())
        .unwrap();
    assert!(game.check_action(&s, action).is_ok());
}
