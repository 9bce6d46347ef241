/* The messsim DPI-C functions (messsim_dpi.c); SystemVerilog imports them
 * through messsim_pkg.sv.  Return -1 when not initialised or refused. */
#ifndef MESSSIM_DPI_H
#define MESSSIM_DPI_H
#ifdef __cplusplus
extern "C" {
#endif
int delay_init(const char *curve_path, int freq_MHz);
int delay_init_opts(const char *curve_path, int freq_MHz, int window, double convergence, double onchip_ns);
int got_a_read_req(long long clk);
int got_a_write_req(long long clk);
void delay_finish(void);
#ifdef __cplusplus
}
#endif
#endif
