#!/usr/bin/env bash
# The set-up phase hint (docs/hostsim.md "Set-up phases") on the suites.
#   phase-tso-not-offered  with --memory-order tso the hint is not offered:
#                          PHASE reads 0, so hostsim/tests/isa/phase.S stops
#                          at its check 5 (PHASE reads 2)
#   phase-honoured         a small lat/par/chase config, 1 hart, ddr: most of
#                          its instructions run untimed (the builds' shuffles,
#                          the checks, the records), over half by --stats
#   phase-l1-exact         the lat points that fit the L1D (<= 16 KiB) read
#                          l1d-hit = 4 cycles per load with the hint, plus
#                          at most 0.1 for the loop and stamps over >= 4000
#                          loads (timing left off after a phase gives 1)
#   phase-same-figures     every lat/par/parmax/chase figure of the hint run
#                          within 1 % of the --no-phase-hint run's (the full
#                          make run job's noise across seeds is larger:
#                          tools/phase-hint-check.sh), record for record
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
scratch phase
SIM=$BUILD/bin/hostsim

timeout 60 "$SIM" --memory-order tso --mem-model fixed "$BUILD/tests/isa/phase.elf" >/dev/null 2>&1
rc=$?
if [ "$rc" = 5 ]; then pass phase-tso-not-offered; else fail phase-tso-not-offered "exit $rc, want 5 (PHASE must read 0)"; fi

"$BUILD/bin/rvmess" config "$BUILD/images/virt.elf" suites=lat,par,chase reps=1 warmups=1 lat_max=4M \
	lat_strides=64 lat_random=1 lat_loads=4000 par_max=256K par_kmax=4 chase_size=4M chase_loads=4000 \
	-o "$TMP/small.elf" >/dev/null || { fail phase-config "rvmess config failed"; exit 1; }
for m in hint no; do
	f=""; [ $m = no ] && f=--no-phase-hint
	# shellcheck disable=SC2086
	timeout 120 "$SIM" --harts 1 --mem-model ddr --stats $f --console "$TMP/$m.log" "$TMP/small.elf" \
		>/dev/null 2>"$TMP/$m.stats" || { fail phase-run-$m "exit $?: $(tail -n 2 "$TMP/$m.stats" | tr '\n' ' ')"; exit 1; }
done

total=$(sed -n 's/.* total: instructions=\([0-9]*\).*/\1/p' "$TMP/hint.stats")
untimed=$(sed -n 's/.*untimed instructions=\([0-9]*\).*/\1/p' "$TMP/hint.stats")
if [ -n "$total" ] && [ -n "$untimed" ] && [ $((untimed * 2)) -gt "$total" ]; then
	pass phase-honoured
else
	fail phase-honoured "untimed '${untimed:-none}' of '${total:-?}' instructions"
fi
if grep -q 'untimed' "$TMP/no.stats"; then fail phase-honoured-off "--no-phase-hint ran untimed: $(grep untimed "$TMP/no.stats")"; fi

bad=$(awk '$3 == "lat" { delete f; for (i = 4; i <= NF; i++) if (split($i, kv, "=") == 2) f[kv[1]] = kv[2]
	if (f["size"] <= 16384) { n++; if (f["cpl"] < 4 || f["cpl"] >= 4.1) print f["chain"] "/" f["size"] "=" f["cpl"] } }
	END { if (n < 10) print "only", n + 0, "L1 points" }' "$TMP/hint.log")
if [ -z "$bad" ]; then pass phase-l1-exact; else fail phase-l1-exact "cpl outside [4, 4.1): $(echo "$bad" | head -n 3 | tr '\n' ' ')"; fi

tools/phase-hint-check.sh --compare "$TMP/hint.log" "$TMP/no.log" >"$TMP/cmp"
nrec=$(grep -c '^@RVM [0-9]* \(lat\|par\|parmax\|chase\) ' "$TMP/no.log")
out=$(awk -v nrec="$nrec" 'NR > 1 { n += $2; v = $3 + 0; if (v > 1.0) bad = bad " " $1 "=" $3 " at " $4 }
	END { if (n != nrec || n == 0) print "compared", n + 0, "of", nrec, "records"; else if (bad != "") print "over 1 %:" bad }' "$TMP/cmp")
if [ -z "$out" ]; then pass phase-same-figures; else fail phase-same-figures "$out"; fi
finish
