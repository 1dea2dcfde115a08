#!/usr/bin/env bash
# Submits a sharded stickdice tournament: the array job (one shard per task) and the merge
# job that waits for all of its tasks to end. Prints the two job ids.
#
#   SHARDS=8 OUT=/shared/me/run1 examples/slurm/submit.sh [more sbatch options]
#
# The options of tournament.sbatch and merge.sbatch (STICKDICE, AGENTS, GAMES, SHARDS,
# OUT, ...) are read from the environment, which sbatch passes on to the jobs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export SHARDS=${SHARDS:-4}
# At most MaxArraySize − 1 (1000 by default) as the highest task id.
array=$(sbatch --parsable --array="0-$((SHARDS - 1))" "$@" "$here/tournament.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterany:$array" "$@" "$here/merge.sbatch")
merge=${merge%%;*}
echo "array job $array (shards 0-$((SHARDS - 1))), merge job $merge"
