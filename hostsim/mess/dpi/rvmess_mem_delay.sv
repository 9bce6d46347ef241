// rvmess_mem_delay: the Mess memory behind an RTL model's own memory
// (docs/mess.md, "Verilator (and OpenPiton, CVA6)").  It sits on the
// memory's response path and holds every response message until the
// latency the Mess simulator's DPI adapter (messsim_dpi.c) gives it has gone
// by: a read's answer asks got_a_read_req, a write's got_a_write_req, at the
// cycle its first flit reaches the stage; that flit then leaves at that
// cycle + the latency (at least one cycle later), the rest of the message
// right after.  Messages leave in order (a later one waits for an earlier
// one's release); the stage takes a flit every cycle while it has room, so
// the memory serves the next request at once: requests overlap as in a real
// memory, up to MSGS in flight.
//
// OpenPiton: one stage on fake_mem_ctrl's NoC output (a message = a head
// flit and in_len more; tools/rtl-prep.sh's `mess` edit).  CVA6: one stage
// on the AXI R channel (a message = a burst, ended by in_last) and one on B
// (tools/cva6-prep.sh).  Other messages (an uncached access's answer) get
// no latency of their own but keep their place in the order.
//
// The mode is read from plusargs once, at time 0:
//   +rvmess_mess_curves=FAMILY   the Mess family (delay_init_opts, by the
//                                stage with OPEN=1), with
//   +rvmess_mess_mhz=F           the clock of this module's cycles (1000),
//   +rvmess_mess_onchip_ps=P     the on-chip part subtracted from the curves
//                                (0: the curves' latency is added whole),
//   +rvmess_mess_window=N        requests per Mess window (1000);
//   +rvmess_mem_fixed=N          instead: every read and write N cycles;
//   neither: no delay, the stage is a wire (the memory's own timing).
module rvmess_mem_delay #(
  parameter int W = 64,        // flit width
  parameter int FLITS = 1024,  // flits held (a power of 2)
  parameter int MSGS = 128,    // messages held (a power of 2)
  parameter bit USE_LAST = 0,  // messages end at in_last (else: in_len)
  parameter bit OPEN = 1       // this stage opens the Mess family
) (
  input  logic         clk,
  input  logic         rst_n,
  // from the memory: a message is a head flit and in_len more flits, or
  // (USE_LAST) the flits up to one with in_last
  input  logic         in_valid,
  input  logic [W-1:0] in_data,
  output logic         in_ready,
  input  logic [7:0]   in_len,   // on a head flit: the flits that follow
  input  logic         in_last,  // USE_LAST: the message's last flit
  input  logic [1:0]   in_kind,  // on a head flit: 1 read, 2 write, 0 other
  // to the NoC
  output logic         out_valid,
  output logic [W-1:0] out_data,
  input  logic         out_ready
);
  import messsim_pkg::*;

  localparam int FB = $clog2(FLITS), MB = $clog2(MSGS);
  typedef longint unsigned u64;

  int mode = 0;  // 0 wire, 1 Mess, 2 fixed
  int fixed_lat = 0;
  u64 now = 0;   // this clock's cycles since time 0, never reset
  u64 reads = 0, writes = 0, lat_sum = 0;

  initial begin
    string curves;
    int mhz = 1000, window = 0;
    longint onchip_ps = 0;
    if ($value$plusargs("rvmess_mess_curves=%s", curves)) begin
      void'($value$plusargs("rvmess_mess_mhz=%d", mhz));
      void'($value$plusargs("rvmess_mess_onchip_ps=%d", onchip_ps));
      void'($value$plusargs("rvmess_mess_window=%d", window));
      if (OPEN) begin
        if (delay_init_opts(curves, mhz, window, 0.0, real'(onchip_ps) / 1000.0) != 0)
          $fatal(1, "rvmess_mem_delay: the Mess family %s was refused (above)", curves);
        $display("rvmess_mem_delay: Mess memory %s at %0d MHz, on-chip %0d ps, window %0d", curves, mhz,
                 onchip_ps, window);
      end
      mode = 1;
    end else if ($value$plusargs("rvmess_mem_fixed=%d", fixed_lat)) begin
      if (OPEN) $display("rvmess_mem_delay: fixed memory latency %0d cycles", fixed_lat);
      mode = 2;
    end
  end

  always_ff @(posedge clk) now <= now + 1;

  // ---- the flits (bit W: a head flit) and the messages' release cycles ----
  logic [W:0] fbuf[FLITS];
  u64 rel[MSGS];
  logic [FB:0] fwp, frp;
  logic [MB:0] mwp, mrp;
  logic [7:0] in_rem;  // flits of the current input message still to come
                       // (USE_LAST: 0 at a message's start, else 1)
  u64 last_rel;
  wire in_head = in_rem == 8'd0;
  wire [FB:0] fcount = fwp - frp;
  wire [MB:0] mcount = mwp - mrp;
  wire [W:0] fhead = fbuf[frp[FB-1:0]];
  wire released = mcount != 0 && now >= rel[mrp[MB-1:0]];
  wire held_valid = fcount != 0 && (!fhead[W] || released);

  always_comb begin
    if (mode == 0) begin
      in_ready = out_ready;
      out_valid = in_valid;
      out_data = in_data;
    end else begin
      in_ready = fcount < (FB + 1)'(FLITS) && mcount < (MB + 1)'(MSGS);
      out_valid = held_valid;
      out_data = fhead[W-1:0];
    end
  end

  function automatic u64 latency(input logic [1:0] kind, input u64 at);
    int l;
    if (kind == 2'd0) return 0;
    if (mode == 2) return u64'(fixed_lat);
    // (an if, not ?:, which Verilator 5.006 evaluates both sides of,
    // calling both functions)
    if (kind == 2'd1) l = got_a_read_req(longint'(at));
    else l = got_a_write_req(longint'(at));
    return l > 0 ? u64'(l) : 0;
  endfunction

  u64 t_lat, t_rel;  // (blocking temporaries of the block below)
  always @(posedge clk) begin
    if (!rst_n) begin
      in_rem <= 8'd0;
    end else if (in_valid && in_ready) begin
      if (USE_LAST) in_rem <= in_last ? 8'd0 : 8'd1;
      else in_rem <= in_head ? in_len : in_rem - 8'd1;
    end
    if (!rst_n) begin
      fwp <= '0;
      frp <= '0;
      mwp <= '0;
      mrp <= '0;
      last_rel <= 0;
    end else if (mode != 0) begin
      if (in_valid && in_ready) begin
        fbuf[fwp[FB-1:0]] <= {in_head, in_data};
        fwp <= fwp + 1'b1;
        if (in_head) begin
          t_lat = latency(in_kind, now);
          t_rel = now + t_lat < last_rel ? last_rel : now + t_lat;
          rel[mwp[MB-1:0]] <= t_rel;
          last_rel <= t_rel;
          mwp <= mwp + 1'b1;
          if (in_kind == 2'd1) reads <= reads + 1;
          if (in_kind == 2'd2) writes <= writes + 1;
          lat_sum <= lat_sum + t_lat;
        end
      end
      if (held_valid && out_ready) begin
        frp <= frp + 1'b1;
        if (fhead[W]) mrp <= mrp + 1'b1;
      end
    end
  end
endmodule
