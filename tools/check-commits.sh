#!/usr/bin/env bash
# Commit subjects: `area: summary`, at most 72 characters (docs/developers.md).
#
#   tools/check-commits.sh [RANGE]     check the non-merge commits of RANGE
#                                      (default: the first-parent line of
#                                      ci/commit-base..HEAD, the commits made
#                                      on this line since the rule came in;
#                                      a branch's commits are checked on the
#                                      branch, before it is merged)
#   tools/check-commits.sh --subject "TEXT"   check one subject (the
#                                      commit-msg hook, tools/hooks/commit-msg)
# Prints each subject that breaks the rule with the reason; exit 1 if any.
# Older history is not checked: ci/commit-base names the last commit before
# the rule.  Outside a git checkout, or when the base is not in the history
# (a shallow clone), it says so and exits 0.
set -u
cd "$(dirname "$0")/.."
max=72
# area: one or more words of letters, digits and _ . / + - * , { } (e.g.
# "hostsim", "rvmess parse", "docs/memsys.md", "README, docs"); then ": "
# and a summary that does not start with a space.
re='^[A-Za-z0-9_./+*{}-]+([ ,]+[A-Za-z0-9_./+*{}-]+)*: [^ ].*$'

check_subject() { # SUBJECT [WHERE] -> 0 ok, 1 bad (reason printed)
	local s=$1 where=${2:-}
	local bad=""
	[ ${#s} -le $max ] || bad="${#s} characters (at most $max)"
	if ! [[ $s =~ $re ]]; then
		bad="${bad:+$bad; }not 'area: summary'"
	fi
	[ -z "$bad" ] && return 0
	echo "check-commits: ${where:+$where: }$bad: $s"
	return 1
}

if [ "${1:-}" = --subject ]; then
	check_subject "$2"
	exit
fi
git rev-parse --git-dir >/dev/null 2>&1 || { echo "check-commits: not a git checkout, nothing to check"; exit 0; }
if [ $# -ge 1 ]; then
	range=$1
	fp=
else
	base=$(sed -n 's/^\([0-9a-f]\{40\}\).*/\1/p' ci/commit-base | head -1)
	if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
		echo "check-commits: the base commit in ci/commit-base is not in this history (shallow clone?), nothing checked"
		exit 0
	fi
	range=$base..HEAD
	fp=--first-parent
fi
n=0 bad=0
while IFS= read -r line; do
	n=$((n + 1))
	check_subject "${line#* }" "${line%% *}" || bad=$((bad + 1))
done < <(git log $fp --no-merges --format='%h %s' "$range")
echo "check-commits: $n commit(s) in $range, $bad with a bad subject"
[ $bad = 0 ]
