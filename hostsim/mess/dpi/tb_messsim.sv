// Testbench of the messsim DPI adapter, built and run by ci/tests/messsim.sh
// with the Verilator of the machine.  The family (+curves=DIR) is linear per read ratio: 100 ns at
// 0 MB/s up to (300 - 2 R) ns at 12800 MB/s for R = 0 and 100 (R = 50:
// interpolated, 250 ns).  A 1000 MHz clock; each stream issues a 64-byte
// request every `gap` cycles (64000 / gap MB/s) with `rd` % reads, 300000
// requests; then the latency returned must be the curve's at that bandwidth,
// 100 + (200 - R) * bw / 12800 ns, within one cycle.
module tb_messsim;
  import messsim_pkg::*;
  string curves;
  int fails = 0, runs = 0;

  task automatic stream(input int gap, input int rd);
    longint clk = 0;
    int lat = 0, acc = 0;
    real bw, want;
    if (delay_init(curves, 1000) != 0) begin
      $display("FAIL delay_init %s", curves);
      fails++;
      return;
    end
    for (int i = 0; i < 300000; i++) begin
      clk += longint'(gap);
      acc += rd;
      if (acc >= 100) begin
        acc -= 100;
        lat = got_a_read_req(clk);
      end else
        lat = got_a_write_req(clk);
    end
    bw = 64000.0 / gap;
    want = 100.0 + (200.0 - rd) * bw / 12800.0;
    runs++;
    if (lat < want - 1.0 || lat > want + 1.0) begin
      $display("FAIL gap %0d read %0d%%: %0d cycles, want %0.2f", gap, rd, lat, want);
      fails++;
    end else
      $display("ok gap %0d (%0.1f MB/s) read %0d%%: %0d cycles, curve %0.2f", gap, bw, rd, lat, want);
    delay_finish();
  endtask

  initial begin
    if (!$value$plusargs("curves=%s", curves)) begin
      $display("FAIL no +curves=DIR");
      $finish;
    end
    for (int g = 0; g < 3; g++) begin
      int gap = g == 0 ? 20 : g == 1 ? 10 : 6;
      stream(gap, 100);
      stream(gap, 50);
      stream(gap, 0);
    end
    if (got_a_read_req(1) != -1) begin
      $display("FAIL got_a_read_req after delay_finish did not return -1");
      fails++;
    end
    $display("%s %0d streams, %0d failed", fails != 0 ? "FAIL" : "PASS", runs, fails);
    $finish;
  end
endmodule
