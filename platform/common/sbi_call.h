/* SBI calls (S-mode): ecall with a7 = extension, a6 = function, a0..a4 the
 * arguments; returns (error, value).  Shared by platform/sbi/sbi.c and the
 * S-mode PMU code (platform/common/smode.c). */
#ifndef RVMESS_SBI_CALL_H
#define RVMESS_SBI_CALL_H

struct sbiret {
	long error, value;
};

static inline struct sbiret sbi_call5(long eid, long fid, long a0, long a1, long a2, long a3, long a4)
{
	register long r0 __asm__("a0") = a0;
	register long r1 __asm__("a1") = a1;
	register long r2 __asm__("a2") = a2;
	register long r3 __asm__("a3") = a3;
	register long r4 __asm__("a4") = a4;
	register long r6 __asm__("a6") = fid;
	register long r7 __asm__("a7") = eid;
	__asm__ volatile("ecall" : "+r"(r0), "+r"(r1) : "r"(r2), "r"(r3), "r"(r4), "r"(r6), "r"(r7) : "memory");
	return (struct sbiret){ r0, r1 };
}

static inline struct sbiret sbi_call(long eid, long fid, long a0, long a1, long a2)
{
	return sbi_call5(eid, fid, a0, a1, a2, 0, 0);
}

#endif
