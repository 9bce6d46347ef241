#!/usr/bin/env bash
# Regenerate the parts of docs/ that come from tables in the code, between
# their markers:
#   docs/hostsim.md  hostsim's core options (hostsim/sim/opts.c's core_opts,
#                    printed by `hostsim --options-markdown`)
#   docs/architecture.md's pictures: docs/*.svg from docs/pictures/*.txt
#                    (tools/boxes.py, see docs/architecture.md)
#
#   tools/gen-docs.sh           rewrite them in place
#   tools/gen-docs.sh --check   change nothing; exit 1 naming each part that
#                               differs (ci/tests/docs.sh runs this)
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
check=0
[ "${1:-}" = --check ] && check=1
status=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# replace_block FILE NAME GENERATED: the lines between
# "<!-- NAME: begin -->" and "<!-- NAME: end -->" in FILE
replace_block() {
	local file=$1 name=$2 gen=$3
	awk -v b="<!-- $name: begin" -v e="<!-- $name: end" -v g="$gen" '
		index($0, b) == 1 { print; while ((getline l < g) > 0) print l; skip = 1; next }
		index($0, e) == 1 { skip = 0 }
		!skip { print }' "$file" >"$tmp/new"
	grep -q "^<!-- $name: begin" "$file" || { echo "gen-docs: $file has no '<!-- $name: begin -->' marker" >&2; status=1; return; }
	update "$file" "$tmp/new"
}

# update TARGET NEW: install NEW as TARGET, or with --check say it differs
update() {
	if cmp -s "$1" "$2"; then
		return
	elif [ $check = 1 ]; then
		echo "gen-docs: $1 is out of date (run tools/gen-docs.sh)" >&2
		diff "$1" "$2" | head -10 >&2 || true
		status=1
	else
		cp "$2" "$1"
		echo "gen-docs: wrote $1"
	fi
}

[ -x "$BUILD/bin/hostsim" ] || make -s "$BUILD/bin/hostsim"
"$BUILD/bin/hostsim" --options-markdown >"$tmp/opts.md"
replace_block docs/hostsim.md "hostsim --options-markdown" "$tmp/opts.md"

for src in docs/pictures/*.txt; do
	[ -e "$src" ] || continue
	svg=docs/$(basename "$src" .txt).svg
	python3 tools/boxes.py "$src" >"$tmp/pic.svg"
	[ -e "$svg" ] || { [ $check = 1 ] && { echo "gen-docs: $svg missing" >&2; status=1; continue; }; }
	[ -e "$svg" ] || : >"$svg"
	update "$svg" "$tmp/pic.svg"
done
exit $status
