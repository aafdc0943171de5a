/*
 * hist_detect — changes in a series of runs: where a metric of an
 * application's jobs (I/O time per byte, say) moved to another level and
 * stayed there, told apart from run-to-run noise (docs/history.md).
 *
 * The series is walked once, run by run.  At each run, the last `after`
 * runs are tested against up to `max_before` runs before them (at least
 * `min_before`, all after the previous change): a change is found when
 *   - the after runs rank above (or below) the runs before as rarely as p
 *     <= alpha, p being the exact one-sided permutation p-value of their
 *     rank sum (Mann-Whitney's test, ties at mid-ranks, every way of
 *     choosing `after` of the runs counted), so that the confidence stated
 *     is 1 - p;
 *   - their median is at least min_change (relative) away from the median
 *     before;
 *   - and each of the after runs at least min_z robust standard
 *     deviations of the runs before (1.4826 times their median absolute
 *     deviation) beyond their median: noisy runs move a median without a
 *     change; three slow runs in a row, each well outside the noise, do
 *     count as one (after = 3).
 * z is taken on the logarithms when every run's value is positive
 * (times and rates vary by factors).  When the latest runs moved, the
 * change begins at the split since the previous change that leaves both
 * parts most level (the least absolute deviation from each part's
 * median), and is tested again there: against the runs before it, with
 * the `after` runs from it.  A level that held for fewer than min_before
 * runs before the split was never known: the split starts the series
 * afresh and no change is reported.  The runs before a later change are
 * those from this one on.  Values that are not finite (a job without the
 * metric) are left out of the series.
 */
#ifndef HIST_DETECT_H
#define HIST_DETECT_H

#include <stddef.h>

struct hist_settings {
	size_t after;	   /* runs after a change that show it (1 to HIST_AFTER_MAX) */
	size_t min_before; /* runs before it, at least */
	size_t max_before; /* and at most (HIST_BEFORE_MAX) */
	double alpha;	   /* the largest p-value that counts */
	double min_change; /* |after / before - 1|, at least */
	double min_z;	   /* |after - before| / (1.4826 MAD before), at least */
};

#define HIST_AFTER_MAX	6
#define HIST_BEFORE_MAX 60

struct hist_change {
	size_t at;		/* index in the series of the first run after the change */
	size_t prev;		/* index of the last run before it */
	int up;			/* 1: the metric rose; 0: it fell */
	double before, after;	/* medians */
	size_t nbefore, nafter; /* runs compared */
	double p;		/* one-sided exact p-value */
};

/* Settings that detect nothing (after 0, min_before > max_before ...): -EINVAL. */
int hist_settings_check(const struct hist_settings *s);

/*
 * The changes in x[0..n), in order; *out is malloc'd (NULL when none).  0,
 * -EINVAL (settings), -ENOMEM.
 */
int hist_detect(const double *x, size_t n, const struct hist_settings *s, struct hist_change **out,
		size_t *nout);

/*
 * The exact one-sided p-value that na runs drawn at random from the na +
 * nb runs rank at least as high (up) or as low as after[] do against
 * before[].  na <= HIST_AFTER_MAX, nb <= HIST_BEFORE_MAX.
 */
double hist_rank_p(const double *before, size_t nb, const double *after, size_t na, int up);

#endif
