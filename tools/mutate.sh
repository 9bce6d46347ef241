#!/usr/bin/env bash
# Mutation check: plant one bug at a time (tools/mutations.txt) in a scratch
# copy of the tree and see whether the test named for it notices.
#
#   tools/mutate.sh [-k PATTERN] [-l LIST] [--timeout S] [--keep] [--no-baseline] [--check]
#   (-k: only mutations whose "ID FILE" matches the extended regex PATTERN; --check: only
#   validate the list)
#
# Each line of the list:  ID ||| FILE ||| PATTERN ||| REPLACEMENT ||| TEST [||| NOTE]
#   PATTERN      an exact string that must occur exactly once in FILE
#   REPLACEMENT  what it becomes (\n, \t and \\ are decoded in both)
#   TEST         a shell command run at the top of the scratch tree; it must
#                fail (exit non-zero, or time out) on the mutant.  Helpers:
#                  unit T...      build build/tests/T (plain) and run each
#                  asan T...      the same with build/tests-asan/T (ASan and
#                                 UBSan: for reads out of bounds that a plain
#                                 build may not notice)
#                  it SCRIPT...   build images, host tools and ISA tests, run
#                                 ci/tests/SCRIPT.sh
#                  isa NAME...    build hostsim and the ISA tests, run those
#                                 ISA programs (timing mode) and check their
#                                 expect-exit and expect-stderr
#   NOTE         "equivalent: why" when no test can tell the mutant apart.
# Lines starting with # and blank lines are ignored.
#
# The scratch copy is $TMPDIR/rvmess-mutate.XXXXXX (the tracked files of
# the working tree as they are now, plus its build/ folder when present so
# only what a mutation touches is rebuilt); the working tree is never
# written.  Every distinct TEST first runs once unmutated (the baseline; it
# must pass).  Prints one line per mutation, every survivor, and
#   "killed K of N (P %), S survived (E marked equivalent)".
# Exit status 0 when every survivor is marked equivalent.
set -u
cd "$(dirname "$0")/.." || exit 1
SRC=$PWD
LIST=tools/mutations.txt
pattern="" timeout=600 keep=0 baseline=1 check=0
while [ $# -gt 0 ]; do
	case $1 in
	-k) pattern=$2; shift ;;
	-l) LIST=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--keep) keep=1 ;;
	--no-baseline) baseline=0 ;;
	--check) check=1 ;;
	-h|--help) sed -n '2,34p' "$0"; exit 0 ;;
	*) echo "mutate.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
	shift
done
[ -f "$LIST" ] || { echo "mutate.sh: $LIST: no such file" >&2; exit 2; }
LIST=$(realpath "$LIST")

# ---- parse and check the list before any work ---------------------------------
ids=() files=() pats=() reps=() tests=() notes=() lines=()
bad=0 lineno=0
declare -A seen_id
while IFS= read -r line || [ -n "$line" ]; do
	lineno=$((lineno + 1))
	case $line in ''|'#'*) continue ;; esac
	IFS=$'\x1f' read -r -a f <<<"${line//' ||| '/$'\x1f'}"
	if [ ${#f[@]} -lt 5 ] || [ ${#f[@]} -gt 6 ]; then
		echo "$LIST:$lineno: want 5 or 6 fields separated by ' ||| ', found ${#f[@]}" >&2; bad=1; continue
	fi
	id=${f[0]%% *}
	if [ -n "${seen_id[$id]:-}" ]; then echo "$LIST:$lineno: id '$id' already used on line ${seen_id[$id]}" >&2; bad=1; fi
	seen_id[$id]=$lineno
	if [ ! -f "${f[1]}" ]; then echo "$LIST:$lineno: $id: ${f[1]}: no such file" >&2; bad=1; continue; fi
	n=$(python3 -c 'import sys
def dec(s): return s.encode().decode("unicode_escape")
print(open(sys.argv[1]).read().count(dec(sys.argv[2])))' "${f[1]}" "${f[2]}")
	if [ "$n" != 1 ]; then echo "$LIST:$lineno: $id: pattern occurs $n times in ${f[1]}, want exactly once" >&2; bad=1; fi
	ids+=("$id"); files+=("${f[1]}"); pats+=("${f[2]}"); reps+=("${f[3]}"); tests+=("${f[4]}"); notes+=("${f[5]:-}"); lines+=("$lineno")
done <"$LIST"
[ $bad = 0 ] || exit 2
if [ $check = 1 ]; then echo "$LIST: ${#ids[@]} mutations, every pattern found once"; exit 0; fi

sel=()
for i in "${!ids[@]}"; do
	[[ "${ids[$i]} ${files[$i]}" =~ $pattern ]] && sel+=("$i")
done
[ ${#sel[@]} -gt 0 ] || { echo "mutate.sh: no mutation matches '$pattern'" >&2; exit 2; }

# ---- the scratch tree ------------------------------------------------------------
W=$(mktemp -d "${TMPDIR:-/tmp}/rvmess-mutate.XXXXXX") || exit 1
[ $keep = 1 ] || trap 'rm -rf "$W"' EXIT
echo "scratch tree: $W"
git ls-files -z --cached --others --exclude-standard | tar -c --null -T - -f - | tar -x -C "$W" -f -
[ -d build ] && cp -a build "$W/build"
cd "$W" || exit 1
# no git here: the version string is "dev" (firmware.mk), for the image,
# the host tools and ci/tests/hostsim.sh alike
export MAKEFLAGS="-j2 --no-print-directory -s"

cat >"$W/.mutate-helpers.sh" <<'EOF'
unit_in() {
	local dir=$1 t bins=()
	shift
	for t in "$@"; do bins+=("$dir/$t"); done
	make "${bins[@]}" >.mutate-build.log 2>&1 || { cat .mutate-build.log; return 3; }
	for t in "$@"; do
		"$dir/$t" || return 1
	done
}
unit() { unit_in build/tests "$@"; }
asan() { unit_in build/tests-asan "$@"; }
it() {
	make all isa-tests >.mutate-build.log 2>&1 || { cat .mutate-build.log; return 3; }
	local s rc=0
	for s in "$@"; do
		RVMESS_RESULTS=$PWD/.mutate-results bash "ci/tests/$s.sh" || rc=1
	done
	return $rc
}
isa() {
	make build/bin/hostsim isa-tests >.mutate-build.log 2>&1 || { cat .mutate-build.log; return 3; }
	local n rc=0 args want werr
	for n in "$@"; do
		args=$(sed -n 's/^# args: //p' "hostsim/tests/isa/$n.S" | head -1)
		want=$(sed -n 's/^# expect-exit: //p' "hostsim/tests/isa/$n.S" | head -1)
		werr=$(sed -n 's/^# expect-stderr: //p' "hostsim/tests/isa/$n.S" | head -1)
		# shellcheck disable=SC2086
		timeout 60 build/bin/hostsim $args "build/tests/isa/$n.elf" >/dev/null 2>.mutate-isa.err
		local got=$?
		[ $got = "${want:-0}" ] || { echo "isa $n: exit $got, want ${want:-0}"; rc=1; }
		[ -z "$werr" ] || grep -qF -- "$werr" .mutate-isa.err || { echo "isa $n: stderr lacks '$werr'"; rc=1; }
	done
	return $rc
}
EOF

runtest() { # COMMAND LOG -> exit status of the test (124: timeout, 3: build failed)
	timeout -k 10 "$timeout" nice bash -c ". ./.mutate-helpers.sh; $1" >"$2" 2>&1
}

apply() { # FILE PATTERN REPLACEMENT
	python3 - "$@" <<'EOF'
import sys
def dec(s): return s.encode().decode("unicode_escape")
p, a, b = sys.argv[1], dec(sys.argv[2]), dec(sys.argv[3])
s = open(p).read()
open(p, "w").write(s.replace(a, b, 1))
EOF
}

echo "building the scratch tree"
make all unit-bins isa-tests >.mutate-build.log 2>&1 || { echo "mutate.sh: the unmutated tree does not build:"; tail -20 .mutate-build.log; exit 1; }

if [ $baseline = 1 ]; then
	declare -A done_cmd
	for i in "${sel[@]}"; do
		c=${tests[$i]}
		[ -n "${done_cmd[$c]:-}" ] && continue
		done_cmd[$c]=1
		if ! runtest "$c" .mutate-base.log; then
			echo "mutate.sh: baseline fails (no mutation): $c"; tail -15 .mutate-base.log
			exit 1
		fi
	done
	echo "baseline: ${#done_cmd[@]} test commands pass unmutated"
fi

killed=0 survived=0 equiv=0 stillborn=0 total=0
survivors=() unsure=()
mkdir -p .mutate-logs
for i in "${sel[@]}"; do
	id=${ids[$i]} f=${files[$i]} note=${notes[$i]}
	cp -p "$f" .mutate-orig
	apply "$f" "${pats[$i]}" "${reps[$i]}"
	start=$(date +%s)
	runtest "${tests[$i]}" ".mutate-logs/$id.log"
	rc=$?
	took=$(( $(date +%s) - start ))
	cp .mutate-orig "$f"; touch "$f"	# newer than what the mutant built
	total=$((total + 1))
	if [ $rc = 3 ]; then
		stillborn=$((stillborn + 1)); total=$((total - 1))
		printf 'NOBUILD  %-28s %s (fix the list: the mutant does not compile)\n' "$id" "$f"
		unsure+=("$id: does not build (line ${lines[$i]})")
	elif [ $rc != 0 ]; then
		killed=$((killed + 1))
		why="exit $rc"; [ $rc = 124 ] && why="timeout"
		printf 'killed   %-28s %-34s %s, %ss%s\n' "$id" "$f" "$why" "$took" "${note:+  [listed: $note]}"
	else
		survived=$((survived + 1))
		case $note in equivalent:*) equiv=$((equiv + 1)) ;; esac
		printf 'SURVIVED %-28s %-34s %ss%s\n' "$id" "$f" "$took" "${note:+  [$note]}"
		survivors+=("$id ($f: '${pats[$i]}' -> '${reps[$i]}'; test: ${tests[$i]})${note:+ -- $note}")
	fi
done
echo
if [ ${#survivors[@]} -gt 0 ]; then
	echo "survivors:"
	printf '  %s\n' "${survivors[@]}"
fi
if [ ${#unsure[@]} -gt 0 ]; then
	echo "not counted:"
	printf '  %s\n' "${unsure[@]}"
fi
pct=$(awk -v k=$killed -v n=$total 'BEGIN { printf "%.1f", n ? 100 * k / n : 0 }')
echo "killed $killed of $total ($pct %), $survived survived ($equiv marked equivalent)"
[ $((survived - equiv)) = 0 ] && [ $stillborn = 0 ]
