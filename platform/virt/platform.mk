# QEMU virt, M-mode: qemu-system-riscv64 -M virt -bios none -kernel build/images/virt.elf
PLAT_virt_MODE := M
PLAT_virt_LDS  := linker/mmode.ld
PLAT_virt_SRCS := platform/virt/virt.c platform/common/uart.c platform/common/ns16550.c platform/common/sifive_uart.c \
                  platform/common/clint.c platform/common/mmode.c platform/common/mhpmevent.c platform/common/trap_m.S platform/common/timer.c platform/common/counters.c
PLAT_virt_CHECK := --base 0x80000000
