/*
 * OpenSBI payload, S-mode (QEMU virt -bios default, boards): linked at
 * 0x80200000, one boot hart enters; the others are started with SBI HSM.
 * Console: SBI legacy console_putchar (EID 0x01).
 * Exit: SBI SRST.  OpenSBI 1.1 maps any SRST shutdown to QEMU's "pass", so a
 * failing run first writes the sifive,test0 finisher when the FDT has one.
 */
#include "platform.h"
#include "rvmess/fdt.h"
#include "common/finisher.h"
#include "common/sbi_call.h"

#define SBI_EXT_LEGACY_PUTCHAR  0x01
#define SBI_EXT_LEGACY_SHUTDOWN 0x08
#define SBI_EXT_HSM             0x48534d
#define SBI_EXT_IPI             0x735049
#define SBI_EXT_SRST            0x53525354


static uint64_t test_base;

static void sbi_init(const struct fdt_info *f)
{
	test_base = f ? f->test_base : 0;
}

static void sbi_putc(char c)
{
	sbi_call(SBI_EXT_LEGACY_PUTCHAR, 0, (unsigned char)c, 0, 0);
}

static long sbi_start_hart(unsigned long hartid, uintptr_t entry, uintptr_t opaque)
{
	return sbi_call(SBI_EXT_HSM, 0, (long)hartid, (long)entry, (long)opaque).error;
}

static void sbi_ipi_send(unsigned long hartid)
{
	/* hart_mask = bit 0, hart_mask_base = hartid */
	sbi_call(SBI_EXT_IPI, 0, 1, (long)hartid, 0);
}

static void sbi_ipi_clear(void)
{
	__asm__ volatile("csrc sip, %0" ::"r"(2ul) : "memory"); /* SSIP */
}

static __attribute__((noreturn)) void sbi_exit(int status)
{
	if (status && test_base)
		finisher_exit(test_base, status);
	/* SRST system_reset(type = shutdown, reason = none / system failure) */
	sbi_call(SBI_EXT_SRST, 0, 0, status ? 1 : 0, 0);
	sbi_call(SBI_EXT_LEGACY_SHUTDOWN, 0, 0, 0, 0);
	for (;;)
		__asm__ volatile("wfi");
}

const struct platform plat = {
	.name = "sbi",
	.mode = "S",
	.default_mem_base = 0x80000000u,
	.default_mem_size = 128u << 20,
	.default_timebase = 10000000u,
	.default_harts = 1,
	.init = sbi_init,
	.putc = sbi_putc,
	.start_hart = sbi_start_hart,
	.ipi_send = sbi_ipi_send,
	.ipi_clear = sbi_ipi_clear,
	.exit = sbi_exit,
};
