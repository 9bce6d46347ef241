// messsim DPI-C imports (hostsim/mess/dpi/messsim_dpi.c, docs/mess.md).
// delay_init opens a curve family (bwlat directory, rvmess folder or Mess
// CSV) for a clock of freq_MHz; got_a_read_req/got_a_write_req return the
// latency in cycles of that clock of one request issued at cycle clk.
package messsim_pkg;
  import "DPI-C" function int delay_init(input string curve_path, input int freq_MHz);
  import "DPI-C" function int delay_init_opts(input string curve_path, input int freq_MHz, input int window,
                                              input real convergence, input real onchip_ns);
  import "DPI-C" function int got_a_read_req(input longint clk);
  import "DPI-C" function int got_a_write_req(input longint clk);
  import "DPI-C" function void delay_finish();
endpackage
