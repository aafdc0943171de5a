/*
 * t6006-package-corpus — every input the kernel-repository fuzzer keeps
 * (tests/fuzz/corpus-krepo: indexes and meta.json files, hostile ones
 * among them) is read through what `kernel list`, `search` and `pull` do
 * with a repository's bytes (kpkg, through krepo-harness) without a
 * crash, a leak or undefined behaviour (this test also runs in the
 * sanitizer build); the real ones (seed-*) are accepted, the hostile ones
 * (refuse-*) refused.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "krepo-harness.h"
#include "tap.h"

#ifndef IOA_FUZZ_KREPO_CORPUS
#error "IOA_FUZZ_KREPO_CORPUS must name the corpus directory"
#endif

/* The input at path, read whole (the corpus holds small files). */
static int replay_one(const char *path, unsigned long *items)
{
	static char data[1 << 20];
	FILE *f = fopen(path, "rb");
	size_t len;

	if (!f)
		return -1;
	len = fread(data, 1, sizeof(data), f);
	fclose(f);
	return krepo_harness_read(data, len, items);
}

int main(void)
{
	struct dirent **entries;
	int n = scandir(IOA_FUZZ_KREPO_CORPUS, &entries, NULL, alphasort), i;
	int inputs = 0, seeds = 0, seeds_ok = 0, hostile = 0, refused = 0;
	char path[4096];

	ok(n > 0, "the corpus %s can be listed", IOA_FUZZ_KREPO_CORPUS);
	for (i = 0; i < n; i++) {
		const char *name = entries[i]->d_name;
		unsigned long items = 0;
		int rc;

		if (name[0] == '.') {
			free(entries[i]);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", IOA_FUZZ_KREPO_CORPUS, name);
		rc = replay_one(path, &items);
		inputs++;
		if (!strncmp(name, "seed-", 5)) {
			seeds++;
			seeds_ok += rc == 0 && items > 0;
			if (rc || !items)
				tap_diag("%s: rc %d, %lu items", name, rc, items);
		} else if (!strncmp(name, "refuse-", 7)) {
			hostile++;
			refused += rc != 0;
			if (!rc)
				tap_diag("%s: accepted", name);
		}
		free(entries[i]);
	}
	if (n > 0)
		free(entries);
	ok(inputs >= 10, "all %d inputs were read without a crash", inputs);
	ok(seeds >= 2, "the corpus holds real indexes and meta.json files (%d)", seeds);
	is_int(seeds_ok, seeds, "every real one is accepted");
	ok(hostile >= 10, "the corpus holds hostile ones (%d)", hostile);
	is_int(refused, hostile, "every hostile one is refused");
	return tap_done();
}
