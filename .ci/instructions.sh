#!/usr/bin/env bash
# CI: instructions per random throw of each game and per MCTS iteration / expectimax node
# (callgrind), printed for the log; nothing is asserted. About a minute on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v valgrind >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq valgrind >/dev/null
fi
timeout 600 scripts/instructions.sh
