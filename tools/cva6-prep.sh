#!/usr/bin/env bash
# Put the Mess memory into a user's CVA6 checkout (docs/mess.md, "CVA6"):
# one scripted edit of corev_apu/tb/ariane_testharness.sv, anchored on the
# text it changes, refused (with the file and what was looked for, nothing
# written) when an anchor is missing, left alone when already made.
#
#   tools/cva6-prep.sh --cva6 DIR [--check]
#
# The edit (only in a model built with `define RVMESS_MESS): between the
# harness's AXI delayer and its memory (axi2mem + SRAM), rvmess's delay
# stage (hostsim/mess/dpi/rvmess_mem_delay.sv) on the R channel (a burst is
# a message, held for got_a_read_req's latency) and one on the B channel
# (got_a_write_req's); AW, W and AR pass unchanged; and the harness's
# main (corev_apu/tb/ariane_tb.cpp), which refuses plusargs it does not
# know, accepts the stage's (+rvmess_...).  The harness's own
# memory serves one request at a time; the stages take its answers at once,
# so requests overlap behind them.
#
# Then it compiles the Mess DPI adapter and library as C into
# BUILD/rtl/libmesssim_dpi.a and prints the `make verilate` line that builds
# the model with them (docs/platforms.md, "CVA6 testharness").  Such a model
# keeps the harness's own timing unless tools/run.sh --mess-curves (or
# --mem-fixed) says otherwise.
# --check: only say whether the edit is made, can be made, or cannot.
# Exit status: 0 done, 1 refused, 2 bad arguments or no checkout.
set -u
die() { echo "cva6-prep.sh: $*" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
BUILD=${BUILD:-$ROOT/build}
dir="" check=0
while [ $# -gt 0 ]; do
	case $1 in
	--cva6) [ $# -ge 2 ] || die "--cva6 needs a directory"; dir=$2; shift 2 ;;
	--check) check=1; shift ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1'" ;;
	esac
done
[ -n "$dir" ] || die "usage: cva6-prep.sh --cva6 DIR [--check]"
[ -d "$dir" ] || die "$dir: no such directory"
dir=$(cd "$dir" && pwd)
H=corev_apu/tb/ariane_testharness.sv
[ -f "$dir/$H" ] || die "$dir is not a CVA6 checkout (no $H)"
command -v python3 >/dev/null || die "python3 is needed"

python3 - "$dir" "$H" "$check" <<'PY' || exit $?
import os, sys
root, name, check = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
path = os.path.join(root, name)
TB = "corev_apu/tb/ariane_tb.cpp"
tbpath = os.path.join(root, TB)
PLUS = 'static const char *verilog_plusargs[] = {"jtag_rbb_enable", "time_out", "debug_disable"};'
PLUS_NEW = ('static const char *verilog_plusargs[] = {"jtag_rbb_enable", "time_out", "debug_disable",'
            ' "rvmess_" /* rvmess: mess (tools/cva6-prep.sh) */, nullptr};')
t = open(path).read()
tb = open(tbpath).read() if os.path.isfile(tbpath) else ""
if "// rvmess: mess" in t and "rvmess: mess" in tb:
    print(f"cva6-prep.sh: mess: {'made' if check else 'already made'}")
    sys.exit(0)
def refuse(f, what):
    print(f"cva6-prep.sh: mess: refused: {f}: {what}", file=sys.stderr)
    sys.exit(1)
if not tb:
    refuse(TB, "no such file")
if "rvmess: mess" not in tb and tb.count(PLUS) != 1:
    refuse(TB, f"anchor {PLUS[:70]!r} found {tb.count(PLUS)} times, want 1")

DELAYER = """  ) i_axi_delayer (
    .clk_i  ( clk_i        ),
    .rst_ni ( ndmreset_n   ),
    .slv    ( dram         ),
    .mst    ( dram_delayed )
  );
"""
SLAVE = "    .slave  ( dram_delayed ),\n"
STAGE = """
`ifdef RVMESS_MESS
  // rvmess: mess (tools/cva6-prep.sh): the Mess memory.  The R and B
  // channels of the memory below pass rvmess's delay stage
  // (hostsim/mess/dpi/rvmess_mem_delay.sv): each read burst is held for the
  // latency got_a_read_req gives it, each write response for
  // got_a_write_req's; AW, W and AR pass unchanged.
  AXI_BUS #(
    .AXI_ADDR_WIDTH ( AXI_ADDRESS_WIDTH            ),
    .AXI_DATA_WIDTH ( AXI_DATA_WIDTH               ),
    .AXI_ID_WIDTH   ( ariane_axi_soc::IdWidthSlave ),
    .AXI_USER_WIDTH ( AXI_USER_WIDTH               )
  ) dram_mess();
  `AXI_ASSIGN_AW(dram_mess, dram_delayed)
  `AXI_ASSIGN_W(dram_mess, dram_delayed)
  `AXI_ASSIGN_AR(dram_mess, dram_delayed)
  localparam int RvmessRW = ariane_axi_soc::IdWidthSlave + AXI_DATA_WIDTH + 2 + 1 + AXI_USER_WIDTH;
  localparam int RvmessBW = ariane_axi_soc::IdWidthSlave + 2 + AXI_USER_WIDTH;
  rvmess_mem_delay #(.W(RvmessRW), .USE_LAST(1), .OPEN(1)) i_rvmess_r (
    .clk       ( clk_i      ),
    .rst_n     ( ndmreset_n ),
    .in_valid  ( dram_mess.r_valid ),
    .in_data   ( {dram_mess.r_id, dram_mess.r_data, dram_mess.r_resp, dram_mess.r_last, dram_mess.r_user} ),
    .in_ready  ( dram_mess.r_ready ),
    .in_len    ( 8'd0 ),
    .in_last   ( dram_mess.r_last ),
    .in_kind   ( 2'd1 ),
    .out_valid ( dram_delayed.r_valid ),
    .out_data  ( {dram_delayed.r_id, dram_delayed.r_data, dram_delayed.r_resp, dram_delayed.r_last, dram_delayed.r_user} ),
    .out_ready ( dram_delayed.r_ready )
  );
  rvmess_mem_delay #(.W(RvmessBW), .USE_LAST(1), .OPEN(0)) i_rvmess_b (
    .clk       ( clk_i      ),
    .rst_n     ( ndmreset_n ),
    .in_valid  ( dram_mess.b_valid ),
    .in_data   ( {dram_mess.b_id, dram_mess.b_resp, dram_mess.b_user} ),
    .in_ready  ( dram_mess.b_ready ),
    .in_len    ( 8'd0 ),
    .in_last   ( 1'b1 ),
    .in_kind   ( 2'd2 ),
    .out_valid ( dram_delayed.b_valid ),
    .out_data  ( {dram_delayed.b_id, dram_delayed.b_resp, dram_delayed.b_user} ),
    .out_ready ( dram_delayed.b_ready )
  );
`endif
"""
if "// rvmess: mess" not in t:
    for anchor in (DELAYER, SLAVE, '`include "axi/assign.svh"'):
        n = t.count(anchor)
        if n != 1:
            refuse(name, f"anchor {anchor.strip().splitlines()[0][:70]!r} found {n} times, want 1")
if check:
    print("cva6-prep.sh: mess: can be made")
    sys.exit(0)
def wr(p, text):
    with open(p + ".rvmess-tmp", "w") as f:
        f.write(text)
    os.chmod(p + ".rvmess-tmp", os.stat(p).st_mode)
    os.replace(p + ".rvmess-tmp", p)
if "// rvmess: mess" not in t:
    t = t.replace(DELAYER, DELAYER + STAGE)
    t = t.replace(SLAVE, "`ifdef RVMESS_MESS\n    .slave  ( dram_mess    ), // rvmess: mess\n`else\n" + SLAVE + "`endif\n")
    wr(path, t)
if "rvmess: mess" not in tb:
    wr(tbpath, tb.replace(PLUS, PLUS_NEW))
print("cva6-prep.sh: mess: done")
PY
[ "$check" = 1 ] && exit 0

lib=$BUILD/rtl/libmesssim_dpi.a
mkdir -p "$BUILD/rtl" || exit 2
objs=()
for c in hostsim/mess/family.c hostsim/mess/ctrl.c hostsim/mess/dpi/messsim_dpi.c; do
	o=$BUILD/rtl/$(basename "$c" .c).o
	${CC:-cc} -std=c11 -D_DEFAULT_SOURCE -O2 -fPIC -Wall -Wextra -Werror -I"$ROOT/hostsim" -c "$ROOT/$c" -o "$o" ||
		die "compiling $c failed"
	objs+=("$o")
done
rm -f "$lib" && ar rcs "$lib" "${objs[@]}" || die "cannot write $lib"
D=$ROOT/hostsim/mess/dpi
echo "cva6-prep.sh: $lib written; build the model with the Mess stage (RISCV and SPIKE_INSTALL_DIR as in docs/platforms.md):"
echo "  cd $dir && make verilate target=cv64a6_imafdc_sv39 VERILATOR_INSTALL_DIR=/usr NUM_JOBS=2 OPT_FAST=-O3 OPT_GLOBAL=-O3 \\"
echo "    verilator=\"verilator $ROOT/hostsim/rtl/cva6_elf.cc +define+RVMESS_MESS $D/messsim_pkg.sv $D/rvmess_mem_delay.sv $lib\""
