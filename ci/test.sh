#!/usr/bin/env bash
# rvmess test runner (what `make test` calls after building).
#
# 1. every cmocka unit test the Makefile lists (`make -s print-unit-tests`),
#    built plain (build/tests/) and with ASan+UBSan (build/tests-asan/).  Each
#    build prints its own suite line; a test case counts once, as passed only
#    when it passed in both builds (a failure names the build).  A binary that
#    is missing, older than its sources (`make -q`), or exits without its
#    cmocka summary line is a failure;
# 2. every integration script ci/tests/*.sh.  A script reports its cases
#    through ci/lib.sh (pass/fail/skip), which write them to the file named by
#    RVMESS_RESULTS; only that file is counted, never the script's output.
#    A script that exits non-zero without a failed case, or reports no case
#    at all, is a failure.
# Ends with the line "N passed, N failed[, N skipped]": distinct cases.
#   ci/test.sh [-k PATTERN]   run only integration scripts matching PATTERN
set -u
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
pattern=""
[ "${1:-}" = "-k" ] && pattern=${2:-}

pass=0 fail=0 skip=0
failed_names=()
logdir=$BUILD/test-logs
mkdir -p "$logdir"
export BUILD

runner_fail() { # NAME WHY: a failure found by the runner itself
	fail=$((fail + 1)); failed_names+=("$1: $2")
	printf 'FAIL %-40s %s\n' "$1" "$2"
}

# cmocka_verdicts LOG: "CASE ok|failed|skipped" per case of a cmocka run, then
# "#summary N" per summary line ("[==========] ... N test(s) run.").
cmocka_verdicts() {
	awk '
	/^\[ RUN      \] / { sub(/^\[ RUN      \] /, ""); run[$0] = 1; order[++n] = $0; next }
	/^\[       OK \] / { sub(/^\[       OK \] /, ""); v[$0] = "ok"; next }
	/^\[  SKIPPED \] / { sub(/^\[  SKIPPED \] /, ""); if (!($0 ~ /^[0-9]+ test/)) v[$0] = "skipped"; next }
	/^\[  FAILED  \] / { sub(/^\[  FAILED  \] /, ""); if (!($0 ~ /^[0-9]+ test/)) v[$0] = "failed"; next }
	/^\[==========\] .*[0-9]+ test\(s\) run\./ { s = $0; sub(/ test\(s\) run\..*/, "", s); sub(/.* /, "", s); print "#summary", s }
	END { for (i = 1; i <= n; i++) print order[i], (order[i] in v) ? v[order[i]] : "failed" }
	' "$1"
}

declare -A verdict    # test/case -> "ok" or why it failed
declare -A case_seen
case_order=()

run_cmocka() { # BUILDNAME BINARY TEST
	local bname=$1 bin=$2 t=$3 out err rc summaries=0 total=0 n=0 nbad=0 c v key
	out=$logdir/$bname-$t.log	# cmocka's report (stdout) alone: the
	err=$logdir/$bname-$t.err	# assertion messages go to stderr
	"$bin" >"$out" 2>"$err"
	rc=$?
	while read -r c v; do
		if [ "$c" = "#summary" ]; then summaries=$((summaries + 1)); total=$((total + v)); continue; fi
		n=$((n + 1)); key=$t/$c
		[ -n "${case_seen[$key]:-}" ] || { case_seen[$key]=1; case_order+=("$key"); }
		case $v in
		ok) [ -n "${verdict[$key]:-}" ] || verdict[$key]=ok ;;
		skipped) verdict[$key]="skipped in $bname" ;;
		*) nbad=$((nbad + 1))
		   if [ "${verdict[$key]:-ok}" = ok ]; then verdict[$key]="failed in $bname"
		   else verdict[$key]="${verdict[$key]}, $bname"; fi ;;
		esac
	done < <(cmocka_verdicts "$out")
	if [ "$summaries" = 0 ]; then
		runner_fail "$bname/$t" "exited $rc without a cmocka summary line (see $out)"; tail -n 5 "$out" "$err"
	elif [ "$total" != "$n" ]; then
		runner_fail "$bname/$t" "summary says $total tests run, $n reported (see $out)"
	elif [ "$rc" != 0 ] && [ "$nbad" = 0 ]; then
		runner_fail "$bname/$t" "exited $rc with no failed case (see $out)"; tail -n 5 "$out"
	elif [ "$nbad" != 0 ]; then
		printf 'FAIL %-40s %s tests, %s failed (see %s)\n' "$bname/$t" "$n" "$nbad" "$out"
		grep -hE '^\[  (FAILED|  ERROR) \]|error:|runtime error|ERROR: AddressSanitizer' "$out" "$err" | head -20
	else
		printf 'ok   %-40s %s tests\n' "$bname/$t" "$n"
	fi
}

if [ -z "$pattern" ]; then
	unit_tests=$(make --no-print-directory -s BUILD="$BUILD" print-unit-tests 2>/dev/null)
	[ -n "$unit_tests" ] || runner_fail unit-tests "make print-unit-tests listed no unit test"
	for b in tests tests-asan; do
		bname=plain; [ $b = tests-asan ] && bname=asan
		for t in $unit_tests; do
			bin=$BUILD/$b/$t
			if [ ! -x "$bin" ]; then runner_fail "$bname/$t" "$bin missing (make unit-bins)"; continue; fi
			if ! make --no-print-directory -s -q BUILD="$BUILD" "$bin" >/dev/null 2>&1; then
				runner_fail "$bname/$t" "$bin is older than its sources (make unit-bins)"; continue
			fi
			run_cmocka "$bname" "$bin" "$t"
		done
	done
	for key in "${case_order[@]}"; do
		if [ "${verdict[$key]}" = ok ]; then pass=$((pass + 1))
		elif [[ "${verdict[$key]}" == skipped* ]]; then skip=$((skip + 1))
		else fail=$((fail + 1)); failed_names+=("$key (${verdict[$key]})"); fi
	done
fi

for script in ci/tests/*.sh; do
	[ -e "$script" ] || continue
	case "$script" in *"$pattern"*) ;; *) continue ;; esac
	name=$(basename "$script" .sh)
	out=$logdir/it_$name.log
	res=$logdir/it_$name.results
	: >"$res"
	start=$(date +%s)
	RVMESS_RESULTS=$PWD/$res bash "$script" >"$out" 2>&1
	rc=$?
	# a case reported more than once counts once: failed if any report failed
	summary=$(awk -F'\t' '
		{ if (!($2 in v)) order[++n] = $2
		  if ($1 == "FAIL" || !($2 in v) || (v[$2] == "SKIP" && $1 == "PASS")) v[$2] = $1 }
		END { for (i = 1; i <= n; i++) c[v[order[i]]]++; print c["PASS"] + 0, c["FAIL"] + 0, c["SKIP"] + 0 }' "$res")
	read -r p f s <<<"$summary"
	took=$(( $(date +%s) - start ))
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		runner_fail "$name" "exited $rc without naming a failed case (see $out)"; tail -n 5 "$out"
	elif [ $((p + f + s)) = 0 ]; then
		runner_fail "$name" "reported no case (see $out)"; tail -n 5 "$out"
	elif [ "$f" != 0 ]; then
		failed_names+=("$name (see $out)")
		printf 'FAIL %-40s %s passed, %s failed (%ss)\n' "$name" "$p" "$f" "$took"
		awk -F'\t' '$1 == "FAIL" { print "FAIL " $2 $3 }' "$res" | head -20
	else
		printf 'ok   %-40s %s passed, %s skipped (%ss)\n' "$name" "$p" "$s" "$took"
	fi
	if [ "$s" != 0 ]; then awk -F'\t' '$1 == "SKIP" { print "  skip " $2 $3 }' "$res" | head -5; fi
done

if [ ${#failed_names[@]} -gt 0 ]; then
	echo "failed:"
	printf '  %s\n' "${failed_names[@]}"
fi
if [ "$skip" != 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" = 0 ] && [ "$pass" != 0 ]
