#!/usr/bin/env bash
# Instructions per random throw of each game, counted by valgrind's callgrind: the
# difference in instructions between two batches of random playouts divided by the
# difference in throws, so start-up and set-up cost cancel out. Callgrind counts do not
# depend on the machine's load, unlike timings. Skips (exit 0) where valgrind is absent.
#
#   scripts/instructions.sh            # the table
#   SMALL=200 LARGE=1200 scripts/instructions.sh
#   scripts/instructions.sh issiren    # only the games whose name contains "issiren"
#   PROFILE=release scripts/instructions.sh   # the release build's examples (same counts)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v valgrind >/dev/null 2>&1; then
    echo "instructions.sh: valgrind is not installed; skipping the instruction counts" >&2
    echo "(Debian: apt-get install -y valgrind)" >&2
    exit 0
fi

SMALL=${SMALL:-200}
LARGE=${LARGE:-1200}
# The `profiling` profile: the release code with line tables, so that callgrind_annotate can
# name the source lines (the release profile has no debug information). The line tables do
# not change the code: PROFILE=release prints the same figures (only the start-up differs, by
# a constant that the difference of two batches cancels); CI uses it, to reuse the test
# build's examples instead of compiling everything once more.
PROFILE=${PROFILE:-profiling}
cargo build --profile "$PROFILE" --quiet --example playouts --example search
bin=target/$PROFILE/examples/playouts
search=target/$PROFILE/examples/search
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Prints "instructions throws" for one batch.
count() {
    local out="$tmp/callgrind.out"
    local throws
    throws=$(valgrind --tool=callgrind --callgrind-out-file="$out" "${BIN:-$bin}" "$@" 2>/dev/null)
    local ir
    ir=$(awk '/^summary:/ { print $2 }' "$out")
    echo "$ir $throws"
}

printf '%-28s %8s %14s %12s\n' game players "instr/throw" "throws"
# `issiren-described` and `siryu-war-described` are the reference descriptions of Issiren and
# Siryu (War), played by the description engine beside their hand-written modules.
for spec in "sig-wa-duqqan 2" "sig-wa-duqqan 4" "sig-el-oued 2" "sig-el-oued 4" "issiren 2" \
    "issiren-described 2" "sig-wa-duqqan-houmt-taourit 2" "sig-wa-duqqan-houmt-taourit 4" \
    "siryu-race 2" "siryu-race 4" "siryu-war 2" "siryu-war-described 2" "sig-el-oued-capture 2" \
    "sig-mzab 2" "sig-tozeur 2" "kioz 2" "tab 2" "sijat-el-taba 2" "es-sig 2" "es-sig 4" "es-sig 8" \
    "sig-western-sahara 2" "sig-western-sahara 4"; do
    read -r game players <<<"$spec"
    if [ $# -gt 0 ] && [[ "$spec" != *"$1"* ]]; then continue; fi
    read -r ir1 t1 <<<"$(count "$game" "$players" "$SMALL")"
    read -r ir2 t2 <<<"$(count "$game" "$players" "$LARGE")"
    awk -v g="$game" -v p="$players" -v i1="$ir1" -v i2="$ir2" -v t1="$t1" -v t2="$t2" \
        'BEGIN { printf "%-28s %8s %14.1f %12d\n", g, p, (i2 - i1) / (t2 - t1), t2 - t1 }'
done

# The searches on the Issiren middle game of agents/benches/mcts.rs: MCTS as the `mcts` spec
# plays it (learned evaluation, random playouts cut after 4 throws) and with
# MctsConfig::default() (greedy playouts), and that with the hand-set evaluation (`mcts-hand`,
# as the issue measured it), instructions per iteration; the default expectimax and that with
# the hand-set evaluation, per node visited.
if [ $# -gt 0 ] && [[ "search" != *"$1"* ]]; then exit 0; fi
echo
printf '%-16s %8s %14s %12s\n' search "" "instr/unit" "units"
for m in mcts mcts-greedy mcts-hand; do
    read -r ir1 n1 <<<"$(BIN=$search count $m 500)"
    read -r ir2 n2 <<<"$(BIN=$search count $m 2500)"
    awk -v m="$m" -v i1="$ir1" -v i2="$ir2" -v n1="$n1" -v n2="$n2" \
        'BEGIN { printf "%-16s %8s %14.0f %12d\n", m, "iter", (i2 - i1) / (n2 - n1), n2 - n1 }'
done
for x in expectimax expectimax-hand; do
    read -r ir1 n1 <<<"$(BIN=$search count $x 3)"
    read -r ir2 n2 <<<"$(BIN=$search count $x 4)"
    awk -v x="$x" -v i1="$ir1" -v i2="$ir2" -v n1="$n1" -v n2="$n2" \
        'BEGIN { printf "%-16s %8s %14.0f %12d\n", x, "node", (i2 - i1) / (n2 - n1), n2 - n1 }'
done
