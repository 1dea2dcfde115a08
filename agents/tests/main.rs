//! Every integration test of stickdice-agents, in one test binary: each file of tests/ is a
//! module here (one binary to compile and link instead of one per file; see the book's
//! performance chapter on CI). `cargo test --release -p stickdice-agents --test integration NAME::`
//! runs one file's tests. A new file in tests/ must be added below (a test checks it).

// Allocation tests count this thread's allocations (stickdice_testkit::counting); the
// count is per thread, so the other tests running beside them do not disturb it.
#[global_allocator]
static GLOBAL: stickdice_testkit::counting::Counting = stickdice_testkit::counting::Counting;

mod common;

mod analysis_solver;
mod analysis_tablebase;
mod described_exact;
mod expectimax;
mod games;
mod learned;
mod learned_games;
mod legal;
mod mcts_allocation;
mod mcts_exact;
mod mcts_games;
mod mcts_strength;
mod solver_accuracy;
mod strength;
mod strength_described;
mod strength_family;
