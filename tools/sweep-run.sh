#!/usr/bin/env bash
# Run a plan directory made by `rvmess plan` (docs/sweeps.md).
#
#   sweep-run.sh PLAN [-j N] [--progress plain|off]   locally, N jobs at once (default: the core count)
#   sweep-run.sh PLAN --adaptive [-j N]               locally, then `rvmess plan --refine` and again,
#                                                     until no curve needs another point
#   sweep-run.sh PLAN --slurm [--wait] [-- SBATCH-OPTIONS]  one Slurm job array (sbatch --array)
#   sweep-run.sh PLAN --task ID                       one job (what each array task runs)
#
# Every mode runs only the jobs whose log is missing, incomplete or damaged
# (`rvmess merge PLAN --todo`): running a plan again resumes it.  A job runs
# the plan's target command with $IMAGE = PLAN/images/ID.elf and $SIM = its
# configuration's hostsim options, standard output to PLAN/logs/ID.log,
# standard error to PLAN/logs/ID.err, under the plan's time limit; its pid
# is in PLAN/logs/ID.pid while it runs.  Locally, the progress (Mess points
# done from the images' `prog` records, jobs finished) is printed every few
# seconds.  Slurm: the array script is PLAN/slurm.sbatch (--time and --mem
# from the plan), each task's own output PLAN/slurm/JOB_TASK.out; --wait
# returns when every task has ended.  Exit status: 0 when every job's log is
# complete afterwards (for --slurm without --wait: submitted), 1 otherwise,
# 2 for usage errors.  One local runner at a time per plan (a lock file); do not
# run a plan locally while its Slurm array is still queued.  Then: rvmess merge PLAN -o OUT.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
SELF="$ROOT/tools/sweep-run.sh"
die() { echo "sweep-run: $*" >&2; exit 2; }

[ $# -ge 1 ] || die "usage: $0 PLAN [-j N | --adaptive | --slurm [--wait] | --task ID]"
PLAN=$1; shift
[ -f "$PLAN/manifest.tsv" ] || die "$PLAN/manifest.tsv not found (rvmess plan writes it)"
PLAN=$(cd "$PLAN" && pwd)
MAN=$PLAN/manifest.tsv
mode=local jobs=$(nproc) task="" wait=0 progress=plain
while [ $# -gt 0 ]; do
	case "$1" in
	-j) jobs=${2:-}; shift 2 ;;
	--task) mode=task; task=${2:-}; shift 2 ;;
	--slurm) mode=slurm; shift ;;
	--adaptive) mode=adaptive; shift ;;
	--wait) wait=1; shift ;;
	--progress) progress=${2:-}; shift 2 ;;
	--) shift; break ;;
	*) die "unknown argument '$1'" ;;
	esac
done
case "$jobs" in ''|*[!0-9]*|0) die "-j wants a positive number, got '$jobs'" ;; esac

field() { awk -F'\t' -v k="$1" '$1 == k { print $2; exit }' "$MAN"; }
RVMESS=${RVMESS:-$(field rvmess)}
[ -x "$RVMESS" ] || RVMESS=$ROOT/build/bin/rvmess
[ -x "$RVMESS" ] || die "rvmess not found (set RVMESS)"

todo() { "$RVMESS" merge "$PLAN" --todo; }

run_task() { # ID
	local id=$1 cmd time cfg sim log rc pid
	case "$id" in ''|*[!0-9]*) die "--task wants a job id, got '$id'" ;; esac
	cfg=$(awk -F'\t' -v id="$id" '$1 == "job" && $2 == id { print $3 }' "$MAN")
	[ -n "$cfg" ] || die "no job $id in $MAN"
	sim=$(awk -F'\t' -v c="$cfg" '$1 == "config" && $2 == c { print $3 }' "$MAN")
	cmd=$(field command) time=$(field time)
	log=$PLAN/logs/$id.log
	mkdir -p "$PLAN/logs"
	IMAGE=$PLAN/images/$id.elf SIM=$sim timeout "$time" sh -c "exec $cmd" </dev/null >"$log" 2>"$PLAN/logs/$id.err" &
	pid=$!
	echo "$pid" >"$PLAN/logs/$id.pid"
	wait "$pid"; rc=$?
	rm -f "$PLAN/logs/$id.pid"
	echo "$rc" >"$PLAN/logs/$id.status"
	[ "$rc" = 124 ] && echo "sweep-run: job $id: stopped at the plan's time limit (${time}s)" >&2
	return "$rc"
}

# Mess points planned in the given jobs (mixes x pauses x reps)
points_of() {
	awk -F'\t' -v ids=" $* " '
		$1 == "reps" { reps = $2 }
		$1 == "job" && index(ids, " " $2 " ") && $5 != "-" { n += split($5, a, ",") * split($6, b, ",") }
		END { print n * (reps ? reps : 1) }' "$MAN"
}
# Mess points done in the given jobs' logs (their last prog record) and the logs that ended
done_of() {
	local id d n=0 e=0
	for id in "$@"; do
		[ -f "$PLAN/logs/$id.log" ] || continue
		d=$(grep -a ' prog h=[0-9]* suite=mess ' "$PLAN/logs/$id.log" | tail -1 | sed -n 's/.* done=\([0-9]*\).*/\1/p')
		n=$((n + ${d:-0}))
		grep -aqE '@RVM [0-9]+ end ' "$PLAN/logs/$id.log" && e=$((e + 1))
	done
	echo "$n $e"
}
fmt_t() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }

run_local() {
	local ids total start xpid d e rc left
	ids=$(todo | tr '\n' ' ')
	ids=${ids% }
	njobs=$(awk -F'\t' '$1 == "job"' "$MAN" | wc -l)
	if [ -z "$ids" ]; then
		echo "sweep-run: all $njobs jobs of $PLAN have complete logs; nothing to run"
		return 0
	fi
	set -- $ids
	echo "sweep-run: running $# of $njobs jobs, $jobs at a time: $ids"
	total=$(points_of "$@")
	start=$(date +%s)
	printf '%s\n' "$@" | xargs -P "$jobs" -I{} "$SELF" "$PLAN" --task {} &
	xpid=$!
	while kill -0 "$xpid" 2>/dev/null; do
		sleep 2
		if [ "$progress" != off ]; then
			read -r d e <<<"$(done_of "$@")"
			echo "sweep-run: $d/$total Mess points, $e/$# jobs ended, $(fmt_t $(($(date +%s) - start))) elapsed" >&2
		fi
	done
	wait "$xpid"
	left=$(todo | tr '\n' ' ')
	left=${left% }
	if [ -n "$left" ]; then
		echo "sweep-run: jobs still without a complete log: $left (run again to resume)" >&2
		return 1
	fi
	echo "sweep-run: all $njobs jobs done in $(fmt_t $(($(date +%s) - start))); merge: $RVMESS merge $PLAN -o OUT"
	return 0
}

if [ "$mode" = local ] || [ "$mode" = adaptive ]; then
	exec 9>"$PLAN/.run.lock"
	flock -n 9 || die "another runner is running $PLAN (its lock: $PLAN/.run.lock)"
fi
case $mode in
task)
	run_task "$task"
	exit $?
	;;
local)
	run_local
	exit $?
	;;
adaptive)
	while :; do
		run_local || exit 1
		out=$("$RVMESS" plan --refine "$PLAN") || exit 1
		echo "$out"
		case "$out" in *" 0 new jobs"*) break ;; esac
	done
	exit 0
	;;
slurm)
	command -v sbatch >/dev/null 2>&1 || die "sbatch not found (Slurm's client; tools/deps.sh installs slurm-wlm)"
	ids=$(todo | paste -sd, -)
	if [ -z "$ids" ]; then
		echo "sweep-run: every job of $PLAN has a complete log; nothing to submit"
		exit 0
	fi
	t=$(field time) mem=$(field mem)
	mkdir -p "$PLAN/slurm"
	cat >"$PLAN/slurm.sbatch" <<EOF
#!/bin/sh
#SBATCH --job-name=rvmess-sweep
#SBATCH --time=$((t / 60)):$((t % 60))
#SBATCH --mem=$mem
#SBATCH --cpus-per-task=1
#SBATCH --output=$PLAN/slurm/%A_%a.out
# one task per job of $PLAN (the array index is the job id); written by tools/sweep-run.sh
exec "$SELF" "$PLAN" --task "\$SLURM_ARRAY_TASK_ID"
EOF
	w=()
	[ "$wait" = 1 ] && w=(--wait)
	echo "sweep-run: sbatch --array=$ids ${w[*]} $* $PLAN/slurm.sbatch"
	sbatch --array="$ids" "${w[@]}" "$@" "$PLAN/slurm.sbatch" || { [ "$wait" = 1 ] || exit 1; }
	if [ "$wait" = 1 ]; then
		left=$(todo | paste -sd' ' -)
		[ -z "$left" ] || { echo "sweep-run: jobs still without a complete log: $left (run again to resume)" >&2; exit 1; }
		echo "sweep-run: every array task ended with a complete log; merge: $RVMESS merge $PLAN -o OUT"
	fi
	exit 0
	;;
esac
