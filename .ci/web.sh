#!/usr/bin/env bash
# CI for `stickdice web`: Debian's chromium driven headless by playwright-core (npm)
# against the release binary on a loopback port. Screenshots go to target/web-screenshots/.
# Arguments go to `node --test`: `bash .ci/web.sh --test-name-pattern='auto-pass'` runs the
# tests whose names match.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
chromium --version 2>/dev/null | head -1 || true

bash .ci/cli.sh
BIN="$PWD/target/release/stickdice"

WORK="$(mktemp -d)"
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# Tournament folders to replay: one per game, and a damaged log.
"$BIN" tournament -g issiren -a random,greedy -n 2 --out "$WORK/issiren" >/dev/null 2>&1
"$BIN" tournament -g sig-wa-duqqan -p 3 -a random,greedy,random -n 3 --out "$WORK/duqqan" >/dev/null 2>&1
"$BIN" tournament -g sig-el-oued -a random,greedy -n 2 --out "$WORK/oued" >/dev/null 2>&1
# The four siblings (docs/games/, §5–§8), after the damaged log so the first folders keep their
# ids: capture 4, race 5, taourit 6, war 7.
"$BIN" tournament -g sig-el-oued-capture -a random,greedy -n 2 --out "$WORK/capture" >/dev/null 2>&1
"$BIN" tournament -g siryu-race -p 3 -a random,random,random -n 3 --out "$WORK/race" >/dev/null 2>&1
"$BIN" tournament -g sig-wa-duqqan-houmt-taourit -p 3 -a random,random,random -n 3 --out "$WORK/taourit" >/dev/null 2>&1
"$BIN" tournament -g siryu-war -a random,greedy -n 2 --out "$WORK/war" >/dev/null 2>&1
# Three described games (docs/games/), after the siblings: tab 8, es-sig 9, sig-western-sahara 10.
"$BIN" tournament -g tab -a random,random -n 1 --out "$WORK/tab" >/dev/null 2>&1
"$BIN" tournament -g es-sig -a random,random -n 1 --out "$WORK/es-sig" >/dev/null 2>&1
"$BIN" tournament -g sig-western-sahara -p 4 -a random,random,random,random -n 1 --out "$WORK/sig-western-sahara" >/dev/null 2>&1
mkdir -p "$WORK/damaged"
head -n 1 "$WORK/issiren/games.jsonl" >"$WORK/damaged/games.jsonl"
echo '{"type":"game","index":"not a number"}' >>"$WORK/damaged/games.jsonl"

(cd web/tests && npm ci --no-audit --no-fund --loglevel=error)

"$BIN" web --port 0 --save-dir "$WORK/saved" \
    "$WORK/issiren" "$WORK/duqqan" "$WORK/oued" "$WORK/damaged" \
    "$WORK/capture" "$WORK/race" "$WORK/taourit" "$WORK/war" \
    "$WORK/tab" "$WORK/es-sig" "$WORK/sig-western-sahara" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
URL=""
for _ in $(seq 1 100); do
    URL="$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$WORK/server.log" | head -1 || true)"
    [ -n "$URL" ] && break
    sleep 0.1
done
if [ -z "$URL" ]; then echo "the server did not start:"; cat "$WORK/server.log"; exit 1; fi
echo "stickdice web is serving on $URL"

mkdir -p target/web-screenshots
BASE_URL="$URL" BINARY="$BIN" FIXTURES="$WORK" SHOTS="$PWD/target/web-screenshots" \
    timeout 900 node --test --test-concurrency=1 "$@" web/tests/browser.test.mjs
# The server is still alive after everything the tests sent.
curl -fsS "$URL/api/hello" >/dev/null 2>&1 || node -e "fetch('$URL/api/hello').then(r=>{if(!r.ok)process.exit(1)})"
echo "the server is still answering"
