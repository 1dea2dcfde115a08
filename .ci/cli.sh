#!/usr/bin/env bash
# Builds the `stickdice` binary that the CI steps run (target/release/stickdice) so that it
# is the one `cargo test --workspace --release` has already built: after the tests, this
# compiles nothing.
#
# Why `--example first_game`: naming an example makes cargo resolve features with the
# dev-dependencies, as the test build does. A plain `cargo build --release --bin stickdice`
# resolves without them, and the dev-dependency criterion turns on features of crates under
# ours (either's `use_std` under rayon, through itertools; zerocopy's `derive` under ahash,
# through ciborium), as proptest does rand's `std`; so every workspace crate above rayon or
# ahash would be compiled a second time (about 90 s on two warm cores, more on a fresh
# machine). The user's own build, without the dev-dependencies, is checked by
# .ci/package.sh (`cargo install --path cli`).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bin stickdice --example first_game
