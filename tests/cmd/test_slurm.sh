#!/usr/bin/env bash
# A single-node Slurm cluster on this machine (Debian's slurm-wlm and
# munge): the test writes a slurm.conf for this host, starts munged,
# slurmctld and slurmd itself (their sockets, state and logs under its own
# directory, ports of its own) and stops them by their pid. Then:
#  - `sbatch examples/slurm/edan-job.sh` (4 ranks of the stencil under srun)
#    completes, and its job report has each rank's W and D of the mpirun
#    run (test_mpi.sh works them out);
#  - `./probe` under srun writes one profile per node (-o DIR/%h.json), and
#    `--profile DIR` picks the node's own (the report says which file).
. "$(dirname "$0")/../lib.sh"
for t in munged slurmctld slurmd sbatch srun squeue; do
  command -v $t > /dev/null || { bad "$t is missing (tools/deps.sh installs slurm-wlm and munge)"; exit 1; }
done
[ -x build/examples-host/mpi_stencil ] || { bad "build/examples-host/mpi_stencil is not built (make)"; exit 1; }
[ -r /etc/munge/munge.key ] || { skip "slurm" "no munge key (/etc/munge/munge.key): the munge package makes it"; exit 0; }
S=$T/slurm
mkdir -p "$S/state" "$S/spool" "$S/log" "$S/munge"
host=$(hostname)
port=$((20000 + RANDOM % 20000))
stop() {
  local f p k
  for f in "$S/slurmd.pid" "$S/slurmctld.pid" "$S/munge/munged.pid"; do
    [ -s "$f" ] || continue
    p=$(cat "$f")
    kill "$p" 2> /dev/null
    for k in $(seq 100); do kill -0 "$p" 2> /dev/null || break; sleep 0.1; done
  done
  rm -rf "$T"
}
trap stop EXIT
munged --socket="$S/munge/munge.socket" --pid-file="$S/munge/munged.pid" --log-file="$S/log/munged.log" \
  --seed-file="$S/munge/seed" --force || { bad "munged did not start: $(tail -3 "$S/log/munged.log")"; exit 1; }
cat > "$S/slurm.conf" <<EOF
ClusterName=edantest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$S/munge/munge.socket
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
SlurmctldPort=$port
SlurmdPort=$((port + 1))
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=pmix
ReturnToService=2
$(slurmd -C | head -n 1) State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
EOF
export SLURM_CONF=$S/slurm.conf
slurmctld -f "$SLURM_CONF" || { bad "slurmctld did not start: $(tail -3 "$S/log/slurmctld.log")"; exit 1; }
slurmd -f "$SLURM_CONF" || { bad "slurmd did not start: $(tail -3 "$S/log/slurmd.log")"; exit 1; }
# the node comes up (a few seconds), at most 60 s
for k in $(seq 120); do sinfo -h -o %t 2> /dev/null | grep -q idle && break; sleep 0.5; done
sinfo -h -o %t | grep -q idle && ok "a single-node Slurm on $host: up" || { bad "the node did not come up: $(sinfo 2>&1)"; exit 1; }

# wait_job ID: until it has left the queue, at most 10 minutes
wait_job() { local k; for k in $(seq 1200); do squeue -h -j "$1" 2> /dev/null | grep -q . || return 0; sleep 0.5; done; return 1; }

# 1. the batch script: 4 ranks of the stencil, 100 cells, 4 sweeps
id=$(sbatch --parsable -n 4 -N 1 --overcommit --export=ALL,SRUN_OPTIONS=--overcommit -o "$S/job.out" \
       examples/slurm/edan-job.sh "$S/results" build/examples-host/mpi_stencil 100 4)
wait_job "$id" || bad "job $id did not end"
if [ -s "$S/results/job.json" ]; then
  python3 - "$S/results/job.json" <<'EOF' && ok "sbatch examples/slurm/edan-job.sh: the job report of 4 ranks, each rank's W and D as under mpirun" || bad "the Slurm job report differs: $(head -c 600 "$S/results/job.json")"
import json, sys
d = json.load(open(sys.argv[1]))
got = [(r["rank"], r["W"], r["D"]) for r in d["by_rank"]]
want = [(0, 4 * (3 * 99 + 2), 8), (1, 4 * (3 * 100 + 2), 8), (2, 4 * (3 * 100 + 2), 8), (3, 4 * (3 * 99 + 2), 8)]
assert got == want, got
EOF
else
  bad "sbatch examples/slurm/edan-job.sh wrote no job report: $(tail -5 "$S/job.out")"
fi

# 2. a profile per node: probe under srun with -o DIR/%h.json; --profile DIR picks this node's
mkdir -p "$S/profiles"
srun -n 1 ./probe --quick --budget 2 -q -o "$S/profiles/%h.json" > /dev/null 2> "$S/probe.err"
[ -s "$S/profiles/$host.json" ] && ok "probe under srun: $S/profiles/$host.json" || bad "probe -o %h: $(ls "$S/profiles" 2>&1) $(tail -2 "$S/probe.err")"
./edan trace --quiet --json --profile "$S/profiles" --func kernel_stencil -o "$S/p.json" -- build/examples-host/mpi_stencil 10 1 \
  > /dev/null 2> "$S/err"
python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); sys.exit(not d.get("profile", "").endswith(sys.argv[2] + ".json"))' \
  "$S/p.json" "$host" 2> /dev/null && ok "--profile DIR: this node's own profile ($host.json)" \
  || bad "--profile DIR: $(head -c 300 "$S/p.json" 2>&1) $(tail -2 "$S/err")"
exit $fail
