#!/usr/bin/env bash
# A throw-away single-node Slurm cluster on localhost, everything in one
# directory: munged with its own key and socket, slurmctld and slurmd on
# non-default ports, state, spool, logs and pid files under DIR.  Touches no
# system configuration.  Needs root (slurmd runs the jobs as their user) and
# Debian's slurm-wlm and munge (tools/deps.sh installs them).
#
#   tools/slurm-local.sh start DIR [CPUS]   start the three daemons, wait until the node is idle
#   tools/slurm-local.sh env DIR            print `export SLURM_CONF=...` for sbatch/squeue/scancel
#   tools/slurm-local.sh stop DIR           stop them by their pid files (safe to call twice)
#
# After `start`, `SLURM_CONF=DIR/slurm.conf sbatch ...` submits to it.
set -u

die() { echo "slurm-local: $*" >&2; exit 1; }

cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || die "usage: $0 start|env|stop DIR [CPUS]"

stop() {
    local f pid n
    for f in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munged.pid"; do
        [ -f "$f" ] || continue
        pid=$(cat "$f" 2>/dev/null)
        case "$pid" in ''|*[!0-9]*) rm -f "$f"; continue ;; esac
        kill "$pid" 2>/dev/null
        for n in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
        rm -f "$f"
    done
}

case "$cmd" in
stop) stop; exit 0 ;;
env) echo "export SLURM_CONF=$(cd "$dir" && pwd)/slurm.conf"; exit 0 ;;
start) ;;
*) die "unknown command '$cmd' (start, env or stop)" ;;
esac

[ "$(id -u)" = 0 ] || die "needs root (slurmd starts the jobs)"
for b in munged slurmctld slurmd sbatch sinfo; do
    command -v "$b" >/dev/null 2>&1 || [ -x "/usr/sbin/$b" ] || die "$b not found: run tools/deps.sh (slurm-wlm, munge)"
done
export PATH="$PATH:/usr/sbin"
mkdir -p "$dir" || die "cannot create $dir"
dir=$(cd "$dir" && pwd)
cpus=${3:-$(nproc)}
host=$(hostname -s)
# two free ports, from a range away from Slurm's defaults (6817/6818)
port() { # a port nobody listens on
    local p
    for p in $(shuf -i 20000-60000 -n 40); do
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
    done
    die "no free port"
}
cport=$(port); dport=$(port)
while [ "$dport" = "$cport" ]; do dport=$(port); done

mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
chmod 700 "$dir/munge"
head -c 1024 /dev/urandom > "$dir/munge/munge.key"
chmod 400 "$dir/munge/munge.key"
munged --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
       --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" \
       --seed-file="$dir/munge/munge.seed" --force 2>>"$dir/munged.log" ||
    { stop; die "munged did not start (see $dir/munged.log)"; }

cat > "$dir/slurm.conf" <<EOF
ClusterName=rvmess
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
SlurmctldPort=$cport
SlurmdPort=$dport
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MpiDefault=none
SchedulerType=sched/backfill
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=2000 State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -c -f "$SLURM_CONF" 2>>"$dir/slurmctld.log" || { stop; die "slurmctld did not start (see $dir/slurmctld.log)"; }
slurmd -f "$SLURM_CONF" 2>>"$dir/slurmd.log" || { stop; die "slurmd did not start (see $dir/slurmd.log)"; }
for n in $(seq 100); do
    st=$(sinfo -h -N -o '%t' 2>/dev/null | head -1)
    case "$st" in idle*|mix*|alloc*) exit 0 ;; esac
    sleep 0.2
done
stop
die "the node did not come up (state '${st:-none}'; see $dir/slurmctld.log, $dir/slurmd.log)"
