#!/usr/bin/env bash
# The detection matrix on hostsim (docs/litmus.md, "The detection matrix").
#
# Rows: every injected fault in every memory order it applies to (lost-inval
# on --machine openpiton with the openpiton image, the others on virt);
# columns: the checks (CHECKS below); cell: in how many seeds the check reported the
# fault, and the mean time to detection (simulated instructions of all harts
# and cycles of the reporting hart when its first detection record was
# written, from hostsim --console-stamps).  Each seed sets both the image's
# `seed` key and hostsim's --seed.  Then the clean runs: every memory order
# at 2, 4 and 8 harts, every seed, every check: the detection records they
# wrote (must be 0), and the relaxed (allowed) litmus outcomes per test at
# --harts harts; and the clean runs of the checks meant for lost-inval on
# --machine openpiton (sc and tso).
#
#   tools/litmus-matrix.sh [--harts N] [--seeds N] [--orders "sc tso rvwmo"]
#       [--faults "f1 f2 ..."] [--checks "litmus traffic integ"] [--iters N]
#       [--clean-harts "2 4 8"] [--no-clean] [--no-faults] [--all-cells] [--out DIR]
#
# Defaults: 4 harts, 10 seeds, all three orders, every fault, every check,
# the image's litmus_iters, out/litmus-matrix (matrix.csv, clean.csv,
# relaxed.csv and the logs).  Exit 0 when every fault is detected by some
# check in >= 90 % of the seeds of each order it applies to and no clean run
# wrote a detection record.
#
# A check is four functions and a name in CHECKS: check_NAME_cfg SEED (the
# `rvmess config` keys of its image), check_NAME_hits LOG (the line numbers
# of its detection records in a console log), check_NAME_what LOG (what
# each record names, e.g. the litmus test) and check_NAME_for FAULT (true
# when the check is meant to see that fault: the other cells show `-`
# unless --all-cells runs them too).  An integrity column is one more such
# set.
set -u
cd "$(dirname "$0")/.." || exit 2
HARTS=4 SEEDS=10 ORDERS="sc tso rvwmo" ITERS= OUT=out/litmus-matrix CLEAN=1 DOFAULTS=1 ALL=0
CLEAN_HARTS="2 4 8"
FAULTS="fence-noop amo-nonatomic sc-spurious-success stale-read lost-write wrong-ack clean-writeback lost-inval"
CHECKS="litmus traffic integ visibility"
usage() {
	echo "usage: tools/litmus-matrix.sh [--harts N] [--seeds N] [--orders LIST] [--faults LIST] [--checks LIST] [--iters N] [--clean-harts LIST] [--no-clean] [--no-faults] [--all-cells] [--out DIR]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	[ $# -ge 2 ] || case $1 in --no-clean|--no-faults|--all-cells) ;; *) usage ;; esac
	case $1 in
	--harts) HARTS=$2; shift 2 ;;
	--seeds) SEEDS=$2; shift 2 ;;
	--orders) ORDERS=$2; shift 2 ;;
	--faults) FAULTS=$2; shift 2 ;;
	--checks) CHECKS=$2; shift 2 ;;
	--iters) ITERS=$2; shift 2 ;;
	--clean-harts) CLEAN_HARTS=$2; shift 2 ;;
	--no-clean) CLEAN=0; shift ;;
	--no-faults) DOFAULTS=0; shift ;;
	--all-cells) ALL=1; shift ;;
	--out) OUT=$2; shift 2 ;;
	*) usage ;;
	esac
done

# ---- the checks ---------------------------------------------------------------
# litmus: the default litmus suite; a `bug` record (a forbidden outcome)
check_litmus_cfg() { echo "suites=litmus seed=$1 ${ITERS:+litmus_iters=$ITERS}"; }
check_litmus_hits() { grep -an '^@RVM [0-9]* bug h=' "$1" | grep -v ' test=visibility ' | cut -d: -f1; }
check_litmus_what() { grep -ao '^@RVM [0-9]* bug h=[0-9]* test=[a-z0-9_]*' "$1" | grep -v 'test=visibility$' | sed 's/.*test=//'; }
check_litmus_for() { [ "$1" != clean-writeback ]; } # no functional effect to see
# traffic: a short Mess run (a store-only and a load-only point); the suite's
# counter-vs-issued check writes `warn what=wr-excess` when the memory
# controller counted more writes than the stores can cause
check_traffic_cfg() { echo "suites=mess seed=$1 mess_mix=100,0 mess_pause=0 reps=1 warmups=0 mess_tol=0 mess_window_loads=2000 mess_chase_size=8M"; }
check_traffic_hits() { grep -an '^@RVM [0-9]* warn h=[0-9]* what=wr-excess ' "$1" | cut -d: -f1; }
check_traffic_what() { check_traffic_hits "$1" | sed 's/.*/wr-excess/'; }
check_traffic_for() { [ "$1" = clean-writeback ]; } # the others change no traffic
# integ: the integrity suite; an `integ` record with wrong words (bad > 0)
check_integ_cfg() { echo "suites=integ seed=$1"; }
check_integ_hits() { grep -anE '^@RVM [0-9]* integ h=[0-9]* .*bad=[1-9]' "$1" | cut -d: -f1; }
check_integ_what() { grep -aoE '^@RVM [0-9]* integ h=[0-9]* check=[a-z-]* .*bad=[1-9]' "$1" | sed 's/.*check=\([a-z-]*\).*/\1/'; }
check_integ_for() { case $1 in stale-read | lost-write) ;; *) return 1 ;; esac; } # lost or stale data
# visibility: a short run whose rendezvous waits check that each awaited
# store becomes visible (firmware/wait.c); a `bug test=visibility` record.
# Only a platform that can flush a hart's data cache checks: openpiton's
# CSR 0x701, the machine of the lost-inval rows.
check_visibility_cfg() { echo "suites=lat seed=$1 lat_max=4K lat_loads=100 lat_strides=64 lat_random=0 reps=1 warmups=0"; }
check_visibility_hits() { grep -an '^@RVM [0-9]* bug h=[0-9]* test=visibility ' "$1" | cut -d: -f1; }
check_visibility_what() { grep -ao '^@RVM [0-9]* bug h=[0-9]* test=visibility .* where=[a-z-]*' "$1" | sed 's/.*where=/at-/'; }
check_visibility_for() { [ "$1" = lost-inval ]; }

# Which memory orders a fault applies to: under sc a store is visible at
# once, so there is nothing for a fence to order or for an ack to hide.
applies() { # FAULT ORDER
	case $1:$2 in
	fence-noop:sc | wrong-ack:sc | lost-inval:rvwmo) return 1 ;;
	esac
	return 0
}
machine_of() { [ "$1" = lost-inval ] && echo openpiton || echo virt; } # FAULT

BUILD=${BUILD:-build}
HS=$BUILD/bin/hostsim RV=$BUILD/bin/rvmess
[ -x "$HS" ] && [ -f "$BUILD/images/virt.elf" ] && [ -f "$BUILD/images/openpiton.elf" ] ||
	make --no-print-directory -j2 all >/dev/null || exit 2
mkdir -p "$OUT" || exit 2
for c in $CHECKS; do
	declare -F "check_${c}_cfg" >/dev/null || { echo "litmus-matrix: unknown check '$c'" >&2; exit 2; }
done

image() { # CHECK SEED MACHINE -> path of its image
	local img=$OUT/$1-s$2-$3.elf
	if [ ! -f "$img" ]; then
		cp "$BUILD/images/$3.elf" "$img" &&
			"$RV" config "$img" $("check_${1}_cfg" "$2") >/dev/null || { rm -f "$img"; return 1; }
	fi
	echo "$img"
}

# run CHECK SEED ORDER HARTS FAULT [MACHINE] -> sets HIT (0/1), INSNS, CYC, WHAT, INJ, LOG
run() {
	local c=$1 s=$2 o=$3 h=$4 f=$5 m=${6:-virt} img inject=() mopt=()
	img=$(image "$c" "$s" "$m") || exit 2
	LOG=$OUT/$c-$f-$o-h$h-s$s${6:+-$6}.log
	[ "$f" = none ] || inject=(--inject "$f")
	[ "$m" = virt ] || mopt=(--machine "$m")
	timeout 900 "$HS" "${mopt[@]}" --harts "$h" --memory-order "$o" --seed "$s" "${inject[@]}" --stats \
		--console-stamps "$LOG.stamps" "$img" >"$LOG" 2>"$LOG.stats"
	INJ=$(grep -o 'injected:.*' "$LOG.stats" | grep -o '=[0-9]*' | tr -d = | awk '{ s += $1 } END { print s + 0 }')
	local first
	first=$("check_${c}_hits" "$LOG" | head -1)
	HIT=0 INSNS= CYC= WHAT=
	if [ -n "$first" ]; then
		HIT=1
		read -r CYC INSNS < <(sed -n "${first}p" "$LOG.stamps")
		WHAT=$("check_${c}_what" "$LOG" | tr '\n' ' ')
	fi
}

all_ok=1
if [ $DOFAULTS = 1 ]; then
	echo "detection: $HARTS harts, $SEEDS seeds; cell = detected/seeds @ mean Minsns to the first record (Mcycles)"
	printf '%-20s %-6s' fault order
	for c in $CHECKS; do printf ' %-28s' "$c"; done
	printf ' %s\n' injected
	echo "fault,order,check,seeds,detected,injected,mean_insns,mean_cycles,what" >"$OUT/matrix.csv"
	for f in $FAULTS; do
		for o in $ORDERS; do
			applies "$f" "$o" || continue
			printf '%-20s %-6s' "$f" "$o"
			best=0 injall=0
			for c in $CHECKS; do
				if [ $ALL = 0 ] && ! "check_${c}_for" "$f"; then
					printf ' %-28s' -
					continue
				fi
				det=0 inj=0 si=0 sc=0 what=""
				for s in $(seq 1 "$SEEDS"); do
					run "$c" "$s" "$o" "$HARTS" "$f" "$(machine_of "$f")"
					[ "$INJ" -gt 0 ] && inj=$((inj + 1))
					if [ $HIT = 1 ]; then
						det=$((det + 1)) si=$((si + INSNS)) sc=$((sc + CYC)) what="$what $WHAT"
					fi
				done
				cell="$det/$SEEDS"
				mi= mc=
				if [ $det -gt 0 ]; then
					mi=$(awk -v a=$si -v d=$det 'BEGIN { printf "%.1f", a / d / 1e6 }')
					mc=$(awk -v a=$sc -v d=$det 'BEGIN { printf "%.1f", a / d / 1e6 }')
					cell="$cell @ ${mi}M (${mc}M)"
				fi
				printf ' %-28s' "$cell"
				tests=$(echo "$what" | tr ' ' '\n' | sed '/^$/d' | sort | uniq -c | sort -rn |
					awk '{ printf("%s%s(%d)", (NR > 1 ? " " : ""), $2, $1) }')
				mean_i= mean_c=
				[ $det -gt 0 ] && mean_i=$((si / det)) mean_c=$((sc / det))
				echo "$f,$o,$c,$SEEDS,$det,$inj,$mean_i,$mean_c,$tests" >>"$OUT/matrix.csv"
				[ $det -gt $best ] && best=$det
				[ $inj -gt $injall ] && injall=$inj
			done
			printf ' %s\n' "$injall/$SEEDS"
			# >= 90 % of the seeds by the best check
			[ $((best * 10)) -ge $((SEEDS * 9)) ] || all_ok=0
		done
	done
	echo "(which records: $OUT/matrix.csv)"
fi

if [ $CLEAN = 1 ]; then
	echo
	echo "clean runs: detection records per order x harts ($SEEDS seeds, checks: $CHECKS)"
	echo "order,harts,check,seeds,records" >"$OUT/clean.csv"
	echo "order,test,outcome,count,iterations" >"$OUT/relaxed.csv"
	for o in $ORDERS; do
		line="$(printf '%-6s' "$o")"
		for h in $CLEAN_HARTS; do
			recs=0
			for c in $CHECKS; do
				n=0
				for s in $(seq 1 "$SEEDS"); do
					run "$c" "$s" "$o" "$h" none
					n=$((n + $("check_${c}_hits" "$LOG" | wc -l)))
					[ "$c" = litmus ] && [ "$h" = "$HARTS" ] && "$RV" parse "$LOG" -o "$LOG.d" -q >/dev/null 2>&1
				done
				echo "$o,$h,$c,$SEEDS,$n" >>"$OUT/clean.csv"
				recs=$((recs + n))
			done
			line="$line  ${h} harts: $recs"
			[ $recs = 0 ] || all_ok=0
		done
		echo "$line"
	done
	# the checks meant for lost-inval, on its machine without it
	pchecks=$(for c in $CHECKS; do check_${c}_for lost-inval && echo "$c"; done | tr '\n' ' ')
	for o in $ORDERS; do
		applies lost-inval "$o" && [ -n "$pchecks" ] || continue
		line="$(printf '%-6s' "$o") openpiton ($pchecks):"
		for h in $CLEAN_HARTS; do
			recs=0
			for c in $pchecks; do
				n=0
				for s in $(seq 1 "$SEEDS"); do
					run "$c" "$s" "$o" "$h" none openpiton
					n=$((n + $("check_${c}_hits" "$LOG" | wc -l)))
				done
				echo "$o-openpiton,$h,$c,$SEEDS,$n" >>"$OUT/clean.csv"
				recs=$((recs + n))
			done
			line="$line  ${h} harts: $recs"
			[ $recs = 0 ] || all_ok=0
		done
		echo "$line"
	done
	# every allowed (relaxed) outcome seen, summed over the seeds, against
	# the iterations the test ran in all of them
	if [[ " $CHECKS " = *" litmus "* ]]; then
		for o in $ORDERS; do
			for s in $(seq 1 "$SEEDS"); do
				f=$OUT/litmus-none-$o-h$HARTS-s$s.log.d/litmus.csv
				[ -f "$f" ] && awk -F, -v o="$o" 'NR > 1 { print o "," $0 }' "$f"
			done
		done | awk -F, '{ it[$1 "," $2] += $4 } $5 == "allowed" { n[$1 "," $2 "," $3] += $4; t[$1 "," $2 "," $3] = $1 "," $2 }
			END { for (k in n) print k "," n[k] "," it[t[k]] }' | sort >>"$OUT/relaxed.csv"
		echo
		echo "relaxed (allowed) litmus outcomes at $HARTS harts, all seeds: order test outcome count/iterations (none listed: never)"
		awk -F, 'NR > 1 { printf "  %-6s %-14s %s %d/%d\n", $1, $2, $3, $4, $5 }' "$OUT/relaxed.csv"
	fi
fi
[ $all_ok = 1 ]
