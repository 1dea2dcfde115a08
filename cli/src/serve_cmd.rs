//! `stickdice serve`: the front-end protocol on standard input and output
//! (`docs/protocol.md`; the implementation is `stickdice_evaluation::protocol`).

use crate::error::CliError;
use clap::Args;

/// Arguments of `stickdice serve` (none: everything is chosen through the protocol).
#[derive(Args, Debug)]
pub struct ServeArgs {}

pub(crate) fn run(_args: &ServeArgs) -> Result<(), CliError> {
    // The input is read on a thread of its own (see `serve`).
    let stdin = std::io::BufReader::new(std::io::stdin());
    let stdout = std::io::stdout();
    stickdice_evaluation::protocol::serve(stdin, stdout.lock())
        .map_err(|e| CliError::context("serve", e))
}
