# CVA6 testharness (Verilator), M-mode: one PT_LOAD at 0x80000000; run with
# tools/run.sh --target cva6 --cva6 DIR (fesvr ends the run on `tohost`).  CVA6_CLK_HZ: the
# core clock the image assumes (timebase = CVA6_CLK_HZ / 4), default the DTB's
# nominal 50 MHz.
CVA6_CLK_HZ ?= 50000000
ifeq ($(shell echo '$(CVA6_CLK_HZ)' | grep -Ex '[1-9][0-9]{0,9}'),)
$(error CVA6_CLK_HZ must be the core clock in Hz (a whole number), not '$(CVA6_CLK_HZ)')
endif
PLAT_cva6_MODE := M
PLAT_cva6_LDS  := linker/cva6.ld
PLAT_cva6_SRCS := platform/harness/harness.c platform/common/uart.c platform/common/ns16550.c platform/common/sifive_uart.c \
                  platform/common/clint.c platform/common/mmode.c platform/common/mhpmevent.c platform/common/trap_m.S platform/common/timer.c platform/common/counters.c
PLAT_cva6_CFLAGS := -DCVA6_CLK_HZ=$(CVA6_CLK_HZ)u
PLAT_cva6_CHECK := --base 0x80000000 --one-load --max-size 16M --symbols tohost
