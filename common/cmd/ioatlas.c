/*
 * ioatlas — the one command, git-style: `ioatlas VERB [ARGS...]` runs the
 * program ioatlas-VERB from the libexec directory beside this binary
 * (../libexec/ioatlas/, the same layout in the build tree and once
 * installed), so each component ships its own verbs.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ioa_buf.h"
#include "ioa_log.h"

#ifndef IOATLAS_VERSION
#define IOATLAS_VERSION "unknown"
#endif

/* The directory holding ioatlas-VERB programs, from this binary's location. */
static int libexec_dir(struct ioa_buf *dir)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n <= 0)
		return -errno;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	return ioa_buf_addf(dir, "%s/../libexec/ioatlas", self);
}

static void list_verbs(FILE *out, const char *dir)
{
	struct dirent **entries;
	int n = scandir(dir, &entries, NULL, alphasort), i;

	for (i = 0; i < n; i++) {
		if (!strncmp(entries[i]->d_name, "ioatlas-", 8))
			fprintf(out, "   %s\n", entries[i]->d_name + 8);
		free(entries[i]);
	}
	if (n >= 0)
		free(entries);
}

int main(int argc, char **argv)
{
	struct ioa_buf dir = IOA_BUF_INIT(PATH_MAX), prog = IOA_BUF_INIT(PATH_MAX);
	int rc;

	ioa_log_set_progname("ioatlas");
	rc = libexec_dir(&dir);
	if (rc) {
		ioa_error_rc(rc, "cannot find the ioatlas programs");
		return 2;
	}
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		FILE *out = argc < 2 ? stderr : stdout;

		fprintf(out, "usage: ioatlas VERB [ARGS...]\n\nverbs:\n");
		list_verbs(out, dir.data);
		fprintf(out, "\n'ioatlas VERB --help' describes each.\n");
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("ioatlas %s\n", IOATLAS_VERSION);
		return 0;
	}
	if (strchr(argv[1], '/') || argv[1][0] == '.' ||
	    ioa_buf_addf(&prog, "%s/ioatlas-%s", dir.data, argv[1])) {
		ioa_error("'%s' is not an ioatlas verb; see 'ioatlas --help'", argv[1]);
		return 2;
	}
	argv[1] = prog.data;
	execv(prog.data, argv + 1);
	if (errno == ENOENT)
		ioa_error("'%s' is not an ioatlas verb; see 'ioatlas --help'",
			  argv[1] + dir.len + 9);
	else
		ioa_error_rc(-errno, "cannot run '%s'", prog.data);
	return 2;
}
