//! A bounded fuzz of `stickdice serve` through its real pipe (issue 25): request lines
//! drawn from a corpus of good requests and damaged (bytes flipped, cut, spliced, invalid
//! UTF-8, NUL, deep nesting, huge numbers, lines beyond the line limit). Each line must get
//! exactly one JSON response echoing its id, never an `internal` error, within 30 s; the
//! server must answer `hello` at the end. Seeded (reproducible), bounded in count and
//! time; it prints its counts. (`tests/protocol_props.rs` fuzzes the server in process.)

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;
use stickdice_evaluation::protocol::MAX_LINE_BYTES;

use crate::common;

/// SplitMix64, seeded: the fuzz reproduces from its seed.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const CORPUS: &[&str] = &[
    r#"{"id":1,"cmd":"hello"}"#,
    r#"{"id":2,"cmd":"new_game","game":"issiren"}"#,
    r#"{"id":3,"cmd":"new_game","game":"issiren","seed":7,"options":{"max_throws":40}}"#,
    r#"{"id":4,"cmd":"new_game","game":"sig-el-oued","players":3}"#,
    r#"{"id":5,"cmd":"new_game","game":"sig-wa-duqqan","players":8,"seed":1}"#,
    r#"{"id":6,"cmd":"state"}"#,
    r#"{"id":7,"cmd":"throw"}"#,
    r#"{"id":8,"cmd":"throw","marked":3}"#,
    r#"{"id":9,"cmd":"act","action":"pass"}"#,
    r#"{"id":10,"cmd":"act","action":"a1"}"#,
    r#"{"id":11,"cmd":"act","action":"use"}"#,
    r#"{"id":12,"cmd":"agent_move","agent":"random","time_limit_ms":200}"#,
    r#"{"id":13,"cmd":"agent_move","agent":"mcts:iterations=300","analysis":true,"apply":false,"time_limit_ms":200}"#,
    r#"{"id":14,"cmd":"agent_move","agent":"greedy:eval=/dev/zero","time_limit_ms":200}"#,
    r#"{"id":15,"cmd":"agent_move","agent":"expectimax:depth=2","seed":3,"time_limit_ms":200}"#,
    r#"{"id":16,"cmd":"undo","steps":2}"#,
    r#"{"id":17,"cmd":"undo","steps":18446744073709551615}"#,
    r#"{"id":"x","cmd":"cancel"}"#,
    r#"{"id":18,"cmd":"load_state","state":"{}"}"#,
    r#"{"id":19,"cmd":"new_game","game":"issiren","options":{"colour":"red"}}"#,
    r#"{"id":20,"cmd":"agent_move","agent":"mcts:tablebase=build","time_limit_ms":200}"#,
    r#"[1,2,3]"#,
    r#"{"cmd":"hello","id":1e400}"#,
    r#"{"id":null,"cmd":"state","id":2}"#,
];

/// One line to send: a corpus line, maybe damaged. Never a line break inside, never
/// `quit`, never blank (a blank line gets no response).
fn fuzz_line(rng: &mut Mix) -> Vec<u8> {
    let mut line = CORPUS[rng.below(CORPUS.len())].as_bytes().to_vec();
    match rng.below(12) {
        0 | 1 => {
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(line.len());
                line[i] = rng.next() as u8;
            }
        }
        2 => line.truncate(1 + rng.below(line.len())),
        3 => {
            let other = CORPUS[rng.below(CORPUS.len())].as_bytes();
            let (a, b) = (rng.below(line.len()), rng.below(other.len()));
            line.truncate(a);
            line.extend_from_slice(&other[b..]);
        }
        4 => {
            let i = rng.below(line.len());
            line.splice(i..i, [0xff, 0xfe, 0x00, 0xc3]);
        }
        5 => {
            let depth = 1 + rng.below(100_000);
            line = format!(
                r#"{{"id":1,"cmd":"hello","x":{}{}}}"#,
                "[".repeat(depth),
                "]".repeat(depth)
            )
            .into_bytes();
        }
        6 => {
            let digits = 1 + rng.below(5000);
            line = format!(
                r#"{{"id":{},"cmd":"undo","steps":{}}}"#,
                "9".repeat(digits),
                "9".repeat(digits)
            )
            .into_bytes();
        }
        7 if rng.below(10) == 0 => {
            // Beyond the line limit (a few of these: they are large).
            line = format!(
                r#"{{"id":1,"cmd":"hello","pad":"{}"}}"#,
                "a".repeat(MAX_LINE_BYTES + rng.below(1000))
            )
            .into_bytes();
        }
        8 => line.splice(0..0, "\u{feff}".bytes()).for_each(drop),
        9 => line.extend_from_slice(b"\r"),
        _ => {}
    }
    for b in &mut line {
        if *b == b'\n' {
            *b = b' ';
        }
    }
    let text = String::from_utf8_lossy(&line);
    if line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) || text.contains("quit") {
        return CORPUS[0].as_bytes().to_vec();
    }
    line
}

/// The id a response must echo: the request's `id` when the line is a JSON object with a
/// number or string id, named once (a byte-order mark at the start ignored).
fn expected_id(line: &[u8]) -> Option<Value> {
    let line = line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line);
    // A request naming a field twice is refused without an id (the protocol reads each
    // field once).
    // A line over the limit is refused unread, without an id.
    if line.len() > MAX_LINE_BYTES || String::from_utf8_lossy(line).matches("\"id\"").count() > 1 {
        return None;
    }
    match serde_json::from_slice::<Value>(line) {
        Ok(Value::Object(map)) => match map.get("id") {
            Some(id @ (Value::Number(_) | Value::String(_))) => Some(id.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// A response as JSON. An id beyond a 64-bit float (`1e400`, a 5000-digit number) comes back
/// as written, which `Value` cannot hold: it is then read as its text.
fn parse_response(response: &str) -> serde_json::Result<Value> {
    serde_json::from_str(response).or_else(|e| {
        let raw: std::collections::BTreeMap<String, Box<serde_json::value::RawValue>> =
            serde_json::from_str(response).map_err(|_| e)?;
        raw.into_iter()
            .map(|(k, v)| {
                let value = match serde_json::from_str(v.get()) {
                    Ok(value) => value,
                    Err(e) if k != "id" => return Err(e),
                    Err(_) => Value::String(v.get().to_string()),
                };
                Ok((k, value))
            })
            .collect::<serde_json::Result<serde_json::Map<_, _>>>()
            .map(Value::Object)
    })
}

#[test]
fn fuzzed_lines_each_get_one_well_formed_response() {
    const LINES: usize = 4000;
    const BUDGET: Duration = Duration::from_secs(120);
    let mut child = common::bin()
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        for line in stdout.lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut rng = Mix(0xf022_0025);
    let start = Instant::now();
    let (mut sent, mut ok, mut errors) = (
        0usize,
        0usize,
        std::collections::BTreeMap::<String, usize>::new(),
    );
    while sent < LINES && start.elapsed() < BUDGET {
        let line = fuzz_line(&mut rng);
        stdin.write_all(&line).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
        sent += 1;
        let what = || {
            format!(
                "line #{sent}: {:?}",
                String::from_utf8_lossy(&line[..line.len().min(300)])
            )
        };
        let response = rx
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|e| panic!("{}: no response in 30 s ({e})", what()));
        let v: Value =
            parse_response(&response).unwrap_or_else(|e| panic!("{}: {e}: {response}", what()));
        let obj = v
            .as_object()
            .unwrap_or_else(|| panic!("{}: {response}", what()));
        if let Some(id) = expected_id(&line) {
            // A request refused as a whole (a field named twice) may answer without its id.
            let whole = v["error"]["code"] == "bad_request" && v["id"].is_null();
            if !whole {
                assert_eq!(obj.get("id"), Some(&id), "{}: {response}", what());
            }
        }
        match obj.get("ok") {
            Some(Value::Bool(true)) => ok += 1,
            Some(Value::Bool(false)) => {
                let code = obj["error"]["code"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{}: {response}", what()));
                assert_ne!(code, "internal", "{}: {response}", what());
                *errors.entry(code.to_string()).or_default() += 1;
            }
            _ => panic!("{}: {response}", what()),
        }
    }
    // Nothing more comes than one response per line, and the server still answers.
    stdin
        .write_all(b"{\"id\":\"end\",\"cmd\":\"hello\"}\n")
        .unwrap();
    stdin.flush().unwrap();
    let last: Value =
        serde_json::from_str(&rx.recv_timeout(Duration::from_secs(30)).unwrap()).unwrap();
    assert_eq!(
        (last["id"].as_str(), last["ok"].as_bool()),
        (Some("end"), Some(true)),
        "{last}"
    );
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success(), "serve exited with {status}");
    assert!(
        rx.recv_timeout(Duration::from_secs(5)).is_err(),
        "an extra response"
    );
    reader.join().unwrap();
    println!(
        "fuzzed {sent} protocol lines in {:.1} s: {ok} ok, errors {errors:?}",
        start.elapsed().as_secs_f64()
    );
    assert!(sent >= 500, "only {sent} lines in the time budget");
}
