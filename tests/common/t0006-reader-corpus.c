/*
 * t0006-reader-corpus — every input the fuzzers kept (tests/fuzz/corpus:
 * logs; tests/fuzz/corpus-trace: raw trace regions; tests/fuzz/corpus-conf:
 * settings files) is read through the whole reader without a crash, a leak
 * or undefined behaviour (this test also runs in the sanitizer build), and
 * the real ones among them (seed-*) read cleanly.  The inputs that
 * reproduce the readers' past bugs are among them (tests/fuzz/README.md).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf-harness.h"
#include "logr-harness.h"
#include "tap.h"

#if !defined(IOA_FUZZ_CORPUS) || !defined(IOA_FUZZ_TRACE_CORPUS) || !defined(IOA_FUZZ_CONF_CORPUS)
#error "IOA_FUZZ_CORPUS, IOA_FUZZ_TRACE_CORPUS and IOA_FUZZ_CONF_CORPUS must name the corpora"
#endif

/* Replays every input of dir through read(); counts inputs, refusals and good seeds. */
static void replay(const char *dir, int (*read)(const char *path, unsigned long *items),
		   int *inputs, int *refused, int *seeds, int *seeds_ok)
{
	struct dirent **entries;
	int n = scandir(dir, &entries, NULL, alphasort), i;
	char path[4096];

	ok(n > 0, "the corpus %s can be listed", dir);
	for (i = 0; i < n; i++) {
		unsigned long items = 0;
		int rc;

		if (entries[i]->d_name[0] == '.') {
			free(entries[i]);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, entries[i]->d_name);
		rc = read(path, &items);
		++*inputs;
		*refused += rc != 0;
		if (!strncmp(entries[i]->d_name, "seed-", 5)) {
			++*seeds;
			if (rc == 0 && items > 0)
				++*seeds_ok;
			else
				tap_diag("%s: rc %d, %lu items", entries[i]->d_name, rc, items);
		}
		free(entries[i]);
	}
	if (n > 0)
		free(entries);
}

/* A raw trace region from a file, through the trace decoder. */
static int read_trace_file(const char *path, unsigned long *items)
{
	static char data[1 << 20];
	FILE *f = fopen(path, "rb");
	size_t len;

	if (!f)
		return -1;
	len = fread(data, 1, sizeof(data), f);
	fclose(f);
	return logr_harness_trace(data, len, items);
}

int main(void)
{
	int inputs = 0, seeds = 0, seeds_ok = 0, refused = 0;

	replay(IOA_FUZZ_CORPUS, logr_harness_read, &inputs, &refused, &seeds, &seeds_ok);
	ok(inputs >= 3, "all %d logs were read without a crash (%d refused)", inputs, refused);
	ok(seeds >= 3, "the corpus holds real logs (%d)", seeds);
	is_int(seeds_ok, seeds, "every real log reads cleanly");

	inputs = seeds = seeds_ok = refused = 0;
	replay(IOA_FUZZ_TRACE_CORPUS, read_trace_file, &inputs, &refused, &seeds, &seeds_ok);
	ok(inputs >= 2, "all %d trace regions were decoded without a crash (%d refused)", inputs,
	   refused);
	ok(seeds >= 2, "the trace corpus holds real traces (%d)", seeds);
	is_int(seeds_ok, seeds, "every real trace decodes and expands cleanly");

	inputs = seeds = seeds_ok = refused = 0;
	replay(IOA_FUZZ_CONF_CORPUS, conf_harness_read, &inputs, &refused, &seeds, &seeds_ok);
	ok(inputs >= 2, "all %d settings files were loaded without a crash (%d refused)", inputs,
	   refused);
	ok(seeds >= 2, "the settings corpus holds real files (%d)", seeds);
	is_int(seeds_ok, seeds, "every real settings file loads cleanly");
	return tap_done();
}
