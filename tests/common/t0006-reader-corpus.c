/*
 * t0006-reader-corpus — every input the fuzzer kept (tests/fuzz/corpus) is
 * read through the whole reader without a crash, a leak or undefined
 * behaviour (this test also runs in the sanitizer build), and the real logs
 * among them (seed-*) read cleanly.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logr-harness.h"
#include "tap.h"

#ifndef IOA_FUZZ_CORPUS
#error "IOA_FUZZ_CORPUS must name the corpus directory"
#endif

int main(void)
{
	struct dirent **entries;
	int n = scandir(IOA_FUZZ_CORPUS, &entries, NULL, alphasort), i;
	int inputs = 0, seeds = 0, seeds_ok = 0, refused = 0;
	char path[4096];

	ok(n > 0, "the corpus %s can be listed", IOA_FUZZ_CORPUS);
	for (i = 0; i < n; i++) {
		unsigned long items = 0;
		int rc;

		if (entries[i]->d_name[0] == '.') {
			free(entries[i]);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", IOA_FUZZ_CORPUS, entries[i]->d_name);
		rc = logr_harness_read(path, &items);
		inputs++;
		refused += rc != 0;
		if (!strncmp(entries[i]->d_name, "seed-", 5)) {
			seeds++;
			if (rc == 0 && items > 0)
				seeds_ok++;
			else
				tap_diag("%s: rc %d, %lu items", entries[i]->d_name, rc, items);
		}
		free(entries[i]);
	}
	if (n > 0)
		free(entries);
	ok(inputs >= 3, "all %d inputs were read without a crash (%d refused)", inputs, refused);
	ok(seeds >= 3, "the corpus holds real logs (%d)", seeds);
	is_int(seeds_ok, seeds, "every real log reads cleanly");
	return tap_done();
}
