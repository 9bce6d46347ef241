# HTIF, M-mode: qemu-system-riscv64 -M spike -bios none -kernel build/images/spike.elf
PLAT_spike_MODE := M
PLAT_spike_LDS  := linker/mmode.ld
PLAT_spike_SRCS := platform/spike/spike.c \
                   platform/common/clint.c platform/common/mmode.c platform/common/mhpmevent.c platform/common/trap_m.S platform/common/timer.c platform/common/counters.c
PLAT_spike_CHECK := --base 0x80000000 --symbols tohost,fromhost
