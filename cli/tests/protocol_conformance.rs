//! Conformance of `stickdice serve` (docs/protocol.md), run as a subprocess: whole games of
//! every game through the protocol, with the front end's dice and with the engine's, each
//! compared step by step with the same seeded game played through the library; undo and
//! load_state round trips; and bad input through the real pipe.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use rand::SeedableRng;
use serde_json::{json, Value};
use stickdice::play::SeededDice;
use stickdice::{ActionList, Agent, Issiren, Node, Present, SigElOued, SigWaDuqqan};
use stickdice_evaluation::protocol::agent_seed;

/// A `stickdice serve` subprocess.
struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_stickdice"))
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start stickdice serve");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Client {
            child,
            stdin,
            stdout,
            next_id: 0,
        }
    }

    /// Sends raw bytes plus a line break and reads one response line.
    fn send_raw(&mut self, line: &[u8]) -> Value {
        self.stdin.write_all(line).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
        self.read()
    }

    fn read(&mut self) -> Value {
        let mut response = String::new();
        let n = self.stdout.read_line(&mut response).unwrap();
        assert!(n > 0, "the server closed its output");
        serde_json::from_str(&response).expect("a response is JSON")
    }

    /// Sends a request with a fresh id; returns the response after checking the id.
    fn request(&mut self, mut request: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        request["id"] = json!(id);
        let r = self.send_raw(request.to_string().as_bytes());
        assert_eq!(r["id"], id, "{r}");
        r
    }

    /// A request that must succeed; returns its result.
    fn ok(&mut self, request: Value) -> Value {
        let r = self.request(request.clone());
        assert_eq!(r["ok"], true, "{request} -> {r}");
        r["result"].clone()
    }

    /// A request that must fail with `code`, leaving the state as it was.
    fn refused(&mut self, request: Value, code: &str) {
        let before = self.ok(json!({"cmd": "state"}));
        let r = self.request(request.clone());
        assert_eq!(r["ok"], false, "{request} -> {r}");
        assert_eq!(r["error"]["code"], code, "{request} -> {r}");
        assert_eq!(
            self.ok(json!({"cmd": "state"})),
            before,
            "{request} changed the state"
        );
    }

    fn quit(mut self) {
        let r = self.request(json!({"cmd": "quit"}));
        assert_eq!(r["ok"], true);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Checks that the protocol's view shows exactly the library's state.
fn check_view<G: Present>(game: &G, state: &G::State, view: &Value, steps: usize) {
    assert_eq!(view["state"], serde_json::to_value(state).unwrap());
    assert_eq!(view["board"], game.render(state));
    assert_eq!(view["throws_made"], game.throws_made(state));
    assert_eq!(view["undo_steps"], steps);
    let node = match game.node(state) {
        Node::Throw(s) => json!({"kind": "throw", "seat": s}),
        Node::Decide(s) => json!({"kind": "decide", "seat": s}),
        Node::End => json!({"kind": "end", "seat": null}),
    };
    assert_eq!(view["node"], node);
    let mut legal = ActionList::new();
    game.legal_actions(state, &mut legal);
    let legal: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
    assert_eq!(view["legal_actions"], json!(legal));
    match game.node(state) {
        Node::Throw(_) => {
            let outcomes = view["throw_outcomes"].as_array().unwrap();
            // C(n, k) / 2^n for n sticks, computed here independently.
            let n = game.sticks().count() as u32;
            assert_eq!(outcomes.len(), n as usize + 1);
            let mut c = 1u64;
            for (k, o) in outcomes.iter().enumerate() {
                assert_eq!(o["marked"], k);
                assert_eq!(
                    o["probability"].as_f64().unwrap(),
                    c as f64 / 2f64.powi(n as i32)
                );
                c = c * (n as u64 - k as u64) / (k as u64 + 1);
            }
        }
        _ => assert_eq!(view["throw_outcomes"], json!([])),
    }
    match game.ranking(state) {
        Some(r) => {
            assert_eq!(view["ranking"]["places"], json!(r.places()));
            assert_eq!(view["ranking"]["text"], r.to_string());
        }
        None => assert_eq!(view["ranking"], Value::Null),
    }
}

/// How a test game throws and decides.
#[derive(Clone, Copy, PartialEq)]
enum Dice {
    /// The front end throws (its own generator) and chooses actions, sending both.
    FrontEnd,
    /// The engine throws and the random agent chooses (`agent_move` with `apply`).
    Engine,
}

/// The view without the fields that only a step's response carries.
fn bare(view: &Value) -> Value {
    let mut v = view.clone();
    for key in ["thrown", "played", "move", "undone"] {
        v.as_object_mut().unwrap().remove(key);
    }
    v
}

/// Plays one whole game through the protocol and through the library, side by side.
/// Mid-way it undoes two steps and replays them, and loads and unloads a state. Returns
/// the number of decisions made.
fn play_through<G: Present>(
    client: &mut Client,
    game: &G,
    options: &[(&str, &str)],
    seed: u64,
    dice: Dice,
) -> usize {
    let mut decisions = 0;
    let opts: serde_json::Map<String, Value> = options
        .iter()
        .map(|(k, v)| (k.to_string(), json!(v)))
        .collect();
    let mut view = client.ok(json!({
        "cmd": "new_game", "game": G::NAME, "players": game.seats(),
        "options": opts, "seed": seed,
    }));
    let mut state = game.initial_state();
    let mut engine_dice = SeededDice::new(seed);
    let mut rng = stickdice::Rng::seed_from_u64(seed ^ 0xf00d);
    // views[i]: the view after step i; requests[i]: the request of step i (1-based).
    let mut views = vec![bare(&view)];
    let mut requests = vec![Value::Null];
    check_view(game, &state, &view, 0);
    loop {
        let request = match game.node(&state) {
            Node::Throw(seat) => {
                let (t, request) = match dice {
                    Dice::Engine => (
                        engine_dice.throw(seat, game.sticks()),
                        json!({"cmd": "throw"}),
                    ),
                    Dice::FrontEnd => {
                        let t = game.sample_throw(&mut rng);
                        (t, json!({"cmd": "throw", "marked": t.marked()}))
                    }
                };
                view = client.ok(request.clone());
                assert_eq!(view["thrown"]["seat"], seat);
                assert_eq!(view["thrown"]["marked"], t.marked(), "seed {seed}");
                let source = if dice == Dice::Engine {
                    "engine"
                } else {
                    "client"
                };
                assert_eq!(view["thrown"]["source"], source);
                assert_eq!(
                    view["thrown"]["description"],
                    game.describe_throw(&state, t)
                );
                game.apply_throw(&mut state, t).unwrap();
                request
            }
            Node::Decide(seat) => {
                let mut legal = ActionList::new();
                game.legal_actions(&state, &mut legal);
                let steps = views.len() - 1;
                let (a, request, shown) = match dice {
                    Dice::Engine => {
                        // What `agent_move` must do: a random agent seeded by agent_seed.
                        let mut agent = stickdice_agents::RandomAgent::new(agent_seed(seed, steps));
                        let a = Agent::<G>::choose(&mut agent, game, &state).unwrap();
                        let request =
                            json!({"cmd": "agent_move", "agent": "random", "apply": true});
                        view = client.ok(request.clone());
                        assert_eq!(view["move"]["seed"], agent_seed(seed, steps));
                        assert_eq!(view["move"]["applied"], true);
                        (a, request, "move")
                    }
                    Dice::FrontEnd => {
                        let a = legal[rand::RngExt::random_range(&mut rng, 0..legal.len())];
                        let request = json!({"cmd": "act", "action": a.to_string()});
                        view = client.ok(request.clone());
                        (a, request, "played")
                    }
                };
                assert_eq!(view[shown]["seat"], seat);
                assert_eq!(view[shown]["action"], a.to_string(), "seed {seed}");
                game.apply_action(&mut state, a).unwrap();
                decisions += 1;
                request
            }
            Node::End => break,
        };
        requests.push(request);
        views.push(bare(&view));
        let steps = views.len() - 1;
        check_view(game, &state, &view, steps);
        if steps == 6 && !game.is_over(&state) {
            // Undo two steps; replaying the same requests gives the same views (the engine's
            // dice and the agent's seed are restored with the state).
            let back = client.ok(json!({"cmd": "undo", "steps": 2}));
            assert_eq!(back["undone"], 2);
            assert_eq!(bare(&back), views[4]);
            for i in [5, 6] {
                assert_eq!(
                    bare(&client.ok(requests[i].clone())),
                    views[i],
                    "replaying step {i}"
                );
            }
            // Loading a state (as JSON, then as a string) is a step that undo takes back.
            for form in [
                views[6]["state"].clone(),
                json!(views[6]["state"].to_string()),
            ] {
                let loaded = client.ok(json!({"cmd": "load_state", "state": form, "seed": 77}));
                assert_eq!(loaded["state"], views[6]["state"]);
                assert_eq!(loaded["undo_steps"], 7);
                assert_eq!(loaded["seed"], 77);
                assert_eq!(bare(&client.ok(json!({"cmd": "undo"}))), views[6]);
            }
        }
    }
    // After the end nothing is due, and refusals change nothing.
    client.refused(json!({"cmd": "throw"}), "game_over");
    client.refused(json!({"cmd": "throw", "marked": 1}), "game_over");
    client.refused(json!({"cmd": "act", "action": "pass"}), "game_over");
    client.refused(json!({"cmd": "agent_move", "agent": "random"}), "game_over");
    let scores = view["ranking"]["scores"].as_array().unwrap();
    assert_eq!(scores.len(), game.seats());
    decisions
}

/// Plays every configuration and seed with both kinds of dice; returns the decisions made.
fn games_of<G: Present>(
    configs: &[(usize, &[(&str, &str)])],
    seeds: std::ops::Range<u64>,
) -> usize {
    let mut client = Client::start();
    let mut decisions = 0;
    for &(seats, options) in configs {
        let mut game = G::with_seats(seats).unwrap();
        for (k, v) in options {
            game.set_option(k, v).unwrap();
        }
        for seed in seeds.clone() {
            for dice in [Dice::FrontEnd, Dice::Engine] {
                decisions += play_through(&mut client, &game, options, seed, dice);
            }
        }
    }
    client.quit();
    decisions
}

#[test]
fn sig_wa_duqqan_games_through_the_protocol_equal_the_library() {
    // The rules (docs/games/sig-wa-duqqan.md): Sig wa Duqqan has no decisions at all.
    let decisions = games_of::<SigWaDuqqan>(
        &[
            (2, &[]),
            (5, &[("exact_waiting_square", "true")]),
            (3, &[("max_throws", "60")]),
        ],
        0..3,
    );
    assert_eq!(decisions, 0);
}

#[test]
fn sig_el_oued_games_through_the_protocol_equal_the_library() {
    // The leftover choice at Mecca is rare: enough games that some offer it.
    let decisions = games_of::<SigElOued>(
        &[
            (2, &[]),
            (4, &[("cairo_always_three", "true")]),
            (3, &[("max_throws", "60")]),
        ],
        0..3,
    );
    assert!(decisions > 0, "no leftover choice came up");
}

#[test]
fn issiren_games_through_the_protocol_equal_the_library() {
    let decisions = games_of::<Issiren>(&[(2, &[]), (2, &[("max_throws", "80")])], 0..3);
    assert!(decisions > 100);
}

#[test]
fn engine_throws_equal_stickdice_plays_duplicate_dice() {
    // Two sessions with one seed throw the same; a different seed throws differently.
    let mut client = Client::start();
    let throws = |client: &mut Client, seed: u64| -> Vec<u64> {
        client.ok(json!({"cmd": "new_game", "game": "sig-wa-duqqan", "players": 2, "seed": seed}));
        (0..30)
            .map(|_| {
                client.ok(json!({"cmd": "throw"}))["thrown"]["marked"]
                    .as_u64()
                    .unwrap()
            })
            .collect()
    };
    let a = throws(&mut client, 42);
    assert_eq!(throws(&mut client, 42), a);
    assert_ne!(throws(&mut client, 43), a);
    client.quit();
}

#[test]
fn bad_input_through_the_pipe_gets_one_error_each_and_the_server_goes_on() {
    let mut client = Client::start();
    let hello = client.ok(json!({"cmd": "hello"}));
    assert_eq!(hello["protocol"], "stickdice-serve");
    assert_eq!(hello["version"], 1);
    let names: Vec<&str> = hello["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    // Every game of the list but the description loaded at run time, in the list's order;
    // the games below first (a description added since comes after them).
    let listed: Vec<&str> = stickdice::GameKind::ALL
        .iter()
        .filter(|k| **k != stickdice::GameKind::GameFile)
        .map(|k| k.name())
        .collect();
    assert_eq!(names, listed);
    assert_eq!(
        names[..14],
        [
            "sig-wa-duqqan",
            "sig-el-oued",
            "issiren",
            "sig-el-oued-capture",
            "siryu-race",
            "sig-wa-duqqan-houmt-taourit",
            "siryu-war",
            "sig-mzab",
            "sig-tozeur",
            "kioz",
            "tab",
            "sijat-el-taba",
            "es-sig",
            "sig-western-sahara"
        ]
    );
    assert_eq!(
        hello["games"][2]["players"],
        json!({"min": 2, "max": 2, "default": 2})
    );
    assert_eq!(
        hello["games"][0]["players"],
        json!({"min": 2, "max": 8, "default": 2})
    );
    // Sig (Western Sahara) is played by four unless told otherwise.
    assert_eq!(
        hello["games"][13]["players"],
        json!({"min": 2, "max": 4, "default": 4})
    );
    assert_eq!(hello["descriptions"]["field"], "description");
    assert!(hello["agents"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a["name"] == "random"));

    client.ok(json!({"cmd": "new_game", "game": "issiren", "seed": 3}));
    let before = client.ok(json!({"cmd": "state"}));
    let cases: &[(&[u8], &str)] = &[
        (b"{\"id\":", "malformed_json"),
        (b"{\"id\":1,\"cmd\":\"thro", "malformed_json"),
        (b"\xc3\x28", "malformed_json"),
        (b"null", "bad_request"),
        (b"\"hello\"", "bad_request"),
        (b"{\"cmd\":\"act\"}", "missing_field"),
        (b"{\"cmd\":\"act\",\"action\":7}", "wrong_type"),
        (b"{\"cmd\":\"throw\",\"marked\":\"3\"}", "wrong_type"),
        (b"{\"cmd\":\"throw\",\"marked\":7}", "impossible_throw"),
        (b"{\"cmd\":\"throw\",\"marked\":-1}", "wrong_type"),
        (
            b"{\"cmd\":\"agent_move\",\"agent\":\"wizard\"}",
            "throw_due",
        ),
        (b"{\"cmd\":\"undo\"}", "nothing_to_undo"),
        (
            b"{\"cmd\":\"load_state\",\"state\":[1,2,3]}",
            "invalid_state",
        ),
    ];
    for (line, code) in cases {
        let r = client.send_raw(line);
        assert_eq!(r["id"], Value::Null, "{r}");
        assert_eq!(
            r["error"]["code"],
            *code,
            "{}: {r}",
            String::from_utf8_lossy(line)
        );
    }
    let long = vec![b'['; stickdice_evaluation::protocol::MAX_LINE_BYTES + 1];
    assert_eq!(client.send_raw(&long)["error"]["code"], "line_too_long");
    assert_eq!(client.ok(json!({"cmd": "state"})), before);

    // A decision is due after a throw: now the agent and notation errors show.
    client.ok(json!({"cmd": "throw", "marked": 2}));
    client.refused(json!({"cmd": "throw"}), "decision_due");
    client.refused(json!({"cmd": "act", "action": "z9"}), "bad_notation");
    client.refused(json!({"cmd": "agent_move", "agent": "wizard"}), "bad_agent");
    client.refused(
        json!({"cmd": "agent_move", "agent": "random", "budget": {"depth": 2}}),
        "bad_agent",
    );
    client.refused(
        json!({"cmd": "agent_move", "agent": "random", "budget": 5}),
        "wrong_type",
    );
    // Two green sides up moves 2; no unmoved piece may move on it, so the only action is
    // a pass (docs/games/issiren.md: only g = 4 frees an unmoved piece).
    let after = client.ok(json!({"cmd": "state"}));
    assert_eq!(after["legal_actions"], json!(["pass"]));
    client.refused(json!({"cmd": "act", "action": "a1"}), "illegal_action");
    let asked = client.ok(json!({"cmd": "agent_move", "agent": "random", "analysis": true}));
    assert_eq!(asked["move"]["action"], "pass");
    assert_eq!(asked["move"]["applied"], false);
    assert_eq!(asked["move"]["analysis"], Value::Null);
    assert!(asked["move"]["time_ms"].as_f64().unwrap() >= 0.0);
    assert_eq!(
        client.ok(json!({"cmd": "state"})),
        after,
        "agent_move without apply changed the state"
    );
    client.quit();
}

#[test]
fn the_server_ends_at_the_end_of_its_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stickdice"))
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"{\"id\":1,\"cmd\":\"hello\"}\n\n{\"id\":2,\"cmd\":\"state\"}")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["id"], 2);
    assert_eq!(lines[1]["error"]["code"], "no_game");
}

#[test]
fn searching_agents_report_their_analysis() {
    let mut client = Client::start();
    client.ok(json!({"cmd": "new_game", "game": "issiren", "seed": 5}));
    // Free two pieces of P1 (4 green sides: move 1, throw again), then throw a 3: a choice
    // between the two freed pieces, a1 and b1 (docs/games/issiren.md).
    client.ok(json!({"cmd": "throw", "marked": 4}));
    client.ok(json!({"cmd": "act", "action": "a1"}));
    client.ok(json!({"cmd": "throw", "marked": 4}));
    let view = client.ok(json!({"cmd": "state"}));
    let freed = view["legal_actions"].as_array().unwrap().clone();
    client.ok(json!({"cmd": "act", "action": freed[0]}));
    let view = client.ok(json!({"cmd": "throw", "marked": 3}));
    let legal = view["legal_actions"].clone();
    assert_eq!(legal.as_array().unwrap().len(), 2, "{legal}");
    let r = client.ok(json!({
        "cmd": "agent_move", "agent": "mcts:iterations=100", "budget": {"iterations": 300},
        "analysis": true,
    }));
    let m = &r["move"];
    assert_eq!(m["agent"], "mcts:iterations=300");
    let analysis = m["analysis"].as_array().expect("MCTS analyses");
    let actions: Vec<&Value> = analysis.iter().map(|a| &a["action"]).collect();
    assert_eq!(json!(actions), legal);
    // Every iteration goes through exactly one root action.
    let visits: u64 = analysis.iter().map(|a| a["visits"].as_u64().unwrap()).sum();
    assert_eq!(visits, 300);
    for a in analysis {
        let v = a["value"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&v), "{a}");
    }
    // The chosen action is a most visited one.
    let max = analysis.iter().map(|a| a["visits"].as_u64().unwrap()).max();
    let chosen = analysis
        .iter()
        .find(|a| a["action"] == m["action"])
        .unwrap();
    assert_eq!(chosen["visits"].as_u64(), max);
    // Agents that do not analyse say so with null.
    let r = client.ok(json!({"cmd": "agent_move", "agent": "greedy", "analysis": true}));
    assert_eq!(r["move"]["analysis"], Value::Null);
    assert!(legal.as_array().unwrap().contains(&r["move"]["action"]));
    client.quit();
}
