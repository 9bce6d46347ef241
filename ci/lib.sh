# Sourced by the integration scripts ci/tests/*.sh (from the repo root):
# the line protocol ci/test.sh counts, the build folder, a scratch folder.
#   pass CASE            "PASS CASE"
#   fail CASE WHY        "FAIL CASE WHY", counted in $fails
#   skip CASE WHY        "SKIP CASE WHY"
#   scratch NAME         TMP = a new /tmp/rvmess-NAME.XXXXXX, removed at exit
#                        unless KEEP_TMP=1
#   finish               exit status: 0 when no case failed
BUILD=${BUILD:-build}
fails=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1 ${2:-}"; fails=$((fails + 1)); }
skip() { echo "SKIP $1 ${2:-}"; }
scratch() {
	TMP=$(mktemp -d "/tmp/rvmess-$1.XXXXXX") || exit 1
	[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$TMP"' EXIT
}
finish() { [ "$fails" = 0 ]; }
