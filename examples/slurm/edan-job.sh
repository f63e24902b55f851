#!/bin/bash
# examples/slurm/edan-job.sh - a Slurm batch script that traces every rank
# of an MPI job with `edan trace` under srun, then writes the job report
# (`edan job`). Submit it from the directory holding edan:
#   sbatch -n 4 examples/slurm/edan-job.sh [RESULTS_DIR [PROGRAM ARGS...]]
# (default: results/ and the halo-exchange stencil, 100 cells, 4 sweeps).
# Each rank writes RESULTS_DIR/rank<N>.json (%r in the path); the job
# report goes to RESULTS_DIR/job.txt, job.json and job.svg. EDAN_FUNC names
# the kernel (default kernel_stencil); EDAN_OPTIONS adds analysis options
# (e.g. "--profile profiles/" picks each node's own profile). srun starts the
# ranks through PMIx (--mpi=pmix), as Debian's Open MPI needs.
#SBATCH --job-name=edan
#SBATCH --output=edan-%j.out
set -euo pipefail
EDAN=${EDAN:-./edan}
results=${1:-results}
shift || true
if [ $# -eq 0 ]; then set -- build/examples-host/mpi_stencil 100 4; fi
mkdir -p "$results"
# shellcheck disable=SC2086
srun --mpi=pmix ${SRUN_OPTIONS:-} "$EDAN" trace --quiet --json ${EDAN_OPTIONS:-} --func "${EDAN_FUNC:-kernel_stencil}" \
  -o "$results/rank%r.json" -- "$@"
"$EDAN" job "$results"/rank*.json > "$results/job.txt"
"$EDAN" job --json --svg "$results/job.svg" "$results"/rank*.json > "$results/job.json"
cat "$results/job.txt"
