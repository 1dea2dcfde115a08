#!/usr/bin/env bash
# The README's command lines, run as a newcomer runs them: in order, in a fresh folder, with
# the main job first (the README's first block) and then every line of its "Command line"
# examples. Each must succeed and print no error. Needs the binary built by .ci/cli.sh
# (target/release/stickdice), which stands for `stickdice` as the README says.
#
# To keep this step under a minute or two on 2 cores, long commands are shortened by these
# substitutions and only these (nothing else of a line is changed):
#   * `cargo run --release --bin stickdice --` is `stickdice` (the README says so);
#   * the main job (`tournament` with no options) plays 2 games per pair (`--games 2`);
#   * `--games 200` is `--games 10`;
#   * an SPRT (`--sprt`) gives up after 20 games per pair (`--games 20`);
#   * `analyze` plays 200 self-play games and 20 rotations per agent
#     (`--games 200 --rotations 20`);
#   * `web` listens on a free port (`--port 0`); once it answers with the page, it is
#     stopped.
# And no command writes a file into the folder unasked (an SVG, say) beyond the output
# folders the lines name.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
bin="$root/target/release/stickdice"
if [ ! -x "$bin" ]; then
    echo "readme: $bin is missing: run 'bash .ci/cli.sh' first" >&2
    exit 1
fi

# The lines: the main job from the first shell block, then the "Command line" examples.
mapfile -t lines < <(python3 - "$root/README.md" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
main = [l for l in blocks[0].splitlines() if "stickdice -- tournament" in l]
examples = text.split("**Command line:**", 1)[1]
block = re.search(r"```sh\n(.*?)```", examples, re.S).group(1)
for line in main + block.splitlines():
    line = re.sub(r"\s+#.*$", "", line).strip()
    if line:
        print(line)
EOF
)
if [ "${#lines[@]}" -lt 6 ]; then
    echo "readme: found only ${#lines[@]} command lines in README.md" >&2
    exit 1
fi

shorten() {
    local l="$1"
    l="${l/cargo run --release --bin stickdice --/stickdice}"
    if [ "$l" = "stickdice tournament" ]; then l="$l --games 2"; fi
    l="${l/--games 200/--games 10}"
    if [[ "$l" == *" --sprt"* ]]; then l="$l --games 20"; fi
    if [[ "$l" == "stickdice analyze "* ]]; then l="$l --games 200 --rotations 20"; fi
    printf '%s' "$l"
}

work="$(mktemp -d)"
mkdir "$work/bin"
ln -s "$bin" "$work/bin/stickdice"
export PATH="$work/bin:$PATH"
cd "$work"
web_pid=""
cleanup() {
    if [ -n "$web_pid" ]; then kill "$web_pid" 2>/dev/null || true; fi
    cd /
    rm -rf "$work"
}
trap cleanup EXIT

for line in "${lines[@]}"; do
    run="$(shorten "$line")"
    echo "== readme: $run"
    read -r -a argv <<<"$run"
    if [ "${argv[1]}" = "web" ]; then
        "${argv[@]}" --port 0 >web.log 2>&1 &
        web_pid=$!
        url=""
        for _ in $(seq 100); do
            url="$(grep -o 'http://[0-9.:]*/' web.log | head -1 || true)"
            if [ -n "$url" ]; then break; fi
            if ! kill -0 "$web_pid" 2>/dev/null; then break; fi
            sleep 0.1
        done
        if [ -z "$url" ]; then
            echo "readme: \`$run\` did not start:" >&2
            cat web.log >&2
            exit 1
        fi
        python3 - "$url" <<'EOF'
import json, sys, urllib.request
url = sys.argv[1]
page = urllib.request.urlopen(url, timeout=10).read().decode()
assert "<html" in page.lower(), "no page at " + url
EOF
        kill "$web_pid"
        wait "$web_pid" 2>/dev/null || true
        web_pid=""
        echo "readme: the page answered at $url"
        continue
    fi
    if ! "${argv[@]}" >out.log 2>err.log; then
        echo "readme: \`$run\` failed (README.md: \`$line\`):" >&2
        cat err.log >&2
        exit 1
    fi
    if grep -iE '^error|panicked' err.log >/dev/null; then
        echo "readme: \`$run\` printed an error:" >&2
        cat err.log >&2
        exit 1
    fi
    tail -n 3 out.log
done
unasked="$(find . -maxdepth 1 -type f -not -name '*.log' | sort)"
if [ -n "$unasked" ]; then
    echo "readme: files written into the working folder unasked:" >&2
    echo "$unasked" >&2
    exit 1
fi
echo "readme: ${#lines[@]} command lines ran in order"

# The build figures of the README and getting started were measured at a commit the book
# names (docs/getting-started.md, `figures-commit`): past 300 commits they are stale.
cd "$root"
measured="$(grep -o 'figures-commit: [0-9a-f]*' docs/getting-started.md | cut -d' ' -f2)"
if [ -z "$measured" ]; then
    echo "readme: docs/getting-started.md names no figures-commit" >&2
    exit 1
fi
if ! grep -q "commit $measured" README.md; then
    echo "readme: README.md does not give the figures of commit $measured (docs/getting-started.md)" >&2
    exit 1
fi
if behind="$(git rev-list --count "$measured..HEAD" 2>/dev/null)"; then
    if [ "$behind" -gt 300 ]; then
        echo "readme: the build figures were measured $behind commits ago (commit $measured):" >&2
        echo "measure them again as docs/getting-started.md says, and update README.md and it" >&2
        exit 1
    fi
    echo "readme: the build figures were measured $behind commit(s) ago (at most 300)"
else
    echo "readme: no git history here: the figures' age is not checked"
fi
