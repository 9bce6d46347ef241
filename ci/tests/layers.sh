#!/usr/bin/env bash
# The image's source files call each other one way (docs/layers.md): per
# built platform, tools/fw-layers.sh finds no cycle, and the units that the
# layering exists for sit where they should (the rendezvous below the suites
# and the boot code, the run state at the bottom, boot.c alone on top).
# The host's files include each other one way (tools/host-layers.sh,
# docs/architecture.md): the tree passes, and a planted upward include in a
# copy is refused.
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh

layer_of() { awk -v f="$2" '/^layer/ { for (i = 3; i <= NF; i++) if ($i == f) { sub(":", "", $2); print $2 } }' "$1"; }

for objdir in "$BUILD"/obj/*/; do
	p=$(basename "$objdir")
	out=$(mktemp)
	if ! tools/fw-layers.sh "$objdir" >"$out" 2>&1; then
		fail "layers-$p" "$(grep -v '^edge' "$out" | tail -1)"
		rm -f "$out"
		continue
	fi
	pass "layers-$p-acyclic"
	st=$(layer_of "$out" firmware/state.c) sy=$(layer_of "$out" firmware/sync.c)
	su=$(layer_of "$out" firmware/suites/suites.c) bo=$(layer_of "$out" firmware/boot.c)
	top=$(grep -c '^layer' "$out")
	if [ "$st" = 0 ] && [ "$sy" -lt "$su" ] && [ "$bo" = $((top - 1)) ] &&
		[ "$(awk '/^layer/ { n = NF } END { print n - 2 }' "$out")" = 1 ]; then
		pass "layers-$p-order (state $st, sync $sy, suites $su, boot $bo of $top)"
	else
		fail "layers-$p-order" "state $st sync $sy suites $su boot $bo of $top layers"
	fi
	rm -f "$out"
done

out=$(tools/host-layers.sh 2>&1)
if [ $? = 0 ]; then
	pass "host-layers ($(grep -c '^layer' <<<"$out") layers)"
else
	fail host-layers "$(grep -v '^layer\|^note' <<<"$out" | head -2 | tr '\n' ' ')"
fi
scratch hostlayers
mkdir -p "$TMP/hostsim"
cp -r hostsim/sim hostsim/cli "$TMP/hostsim/"
plant() { # FILE INCLUDE: FILE gets the include in the copy; the check must name it
	local f=$1 inc=$2 name=$3
	cp "hostsim/$f" "$TMP/hostsim/$f"
	sed -i "0,/^#include/s||#include \"$inc\"\n#include|" "$TMP/hostsim/$f"
	if tools/host-layers.sh "$TMP" 2>&1 | grep -q "wrong way: hostsim/$f .*$inc"; then
		pass "$name"
	else
		fail "$name" "hostsim/$f including $inc was not refused"
	fi
	cp "hostsim/$f" "$TMP/hostsim/$f"
}
plant sim/memsys.c sim/sim.h host-layers-planted-sim-up
plant cli/out.c cli/cmd/cmds.h host-layers-planted-cli-up
plant cli/cmd/cmd_parse.c sim/sim.h host-layers-planted-cmd-across
plant sim/cache.c cli/util.h host-layers-planted-across
finish
