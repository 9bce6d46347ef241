# OpenSBI payload, S-mode: qemu-system-riscv64 -M virt -bios default -kernel build/images/sbi.elf
# Position-independent: linked at 0x80200000, runs where it is loaded.
PLAT_sbi_MODE := S
PLAT_sbi_LDS  := linker/sbi.ld
PLAT_sbi_PIE  := 1
PLAT_sbi_SRCS := platform/sbi/entry.S platform/sbi/sbi.c \
                 platform/common/smode.c platform/common/trap_s.S platform/common/timer.c platform/common/counters.c
PLAT_sbi_CHECK := --base 0x80200000
