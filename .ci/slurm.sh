#!/usr/bin/env bash
# Issue 14, tested for real: a sharded tournament on a one-node Slurm cluster.
#
# Installs Slurm and MUNGE from Debian (slurm-wlm, munge) if missing, writes a one-node
# configuration for this machine under a temporary folder, starts munged, slurmctld and
# slurmd in the background (stopped by a trap whatever happens), then
#  1. submits examples/slurm's 4-shard array job and the merge job depending on it
#     (afterany) with sbatch, and checks that the merged report equals the report of the
#     same tournament run on this machine without Slurm;
#  2. submits it again, cancels one shard mid-run (scancel), checks that the merge job
#     lists that shard's missing games and writes nothing, resubmits the shard (it resumes
#     its log) and the merge, and checks the same report again;
#  3. runs an SPRT in batches of rotations with examples/slurm/sprt.sh (undecided after
#     the first batch, decided in the second) and checks its report against one machine's.
# Bounded: every wait has a deadline; the whole step takes about a minute on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
limit=170                            # seconds, for the cluster's part (after the build)

need() { command -v "$1" >/dev/null 2>&1; }
if ! need slurmctld || ! need slurmd || ! need sbatch || ! need munged; then
    echo "== installing slurm-wlm and munge"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=300 \
        slurm-wlm munge >/dev/null
fi
bash .ci/cli.sh
bin=$repo/target/release/stickdice
started=$SECONDS

# The tournament: small, fast agents, yet long enough (a few seconds a shard) for a shard
# to be cancelled mid-run.
export STICKDICE=$bin GAME=issiren AGENTS=random,greedy,mcts:iterations=200 GAMES=400 \
    FORMAT=round-robin SEED=14 SHARDS=4 EXTRA=

tmp=$(mktemp -d /tmp/stickdice-slurm.XXXXXX)
mkdir -p "$tmp"/{state,spool,log,run,work}
export SLURM_CONF=$tmp/slurm.conf
daemons=()
stop() {
    local status=$?
    set +e
    if [ -f "$SLURM_CONF" ]; then
        # Every job on this temporary cluster is ours.
        mapfile -t left_over < <(squeue -h -o %i 2>/dev/null)
        if [ "${#left_over[@]}" -gt 0 ]; then
            scancel "${left_over[@]}" 2>/dev/null
            for _ in $(seq 50); do
                [ -z "$(squeue -h 2>/dev/null)" ] && break
                sleep 0.2
            done
        fi
    fi
    for p in "${daemons[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${daemons[@]}"; do wait "$p" 2>/dev/null; done
    if [ "$status" -ne 0 ]; then
        echo "-- .ci/slurm.sh failed; the daemons' and jobs' logs:"
        tail -n 20 "$tmp"/log/*.log "$tmp"/work/*.out 2>/dev/null
    fi
    rm -rf "$tmp"
    exit "$status"
}
trap stop EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
left() { echo $((limit - (SECONDS - started))); }

echo "== [$((SECONDS - started)) s] starting munged, slurmctld, slurmd"
head -c 1024 /dev/urandom >"$tmp/munge.key"
chmod 400 "$tmp/munge.key"
munged -F -f --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" \
    --pid-file="$tmp/run/munged.pid" --log-file="$tmp/log/munged.log" \
    --seed-file="$tmp/munge.seed" >"$tmp/log/munged.out" 2>&1 &
daemons+=($!)
host=$(hostname -s)
cat >"$SLURM_CONF" <<EOF
ClusterName=stickdice-ci
SlurmctldHost=$host
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.sock
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
NodeName=$host CPUs=2 State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
for _ in $(seq 50); do [ -S "$tmp/munge.sock" ] && break; sleep 0.1; done
[ -S "$tmp/munge.sock" ] || fail "munged did not start"
slurmctld -D -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
daemons+=($!)
slurmd -D -f "$SLURM_CONF" >"$tmp/log/slurmd.out" 2>&1 &
daemons+=($!)
until [ "$(sinfo -h -o %T 2>/dev/null)" = idle ]; do
    [ "$(left)" -gt 0 ] || fail "the node did not come up"
    sleep 0.2
done
sinfo

# Waits (bounded) until none of the given jobs is pending or running.
wait_jobs() {
    local ids
    ids=$(IFS=,; echo "$*")
    while [ -n "$(squeue -h -j "$ids" 2>/dev/null)" ]; do
        [ "$(left)" -gt 0 ] || fail "jobs $ids still queued or running after ${limit}s"
        sleep 0.2
    done
}
submit() { # sbatch options… script: prints the job id
    local id
    id=$(sbatch --parsable --chdir="$tmp/work" "$@")
    echo "${id%%;*}"
}
same_report() { # folder folder
    for f in report.json report.md standings.csv ratings.svg; do
        cmp "$1/$f" "$2/$f" || fail "$2/$f differs from the one-machine $1/$f"
    done
}

echo "== [$((SECONDS - started)) s] the tournament on one machine, without Slurm"
"$bin" tournament --game "$GAME" --agents "$AGENTS" --games "$GAMES" --format "$FORMAT" \
    --seed "$SEED" --out "$tmp/single" | tail -n 1

echo "== [$((SECONDS - started)) s] 1. four shards as an array job, then the merge job (afterany)"
export OUT=$tmp/run1
array=$(submit --array=0-3 examples/slurm/tournament.sbatch)
merge=$(submit --dependency="afterany:$array" examples/slurm/merge.sbatch)
echo "array job $array, merge job $merge"
wait_jobs "$array" "$merge"
grep -q "merge exit status 0" "$tmp/work/stickdice-merge_$merge.out" \
    || fail "the merge job failed: $(cat "$tmp/work/stickdice-merge_$merge.out")"
same_report "$tmp/single" "$OUT/merged"
echo "merged report of 4 shards = the one-machine report"

echo "== [$((SECONDS - started)) s] 2. again, cancelling shard 1 mid-run, then resubmitting it"
export OUT=$tmp/run2
array=$(submit --array=0-3 examples/slurm/tournament.sbatch)
merge=$(submit --dependency="afterany:$array" examples/slurm/merge.sbatch)
log1=$OUT/shard-1/games.jsonl
# Shard 1's games: of the 3 tables × GAMES/2 rotations (units of 2 games), those
# numbered 1 modulo 4.
units=$((3 * GAMES / 2))
games1=$((2 * ((units + 2) / 4)))
until [ -f "$log1" ] && [ "$(wc -l <"$log1")" -gt 20 ]; do
    [ "$(left)" -gt 0 ] || fail "shard 1 did not start"
    sleep 0.1
done
scancel "${array}_1"
wait_jobs "$array" "$merge"
logged=$(( $(wc -l <"$log1") - 1 ))
echo "shard 1 cancelled after $logged of its $games1 games"
[ "$logged" -lt "$games1" ] || fail "shard 1 finished before it was cancelled: make the tournament longer"
out=$tmp/work/stickdice-merge_$merge.out
grep -q "merge exit status 2" "$out" || fail "the merge should fail with shard 1 missing: $(cat "$out")"
grep -q "shard 1/4: games" "$out" || fail "the merge did not list shard 1's games: $(cat "$out")"
[ ! -e "$OUT/merged" ] || fail "a failed merge wrote $OUT/merged"
grep -q "resubmit: sbatch --array=1 " "$out" || fail "the merge job did not name task 1: $(cat "$out")"
grep "shard 1/4: games" "$out" | cut -c 1-100
again=$(submit --array=1 examples/slurm/tournament.sbatch)
merge=$(submit --dependency="afterany:$again" examples/slurm/merge.sbatch)
wait_jobs "$again" "$merge"
grep -q "more from the log" "$tmp/work/stickdice-shard_${again}_1.out" \
    || fail "the resubmitted shard did not resume its log"
grep -q "merge exit status 0" "$tmp/work/stickdice-merge_$merge.out" \
    || fail "the merge job failed: $(cat "$tmp/work/stickdice-merge_$merge.out")"
same_report "$tmp/single" "$OUT/merged"
echo "after scancel and resubmission, merged report = the one-machine report"

echo "== [$((SECONDS - started)) s] 3. an SPRT in batches of 2 rotations over 2 shards (examples/slurm/sprt.sh)"
export AGENTS=greedy,random GAMES=20000 SEED=3 SHARDS=2 OUT=$tmp/run3
"$bin" tournament --game "$GAME" --agents "$AGENTS" --sprt --elo1 20 --seed "$SEED" \
    --out "$tmp/single-sprt" | grep SPRT
SPRT="--elo0 0 --elo1 20" BATCH=2 timeout "$(left)" examples/slurm/sprt.sh --chdir="$tmp/work" \
    | tee "$tmp/sprt.out"
grep -q "batch up to rotation 4" "$tmp/sprt.out" || fail "the SPRT should need a second batch"
same_report "$tmp/single-sprt" "$OUT/merged"
echo "SPRT over shards in batches = the one-machine SPRT report"
echo "== slurm: done in $((SECONDS - started)) s"
