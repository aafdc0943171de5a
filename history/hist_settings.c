/*
 * hist_settings — the history tools' site settings (hist_settings.h).
 */
#include "hist_settings.h"

#include <errno.h>

#include "ioa_conf.h"

/* The detection's counts as the settings hold them, before they are checked. */
struct counts {
	long long after, min_before, max_before;
};

#define SETTINGS_TABLE(s, c)                                                                    \
	{                                                                                       \
		IOA_DB_SETTINGS(&(s)->db),                                                      \
			{"history.after", IOA_SET_COUNT, &(c)->after, "3",                      \
			 "runs after a change that must show it (1 to 6)"},                     \
			{"history.min_before", IOA_SET_COUNT, &(c)->min_before, "10",           \
			 "runs before a change it is compared with, at least"},                 \
			{"history.max_before", IOA_SET_COUNT, &(c)->max_before, "30",           \
			 "and at most (up to 60)"},                                             \
			{"history.alpha", IOA_SET_NUMBER, &(s)->detect.alpha, "0.005",          \
			 "the largest p-value of the rank test that counts as a change"},       \
			{"history.min_change", IOA_SET_NUMBER, &(s)->detect.min_change, "0.25", \
			 "a change moves the median by this share of it, at least"},            \
			{"history.min_z", IOA_SET_NUMBER, &(s)->detect.min_z, "3",              \
			 "and by this many robust standard deviations of the runs before"},     \
			{"history.runs", IOA_SET_COUNT, &(s)->runs, "200",                      \
			 "an application's latest runs looked at for changes"},                 \
			{"history.min_seconds", IOA_SET_SECONDS, &(s)->min_seconds, "0.01",     \
			 "I/O time per rank below this is noise: no time per byte or "          \
			 "bandwidth, and metadata time counts as this"},                        \
			{"history.hook", IOA_SET_TEXT, &(s)->hook, "",                          \
			 "a shell command run once per change found, told of it in "            \
			 "IOATLAS_CHANGE_* variables (empty: none)"},                           \
			{"history.hook_timeout", IOA_SET_SECONDS, &(s)->hook_timeout, "60",     \
			 "how long the hook may run before it is killed"},                      \
	}

int hist_site_load(struct hist_site *s, struct ioa_buf *err)
{
	struct counts c;
	const struct ioa_setting table[] = SETTINGS_TABLE(s, &c);
	int rc = ioa_conf_load(table, sizeof(table) / sizeof(table[0]), err);

	if (rc)
		return rc;
	s->detect.after = (size_t)c.after;
	s->detect.min_before = (size_t)c.min_before;
	s->detect.max_before = (size_t)c.max_before;
	if (hist_settings_check(&s->detect)) {
		ioa_buf_addf(err,
			     "history.* settings detect nothing: after must be 1 to %d, "
			     "min_before 1 to max_before, max_before at most %d, alpha "
			     "between 0 and 1",
			     HIST_AFTER_MAX, HIST_BEFORE_MAX);
		return -EINVAL;
	}
	if (s->runs < (long long)(c.after + c.min_before)) {
		ioa_buf_addstr(err, "history.runs must hold at least history.after + "
				    "history.min_before runs");
		return -EINVAL;
	}
	return 0;
}

void hist_site_free(struct hist_site *s)
{
	struct counts c;
	const struct ioa_setting table[] = SETTINGS_TABLE(s, &c);

	ioa_conf_free(table, sizeof(table) / sizeof(table[0]));
}
