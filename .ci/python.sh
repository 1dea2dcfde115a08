#!/usr/bin/env bash
# CI for the Python package (python/): fmt and clippy of its crate, then a fresh virtual
# environment that installs the package from the checkout (`pip install ./python`, maturin
# from PyPI through build isolation) and pinned test dependencies, and runs pytest, then
# every Python block of the README and the book (.ci/doc_python.py).
# Needs the Rust toolchain and Python 3.11 with pip; takes a few minutes (the release
# build of the extension dominates).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== python: cargo fmt / clippy (python/ is its own workspace)"
cargo fmt --manifest-path python/Cargo.toml -- --check
cargo clippy --manifest-path python/Cargo.toml --all-targets -- -D warnings
cargo test --manifest-path python/Cargo.toml --quiet

echo "== python: the CLI binary (the tests compare against it)"
cargo build --release --bin stickdice --quiet

venv="$(pwd)/target/ci-python-venv"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
echo "== python: pip install ./python"
"$venv/bin/python" -m pip install --quiet ./python
"$venv/bin/python" -m pip install --quiet \
    "pytest==8.3.4" "numpy==2.2.1" "open_spiel==2.0.2" "pettingzoo==1.27.0" "gymnasium==1.4.0"

echo "== python: pytest"
# Run from outside the checkout so the installed package is the one imported.
root="$(pwd)"
status=0
(cd /tmp && STICKDICE_BIN="$root/target/release/stickdice" timeout 900 \
    "$venv/bin/python" -m pytest -q "$root/python/tests") || status=$?
if [ "$status" -eq 5 ]; then
    echo "pytest collected no tests" >&2
    exit 1
fi
[ "$status" -eq 0 ] || exit "$status"

echo "== python: the README's and the book's Python blocks, against the installed package"
"$venv/bin/python" .ci/doc_python.py
