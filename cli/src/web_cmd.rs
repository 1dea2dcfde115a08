//! `stickdice web`: the page to watch, replay and play the games in a browser (the
//! server is `stickdice_web`, behind the `web` feature, on by default).

use crate::error::CliError;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

use clap::Args;

/// The folder `stickdice tournament` writes by default, replayed when no folder is named.
pub const DEFAULT_TOURNAMENT_DIR: &str = "tournament-out";

/// Arguments of `stickdice web`.
#[derive(Args, Debug)]
pub struct WebArgs {
    /// Tournament output folders (or their games.jsonl) to replay [default:
    /// ./tournament-out when it exists].
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

/// The folders to replay: those named, else `./tournament-out` when it holds a log (and
/// the line saying so), else none.
fn folders(args: &WebArgs) -> (Vec<PathBuf>, Option<String>) {
    if !args.dirs.is_empty() {
        return (args.dirs.clone(), None);
    }
    let default = Path::new(DEFAULT_TOURNAMENT_DIR);
    if default.join("games.jsonl").is_file() {
        let line = format!(
            "replaying ./{DEFAULT_TOURNAMENT_DIR} (the tournament folder here; name folders to \
             replay others)"
        );
        (vec![default.to_path_buf()], Some(line))
    } else {
        (Vec::new(), None)
    }
}

#[cfg(feature = "web")]
pub(crate) fn run(args: &WebArgs) -> Result<(), CliError> {
    let (dirs, said) = folders(args);
    if let Some(line) = said {
        eprintln!("{line}");
    }
    stickdice_web::run(stickdice_web::WebOptions {
        dirs,
        port: args.port,
        bind: args.bind,
        save_dir: args.save_dir.clone(),
    })?;
    Ok(())
}

#[cfg(not(feature = "web"))]
pub(crate) fn run(args: &WebArgs) -> Result<(), CliError> {
    let _ = (folders(args), args.port, args.bind, &args.save_dir);
    Err(CliError::Invalid(
        "this stickdice was built without the web page (cargo's --no-default-features): \
         build it with the `web` feature, e.g. `cargo build --release -p stickdice-cli \
         --features web` (or without --no-default-features)"
            .to_string(),
    ))
}
