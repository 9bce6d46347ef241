/*
 * build/bin/hostsim [options] IMAGE.elf  --  see docs/hostsim.md
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sim/sim.h"
#include "sim/timing.h"
#include "rvmess_version.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: hostsim [options] IMAGE.elf\n");
	sim_opts_print_help(f);
	fprintf(f,
	        "  --print-config     print every option in effect as --config lines and exit\n"
	        "  --dump-dtb FILE    write the device tree the image would get to FILE and exit\n"
	        "  --replay-mem TRACE send a --trace-mem trace through the memory model open loop,\n"
	        "                     print its bandwidth, read latency and counts, and exit (no IMAGE)\n"
	        "                     (no IMAGE needed; dtc -I dtb -O dts FILE shows it)\n"
	        "  --version          print the version and exit\n"
	        "exit status: the image's (finisher), %d unhandled trap, %d limit, %d reset request,\n"
	        "             %d bad option / config / ELF\n",
	        SIM_EXIT_TRAP, SIM_EXIT_LIMIT, SIM_EXIT_RESET, SIM_EXIT_USAGE);
	tm_print_options(f);
	fprintf(f, "(freq-ghz is not an option here: memsys gets the clock from --freq-mhz)\n");
}

int main(int argc, char **argv)
{
	struct sim_opts o;
	char err[512];
	const char *image = NULL, *dump_dtb = NULL, *replay = NULL;
	int print_config = 0;
	sim_opts_default(&o);

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(a, "--options-markdown")) { /* docs/hostsim.md's table (tools/gen-docs.sh) */
			sim_opts_print_markdown(stdout);
			return 0;
		}
		if (!strcmp(a, "--version")) {
			printf("hostsim %s\n", RVMESS_VERSION);
			return 0;
		}
		if (a[0] == '-' && a[1] == '-' && a[2]) {
			char key[64];
			const char *val = NULL, *eq = strchr(a + 2, '=');
			size_t kl = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
			if (kl >= sizeof(key)) {
				fprintf(stderr, "hostsim: unknown option '%s'\n", a);
				return SIM_EXIT_USAGE;
			}
			memcpy(key, a + 2, kl);
			key[kl] = 0;
			if (!strcmp(key, "print-config") && !eq) {
				print_config = 1;
				continue;
			}
			if (!strcmp(key, "dump-dtb") || !strcmp(key, "replay-mem")) {
				if (!eq && i + 1 >= argc) {
					fprintf(stderr, "hostsim: option --%s needs a value\n", key);
					return SIM_EXIT_USAGE;
				}
				const char *file = eq ? eq + 1 : argv[++i];
				if (!strcmp(key, "dump-dtb"))
					dump_dtb = file;
				else
					replay = file;
				continue;
			}
			int kind = sim_opts_kind(key);
			if (kind == SIM_OPT_UNKNOWN) {
				fprintf(stderr, "hostsim: unknown option '--%s' (hostsim --help lists them)\n", key);
				return SIM_EXIT_USAGE;
			}
			if (eq)
				val = eq + 1;
			else if (kind == SIM_OPT_VALUE) {
				if (i + 1 >= argc) {
					fprintf(stderr, "hostsim: option --%s needs a value\n", key);
					return SIM_EXIT_USAGE;
				}
				val = argv[++i];
			}
			if (!strcmp(key, "config")) {
				if (sim_opts_load_file(&o, val, err, sizeof(err))) {
					fprintf(stderr, "hostsim: %s\n", err);
					return SIM_EXIT_USAGE;
				}
				continue;
			}
			if (sim_opts_set(&o, key, val, err, sizeof(err))) {
				fprintf(stderr, "hostsim: %s\n", err);
				return SIM_EXIT_USAGE;
			}
			continue;
		}
		if (a[0] == '-' && a[1]) {
			fprintf(stderr, "hostsim: unknown option '%s'\n", a);
			return SIM_EXIT_USAGE;
		}
		if (image) {
			fprintf(stderr, "hostsim: more than one image ('%s' and '%s')\n", image, a);
			return SIM_EXIT_USAGE;
		}
		image = a;
	}
	if (print_config) {
		sim_opts_print(&o, stdout);
		if (tm_print_config(&o, stdout, err, sizeof(err))) {
			fprintf(stderr, "hostsim: %s\n", err);
			return SIM_EXIT_USAGE;
		}
		return fflush(stdout) ? 1 : 0;
	}
	if (replay) {
		if (image || dump_dtb) {
			fprintf(stderr, "hostsim: --replay-mem runs no image\n");
			return SIM_EXIT_USAGE;
		}
		if (tm_replay_mem(&o, replay, stdout, err, sizeof(err))) {
			fprintf(stderr, "hostsim: %s\n", err);
			return SIM_EXIT_USAGE;
		}
		return fflush(stdout) ? 1 : 0;
	}
	if (!image && !dump_dtb) {
		usage(stderr);
		return SIM_EXIT_USAGE;
	}

	static struct sim s;
	if (sim_init(&s, &o, err, sizeof(err))) {
		fprintf(stderr, "hostsim: %s\n", err);
		return SIM_EXIT_USAGE;
	}
	if (dump_dtb) {
		int rc = sim_dump_fdt(&s, dump_dtb, err, sizeof(err));
		if (rc)
			fprintf(stderr, "hostsim: %s: %s\n", dump_dtb, err);
		sim_free(&s);
		return rc ? 1 : 0;
	}
	if (sim_load_elf(&s, image, err, sizeof(err))) {
		fprintf(stderr, "hostsim: %s: %s\n", image, err);
		sim_free(&s);
		return SIM_EXIT_USAGE;
	}
	if (sim_mach_symbols(&s, image, err, sizeof(err))) {
		fprintf(stderr, "hostsim: %s: %s\n", image, err);
		sim_free(&s);
		return SIM_EXIT_USAGE;
	}
	if (sim_start(&s, err, sizeof(err))) {
		fprintf(stderr, "hostsim: %s: %s\n", image, err);
		sim_free(&s);
		return SIM_EXIT_USAGE;
	}
	FILE *con = NULL;
	if (s.opt.console) {
		con = fopen(s.opt.console, "wb");
		if (!con) {
			fprintf(stderr, "hostsim: %s: cannot open console file: %s\n", s.opt.console, strerror(errno));
			sim_free(&s);
			return SIM_EXIT_USAGE;
		}
		s.console = con;
	}
	if (s.opt.stamps && !(s.stamps = fopen(s.opt.stamps, "w"))) {
		fprintf(stderr, "hostsim: %s: cannot open stamps file: %s\n", s.opt.stamps, strerror(errno));
		if (con)
			fclose(con);
		sim_free(&s);
		return SIM_EXIT_USAGE;
	}
	static char conbuf[1 << 16];
	setvbuf(s.console, conbuf, _IOLBF, sizeof(conbuf)); /* whole lines, so a reader sees each record as it comes */

	int rc = sim_run(&s);
	if (s.opt.stats)
		sim_print_stats(&s, stderr);
	if (con && fclose(con) != 0) {
		fprintf(stderr, "hostsim: %s: write error\n", s.opt.console);
		if (rc == 0)
			rc = 1;
	}
	if (s.stamps && fclose(s.stamps) != 0) {
		fprintf(stderr, "hostsim: %s: write error\n", s.opt.stamps);
		if (rc == 0)
			rc = 1;
	}
	sim_free(&s);
	return rc;
}
