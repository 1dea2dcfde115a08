//! Every integration test of stickdice-evaluation, in one test binary: each file of tests/ is a
//! module here (one binary to compile and link instead of one per file; see the book's
//! performance chapter on CI). `cargo test --release -p stickdice-evaluation --test integration NAME::`
//! runs one file's tests. A new file in tests/ must be added below (a test checks it).

mod builder;
mod every_agent_every_game;
mod luck_stats;
mod protocol_schema;
mod review;
