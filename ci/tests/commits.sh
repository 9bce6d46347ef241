#!/usr/bin/env bash
# Commit subjects from ci/commit-base on are `area: summary` in at most 72
# characters (tools/check-commits.sh, docs/developers.md): the commits made
# on this line (first parent), so a branch's own commits are checked on the
# branch and older history, or a branch merged in, is left as it is.  The rule itself is checked on subjects that break it and
# on a stretch of the old history, which it must refuse.
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh

if ! git rev-parse --git-dir >/dev/null 2>&1; then
	skip commits "not a git checkout"
	exit 0
fi
out=$(tools/check-commits.sh 2>&1)
if [ $? = 0 ]; then
	pass "commits-since-base (${out##*: })"
else
	fail commits-since-base "$(echo "$out" | head -3 | tr '\n' ' ')"
fi

# the rule: good subjects pass, bad ones are refused with the reason
ok=1
for s in "hostsim: one table for the core options" "rvmess parse: writers from one table" \
	"README, docs: results with their commands"; do
	tools/check-commits.sh --subject "$s" >/dev/null || { ok=0; fail commits-rule-good "refused: $s"; }
done
for s in "Fix stuff" "hostsim:no space" "hostsim: $(printf 'x%.0s' {1..70})"; do
	tools/check-commits.sh --subject "$s" >/dev/null && { ok=0; fail commits-rule-bad "accepted: $s"; }
done
[ $ok = 1 ] && pass commits-rule

# the range mode refuses the old history's long subjects (the reason for the base)
base=$(sed -n 's/^\([0-9a-f]\{40\}\).*/\1/p' ci/commit-base | head -1)
if git cat-file -e "$base~20^{commit}" 2>/dev/null; then
	if tools/check-commits.sh "$base~20..$base" >/dev/null; then
		fail commits-old-history-refused "20 commits before the base passed the rule"
	else
		pass commits-old-history-refused
	fi
else
	skip commits-old-history-refused "the history before ci/commit-base is not here (shallow clone)"
fi
finish
