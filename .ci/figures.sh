#!/usr/bin/env bash
# After `cargo test --workspace --release` (.ci/run passes that stage's CPU seconds): prints
# what the build and the test command cost here, beside the figures of the README and
# docs/getting-started.md ("What it costs"), so that a CI log always shows current ones.
# Disk is stable from machine to machine: the size of target/release must be within a
# factor of 1.5 of the book's first build plus test command, or this fails (measure the
# figures again as docs/getting-started.md says). CPU time depends on the machine and its
# load: printed with its ratio, not checked.
#   bash .ci/figures.sh CPU_SECONDS_OF_THE_TEST_STAGE
set -euo pipefail
cd "$(dirname "$0")/.."
cpu="${1:-}"
page=docs/getting-started.md
# The table's rows: `| `cargo build ...` (the first build) | 542 s | 350 MB in ... |`.
row() { grep -F "$1" "$page" | head -n 1; }
num() { # the first number of field $2 (1-based, between |) of a row
    awk -F'|' -v f="$(($2 + 1))" '{print $f}' <<<"$1" | grep -oE '[0-9][0-9 ]*' | head -n 1 | tr -d ' '
}
build_row="$(row '(the first build)')"
test_row="$(row '`cargo test --workspace --release`')"
if [ -z "$build_row" ] || [ -z "$test_row" ]; then
    echo "figures: $page has no rows for the first build and the test command" >&2
    exit 1
fi
book_cpu=$(($(num "$build_row" 2) + $(num "$test_row" 2)))
book_mb=$(($(num "$build_row" 3) + $(num "$test_row" 3)))
mb=$(($(du -sb target/release | cut -f1) / 1000000))
echo "figures: target/release holds $mb MB after the test command (the book: $book_mb MB, first build and test command)"
if [ -n "$cpu" ]; then
    echo "figures: the test stage took $cpu s of CPU time here (the book: $book_cpu s for the first build and the test command; ratio $(awk -v a="$cpu" -v b="$book_cpu" 'BEGIN{printf "%.2f", a/b}'))"
fi
if ! awk -v a="$mb" -v b="$book_mb" 'BEGIN{exit !(a <= 1.5 * b && b <= 1.5 * a)}'; then
    echo "figures: $mb MB is not within a factor of 1.5 of the book's $book_mb MB: measure the" >&2
    echo "figures again as $page says, and update it and README.md" >&2
    exit 1
fi
