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
#                         MAGIC), other reads 0xef
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
	# fake_mem_ctrl: the module's ports and the signals memctr reads, driven
	# by the testbench through `tb_*` inputs
	cat >"$d/piton/verif/env/common/fake_mem_ctrl.v" <<'EOF'
`define MSG_TYPE_WIDTH 8
`define MSG_TYPE_LOAD_MEM 8'd19
`define MSG_TYPE_STORE_MEM 8'd20
module fake_mem_ctrl(
    input wire clk,
    input wire rst_n,
    input wire tb_valid,
    input wire [7:0] tb_type
);
reg mem_valid_in;
reg mem_ready_in;
wire [`MSG_TYPE_WIDTH-1:0] msg_type;
assign msg_type = tb_type;
always @* begin
    mem_valid_in = tb_valid;
    mem_ready_in = 1'b1;
    case (msg_type)
    `MSG_TYPE_LOAD_MEM: ;
    `MSG_TYPE_STORE_MEM: ;
    default: ;
    endcase
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
module chipset(input clk, input rst_n, input tb_valid, input [7:0] tb_type,
               input [63:0] tb_araddr, input tb_arvalid, output [63:0] tb_rdata);
fake_mem_ctrl fake_mem_ctrl(.clk(clk), .rst_n(rst_n), .tb_valid(tb_valid), .tb_type(tb_type));
fake_uart fake_uart(.clk(clk), .rst_n(rst_n), .tb_araddr(tb_araddr), .tb_arvalid(tb_arvalid), .tb_rdata(tb_rdata));
endmodule

module tb;
  reg clk = 0, rst_n = 0, valid = 0, arvalid = 0;
  reg [7:0] typ = 0;
  reg [63:0] araddr = 0;
  wire [63:0] rdata;
  integer errors = 0;
  chipset c(.clk(clk), .rst_n(rst_n), .tb_valid(valid), .tb_type(typ),
            .tb_araddr(araddr), .tb_arvalid(arvalid), .tb_rdata(rdata));
  task tick; begin #1 clk = 1; #1 clk = 0; end endtask
  task msg(input [7:0] t, input integer n); integer i; begin
    for (i = 0; i < n; i = i + 1) begin typ = t; valid = 1; tick; valid = 0; tick; end
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
finish
