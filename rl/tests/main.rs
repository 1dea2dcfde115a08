//! Every integration test of stickdice-rl, in one test binary: each file of tests/ is a
//! module here (one binary to compile and link instead of one per file; see the book's
//! performance chapter on CI). `cargo test --release -p stickdice-rl --test integration NAME::`
//! runs one file's tests. A new file in tests/ must be added below (a test checks it).

// Allocation tests count this thread's allocations (stickdice_testkit::counting); the
// count is per thread, so the other tests running beside them do not disturb it.
#[global_allocator]
static GLOBAL: stickdice_testkit::counting::Counting = stickdice_testkit::counting::Counting;

mod allocation;
mod replay_log;
mod vector;
