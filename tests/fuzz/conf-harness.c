/*
 * conf-harness — loads a settings file through ioa_conf_load() into a
 * table with a setting of every type, under the prefixes the tools use
 * (collector., analyze., warehouse.), as the tools do at start-up and on
 * SIGHUP.  Shared by the fuzzer and t0006, so what the fuzzer explored is
 * checked on every build, sanitizers included.
 */
#define _GNU_SOURCE
#include "conf-harness.h"

#include <stdlib.h>

#include "ioa_conf.h"

static char *quarantine, *conninfo;
static double rescan, share;
static long long batch;
static int follow;

static const struct ioa_setting settings[] = {
	{"collector.quarantine", IOA_SET_TEXT, &quarantine, "/q", "where bad logs go"},
	{"collector.rescan", IOA_SET_SECONDS, &rescan, "5m", "rescan period"},
	{"collector.batch", IOA_SET_COUNT, &batch, "100", "logs per batch"},
	{"collector.follow", IOA_SET_BOOL, &follow, "yes", "watch for new logs"},
	{"analyze.share", IOA_SET_NUMBER, &share, "0.25", "a fraction"},
	{"warehouse.conninfo", IOA_SET_TEXT, &conninfo, "", "libpq connection string"},
};
#define NSETTINGS (sizeof(settings) / sizeof(settings[0]))

int conf_harness_read(const char *path, unsigned long *items)
{
	struct ioa_buf err = IOA_BUF_INIT(1 << 16);
	int rc;

	setenv("IOATLAS_CONF", path, 1);
	rc = ioa_conf_load(settings, NSETTINGS, &err);
	*items = (unsigned long)(quarantine != NULL) + (conninfo != NULL) + (rescan >= 0) +
		 (share >= 0) + (batch >= 0) + (follow >= 0);
	ioa_conf_free(settings, NSETTINGS);
	ioa_buf_release(&err);
	return rc;
}
