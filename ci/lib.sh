# Sourced by the integration scripts ci/tests/*.sh (from the repo root):
# the case protocol ci/test.sh counts, the build folder, a scratch folder.
#   pass CASE            case passed
#   fail CASE WHY        case failed, counted in $fails
#   skip CASE WHY        case not run (one call per case left out)
#   scratch NAME         TMP = a new /tmp/rvmess-NAME.XXXXXX, removed at exit
#                        unless KEEP_TMP=1
#   finish               exit status: 0 when no case failed
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
