#!/usr/bin/env bash
# Adding a suite touches its own file and one table line per list: in a
# copy of the tree, a `demo` suite is firmware/suites/demo.c plus one
# line each in firmware/suites/suites.c (the suite table),
# rvmess/suite_list.h (its name and config bit), rvmess/records.h (its
# record type) and hostsim/cli/writers.c (its output: rvmess parse's writer
# table).  Nothing else is edited; then `rvmess config suites=demo` must
# select it, the image must run it on hostsim, and `rvmess parse` must count
# its record as a known type and write demo.csv.
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
[ -x "$BUILD/bin/hostsim" ] || { fail newsuite "build/bin/hostsim missing"; exit 1; }
scratch newsuite
src=$(pwd)

git ls-files -z | xargs -0 cp --parents -t "$TMP" 2>/dev/null || { fail newsuite-copy "cannot copy the tree"; exit 1; }
cd "$TMP" || exit 1
cat >firmware/suites/demo.c <<'C'
#include "platform.h"
#include "rvmess/rt.h"
#include "suites/suites.h"

static void suite_demo(void)
{
	struct rec r;
	rec_begin(&r, REC_DEMO);
	rec_u(&r, "n", 1);
	rec_emit(&r);
}

const struct suite demo_suite = { "demo", RVM_SUITE_DEMO, suite_demo, 0, 0 };
C
sed -i 's/^\tX(integ)$/\tX(integ) \\\n\tX(demo)/' firmware/suites/suites.c
sed -i 's/^\tX(INTEG, integ)$/\tX(INTEG, integ) \\\n\tX(DEMO, demo)/' firmware/include/rvmess/suite_list.h
sed -i 's/^\tX(INTEG, integ, \(".*"\))$/\tX(INTEG, integ, \1) \\\n\tX(DEMO, demo, "n")/' firmware/include/rvmess/records.h
changed=$(cd "$TMP" && for f in firmware/suites/suites.c firmware/include/rvmess/suite_list.h firmware/include/rvmess/records.h; do
	diff "$src/$f" "$f" | grep -c '^>'; done | tr '\n' ' ')
if [ "$changed" != "2 2 2 " ]; then # each: the line with its new continuation, and the new line
	fail newsuite-edit "the three table edits did not apply as one line each (lines: $changed)"
	finish; exit
fi
sed -i 's/^\t{ "integrity.csv", NULL, has_integ, write_integ },$/&\n\tRECORDS_CSV("demo"),/' hostsim/cli/writers.c
if [ "$(diff "$src/hostsim/cli/writers.c" hostsim/cli/writers.c | grep -c '^>')" != 1 ]; then
	fail newsuite-writer-row "the writer row did not apply as one line"
	finish; exit
fi
pass "newsuite-files (5: the suite, 3 table lines, 1 writer row)"
if ! make -j2 BUILD=b PLATFORM=virt b/images/virt.elf b/bin/rvmess >make.log 2>&1; then
	fail newsuite-build "$(grep -m1 -E 'error:|undefined reference' make.log)"
	finish; exit
fi
pass newsuite-build
cp b/images/virt.elf lit.elf
b/bin/rvmess config lit.elf suites=demo,lat lat_max=4K lat_loads=100 lat_strides=64 reps=1 >/dev/null 2>&1 ||
	fail newsuite-config "rvmess config suites=demo refused"
timeout 120 "$src/$BUILD/bin/hostsim" --harts 2 lit.elf >con.log 2>&1
if grep -aqE '^@RVM [0-9]+ cfg h=0 suites=lat,demo ' con.log &&
	grep -aqE '^@RVM [0-9]+ demo h=0 n=1 \*' con.log &&
	grep -aqE '^@RVM [0-9]+ end h=0 status=ok ' con.log; then
	pass newsuite-runs
else
	fail newsuite-runs "$(grep -aE ' (cfg|demo|end|err|warn) ' con.log | head -3 | tr '\n' ' ')"
fi
b/bin/rvmess parse con.log -o out >/dev/null 2>&1
if grep -q '^unknown_types: 0$' out/summary.txt && grep -q ' demo=1' out/summary.txt; then
	pass newsuite-parsed
else
	fail newsuite-parsed "$(grep -E 'unknown|records_by_type' out/summary.txt 2>/dev/null | tr '\n' ' ')"
fi
if [ "$(cat out/demo.csv 2>/dev/null)" = "$(printf 'line,hart,n\n%s,0,1' "$(grep -anE '^@RVM [0-9]+ demo ' con.log | cut -d: -f1)")" ] &&
	grep -q '^files: .* demo.csv' out/summary.txt; then
	pass newsuite-written
else
	fail newsuite-written "demo.csv: $(head -3 out/demo.csv 2>&1 | tr '\n' ' ')"
fi
finish
