//! `stickdice serve`: the front-end protocol on standard input and output
//! (`docs/protocol.md`; the implementation is `stickdice_evaluation::protocol`).

use clap::Args;

/// Arguments of `stickdice serve` (none: everything is chosen through the protocol).
#[derive(Args, Debug)]
pub struct ServeArgs {}

pub fn run(_args: &ServeArgs) -> Result<(), String> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    stickdice_evaluation::protocol::serve(stdin.lock(), stdout.lock())
        .map_err(|e| format!("serve: {e}"))
}
