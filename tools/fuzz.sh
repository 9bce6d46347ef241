#!/usr/bin/env bash
# Run the libFuzzer targets (`make fuzz`; docs/fuzzing.md).
#   tools/fuzz.sh [-t SECONDS] [-l] TARGET... [-- LIBFUZZER_OPTIONS...]
# For each TARGET, runs build/fuzz/bin/fuzz_TARGET for SECONDS (default 60)
# on the seed corpus hostsim/fuzz/corpus/TARGET/ plus the inputs it found
# before, which it keeps in build/fuzz/corpus/TARGET/, with the dictionary
# hostsim/fuzz/dict/TARGET.dict when there is one.  Crashes, timeouts,
# leaks and out-of-memory inputs go to build/fuzz/crashes/TARGET/ and are
# listed at the end by path; the fuzzer goes on after each (fork mode).
# Each target's last line is "fuzz TARGET: N runs, cov: ...": N inputs run
# (libFuzzer's count, over every fork job).  -l: RVMESS_FUZZ_LOADER=1, the
# log, manifest and curves targets fuzz their readers in memory alone
# (hostsim/fuzz/fuzz.h), millions of inputs where the whole commands reach
# thousands; the log is then build/fuzz/TARGET-loader.log.
# Exit status: 0 when no target found anything, 1 otherwise.
set -u
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
secs=60 loader=0
while :; do
	case "${1:-}" in
	-t) secs=$2; shift 2 ;;
	-l) loader=1; shift ;;
	*) break ;;
	esac
done
targets=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do targets+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ ${#targets[@]} -gt 0 ] || { echo "usage: tools/fuzz.sh [-t SECONDS] [-l] TARGET... [-- OPTIONS]" >&2; exit 2; }

# Outputs of the commands under test: a RAM disk when there is one.
scratch_root=$BUILD/fuzz/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && scratch_root=/dev/shm
mkdir -p "$scratch_root" || exit 2

found=()
for t in "${targets[@]}"; do
	bin=$BUILD/fuzz/bin/fuzz_$t
	seeds=hostsim/fuzz/corpus/$t
	corpus=$BUILD/fuzz/corpus/$t
	crashes=$BUILD/fuzz/crashes/$t
	[ -x "$bin" ] || { echo "tools/fuzz.sh: $bin not built (make fuzz-bins)" >&2; exit 2; }
	mkdir -p "$corpus" "$crashes"
	dict=()
	[ -f "hostsim/fuzz/dict/$t.dict" ] && dict=(-dict="hostsim/fuzz/dict/$t.dict")
	tmp=$(mktemp -d "$scratch_root/rvmess-fuzz-$t.XXXXXX") || exit 2
	before=$(ls "$crashes" | wc -l)
	flog=$BUILD/fuzz/$t.log
	[ "$loader" = 1 ] && flog=$BUILD/fuzz/$t-loader.log
	echo "fuzz $t: ${secs}s$([ "$loader" = 1 ] && echo ", loader alone"), corpus $corpus + $seeds, crashes in $crashes/"
	# fork mode: one job at a time, and a crash or timeout does not stop the run
	TMPDIR=$tmp RVMESS_FUZZ_LOADER=$loader "$bin" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
		-max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		-close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$crashes/" "${dict[@]}" \
		"$@" "$corpus" "$seeds" >"$flog" 2>&1
	rc=$?
	rm -rf "$tmp"
	grep -E '^#[0-9]+: cov:' "$flog" | tail -1 | sed "s/^#\([0-9]*\): /fuzz $t: \1 runs, /"
	after=$(ls "$crashes" | wc -l)
	if [ "$after" -gt "$before" ]; then
		found+=("$t")
		echo "fuzz $t: $((after - before)) new input(s) in $crashes/; log $flog"
	elif [ "$rc" != 0 ]; then
		found+=("$t")
		echo "fuzz $t: libFuzzer exited $rc; log $flog"
	fi
done

status=0
for t in "${targets[@]}"; do
	for f in "$BUILD/fuzz/crashes/$t"/*; do
		[ -e "$f" ] || continue
		echo "found $t: $f   (replay: $BUILD/fuzz/replay/fuzz_$t $f)"
		status=1
	done
done
[ ${#found[@]} = 0 ] || status=1
exit $status
