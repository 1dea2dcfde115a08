#!/usr/bin/env bash
# Runs Ludii's own Evaluation metrics on the Ludii encodings of stickdice's games, with random
# playouts, and writes the raw output to docs/data/ludii/ (see docs/compare-ludii.md).
# Not run by CI (CI needs no Java). Needs a JDK (Debian: openjdk-17-jdk-headless) and a checkout
# of Ludii's public repository (github.com/Ludeme/Ludii) at LUDII_SRC.
#
#   LUDII_SRC=/path/to/Ludii scripts/ludii-metrics.sh [TRIALS] [EVAL_TRIALS] [MAX_SECONDS]
#
# It compiles Ludii's Common, Core, Language, Features, AI and Evaluation sources in one javac
# run (Core and Language depend on each other, so their ant files cannot build them one by one
# from a fresh checkout), then scripts/ludii/LudiiMetrics.java against them, then runs one game
# at a time (a single Java job: the machine is shared). Defaults: 1000 trials, the
# state-evaluation metrics on the first 100 of them, at most 600 s of play per game.
# APPLY=yes also computes the other metrics by Metric.apply (one replay per metric: slow), to
# check that it agrees with the incremental path; GAMES="sig-wa-duqqan ..." picks the games.
set -euo pipefail
: "${LUDII_SRC:?set LUDII_SRC to a checkout of Ludii}"
TRIALS=${1:-1000}
EVAL=${2:-100}
MAXS=${3:-600}
SEED=${SEED:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/../docs/data/ludii}
BUILD=${BUILD:-$LUDII_SRC/../ludii-build}
mkdir -p "$OUT" "$BUILD/classes" "$BUILD/driver"
LIBS=$(ls "$LUDII_SRC"/Common/lib/*.jar | tr '\n' ':')
CP="$BUILD/classes:$LIBS$LUDII_SRC/Common/res"
if [ ! -f "$BUILD/classes/metrics/Evaluation.class" ]; then
  (cd "$LUDII_SRC" && find Common/src Core/src Language/src Features/src AI/src Evaluation/src \
     -name '*.java' > "$BUILD/sources.txt")
  (cd "$LUDII_SRC" && javac -J-Xmx4g -nowarn -encoding UTF-8 -parameters -proc:none \
     -cp "$LIBS" -d "$BUILD/classes" @"$BUILD/sources.txt")
fi
javac -nowarn -cp "$CP" -d "$BUILD/driver" "$HERE/ludii/LudiiMetrics.java"

LUD=$LUDII_SRC/Common/res/lud
run() { # name, file under Common/res/lud, options...
  local name=$1 file=$2; shift 2
  local out="$OUT/$name.tsv"
  {
    echo "# ludii commit	$(git -C "$LUDII_SRC" rev-parse HEAD 2>/dev/null || echo unknown)"
    echo "# ludii version	$(grep -o 'LUDEME_VERSION = "[^"]*"' "$LUDII_SRC/Common/src/main/Constants.java" | cut -d'"' -f2)"
    echo "# command	java -Xmx6g LudiiMetrics \"$file\" $TRIALS $SEED $EVAL $MAXS ${APPLY:-no} $*"
    java -Xmx6g -cp "$BUILD/driver:$CP" LudiiMetrics "$LUD/$file" "$TRIALS" "$SEED" "$EVAL" "$MAXS" "${APPLY:-no}" "$@" \
      2>&1 | grep -v '^Incrementally computing metric not yet implemented'
  } > "$out"
  echo "wrote $out"
}
games=${GAMES:-"sig-wa-duqqan sig-el-oued sig-wa-duqqan-houmt-taourit siryu-race sig-el-oued-capture siryu-war issiren"}
for g in $games; do
  case $g in
    sig-wa-duqqan) run "$g" "board/race/reach/Sig wa Duqqan (Houmt al-Arbah).lud" Players/2 ;;
    sig-el-oued) run "$g" "board/race/reach/Sig (El Oued).lud" Players/2 ;;
    sig-wa-duqqan-houmt-taourit) run "$g" "board/race/reach/Sig wa Duqqan (Houmt Taourit).lud" Players/2 ;;
    siryu-race) run "$g" "board/race/reach/Siryu (Race).lud" Players/2 ;;
    sig-el-oued-capture) run "$g" "board/war/replacement/eliminate/all/Sig (El Oued Capture).lud" ;;
    siryu-war) run "$g" "board/war/replacement/eliminate/all/Siryu (War).lud" ;;
    issiren) run "$g" "board/war/replacement/eliminate/all/Issiren.lud" ;;
    *) echo "unknown game $g" >&2; exit 2 ;;
  esac
done
