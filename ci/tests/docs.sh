#!/usr/bin/env bash
# The parts of docs/ made from tables and sources in the repo are up to date
# (tools/gen-docs.sh --check: hostsim's options table in docs/hostsim.md,
# the SVG pictures from docs/pictures/*.txt), and hostsim's --help,
# --print-config and the docs' table come from the one options table.
# README and docs name no commit of this repository (history is git log's;
# upstream pins such as a CVA6 or OpenPiton commit are facts and stay), and
# the README stays short, and README and docs name no path of one machine
# (/work, /home, /root).
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
[ -x "$BUILD/bin/hostsim" ] || { fail docs "build/bin/hostsim missing"; exit 1; }

out=$(tools/gen-docs.sh --check 2>&1)
if [ $? = 0 ]; then
	pass docs-generated-up-to-date
else
	fail docs-generated-up-to-date "$(echo "$out" | head -2 | tr '\n' ' ')"
fi

# every option of the table is in --help with its range and default, and
# in the docs' table; --print-config's keys are the table's
md=$("$BUILD/bin/hostsim" --options-markdown)
help=$("$BUILD/bin/hostsim" --help)
ok=1
while IFS= read -r opt; do
	grep -qF -- "  --$opt " <<<"$help" || { ok=0; fail docs-options-help "--help lacks --$opt"; }
	grep -qF -- "| \`--$opt" docs/hostsim.md || { ok=0; fail docs-options-table "docs/hostsim.md lacks --$opt"; }
done < <(sed -n 's/^| `--\([a-z0-9-]*\).*/\1/p' <<<"$md")
grep -qF -- '--harts N          harts (1..64, default 1)' <<<"$help" ||
	{ ok=0; fail docs-options-help "--harts's range and default not in --help"; }
[ $ok = 1 ] && pass "docs-options ($(grep -c '^| `--' <<<"$md") options in --help and docs/hostsim.md)"
bad=$("$BUILD/bin/hostsim" --machine cva6 --harts 2 --max-insns 5 --fdt-disabled 1 --memory-order tso --print-config |
	sed -n 's/^\([a-z0-9-]*\)=.*/\1/p' | sort -u | while read -r k; do
		"$BUILD/bin/hostsim" --help | grep -qE -- "^  --(no-)?$k |^$k " || echo "$k"; done | tr '\n' ' ')
if [ -z "$bad" ]; then
	pass docs-print-config-keys
else
	fail docs-print-config-keys "not in --help: $bad"
fi

if git rev-parse --git-dir >/dev/null 2>&1; then
	hashes=$(grep -ohP '\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b' README.md docs/*.md | sort -u |
		while read -r h; do git cat-file -e "$h^{commit}" 2>/dev/null && echo "$h"; done | tr '\n' ' ')
	if [ -z "$hashes" ]; then
		pass docs-no-commit-hashes
	else
		fail docs-no-commit-hashes "README/docs name commits of this repository: $hashes"
	fi
else
	skip docs-no-commit-hashes "not a git checkout"
fi
# paths of one machine (a developer's checkout, RTL trees, home) mean
# nothing to a reader: docs name checkouts PITON, CVA6, RUN ...
paths=$(grep -noE '(^|[ `(=])/(work|home|root)/[^ `)]*' README.md docs/*.md | head -n 5 | tr '\n' ' ')
if [ -z "$paths" ]; then
	pass docs-no-machine-paths
else
	fail docs-no-machine-paths "README/docs name paths of one machine: $paths"
fi
n=$(wc -l <README.md)
if [ "$n" -le 200 ]; then pass "docs-readme-short ($n lines)"; else fail docs-readme-short "README.md has $n lines (at most 200)"; fi
finish
