/*
 * t4102-phases — write phases read from time bins alone (a job without a
 * trace), bins of 0.5 s: phases a bin of quiet apart are found one by one;
 * two phases in adjacent bins, which the bins cannot tell from one phase,
 * are said too coarse to tell (the checkpoint analyses then say so rather
 * than count one checkpoint short); a phase straddling two bins with a
 * longer quiet around it is no doubt.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "tap.h"

#define RANKS 4
#define BIN   0.5

/* Phases: each a run of bins (first, count); every rank writes 256 KiB a bin in them. */
struct shape {
	const char *what;
	unsigned bins[8][2];
	size_t nphases;
	size_t expect_phases;
	int expect_coarse;
};

static void check(const struct shape *s, const struct an_settings *set)
{
	struct an_wbin bins[64];
	char name[] = "/scratch/run/checkpoint";
	struct an_file file = {.id = 1, .name = name};
	struct an_job job;
	struct an_phases ph;
	size_t n = 0, i;

	for (i = 0; i < s->nphases; i++)
		for (unsigned b = s->bins[i][0]; b < s->bins[i][0] + s->bins[i][1]; b++)
			for (int32_t r = 0; r < RANKS; r++)
				bins[n++] = (struct an_wbin){
					b * BIN, (b + 1) * BIN, r, 0, 262144, 4, 0};
	memset(&job, 0, sizeof(job));
	job.nprocs = RANKS;
	job.seconds = 16 * BIN;
	job.files = &file;
	job.nfiles = 1;
	job.wbins = bins;
	job.nwbins = n;
	if (!ok(an_write_phases(&job, set, &ph) == 0, "%s: read", s->what))
		return;
	is_str(ph.source, "time bins", "%s: from the time bins", s->what);
	is_int((long long)ph.n, (long long)s->expect_phases, "%s: %zu phases", s->what,
	       s->expect_phases);
	is_int(ph.coarse, s->expect_coarse, "%s: %s", s->what,
	       s->expect_coarse ? "too coarse to tell, and said so" : "no doubt");
	an_phases_free(&ph);
}

int main(void)
{
	static const struct shape shapes[] = {
		{"four phases a bin apart", {{2, 1}, {4, 1}, {6, 1}, {8, 1}}, 4, 4, 0},
		{"two of them in adjacent bins", {{2, 1}, {4, 1}, {5, 1}, {7, 1}}, 4, 3, 1},
		{"one over two bins, three bins of quiet around",
		 {{1, 1}, {4, 2}, {9, 1}, {13, 1}},
		 4,
		 4,
		 0},
	};
	struct an_settings set;
	struct ioa_buf err = {0};

	setenv("IOATLAS_CONF", "/dev/null", 1);
	if (!ok(an_settings_load(&set, &err) == 0, "the default settings load"))
		return tap_done();
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		check(&shapes[i], &set);
	an_settings_free(&set);
	ioa_buf_release(&err);
	return tap_done();
}
