#!/usr/bin/env bash
# An SPRT on a Slurm cluster, in batches of rotations: every batch is an array job (one
# shard per task, each playing its share of the rotations below the batch's bound and
# resuming its log), followed by the merge job, which tests the SPRT over all rotations
# merged so far. Stops when the merge decides (exit status 0, report written) or fails
# (exit status 2: a shard failed; resubmit it as the merge job's output says, then run
# this again with FIRST set to the same bound).
#
#   AGENTS=mcts:iterations=2000,mcts:iterations=1000 SPRT="--elo0 0 --elo1 20" \
#       SHARDS=16 BATCH=64 OUT=/shared/me/sprt1 examples/slurm/sprt.sh
#
# Runs on the login node and waits for each batch (sbatch --wait); run it in screen/tmux.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export SHARDS=${SHARDS:-4}
BATCH=${BATCH:-32}                   # rotations per batch (2-player SPRT: 2 games each)
SPRT=${SPRT:-"--elo0 0 --elo1 20 --alpha 0.05 --beta 0.05"}
bound=${FIRST:-$BATCH}
while :; do
    export EXTRA="--sprt $SPRT --until-rotation $bound"
    array=$(sbatch --parsable --array="0-$((SHARDS - 1))" "$@" "$here/tournament.sbatch")
    array=${array%%;*}
    echo "batch up to rotation $bound: array job $array"
    status=0
    sbatch --wait --dependency="afterany:$array" "$@" "$here/merge.sbatch" || status=$?
    case $status in
        0) echo "decided: the report is in ${MERGED:-${OUT:-$PWD/stickdice-shards}/merged}"; exit 0 ;;
        3) bound=$((bound + BATCH)) ;;
        *) echo "the merge failed (status $status): see its output (stickdice-merge_*.out)" >&2; exit "$status" ;;
    esac
done
