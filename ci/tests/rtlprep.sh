#!/usr/bin/env bash
# tools/rtl-prep.sh without an OpenPiton checkout (CI has none): a stand-in
# tree written here holds, in files at the checkout's paths, the lines the
# edits anchor on (and nothing else of OpenPiton's).
#   rtlprep-args          no --piton-root, not a checkout, an unknown edit,
#                         a bad --jobs: exit 2 and the reason
#   rtlprep-check         --check on the stand-in: every default edit "can
#                         be made", nothing written
#   rtlprep-edits         the default edits made, each file changed where
#                         its anchor was; ariane-inval not made by default
#   rtlprep-again         a second run: "already made", no file changed
#   rtlprep-refuse        an anchor missing (fake_uart.v without its
#                         rdata line): memctr refused with the file and
#                         the text, exit 1, neither of its files written;
#                         the other edits still made
#   rtlprep-by-hand       a checkout edited by hand as docs/platforms.md
#                         describes: bootrom and jobs count as made
#   rtlprep-ariane-inval  the opt-in edit: both valid lines read the FIFO's
#                         bits; a tree with the upstream fix counts as made
#   rtlprep-memctr-sim    the counter logic memctr inserts, built by
#                         Verilator in stand-in modules with a testbench:
#                         reads and write-backs counted once per message,
#                         nothing else counted, the window's bytes (READS,
#                         WRITES from a snapshot taken at byte 0, LINE,
#                         MAGIC), other reads 0xef, each request answered
#                         the next cycle
#   rtlprep-mess          the opt-in Mess edit: refused without memctr (file
#                         unchanged), made after it whatever the order on
#                         the command line, made once; refused with an
#                         anchor missing (file unchanged); not by default
#   cva6prep              tools/cva6-prep.sh on a stand-in CVA6 harness: no
#                         checkout (exit 2); --check says "can be made" and
#                         writes nothing; the edit puts both stages after the
#                         delayer and axi2mem's slave port on dram_mess,
#                         under RVMESS_MESS, and the harness's main accepts
#                         +rvmess_ plusargs; again: already made; an anchor
#                         missing (in either file): refused, exit 1,
#                         nothing written
#   pitonbuild            tools/piton-build.sh on a stand-in checkout whose
#                         sims runs a make as sims does: by default the
#                         make sees OPT_FAST and OPT_GLOBAL -O3 (Verilator's
#                         default -Os otherwise), --opt FLAGS reaches it
#                         whole, --opt "" leaves Verilator's; --threads 2
#                         reaches Verilator's arguments; a bad --threads or
#                         --opt is refused before sims runs
#   rtlprep-mess-sim      the mess-edited stand-in with the delay stage
#                         (hostsim/mess/dpi/rvmess_mem_delay.sv) and the DPI
#                         adapter: built without RVMESS_MESS it behaves as
#                         before; built with it and run with
#                         +rvmess_mem_fixed=7, reads and write-backs are
#                         answered 7 cycles later, other messages 1, and the
#                         memctr counts still reach fake_uart
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 1
. ci/lib.sh
scratch rtlprep
T=$TMP
PREP=tools/rtl-prep.sh

# ---- the stand-in checkout ----------------------------------------------------
mktree() { # DIR
	local d=$1 a=$1/piton/design/chip/tile/ariane
	mkdir -p "$d/piton/tools/bin" "$d/piton/tools/src/sims" "$d/piton/verif/env/common" \
		"$d/piton/verif/env/manycore" "$d/piton/design/chipset/rv64_platform/bootrom/linux" \
		"$a/corev_apu/rv_plic/rtl" "$a/core/cache_subsystem"
	printf '#!/bin/sh\n' >"$d/piton/tools/bin/sims"
	chmod +x "$d/piton/tools/bin/sims"
	cat >"$d/piton/design/chipset/rv64_platform/bootrom/linux/Makefile" <<'EOF'
CFLAGS = -DX -Os -march=rv64imac -mabi=lp64 -Wall
EOF
	cat >"$d/piton/tools/src/sims/sims,2.0" <<'EOF'
    if ($opt{vlt_build}) {
      $build_cmd = "make -j -C $model_path/obj_dir -f Vcmp_top.mk Vcmp_top" ;
    }
EOF
	cat >"$a/corev_apu/rv_plic/rtl/plic_top.sv" <<'EOF'
module plic_top #(
  parameter int N_SOURCE    = 30,
  parameter int SRCW        = $clog2(N_SOURCE+1)
) (
  input  reg_intf::reg_intf_req_a32_d32 req_i,
  output reg_intf::reg_intf_resp_d32    resp_o,
  input  logic clk_i
);
  plic_regs i_plic_regs (
    .req_i,
    .resp_o
  );
endmodule
EOF
	cat >"$a/corev_apu/rv_plic/rtl/gen_plic_addrmap.py" <<'EOF'
    output += "module {} (\n".format(self.name)
    output += "  input  reg_intf::reg_intf_req_a32_d32 req_i,\n"
    output += "  output reg_intf::reg_intf_resp_d32    resp_o\n"
EOF
	# fake_mem_ctrl: the module's ports, the signals memctr reads and the
	# lines mess anchors on; it answers each one-flit request on the next
	# cycle with a one-flit message of type + 5 (LOAD_MEM 19 -> LOAD_MEM_ACK
	# 24, STORE_MEM 20 -> STORE_MEM_ACK 25), one request at a time
	cat >"$d/piton/verif/env/common/fake_mem_ctrl.v" <<'EOF'
`define NOC_DATA_WIDTH 64
`define MSG_TYPE_WIDTH 8
`define MSG_TYPE 21:14
`define MSG_LENGTH 29:22
`define MSG_TYPE_LOAD_MEM 8'd19
`define MSG_TYPE_STORE_MEM 8'd20
`define MSG_TYPE_LOAD_MEM_ACK 8'd24
`define MSG_TYPE_STORE_MEM_ACK 8'd25

module fake_mem_ctrl(

    input wire clk,
    input wire rst_n,

    input wire noc_valid_in,
    input wire [`NOC_DATA_WIDTH-1:0] noc_data_in,
    output reg noc_ready_in,


    output reg noc_valid_out,
    output reg [`NOC_DATA_WIDTH-1:0] noc_data_out,
    input wire noc_ready_out

);
reg mem_valid_in;
reg mem_ready_in;
wire [`MSG_TYPE_WIDTH-1:0] msg_type;
assign msg_type = noc_data_in[`MSG_TYPE];
always @* begin
    mem_valid_in = noc_valid_in;
    mem_ready_in = !noc_valid_out;
    noc_ready_in = mem_ready_in;
    case (msg_type)
    `MSG_TYPE_LOAD_MEM: ;
    `MSG_TYPE_STORE_MEM: ;
    default: ;
    endcase
end
always @(posedge clk) begin
    if (!rst_n)
        noc_valid_out <= 1'b0;
    else if (noc_valid_out && noc_ready_out)
        noc_valid_out <= 1'b0;
    else if (mem_valid_in && mem_ready_in) begin
        noc_valid_out <= 1'b1;
        noc_data_out <= {34'd0, 8'd0, msg_type == `MSG_TYPE_LOAD_MEM ? `MSG_TYPE_LOAD_MEM_ACK :
                         msg_type == `MSG_TYPE_STORE_MEM ? `MSG_TYPE_STORE_MEM_ACK : msg_type + 8'd5, 14'd0};
    end
end
endmodule
EOF
	# fake_uart: the bridge instance with the lines memctr rewires
	cat >"$d/piton/verif/env/manycore/fake_uart.v" <<'EOF'
`define NOC_DATA_WIDTH 64
module fake_uart (
    input clk,
    input rst_n,
    input [63:0] tb_araddr,
    input tb_arvalid,
    output [63:0] tb_rdata
);
noc_axilite_bridge #(
 .SLAVE_RESP_BYTEWIDTH (1)
) noc_axilite_bridge (
    .clk                    (clk),
    .tb_araddr              (tb_araddr),
    .tb_arvalid             (tb_arvalid),
    .tb_rdata               (tb_rdata),
    .m_axi_araddr           (),
    .m_axi_arvalid          (),
    .m_axi_rdata            (`NOC_DATA_WIDTH'hef),
    .m_axi_rvalid           (1'b1)
);
endmodule
EOF
	cat >"$a/core/cache_subsystem/wt_l15_adapter.sv" <<'EOF'
  always_comb begin : p_rtrn_logic
    if(!rtrn_fifo_empty) begin
      unique case (rtrn_fifo_data.l15_returntype)
        L15_EVICT_REQ: begin
          icache_rtrn_vld_o   = icache_rtrn_o.inv.vld | icache_rtrn_o.inv.all;
          dcache_rtrn_vld_o   = dcache_rtrn_o.inv.vld | dcache_rtrn_o.inv.all;
        end
      endcase
    end
  end
EOF
}
sums() { (cd "$1" && find . -type f | sort | xargs md5sum); }

# ---- arguments --------------------------------------------------------------------
mktree "$T/p"
bad=""
for c in ":usage" "--piton-root $T/none:no such directory" "--piton-root $T:not an OpenPiton checkout" \
	"--piton-root $T/p frob:unknown argument 'frob'" "--piton-root $T/p --jobs x:--jobs needs a positive number"; do
	out=$($PREP ${c%%:*} 2>&1)
	rc=$?
	[ $rc = 2 ] && grep -q -- "${c#*:}" <<<"$out" || bad="$bad [${c%%:*}: exit $rc: $out]"
done
[ -z "$bad" ] && pass rtlprep-args || fail rtlprep-args "$bad"

# ---- --check, the edits, again --------------------------------------------------------
before=$(sums "$T/p")
out=$($PREP --piton-root "$T/p" --check 2>&1)
rc=$?
if [ $rc = 0 ] && [ "$(grep -c 'can be made' <<<"$out")" = 4 ] && [ "$(sums "$T/p")" = "$before" ]; then
	pass rtlprep-check
else
	fail rtlprep-check "exit $rc: $out"
fi
out=$($PREP --piton-root "$T/p" --jobs 3 2>&1)
rc=$?
A=$T/p/piton/design/chip/tile/ariane
why=""
[ $rc = 0 ] && [ "$(grep -c ': done' <<<"$out")" = 4 ] || why="exit $rc: $out;"
grep -q -- '-march=rv64imac_zicsr_zifencei --specs=picolibc.specs ' "$T/p/piton/design/chipset/rv64_platform/bootrom/linux/Makefile" || why="$why bootrom;"
grep -q 'make -j3 -C \$model_path/obj_dir' "$T/p/piton/tools/src/sims/sims,2.0" || why="$why jobs;"
grep -q 'parameter type reg_req_t' "$A/corev_apu/rv_plic/rtl/plic_top.sv" && grep -q 'input  reg_req_t req_i' "$A/corev_apu/rv_plic/rtl/plic_top.sv" &&
	grep -q 'plic_regs #(.reg_req_t(reg_req_t)' "$A/corev_apu/rv_plic/rtl/plic_top.sv" &&
	grep -q 'parameter type reg_req_t = logic' "$A/corev_apu/rv_plic/rtl/gen_plic_addrmap.py" || why="$why plic;"
grep -q 'rvmess_writes <= rvmess_writes' "$T/p/piton/verif/env/common/fake_mem_ctrl.v" &&
	grep -q '.m_axi_rdata            (rvmess_rdata)' "$T/p/piton/verif/env/manycore/fake_uart.v" || why="$why memctr;"
grep -q 'rvmess' "$A/core/cache_subsystem/wt_l15_adapter.sv" && why="$why ariane-inval made by default;"
[ -z "$why" ] && pass rtlprep-edits || fail rtlprep-edits "$why"
after=$(sums "$T/p")
out=$($PREP --piton-root "$T/p" 2>&1)
rc=$?
if [ $rc = 0 ] && [ "$(grep -c 'already made' <<<"$out")" = 4 ] && [ "$(sums "$T/p")" = "$after" ]; then
	pass rtlprep-again
else
	fail rtlprep-again "exit $rc: $out"
fi

# ---- an anchor missing: that edit refused and nothing of it written ---------------------
mktree "$T/r"
sed -i '/m_axi_rdata/d' "$T/r/piton/verif/env/manycore/fake_uart.v"
mem0=$(md5sum <"$T/r/piton/verif/env/common/fake_mem_ctrl.v") uart0=$(md5sum <"$T/r/piton/verif/env/manycore/fake_uart.v")
out=$($PREP --piton-root "$T/r" 2>&1)
rc=$?
if [ $rc = 1 ] && grep -q "memctr: refused: piton/verif/env/manycore/fake_uart.v: anchor .*m_axi_rdata" <<<"$out" &&
	[ "$(md5sum <"$T/r/piton/verif/env/common/fake_mem_ctrl.v")" = "$mem0" ] &&
	[ "$(md5sum <"$T/r/piton/verif/env/manycore/fake_uart.v")" = "$uart0" ] &&
	[ "$(grep -c ': done' <<<"$out")" = 3 ]; then
	pass rtlprep-refuse
else
	fail rtlprep-refuse "exit $rc: $out"
fi
out=$($PREP --piton-root "$T/r" --check memctr 2>&1)
[ $? = 1 ] || fail rtlprep-refuse-check "--check with an anchor missing must exit 1: $out"

# ---- edited by hand -------------------------------------------------------------------------
mktree "$T/h"
sed -i 's/-march=rv64imac /-march=rv64imac_zicsr_zifencei --specs=picolibc.specs /' "$T/h/piton/design/chipset/rv64_platform/bootrom/linux/Makefile"
sed -i 's/make -j -C/make -j2 -C/' "$T/h/piton/tools/src/sims/sims,2.0"
out=$($PREP --piton-root "$T/h" bootrom jobs 2>&1)
[ $? = 0 ] && [ "$(grep -c 'already made' <<<"$out")" = 2 ] && pass rtlprep-by-hand || fail rtlprep-by-hand "$out"

# ---- the opt-in workaround ----------------------------------------------------------------------
out=$($PREP --piton-root "$T/p" ariane-inval 2>&1)
rc=$?
f=$A/core/cache_subsystem/wt_l15_adapter.sv
if [ $rc = 0 ] && grep -q 'dcache_rtrn_vld_o   = rtrn_fifo_data.l15_inval_dcache_inval | rtrn_fifo_data.l15_inval_dcache_all_way;' "$f" &&
	grep -q 'icache_rtrn_vld_o   = rtrn_fifo_data.l15_inval_icache_inval | rtrn_fifo_data.l15_inval_icache_all_way;' "$f" &&
	! grep -q 'dcache_rtrn_o.inv.vld |' "$f"; then
	mktree "$T/u"
	# a tree with the upstream fix: the bits assigned inside the block
	sed -i 's/^    if(!rtrn_fifo_empty) begin/    dcache_rtrn_o.inv.vld = rtrn_fifo_data.l15_inval_dcache_inval;\n&/' \
		"$T/u/piton/design/chip/tile/ariane/core/cache_subsystem/wt_l15_adapter.sv"
	out=$($PREP --piton-root "$T/u" --check ariane-inval 2>&1)
	grep -q 'ariane-inval: made' <<<"$out" && pass rtlprep-ariane-inval || fail rtlprep-ariane-inval "upstream fix not recognised: $out"
else
	fail rtlprep-ariane-inval "exit $rc: $out"
fi

# ---- the Mess edit ------------------------------------------------------------------------------
F=piton/verif/env/common/fake_mem_ctrl.v
mktree "$T/m"
m0=$(md5sum <"$T/m/$F")
why=""
out=$($PREP --piton-root "$T/m" mess 2>&1)
rc=$?
[ $rc = 1 ] && grep -q "mess: refused: $F: the memctr edit is not made" <<<"$out" && [ "$(md5sum <"$T/m/$F")" = "$m0" ] ||
	why="$why [mess alone: exit $rc: $out]"
out=$($PREP --piton-root "$T/m" --check memctr mess 2>&1)
[ $? = 0 ] && [ "$(grep -c 'can be made' <<<"$out")" = 2 ] || why="$why [--check memctr mess: $out]"
out=$($PREP --piton-root "$T/m" mess memctr 2>&1)
rc=$?
[ $rc = 0 ] && grep -q 'memctr: done' <<<"$out" && grep -q 'mess: done' <<<"$out" &&
	grep -q '^module rvmess_fake_mem_ctrl_core(' "$T/m/$F" && grep -q '^rvmess_mem_delay #' "$T/m/$F" &&
	[ "$(grep -c '^module fake_mem_ctrl(' "$T/m/$F")" = 2 ] || why="$why [mess memctr: exit $rc: $out]"
m1=$(md5sum <"$T/m/$F")
out=$($PREP --piton-root "$T/m" memctr mess 2>&1)
[ $? = 0 ] && [ "$(grep -c 'already made' <<<"$out")" = 2 ] && [ "$(md5sum <"$T/m/$F")" = "$m1" ] ||
	why="$why [again: $out]"
mktree "$T/n"
$PREP --piton-root "$T/n" memctr >/dev/null 2>&1
sed -i "s/\`MSG_TYPE_STORE_MEM_ACK/8'd25/g" "$T/n/$F"
n0=$(md5sum <"$T/n/$F")
out=$($PREP --piton-root "$T/n" mess 2>&1)
rc=$?
[ $rc = 1 ] && grep -q "mess: refused: $F: anchor .*MSG_TYPE_STORE_MEM_ACK" <<<"$out" && [ "$(md5sum <"$T/n/$F")" = "$n0" ] ||
	why="$why [anchor missing: exit $rc: $out]"
grep -q 'rvmess: mess' "$T/p/$F" && why="$why [made by default]"
[ -z "$why" ] && pass rtlprep-mess || fail rtlprep-mess "$why"

# ---- tools/cva6-prep.sh ---------------------------------------------------------------------------
C6=corev_apu/tb/ariane_testharness.sv
mkcva6() { # DIR: the harness lines the edit anchors on
	mkdir -p "$1/corev_apu/tb"
	cat >"$1/$C6" <<'EOF'
`include "axi/assign.svh"
module ariane_testharness;
  axi_delayer_intf #(
    .FIXED_DELAY_OUTPUT  ( 0                            )
  ) i_axi_delayer (
    .clk_i  ( clk_i        ),
    .rst_ni ( ndmreset_n   ),
    .slv    ( dram         ),
    .mst    ( dram_delayed )
  );

  axi2mem #(
    .AXI_USER_WIDTH ( AXI_USER_WIDTH               )
  ) i_axi2mem (
    .clk_i  ( clk_i        ),
    .rst_ni ( ndmreset_n   ),
    .slave  ( dram_delayed ),
    .req_o  ( req          )
  );
endmodule
EOF
	cat >"$1/corev_apu/tb/ariane_tb.cpp" <<'EOF'
static const char *verilog_plusargs[] = {"jtag_rbb_enable", "time_out", "debug_disable"};
EOF
}
why=""
out=$(BUILD=$T/cb tools/cva6-prep.sh --cva6 "$T/nocva6" 2>&1)
[ $? = 2 ] && grep -q 'no such directory' <<<"$out" || why="$why [no checkout: $out]"
mkcva6 "$T/c6"
c0=$(md5sum <"$T/c6/$C6")
out=$(BUILD=$T/cb tools/cva6-prep.sh --cva6 "$T/c6" --check 2>&1)
[ $? = 0 ] && grep -q 'mess: can be made' <<<"$out" && [ "$(md5sum <"$T/c6/$C6")" = "$c0" ] || why="$why [--check: $out]"
out=$(BUILD=$T/cb tools/cva6-prep.sh --cva6 "$T/c6" 2>&1)
rc=$?
f=$T/c6/$C6
[ $rc = 0 ] && grep -q 'mess: done' <<<"$out" && [ -s "$T/cb/rtl/libmesssim_dpi.a" ] && grep -q 'define+RVMESS_MESS' <<<"$out" &&
	awk '/i_axi_delayer/ { d = NR } /i_rvmess_r \(/ { r = NR } /i_rvmess_b \(/ { b = NR } /dram_mess    \), \/\/ rvmess: mess/ { m = NR }
		/i_axi2mem/ { a = NR } END { exit !(d && r > d && b > r && a > b && m > a) }' "$f" &&
	grep -q '`AXI_ASSIGN_AR(dram_mess, dram_delayed)' "$f" && grep -q '.in_kind   ( 2.d2 ),' "$f" &&
	grep -q '"debug_disable", "rvmess_" .*, nullptr};' "$T/c6/corev_apu/tb/ariane_tb.cpp" || why="$why [edit: exit $rc: $out]"
c1=$(md5sum <"$f")
out=$(BUILD=$T/cb tools/cva6-prep.sh --cva6 "$T/c6" 2>&1)
[ $? = 0 ] && grep -q 'mess: already made' <<<"$out" && [ "$(md5sum <"$f")" = "$c1" ] || why="$why [again: $out]"
mkcva6 "$T/c7"
sed -i 's/    .slave  ( dram_delayed ),/    .slave  ( dram_other ),/' "$T/c7/$C6"
c0=$(md5sum <"$T/c7/$C6")
out=$(BUILD=$T/cb tools/cva6-prep.sh --cva6 "$T/c7" 2>&1)
[ $? = 1 ] && grep -q "mess: refused: $C6: anchor '.slave  ( dram_delayed ),' found 0 times" <<<"$out" &&
	[ "$(md5sum <"$T/c7/$C6")" = "$c0" ] || why="$why [anchor missing: $out]"
mkcva6 "$T/c8"
sed -i 's/"debug_disable"}/"debug_disable", "x"}/' "$T/c8/corev_apu/tb/ariane_tb.cpp"
c0=$(md5sum <"$T/c8/$C6")
out=$(BUILD=$T/cb tools/cva6-prep.sh --cva6 "$T/c8" 2>&1)
[ $? = 1 ] && grep -q "mess: refused: corev_apu/tb/ariane_tb.cpp: anchor" <<<"$out" && [ "$(md5sum <"$T/c8/$C6")" = "$c0" ] ||
	why="$why [plusargs anchor missing: $out]"
[ -z "$why" ] && pass cva6prep || fail cva6prep "$why"

# ---- the inserted counter logic, simulated -------------------------------------------------------
if ! command -v verilator >/dev/null; then
	skip rtlprep-memctr-sim "verilator not installed (tools/deps.sh installs it)"
	finish
	exit
fi
V=$T/vl
mkdir -p "$V"
# the bridge stand-in passes the testbench's read address through and shows
# the byte the UART answers (SLAVE_RESP_BYTEWIDTH 1)
cat >"$V/bridge.v" <<'EOF'
module noc_axilite_bridge #(parameter SLAVE_RESP_BYTEWIDTH = 4) (
    input clk,
    input [63:0] tb_araddr,
    input tb_arvalid,
    output [63:0] tb_rdata,
    output [63:0] m_axi_araddr,
    output m_axi_arvalid,
    input [63:0] m_axi_rdata,
    input m_axi_rvalid
);
assign m_axi_araddr = tb_araddr;
assign m_axi_arvalid = tb_arvalid;
assign tb_rdata = {56'd0, m_axi_rdata[7:0]};
endmodule
EOF
cat >"$V/tb.sv" <<'EOF'
module chipset(input clk, input rst_n, input tb_valid, input [7:0] tb_type, output tb_ready,
               output tb_rvalid, output [63:0] tb_rdata_mem,
               input [63:0] tb_araddr, input tb_arvalid, output [63:0] tb_rdata);
fake_mem_ctrl fake_mem_ctrl(.clk(clk), .rst_n(rst_n), .noc_valid_in(tb_valid), .noc_data_in({42'd0, tb_type, 14'd0}),
    .noc_ready_in(tb_ready), .noc_valid_out(tb_rvalid), .noc_data_out(tb_rdata_mem), .noc_ready_out(1'b1));
fake_uart fake_uart(.clk(clk), .rst_n(rst_n), .tb_araddr(tb_araddr), .tb_arvalid(tb_arvalid), .tb_rdata(tb_rdata));
endmodule

module tb;
  reg clk = 0, rst_n = 0, valid = 0, arvalid = 0;
  reg [7:0] typ = 0;
  reg [63:0] araddr = 0;
  wire [63:0] rdata, mdata;
  wire ready, rvalid;
  integer errors = 0, cyc = 0, sent = 0, lat = 0;
  chipset c(.clk(clk), .rst_n(rst_n), .tb_valid(valid), .tb_type(typ), .tb_ready(ready),
            .tb_rvalid(rvalid), .tb_rdata_mem(mdata),
            .tb_araddr(araddr), .tb_arvalid(arvalid), .tb_rdata(rdata));
  task tick; begin #1 clk = 1; cyc = cyc + 1; #1 clk = 0; end endtask
  // a request, then its answer (type + 5): lat = the cycles between them
  task msg(input [7:0] t, input integer n); integer i; begin
    for (i = 0; i < n; i = i + 1) begin
      typ = t; valid = 1;
      while (!ready) tick;
      sent = cyc; tick; valid = 0;
      while (!rvalid) tick;
      lat = cyc - sent;
      if (mdata[21:14] != t + 8'd5) begin $display("FAIL answer type %0d to %0d", mdata[21:14], t); errors = errors + 1; end
      tick;
    end
  end endtask
  // the answer's cycles: 1 from the controller, plus the stage's in a
  // model built with the mess edit and +rvmess_mem_fixed=7: 7 for a read
  // or write, 1 for anything else
  task want_lat(input [7:0] t, input integer plain, input integer held); begin
    msg(t, 1);
`ifdef RVMESS_MESS
    if (lat != held) begin $display("FAIL type %0d answered after %0d cycles, want %0d", t, lat, held); errors = errors + 1; end
`else
    if (lat != plain) begin $display("FAIL type %0d answered after %0d cycles, want %0d", t, lat, plain); errors = errors + 1; end
`endif
  end endtask
  // a register of the window, a byte a read, byte 0 first
  task rd(input [7:0] off, output [63:0] v); integer i; begin
    v = 0;
    for (i = 0; i < 8; i = i + 1) begin
      araddr = 64'hfff0c2c800 + off + i; arvalid = 1; tick; arvalid = 0;
      v = v | ({56'd0, rdata[7:0]} << (8 * i)); tick;
    end
  end endtask
  reg [63:0] v;
  initial begin
    tick; tick; rst_n = 1; tick;
    msg(8'd19, 5);   // LOAD_MEM
    msg(8'd20, 3);   // STORE_MEM
    msg(8'd7, 4);    // anything else: not counted
    rd(8'h00, v); if (v != 5) begin $display("FAIL reads %0d want 5", v); errors = errors + 1; end
    msg(8'd20, 2);   // after the snapshot: WRITES still reads 3
    rd(8'h08, v); if (v != 3) begin $display("FAIL writes %0d want 3 (snapshot)", v); errors = errors + 1; end
    rd(8'h00, v); if (v != 5) begin $display("FAIL reads %0d want 5", v); errors = errors + 1; end
    rd(8'h08, v); if (v != 5) begin $display("FAIL writes %0d want 5", v); errors = errors + 1; end
    rd(8'h30, v); if (v != 64) begin $display("FAIL line %0d", v); errors = errors + 1; end
    rd(8'h38, v); if (v != 64'h31304d4d53535652) begin $display("FAIL magic %h", v); errors = errors + 1; end
    want_lat(8'd19, 1, 8);  // LOAD_MEM
    want_lat(8'd20, 1, 8);  // STORE_MEM
    want_lat(8'd7, 1, 2);   // neither
    rd(8'h18, v); if (v != 0) begin $display("FAIL other register %h", v); errors = errors + 1; end
    araddr = 64'hfff0c2c005; arvalid = 1; tick; arvalid = 0;
    if (rdata[7:0] != 8'hef) begin $display("FAIL outside the window %h", rdata[7:0]); errors = errors + 1; end
    tick;
    if (errors == 0) $display("PASS"); else $display("FAILED %0d", errors);
    $finish;
  end
endmodule
EOF
if (cd "$V" && timeout 300 verilator --binary -j 2 --top-module tb -Wno-fatal -Wno-lint -Wno-style \
	"$T/p/piton/verif/env/common/fake_mem_ctrl.v" "$T/p/piton/verif/env/manycore/fake_uart.v" \
	bridge.v tb.sv -o tbsim) >"$T/vl.build" 2>&1; then
	out=$("$V/obj_dir/tbsim" 2>&1)
	grep -qx PASS <<<"$out" && pass rtlprep-memctr-sim || fail rtlprep-memctr-sim "$(grep FAIL <<<"$out" | head -n 3 | tr '\n' ' ')"
else
	fail rtlprep-memctr-sim "build: $(grep -m3 -i error "$T/vl.build" | tr '\n' ' ')"
fi

# ---- tools/piton-build.sh: the build flags reach sims and the make it runs ---------------------
why=""
B=$T/pb
mkdir -p "$B/piton/tools/bin"
# the stand-in sims records its arguments and runs a make the way sims does
# (make ... -f Vcmp_top.mk), on a makefile with verilated.mk's defaults
printf 'OPT_FAST = -Os\nOPT_GLOBAL = -Os\nall:\n\t@echo "OPT_FAST=[$(OPT_FAST)] OPT_GLOBAL=[$(OPT_GLOBAL)]"\n' >"$B/mk.mk"
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s/sims.args"\nmake -s -f "%s/mk.mk" >"%s/make.out" 2>&1\n' "$B" "$B" "$B" \
	>"$B/piton/tools/bin/sims"
chmod +x "$B/piton/tools/bin/sims"
printf 'export PATH="$PITON_ROOT/piton/tools/bin:$PATH"\n' >"$B/piton/piton_settings.bash"
pb() { rm -f "$B/sims.args" "$B/make.out"; tools/piton-build.sh --piton-root "$B" --tiles 2x1 --build-id t "$@" >"$B/pb.out" 2>&1; }
saw() { cat "$B/make.out" 2>&1 | tr '\n' ' '; }
pb || why="$why [default: exit $?]"
grep -qx 'OPT_FAST=\[-O3\] OPT_GLOBAL=\[-O3\]' "$B/make.out" 2>/dev/null || why="$why [default: make saw $(saw)]"
grep -q -- --threads "$B/sims.args" 2>/dev/null && why="$why [default: --threads passed]"
pb --opt "-O2 -march=native" --threads 2 || why="$why [--opt/--threads: exit $?]"
grep -qx 'OPT_FAST=\[-O2 -march=native\] OPT_GLOBAL=\[-O2 -march=native\]' "$B/make.out" 2>/dev/null ||
	why="$why [--opt: make saw $(saw)]"
grep -qx -- '-vlt_build_args=--threads 2' "$B/sims.args" 2>/dev/null || why="$why [--threads 2 not among sims' arguments]"
pb --opt "" || why="$why [--opt '': exit $?]"
grep -qx 'OPT_FAST=\[-Os\] OPT_GLOBAL=\[-Os\]' "$B/make.out" 2>/dev/null || why="$why [--opt '': make saw $(saw)]"
for bad in "--threads 0" "--threads x" "--opt -O3;rm"; do
	# shellcheck disable=SC2086
	pb $bad; rc=$?
	{ [ "$rc" = 2 ] && [ ! -e "$B/sims.args" ] && grep -q 'piton-build.sh: --' "$B/pb.out"; } ||
		why="$why [$bad: exit $rc, sims ran: $([ -e "$B/sims.args" ] && echo yes || echo no)]"
done
[ -z "$why" ] && pass pitonbuild || fail pitonbuild "$why"

# ---- the Mess edit, simulated: without RVMESS_MESS as before, with it the stage ----------------
why=""
D=$PWD/hostsim/mess/dpi
for c in hostsim/mess/family.c hostsim/mess/ctrl.c $D/messsim_dpi.c; do
	${CC:-cc} -std=c11 -D_DEFAULT_SOURCE -O2 -Ihostsim -c "$c" -o "$V/$(basename "$c" .c).o" || why="$why [cc $c]"
done
for def in "" +define+RVMESS_MESS; do
	d=$V/m${def:+d}
	mkdir -p "$d"
	cp "$V/bridge.v" "$V/tb.sv" "$d/"
	# shellcheck disable=SC2086
	if (cd "$d" && timeout 300 verilator --binary -j 2 --top-module tb -Wno-fatal -Wno-lint -Wno-style $def \
		"$D/messsim_pkg.sv" "$D/rvmess_mem_delay.sv" "$T/m/$F" "$T/m/piton/verif/env/manycore/fake_uart.v" \
		bridge.v tb.sv "$V/messsim_dpi.o" "$V/family.o" "$V/ctrl.o" -LDFLAGS -lm -o tbsim) >"$d.build" 2>&1; then
		out=$("$d/obj_dir/tbsim" +rvmess_mem_fixed=7 2>&1)
		grep -qx PASS <<<"$out" || why="$why [${def:-plain}: $(grep FAIL <<<"$out" | head -n 3 | tr '\n' ' ')]"
		[ -n "$def" ] && ! grep -q 'fixed memory latency 7 cycles' <<<"$out" && why="$why [the stage did not take +rvmess_mem_fixed]"
	else
		why="$why [${def:-plain} build: $(grep -m3 -i error "$d.build" | tr '\n' ' ')]"
	fi
done
[ -z "$why" ] && pass rtlprep-mess-sim || fail rtlprep-mess-sim "$why"
finish
