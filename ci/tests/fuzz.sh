#!/usr/bin/env bash
# Fuzz corpus replay (docs/fuzzing.md): every input of hostsim/fuzz/corpus/T/
# through build/fuzz/replay/fuzz_T (gcc, ASan+UBSan), once, no fuzzing.
#   PASS fuzz-T (N inputs)              every input ran clean
#   FAIL fuzz-T PATH: how ... report    one line per input that crashed, hung
#                                       or broke a property the target checks
# Inputs in hostsim/fuzz/known/T/ are crashes found by fuzzing whose fix is
# pending: each is reported as SKIP while it still crashes, and as PASS
# "fixed" once it runs clean (then move it into corpus/T/).
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh

# "PATH: how | report | frame" per failed input of a replay's output: the
# report is the sanitizer's SUMMARY, UBSan's "runtime error" or the target's
# own "fuzz:" line, the frame the first one in the project's sources
failures() { # replay-output
	awk 'function flush() { if (f != "") print f (r != "" ? " | " r : "") (fr != "" ? " | " fr : "") }
	     /^FAIL / { flush(); f = substr($0, 6); r = ""; fr = ""; next }
	     f == "" { next }
	     r == "" && /(runtime error|SUMMARY:|fuzz: )/ { r = $0; sub(/^ +/, "", r) }
	     fr == "" && /^ +#[0-9]+ .* in .*(hostsim|firmware)\// { fr = $0; sub(/^ +#[0-9]+ 0x[0-9a-f]+ /, "", fr) }
	     END { flush() }' "$1"
}

scratch fuzz
for dir in hostsim/fuzz/corpus/*/; do
	dir=${dir%/}
	t=$(basename "$dir")
	bin=$BUILD/fuzz/replay/fuzz_$t
	if [ ! -x "$bin" ]; then
		fail "fuzz-$t" "$bin not built (make unit-bins)"
		continue
	fi
	"$bin" -t 60 "$dir" >"$TMP/$t.out" 2>&1
	rc=$?
	n=$(sed -n 's/^replay: \([0-9]*\) inputs.*/\1/p' "$TMP/$t.out")
	if [ "$rc" = 0 ]; then
		pass "fuzz-$t ($n inputs)"
	elif grep -q '^FAIL ' "$TMP/$t.out"; then
		failures "$TMP/$t.out" | while IFS= read -r line; do echo "FAIL fuzz-$t $line"; done
		fails=$((fails + 1))
	else
		fail "fuzz-$t" "replay exited $rc: $(tail -1 "$TMP/$t.out")"
	fi

	for f in hostsim/fuzz/known/"$t"/*; do
		[ -f "$f" ] || continue
		if "$bin" -t 5 "$f" >"$TMP/known.out" 2>&1; then
			pass "fuzz-known-$t/$(basename "$f") (fixed: move it into $dir)"
		else
			skip "fuzz-known-$t/$(basename "$f")" "still fails: $(failures "$TMP/known.out" | sed 's/^[^:]*: //')"
		fi
	done
done
finish
