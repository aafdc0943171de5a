/*
 * t0007-conf — the tools' site settings: defaults, the file, the
 * environment over both, other components' keys left alone, and clear
 * errors (file and line) for unknown keys and bad values.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ioa_conf.h"
#include "tap.h"

static char *quarantine, *conninfo;
static double rescan, share;
static long long batch, spill;
static int follow;

static const struct ioa_setting settings[] = {
	{"collector.quarantine", IOA_SET_TEXT, &quarantine, "/q", "where bad logs go"},
	{"collector.rescan", IOA_SET_SECONDS, &rescan, "5m", "rescan period"},
	{"collector.batch", IOA_SET_COUNT, &batch, "100", "logs per batch"},
	{"collector.follow", IOA_SET_BOOL, &follow, "yes", "watch for new logs"},
	{"collector.share", IOA_SET_NUMBER, &share, "0.25", "a fraction"},
	{"collector.spill", IOA_SET_SIZE, &spill, "64MiB", "a size"},
	{"warehouse.conninfo", IOA_SET_TEXT, &conninfo, "", "libpq connection string"},
};
#define N (sizeof(settings) / sizeof(settings[0]))

static char path[256];

static int load_with(const char *text, struct ioa_buf *err)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	fclose(f);
	ioa_buf_reset(err);
	ioa_conf_free(settings, N);
	return ioa_conf_load(settings, N, err);
}

int main(void)
{
	struct ioa_buf err = IOA_BUF_INIT(4096);
	char want[512];
	int fd;

	snprintf(path, sizeof(path), "/tmp/ioatlas-t0007-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		tap_skip_all("no temporary file");
	close(fd);
	setenv("IOATLAS_CONF", path, 1);
	unsetenv("IOATLAS_COLLECTOR_BATCH");
	tap_plan(28);

	is_int(load_with("", &err), 0, "an empty file loads");
	is_str(quarantine, "/q", "defaults apply");
	ok(rescan == 300, "a duration default in minutes is 300 s");
	is_int(batch, 100, "a count default");
	is_int(follow, 1, "a boolean default");
	ok(share == 0.25, "a number default");
	ok(spill == 64 << 20, "a size default in MiB");

	is_int(load_with("# site file\nlogdir = /lustre/logs  # the runtime's\n"
			 "memory = 8MiB\nreports.out = /srv/www\n"
			 "collector.quarantine = /var/q  \ncollector.rescan=2h\n"
			 "COLLECTOR.FOLLOW = off\nwarehouse.conninfo = service=ioatlas\n",
			 &err),
	       0, "a file with other components' keys loads");
	is_str(quarantine, "/var/q", "values are trimmed");
	ok(rescan == 7200, "2h is 7200 s");
	is_int(follow, 0, "keys are case-insensitive");
	is_str(conninfo, "service=ioatlas", "a value may hold '='");

	setenv("IOATLAS_COLLECTOR_BATCH", "7", 1);
	is_int(load_with("collector.batch = 50\n", &err), 0, "loads with the environment set");
	is_int(batch, 7, "the environment wins over the file");
	unsetenv("IOATLAS_COLLECTOR_BATCH");

	is_int(load_with("collector.batch = 50\ncollector.bach = 3\n", &err), -22,
	       "an unknown key under our prefix is refused");
	snprintf(want, sizeof(want), "%s:2: unknown setting 'collector.bach'", path);
	is_str(ioa_buf_str(&err), want, "it names file and line");
	is_int(load_with("collector.rescan = soon\n", &err), -22, "a bad duration is refused");
	ok(strstr(ioa_buf_str(&err), ":1: bad value for collector.rescan: 'soon' (a duration") !=
		   NULL,
	   "and the message says what a good one looks like");
	is_int(load_with("collector.batch\n", &err), -22, "a line without '=' is refused");
	is_int(load_with("collector.share = 1e-1\n", &err), 0, "a number in any C notation");
	ok(share == 0.1, "reads as written");
	is_int(load_with("collector.share = 0.5s\n", &err), -22, "a number takes no unit");
	is_int(load_with("collector.share = -1\n", &err), -22, "nor a sign");
	is_int(load_with("collector.spill = 1g\n", &err), 0, "a size in G");
	ok(spill == 1LL << 30, "is 2^30 bytes");
	is_int(load_with("collector.spill = 3 pages\n", &err), -22,
	       "a size in no unit we know is refused");
	ok(strstr(ioa_buf_str(&err), "(a size: 4096, 64k, 2MiB, 1G)") != NULL,
	   "and said how to write one");
	is_int(load_with("collector.spill = 99999999999T\n", &err), -22,
	       "a size past 2^63 is refused");

	ioa_conf_free(settings, N);
	ioa_buf_release(&err);
	unlink(path);
	return tap_done();
}
