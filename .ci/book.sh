#!/usr/bin/env bash
# CI for the book (docs/, mdBook) and the examples it shows whole:
#   * installs mdBook, pinned (cargo install --locked; skipped when that version is already
#     in ~/.cargo/bin, so a cached ~/.cargo makes this step free);
#   * builds the book into target/book, any warning of mdBook an error, and copies the
#     Python API reference (pdoc, built by .ci/python.sh) into it as python-api/;
#   * checks every relative link and anchor of the README and the book, in the sources and
#     in the built pages, and that nothing links outside the repository (.ci/check_links.py);
#   * runs the example programs the book shows whole (examples/first_game.rs,
#     examples/tournament.rs; tests/readme.rs checks the book's copies equal them).
# The book's other Rust blocks run as doctests of the core crate (src/lib.rs,
# docs_code_blocks) in `cargo test --workspace --release`; its Python blocks run in
# .ci/python.sh (.ci/doc_python.py); its command lines are parsed by the CLI's unit test
# (cli/src/doc_commands.rs).
set -euo pipefail
cd "$(dirname "$0")/.."

MDBOOK_VERSION=0.4.52
if [ "$(mdbook --version 2>/dev/null)" != "mdbook v$MDBOOK_VERSION" ]; then
    echo "== book: cargo install mdbook $MDBOOK_VERSION"
    cargo install mdbook --locked --version "$MDBOOK_VERSION" --no-default-features --features search
fi

echo "== book: mdbook build docs"
log="$(mktemp)"
mdbook build docs 2>&1 | tee "$log"
if grep -E '\[(WARN|ERROR)\]|^(WARN|ERROR)' "$log" >/dev/null; then
    echo "mdbook printed warnings or errors (they fail the build)" >&2
    exit 1
fi
rm -f "$log"
# The Python API reference (pdoc), built from the installed wheel by .ci/python.sh (which
# .ci/run runs first): the book links to it as python-api/.
if [ ! -f target/python-api/stickdice.html ]; then
    echo "book: target/python-api/ is missing: run 'bash .ci/python.sh' first (it builds the" >&2
    echo "Python API reference the book links to), then this script again" >&2
    exit 1
fi
cp -r target/python-api target/book/python-api
pages=$(find target/book -name '*.html' -not -name 'print.html' -not -name '404.html' -not -name 'toc.html' -not -path '*/python-api/*' | wc -l)
echo "book: $pages pages in target/book"

echo "== book: links and anchors"
python3 .ci/check_links.py target/book

echo "== book: the example programs it shows whole"
cargo run --release --quiet --example first_game >/dev/null
cargo run --release --quiet --example tournament >/dev/null
echo "book: ok"
