//! Every integration test of stickdice-web, in one test binary: each file of tests/ is a
//! module here (one binary to compile and link instead of one per file; see the book's
//! performance chapter on CI). `cargo test --release -p stickdice-web --test integration NAME::`
//! runs one file's tests. A new file in tests/ must be added below (a test checks it).

mod routes;
mod security;
