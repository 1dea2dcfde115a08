#!/usr/bin/env bash
# CI for the packages (issue 26): what `cargo publish` would upload, checked without
# uploading. Every publishable crate's file list (`cargo package --list`); the core crate's
# publish dry run, which builds the packaged crate against crates.io (the other crates
# depend on the core's version there, not yet published, so for them the list and the
# manifest checks of `cargo package --no-verify` are what can run); `cargo install --path
# cli` into a scratch folder. Any warning of cargo fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."

crates=(stickdice stickdice-agents stickdice-evaluation stickdice-web stickdice-rl stickdice-cli)
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

# Runs a cargo command; fails on an error or on any warning line in its output.
strict() {
    if ! "$@" >"$log.out" 2>"$log"; then
        cat "$log.out" "$log" >&2
        echo "package check failed: $*" >&2
        exit 1
    fi
    # Cargo names each test and benchmark it leaves out of a package ("ignoring test `x`
    # as `tests/x.rs` is not included in the published package"): that is the include
    # lists at work (the packages carry no tests: their dev-dependencies are workspace
    # crates that a package cannot name). And `publish --dry-run` ends by saying that it
    # does not upload. Every other warning fails.
    if grep -E '^(warning|error)' "$log" |
        grep -vE '^warning: ignoring (test|benchmark|example) `[A-Za-z0-9_-]+` as `(tests|benches|examples)/[A-Za-z0-9_/.-]+` is not included in the published package$' |
        grep -vx 'warning: aborting upload due to dry run' >&2; then
        echo "package check warned: $* (warnings fail CI)" >&2
        exit 1
    fi
}

for c in "${crates[@]}"; do
    strict cargo package --list --allow-dirty -p "$c"
    echo "== $c: $(wc -l <"$log.out") files"
    sed 's/^/   /' "$log.out"
    # What the core package must never carry.
    if grep -E '^(\.ci|scripts|docs|examples|tests|benches|target|python)/' "$log.out"; then
        echo "$c's package holds files it does not need" >&2
        exit 1
    fi
done

echo "== packages (manifest checks, .crate sizes)"
strict cargo package --no-verify --allow-dirty "${crates[@]/#/-p}"
for c in "${crates[@]}"; do
    f="target/package/$c-$(cargo pkgid -p "$c" | sed 's/.*[#@]//').crate"
    echo "   $(basename "$f"): $(stat -c %s "$f") bytes"
done

echo "== cargo publish --dry-run -p stickdice (builds the package as crates.io would)"
strict cargo publish --dry-run --allow-dirty -p stickdice
tail -n 3 "$log" | sed 's/^/   /'

echo "== cargo install --debug --path cli (the CLI with its web page)"
root="target/ci-install"
rm -rf "$root"
# --debug: the install builds the CLI's crates alone, whose dependencies' features differ from
# the test build's (proptest's and criterion's dev-dependencies add features to rand, rayon's
# either and others), so nothing of the release build is reused and a release install was a
# third release build of the workspace (about 400 s of CPU, against 136 s for this one). What
# is checked is the install (manifest, --locked, the path, the binary and its web page), not
# the optimiser. On PATH, so that cargo does not warn to add it.
PATH="$PWD/$root/bin:$PATH" strict cargo install --debug --locked --path cli --root "$root" --target-dir target
"$root/bin/stickdice" --version
"$root/bin/stickdice" web --help >/dev/null
rm -rf "$root"
