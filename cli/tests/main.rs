//! Every integration test of stickdice-cli, in one test binary: each file of tests/ is a
//! module here (one binary to compile and link instead of one per file; see the book's
//! performance chapter on CI). `cargo test --release -p stickdice-cli --test integration NAME::`
//! runs one file's tests. A new file in tests/ must be added below (a test checks it).

mod common;

mod analysis_cli;
mod cli;
mod cli_merge;
mod cli_play;
mod compare_cli;
mod game_file;
mod hardening;
mod hardening_newer;
mod ladder_cli;
mod protocol_conformance;
mod protocol_fuzz;
mod review_cli;
mod train_cli;
