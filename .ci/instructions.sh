#!/usr/bin/env bash
# CI: instructions per random throw of each game and per MCTS iteration / expectimax node
# (callgrind), printed for the log; nothing is asserted. About a minute on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v valgrind >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq valgrind >/dev/null
fi
# PROFILE=release: the examples `cargo test --workspace --release` has already built, instead
# of compiling every crate once more for the `profiling` profile (123 compilations on a fresh
# machine). The figures are the `profiling` profile's: line tables do not change the code
# (the two builds' totals differ by a constant start-up cost, which the script's difference
# of two batches cancels; docs/performance/overview.md).
PROFILE=release timeout 600 scripts/instructions.sh
