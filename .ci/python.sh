#!/usr/bin/env bash
# CI for the Python package (python/): fmt, clippy and tests of its crate; then the
# package as users get it: maturin builds the abi3 wheel (one wheel for CPython >= 3.10)
# and the sdist, a fresh virtual environment installs the wheel file (not the source
# tree) with pinned test dependencies, and pytest runs against it; mypy's stubtest checks
# the stubs against the installed module; every Python block of the README and the book
# runs against it (.ci/doc_python.py); pdoc builds the API reference with warnings as
# errors into target/python-api/.
# Needs the Rust toolchain and Python 3.10+ with pip; the release build of the extension
# dominates its time.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
# python/ is its own workspace; here it builds in the root's target folder, so that the
# crates.io dependencies both workspaces build alike (serde, serde_json, rayon, rand,
# smallvec, ahash, the proc-macros...) are compiled once, not once per folder. (The
# workspace's own crates are compiled for each workspace anyway: cargo keys a path crate by
# its path from the workspace root.) Developers' `maturin develop` keeps python/target.
export CARGO_TARGET_DIR="$root/target"

echo "== python: cargo fmt / clippy (python/ is its own workspace)"
cargo fmt --manifest-path python/Cargo.toml -- --check
cargo clippy --manifest-path python/Cargo.toml --all-targets -- -D warnings
# --release: the tests then share their compilations with maturin's release build below
# (in the test profile they were 40 more compilations: dependencies and four workspace crates
# compiled once more unoptimised). --lib: the extension's Rust tests are its unit tests; a
# plain `cargo test` also built the library itself (rlib and cdylib) for doctests, and the
# crate has none: one more release compile of the extension (about 85 s of CPU) for no test.
# So that a doc example added later is not skipped unseen, one fails the run here.
if grep -n '```' python/src/*.rs; then
    echo "python/src has a doc example: run the crate's doctests here (drop --lib)" >&2
    exit 1
fi
cargo test --manifest-path python/Cargo.toml --release --quiet --lib

echo "== python: one version and one rust-version for the crates and the wheel"
field() { # field FILE KEY: the first `KEY = "..."` of a manifest
    sed -n "s/^$2 = \"\(.*\)\"/\1/p" "$1" | head -n 1
}
for key in rust-version version; do
    ws="$(field Cargo.toml "$key")"
    py="$(field python/Cargo.toml "$key")"
    if [ -z "$ws" ] || [ "$ws" != "$py" ]; then
        echo "python/Cargo.toml has $key '$py', the workspace '$ws'" >&2
        exit 1
    fi
    echo "$key $ws"
done

echo "== python: the CLI binary (the tests compare against it)"
bash .ci/cli.sh

tools="$root/target/ci-python-tools"
python3 -m venv --clear "$tools"
"$tools/bin/python" -m pip install --quiet --upgrade pip
"$tools/bin/python" -m pip install --quiet "maturin==1.16.0"

echo "== python: maturin build (abi3 wheel) and sdist"
wheels="$root/target/wheels"
rm -rf "$wheels"
# The wheel from the checkout (incremental builds); the sdist separately (`build --sdist`
# would build the wheel again from the unpacked sdist, from scratch).
(cd python && "$tools/bin/maturin" build --release --out "$wheels" && "$tools/bin/maturin" sdist --out "$wheels")
ls -l "$wheels"
wheel="$(ls "$wheels"/stickdice-"$ws"-cp310-abi3-*.whl)"
ls "$wheels"/stickdice-"$ws".tar.gz >/dev/null
"$tools/bin/python" - "$wheel" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    names = z.namelist()
    wheel = next(n for n in names if n.endswith(".dist-info/WHEEL"))
    tags = [l.split(": ", 1)[1] for l in z.read(wheel).decode().splitlines() if l.startswith("Tag: ")]
print("wheel tags:", ", ".join(tags))
assert all(t.startswith("cp310-abi3-") for t in tags), tags
for needed in ("stickdice/__init__.py", "stickdice/py.typed", "stickdice/_stickdice.pyi", "stickdice/__init__.pyi"):
    assert needed in names, needed
PY

echo "== python: a fresh virtual environment with the wheel only"
venv="$root/target/ci-python-venv"
python3 -m venv --clear "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet "$wheel"
"$venv/bin/python" -m pip install --quiet \
    "pytest==8.3.4" "numpy==2.2.1" "open_spiel==2.0.2" "pettingzoo==1.27.0" "gymnasium==1.4.0" \
    "mypy==1.15.0" "pdoc==15.0.1"
# The package imported is the installed wheel's, not the checkout's.
(cd /tmp && "$venv/bin/python" - "$venv" "$ws" <<'PY'
import os, sys
import stickdice
where = os.path.realpath(stickdice.__file__)
assert where.startswith(os.path.realpath(sys.argv[1])), where
assert stickdice.__version__ == sys.argv[2], (stickdice.__version__, sys.argv[2])
print("stickdice", stickdice.__version__, "from", os.path.dirname(where))
PY
)

echo "== python: pytest against the installed wheel"
status=0
(cd /tmp && STICKDICE_BIN="$root/target/release/stickdice" timeout 900 \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/python/tests") || status=$?
if [ "$status" -eq 5 ]; then
    echo "pytest collected no tests" >&2
    exit 1
fi
[ "$status" -eq 0 ] || exit "$status"

echo "== python: the README's and the book's Python blocks, against the installed package"
"$venv/bin/python" .ci/doc_python.py

echo "== python: stubtest (the stubs against the installed module)"
(cd /tmp && "$venv/bin/python" -m mypy.stubtest --mypy-config-file "$root/python/stubtest.ini" \
    --allowlist "$root/python/stubtest-allowlist.txt" stickdice)

echo "== python: API reference (pdoc, warnings are errors) -> target/python-api/"
rm -rf "$root/target/python-api"
(cd /tmp && "$venv/bin/python" -W error -m pdoc --output-directory "$root/target/python-api" \
    stickdice stickdice.openspiel stickdice.pettingzoo stickdice.vector)
test -f "$root/target/python-api/stickdice.html"
echo "python API reference: target/python-api/index.html"
