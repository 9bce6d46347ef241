/*
 * Fuzz target: a config file (key=value lines, docs/formats.md), as
 * `rvmess config IMAGE --file CFG -o OUT` applies it to an image.
 *
 * IMAGE is FUZZ_CFG_IMAGE, the config section of build/images/virt.elf
 * alone (fuzz.mk makes it), so the block is the one the firmware builds.
 *
 * When a file is accepted, the tool's own printout of the patched block
 * (`rvmess config OUT`) must be accepted in turn and give the same image
 * again: every value the tool prints, it reads back to the same bytes.
 */
#include "fuzz/fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd/cmds.h"

#ifndef FUZZ_CFG_IMAGE
#error "FUZZ_CFG_IMAGE (the image to patch) must be defined"
#endif

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
		fuzz_fail("cannot read %s", path);
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		fuzz_fail("cannot read %s", path);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The two images differ: name the first key whose printout differs. */
_Noreturn static void differ(const char *printed)
{
	char printed2[4200], out2[4200];
	unsigned char *a, *b;
	size_t alen, blen, i, line = 0;

	fuzz_path(printed2, sizeof(printed2), "printed2.cfg");
	fuzz_cmd(cmd_config, printed2, "config", fuzz_path(out2, sizeof(out2), "out2.elf"), (char *)NULL);
	a = slurp(printed, &alen);
	b = slurp(printed2, &blen);
	a[alen] = b[blen] = '\0';
	for (i = 0; i < alen && i < blen && a[i] == b[i]; i++)
		if (a[i] == '\n')
			line = i + 1;
	fuzz_fail("the tool's printout read back gives another block: '%.*s' became '%.*s'",
		  (int)strcspn((char *)a + line, "\n"), (char *)a + line,
		  (int)strcspn((char *)b + line, "\n"), (char *)b + line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char cfg[4200], out1[4200], printed[4200], out2[4200];
	unsigned char *a, *b;
	size_t alen, blen;
	int rc;

	static int base_ok;

	/* a base image without a readable block would refuse every input */
	if (!base_ok && (rc = fuzz_cmd(cmd_config, NULL, "config", FUZZ_CFG_IMAGE, (char *)NULL)) != 0)
		fuzz_fail("rvmess config cannot read the base image %s (status %d)", FUZZ_CFG_IMAGE, rc);
	base_ok = 1;
	fuzz_write(fuzz_path(cfg, sizeof(cfg), "in.cfg"), data, size);
	fuzz_path(out1, sizeof(out1), "out1.elf");
	remove(out1);
	if (fuzz_cmd(cmd_config, NULL, "config", FUZZ_CFG_IMAGE, "--file", cfg, "-o", out1, (char *)NULL) != 0)
		return 0;

	fuzz_path(printed, sizeof(printed), "printed.cfg");
	if ((rc = fuzz_cmd(cmd_config, printed, "config", out1, (char *)NULL)) != 0)
		fuzz_fail("rvmess config cannot print the image it wrote (status %d)", rc);
	fuzz_path(out2, sizeof(out2), "out2.elf");
	remove(out2);
	if ((rc = fuzz_cmd(cmd_config, NULL, "config", FUZZ_CFG_IMAGE, "--file", printed, "-o", out2,
			   (char *)NULL)) != 0)
		fuzz_fail("rvmess config refuses its own printout %s (status %d)", printed, rc);
	a = slurp(out1, &alen);
	b = slurp(out2, &blen);
	if (alen != blen || memcmp(a, b, alen) != 0)
		differ(printed);
	free(a);
	free(b);
	return 0;
}
