//! Runs the web server without the `stickdice` binary: `cargo run -p stickdice-web
//! --example serve -- [PORT] [DIR...]` (the same as `stickdice web --port PORT DIR...`).

fn main() {
    let mut args = std::env::args().skip(1);
    let port = args.next().and_then(|p| p.parse().ok()).unwrap_or(8080);
    let opts = stickdice_web::WebOptions {
        dirs: args.map(Into::into).collect(),
        port,
        bind: None,
        save_dir: "stickdice-saved".into(),
    };
    if let Err(e) = stickdice_web::run(opts) {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}
