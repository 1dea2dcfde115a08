//! `stickdice web`: the page to watch, replay and play the games in a browser (the
//! server is `stickdice_web`).

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

pub(crate) fn run(args: &WebArgs) -> Result<(), String> {
    stickdice_web::run(stickdice_web::WebOptions {
        dirs: args.dirs.clone(),
        port: args.port,
        bind: args.bind,
        save_dir: args.save_dir.clone(),
    })
    .map_err(|e| e.to_string())
}
