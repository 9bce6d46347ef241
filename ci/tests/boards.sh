#!/usr/bin/env bash
# Integration test: the board ports on QEMU (docs/platforms.md, "Boards").
#
#   sifive_u-5     virt.elf (M-mode, -bios none) on QEMU sifive_u with all 5
#                  harts (the E51 monitor core and 4 U54s): the console is the
#                  SiFive UART the FDT names, QEMU has no finisher so
#                  tools/run.sh must stop it at the `end` record; every hart
#                  (hart 0 included) reports, nothing traps, the log parses
#                  clean with harts=5.
# KEEP_TMP=1 keeps the scratch directory.
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
RVMESS=$BUILD/bin/rvmess
CASES="sifive_u-5 sbi-moved-4 sbi-pmu relocs-list relocs-refuse capture-pty capture-timeout capture-truncated capture-after-end capture-usage"

if ! command -v qemu-system-riscv64 >/dev/null; then
	for c in $CASES; do skip "$c" "qemu-system-riscv64 not installed"; done
	exit 0
fi
for f in "$BUILD/images/virt.elf" "$BUILD/images/sbi.elf" "$RVMESS" "$BUILD/bin/rvmess-relocs"; do
	[ -e "$f" ] || { fail boards-build "$f missing (make)"; exit 1; }
done
scratch boards

# a reduced config: every M-mode suite of the default set, small sizes
cat >"$TMP/small.cfg" <<'CFG'
suites=chase,lat,par
reps=2
warmups=1
timeout_ms=1500
chase_size=256K
chase_loads=5000
lat_max=64K
lat_loads=2000
lat_strides=64,256
par_max=32K
par_kmax=4
CFG

# parse_clean DIR HARTS: '' when `rvmess parse` exits 0 with harts=HARTS and
# complete=yes, else why not
parse_clean() {
	local sum prc
	sum=$("$RVMESS" parse "$1/console.log" -o "$1/parsed" 2>"$1/parse.err")
	prc=$?
	if [ $prc != 0 ]; then
		echo "rvmess parse exited $prc: $(head -c 200 "$1/parse.err" | tr '\n' '|')"
	elif ! echo "$sum" | grep -qE "(^| )harts=$2 .*complete=yes status=ok"; then
		echo "parse summary: $sum"
	fi
}
distinct_harts() { # LOG TYPE
	grep -aoE "@RVM [0-9]+ $2 h=[0-9]+" "$1" | awk '{print $4}' | sort -u | tr '\n' ' '
}

sifive_u_case() {
	local name=sifive_u-5 d=$TMP/sifive_u why=""
	tools/run.sh --target qemu-sifive_u --harts 5 --config "$TMP/small.cfg" --out "$d" \
		--timeout 60 --progress off >"$TMP/$name.out" 2>&1
	local log=$d/console.log
	if ! grep -q 'end record arrived; target did not exit by itself and was stopped' "$TMP/$name.out"; then
		why="run.sh did not stop QEMU at the end record: $(tail -n 4 "$TMP/$name.out" | tr '\n' '|')"
	elif [ "$(cat "$d/exit.status" 2>/dev/null)" != 0 ]; then
		why="exit.status $(cat "$d/exit.status" 2>/dev/null), want 0"
	elif ! grep -aqE '@RVM 0 hdr h=[0-9]+ .* harts=5 hartids=0,1,2,3,4 .*timebase=1000000 ' "$log"; then
		why="hdr lacks harts=5 hartids=0..4 timebase=1000000 (sifive_u's RTCCLK)"
	elif [ "$(distinct_harts "$log" hart)" != "h=0 h=1 h=2 h=3 h=4 " ] ||
		[ "$(distinct_harts "$log" chase)" != "h=0 h=1 h=2 h=3 h=4 " ]; then
		why="hart/chase records from '$(distinct_harts "$log" chase)', want harts 0..4"
	elif grep -aqE '@RVM [0-9]+ (err|trap|missing) ' "$log"; then
		why="unexpected $(grep -aoE '@RVM [0-9]+ (err|trap|missing) [^*]*' "$log" | head -1)"
	elif [ "$(grep -acE '@RVM [0-9]+ end ' "$log")" != 1 ]; then
		why="$(grep -acE '@RVM [0-9]+ end ' "$log") end records, want 1"
	else
		why=$(parse_clean "$d" 5)
	fi
	if [ -n "$why" ]; then fail $name "$why"; else pass $name; fi
}
sifive_u_case

FW_DYNAMIC=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin
sbi_moved_case() {
	local name=sbi-moved-4 d=$TMP/sbi-moved why=""
	if [ ! -f "$FW_DYNAMIC" ]; then
		skip $name "$FW_DYNAMIC not installed (Debian package opensbi)"
		return
	fi
	mkdir -p "$d"
	cp "$FW_DYNAMIC" "$TMP/fw_pad.bin" && truncate -s $((2 * 1024 * 1024 + 4096)) "$TMP/fw_pad.bin" &&
		"$RVMESS" config "$BUILD/images/sbi.elf" --file "$TMP/small.cfg" -o "$TMP/sbi-small.elf" >/dev/null &&
		"${CROSS:-riscv64-unknown-elf-}objcopy" -O binary "$TMP/sbi-small.elf" "$TMP/sbi-small.bin" ||
		{ fail $name "cannot prepare the padded firmware or the configured sbi.bin"; return; }
	tools/run.sh --target qemu-sbi --harts 4 --bios "$TMP/fw_pad.bin" --image "$TMP/sbi-small.bin" \
		--out "$d" --timeout 60 --progress off >"$TMP/$name.out" 2>&1
	local log=$d/console.log
	if ! grep -aqE 'Domain0 Next Address +: 0x0*80400000' "$log"; then
		why="OpenSBI did not jump to 0x80400000: $(grep -a 'Next Address' "$log" | head -1)"
	elif [ "$(cat "$d/exit.status" 2>/dev/null)" != 0 ]; then
		why="exit.status $(cat "$d/exit.status" 2>/dev/null), want 0: $(tail -n 2 "$log" | tr '\n' '|' | cut -c1-200)"
	elif ! grep -aqE '@RVM 0 hdr h=[0-9]+ .*mode=S harts=4 ' "$log"; then
		why="no S-mode hdr with harts=4"
	elif [ "$(distinct_harts "$log" chase)" != "h=0 h=1 h=2 h=3 " ]; then
		why="chase records from '$(distinct_harts "$log" chase)', want harts 0..3"
	elif grep -aqE '@RVM [0-9]+ (err|trap|missing) ' "$log"; then
		why="unexpected $(grep -aoE '@RVM [0-9]+ (err|trap|missing) [^*]*' "$log" | head -1)"
	else
		why=$(parse_clean "$d" 4)
	fi
	if [ -n "$why" ]; then fail $name "$why"; else pass $name; fi
}
sbi_moved_case

# field REC KEY: the value of KEY= in the record text REC
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -1; }
sbi_pmu_case() {
	local name=sbi-pmu why="" log=$TMP/sbi-moved/console.log rec lead k
	if [ ! -s "$log" ]; then
		skip $name "no sbi-moved-4 log"
		return
	fi
	lead=$(sed -n 's/.*@RVM 0 hdr h=\([0-9]*\) .*/\1/p' "$log")
	rec=$(grep -aoE '@RVM [0-9]+ pmu h=[0-9]+ [^*]*' "$log")
	declare -A v
	for k in counters cycles_csr cycles_err instret_csr instret_err loop_insns cycles instret rdcycle rdinstret l1d llc; do
		v[$k]=$(field "$rec" $k)
	done
	if [ "$(echo "$rec" | grep -c .)" != 1 ] || ! echo "$rec" | grep -q " pmu h=$lead "; then
		why="want one pmu record from the lead $lead, got: $(echo "$rec" | head -2 | tr '\n' '|')"
	elif [ "${v[cycles_csr]}/${v[cycles_err]}" != 0xc00/ok ] || [ "${v[instret_csr]}/${v[instret_err]}" != 0xc02/ok ]; then
		why="cycles on ${v[cycles_csr]} (${v[cycles_err]}), instret on ${v[instret_csr]} (${v[instret_err]}): want 0xc00 and 0xc02"
	elif [ "${v[loop_insns]}" != 20000 ]; then
		why="loop_insns=${v[loop_insns]}, want 2 x 10000"
	elif ! [ "${v[cycles]}" -gt 0 ] || ! [ "${v[cycles]}" -le "${v[rdcycle]}" ] ||
		! [ "${v[instret]}" -ge "${v[loop_insns]}" ] || ! [ "${v[instret]}" -le "${v[rdinstret]}" ]; then
		why="implausible: cycles=${v[cycles]} (want 0 < it <= rdcycle=${v[rdcycle]}), instret=${v[instret]} (want loop_insns <= it <= rdinstret=${v[rdinstret]})"
	elif [ "${v[l1d]}/${v[llc]}" != not_supported/not_supported ]; then
		why="cache events l1d=${v[l1d]} llc=${v[llc]}: QEMU's riscv,pmu maps none, want not_supported"
	elif ! [ "${v[counters]}" -ge 3 ]; then
		why="counters=${v[counters]}: fewer than cycle, time and instret"
	fi
	if [ -n "$why" ]; then fail $name "$why"; else pass "$name (counters=${v[counters]} cycles=${v[cycles]} instret=${v[instret]})"; fi
}
sbi_pmu_case

# A small image for the relocation tool: linked like sbi.elf (the sbi link
# script, --emit-relocs) from entry.S (the table) and one file that holds
# two address words and PC-relative code, or an absolute lui/%hi load.
RELOCS=$BUILD/bin/rvmess-relocs
TCC=${CROSS:-riscv64-unknown-elf-}gcc
mini_image() { # OUT EXTRA_ASM
	printf '%s\n' '.section .text.start, "ax"' '.globl _start' '_start:' \
		'lla a0, ptrs' "$2" 'j _start' \
		'.section .rodata' '.balign 8' '.globl ptrs' 'ptrs: .dword _start' '.dword target + 8' \
		'.word 7' '.globl target' 'target: .word 0' >"$TMP/mini.S"
	"$TCC" -march=rv64ima_zicsr_zifencei -mabi=lp64 -mcmodel=medany -nostdlib -nostartfiles -static \
		-Wl,--no-warn-rwx-segments -Wl,--emit-relocs -Llinker -T linker/sbi.ld \
		platform/sbi/entry.S "$TMP/mini.S" -o "$1" 2>"$TMP/mini.err"
}
relocs_list_case() {
	local name=relocs-list why="" e=$TMP/mini.elf nm base want got
	if ! mini_image "$e" 'nop'; then
		fail $name "cannot link the mini image: $(head -c 200 "$TMP/mini.err")"; return
	fi
	"$RELOCS" "$e" 2>"$TMP/$name.err" || { fail $name "rvmess-relocs failed: $(cat "$TMP/$name.err")"; return; }
	nm=$("${CROSS:-riscv64-unknown-elf-}nm" "$e")
	sym() { echo "$nm" | awk -v s="$1" '$3 == s { print $1 }'; }
	base=$((0x$(sym __image_start)))
	# the two .dword words of ptrs, and nothing else
	want="$(( 0x$(sym ptrs) - base )) $(( 0x$(sym ptrs) + 8 - base ))"
	# the table as written: magic, base, count, capacity, offsets
	local toff saddr soff
	read -r saddr soff < <("${CROSS:-riscv64-unknown-elf-}readelf" -SW "$e" | sed 's/^ *\[ *[0-9]*\]//' |
		awk '$1 == ".data" { print $3, $4 }')
	toff=$(( 0x$(sym rvm_relocs) - 0x$saddr + 0x$soff ))
	got=$(od -An -v -t u4 -j "$toff" -N 32 "$e" | tr -s ' \n' ' ')
	local magic
	magic=$(printf RVMRELOC | od -An -t u4 | tr -s ' \n' ' ')
	if [ "$base" != $((0x80200000)) ]; then
		why="__image_start $base, want 0x80200000 (linker/sbi.ld)"
	elif [ "$got" != "${magic}$((0x80200000)) 0 2 2048 ${want% *} ${want#* } " ]; then
		why="table '$got', want magic, base 0x80200000, count 2, capacity 2048, offsets $want"
	fi
	if [ -n "$why" ]; then fail $name "$why"; else pass $name; fi
}
relocs_list_case
relocs_refuse_case() {
	local name=relocs-refuse why="" e=$TMP/mini-abs.elf rc
	if ! mini_image "$e" '.4byte target'; then
		fail $name "cannot link the mini image: $(head -c 200 "$TMP/mini.err")"; return
	fi
	"$RELOCS" "$e" 2>"$TMP/$name.err"
	rc=$?
	if [ $rc != 1 ]; then
		why="rvmess-relocs exited $rc, want 1"
	elif ! grep -q "$e: .text+0x[0-9a-f]* (address 0x[0-9a-f]*): relocation type 1 against 'target' is not position-independent" "$TMP/$name.err"; then
		why="message: $(head -c 300 "$TMP/$name.err")"
	fi
	if [ -n "$why" ]; then fail $name "$why"; else pass $name; fi
}
relocs_refuse_case

# ---- rvmess capture ---------------------------------------------------------
cat >"$TMP/ptyfeed.c" <<'CEOF'
/* ptyfeed LOG NAMEFILE CHUNK HOLD_AT HOLD_S TRAILER LINGER_S: make a pseudo-
 * terminal, write the slave's name to NAMEFILE, feed LOG and TRAILER through
 * the master in CHUNK-byte pieces (1 ms apart), pausing HOLD_S s after
 * HOLD_AT bytes (NAMEFILE.held appears then), then keep the terminal open
 * for LINGER_S s.  HOLD_AT 0: no pause. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	if (argc != 8)
		return 2;
	FILE *lf = fopen(argv[1], "rb");
	static char buf[1 << 22];
	size_t n = lf ? fread(buf, 1, sizeof buf - 4096, lf) : 0;
	size_t chunk = strtoul(argv[3], NULL, 0), hold = strtoul(argv[4], NULL, 0);
	int m = posix_openpt(O_RDWR | O_NOCTTY), s;
	struct termios t;
	char tmp[4096], held[4096];
	if (!n || !chunk || m < 0 || grantpt(m) || unlockpt(m))
		return 2;
	s = open(ptsname(m), O_RDWR | O_NOCTTY); /* keeps the terminal up */
	if (s < 0 || tcgetattr(s, &t))
		return 2;
	cfmakeraw(&t);
	tcsetattr(s, TCSANOW, &t);
	snprintf(tmp, sizeof tmp, "%s.tmp", argv[2]);
	snprintf(held, sizeof held, "%s.held", argv[2]);
	FILE *nf = fopen(tmp, "w");
	if (!nf || fprintf(nf, "%s\n", ptsname(m)) < 0 || fclose(nf) || rename(tmp, argv[2]))
		return 2;
	nap(300);
	/* the trailer goes in the same pieces: it shares one with the end line */
	memcpy(buf + n, argv[6], strlen(argv[6]) < 4096 ? strlen(argv[6]) : 4096);
	n += strlen(argv[6]) < 4096 ? strlen(argv[6]) : 4096;
	for (size_t off = 0; off < n;) {
		size_t k = n - off < chunk ? n - off : chunk;
		if (hold && off < hold && off + k > hold)
			k = hold - off;
		if (write(m, buf + off, k) != (ssize_t)k)
			return 3;
		off += k;
		if (hold && off == hold) {
			close(open(held, O_WRONLY | O_CREAT, 0644));
			nap(1000L * atol(argv[5]));
		}
		nap(1);
	}
	nap(1000L * atol(argv[7]));
	return 0;
}
CEOF
capture_ready=0
if ${CC:-cc} -std=c11 -Wall -Wextra -Werror -o "$TMP/ptyfeed" "$TMP/ptyfeed.c" 2>"$TMP/ptyfeed.err"; then
	capture_ready=1
fi
REAL=$TMP/sifive_u/console.log # the real log sifive_u-5 recorded
HOLD=9000
feed_start() { # NAME HOLD_AT HOLD_S TRAILER LINGER_S -> FEED_PID, PTY
	rm -f "$TMP/$1.pty" "$TMP/$1.pty.held"
	"$TMP/ptyfeed" "$REAL" "$TMP/$1.pty" 97 "$2" "$3" "$4" "$5" &
	FEED_PID=$!
	local i
	for i in $(seq 1 50); do [ -s "$TMP/$1.pty" ] && break; sleep 0.1; done
	PTY=$(cat "$TMP/$1.pty" 2>/dev/null)
}
feed_stop() { kill "$FEED_PID" 2>/dev/null; wait "$FEED_PID" 2>/dev/null; }
capture_pty_case() {
	local name=capture-pty why="" rc t0 took i sz prefix_ok=no
	feed_start $name $HOLD 2 $'junk after the end record\n@RVM 999 hart h=0 x=1 *00000000\n' 30
	[ -n "$PTY" ] || { fail $name "the pty feeder did not start"; feed_stop; return; }
	t0=$(date +%s)
	"$RVMESS" capture "$PTY" -o "$TMP/$name.log" --baud 115200 --timeout 20 --out "$TMP/$name.d" \
		>"$TMP/$name.out" 2>&1 &
	local cpid=$!
	# during the pause: exactly the first HOLD bytes, already in the file
	for i in $(seq 1 50); do [ -e "$TMP/$name.pty.held" ] && break; sleep 0.1; done
	for i in $(seq 1 10); do
		sz=$(stat -c %s "$TMP/$name.log" 2>/dev/null || echo 0)
		[ "$sz" = $HOLD ] && break
		sleep 0.1
	done
	[ "$sz" = $HOLD ] && cmp -s "$TMP/$name.log" <(head -c $HOLD "$REAL") && prefix_ok=yes
	wait $cpid
	rc=$?
	took=$(( $(date +%s) - t0 ))
	feed_stop
	if [ ! -e "$TMP/$name.pty.held" ]; then
		why="the feeder never reached its pause"
	elif [ $prefix_ok != yes ]; then
		why="during the pause the log held $sz bytes, want the first $HOLD of the recorded log"
	elif [ $rc != 0 ]; then
		why="capture exited $rc: $(tr '\n' '|' <"$TMP/$name.out" | cut -c1-300)"
	elif ! cmp -s "$TMP/$name.log" "$REAL"; then
		why="the captured log differs from the recorded one ($(stat -c %s "$TMP/$name.log") vs $(stat -c %s "$REAL") bytes)"
	elif [ "$took" -ge 12 ]; then
		why="took ${took}s: not stopped at the end record"
	elif ! grep -q 'harts=5 .*complete=yes status=ok' "$TMP/$name.out"; then
		why="no clean parse summary: $(grep 'rvmess parse' "$TMP/$name.out" | head -1)"
	fi
	if [ -n "$why" ]; then fail $name "$why"; else pass $name; fi
}
capture_timeout_case() {
	local name=capture-timeout why="" rc t0 took
	feed_start $name $HOLD 30 '' 0
	[ -n "$PTY" ] || { fail $name "the pty feeder did not start"; feed_stop; return; }
	t0=$(date +%s)
	"$RVMESS" capture "$PTY" -o "$TMP/$name.log" --timeout 2 --out "$TMP/$name.d" >"$TMP/$name.out" 2>&1
	rc=$?
	took=$(( $(date +%s) - t0 ))
	feed_stop
	if [ $rc != 1 ]; then
		why="capture exited $rc, want 1 (incomplete log)"
	elif [ "$took" -ge 8 ]; then
		why="took ${took}s for --timeout 2"
	elif ! grep -q 'TIMEOUT after 2 s without the end record' "$TMP/$name.out"; then
		why="no timeout message: $(head -c 300 "$TMP/$name.out" | tr '\n' '|')"
	elif ! cmp -s "$TMP/$name.log" <(head -c $HOLD "$REAL"); then
		why="the log is not the $HOLD bytes that arrived"
	fi
	if [ -n "$why" ]; then fail $name "$why"; else pass $name; fi
}
capture_truncated_case() {
	local name=capture-truncated why="" rc
	head -c 15000 "$REAL" | "$RVMESS" capture - -o "$TMP/$name.log" --out "$TMP/$name.d" >"$TMP/$name.out" 2>&1
	rc=$?
	if [ $rc != 1 ]; then
		why="capture exited $rc, want 1"
	elif ! grep -q 'stdin ended before the end record, 15000 bytes' "$TMP/$name.out"; then
		why="no end-of-input message: $(head -c 300 "$TMP/$name.out" | tr '\n' '|')"
	elif ! cmp -s "$TMP/$name.log" <(head -c 15000 "$REAL"); then
		why="the log is not the 15000 bytes that arrived"
	elif ! grep -q 'complete=no' "$TMP/$name.out"; then
		why="the parse did not call the log incomplete"
	fi
	if [ -n "$why" ]; then fail $name "$why"; else pass $name; fi
}
# capture-after-end: what follows the end record in the same read is not
# kept (capture-pty's trailer comes after a pause, so there it usually
# arrives in a read of its own): the recorded log and a trailer from a
# regular file, read 4096 bytes at a time, so the end record and the
# trailer share a read unless the log ends on a 4096-byte boundary
capture_after_end_case() {
	local name=capture-after-end why="" rc sz
	sz=$(stat -c %s "$REAL")
	if [ $((sz % 4096)) = 0 ]; then skip $name "the recorded log ends on a read boundary ($sz bytes)"; return; fi
	{ cat "$REAL"; printf 'junk after the end record\n@RVM 999 hart h=0 x=1 *00000000\n'; } >"$TMP/$name.in"
	"$RVMESS" capture - -o "$TMP/$name.log" --out "$TMP/$name.d" <"$TMP/$name.in" >"$TMP/$name.out" 2>&1
	rc=$?
	if [ $rc != 0 ]; then
		why="capture exited $rc: $(tr '\n' '|' <"$TMP/$name.out" | cut -c1-300)"
	elif ! cmp -s "$TMP/$name.log" "$REAL"; then
		why="the log is not the recorded one up to its end record ($(stat -c %s "$TMP/$name.log") vs $sz bytes)"
	fi
	if [ -n "$why" ]; then fail $name "$why"; else pass $name; fi
}

capture_usage_case() {
	local name=capture-usage why="" rc
	"$RVMESS" capture - -o "$TMP/$name.log" --baud 12345 </dev/null >"$TMP/$name.out" 2>&1
	rc=$?
	if [ $rc != 2 ] || ! grep -q -- "--baud wants one of .* got '12345'" "$TMP/$name.out"; then
		why="--baud 12345: exit $rc, $(head -c 200 "$TMP/$name.out")"
	elif [ -e "$TMP/$name.log" ]; then
		why="a log was written for a usage error"
	else
		"$RVMESS" capture "$TMP/no-such-tty" -o "$TMP/$name.log" >"$TMP/$name.out" 2>&1
		rc=$?
		if [ $rc != 2 ] || ! grep -q "$TMP/no-such-tty: cannot open: No such file" "$TMP/$name.out"; then
			why="a missing device: exit $rc, $(head -c 200 "$TMP/$name.out")"
		fi
	fi
	if [ -n "$why" ]; then fail $name "$why"; else pass $name; fi
}
if [ $capture_ready != 1 ]; then
	for c in capture-pty capture-timeout; do fail $c "the pty feeder does not compile: $(head -c 200 "$TMP/ptyfeed.err")"; done
elif [ ! -s "$REAL" ]; then
	for c in capture-pty capture-timeout; do fail $c "no recorded log from sifive_u-5"; done
else
	capture_pty_case
	capture_timeout_case
fi
if [ -s "$REAL" ]; then capture_truncated_case; capture_after_end_case
else for c in capture-truncated capture-after-end; do fail $c "no recorded log from sifive_u-5"; done; fi
capture_usage_case

finish
