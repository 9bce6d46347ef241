# Sourced by the integration scripts ci/tests/*.sh (from the repo root):
# the case protocol ci/test.sh counts, the build folder, a scratch folder.
#   pass CASE            case passed
#   fail CASE WHY        case failed, counted in $fails
#   skip CASE WHY        case not run (one call per case left out)
#   scratch NAME         TMP = a new /tmp/rvmess-NAME.XXXXXX, removed at exit
#                        unless KEEP_TMP=1
#   finish               exit status: 0 when no case failed
#   slurm_cluster CASE...  a Slurm cluster of 2 CPUs in $TMP/slurm
#                        (tools/slurm-local.sh) for the cases named:
#                        SLURM_CONF exported, SLURM_DIR its folder, SLURM_PIDS
#                        its daemons; stopped at exit, before TMP goes.
#                        Status 1 when the cases cannot run: each skipped
#                        (not root, no slurm-wlm or munge) or failed (the
#                        cluster did not start)
# Each helper prints "PASS CASE", "FAIL CASE WHY" or "SKIP CASE WHY" for the
# reader and, when ci/test.sh runs the script, appends the same verdict as a
# tab-separated line to the file named by RVMESS_RESULTS.  ci/test.sh counts
# only that file, so tool output that happens to start with "PASS " counts
# for nothing.  CASE is the first word of the first argument; the rest of it
# is a note (e.g. "hostsim-fixed-flat (max deviation 0.01)").
# A check that weakens when a tool is missing must not PASS under its usual
# name: skip it (or pass a differently named, weaker case).
BUILD=${BUILD:-build}
fails=0
_verdict() { # VERDICT CASE [WHY]
	local v=$1 c=$2 why=${3:-}
	echo "$v $c${why:+ $why}"
	if [ -n "${RVMESS_RESULTS:-}" ]; then
		printf '%s\t%s\t%s\n' "$v" "${c%% *}" "$(printf '%s' "${c#"${c%% *}"}${why:+ $why}" | tr '\t\n' '  ')" \
			>>"$RVMESS_RESULTS"
	fi
}
pass() { _verdict PASS "$1"; }
fail() { _verdict FAIL "$1" "${2:-}"; fails=$((fails + 1)); }
skip() { _verdict SKIP "$1" "${2:-}"; }
scratch() {
	TMP=$(mktemp -d "/tmp/rvmess-$1.XXXXXX") || exit 1
	[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$TMP"' EXIT
}
finish() { [ "$fails" = 0 ]; }
slurm_cluster() {
	local c
	if [ "$(id -u)" != 0 ] || ! command -v sbatch >/dev/null || ! [ -x /usr/sbin/slurmctld ] ||
		! command -v munged >/dev/null; then
		for c in "$@"; do skip "$c" "needs root and slurm-wlm + munge (tools/deps.sh)"; done
		return 1
	fi
	SLURM_DIR=$TMP/slurm
	SLURM_PIDS=""
	trap _slurm_cleanup EXIT
	trap 'exit 1' INT TERM
	if ! tools/slurm-local.sh start "$SLURM_DIR" 2 >"$TMP/slurm-start.out" 2>&1; then
		for c in "$@"; do fail "$c" "the local cluster did not start: $(tail -2 "$TMP/slurm-start.out" | tr '\n' '|')"; done
		return 1
	fi
	SLURM_PIDS=$(cat "$SLURM_DIR"/*.pid)
	export SLURM_CONF=$SLURM_DIR/slurm.conf
}
_slurm_cleanup() {
	local p
	if [ -f "$SLURM_DIR/slurm.conf" ]; then
		SLURM_CONF=$SLURM_DIR/slurm.conf scancel --user=root >/dev/null 2>&1
		tools/slurm-local.sh stop "$SLURM_DIR"
	fi
	for p in ${SLURM_PIDS:-}; do kill -9 "$p" 2>/dev/null; done # whatever stop left behind
	[ -n "${KEEP_TMP:-}" ] || rm -rf "$TMP"
}
