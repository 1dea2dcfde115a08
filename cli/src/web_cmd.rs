//! `stickdice web`: the page to watch, replay and play the games in a browser (the
//! server is `stickdice_web`, behind the `web` feature, on by default).

use std::net::IpAddr;
use std::path::PathBuf;

use clap::Args;

/// Arguments of `stickdice web`.
#[derive(Args, Debug)]
pub struct WebArgs {
    /// Tournament output folders (or their games.jsonl) to replay.
    dirs: Vec<PathBuf>,
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. The default, 127.0.0.1, admits only this machine; any
    /// other address (such as 0.0.0.0) lets other machines play on this server.
    #[arg(long, value_name = "ADDRESS")]
    bind: Option<IpAddr>,
    /// Where the page saves finished games, one tournament-log folder each.
    #[arg(long, default_value = "stickdice-saved")]
    save_dir: PathBuf,
}

#[cfg(feature = "web")]
pub fn run(args: &WebArgs) -> Result<(), String> {
    stickdice_web::run(stickdice_web::WebOptions {
        dirs: args.dirs.clone(),
        port: args.port,
        bind: args.bind,
        save_dir: args.save_dir.clone(),
    })
}

#[cfg(not(feature = "web"))]
pub fn run(args: &WebArgs) -> Result<(), String> {
    let _ = (&args.dirs, args.port, args.bind, &args.save_dir);
    Err(
        "this stickdice was built without the web page (cargo's --no-default-features): \
         build it with the `web` feature, e.g. `cargo build --release -p stickdice-cli \
         --features web` (or without --no-default-features)"
            .to_string(),
    )
}
