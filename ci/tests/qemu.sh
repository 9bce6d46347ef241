#!/usr/bin/env bash
# Integration test: boot the real images on QEMU through tools/run.sh.
#
# Positive cases (QEMU exit status 0, one `hart` record per hart, `end
# status=ok`, one `chase` record per hart and rep, lat/par/parmax records,
# and `rvmess parse` exit 0 with harts=N when build/bin/rvmess exists):
#   virt (M-mode, -bios none) with 1, 2, 4, 8 harts
#   sbi  (S-mode, QEMU's -bios default) with 1, 2, 4, 8 harts, and with
#        Debian's opensbi fw_dynamic.bin with 4 harts
#   spike (M-mode, HTIF) with 1 and 4 harts
# virt-4-default runs the image's built-in default config unchanged; the
# others run a reduced config patched into a copy of the image's
# .rvmess_config section, by `rvmess config` when build/bin/rvmess exists,
# else by objcopy + a helper compiled against config.h (field offsets come
# from the real header); bad configs always use the helper, which does not
# refuse bad values.
# Negative cases: a chase turn longer than timeout_ms must write the hart
# off as hung without damage; an illegal instruction patched into the chase must give
# `trap` records and a failing but complete run (M and S mode);
# inject_hang must give a `missing hart=X` record and still
# end (status fail, QEMU exit non-zero) in M and S mode; a bad config must
# give `err what=config` and a non-zero QEMU exit status on every platform.
# KEEP_TMP=1 keeps the scratch directory (logs, patched images).
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
OBJCOPY=${CROSS:-riscv64-unknown-elf-}objcopy
FW_DYNAMIC=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin
RVMESS=$BUILD/bin/rvmess


if ! command -v qemu-system-riscv64 >/dev/null; then
	# one SKIP per case this script runs (keep in step with the cases below)
	for c in virt-1 virt-2 virt-4 virt-8 virt-4-default sbi-1 sbi-2 sbi-4 sbi-8 sbi-fw_dynamic-4 \
		spike-1 spike-4 hang-virt hang-sbi badcfg-virt badcfg-sbi badcfg-spike badcfg-heap-sbi \
		fdt-bad-virt fdt-disabled-hart2-virt fdt-disabled-hart0-virt limits-virt runner-timeout trap-virt trap-sbi \
		runner-stop hung-virt; do
		skip "$c" "qemu-system-riscv64 not installed"
	done
	exit 0
fi
for p in virt sbi spike; do
	if [ ! -f "$BUILD/images/$p.elf" ]; then
		fail "image-$p" "$BUILD/images/$p.elf missing (make images)"
	fi
done
[ $fails = 0 ] || exit 1

scratch qemu

# ---- config patcher ---------------------------------------------------------
cat >"$TMP/cfgpatch.c" <<'CEOF'
/* cfgpatch BLOB key=value...: rewrite fields of a raw .rvmess_config blob. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rvmess/config.h"

#define F(name) { #name, offsetof(struct rvm_config, name), sizeof(((struct rvm_config *)0)->name) }
static const struct { const char *k; size_t off, w; } fields[] = {
	F(magic), F(version), F(size), F(suites), F(reps), F(warmups), F(timeout_ms),
	F(max_harts), F(seed), F(chase_size), F(chase_loads), F(chase_all_harts),
	F(inject_hang), F(lat_max), F(lat_loads), F(lat_random), F(par_max), F(par_kmax),
};

int main(int argc, char **argv)
{
	struct rvm_config c;
	FILE *f = argc > 1 ? fopen(argv[1], "r+b") : NULL;

	if (!f || fread(&c, 1, sizeof c, f) != sizeof c) {
		fprintf(stderr, "cfgpatch: %s: cannot read a %zu-byte config block\n",
		        argc > 1 ? argv[1] : "(no file)", sizeof c);
		return 2;
	}
	if (c.magic != RVM_CFG_MAGIC || c.size != sizeof c) {
		fprintf(stderr, "cfgpatch: %s: not an rvmess config block\n", argv[1]);
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		char *eq = strchr(argv[i], '='), *end;
		size_t j, n = sizeof fields / sizeof fields[0];
		if (!eq) {
			fprintf(stderr, "cfgpatch: argument %d '%s': want key=value\n", i, argv[i]);
			return 2;
		}
		*eq = 0;
		if (!strcmp(argv[i], "lat_strides")) {
			char *s = eq + 1;
			c.lat_nstrides = 0;
			while (*s && c.lat_nstrides < RVM_CFG_MAX_STRIDES) {
				c.lat_strides[c.lat_nstrides++] = (uint32_t)strtoul(s, &end, 0);
				s = *end == ',' ? end + 1 : end;
			}
			continue;
		}
		if (!strcmp(argv[i], "suites") && (eq[1] < '0' || eq[1] > '9')) {
			static const char *const names[] = RVM_SUITE_NAMES;
			char *tok = strtok(eq + 1, ",");
			c.suites = 0;
			for (; tok; tok = strtok(NULL, ",")) {
				size_t k = 0;
				while (k < RVM_SUITE_COUNT && strcmp(names[k], tok))
					k++;
				if (k == RVM_SUITE_COUNT) {
					fprintf(stderr, "cfgpatch: unknown suite '%s'\n", tok);
					return 2;
				}
				c.suites |= 1u << k;
			}
			continue;
		}
		for (j = 0; j < n && strcmp(fields[j].k, argv[i]); j++)
			;
		unsigned long long v = strtoull(eq + 1, &end, 0);
		if (j == n || *end) {
			fprintf(stderr, "cfgpatch: argument %d: unknown key or bad number '%s=%s'\n",
			        i, argv[i], eq + 1);
			return 2;
		}
		if (fields[j].w == 8) {
			memcpy((char *)&c + fields[j].off, &v, 8);
		} else {
			uint32_t v32 = (uint32_t)v;
			memcpy((char *)&c + fields[j].off, &v32, 4);
		}
	}
	rewind(f);
	if (fwrite(&c, 1, sizeof c, f) != sizeof c || fclose(f)) {
		fprintf(stderr, "cfgpatch: %s: write failed\n", argv[1]);
		return 2;
	}
	return 0;
}
CEOF
if ! ${CC:-cc} -std=c11 -Wall -Wextra -Werror -Ifirmware/include -o "$TMP/cfgpatch" "$TMP/cfgpatch.c" 2>"$TMP/cfgpatch.err"; then
	fail cfgpatch "helper does not compile: $(head -3 "$TMP/cfgpatch.err" | tr '\n' ' ')"
	exit 1
fi

# rawvariant IN OUT key=value...: copy of an image with a patched config
# block, values not checked (to test the image's own validation)
rawvariant() {
	local in=$1 out=$2 blob=$TMP/cfg.$$.bin
	shift 2
	"$OBJCOPY" -O binary --only-section=.rvmess_config "$in" "$blob" &&
		"$TMP/cfgpatch" "$blob" "$@" &&
		"$OBJCOPY" --update-section .rvmess_config="$blob" "$in" "$out"
}
# variant IN OUT key=value...: the same through `rvmess config` (the product
# path) when it is built, else rawvariant
variant() {
	if [ -x "$RVMESS" ]; then
		"$RVMESS" config "$1" "${@:3}" -o "$2" >/dev/null
	else
		rawvariant "$@"
	fi
}

# reduced config: every suite, small sizes, a short timeout
SMALL="reps=2 warmups=1 timeout_ms=1500 chase_size=262144 chase_loads=5000 lat_max=65536
       lat_loads=2000 lat_strides=64,256 lat_random=1 par_max=32768 par_kmax=4"
for p in virt sbi spike; do
	# shellcheck disable=SC2086
	variant "$BUILD/images/$p.elf" "$TMP/$p-small.elf" $SMALL ||
		fail "variant-$p" "cannot patch the config of $BUILD/images/$p.elf"
done
[ $fails = 0 ] || exit 1

# run NAME TARGET HARTS IMAGE [BIOS]: leaves $TMP/NAME/{console.log,exit.status,run.out}
run() {
	local name=$1 target=$2 harts=$3 image=$4 bios=${5:-}
	local args=(--target "$target" --harts "$harts" --image "$image" --out "$TMP/$name" --timeout 60)
	[ -n "$bios" ] && args+=(--bios "$bios")
	tools/run.sh "${args[@]}" >"$TMP/$name.run.out" 2>&1
	LOG=$TMP/$name/console.log
	STATUS=$(cat "$TMP/$name/exit.status" 2>/dev/null || echo none)
}

distinct_harts() { # type
	grep -aoE "@RVM [0-9]+ $1 h=[0-9]+" "$LOG" | awk '{print $4}' | sort -u | wc -l
}

# positive: NAME TARGET HARTS IMAGE [BIOS]
positive() {
	local name=$1 harts=$3 why="" n reps
	run "$@"
	n=$(distinct_harts hart)
	reps=$(sed -n 's/.*@RVM [0-9]* cfg .* reps=\([0-9]*\) .*/\1/p' "$LOG" | head -1)
	if [ "$STATUS" != 0 ]; then
		why="QEMU exit status $STATUS"
	elif [ "$n" != "$harts" ]; then
		why="hart records from $n distinct harts, want $harts"
	elif ! grep -aqE '@RVM [0-9]+ end h=[0-9]+ status=ok ' "$LOG"; then
		why="no 'end status=ok' record"
	elif [ "$(grep -acE '@RVM [0-9]+ chase ' "$LOG")" != $((harts * ${reps:-0})) ]; then
		why="$(grep -acE '@RVM [0-9]+ chase ' "$LOG") chase records, want harts*reps = $((harts * ${reps:-0}))"
	elif [ "$(distinct_harts chase)" != "$harts" ]; then
		why="chase records from $(distinct_harts chase) harts, want $harts"
	elif ! grep -aqE '@RVM [0-9]+ lat .*chain=stride' "$LOG" ||
		! grep -aqE '@RVM [0-9]+ lat .*chain=random' "$LOG" ||
		! grep -aqE '@RVM [0-9]+ parmax ' "$LOG"; then
		why="lat (stride and random) or parmax records missing"
	elif grep -aqE '@RVM [0-9]+ (err|trap|missing) ' "$LOG"; then
		why="unexpected $(grep -aoE '@RVM [0-9]+ (err|trap|missing) [^*]*' "$LOG" | head -1)"
	elif [ -x "$RVMESS" ]; then
		local sum prc
		sum=$("$RVMESS" parse "$LOG" -o "$TMP/$name/parsed" 2>"$TMP/$name.parse.err")
		prc=$?
		if [ $prc != 0 ]; then
			why="rvmess parse exited $prc: $(echo "$sum" | head -1)"
		elif ! echo "$sum" | grep -qE "(^| )harts=$harts( |$)"; then
			why="rvmess parse summary lacks harts=$harts: $(echo "$sum" | head -1)"
		fi
	fi
	if [ -n "$why" ]; then
		fail "$name" "$why (log: $(tail -n 3 "$LOG" | tr '\n' '|' | cut -c1-300))"
	elif [ ! -x "$RVMESS" ]; then
		pass "$name-noparse"	# the parse check was left out
	else
		pass "$name"
	fi
}

for n in 1 2 4 8; do positive "virt-$n" qemu-virt $n "$TMP/virt-small.elf"; done
positive virt-4-default qemu-virt 4 "$BUILD/images/virt.elf"
for n in 1 2 4 8; do positive "sbi-$n" qemu-sbi $n "$TMP/sbi-small.elf"; done
if [ -f "$FW_DYNAMIC" ]; then
	positive sbi-fw_dynamic-4 qemu-sbi 4 "$TMP/sbi-small.elf" "$FW_DYNAMIC"
else
	skip sbi-fw_dynamic-4 "$FW_DYNAMIC not installed (Debian package opensbi)"
fi
for n in 1 4; do positive "spike-$n" qemu-spike $n "$TMP/spike-small.elf"; done

# negative: inject_hang.  The hung hart must not be the lead (which cannot
# hang); the lead is whoever wins the boot lottery, so retry with another hart.
hang_case() { # NAME TARGET PLATFORM
	local name=$1 target=$2 p=$3 why="" x lead
	for x in 1 2 3 1 2 3 1 2 3; do # the lead is whoever wins a lottery: retry until it is not x
		variant "$TMP/$p-small.elf" "$TMP/$p-hang.elf" inject_hang=$((x + 1)) timeout_ms=300 suites=chase ||
			{ why="cannot patch inject_hang"; break; }
		run "$name" "$target" 4 "$TMP/$p-hang.elf"
		lead=$(sed -n 's/.*@RVM 0 hdr h=\([0-9]*\) .*/\1/p' "$LOG")
		[ "$lead" = "$x" ] && continue
		if ! grep -aqE "@RVM [0-9]+ missing h=[0-9]+ hart=$x where=boot " "$LOG"; then
			why="no 'missing hart=$x' record"
		elif ! grep -aqE "@RVM [0-9]+ end .*status=fail .*states=.*(^|[=,])$x:missing" "$LOG"; then
			why="end record does not say status=fail with $x:missing"
		elif [ "$(distinct_harts hart)" != 3 ] || [ "$(distinct_harts chase)" != 3 ]; then
			why="want hart and chase records from the 3 other harts"
		elif grep -aqE "@RVM [0-9]+ [a-z]+ h=$x " "$LOG"; then
			why="the hung hart $x printed a record"
		elif [ "$STATUS" = 0 ] || [ "$STATUS" = none ] || [ "$STATUS" = 124 ]; then
			why="QEMU exit status $STATUS, want a failure status"
		fi
		break
	done
	[ "$lead" = "$x" ] && why="hart $x and the other tried harts were the lead each time"
	if [ -n "$why" ]; then fail "$name" "$why"; else pass "$name"; fi
}
hang_case hang-virt qemu-virt virt
hang_case hang-sbi qemu-sbi sbi

# negative: a bad config must fail the run with a non-zero exit status
bad_case() { # NAME TARGET PLATFORM key=value WANT_MSG
	local name=$1 target=$2 p=$3 kv=$4 msg=$5 why=""
	if ! rawvariant "$TMP/$p-small.elf" "$TMP/$p-bad.elf" "$kv"; then
		fail "$name" "cannot patch $kv"
		return
	fi
	run "$name" "$target" 2 "$TMP/$p-bad.elf"
	if ! grep -aqE "@RVM [0-9]+ err h=[0-9]+ what=config msg=$msg" "$LOG"; then
		why="no 'err what=config msg=$msg' record"
	elif ! grep -aqE '@RVM [0-9]+ end .*status=fail' "$LOG"; then
		why="no 'end status=fail' record"
	elif [ "$STATUS" = 0 ] || [ "$STATUS" = none ] || [ "$STATUS" = 124 ]; then
		why="QEMU exit status $STATUS, want a failure status"
	fi
	if [ -n "$why" ]; then fail "$name" "$why"; else pass "$name"; fi
}
bad_case badcfg-virt qemu-virt virt reps=0 reps_not_in_1
bad_case badcfg-sbi qemu-sbi sbi reps=0 reps_not_in_1
bad_case badcfg-spike qemu-spike spike par_kmax=17 par_kmax_not_in_1
bad_case badcfg-heap-sbi qemu-sbi sbi chase_size=0x40000000 chase_size_exceeds_heap

# negative FDT: a blob QEMU accepts but the image refuses (nodes nested deeper
# than the reader's limit) must give `fdt status=bad`, platform defaults
# (1 hart) and still a clean run.
fdt_bad_case() {
	local name=fdt-bad-virt why="" dts=$TMP/deep.dts
	if ! command -v dtc >/dev/null; then
		skip $name "dtc not installed"
		return
	fi
	if ! timeout 60 qemu-system-riscv64 -M virt,dumpdtb="$TMP/virt.dtb" -smp 2 -m 512M \
		-display none -serial null -monitor none </dev/null >/dev/null 2>&1 ||
		! dtc -q -I dtb -O dts -o "$dts" "$TMP/virt.dtb"; then
		fail $name "cannot dump/decompile QEMU's virt device tree"
		return
	fi
	awk 'BEGIN { n = 0 } { l[++n] = $0 } END {
		for (i = n; i > 0 && l[i] !~ /^};/; i--) ;
		for (j = 1; j < i; j++) print l[j];
		for (d = 0; d < 40; d++) print "n" d " {";
		for (d = 0; d < 40; d++) print "};";
		for (j = i; j <= n; j++) print l[j] }' "$dts" >"$dts.deep" &&
		dtc -q -I dts -O dtb -o "$TMP/deep.dtb" "$dts.deep" ||
		{ fail $name "cannot build the deep device tree"; return; }
	tools/run.sh --target qemu-virt --harts 2 --image "$TMP/virt-small.elf" --dtb "$TMP/deep.dtb" \
		--out "$TMP/$name" --timeout 60 >"$TMP/$name.run.out" 2>&1
	LOG=$TMP/$name/console.log
	STATUS=$(cat "$TMP/$name/exit.status" 2>/dev/null || echo none)
	if ! grep -aqE '@RVM [0-9]+ fdt h=[0-9]+ status=bad reason=[a-z-]+ off=[0-9]+ ' "$LOG"; then
		why="no 'fdt status=bad' record"
	elif ! grep -aqE '@RVM 0 hdr .* harts=1 .*mem_size=134217728 .*fdt=bad ' "$LOG"; then
		why="hdr does not show the platform defaults (1 hart, 128 MiB, fdt=bad)"
	elif ! grep -aqE '@RVM [0-9]+ end .*status=ok' "$LOG" || [ "$STATUS" != 0 ]; then
		why="run did not end ok (QEMU status $STATUS)"
	fi
	if [ -n "$why" ]; then fail $name "$why"; else pass $name; fi
}
fdt_bad_case

# an FDT whose cpu@D is status="disabled" (QEMU still starts 4 harts): the
# image counts 3 harts; hart D takes part only if it wins the lead lottery
# (the lead always takes part: with cpu@0 disabled, hart 0 usually leads).
fdt_disabled_case() { # D
	local dis=$1 name=fdt-disabled-hart$1-virt why="" lead ids want
	if ! command -v fdtput >/dev/null; then
		skip $name "fdtput (device-tree-compiler) not installed"
		return
	fi
	if ! timeout 60 qemu-system-riscv64 -M virt,dumpdtb="$TMP/virt4.dtb" -smp 4 -m 512M \
		-display none -serial null -monitor none </dev/null >/dev/null 2>&1 ||
		! fdtput -t s "$TMP/virt4.dtb" /cpus/cpu@$dis status disabled; then
		fail $name "cannot dump/edit QEMU's virt device tree"
		return
	fi
	# with cpu@0 disabled the point is a disabled lead: up to 4 tries for one
	local try
	for try in 1 2 3 4; do
		rm -rf "${TMP:?}/$name"
		tools/run.sh --target qemu-virt --harts 4 --image "$TMP/virt-small.elf" --dtb "$TMP/virt4.dtb" \
			--out "$TMP/$name" --timeout 60 >"$TMP/$name.run.out" 2>&1
		LOG=$TMP/$name/console.log
		STATUS=$(cat "$TMP/$name/exit.status" 2>/dev/null || echo none)
		lead=$(sed -n 's/.*@RVM 0 hdr h=\([0-9]*\) .*/\1/p' "$LOG")
		{ [ "$dis" != 0 ] || [ "$lead" = 0 ]; } && break
	done
	ids=$(sed -n 's/.*@RVM 0 hdr .* hartids=\([0-9,]*\) .*/\1/p' "$LOG" | tr ',' '\n' | sort -n | tr '\n' ' ')
	want=$(for h in 0 1 2 3; do [ $h = "$dis" ] && [ "$lead" != "$dis" ] || printf '%s ' $h; done)
	if [ "$STATUS" != 0 ] || ! grep -aqE '@RVM [0-9]+ end .*status=ok' "$LOG"; then
		why="run did not end ok (QEMU status $STATUS)"
	elif ! grep -aqE '@RVM 0 hdr .* harts=3 .*fdt=ok ' "$LOG"; then
		why="hdr should count 3 enabled harts: $(grep -a -m1 '@RVM 0 hdr' "$LOG" | cut -c1-200)"
	elif [ "$ids" != "$want" ]; then
		why="hartids '$ids' (lead $lead), want '$want'"
	elif [ "$lead" != "$dis" ] && grep -aqE "@RVM [0-9]+ [a-z]+ h=$dis " "$LOG"; then
		why="the disabled hart $dis printed records"
	fi
	if [ -n "$why" ]; then fail $name "$why"
	elif [ "$dis" = 0 ] && [ "$lead" != 0 ]; then skip $name "hart 0 never led in 4 runs (checks passed with lead $lead)"
	else pass "$name (lead $lead)"; fi
}
fdt_disabled_case 2
fdt_disabled_case 0

# max_harts and chase_all_harts=0
limits_case() {
	local name=limits-virt why="" lead
	variant "$TMP/virt-small.elf" "$TMP/virt-lim.elf" max_harts=2 chase_all_harts=0 suites=chase ||
		{ fail $name "cannot patch max_harts"; return; }
	run $name qemu-virt 4 "$TMP/virt-lim.elf"
	lead=$(sed -n 's/.*@RVM 0 hdr h=\([0-9]*\) .*/\1/p' "$LOG")
	if [ "$STATUS" != 0 ] || ! grep -aqE '@RVM [0-9]+ end .*status=ok .*harts=2 ' "$LOG"; then
		why="run did not end ok with harts=2 (QEMU status $STATUS)"
	elif ! grep -aqE '@RVM 0 hdr .* harts=4 hartids=[0-9]+,[0-9]+ ' "$LOG"; then
		why="hdr should list 4 FDT harts and 2 participating hartids"
	elif [ "$(distinct_harts hart)" != 2 ]; then
		why="hart records from $(distinct_harts hart) harts, want 2"
	elif [ "$(distinct_harts chase)" != 1 ] || ! grep -aqE "@RVM [0-9]+ chase h=$lead " "$LOG"; then
		why="with chase_all_harts=0 only the lead ($lead) should run the chase"
	fi
	if [ -n "$why" ]; then fail $name "$why"; else pass $name; fi
}
limits_case

# the runner's timeout: a run that cannot end in time (a hung hart and a
# 60 s rendezvous timeout) must be stopped, reported, and fail
runner_timeout_case() {
	local name=runner-timeout why="" rc x lead
	for x in 1 2 3 1 2 3 1 2 3; do # the lead is whoever wins a lottery: retry until it is not x
		variant "$TMP/virt-small.elf" "$TMP/virt-slow.elf" inject_hang=$((x + 1)) \
			timeout_ms=60000 suites=chase || { fail $name "cannot patch"; return; }
		tools/run.sh --target qemu-virt --harts 4 --image "$TMP/virt-slow.elf" \
			--out "$TMP/$name" --timeout 2 >"$TMP/$name.run.out" 2>&1
		rc=$?
		lead=$(sed -n 's/.*@RVM 0 hdr h=\([0-9]*\) .*/\1/p' "$TMP/$name/console.log")
		[ "$lead" != "$x" ] && break
	done
	if [ "$lead" = "$x" ]; then
		why="hart $x and the other tried harts were the lead each time"
	elif [ $rc = 0 ]; then
		why="run.sh exited 0"
	elif ! grep -q 'TIMEOUT after 2s' "$TMP/$name.run.out"; then
		why="run.sh did not report the timeout: $(head -c 300 "$TMP/$name.run.out" | tr '\n' '|')"
	elif [ "$(cat "$TMP/$name/exit.status" 2>/dev/null)" != 124 ]; then
		why="exit.status is not 124"
	elif grep -aqE '@RVM [0-9]+ end ' "$TMP/$name/console.log"; then
		why="the run ended although a hart hung for 60 s"
	fi
	if [ -n "$why" ]; then fail $name "$why"; else pass $name; fi
}
runner_timeout_case

# an unexpected trap: the first instruction of suite_chase is overwritten
# with 0x00000000 (an illegal instruction) in a copy of the image.  Every
# hart that runs the chase must print `trap cause=0x2 epc=<suite_chase>`,
# park, and the run must still end (status fail, QEMU exit non-zero, the log
# complete).
patch_illegal() { # IN OUT SYMBOL
	local addr vaddr off fo
	addr=$(${CROSS:-riscv64-unknown-elf-}nm "$1" | awk -v s="$3" '$3 == s { print $1 }')
	read -r off vaddr < <(${CROSS:-riscv64-unknown-elf-}readelf -lW "$1" | awk '$1 == "LOAD" { print $2, $3; exit }')
	[ -n "$addr" ] && [ -n "$vaddr" ] || return 1
	fo=$(( 0x$addr - vaddr + off ))
	cp "$1" "$2" && printf '\0\0\0\0' | dd of="$2" bs=1 seek="$fo" conv=notrunc status=none
	echo "0x$addr"
}
trap_case() { # NAME TARGET PLATFORM
	local name=$1 target=$2 p=$3 why="" epc
	epc=$(patch_illegal "$TMP/$p-small.elf" "$TMP/$p-trap.elf" suite_chase) ||
		{ fail "$name" "cannot patch suite_chase"; return; }
	epc=$(printf '0x%x' "$epc")
	run "$name" "$target" 4 "$TMP/$p-trap.elf"
	if ! grep -aqE "@RVM [0-9]+ trap h=[0-9]+ cause=0x2 epc=$epc tval=0x0 " "$LOG"; then
		why="no 'trap cause=0x2 epc=$epc' record"
	elif ! grep -aqE '@RVM [0-9]+ end .*status=fail .*states=.*:trapped' "$LOG"; then
		why="end record does not say status=fail with a trapped hart"
	elif [ "$STATUS" = 0 ] || [ "$STATUS" = none ] || [ "$STATUS" = 124 ]; then
		why="QEMU exit status $STATUS, want a failure status"
	elif [ -x "$RVMESS" ] && ! "$RVMESS" parse "$LOG" -o "$TMP/$name/parsed" 2>/dev/null |
		grep -q 'complete=yes'; then
		why="rvmess parse does not find the log complete"
	fi
	if [ -n "$why" ]; then fail "$name" "$why"
	elif [ ! -x "$RVMESS" ]; then pass "$name-noparse"
	else pass "$name"; fi
}
trap_case trap-virt qemu-virt virt
trap_case trap-sbi qemu-sbi sbi

# the runner on a target that prints its log but never exits (a board, an
# RTL simulation): a stand-in for QEMU replays virt-1's log and sleeps; the
# runner must stop it soon after the end record and take the status from it
runner_stop_case() {
	local name=runner-stop why="" rc t0 took
	if ! grep -aqE '@RVM [0-9]+ end .*status=ok' "$TMP/virt-1/console.log" 2>/dev/null; then
		skip $name "no clean virt-1 log to replay"
		return
	fi
	printf '#!/bin/sh\ncat "%s"\nexec sleep 60\n' "$TMP/virt-1/console.log" >"$TMP/fakeqemu"
	chmod +x "$TMP/fakeqemu"
	t0=$(date +%s)
	QEMU=$TMP/fakeqemu tools/run.sh --target qemu-virt --harts 1 --image "$TMP/virt-small.elf" \
		--out "$TMP/$name" --timeout 30 >"$TMP/$name.run.out" 2>&1
	rc=$?
	took=$(( $(date +%s) - t0 ))
	if [ $rc != 0 ]; then
		why="run.sh exited $rc: $(tr '\n' '|' <"$TMP/$name.run.out" | cut -c1-300)"
	elif ! grep -q 'was stopped' "$TMP/$name.run.out"; then
		why="run.sh did not say it stopped the target"
	elif [ "$took" -ge 20 ]; then
		why="took ${took}s: not stopped at the end record"
	elif [ "$(cat "$TMP/$name/exit.status" 2>/dev/null)" != 0 ]; then
		why="exit.status is not 0 for an end status=ok"
	fi
	if [ -n "$why" ]; then fail $name "$why"; else pass $name; fi
}
runner_stop_case

# a hart that arrives but then overruns a later rendezvous (its chase turn
# takes longer than timeout_ms: 3 reps of 2 M loads over 8 MiB take 0.36 s
# or more under TCG here, where 200 k loads could finish inside the 100 ms
# on an idle host) is written off as hung: `missing
# where=chase`, state hung, nothing printed by it afterwards, no damage to
# the others (no err/trap), and the run ends with a failure status
hung_case() {
	local name=hung-virt why="" lead h
	variant "$BUILD/images/virt.elf" "$TMP/virt-hung.elf" suites=chase chase_size=8388608 \
		chase_loads=2000000 timeout_ms=100 || { fail $name "cannot patch"; return; }
	run $name qemu-virt 4 "$TMP/virt-hung.elf"
	lead=$(sed -n 's/.*@RVM 0 hdr h=\([0-9]*\) .*/\1/p' "$LOG")
	if ! grep -aqE '@RVM [0-9]+ missing h=[0-9]+ hart=[0-9]+ where=chase ' "$LOG"; then
		why="no 'missing where=chase' record"
	elif ! grep -aqE '@RVM [0-9]+ end .*status=fail .*states=.*:hung' "$LOG"; then
		why="end record does not say status=fail with a hung hart"
	elif grep -aqE '@RVM [0-9]+ (err|trap) ' "$LOG"; then
		why="a hung hart disturbed the run: $(grep -aoE '@RVM [0-9]+ (err|trap) [^*]*' "$LOG" | head -1)"
	elif ! grep -aqE "@RVM [0-9]+ chase h=$lead " "$LOG"; then
		why="the lead did not report its own chase"
	elif [ "$STATUS" = 0 ] || [ "$STATUS" = none ] || [ "$STATUS" = 124 ]; then
		why="QEMU exit status $STATUS, want a failure status"
	else
		for h in $(sed -n 's/.*@RVM [0-9]* missing h=[0-9]* hart=\([0-9]*\) where=chase .*/\1/p' "$LOG"); do
			# after being written off, hart h must not print
			if awk -v h="$h" '/@RVM [0-9]+ missing .* where=chase / && $0 ~ "hart=" h " " { off = 1; next }
				off && $0 ~ "@RVM [0-9]+ [a-z]+ h=" h " " { bad = 1 } END { exit !bad }' "$LOG"; then
				why="hart $h printed after it was written off"
			fi
		done
	fi
	if [ -n "$why" ]; then fail $name "$why"; else pass $name; fi
}
hung_case

finish
