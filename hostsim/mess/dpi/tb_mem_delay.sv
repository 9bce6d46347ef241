// Testbench of rvmess_mem_delay (the Mess delay stage on an RTL memory's
// response path), as used behind OpenPiton's fake memory controller (len), built by ci/tests/messsim.sh with the Verilator of the
// machine and run once per mode (the stage reads its mode from plusargs):
//   +rvmess_mem_fixed=L      every read and write held L cycles: with the sink
//                            always ready each message's head leaves exactly
//                            at max(arrival + L, the previous release, the
//                            previous message's last flit + 1); then with a
//                            sink that stalls, no head leaves before its
//                            release;
//   +rvmess_mess_curves=DIR  a family flat at 100 ns (all reads) and 200 ns
//                            (all writes), at 1000 MHz, windows of 10: reads
//                            are held 100 cycles, and a long run of writes
//                            ends held 200 (the read share estimated 0);
//   neither                  the stage is a wire: a head leaves the cycle
//                            it arrives.
// Always: every flit leaves once, in order, unchanged; messages of other
// kinds (neither read nor write) get no latency of their own.  +mode=fixed
// |mess|wire says which checks apply.  Prints PASS or FAIL lines.
module tb_mem_delay;
  logic clk = 0, rst_n = 0;
  logic in_valid = 0, in_ready, out_valid, out_ready = 1;
  logic [63:0] in_data = 0, out_data;
  logic [7:0] in_len = 0;
  logic [1:0] in_kind = 0;
  // +last: the stage finds a message's end by in_last (CVA6's AXI bursts)
  // instead of the head's in_len (OpenPiton's NoC messages)
  logic in_last = 0;
  bit use_last = 0;
  logic dut_in_ready, dut_out_valid, last_in_ready, last_out_valid;
  logic [63:0] dut_out_data, last_out_data;
  rvmess_mem_delay #(.W(64), .FLITS(32), .MSGS(8)) dut(
    .clk, .rst_n, .in_valid(in_valid && !use_last), .in_data, .in_ready(dut_in_ready), .in_len, .in_last(1'b0), .in_kind,
    .out_valid(dut_out_valid), .out_data(dut_out_data), .out_ready);
  rvmess_mem_delay #(.W(64), .FLITS(32), .MSGS(8), .USE_LAST(1), .OPEN(0)) dut_last(
    .clk, .rst_n, .in_valid(in_valid && use_last), .in_data, .in_ready(last_in_ready), .in_len(8'hff), .in_last,
    .in_kind, .out_valid(last_out_valid), .out_data(last_out_data), .out_ready);
  assign in_ready = use_last ? last_in_ready : dut_in_ready;
  assign out_valid = use_last ? last_out_valid : dut_out_valid;
  assign out_data = use_last ? last_out_data : dut_out_data;

  always #1 clk = ~clk;

  string mode;
  int fixed_l = 0, fails = 0, n_exact = 0;
  // the plan, per message: kind, flits after the head, idle cycles before it
  int pk[$], pn[$], pgap[$];
  // per message accepted: the cycle its head went in; per message out: held
  longint arr[$];
  int held[$];
  logic go = 0;

  task automatic fail(input string s);
    if (fails < 10) $display("FAIL %s", s);
    fails++;
  endtask
  task automatic plan(input int k, input int n, input int gap);
    pk.push_back(k);
    pn.push_back(n);
    pgap.push_back(gap);
  endtask

  // One block drives the source and checks the sink, in that order, on the
  // values before each edge (`cyc` counts edges, as the stage's `now` does).
  longint cyc = 0, flit_in = 0, flit_out = 0, prev_last = -1, prev_rel = 0;
  longint want;
  int pm = 0, pf = 0, gapc = 0, om = 0, orem = 0;
  always @(posedge clk) begin
    if (rst_n && go) begin
      // ---- source: the flit taken at this edge, then the next one
      if (in_valid && in_ready) begin
        if (pf == 0) arr.push_back(cyc);
        flit_in++;
        if (pf == pn[pm]) begin
          pf = 0;
          pm++;
          gapc = pm < pn.size() ? pgap[pm] : 0;
        end else pf++;
      end else if (!in_valid && gapc > 0) gapc--;
      if (pm < pn.size() && gapc == 0) begin
        in_valid <= 1;
        in_data <= flit_in;
        in_len <= pf == 0 ? 8'(pn[pm]) : 8'hff;
        in_kind <= pf == 0 ? 2'(pk[pm]) : 2'b11;
        in_last <= pf == pn[pm];
      end else in_valid <= 0;
      // ---- sink
      if (out_valid && out_ready) begin
        if (out_data != flit_out) fail($sformatf("flit %0d came out as %0d", flit_out, out_data));
        flit_out++;
        if (orem == 0) begin  // a head
          if (om >= arr.size()) fail($sformatf("head %0d out before it went in", om));
          else begin
            want = arr[om] + (pk[om] == 0 || mode == "wire" ? 0 : longint'(fixed_l));
            if (want < prev_rel) want = prev_rel;
            prev_rel = want;
            if (mode != "wire" && want < arr[om] + 1) want = arr[om] + 1;
            if (want < prev_last + 1) want = prev_last + 1;
            held.push_back(int'(cyc - arr[om]));
            if (mode == "wire" && cyc != arr[om])
              fail($sformatf("wire: message %0d went in at %0d, out at %0d", om, arr[om], cyc));
            if (mode == "fixed" && out_exact(om) && cyc != want)
              fail($sformatf("fixed %0d: message %0d (kind %0d) in at %0d, out at %0d, want %0d", fixed_l, om,
                             pk[om], arr[om], cyc, want));
            if (mode == "fixed" && out_exact(om)) n_exact++;
            if (mode == "fixed" && cyc < want)
              fail($sformatf("fixed %0d: message %0d out at %0d, before %0d", fixed_l, om, cyc, want));
          end
          orem = pn[om];
          om++;
        end else orem--;
        if (orem == 0) prev_last = cyc;
      end
      out_ready <= mode == "mess" || om < 40 || ($urandom % 3) != 0;
    end
    cyc <= cyc + 1;
  end
  function automatic bit out_exact(input int m);  // the sink was always ready
    return m < 40;
  endfunction

  task automatic drain;
    int guard = 0;
    while (om < pn.size() && guard < 400000) begin
      @(posedge clk);
      guard++;
    end
    if (om < pn.size()) fail($sformatf("%0d of %0d messages came out", om, pn.size()));
  endtask

  initial begin
    if (!$value$plusargs("mode=%s", mode)) mode = "wire";
    void'($value$plusargs("rvmess_mem_fixed=%d", fixed_l));
    use_last = $test$plusargs("last");
    if (mode == "mess") begin
      for (int i = 0; i < 1000; i++) plan(1, 8, 20);
      for (int i = 0; i < 3000; i++) plan(2, 0, 20);
    end else begin
      // spaced, then back to back (filling the stage), mixed kinds; then
      // with a sink that stalls
      for (int i = 0; i < 40; i++) plan(i % 3, i % 3 == 1 ? 8 : i % 3 == 2 ? 0 : 2, i < 20 ? 30 : 0);
      for (int i = 0; i < 200; i++) plan(1 + i % 2, i % 2 == 0 ? 8 : 0, i % 4);
    end
    gapc = pgap[0];
    repeat (3) @(posedge clk);
    rst_n <= 1;
    @(posedge clk);
    go <= 1;
    drain();
    if (mode == "mess") begin
      // reads: 100 cycles each; the last writes: 200
      for (int i = 0; i < 1000; i++)
        if (held[i] != 100) begin
          fail($sformatf("mess: read %0d held %0d cycles, want 100", i, held[i]));
          break;
        end
      for (int i = held.size() - 100; i < held.size(); i++)
        if (held[i] < 199 || held[i] > 201) begin
          fail($sformatf("mess: write %0d held %0d cycles, want 200", i, held[i]));
          break;
        end
      $display("mess: read 0 held %0d cycles, the last write %0d", held[0], held[held.size() - 1]);
    end
    if (flit_out != flit_in) fail($sformatf("%0d flits in, %0d out", flit_in, flit_out));
    $display("%s %s%s: %0d messages, %0d flits, %0d timed exactly, %0d failed", fails == 0 ? "PASS" : "FAIL", mode, use_last ? " (last)" : "",
             arr.size(), flit_in, n_exact, fails);
    $finish;
  end
endmodule
