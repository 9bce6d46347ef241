#!/usr/bin/env bash
# tools/mutations.txt stays in step with the code: every mutation's pattern
# occurs exactly once in its file (`tools/mutate.sh --check`; a change that
# rewrites the code a mutation plants its bug in must move the line), and the
# check itself refuses a list whose pattern is gone.
set -u
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
scratch mutations

if tools/mutate.sh --check >"$TMP/check.out" 2>&1; then pass "mutations-patterns ($(tail -1 "$TMP/check.out" | sed 's/.*: //'))"
else fail mutations-patterns "$(grep -v '^/' "$TMP/check.out" | head -3 | tr '\n' ' ')$(grep 'want exactly once' "$TMP/check.out" | head -3 | tr '\n' ' ')"; fi

printf 'gone ||| hostsim/sim/cpu.c ||| a pattern that is not in the file ||| x ||| unit test_sim_exec\n' >"$TMP/bad.txt"
if tools/mutate.sh --check -l "$TMP/bad.txt" >"$TMP/bad.out" 2>&1; then fail mutations-check-refuses "a missing pattern passed the check"
elif grep -q 'occurs 0 times' "$TMP/bad.out"; then pass mutations-check-refuses
else fail mutations-check-refuses "$(head -c 200 "$TMP/bad.out")"; fi
