# OpenPiton + Ariane (sims -sys=manycore ... -ariane, any tile count), M-mode.
# OPENPITON_END: how the run ends once every hart is at `pass` (or `fail`):
#   pass   (default) nothing more: sims watches the pc of `pass`/`fail`
#   metro  then a load from 0x8100000000 (pass) / 0x8200000000 (fail), the
#          Metro-MPI end of test (its monitors are off)
# OPENPITON_UART: the console UART at 0xfff0c2c000
#   fake   (default) sims' fake_uart.v (every read returns 0xef): written
#          without polling, since a read costs the RTL simulation an uncached
#          round trip over the NoC for every console byte
#   16550  a real 16550 (an FPGA board: Xilinx's AXI UART 16550 behind the
#          chipset, same address and byte registers): LSR polled before every
#          byte, else its 16-byte FIFO overflows and bytes are lost
OPENPITON_END ?= pass
ifeq ($(filter pass metro,$(OPENPITON_END)),)
$(error OPENPITON_END must be pass or metro, not '$(OPENPITON_END)')
endif
OPENPITON_UART ?= fake
ifeq ($(filter fake 16550,$(OPENPITON_UART)),)
$(error OPENPITON_UART must be fake or 16550, not '$(OPENPITON_UART)')
endif
PLAT_openpiton_MODE := M
PLAT_openpiton_LDS  := linker/openpiton.ld
PLAT_openpiton_SRCS := platform/tiles/tiles.c platform/tiles/pass_fail.S \
                       platform/common/uart.c platform/common/ns16550.c platform/common/sifive_uart.c \
                       platform/common/mmode.c platform/common/trap_m.S platform/common/timer.c
PLAT_openpiton_CFLAGS := -DOPENPITON_METRO=$(if $(filter metro,$(OPENPITON_END)),1,0) \
                         -DOPENPITON_UART_POLL=$(if $(filter 16550,$(OPENPITON_UART)),1,0)
PLAT_openpiton_CHECK := --base 0x80000000 --symbols pass,fail
