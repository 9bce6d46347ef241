#!/usr/bin/env bash
# Prepare a user's OpenPiton + Ariane checkout for rvmess: scripted edits,
# each anchored on the text it changes.  An edit whose anchor is missing is
# refused with the file and what was looked for, and nothing of that edit is
# written; an edit already made (its rvmess marker present) is left alone,
# so running the script again changes nothing.
#
#   tools/rtl-prep.sh --piton-root DIR [--jobs N] [--check] [EDIT...]
#
# EDITs (default: all of them):
#   bootrom   the boot ROM's C build for Debian's cross GCC 12 (no libc):
#             -march gains _zicsr_zifencei, and --specs=picolibc.specs
#             (package picolibc-riscv64-unknown-elf) gives it libc headers
#   plic      rv_plic at upstream master (the submodule pin cannot be
#             fetched): plic_top.sv and the generator gen_plic_addrmap.py,
#             which sims re-runs on every build, take the register
#             interface's request and response types as parameters, as
#             riscv_peripherals.sv passes them
#   jobs      sims builds the model's C++ with an unbounded `make -j`: at
#             most N jobs (--jobs, default: the cores)
#   memctr    the memory counters: fake_mem_ctrl counts each 64-byte read
#             (LOAD_MEM) and write-back (STORE_MEM) it serves, and
#             fake_uart shows them, in the rvmess,memctl-counters layout
#             (firmware/include/rvmess/memctl.h), at the UART's base +
#             0x800, a byte per read; the image's openpiton platform reads
#             its memory traffic there (docs/platforms.md, "OpenPiton +
#             Ariane")
#
# Opt-in (named only, never by default):
#   ariane-inval  the workaround for the lost L1D invalidations of the pinned
#             Ariane under Verilator 5 (docs/findings.md): in
#             wt_l15_adapter.sv's return logic the L1 caches' invalidation
#             valid bits are read from the adapter's own outputs, which
#             Verilator 5.006 evaluates after that block; the edit reads the
#             return FIFO's invalidation bits directly instead (the same
#             meaning).  CVA6 fixed it upstream differently; a checkout
#             with that fix needs nothing.
#   mess      the Mess memory (docs/mess.md, "OpenPiton"): fake_mem_ctrl.v's
#             module becomes rvmess_fake_mem_ctrl_core, and a new
#             fake_mem_ctrl with the same ports puts rvmess's delay stage
#             (hostsim/mess/dpi/rvmess_mem_delay.sv, driven by the Mess
#             DPI adapter) between its responses and the NoC; both only in
#             a model built with `define RVMESS_MESS (tools/piton-build.sh
#             --mess, which also hands Verilator the stage and the
#             adapter), so other builds of the checkout are unchanged.
#             Needs memctr (made first when both are named).
#
# --check: only say, per edit, whether it is made, can be made, or cannot
# (its anchor is missing); exit 1 if any cannot.
# Exit status: 0 done, 1 an edit refused, 2 bad arguments or no checkout.
set -u
die() { echo "rtl-prep.sh: $*" >&2; exit 2; }
root="" jobs=$(nproc 2>/dev/null || echo 2) check=0 edits=()
while [ $# -gt 0 ]; do
	case $1 in
	--piton-root) [ $# -ge 2 ] || die "--piton-root needs a directory"; root=$2; shift 2 ;;
	--jobs) [ $# -ge 2 ] || die "--jobs needs a number"; jobs=$2; shift 2 ;;
	--check) check=1; shift ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	bootrom|plic|jobs|memctr|ariane-inval|mess) edits+=("$1"); shift ;;
	*) die "unknown argument '$1' (edits: bootrom plic jobs memctr ariane-inval mess)" ;;
	esac
done
[ -n "$root" ] || die "usage: rtl-prep.sh --piton-root DIR [--jobs N] [--check] [EDIT...]"
case $jobs in ''|*[!0-9]*|0) die "--jobs needs a positive number, got '$jobs'" ;; esac
[ -d "$root" ] || die "$root: no such directory"
[ -x "$root/piton/tools/bin/sims" ] || die "$root is not an OpenPiton checkout (no piton/tools/bin/sims)"
[ ${#edits[@]} -gt 0 ] || edits=(bootrom plic jobs memctr)
command -v python3 >/dev/null || die "python3 is needed (tools/deps.sh --rtl)"

# The edits themselves: one python function each, given the checkout; it
# returns "made" (marker present), or raises Refuse(file, what); with
# dry=True it changes nothing and returns "to do" when it would edit.
python3 - "$root" "$jobs" "$check" "${edits[@]}" <<'PY'
import os, re, sys

root, jobs, check, edits = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4:]
ARIANE = os.path.join(root, "piton/design/chip/tile/ariane")

class Refuse(Exception):
    pass

def rd(path):
    p = os.path.join(root, path)
    if not os.path.isfile(p):
        raise Refuse(f"{path}: no such file")
    with open(p) as f:
        return f.read()

def wr(path, text, dry):
    if dry:
        return
    p = os.path.join(root, path)
    with open(p + ".rvmess-tmp", "w") as f:
        f.write(text)
    os.chmod(p + ".rvmess-tmp", os.stat(p).st_mode)
    os.replace(p + ".rvmess-tmp", p)

def sub(text, path, old, new, count=1):
    """Replace `old` (which must occur exactly `count` times) by `new`."""
    n = text.count(old)
    if n != count:
        raise Refuse(f"{path}: anchor {old.strip()[:70]!r} found {n} times, want {count}")
    return text.replace(old, new)

def bootrom(dry):
    path = "piton/design/chipset/rv64_platform/bootrom/linux/Makefile"
    t = rd(path)
    if "# rvmess: bootrom" in t or ("_zicsr" in t and "picolibc.specs" in t):
        return "made"  # (or made by hand as docs/platforms.md describes)
    if not os.path.isfile("/usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs"):
        raise Refuse("picolibc.specs: not installed (package picolibc-riscv64-unknown-elf; tools/deps.sh --rtl)")
    t = sub(t, path, "-march=rv64imac ", "-march=rv64imac_zicsr_zifencei --specs=picolibc.specs ")
    t = "# rvmess: bootrom (tools/rtl-prep.sh): GCC 12 -march, picolibc headers\n" + t
    wr(path, t, dry)
    return "to do" if dry else "done"

def plic(dry):
    top = "piton/design/chip/tile/ariane/corev_apu/rv_plic/rtl/plic_top.sv"
    gen = "piton/design/chip/tile/ariane/corev_apu/rv_plic/rtl/gen_plic_addrmap.py"
    t, g = rd(top), rd(gen)
    if "parameter type reg_req_t" in t and "reg_req_t" in g:
        return "made"
    t = sub(t, top, "  parameter int SRCW        = $clog2(N_SOURCE+1)\n",
            "  parameter int SRCW        = $clog2(N_SOURCE+1),\n"
            "  // rvmess: plic (tools/rtl-prep.sh): the register interface's types\n"
            "  parameter type reg_req_t  = logic,\n"
            "  parameter type reg_rsp_t  = logic\n")
    t = sub(t, top, "  input  reg_intf::reg_intf_req_a32_d32 req_i,\n  output reg_intf::reg_intf_resp_d32    resp_o,",
            "  input  reg_req_t req_i,\n  output reg_rsp_t resp_o,")
    t = sub(t, top, "  plic_regs i_plic_regs (",
            "  plic_regs #(.reg_req_t(reg_req_t), .reg_rsp_t(reg_rsp_t)) i_plic_regs (")
    g = sub(g, gen, 'output += "module {} (\\n".format(self.name)',
            'output += "module {} #(parameter type reg_req_t = logic, parameter type reg_rsp_t = logic) (\\n".format(self.name)  # rvmess: plic')
    g = sub(g, gen, 'output += "  input  reg_intf::reg_intf_req_a32_d32 req_i,\\n"',
            'output += "  input  reg_req_t req_i,\\n"')
    g = sub(g, gen, 'output += "  output reg_intf::reg_intf_resp_d32    resp_o\\n"',
            'output += "  output reg_rsp_t resp_o\\n"')
    wr(top, t, dry)
    wr(gen, g, dry)
    return "to do" if dry else "done"

def jobs_edit(dry):
    path = "piton/tools/src/sims/sims,2.0"
    t = rd(path)
    marker = "# rvmess: jobs"
    if marker in t or re.search(r'make -j\d+ -C \$model_path/obj_dir', t):
        return "made"
    t = sub(t, path, '$build_cmd = "make -j -C $model_path/obj_dir -f Vcmp_top.mk Vcmp_top" ;',
            f'$build_cmd = "make -j{jobs} -C $model_path/obj_dir -f Vcmp_top.mk Vcmp_top" ; {marker} (tools/rtl-prep.sh)')
    wr(path, t, dry)
    return "to do" if dry else "done"

MEMCTR_MEM = """
// rvmess: memctr (tools/rtl-prep.sh): the 64-byte transfers this controller
// served, read by the image through fake_uart (fake_uart.v)
reg [63:0] rvmess_reads, rvmess_writes;
always @(posedge clk) begin
    if (!rst_n) begin
        rvmess_reads <= 64'd0;
        rvmess_writes <= 64'd0;
    end else if (mem_valid_in && mem_ready_in) begin
        if (msg_type == `MSG_TYPE_LOAD_MEM)
            rvmess_reads <= rvmess_reads + 64'd1;
        if (msg_type == `MSG_TYPE_STORE_MEM)
            rvmess_writes <= rvmess_writes + 64'd1;
    end
end

endmodule"""

MEMCTR_UART = """// rvmess: memctr (tools/rtl-prep.sh): fake_mem_ctrl's transfer counts in the
// rvmess,memctl-counters layout at this UART's base + 0x800, a byte a read
// (the bridge answers one byte; reading byte 0 of READS takes a snapshot of
// both counts); every other read still returns 0xef.
wire [`NOC_DATA_WIDTH-1:0]  rvmess_araddr;
wire                        rvmess_arvalid;
reg  [63:0]                 rvmess_snap_rd, rvmess_snap_wr, rvmess_reg;
reg  [`NOC_DATA_WIDTH-1:0]  rvmess_rdata;
wire rvmess_win = rvmess_araddr[11:8] == 4'h8;
always @(posedge clk) begin
    if (rvmess_arvalid && rvmess_win && rvmess_araddr[7:0] == 8'h00) begin
        rvmess_snap_rd <= fake_mem_ctrl.rvmess_reads;
        rvmess_snap_wr <= fake_mem_ctrl.rvmess_writes;
    end
end
always @* begin
    case (rvmess_araddr[7:3])
    5'h00: rvmess_reg = rvmess_snap_rd;         // READS
    5'h01: rvmess_reg = rvmess_snap_wr;         // WRITES
    5'h06: rvmess_reg = 64'd64;                 // LINE
    5'h07: rvmess_reg = 64'h31304d4d53535652;   // MAGIC "RVSSMM01"
    default: rvmess_reg = 64'd0;
    endcase
    rvmess_rdata = rvmess_win ? {{(`NOC_DATA_WIDTH-8){1'b0}}, rvmess_reg[8*rvmess_araddr[2:0] +: 8]}
                              : `NOC_DATA_WIDTH'hef;
end

noc_axilite_bridge #("""

def memctr(dry):
    mem = "piton/verif/env/common/fake_mem_ctrl.v"
    uart = "piton/verif/env/manycore/fake_uart.v"
    m, u = rd(mem), rd(uart)
    mm, um = "// rvmess: memctr" in m, "// rvmess: memctr" in u
    if mm and um:
        return "made"
    if not mm:
        for sig in ("reg mem_valid_in;", "reg mem_ready_in;", "wire [`MSG_TYPE_WIDTH-1:0] msg_type;",
                    "`MSG_TYPE_LOAD_MEM:", "`MSG_TYPE_STORE_MEM:", "input wire clk,", "input wire rst_n,"):
            if sig not in m:
                raise Refuse(f"{mem}: anchor {sig!r} not found")
        m = sub(m, mem, "\nendmodule", MEMCTR_MEM)
    if not um:
        u = sub(u, uart, "noc_axilite_bridge #(", MEMCTR_UART)
        u = sub(u, uart, "    .m_axi_araddr           (),", "    .m_axi_araddr           (rvmess_araddr),")
        u = sub(u, uart, "    .m_axi_arvalid          (),", "    .m_axi_arvalid          (rvmess_arvalid),")
        u = sub(u, uart, "    .m_axi_rdata            (`NOC_DATA_WIDTH'hef),", "    .m_axi_rdata            (rvmess_rdata),")
        if "SLAVE_RESP_BYTEWIDTH (1)" not in u:
            raise Refuse(f"{uart}: anchor 'SLAVE_RESP_BYTEWIDTH (1)' not found (the window answers a byte per read)")
    wr(mem, m, dry)
    wr(uart, u, dry)
    return "to do" if dry else "done"

def ariane_inval(dry):
    path = "piton/design/chip/tile/ariane/core/cache_subsystem/wt_l15_adapter.sv"
    t = rd(path)
    if "// rvmess: ariane-inval" in t:
        return "made"
    blk = t[t.find("p_rtrn_logic"):]
    blk = blk[:blk.find("\n  end\n")]
    if "dcache_rtrn_o.inv.vld = rtrn_fifo_data.l15_inval_dcache_inval" in blk:
        return "made"  # CVA6's own fix: the bits assigned inside this block
    for c in ("icache", "dcache"):
        t = sub(t, path, f"{c}_rtrn_vld_o   = {c}_rtrn_o.inv.vld | {c}_rtrn_o.inv.all;",
                f"{c}_rtrn_vld_o   = rtrn_fifo_data.l15_inval_{c}_inval | rtrn_fifo_data.l15_inval_{c}_all_way; // rvmess: ariane-inval")
    wr(path, t, dry)
    return "to do" if dry else "done"

MESS_HEAD = """// rvmess: mess (tools/rtl-prep.sh): in a model built with RVMESS_MESS this
// module is the core of fake_mem_ctrl (at the end of this file), whose
// responses pass rvmess's Mess delay stage
`ifdef RVMESS_MESS
module rvmess_fake_mem_ctrl_core(
`else
module fake_mem_ctrl(
`endif"""

MESS_TAIL = """
`ifdef RVMESS_MESS
// rvmess: mess (tools/rtl-prep.sh): the controller above, its responses held
// by rvmess_mem_delay (rvmess's hostsim/mess/dpi/rvmess_mem_delay.sv) for
// the latency the Mess DPI adapter gives each read and write-back
module fake_mem_ctrl(
    input wire clk,
    input wire rst_n,
    input wire noc_valid_in,
    input wire [`NOC_DATA_WIDTH-1:0] noc_data_in,
    output wire noc_ready_in,
    output wire noc_valid_out,
    output wire [`NOC_DATA_WIDTH-1:0] noc_data_out,
    input wire noc_ready_out
);
wire core_valid, core_ready;
wire [`NOC_DATA_WIDTH-1:0] core_data;
rvmess_fake_mem_ctrl_core core(
    .clk(clk), .rst_n(rst_n),
    .noc_valid_in(noc_valid_in), .noc_data_in(noc_data_in), .noc_ready_in(noc_ready_in),
    .noc_valid_out(core_valid), .noc_data_out(core_data), .noc_ready_out(core_ready)
);
wire [`MSG_TYPE_WIDTH-1:0] core_type = core_data[`MSG_TYPE];
rvmess_mem_delay #(.W(`NOC_DATA_WIDTH)) rvmess_delay(
    .clk(clk), .rst_n(rst_n),
    .in_valid(core_valid), .in_data(core_data), .in_ready(core_ready),
    .in_len(core_data[`MSG_LENGTH]), .in_last(1'b0),
    .in_kind(core_type == `MSG_TYPE_LOAD_MEM_ACK ? 2'd1 : core_type == `MSG_TYPE_STORE_MEM_ACK ? 2'd2 : 2'd0),
    .out_valid(noc_valid_out), .out_data(noc_data_out), .out_ready(noc_ready_out)
);
// the memctr counts, where fake_uart.v reads them
wire [63:0] rvmess_reads = core.rvmess_reads;
wire [63:0] rvmess_writes = core.rvmess_writes;
endmodule
`endif
"""

def mess(dry):
    path = "piton/verif/env/common/fake_mem_ctrl.v"
    t = rd(path)
    if "// rvmess: mess" in t:
        return "made"
    if "// rvmess: memctr" not in t and not (dry and "memctr" in edits):
        raise Refuse(f"{path}: the memctr edit is not made (name memctr too, or run it first)")
    for sig in ("`MSG_TYPE_LOAD_MEM_ACK", "`MSG_TYPE_STORE_MEM_ACK", "output reg noc_valid_out,",
                "output reg [`NOC_DATA_WIDTH-1:0] noc_data_out,", "input wire noc_ready_out\n"):
        if sig not in t:
            raise Refuse(f"{path}: anchor {sig.strip()!r} not found")
    t = sub(t, path, "\nmodule fake_mem_ctrl(", "\n" + MESS_HEAD)
    if not t.endswith("\n"):
        t += "\n"
    t += MESS_TAIL
    wr(path, t, dry)
    return "to do" if dry else "done"

EDITS = {"bootrom": bootrom, "plic": plic, "jobs": jobs_edit, "memctr": memctr,
         "ariane-inval": ariane_inval, "mess": mess}
# the order edits are made in, whatever the command line's (mess needs memctr)
edits = sorted(set(edits), key=list(EDITS).index)
bad = 0
for e in edits:
    try:
        if check:
            st = EDITS[e](True)
            print(f"rtl-prep.sh: {e}: {'made' if st == 'made' else 'can be made'}")
        else:
            st = EDITS[e](False)
            print(f"rtl-prep.sh: {e}: {'already made' if st == 'made' else 'done'}")
    except Refuse as r:
        print(f"rtl-prep.sh: {e}: refused: {r}", file=sys.stderr)
        bad = 1
sys.exit(bad)
PY
