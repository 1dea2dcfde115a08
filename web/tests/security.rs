//! What a security-minded reviewer of a local web server checks (issue 25): the headers of
//! every response, size limits, encoded path tricks, cross-origin preflights, and two
//! bounded fuzzers: random requests on every route in process, and malformed raw HTTP over
//! a real socket on the loopback address (127.0.0.1 only). Both are bounded in count and
//! time, seeded (reproducible), and print their counts.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::Value;
use stickdice_evaluation::protocol::MAX_LINE_BYTES;
use stickdice_web::{router, AppState};
use tower::ServiceExt;

/// A fresh folder of this test process. Numbered per call: the tests run in parallel and
/// several ask for the same name, so a shared folder would be removed under another test.
fn temp_dir(name: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!(
        "stickdice-web-security-{}-{n}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A served tournament folder with a report file and an SVG that holds a script.
fn served() -> (Router, PathBuf) {
    let dir = temp_dir("served");
    std::fs::write(dir.join("games.jsonl"), "").unwrap();
    std::fs::write(dir.join("report.md"), "# report").unwrap();
    std::fs::write(
        dir.join("ratings.svg"),
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>",
    )
    .unwrap();
    let app = router(AppState::new(vec![dir.clone()], temp_dir("save")));
    (app, dir)
}

struct Answer {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    body: Vec<u8>,
}

impl Answer {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(|v| v.to_str().unwrap())
    }
}

async fn send(
    app: &Router,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
) -> Answer {
    let mut req = Request::builder().method(method).uri(uri);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let req = req.body(Body::from(body)).unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let body = res.into_body().collect().await.unwrap().to_bytes().to_vec();
    Answer {
        status,
        headers,
        body,
    }
}

/// The headers every response must carry, whatever its route and status.
fn assert_hardened(a: &Answer, what: &str) {
    assert_eq!(
        a.header("x-content-type-options"),
        Some("nosniff"),
        "{what}"
    );
    assert_eq!(a.header("x-frame-options"), Some("DENY"), "{what}");
    assert_eq!(a.header("referrer-policy"), Some("no-referrer"), "{what}");
    let csp = a.header("content-security-policy").unwrap_or_default();
    assert!(csp.contains("frame-ancestors 'none'"), "{what}: {csp}");
    // Never CORS: no page of another site may read an answer.
    assert!(a.header("access-control-allow-origin").is_none(), "{what}");
    assert!(
        a.header("access-control-allow-credentials").is_none(),
        "{what}"
    );
    assert!(
        a.status.is_informational() || a.header("content-type").is_some() || a.body.is_empty(),
        "{what}: a body without a Content-Type"
    );
}

/// A request and what it must get: method, path, headers, body, status, content type.
type Case<'a> = (
    &'a str,
    &'a str,
    &'a [(&'a str, &'a str)],
    &'a str,
    StatusCode,
    &'a str,
);

#[tokio::test]
async fn every_response_carries_the_security_headers_and_its_content_type() {
    let (app, _dir) = served();
    let cases: &[Case<'_>] = &[
        (
            "GET",
            "/",
            &[],
            "",
            StatusCode::OK,
            "text/html; charset=utf-8",
        ),
        (
            "GET",
            "/assets/app.js",
            &[],
            "",
            StatusCode::OK,
            "text/javascript; charset=utf-8",
        ),
        (
            "GET",
            "/assets/style.css",
            &[],
            "",
            StatusCode::OK,
            "text/css; charset=utf-8",
        ),
        (
            "GET",
            "/api/hello",
            &[],
            "",
            StatusCode::OK,
            "application/json",
        ),
        (
            "GET",
            "/api/tournaments",
            &[],
            "",
            StatusCode::OK,
            "application/json",
        ),
        (
            "GET",
            "/api/nothing",
            &[],
            "",
            StatusCode::NOT_FOUND,
            "application/json",
        ),
        (
            "GET",
            "/nothing",
            &[],
            "",
            StatusCode::NOT_FOUND,
            "text/html; charset=utf-8",
        ),
        (
            "GET",
            "/api/hello",
            &[("host", "evil.example.com")],
            "",
            StatusCode::FORBIDDEN,
            "application/json",
        ),
        (
            "POST",
            "/api/session",
            &[("content-type", "text/plain")],
            "{}",
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "application/json",
        ),
        (
            "POST",
            "/api/session",
            &[("content-type", "application/json")],
            "",
            StatusCode::OK,
            "application/json",
        ),
    ];
    for (method, uri, headers, body, status, mime) in cases {
        let a = send(&app, method, uri, headers, body.as_bytes().to_vec()).await;
        let what = format!("{method} {uri} {headers:?}");
        assert_eq!(a.status, *status, "{what}: {}", a.text());
        assert_eq!(a.header("content-type"), Some(*mime), "{what}");
        assert_hardened(&a, &what);
        if !uri.contains("/files/") {
            let csp = a.header("content-security-policy").unwrap();
            assert!(
                csp.contains("default-src 'self'") && csp.contains("object-src 'none'"),
                "{csp}"
            );
        }
    }
}

#[tokio::test]
async fn a_report_file_runs_nothing_when_opened_in_the_browser() {
    let (app, _dir) = served();
    let a = send(
        &app,
        "GET",
        "/api/tournaments/0/files/ratings.svg",
        &[],
        vec![],
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    assert_eq!(a.header("content-type"), Some("image/svg+xml"));
    assert_hardened(&a, "ratings.svg");
    // The SVG's script is served as data, in a sandbox without scripts.
    let csp = a.header("content-security-policy").unwrap();
    assert!(
        csp.contains("sandbox") && csp.contains("default-src 'none'"),
        "{csp}"
    );
    assert!(!csp.contains("script-src"), "{csp}");
}

#[tokio::test]
async fn bodies_beyond_the_protocols_line_limit_are_refused() {
    let (app, _dir) = served();
    let open = send(
        &app,
        "POST",
        "/api/session",
        &[("content-type", "application/json")],
        vec![],
    )
    .await;
    let id = serde_json::from_slice::<Value>(&open.body).unwrap()["session"].clone();
    let uri = format!(
        "/api/session/{}",
        id.as_str().map(str::to_string).unwrap_or(id.to_string())
    );
    let json = [("content-type", "application/json")];
    for size in [MAX_LINE_BYTES + 1, 4 * MAX_LINE_BYTES] {
        let mut body = br#"{"cmd":"hello","pad":""#.to_vec();
        body.resize(size - 2, b'x');
        body.extend_from_slice(b"\"}");
        let start = Instant::now();
        let a = send(&app, "POST", &uri, &json, body).await;
        assert_eq!(
            a.status,
            StatusCode::PAYLOAD_TOO_LARGE,
            "{size} bytes: {}",
            a.text()
        );
        assert_hardened(&a, "too large");
        assert!(start.elapsed() < Duration::from_secs(5));
    }
    // The session still answers a request of ordinary size.
    let a = send(&app, "POST", &uri, &json, br#"{"cmd":"hello"}"#.to_vec()).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
}

#[tokio::test]
async fn encoded_paths_reach_no_file_outside_the_folders() {
    let (app, dir) = served();
    let outside = dir.parent().unwrap().join(format!(
        "stickdice-web-security-{}-secret.md",
        std::process::id()
    ));
    std::fs::write(&outside, "TOPSECRET").unwrap();
    let secret = outside.file_name().unwrap().to_str().unwrap().to_string();
    let tricks = [
        format!("/api/tournaments/0/files/..%2F{secret}"),
        format!("/api/tournaments/0/files/%2E%2E%2F{secret}"),
        format!("/api/tournaments/0/files/..%5C{secret}"),
        "/api/tournaments/0/files/%2Fetc%2Fpasswd".to_string(),
        "/api/tournaments/0/files/report.md%00.svg".to_string(),
        "/api/tournaments/0/files/.%2Freport.md".to_string(),
        "/api/tournaments/0/files/games.jsonl".to_string(),
        "/api/tournaments/..%2F0/files/report.md".to_string(),
        "/api/tournaments/-1/files/report.md".to_string(),
        "/api/tournaments/18446744073709551616/files/report.md".to_string(),
        "/assets/..%2F..%2FCargo.toml".to_string(),
        "/assets/%2E%2E%2Fsrc%2Flib.rs".to_string(),
        "/assets/index.html%00".to_string(),
        "/..%2F..%2Fetc%2Fpasswd".to_string(),
    ];
    for uri in &tricks {
        let a = send(&app, "GET", uri, &[], vec![]).await;
        let text = a.text();
        assert!(a.status.is_client_error(), "{uri}: {} {text}", a.status);
        assert!(
            !text.contains("TOPSECRET") && !text.contains("root:") && !text.contains("[package]"),
            "{uri}: {text}"
        );
        assert_hardened(&a, uri);
    }
    let _ = std::fs::remove_file(outside);
}

#[tokio::test]
async fn cross_origin_preflights_and_methods_get_no_permission() {
    let (app, _dir) = served();
    let preflight = [
        ("origin", "http://evil.example.com"),
        ("access-control-request-method", "POST"),
        ("access-control-request-headers", "content-type"),
    ];
    for uri in ["/api/session", "/api/session/1", "/api/hello"] {
        let a = send(&app, "OPTIONS", uri, &preflight, vec![]).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{uri}: {}", a.text());
        assert_hardened(&a, uri);
    }
    // A same-origin OPTIONS or an unknown method is not allowed either (405), and says so.
    for method in ["OPTIONS", "PUT", "DELETE", "PATCH"] {
        let a = send(
            &app,
            method,
            "/api/session",
            &[("content-type", "application/json")],
            b"{}".to_vec(),
        )
        .await;
        assert_eq!(
            a.status,
            StatusCode::METHOD_NOT_ALLOWED,
            "{method}: {}",
            a.text()
        );
        assert_hardened(&a, method);
        // As JSON, as every API error (axum's own answer had no body).
        assert_eq!(
            a.header("content-type"),
            Some("application/json"),
            "{method}"
        );
        let v: Value = serde_json::from_slice(&a.body).unwrap();
        assert_eq!(v["error"]["code"], "method_not_allowed", "{v}");
    }
}

// ---- Bounded fuzzing --------------------------------------------------------------------

/// SplitMix64: a seeded generator of its own, so the fuzzers reproduce from their seed.
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
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

const SEGMENTS: &[&str] = &[
    "",
    "api",
    "session",
    "0",
    "1",
    "2",
    "999999999999999999999",
    "-1",
    "cancel",
    "save",
    "tournaments",
    "games",
    "review",
    "files",
    "report.md",
    "ratings.svg",
    "games.jsonl",
    "analysis",
    "hello",
    "geometry",
    "issiren",
    "sig-el-oued",
    "sig-wa-duqqan",
    "assets",
    "app.js",
    "index.html",
    "..",
    ".",
    "%2e%2e",
    "%2F",
    "%00",
    "%ff",
    "é",
    "%E2%80%AE",
    "a%20b",
    "con",
    "nul",
    "\u{202e}",
];

/// The server's routes, `{}` standing for a parameter.
const ROUTES: &[&str] = &[
    "/",
    "/assets/{}",
    "/api/hello",
    "/api/geometry/{}",
    "/api/session",
    "/api/session/{}",
    "/api/session/{}/cancel",
    "/api/session/{}/save",
    "/api/tournaments",
    "/api/tournaments/{}/games/{}",
    "/api/tournaments/{}/games/{}/review",
    "/api/tournaments/{}/files/{}",
    "/api/analysis",
];

const QUERIES: &[&str] = &[
    "",
    "?players=2",
    "?players=0",
    "?players=99999999999",
    "?players=-3",
    "?players=x",
    "?game=issiren&games=1",
    "?game=issiren&games=0",
    "?game=nope&games=1",
    "?game=sig-wa-duqqan&games=2&seed=18446744073709551615",
    "?game=issiren&games=1&baseline=greedy:eval=/dev/zero",
    "?game=issiren&games=1&baseline=random&option=max_throws=30",
    "?game=issiren&games=1&option=%FF",
    "?a=1&a=2&a=3",
    "?%%%",
    "?game=issiren&games=1&baseline=mcts:tablebase=build",
];

const BODIES: &[&str] = &[
    "",
    "{}",
    "[]",
    "null",
    "1",
    "\"x\"",
    "{\"cmd\":\"hello\"}",
    "{\"cmd\":\"state\"}",
    "{\"cmd\":\"new_game\",\"game\":\"issiren\"}",
    "{\"cmd\":\"new_game\",\"game\":\"sig-wa-duqqan\",\"players\":8}",
    "{\"cmd\":\"throw\"}",
    "{\"cmd\":\"throw\",\"marked\":3}",
    "{\"cmd\":\"legal_actions\"}",
    "{\"cmd\":\"apply\",\"action\":\"pass\"}",
    "{\"cmd\":\"undo\"}",
    "{\"cmd\":\"agent_move\",\"agent\":\"random\",\"time_limit_ms\":50}",
    "{\"cmd\":\"agent_move\",\"agent\":\"greedy:eval=/etc/passwd\",\"time_limit_ms\":50}",
    "{\"cmd\":\"agent_move\",\"agent\":\"mcts:iterations=200\",\"time_limit_ms\":50}",
    "{\"cmd\":\"quit\"}",
    "{\"cmd\":\"cancel\"}",
    "{\"cmd\":",
    "{\"cmd\":\"hello\"}{}",
    "{\"cmd\":\"new_game\",\"game\":\"issiren\",\"options\":{\"max_throws\":-1}}",
];

/// A random request: a route-like path, maybe junk, headers good and bad, a body that is
/// a protocol request, a damaged one, or bytes.
fn random_request(rng: &mut Mix) -> (String, String, Vec<(String, String)>, Vec<u8>) {
    let method = rng
        .pick(&[
            "GET", "GET", "POST", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH",
        ])
        .to_string();
    let mut path = String::new();
    if rng.below(3) > 0 {
        // A route of the server, with its parameters drawn from the segments.
        let route = rng.pick(ROUTES);
        for part in route.split('/').skip(1) {
            path.push('/');
            path.push_str(if part == "{}" {
                rng.pick(SEGMENTS)
            } else {
                part
            });
        }
    } else {
        for _ in 0..1 + rng.below(6) {
            path.push('/');
            path.push_str(rng.pick(SEGMENTS));
        }
    }
    let path = path
        .chars()
        .map(|c| {
            if c.is_ascii() && !c.is_ascii_control() && c != ' ' {
                c.to_string()
            } else {
                format!("%{:02X}", c as u32 & 0xff)
            }
        })
        .collect::<String>();
    let uri = format!("{path}{}", rng.pick(QUERIES));
    let mut headers = Vec::new();
    match rng.below(8) {
        0 => headers.push(("host".into(), "evil.example.com".into())),
        1 => headers.push(("host".into(), "127.0.0.1:8080".into())),
        2 => headers.push(("host".into(), "[::1]".into())),
        _ => {}
    }
    match rng.below(8) {
        0 => headers.push(("origin".into(), "http://evil.example.com".into())),
        1 => headers.push(("origin".into(), "null".into())),
        2 => headers.push(("sec-fetch-site".into(), "cross-site".into())),
        _ => {}
    }
    match rng.below(6) {
        0 => headers.push(("content-type".into(), "text/plain".into())),
        1 => headers.push((
            "content-type".into(),
            "application/x-www-form-urlencoded".into(),
        )),
        2..=4 => headers.push(("content-type".into(), "application/json".into())),
        _ => {}
    }
    let mut body = rng.pick(BODIES).as_bytes().to_vec();
    match rng.below(6) {
        0 if !body.is_empty() => {
            let i = rng.below(body.len());
            body[i] = rng.next() as u8;
        }
        1 if !body.is_empty() => body.truncate(rng.below(body.len())),
        2 => body.extend((0..rng.below(64)).map(|_| rng.next() as u8)),
        _ => {}
    }
    (method, uri, headers, body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fuzzed_requests_get_well_formed_answers_and_the_server_keeps_answering() {
    const REQUESTS: usize = 3000;
    const BUDGET: Duration = Duration::from_secs(120);
    let (app, _dir) = served();
    let mut rng = Mix(0x5eed_0025);
    let start = Instant::now();
    let (mut sent, mut by_class) = (0, [0usize; 6]);
    while sent < REQUESTS && start.elapsed() < BUDGET {
        let (method, uri, headers, body) = random_request(&mut rng);
        let Ok(req) = ({
            let mut r = Request::builder().method(method.as_str()).uri(uri.as_str());
            for (k, v) in &headers {
                r = r.header(k.as_str(), v.as_str());
            }
            r.body(Body::from(body.clone()))
        }) else {
            continue; // a URI the client library itself refuses
        };
        sent += 1;
        let what = format!(
            "#{sent} {method} {uri} {headers:?} {:?}",
            String::from_utf8_lossy(&body)
        );
        let res = tokio::time::timeout(Duration::from_secs(30), app.clone().oneshot(req))
            .await
            .unwrap_or_else(|_| panic!("{what}: no answer in 30 s"))
            .unwrap();
        let status = res.status();
        let headers = res.headers().clone();
        let bytes = res.into_body().collect().await.unwrap().to_bytes().to_vec();
        let a = Answer {
            status,
            headers,
            body: bytes,
        };
        by_class[(status.as_u16() / 100) as usize] += 1;
        assert_ne!(
            status,
            StatusCode::INTERNAL_SERVER_ERROR,
            "{what}: {}",
            a.text()
        );
        assert_hardened(&a, &what);
        if uri.starts_with("/api/") && status.is_client_error() && method != "HEAD" {
            let v: Value = serde_json::from_slice(&a.body)
                .unwrap_or_else(|e| panic!("{what}: {e}: {}", a.text()));
            assert_eq!(v["ok"], false, "{what}");
            assert!(
                v["error"]["code"].is_string() && v["error"]["message"].is_string(),
                "{what}: {v}"
            );
        }
    }
    // The server still answers.
    let a = send(&app, "GET", "/api/hello", &[], vec![]).await;
    assert_eq!(a.status, StatusCode::OK);
    println!(
        "fuzzed {sent} requests in {:.1} s: 2xx {}, 3xx {}, 4xx {}, 5xx {}",
        start.elapsed().as_secs_f64(),
        by_class[2],
        by_class[3],
        by_class[4],
        by_class[5]
    );
    assert!(sent >= 500, "only {sent} requests in the time budget");
}

/// Sends raw bytes on a fresh connection to `addr` and reads the answer until the server
/// closes the connection or `wait` passes without a byte (a cut request: the server waits
/// for the rest). The client does not half-close (hyper would drop the connection).
fn raw_exchange(addr: SocketAddr, bytes: &[u8], wait: Duration) -> Vec<u8> {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(wait)).unwrap();
    s.set_write_timeout(Some(Duration::from_secs(5))).unwrap();
    let _ = s.write_all(bytes);
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => return out,
            Ok(n) => out.extend_from_slice(&buf[..n]),
        }
    }
}

#[test]
fn malformed_raw_http_on_the_loopback_socket_never_stops_the_server() {
    const REQUESTS: usize = 300;
    const BUDGET: Duration = Duration::from_secs(120);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (app, _dir) = served();
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0)))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    assert!(addr.ip().is_loopback());
    runtime.spawn(async move { axum::serve(listener, app).await });

    let good = b"GET /api/hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    let mut rng = Mix(0xbad_4772);
    let templates: &[&[u8]] = &[
        good,
        b"POST /api/session HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
        b"POST /api/session/1 HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\n{\"cmd\r\n0\r\n\r\n",
        b"GET /api/tournaments/0/files/report.md HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
        b"GET / HTTP/1.0\r\n\r\n",
    ];
    let start = Instant::now();
    let (mut sent, mut answered, mut closed) = (0, 0, 0);
    while sent < REQUESTS && start.elapsed() < BUDGET {
        let mut bytes = rng.pick(templates).to_vec();
        match rng.below(9) {
            0 => {
                // Flip bytes.
                for _ in 0..1 + rng.below(8) {
                    let i = rng.below(bytes.len());
                    bytes[i] = rng.next() as u8;
                }
            }
            1 => bytes.truncate(rng.below(bytes.len())),
            2 => {
                // A header far beyond any limit.
                let at = bytes.windows(2).position(|w| w == b"\r\n").unwrap() + 2;
                let big = format!(
                    "X-Big: {}\r\n",
                    "a".repeat(64 * 1024 + rng.below(64 * 1024))
                );
                bytes.splice(at..at, big.into_bytes());
            }
            3 => {
                // Thousands of headers.
                let at = bytes.windows(2).position(|w| w == b"\r\n").unwrap() + 2;
                let many: String = (0..2000).map(|i| format!("X-{i}: {i}\r\n")).collect();
                bytes.splice(at..at, many.into_bytes());
            }
            4 => {
                // A lying Content-Length.
                bytes = b"POST /api/session/1 HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n{\"cmd\":\"hello\"}".to_vec();
            }
            5 => bytes = (0..rng.below(512)).map(|_| rng.next() as u8).collect(),
            6 => {
                // A request line of 100 000 bytes.
                bytes = format!(
                    "GET /{} HTTP/1.1\r\nHost: localhost\r\n\r\n",
                    "a".repeat(100_000)
                )
                .into_bytes();
            }
            7 => {
                // Two requests pipelined, the second damaged.
                let mut two = good.to_vec();
                two.truncate(two.len() - 2);
                two.extend_from_slice(b"\r\nGET /\x00\x01 HTTP/9.9\r\n\r\n");
                bytes = two;
            }
            _ => {}
        }
        sent += 1;
        let out = raw_exchange(addr, &bytes, Duration::from_millis(250));
        if out.starts_with(b"HTTP/1.") {
            answered += 1;
            let text = String::from_utf8_lossy(&out);
            assert!(
                !text.starts_with("HTTP/1.1 500") && !text.starts_with("HTTP/1.0 500"),
                "{text}"
            );
        } else {
            assert!(
                out.is_empty(),
                "not HTTP: {:?}",
                String::from_utf8_lossy(&out)
            );
            closed += 1;
        }
        // After each one, a good request on a new connection is answered.
        if sent % 50 == 0 {
            let ok = raw_exchange(addr, good, Duration::from_secs(10));
            assert!(
                ok.starts_with(b"HTTP/1.1 200"),
                "{}",
                String::from_utf8_lossy(&ok)
            );
        }
    }
    let ok = raw_exchange(addr, good, Duration::from_secs(10));
    assert!(
        ok.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&ok)
    );
    println!(
        "raw HTTP on {addr}: {sent} connections in {:.1} s, {answered} answered, {closed} closed or left waiting without an answer",
        start.elapsed().as_secs_f64()
    );
    assert!(sent >= 100, "only {sent} connections in the time budget");
    runtime.shutdown_timeout(Duration::from_secs(5));
}
