#!/usr/bin/env bash
# Build an OpenPiton + Ariane Verilator model in a user's checkout, the way
# docs/platforms.md ("OpenPiton + Ariane") describes, optionally with the Mess
# memory behind its fake memory controller (docs/mess.md, "OpenPiton").
#
#   tools/piton-build.sh --piton-root DIR [--tiles XxY] [--build-id ID] [--mess]
#                        [--opt FLAGS] [--threads N] [--dry-run] [-- SIMS_OPTION...]
#
# Runs, in DIR/build, `sims -sys=manycore -x_tiles=X -y_tiles=Y -vlt_build
# -ariane -config_rtl=MINIMAL_MONITORING -vlt_build_args=--no-timing
# -build_id=ID` (default 1x1, rel-0.1) after sourcing the checkout's
# piton_settings.bash with PITON_ROOT, ARIANE_ROOT and RISCV=/usr.
# --opt FLAGS: the C++ compiler's optimisation for the model's code and
# Verilator's run-time library (make's OPT_FAST and OPT_GLOBAL, passed in
# MAKEFLAGS to the make sims runs); default -O3, where Verilator's own
# default is -Os (docs/platforms.md, "Verilator build flags": 1.27x the
# cycles per CPU-second on a 2x1 model).  --opt "" keeps Verilator's.
# --threads N: a model that evaluates on N threads (Verilator --threads N;
# default 1, Verilator's single-threaded model).
# --mess: the model gets `define RVMESS_MESS (-config_rtl), rvmess's delay
# stage (hostsim/mess/dpi/messsim_pkg.sv, rvmess_mem_delay.sv) and the Mess
# DPI adapter and library, compiled here as C into BUILD/rtl/libmesssim_dpi.a
# and linked into the model; the checkout needs tools/rtl-prep.sh's `mess`
# edit.  Such a model runs with the controller's own timing unless
# tools/run.sh --mess-curves (or --mem-fixed) says otherwise.
# --dry-run prints the sims command instead of running it.
# Exit status: sims' (0 built), 2 bad arguments or checkout.
set -u
die() { echo "piton-build.sh: $*" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
BUILD=${BUILD:-$ROOT/build}
root="" tiles=1x1 id=rel-0.1 mess=0 dry=0 opt=-O3 threads=1
while [ $# -gt 0 ]; do
	case $1 in
	--piton-root) [ $# -ge 2 ] || die "--piton-root needs a directory"; root=$2; shift 2 ;;
	--tiles) [ $# -ge 2 ] || die "--tiles needs XxY"; tiles=$2; shift 2 ;;
	--build-id) [ $# -ge 2 ] || die "--build-id needs a name"; id=$2; shift 2 ;;
	--mess) mess=1; shift ;;
	--opt) [ $# -ge 2 ] || die "--opt needs compiler flags (e.g. -O3)"; opt=$2; shift 2 ;;
	--threads) [ $# -ge 2 ] || die "--threads needs a count"; threads=$2; shift 2 ;;
	--dry-run) dry=1; shift ;;
	--) shift; break ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1'" ;;
	esac
done
[ -n "$root" ] || die "usage: piton-build.sh --piton-root DIR [--tiles XxY] [--build-id ID] [--mess] [-- SIMS_OPTION...]"
case "$tiles" in [1-9]*x[1-9]*) x=${tiles%%x*} y=${tiles#*x} ;; *) x="" y="" ;; esac
case "$x$y" in ''|*[!0-9]*) die "--tiles wants XxY (e.g. 2x1), got '$tiles'" ;; esac
case "$id" in ''|*/*|.*) die "bad build id '$id'" ;; esac
case "$threads" in ''|*[!0-9]*|0*) die "--threads wants a count of 1 or more, got '$threads'" ;; esac
case "$opt" in *[!-A-Za-z0-9=_.\ ]*) die "--opt wants compiler flags such as -O3, got '$opt'" ;; esac
[ -d "$root" ] || die "$root: no such directory"
root=$(cd "$root" && pwd)
[ -x "$root/piton/tools/bin/sims" ] && [ -f "$root/piton/piton_settings.bash" ] ||
	die "$root is not an OpenPiton checkout (no piton/tools/bin/sims)"

args=(-sys=manycore -x_tiles="$x" -y_tiles="$y" -vlt_build -ariane -config_rtl=MINIMAL_MONITORING
	-vlt_build_args=--no-timing -build_id="$id")
if [ "$mess" = 1 ]; then
	grep -q '// rvmess: mess' "$root/piton/verif/env/common/fake_mem_ctrl.v" 2>/dev/null ||
		die "$root: fake_mem_ctrl.v lacks the mess edit (tools/rtl-prep.sh --piton-root $root memctr mess)"
	lib=$BUILD/rtl/libmesssim_dpi.a
	if [ "$dry" = 0 ]; then
		mkdir -p "$BUILD/rtl" || exit 2
		objs=()
		for c in hostsim/mess/family.c hostsim/mess/ctrl.c hostsim/mess/dpi/messsim_dpi.c; do
			o=$BUILD/rtl/$(basename "$c" .c).o
			${CC:-cc} -std=c11 -D_DEFAULT_SOURCE -O2 -fPIC -Wall -Wextra -Werror -I"$ROOT/hostsim" \
				-c "$ROOT/$c" -o "$o" || die "compiling $c failed"
			objs+=("$o")
		done
		rm -f "$lib" && ar rcs "$lib" "${objs[@]}" || die "cannot write $lib"
	fi
	args+=(-config_rtl=RVMESS_MESS
		-vlt_build_args="$ROOT/hostsim/mess/dpi/messsim_pkg.sv"
		-vlt_build_args="$ROOT/hostsim/mess/dpi/rvmess_mem_delay.sv"
		-vlt_build_args="$lib" -vlt_build_args=-LDFLAGS -vlt_build_args=-lm)
fi
[ "$threads" = 1 ] || args+=(-vlt_build_args="--threads $threads")
args+=("$@")
# make's command-line variables reach the make sims runs through MAKEFLAGS
mkflags="" eopt=${opt// /\\ } # a flag list's spaces, escaped for make
[ -z "$opt" ] || mkflags="OPT_FAST=$eopt OPT_GLOBAL=$eopt"
if [ "$dry" = 1 ]; then
	[ -z "$mkflags" ] || printf 'MAKEFLAGS=%q ' "$mkflags"
	printf 'sims'; printf ' %q' "${args[@]}"; echo
	exit 0
fi
export PITON_ROOT=$root ARIANE_ROOT=$root/piton/design/chip/tile/ariane RISCV=${RISCV:-/usr}
set +u # the checkout's settings read unset variables
# shellcheck disable=SC1091
. "$root/piton/piton_settings.bash" >/dev/null || die "$root/piton/piton_settings.bash failed"
set -u
mkdir -p "$root/build" && cd "$root/build" || exit 2
echo "piton-build.sh: MAKEFLAGS='$mkflags' sims ${args[*]}"
MAKEFLAGS=$mkflags sims "${args[@]}"
