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
# the plan's target command with $IMAGE = PLAN/images/ID.elf, $SIM = its
# configuration's hostsim options and $RUNDIR = PLAN/runs/ID (a folder of
# the job's own for the files it keeps, removed before the job starts; the
# command creates it), standard output to PLAN/logs/ID.log (after
# a first line "rvmess-job: plan=... job=ID config=NAME sim=OPTIONS" that
# ties the log to its job: rvmess merge refuses a log without it),
# standard error to PLAN/logs/ID.err, under the plan's time limit; its pid
# is in PLAN/logs/ID.pid while it runs.  Every file it writes is made anew
# (a link or a folder at its path is refused, never written through).  Locally, the progress (Mess points
# done from the images' `prog` records, jobs finished) is printed every few
# seconds.  Slurm: the array script is PLAN/slurm.sbatch (--time and --mem
# from the plan), each task's own output PLAN/slurm/JOB_TASK.out; --wait
# returns when every task has ended.  Exit status: 0 when every job's log is
# complete afterwards (for --slurm without --wait: submitted), 1 otherwise,
# 2 for usage errors and for any step that fails (rvmess merge --todo
# included: a corrupt manifest is never "nothing to run").  One local runner
# at a time per plan (a lock on the plan folder); do not run a plan locally
# while its Slurm array is still queued.  A plan with estimates
# (PLAN/estimate.tsv: RTL targets) has them printed before its jobs run
# and, with the truth of the jobs that ran, after (`rvmess plan --estimate
# PLAN -j N`).  Then: rvmess merge PLAN -o OUT.
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

field() { awk -F'\t' -v k="$1" '$1 == k { print $2; exit }' "$MAN" || die "$MAN: cannot read it"; }
RVMESS=${RVMESS:-$(field rvmess)}
[ -x "$RVMESS" ] || RVMESS=$ROOT/build/bin/rvmess
[ -x "$RVMESS" ] || die "rvmess not found (set RVMESS)"

# The jobs still to run, one id a line, into the variable named $1: any
# failure of rvmess merge --todo (a corrupt manifest, an unreadable base.elf,
# a crash) is the runner's failure, never an empty list
todo() { # VAR
	local out rc err
	err=$(mktemp) || die "mktemp failed"
	out=$("$RVMESS" merge "$PLAN" --todo 2>"$err"); rc=$?
	if [ "$rc" != 0 ]; then
		sed 's/^/sweep-run: /' "$err" >&2
		rm -f "$err"
		die "rvmess merge $PLAN --todo failed (exit $rc): cannot tell which jobs to run"
	fi
	rm -f "$err"
	case "$out" in *[!0-9$'\n']*) die "rvmess merge --todo printed something that is not job ids: ${out:0:80}" ;; esac
	printf -v "$1" '%s' "$out"
}

# A file made anew: what is at its path (a file, a link: the entry, never
# what it points to) is removed first; a folder there is refused
fresh() { # PATH
	if [ -d "$1" ] && [ ! -L "$1" ]; then die "$1 is a folder, not a file it can write"; fi
	rm -f -- "$1" || die "cannot replace $1"
}
# PATH TEXT: a new file holding TEXT and a newline (created exclusively)
write_new() {
	fresh "$1"
	( set -C; printf '%s\n' "$2" >"$1" ) || die "cannot write $1"
}

run_task() { # ID
	local id=$1 cmd time cfg sim log rc pid
	case "$id" in ''|*[!0-9]*) die "--task wants a job id, got '$id'" ;; esac
	cfg=$(awk -F'\t' -v id="$id" '$1 == "job" && $2 == id { print $3 }' "$MAN")
	[ -n "$cfg" ] || die "no job $id in $MAN"
	sim=$(awk -F'\t' -v c="$cfg" '$1 == "config" && $2 == c { print $3 }' "$MAN")
	cmd=$(field command) time=$(field time) planid=$(field id)
	[ -n "$cmd" ] && [ -n "$time" ] || die "$MAN: no command or time line"
	log=$PLAN/logs/$id.log
	if [ -L "$PLAN/logs" ] || { [ -e "$PLAN/logs" ] && [ ! -d "$PLAN/logs" ]; }; then
		die "$PLAN/logs is not a folder (a link is refused: job logs are written there)"
	fi
	mkdir -p "$PLAN/logs" || die "cannot create $PLAN/logs"
	if [ -L "$PLAN/runs" ] || { [ -e "$PLAN/runs" ] && [ ! -d "$PLAN/runs" ]; }; then
		die "$PLAN/runs is not a folder (a link is refused: the jobs keep their files there)"
	fi
	mkdir -p "$PLAN/runs" || die "cannot create $PLAN/runs"
	# the job's own folder, made anew by its command (a link there: the link removed)
	rm -rf -- "$PLAN/runs/$id" || die "cannot remove $PLAN/runs/$id (a previous run's)"
	fresh "$log"; fresh "$PLAN/logs/$id.err"
	# the log's first line ties it to this job of this plan (rvmess merge checks it)
	( set -C; exec 3>"$log" 4>"$PLAN/logs/$id.err" || exit 2
	  printf 'rvmess-job: plan=%s job=%s config=%s sim=%s\n' "${planid:--}" "$id" "$cfg" "$sim" >&3 || exit 2
	  IMAGE=$PLAN/images/$id.elf SIM=$sim RUNDIR=$PLAN/runs/$id exec timeout "$time" sh -c "exec $cmd" </dev/null >&3 2>&4 3>&- 4>&- ) &
	pid=$!
	write_new "$PLAN/logs/$id.pid" "$pid"
	wait "$pid"; rc=$?
	rm -f "$PLAN/logs/$id.pid"
	write_new "$PLAN/logs/$id.status" "$rc"
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
# The plan's estimates (and, for the jobs that ran, the truth), when it has them
estimate() { # PARALLEL
	[ -f "$PLAN/estimate.tsv" ] || return 0
	"$RVMESS" plan --estimate "$PLAN" -j "$1" || echo "sweep-run: rvmess plan --estimate $PLAN failed (above); running anyway" >&2
}

# slurm_cpus [SBATCH-OPTIONS]: the CPUs of the partition the array goes to
# (-p/--partition among the options, else the default one), from sinfo; empty
# when sinfo cannot tell
slurm_cpus() {
	local part="" c
	while [ $# -gt 0 ]; do
		case $1 in
		-p | --partition) part=${2:-}; shift ;;
		--partition=*) part=${1#--partition=} ;;
		-p?*) part=${1#-p} ;;
		esac
		shift
	done
	command -v sinfo >/dev/null 2>&1 || return 0
	# %P: the partition (the default one ends in *), %C: CPUs allocated/idle/other/total
	c=$(sinfo -h -o '%P %C' 2>/dev/null | awk -v p="$part" '
		{ n = $1; d = sub(/\*$/, "", n); split($2, a, "/") }
		(p == "" && d) || (p != "" && n == p) { print a[4]; exit }')
	case $c in '' | *[!0-9]* | 0) ;; *) echo "$c" ;; esac
}

run_local() {
	local ids total start xpid d e rc left
	todo ids
	ids=$(printf '%s' "$ids" | tr '\n' ' ')
	ids=${ids% }
	njobs=$(awk -F'\t' '$1 == "job"' "$MAN" | wc -l)
	if [ -z "$ids" ]; then
		echo "sweep-run: all $njobs jobs of $PLAN have complete logs; nothing to run"
		return 0
	fi
	set -- $ids
	estimate "$jobs"
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
	wait "$xpid"; rc=$?
	# 123: some task failed (its log says how; --todo below names it); else xargs itself failed
	case $rc in 0|123) ;; *) die "the job launcher (xargs) failed with exit $rc" ;; esac
	estimate "$jobs"
	todo left
	left=$(printf '%s' "$left" | tr '\n' ' ')
	left=${left% }
	if [ -n "$left" ]; then
		echo "sweep-run: jobs still without a complete log: $left (run again to resume)" >&2
		return 1
	fi
	echo "sweep-run: all $njobs jobs done in $(fmt_t $(($(date +%s) - start))); merge: $RVMESS merge $PLAN -o OUT"
	return 0
}

if [ "$mode" = local ] || [ "$mode" = adaptive ]; then
	exec 9<"$PLAN" || die "cannot open $PLAN to lock it"
	flock -n 9 || die "another runner is running $PLAN (it holds a lock on the folder)"
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
		run_local || exit $?
		out=$("$RVMESS" plan --refine "$PLAN"); rc=$?
		[ "$rc" = 0 ] || die "rvmess plan --refine $PLAN failed (exit $rc): the plan is not finished"
		echo "$out"
		case "$out" in *" 0 new jobs"*) break ;; esac
	done
	exit 0
	;;
slurm)
	command -v sbatch >/dev/null 2>&1 || die "sbatch not found (Slurm's client; tools/deps.sh installs slurm-wlm)"
	todo ids
	ids=$(printf '%s' "$ids" | paste -sd, -)
	if [ -z "$ids" ]; then
		echo "sweep-run: every job of $PLAN has a complete log; nothing to submit"
		exit 0
	fi
	t=$(field time) mem=$(field mem)
	[ -n "$t" ] && [ -n "$mem" ] || die "$MAN: no time or mem line"
	if [ -L "$PLAN/slurm" ] || { [ -e "$PLAN/slurm" ] && [ ! -d "$PLAN/slurm" ]; }; then die "$PLAN/slurm is not a folder"; fi
	mkdir -p "$PLAN/slurm" || die "cannot create $PLAN/slurm"
	if [ -d "$PLAN/slurm.sbatch" ] && [ ! -L "$PLAN/slurm.sbatch" ]; then die "$PLAN/slurm.sbatch is a folder"; fi
	sb=$(mktemp "$PLAN/.slurm.sbatch.XXXXXX") || die "cannot write into $PLAN"
	cat >"$sb" <<EOF
#!/bin/sh
#SBATCH --job-name=rvmess-sweep
#SBATCH --time=$((t / 60)):$((t % 60))
#SBATCH --mem=$mem
#SBATCH --cpus-per-task=1
#SBATCH --output=$PLAN/slurm/%A_%a.out
# one task per job of $PLAN (the array index is the job id); written by tools/sweep-run.sh
exec "$SELF" "$PLAN" --task "\$SLURM_ARRAY_TASK_ID"
EOF
	{ [ $? = 0 ] && chmod 644 "$sb" && mv -f -- "$sb" "$PLAN/slurm.sbatch"; } || { rm -f "$sb"; die "cannot write $PLAN/slurm.sbatch"; }
	ntask=$(printf '%s\n' "$ids" | tr ',' '\n' | wc -l)
	# the estimate's tasks at once: as many as there are, or as the
	# partition has CPUs (a task asks for one), if sinfo tells
	par=$ntask cpus=$(slurm_cpus "$@")
	if [ -n "$cpus" ] && [ "$cpus" -lt "$ntask" ]; then
		par=$cpus
		echo "sweep-run: the partition has $cpus CPUs for $ntask tasks: the estimate runs $cpus at once"
	fi
	estimate "$par"
	w=()
	[ "$wait" = 1 ] && w=(--wait)
	echo "sweep-run: sbatch --array=$ids ${w[*]} $* $PLAN/slurm.sbatch"
	# without --wait a failure is the submission's; with it, also a task's
	# (then --todo below tells which jobs are left)
	sbatch --array="$ids" "${w[@]}" "$@" "$PLAN/slurm.sbatch"; rc=$?
	[ "$rc" = 0 ] || [ "$wait" = 1 ] || die "sbatch failed (exit $rc): nothing submitted"
	if [ "$wait" = 1 ]; then
		estimate "$par"
		todo left
		left=$(printf '%s' "$left" | paste -sd' ' -)
		[ -z "$left" ] || { echo "sweep-run: jobs still without a complete log: $left (run again to resume)" >&2; exit 1; }
		echo "sweep-run: every array task ended with a complete log; merge: $RVMESS merge $PLAN -o OUT"
	fi
	exit 0
	;;
esac
