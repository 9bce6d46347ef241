/*
 * The image's rendezvous (firmware/sync.c) on the host, with threads as
 * harts: the lead writes off a hart that arrives late or never, reports it by
 * id, and the others go on without it.  sync.c, state.c, record.c and num.c
 * are the image's own files, built for the host; the hart primitives
 * (firmware/hart.c) and the platform are stubs here: a thread-local hart id,
 * parking = leaving the thread, the timebase = the host's monotonic clock in
 * microseconds, idling = yielding.
 */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "platform.h"
#include "rvmess/cfgschema.h"
#include "rvmess/rt.h"
#include "sync.h"

#define NHARTS     4
#define TIMEOUT_MS 200u

/* ---- stubs: platform and hart primitives ------------------------------------ */

static pthread_mutex_t out_mu = PTHREAD_MUTEX_INITIALIZER;
static char out[1 << 16];
static size_t outn;

static void cap_putc(char c)
{
	/* record.c's console lock already serialises; the mutex keeps the
	 * test's reads of `out` well-defined */
	pthread_mutex_lock(&out_mu);
	if (outn < sizeof out - 1)
		out[outn++] = c;
	out[outn] = 0;
	pthread_mutex_unlock(&out_mu);
}

static void no_ipi(unsigned long h) { (void)h; }
static void no_clear(void) {}

const struct platform plat = {
	.name = "test", .mode = "M", .putc = cap_putc,
	.ipi_send = no_ipi, .ipi_clear = no_clear,
};

static _Thread_local unsigned my_hart;
unsigned rvm_hartid(void) { return my_hart; }
void rvm_park(void) { pthread_exit(NULL); }
/* the config block wait.c reads (firmware/cfg.c in the image) */
const volatile struct rvm_config rvm_config_block = RVM_CFG_DEFAULTS;

static uint64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}
uint64_t pm_time(void) { return now_us(); }
uint64_t pm_cycles(void) { return 0; }
uint64_t pm_instret(void) { return 0; }
void pm_idle_init(void) {}
void pm_idle(void) { sched_yield(); }

/* ---- the harts -------------------------------------------------------------- */

enum role { PROMPT, LATE, NEVER, HANG_ONCE };

struct thr {
	pthread_t th;
	unsigned id;
	enum role role;
	int arrived;               /* sync_arrive(1) result (LATE: must be 0) */
	int calls;                 /* handler calls */
	uint32_t last_cmd, last_arg;
};
static struct thr harts[NHARTS];
static volatile int hang_released;

static uint32_t state_of(unsigned h) { return __atomic_load_n(&rvm_hstate[h], __ATOMIC_ACQUIRE) & 0xffu; }

/* Spin (yielding) until the hart's state is `st`; 0 after 5 s. */
static int wait_state(unsigned h, uint32_t st)
{
	uint64_t t0 = now_us();
	while (state_of(h) != st)
		if (now_us() - t0 > 5000000u)
			return 0;
		else
			sched_yield();
	return 1;
}

static void handler(uint32_t cmd, uint32_t arg)
{
	struct thr *me = &harts[rvm_hartid()];

	me->calls++;
	me->last_cmd = cmd;
	me->last_arg = arg;
	if (me->role == HANG_ONCE && me->calls == 1) {
		/* stuck in the first step until the lead has written us off */
		if (!wait_state(me->id, HS_HUNG))
			hang_released = -1;
	}
}

static void *hart_main(void *p)
{
	struct thr *me = p;

	my_hart = me->id;
	switch (me->role) {
	case NEVER:
		return NULL;
	case LATE:
		/* arrive only after the lead gave up on us */
		if (!wait_state(me->id, HS_MISSING))
			return NULL;
		me->arrived = sync_arrive(1, HS_ALIVE);
		if (!me->arrived)
			rvm_park();
		break;
	default:
		me->arrived = sync_arrive(1, HS_ALIVE);
		if (!me->arrived)
			rvm_park();
	}
	rvm_follow(handler);
}

static int setup(void **state)
{
	(void)state;
	memset(&rvm, 0, sizeof rvm);
	memset(harts, 0, sizeof harts);
	memset((void *)rvm_hstate, 0, sizeof rvm_hstate);
	outn = 0;
	out[0] = 0;
	hang_released = 0;
	rvm.cfg_ok = 1;
	rvm.cfg.timeout_ms = TIMEOUT_MS;
	rvm.timebase = 1000000;
	rvm.lead = 0;
	rvm.nharts = NHARTS;
	for (unsigned i = 0; i < NHARTS; i++)
		rvm.hartids[i] = i;
	my_hart = 0; /* this thread is the lead */
	return 0;
}

static void start(const enum role *roles)
{
	sync_init();
	for (unsigned i = 1; i < NHARTS; i++) {
		harts[i].id = i;
		harts[i].role = roles[i];
		assert_int_equal(pthread_create(&harts[i].th, NULL, hart_main, &harts[i]), 0);
	}
}

static void join_all(void)
{
	for (unsigned i = 1; i < NHARTS; i++)
		assert_int_equal(pthread_join(harts[i].th, NULL), 0);
}

/* The `missing` records in the output, as "hart/where" words. */
static void missing_list(char *buf, size_t n)
{
	const char *p = out;
	size_t k = 0;

	buf[0] = 0;
	while ((p = strstr(p, " missing h=0 hart=")) != NULL) {
		unsigned h;
		char where[32];
		if (sscanf(p, " missing h=0 hart=%u where=%31s", &h, where) == 2)
			k += (size_t)snprintf(buf + k, n - k, "%s%u/%s", k ? " " : "", h, where);
		p++;
	}
}

static void assert_missing(const char *want)
{
	char miss[128];
	missing_list(miss, sizeof miss);
	assert_string_equal(miss, want);
}

/* A step the live harts finish at once: the lead must not wait out the
 * timeout for the written-off ones. */
static void quick_step(uint32_t cmd, uint32_t arg, const char *where)
{
	uint64_t t0 = now_us();
	rvm_lead_step(cmd, arg, where);
	assert_true(now_us() - t0 < TIMEOUT_MS * 1000u);
}

static void end_run(void)
{
	rvm_lead_step(CMD_END, 0, "end");
	join_all();
}

/* ---- tests ------------------------------------------------------------------ */

/* Hart 2 never comes, hart 3 comes after the timeout: both are written off
 * as missing, reported by id, and hart 1 and the lead go on. */
static void test_boot_late_and_never(void **state)
{
	static const enum role roles[NHARTS] = { PROMPT, PROMPT, NEVER, LATE };
	uint64_t t0;
	(void)state;

	start(roles);
	t0 = now_us();
	assert_int_equal(sync_first(), 2);
	/* not before the timeout */
	assert_true(now_us() - t0 >= TIMEOUT_MS * 1000u);
	assert_int_equal(state_of(1), HS_ALIVE);
	assert_int_equal(state_of(2), HS_MISSING);
	assert_int_equal(state_of(3), HS_MISSING);
	sync_report_missing();
	assert_missing("2/boot 3/boot");

	/* the next step: only hart 1 takes part, and it does not wait for 2 or 3 */
	quick_step(CMD_RUN, 0x105, "step");
	end_run();

	assert_int_equal(harts[1].calls, 1);
	assert_int_equal(harts[1].last_cmd, CMD_RUN);
	assert_int_equal(harts[1].last_arg, 0x105);
	assert_int_equal(harts[3].arrived, 0); /* the late hart found itself written off */
	assert_int_equal(harts[3].calls, 0);
	assert_int_equal(harts[2].calls, 0);
	assert_int_equal(state_of(1), HS_DONE);
	assert_string_equal(rvm_state_name(rvm_hstate[2]), "missing");
	/* still exactly the two boot records: nobody else was written off */
	assert_missing("2/boot 3/boot");
}

/* Everyone arrives: nothing written off, nothing reported. */
static void test_boot_all_arrive(void **state)
{
	static const enum role roles[NHARTS] = { PROMPT, PROMPT, PROMPT, PROMPT };
	(void)state;

	start(roles);
	assert_int_equal(sync_first(), 0);
	sync_report_missing();
	quick_step(CMD_HART_RECORD, 0, "hart");
	end_run();
	for (unsigned i = 1; i < NHARTS; i++) {
		assert_int_equal(harts[i].calls, 1);
		assert_int_equal(harts[i].last_cmd, CMD_HART_RECORD);
		assert_int_equal(state_of(i), HS_DONE);
	}
	assert_null(strstr(out, " missing "));
}

/* Hart 2 hangs in a later step: written off as hung with that step's name,
 * and the following steps run with harts 1 and 3 only. */
static void test_hung_in_step(void **state)
{
	static const enum role roles[NHARTS] = { PROMPT, PROMPT, HANG_ONCE, PROMPT };
	(void)state;

	start(roles);
	assert_int_equal(sync_first(), 0);
	rvm_lead_step(CMD_RUN_ALL, 3, "suite3");
	assert_int_equal(state_of(2), HS_HUNG);
	assert_missing("2/suite3");

	quick_step(CMD_RUN_ALL, 4, "suite4");
	end_run();

	assert_int_equal(hang_released, 0);
	assert_int_equal(harts[1].calls, 2);
	assert_int_equal(harts[3].calls, 2);
	assert_int_equal(harts[3].last_arg, 4);
	assert_int_equal(harts[2].calls, 1); /* parked once it found itself written off */
	assert_int_equal(state_of(1), HS_DONE);
	assert_int_equal(state_of(3), HS_DONE);
	assert_int_equal(state_of(2), HS_HUNG);
	assert_string_equal(rvm_state_name(rvm_hstate[2]), "hung");
	assert_missing("2/suite3");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_boot_late_and_never, setup),
		cmocka_unit_test_setup(test_boot_all_arrive, setup),
		cmocka_unit_test_setup(test_hung_in_step, setup),
	};
	alarm(20); /* a rendezvous that never ends fails the test instead of hanging it */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
