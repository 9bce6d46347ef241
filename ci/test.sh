#!/usr/bin/env bash
# rvmess test runner (what `make test` calls after building).
#
# 1. every cmocka binary in build/tests/ and build/tests-asan/ (ASan+UBSan);
# 2. every integration script ci/tests/*.sh.  A script prints one line per
#    case: "PASS <name>", "FAIL <name> <why>" or "SKIP <name> <why>", and exits
#    non-zero if any case failed.
# Ends with the line "N passed, N failed[, N skipped]".
#   ci/test.sh [-k PATTERN]   run only integration scripts matching PATTERN
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
pattern=""
[ "${1:-}" = "-k" ] && pattern=${2:-}

pass=0 fail=0 skip=0
failed_names=()
logdir=$BUILD/test-logs
mkdir -p "$logdir"

run_cmocka() { # binary
	local bin=$1 name out rc p f
	name=$(basename "$(dirname "$bin")")/$(basename "$bin")
	out=$logdir/$(echo "$name" | tr / _).log
	"$bin" >"$out" 2>&1
	rc=$?
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out" | awk '{s+=$1} END {print s+0}')
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$out" | awk '{s+=$1} END {print s+0}')
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then f=1; fi
	pass=$((pass + p)); fail=$((fail + f))
	if [ "$f" != 0 ]; then
		failed_names+=("$name (see $out)")
		printf 'FAIL %-40s %s passed, %s failed\n' "$name" "$p" "$f"
		grep -E '^\[  (FAILED|  ERROR) \]|error:|runtime error|ERROR: AddressSanitizer' "$out" | head -20
	else
		printf 'ok   %-40s %s tests\n' "$name" "$p"
	fi
}

for dir in "$BUILD/tests" "$BUILD/tests-asan"; do
	[ -d "$dir" ] || continue
	[ -n "$pattern" ] && continue
	for bin in "$dir"/test_*; do
		[ -x "$bin" ] || continue
		run_cmocka "$bin"
	done
done

for script in ci/tests/*.sh; do
	[ -e "$script" ] || continue
	case "$script" in *"$pattern"*) ;; *) continue ;; esac
	name=$(basename "$script" .sh)
	out=$logdir/it_$name.log
	start=$(date +%s)
	bash "$script" >"$out" 2>&1
	rc=$?
	p=$(grep -c '^PASS ' "$out"); f=$(grep -c '^FAIL ' "$out"); s=$(grep -c '^SKIP ' "$out")
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		f=1; echo "FAIL $name exited $rc without naming a failed case" >>"$out"
	fi
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	took=$(( $(date +%s) - start ))
	if [ "$f" != 0 ]; then
		failed_names+=("$name (see $out)")
		printf 'FAIL %-40s %s passed, %s failed (%ss)\n' "$name" "$p" "$f" "$took"
		grep -E '^FAIL ' "$out" | head -20
		tail -n 5 "$out"
	else
		printf 'ok   %-40s %s passed, %s skipped (%ss)\n' "$name" "$p" "$s" "$took"
	fi
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
