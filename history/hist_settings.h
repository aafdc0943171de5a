/*
 * hist_settings — the site's settings of the history tools (history.*,
 * ioatlas.conf(5)): how changes are told from noise (hist_detect.h), how
 * many runs of an application are looked at, and the command that hears
 * of each change found.
 */
#ifndef HIST_SETTINGS_H
#define HIST_SETTINGS_H

#include "hist_detect.h"
#include "ioa_buf.h"
#include "ioa_db.h"

struct hist_site {
	struct ioa_db_settings db; /* the warehouse.* settings */
	struct hist_settings detect;
	long long runs;	     /* an application's latest runs looked at for changes */
	double min_seconds;  /* I/O times below this are noise (history_metric_value()) */
	char *hook;	     /* a shell command run once per change found ("": none) */
	double hook_timeout; /* seconds the hook may take */
};

/* 0, or -EINVAL with the reason in err. */
int hist_site_load(struct hist_site *s, struct ioa_buf *err);
void hist_site_free(struct hist_site *s);

#endif
