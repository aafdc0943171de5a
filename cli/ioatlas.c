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
#include "ioa_file.h"
#include "ioa_log.h"
#include "ioa_opts.h"

#ifndef IOATLAS_VERSION
#define IOATLAS_VERSION "unknown"
#endif

/* The directory holding ioatlas-VERB programs, from this binary's location. */
static int libexec_dir(struct ioa_buf *dir)
{
	char self[PATH_MAX];
	int rc = ioa_file_exe_dir(self, sizeof(self));

	return rc ? rc : ioa_buf_addf(dir, "%s/../libexec/ioatlas", self);
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
	static const struct option longs[] = {
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	struct ioa_buf dir = IOA_BUF_INIT(PATH_MAX), prog = IOA_BUF_INIT(PATH_MAX);
	const char *verb;
	int status = IOA_EXIT_USAGE, rc, c, help = 0;

	ioa_log_set_progname("ioatlas");
	rc = libexec_dir(&dir);
	if (rc) {
		ioa_error_rc(rc, "cannot find the ioatlas programs");
		goto out;
	}
	while ((c = ioa_getopt(argc, argv, "+hV", longs)) != -1) {
		if (c == 'V') {
			printf("ioatlas %s\n", IOATLAS_VERSION);
			status = IOA_EXIT_OK;
			goto out;
		}
		if (c != 'h') {
			fprintf(stderr, "usage: ioatlas [-h] [-V] VERB [ARGS...]\n");
			goto out;
		}
		help = 1;
	}
	verb = optind < argc ? argv[optind] : NULL;
	if (help || !verb || !strcmp(verb, "help")) {
		FILE *out = verb || help ? stdout : stderr;

		fprintf(out, "usage: ioatlas [-h] [-V] VERB [ARGS...]\n\nverbs:\n");
		list_verbs(out, dir.data);
		fprintf(out,
			"\n'ioatlas VERB --help' describes each; -V, --version: the version.\n");
		status = verb || help ? IOA_EXIT_OK : IOA_EXIT_USAGE;
		goto out;
	}
	if (strchr(verb, '/') || verb[0] == '.' ||
	    ioa_buf_addf(&prog, "%s/ioatlas-%s", dir.data, verb)) {
		ioa_error("'%s' is not an ioatlas verb; see 'ioatlas --help'", verb);
		goto out;
	}
	argv[optind] = prog.data;
	execv(prog.data, argv + optind);
	if (errno == ENOENT)
		ioa_error("'%s' is not an ioatlas verb; see 'ioatlas --help'", verb);
	else
		ioa_error_rc(-errno, "cannot run '%s'", prog.data);
out:
	ioa_buf_release(&dir);
	ioa_buf_release(&prog);
	return status;
}
