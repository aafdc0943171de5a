/*
 * ioatlas nightly — the site's nightly batch, one step after the other:
 * the log tree's backlog ingested (ioatlasd --once), the new users' own
 * database roles made (ioatlas warehouse users: they then reach their jobs
 * by peer authentication), the new jobs analysed (ioatlas analyze), the
 * applications with new runs looked at for changes (ioatlas history
 * --update: regressions, improvements, the site's hook), the top programs' kernels
 * published (ioatlas kernel nightly), and the dashboard written (ioatlas dashboard).  Each step is
 * the program that does it, run from this installation; a step that fails
 * is said and the next ones still run; the exit status is 1 if any failed.
 * Which steps run and where the dashboard goes are site settings
 * (nightly.*); each program reads its own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ioa_conf.h"
#include "ioa_file.h"
#include "ioa_log.h"
#include "ioa_opts.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ioatlas nightly [-s LIST] [-d DIR]\n"
		"\n"
		"  -s, --steps LIST     the steps to run (default: the nightly.steps setting)\n"
		"  -d, --dashboard DIR  where the dashboard step writes\n"
		"  -h, --help           this help\n"
		"\n"
		"Runs the nightly batch: ingest (ioatlasd --once), users (ioatlas warehouse\n"
		"users), analyze (ioatlas analyze), history (ioatlas history --update), kernels\n"
		"(ioatlas kernel nightly), dashboard\n"
		"(ioatlas dashboard --out DIR), in that order, those of LIST only (names\n"
		"separated by commas or blanks).  A step that fails is said and the others\n"
		"still run; exits 1 if one failed.\n"
		"\n"
		"Settings (ioatlas.conf(5)): nightly.steps, nightly.dashboard_out; each step's\n"
		"program reads its own (collector.*, warehouse.*, analyze.*, kernel.*,\n"
		"history.*, dashboard.*).\n");
}

/* Runs argv and waits: 0, or the exit status (128 + signal when killed). */
static int run(char *const argv[])
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		execv(argv[0], argv);
		fprintf(stderr, "ioatlas nightly: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Whether a step is in the list (names separated by commas or blanks). */
static int listed(const char *list, const char *step)
{
	size_t n = strlen(step);
	const char *p = list;

	while ((p = strstr(p, step))) {
		if ((p == list || strchr(", \t", p[-1])) && strchr(", \t", p[n]))
			return 1;
		p += n;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const names[] = {"ingest",  "users",	  "analyze",
					    "history", "kernels", "dashboard"};
	static char *steps, *dashboard;
	static const struct ioa_setting settings[] = {
		{"nightly.steps", IOA_SET_TEXT, &steps,
		 "ingest users analyze history kernels dashboard",
		 "the steps the nightly batch runs: ingest, users, analyze, history, kernels, "
		 "dashboard"},
		{"nightly.dashboard_out", IOA_SET_TEXT, &dashboard, "",
		 "the folder (a web root) the dashboard is written into"},
	};
	const size_t nsettings = sizeof(settings) / sizeof(settings[0]);
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	char dir[PATH_MAX], prog[PATH_MAX + 64];
	int c, failed = 0, status = IOA_EXIT_USAGE;
	size_t i, k;
	static const struct option longs[] = {
		{"steps", required_argument, NULL, 's'},
		{"dashboard", required_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};

	ioa_log_set_progname("ioatlas nightly");
	if (ioa_conf_load(settings, nsettings, &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		ioa_buf_release(&err);
		return IOA_EXIT_FAIL;
	}
	while ((c = ioa_getopt(argc, argv, "s:d:h", longs)) != -1) {
		char **text = c == 's' ? &steps : c == 'd' ? &dashboard : NULL;

		if (c == 'h') {
			usage(stdout);
			status = IOA_EXIT_OK;
			goto out;
		}
		if (!text) {
			usage(stderr);
			goto out;
		}
		free(*text);
		if (!(*text = strdup(optarg))) {
			ioa_error("out of memory");
			status = IOA_EXIT_FAIL;
			goto out;
		}
	}
	if (optind != argc) {
		ioa_error("no operand expected: '%s'", argv[optind]);
		usage(stderr);
		goto out;
	}
	/* Every name in the list is a step: a typo runs nothing rather than less. */
	for (i = 0; steps[i]; i += k ? k : 1) {
		size_t j;

		k = strcspn(steps + i, ", \t");
		for (j = 0; k && j < sizeof(names) / sizeof(names[0]); j++)
			if (strlen(names[j]) == k && !strncmp(steps + i, names[j], k))
				break;
		if (k && j == sizeof(names) / sizeof(names[0])) {
			ioa_error("nightly.steps: no step '%.*s' (ingest, users, analyze, history, "
				  "kernels, dashboard)",
				  (int)k, steps + i);
			goto out;
		}
	}
	if (listed(steps, "dashboard") && !*dashboard) {
		ioa_error(
			"the dashboard step needs a folder: nightly.dashboard_out or --dashboard");
		goto out;
	}
	if (ioa_file_exe_dir(dir, sizeof(dir))) {
		ioa_error("cannot find the ioatlas programs");
		status = IOA_EXIT_FAIL;
		goto out;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *cmd[5] = {prog, NULL, NULL, NULL, NULL};
		struct timespec t0, t1;
		int rc;

		if (!listed(steps, names[i]))
			continue;
		switch (i) {
		case 0:
			snprintf(prog, sizeof(prog), "%s/../../sbin/ioatlasd", dir);
			cmd[1] = "--once";
			break;
		case 1:
			snprintf(prog, sizeof(prog), "%s/ioatlas-warehouse", dir);
			cmd[1] = "users";
			break;
		case 2:
			snprintf(prog, sizeof(prog), "%s/ioatlas-analyze", dir);
			break;
		case 3:
			snprintf(prog, sizeof(prog), "%s/ioatlas-history", dir);
			cmd[1] = "--update";
			break;
		case 4:
			snprintf(prog, sizeof(prog), "%s/ioatlas-kernel", dir);
			cmd[1] = "nightly";
			break;
		default:
			snprintf(prog, sizeof(prog), "%s/ioatlas-dashboard", dir);
			cmd[1] = "--out";
			cmd[2] = dashboard;
			break;
		}
		printf("ioatlas nightly: %s ...\n", names[i]);
		fflush(stdout);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		rc = run(cmd);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (rc) {
			ioa_error("%s failed (%s %d), the next steps still run", names[i],
				  rc > 128 ? "signal" : "status", rc > 128 ? rc - 128 : rc);
			failed++;
		} else {
			printf("ioatlas nightly: %s done in %.1f s\n", names[i],
			       (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
		}
		fflush(stdout);
	}
	printf("ioatlas nightly: %s\n", failed ? "some steps failed" : "all steps done");
	status = failed ? IOA_EXIT_FAIL : IOA_EXIT_OK;
out:
	ioa_conf_free(settings, nsettings);
	ioa_buf_release(&err);
	return status;
}
