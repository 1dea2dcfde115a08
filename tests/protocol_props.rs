//! The `stickdice serve` protocol in process (docs/protocol.md): random, malformed and
//! truncated request lines each get exactly one well-formed response echoing the id, and
//! an error leaves the session exactly as it was. The subprocess conformance suite is
//! `cli/tests/protocol_conformance.rs`.

use proptest::prelude::*;
use serde_json::{json, Value};
use stickdice_evaluation::protocol::{serve, ErrorCode, Server, COMMANDS, MAX_LINE_BYTES};

/// The codes a response may carry (`internal` is a bug, so it is not among them).
fn known_code(code: &str) -> bool {
    code != "internal" && ErrorCode::ALL.iter().any(|c| c.as_str() == code)
}

/// Whether the line is blank in the protocol's sense (only spaces, tabs and CRs).
fn is_blank(bytes: &[u8]) -> bool {
    without_bom(bytes)
        .iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

/// A line without the UTF-8 byte-order mark the protocol ignores at its start.
fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes)
}

/// The id a response must echo: the request's `id` when the line is a JSON object.
fn expected_id(bytes: &[u8]) -> Value {
    match serde_json::from_slice::<Value>(without_bom(bytes)) {
        Ok(Value::Object(map)) => map.get("id").cloned().unwrap_or(Value::Null),
        _ => Value::Null,
    }
}

/// Sends one line and checks the response's shape; returns it, or `None` for a blank line.
fn exchange(server: &mut Server, bytes: &[u8]) -> Option<Value> {
    let before = server.clone();
    let reply = server.handle_bytes(bytes);
    if is_blank(bytes) {
        assert!(reply.is_none(), "a blank line got a response");
        assert_eq!(*server, before);
        return None;
    }
    let reply = reply.expect("every request gets a response");
    assert!(!reply.line.contains('\n'), "a response is one line");
    let v: Value = serde_json::from_str(&reply.line).expect("a response is JSON");
    let obj = v.as_object().expect("a response is an object");
    assert_eq!(
        obj["id"],
        expected_id(bytes),
        "id not echoed: {}",
        reply.line
    );
    match obj["ok"] {
        Value::Bool(true) => {
            assert_eq!(obj.len(), 3, "{}", reply.line);
            assert!(obj["result"].is_object(), "{}", reply.line);
        }
        Value::Bool(false) => {
            assert_eq!(obj.len(), 3, "{}", reply.line);
            let err = obj["error"].as_object().expect("error is an object");
            let code = err["code"].as_str().expect("code is a string");
            assert!(known_code(code), "unexpected code in {}", reply.line);
            let message = err["message"].as_str().expect("message is a string");
            assert!(!message.is_empty());
            assert!(!reply.quit);
            assert_eq!(
                *server, before,
                "an error changed the session: {}",
                reply.line
            );
        }
        _ => panic!("`ok` is not a boolean: {}", reply.line),
    }
    Some(v)
}

fn state(server: &mut Server) -> Option<Value> {
    let r = exchange(server, br#"{"cmd":"state"}"#).unwrap();
    r["ok"].as_bool().unwrap().then(|| r["result"].clone())
}

/// One step of a random session.
#[derive(Clone, Debug)]
enum Step {
    /// Raw bytes, sent as they are.
    Bytes(Vec<u8>),
    /// A line of text.
    Line(String),
    /// A request, possibly cut short after `cut` bytes.
    Request(Value, Option<usize>),
    /// The `i`-th legal action (modulo their number), when one is due.
    LegalAct(usize),
    /// An engine throw.
    Throw,
    /// An agent move, applied.
    AgentMove,
    /// `load_state` of the current state with its `i`-th number replaced by `value`
    /// (often breaking a rule, sometimes not), or unchanged when `value` is `None`.
    LoadChanged(usize, Option<i64>),
}

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        (0u64..10).prop_map(|n| json!(n)),
        any::<f64>().prop_map(|x| json!(x)),
        "[a-z0-9=:,_ -]{0,12}".prop_map(Value::String),
        prop::sample::select(vec![
            "issiren",
            "sig-wa-duqqan",
            "sig-el-oued",
            "random",
            "random:depth=2",
            "pass",
            "a1",
            "l4",
            "use",
            "decline",
            "max_throws=3",
            "{}",
        ])
        .prop_map(|s| Value::String(s.to_string())),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::vec(("[a-z_]{1,8}", inner), 0..3)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// A value for a field: mostly of the kind the field takes (valid or not), sometimes anything.
fn field_value(key: &'static str) -> BoxedStrategy<Value> {
    let typed: BoxedStrategy<Value> = match key {
        "game" => prop::sample::select(vec!["issiren", "sig-wa-duqqan", "sig-el-oued", "chess"])
            .prop_map(|s| json!(s))
            .boxed(),
        "players" | "marked" | "steps" => (0u64..10).prop_map(|n| json!(n)).boxed(),
        "seed" => any::<u64>().prop_map(|n| json!(n)).boxed(),
        "options" => prop_oneof![
            (0u64..50).prop_map(|n| json!({ "max_throws": n })),
            any::<bool>().prop_map(|b| json!({ "cairo_always_three": b })),
            any::<bool>().prop_map(|b| json!({ "exact_waiting_square": b })),
            Just(json!(["max_throws=3"])),
            Just(json!(["max_throws"])),
        ]
        .boxed(),
        "action" => prop_oneof![
            prop::sample::select(vec!["pass", "use", "decline", "z9", "", "a0"])
                .prop_map(|s| json!(s)),
            ("[a-l]", 1u8..5).prop_map(|(c, r)| json!(format!("{c}{r}"))),
        ]
        .boxed(),
        "agent" => {
            prop::sample::select(vec!["random", "random:x=1", "wizard", "", "a b", "random:"])
                .prop_map(|s| json!(s))
                .boxed()
        }
        "budget" => prop::sample::select(vec![
            json!({}),
            json!({"iterations": 10}),
            json!({"x": [1]}),
        ])
        .boxed(),
        "analysis" | "apply" => any::<bool>().prop_map(Value::Bool).boxed(),
        _ => any_json().boxed(),
    };
    prop_oneof![4 => typed, 1 => any_json()].boxed()
}

/// A request of a random command with some of its fields (and now and then a field it
/// does not take, a misspelt command or none).
fn request() -> impl Strategy<Value = Value> {
    let command = prop::sample::select(COMMANDS.to_vec()).prop_flat_map(|(cmd, keys)| {
        let fields: Vec<BoxedStrategy<Option<(&'static str, Value)>>> = keys
            .iter()
            .map(|&k| prop::option::of(field_value(k).prop_map(move |v| (k, v))).boxed())
            .collect();
        (Just(cmd), fields)
    });
    (
        prop::option::of(any_json()),
        command,
        prop::option::weighted(0.05, prop::sample::select(vec!["Hello", "", "cmd"])),
        prop::option::weighted(0.05, ("[a-z_]{1,6}", any_json())),
    )
        .prop_map(|(id, (cmd, fields), bad_cmd, extra)| {
            let mut map = serde_json::Map::new();
            if let Some(id) = id {
                map.insert("id".into(), id);
            }
            match bad_cmd {
                Some("cmd") => {}
                Some(other) => {
                    map.insert("cmd".into(), json!(other));
                }
                None => {
                    map.insert("cmd".into(), json!(cmd));
                }
            }
            for (k, v) in fields.into_iter().flatten() {
                map.insert(k.into(), v);
            }
            if let Some((k, v)) = extra {
                map.insert(k, v);
            }
            Value::Object(map)
        })
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..40).prop_map(Step::Bytes),
        1 => ".{0,40}".prop_map(Step::Line),
        1 => any_json().prop_map(|v| Step::Line(v.to_string())),
        4 => (request(), prop::option::of(any::<usize>())).prop_map(|(r, c)| Step::Request(r, c)),
        3 => any::<usize>().prop_map(Step::LegalAct),
        3 => Just(Step::Throw),
        1 => Just(Step::AgentMove),
        2 => (any::<usize>(), prop::option::weighted(0.8, -2i64..40)).prop_map(|(i, v)| Step::LoadChanged(i, v)),
    ]
}

fn new_game() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(vec![
            ("sig-wa-duqqan", 2usize, 8usize),
            ("sig-el-oued", 2, 8),
            ("issiren", 2, 2),
        ]),
        0usize..7,
        any::<u64>(),
        prop::sample::select(vec![5u32, 40, 10_000]),
    )
        .prop_map(|((game, min, max), extra, seed, cap)| {
            json!({
                "id": "start",
                "cmd": "new_game",
                "game": game,
                "players": (min + extra).min(max),
                "seed": seed,
                "options": { "max_throws": cap },
            })
        })
}

/// Every number in a JSON value, to change one.
fn collect_numbers<'a>(v: &'a mut Value, out: &mut Vec<&'a mut Value>) {
    match v {
        Value::Number(_) => out.push(v),
        Value::Array(items) => items.iter_mut().for_each(|x| collect_numbers(x, out)),
        Value::Object(map) => map.values_mut().for_each(|x| collect_numbers(x, out)),
        _ => {}
    }
}

fn run_step(server: &mut Server, step: &Step) -> bool {
    let bytes: Vec<u8> = match step {
        Step::Bytes(b) => b.clone(),
        Step::Line(s) => s.clone().into_bytes(),
        Step::Request(r, cut) => {
            let text = r.to_string();
            let mut end = cut.map_or(text.len(), |c| c % (text.len() + 1));
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.as_bytes()[..end].to_vec()
        }
        Step::LegalAct(i) => {
            let action = state(server).and_then(|v| {
                let legal = v["legal_actions"].as_array()?.clone();
                (!legal.is_empty()).then(|| legal[i % legal.len()].clone())
            });
            json!({"id": 0, "cmd": "act", "action": action})
                .to_string()
                .into_bytes()
        }
        Step::Throw => br#"{"id":1,"cmd":"throw"}"#.to_vec(),
        Step::AgentMove => br#"{"id":2,"cmd":"agent_move","agent":"random","apply":true}"#.to_vec(),
        Step::LoadChanged(i, value) => {
            let mut st = state(server).map_or(json!({}), |v| v["state"].clone());
            if let Some(value) = value {
                let mut numbers = Vec::new();
                collect_numbers(&mut st, &mut numbers);
                if !numbers.is_empty() {
                    let n = numbers.len();
                    *numbers.swap_remove(i % n) = json!(value);
                }
            }
            json!({"id": 3, "cmd": "load_state", "state": st})
                .to_string()
                .into_bytes()
        }
    };
    // A line break would make two requests; the protocol reads lines.
    let bytes: Vec<u8> = bytes.into_iter().filter(|&b| b != b'\n').collect();
    match exchange(server, &bytes) {
        Some(r) if r["ok"] == true => {
            let quit = serde_json::from_slice::<Value>(without_bom(&bytes))
                .ok()
                .and_then(|v| v.get("cmd").cloned())
                == Some(json!("quit"));
            !quit
        }
        _ => true,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn every_line_gets_one_well_formed_response_and_errors_change_nothing(
        start in prop::option::weighted(0.85, new_game()),
        steps in prop::collection::vec(step(), 1..40),
    ) {
        let mut server = Server::new();
        if let Some(start) = start {
            let r = exchange(&mut server, start.to_string().as_bytes()).unwrap();
            prop_assert_eq!(&r["ok"], &json!(true), "{}", r);
        }
        for step in &steps {
            if !run_step(&mut server, step) {
                break;
            }
        }
    }
}

#[test]
fn errors_name_their_cause() {
    let mut server = Server::new();
    let cases: &[(&str, Value, &str)] = &[
        ("{", Value::Null, "malformed_json"),
        ("[1,2]", Value::Null, "bad_request"),
        (r#"{"id":7}"#, json!(7), "missing_field"),
        (r#"{"id":"a","cmd":3}"#, json!("a"), "wrong_type"),
        (r#"{"id":[1],"cmd":"fly"}"#, json!([1]), "unknown_command"),
        (r#"{"id":1,"cmd":"hello","x":1}"#, json!(1), "unknown_field"),
        (r#"{"id":1,"cmd":"state"}"#, json!(1), "no_game"),
        (r#"{"id":1,"cmd":"new_game"}"#, json!(1), "missing_field"),
        (
            r#"{"id":1,"cmd":"new_game","game":"chess"}"#,
            json!(1),
            "bad_config",
        ),
        (
            r#"{"id":1,"cmd":"new_game","game":"issiren","players":3}"#,
            json!(1),
            "bad_config",
        ),
        (
            r#"{"id":1,"cmd":"new_game","game":"issiren","seed":-1}"#,
            json!(1),
            "wrong_type",
        ),
        (
            r#"{"id":1,"cmd":"new_game","game":"issiren","options":{"colour":"red"}}"#,
            json!(1),
            "bad_config",
        ),
    ];
    for (line, id, code) in cases {
        let r = exchange(&mut server, line.as_bytes()).unwrap();
        assert_eq!(&r["id"], id, "{line}");
        assert_eq!(r["error"]["code"], *code, "{line}: {r}");
    }
    assert_eq!(
        exchange(&mut server, b"\xff\xfe{}").unwrap()["error"]["code"],
        "malformed_json"
    );
}

#[test]
fn a_game_refuses_what_is_not_due_and_undo_restores_states() {
    let mut server = Server::new();
    let r = exchange(
        &mut server,
        br#"{"id":1,"cmd":"new_game","game":"sig-wa-duqqan","players":3,"seed":9}"#,
    )
    .unwrap();
    assert_eq!(r["ok"], true, "{r}");
    let start = r["result"].clone();
    // Sig wa Duqqan: no decisions, P1 throws first (the rules' conventions: seat 0 throws first).
    assert_eq!(start["node"], json!({"kind": "throw", "seat": 0}));
    assert_eq!(start["players"], 3);
    assert_eq!(start["undo_steps"], 0);
    assert_eq!(start["legal_actions"], json!([]));
    // Four sticks: C(4,k)/16.
    let probs: Vec<f64> = start["throw_outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["probability"].as_f64().unwrap() * 16.0)
        .collect();
    assert_eq!(probs, [1.0, 4.0, 6.0, 4.0, 1.0]);
    let code = |r: &Value| r["error"]["code"].as_str().unwrap_or("").to_string();
    let r = exchange(&mut server, br#"{"id":2,"cmd":"act","action":"pass"}"#).unwrap();
    assert_eq!(code(&r), "throw_due");
    let r = exchange(&mut server, br#"{"id":3,"cmd":"throw","marked":5}"#).unwrap();
    assert_eq!(code(&r), "impossible_throw");
    let r = exchange(&mut server, br#"{"id":3,"cmd":"throw","marked":300}"#).unwrap();
    assert_eq!(code(&r), "impossible_throw");
    let r = exchange(&mut server, br#"{"id":4,"cmd":"undo"}"#).unwrap();
    assert_eq!(code(&r), "nothing_to_undo");
    // A sig (one white side up) takes P1's piece off the start and grants an extra throw.
    let r = exchange(&mut server, br#"{"id":5,"cmd":"throw","marked":1}"#).unwrap();
    assert_eq!(r["result"]["thrown"]["source"], "client");
    assert_eq!(r["result"]["thrown"]["seat"], 0);
    assert_eq!(r["result"]["node"], json!({"kind": "throw", "seat": 0}));
    assert_eq!(r["result"]["undo_steps"], 1);
    // A 2 (value 0) ends the turn: P2 throws next.
    let r = exchange(&mut server, br#"{"id":6,"cmd":"throw","marked":2}"#).unwrap();
    assert_eq!(r["result"]["node"], json!({"kind": "throw", "seat": 1}));
    let r = exchange(&mut server, br#"{"id":7,"cmd":"undo","steps":3}"#).unwrap();
    assert_eq!(code(&r), "nothing_to_undo");
    let r = exchange(&mut server, br#"{"id":8,"cmd":"undo","steps":0}"#).unwrap();
    assert_eq!(code(&r), "bad_value");
    let r = exchange(&mut server, br#"{"id":9,"cmd":"undo","steps":2}"#).unwrap();
    assert_eq!(r["result"]["undone"], 2);
    let mut back = r["result"].clone();
    back.as_object_mut().unwrap().remove("undone");
    assert_eq!(back, start);
    // Loading the start state is a step; a broken state is refused.
    let load = json!({"id": 10, "cmd": "load_state", "state": start["state"]});
    let r = exchange(&mut server, load.to_string().as_bytes()).unwrap();
    assert_eq!(r["result"]["undo_steps"], 1, "{r}");
    let r = exchange(
        &mut server,
        br#"{"id":11,"cmd":"load_state","state":{"nonsense":true}}"#,
    )
    .unwrap();
    assert_eq!(code(&r), "invalid_state");
    let r = exchange(&mut server, br#"{"id":12,"cmd":"load_state","state":"{"}"#).unwrap();
    assert_eq!(code(&r), "invalid_state");
    let r = exchange(
        &mut server,
        br#"{"id":13,"cmd":"agent_move","agent":"random"}"#,
    )
    .unwrap();
    assert_eq!(code(&r), "throw_due");
}

#[test]
fn serve_answers_line_by_line_and_stops_at_quit() {
    let mut input = Vec::new();
    input.extend_from_slice(b"{\"id\":1,\"cmd\":\"hello\"}\r\n\n   \n");
    input.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
    input.extend_from_slice(b"\n{\"id\":2,\"cmd\":\"state\"}\n{\"id\":3,\"cmd\":\"quit\"}\n");
    input.extend_from_slice(b"{\"id\":4,\"cmd\":\"hello\"}\n");
    let mut output = Vec::new();
    serve(std::io::Cursor::new(input), &mut output).unwrap();
    let lines: Vec<Value> = String::from_utf8(output)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(lines[0]["result"]["protocol"], "stickdice-serve");
    assert_eq!(lines[1]["error"]["code"], "line_too_long");
    assert_eq!(lines[2]["id"], 2);
    assert_eq!(lines[2]["error"]["code"], "no_game");
    assert_eq!(lines[3], json!({"id": 3, "ok": true, "result": {}}));

    // The last line needs no line break; the end of input ends the session.
    let mut output = Vec::new();
    serve(&b"{\"id\":5,\"cmd\":\"hello\"}"[..], &mut output).unwrap();
    assert_eq!(String::from_utf8(output).unwrap().lines().count(), 1);
}

#[test]
fn the_specification_lists_every_error_code_and_command() {
    let spec = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/protocol.md"))
        .expect("docs/protocol.md");
    for code in ErrorCode::ALL {
        assert!(
            spec.contains(&format!("| `{}` |", code.as_str())),
            "docs/protocol.md does not list the error code {}",
            code.as_str()
        );
    }
    for (cmd, fields) in COMMANDS {
        assert!(
            spec.contains(&format!("### `{cmd}`")),
            "no section on {cmd}"
        );
        for field in *fields {
            assert!(
                spec.contains(&format!("| `{field}` |")),
                "docs/protocol.md does not describe the field {field} of {cmd}"
            );
        }
    }
}
