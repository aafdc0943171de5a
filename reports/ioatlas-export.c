/*
 * ioatlas export — a log (ioatlas's or Darshan's) or a warehouse job as a
 * Darshan log that darshan-parser, PyDarshan and the tools built on them
 * read (docs/darshan.md), optionally anonymized under the site's key:
 *
 *	ioatlas export --darshan [--anonymize] [--key-file FILE] [-o OUT] LOG|JOB_ID
 *
 * A job id is a job of the warehouse, read with the running user's rights
 * there (wh_log.h); a file of that name is the log it names.  OUT defaults
 * to LOG's name (job-ID) with .darshan in the current folder; it is written
 * whole or not at all (ioa_file), mode 0600.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ioa_anon.h"
#include "ioa_buf.h"
#include "ioa_conf.h"
#include "ioa_darshan.h"
#include "ioa_db.h"
#include "ioa_file.h"
#include "ioa_log.h"
#include "ioa_logr.h"
#include "ioa_opts.h"
#include "ioa_parse.h"
#include "wh_log.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ioatlas export --darshan [--anonymize] [--key-file FILE] [-o OUT] "
		"LOG|JOB_ID\n"
		"\n"
		"  LOG              a log file, ioatlas's or Darshan's\n"
		"  JOB_ID           a job of the warehouse (setting warehouse.conninfo)\n"
		"  --darshan        write a Darshan log (format 3.41), which darshan-parser reads\n"
		"  --anonymize      replace paths, user, uid, executable and arguments by keyed\n"
		"                   tokens (the same in every job; irreversible without the key)\n"
		"  --key-file FILE  the site's key (default: the setting export.key_file)\n"
		"  -o, --output OUT where to write (default: LOG's name, or job-JOB_ID, with\n"
		"                   .darshan, here)\n");
}

/* Job id of the warehouse as a log in a memory file, opened with the reader. */
static int open_job(const char *conninfo, int64_t id, struct ioa_log_reader *r, struct ioa_buf *err)
{
	PGconn *conn = ioa_db_connect(conninfo, "ioatlas export", err);
	int fd, rc;

	if (!conn)
		return -EIO;
	fd = memfd_create("ioatlas-export", MFD_CLOEXEC);
	if (fd < 0) {
		ioa_buf_addf(err, "cannot make a memory file: %s", strerror(errno));
		PQfinish(conn);
		return -EIO;
	}
	rc = wh_job_log(conn, id, fd, err);
	PQfinish(conn);
	if (rc) {
		close(fd);
		return rc;
	}
	rc = ioa_logr_open_fd(r, fd);
	if (rc)
		ioa_buf_addf(err, "cannot read job %" PRId64 " as a log: %s", id,
			     ioa_logr_error(r));
	return rc;
}

static int write_buf(FILE *out, void *arg)
{
	const struct ioa_buf *b = arg;

	return fwrite(b->data, 1, b->len, out) == b->len ? 0 : -EIO;
}

/* LOG's file name, its .ioa or .darshan ending replaced by .darshan. */
static int default_output(const char *log, struct ioa_buf *out)
{
	const char *base = strrchr(log, '/') ? strrchr(log, '/') + 1 : log;
	size_t len = strlen(base);

	if (len > 4 && !strcmp(base + len - 4, ".ioa"))
		len -= 4;
	else if (len > 8 && !strcmp(base + len - 8, ".darshan"))
		len -= 8;
	return ioa_buf_addf(out, "%.*s.darshan", (int)len, base);
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{"darshan", no_argument, NULL, 'd'},
		{"anonymize", no_argument, NULL, 'a'},
		{"key-file", required_argument, NULL, 'k'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static char *key_setting;
	static struct ioa_db_settings db;
	static const struct ioa_setting settings[] = {
		{"export.key_file", IOA_SET_TEXT, &key_setting, "",
		 "the site's key for anonymized exports"},
		IOA_DB_SETTINGS(&db),
	};
	struct ioa_buf err = IOA_BUF_INIT(4096), output = IOA_BUF_INIT(8192);
	struct ioa_buf out = IOA_BUF_INIT((size_t)4 << 30);
	const char *key_file = NULL, *log;
	struct ioa_log_reader r;
	struct ioa_anon anon;
	struct stat in_st, out_st;
	char error[256];
	int darshan = 0, anonymize = 0, c, rc;
	int64_t job = 0;

	ioa_log_set_progname("ioatlas export");
	while ((c = ioa_getopt(argc, argv, "o:h", options)) != -1) {
		switch (c) {
		case 'd':
			darshan = 1;
			break;
		case 'a':
			anonymize = 1;
			break;
		case 'k':
			key_file = optarg;
			break;
		case 'o':
			ioa_buf_reset(&output);
			if (ioa_buf_addstr(&output, optarg))
				return 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return IOA_EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || !darshan) {
		if (!darshan && optind == argc - 1)
			ioa_error("say which format: --darshan");
		usage(stderr);
		return IOA_EXIT_USAGE;
	}
	log = argv[optind];
	if (ioa_conf_load(settings, 2, &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		return 1;
	}
	if (!key_file && key_setting[0])
		key_file = key_setting;
	if (key_file && !anonymize) {
		ioa_error("a key without --anonymize: nothing would be anonymized");
		return IOA_EXIT_USAGE;
	}
	if (anonymize && !key_file) {
		ioa_error("--anonymize needs the site's key: --key-file FILE or export.key_file");
		return IOA_EXIT_USAGE;
	}
	if (anonymize && ioa_anon_load_key(&anon, key_file, &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		return 1;
	}
	/* A number that names no file is a job of the warehouse. */
	if (!ioa_parse_i64(log, &job) && job > 0 && access(log, F_OK)) {
		if (!output.len && ioa_buf_addf(&output, "job-%" PRId64 ".darshan", job))
			return 1;
		rc = open_job(db.conninfo, job, &r, &err);
		if (rc) {
			ioa_error("%s", ioa_buf_str(&err));
			return 1;
		}
	} else {
		if (!output.len && default_output(log, &output))
			return 1;
		job = 0;
		rc = ioa_logr_open_any(&r, log);
		if (rc) {
			ioa_error("cannot read log '%s': %s", log, ioa_logr_error(&r));
			return 1;
		}
	}
	/* Never over the log itself. */
	if (!stat(log, &in_st) && !stat(output.data, &out_st) && in_st.st_dev == out_st.st_dev &&
	    in_st.st_ino == out_st.st_ino) {
		ioa_error("cannot write '%s': it is the log being exported", output.data);
		ioa_logr_close(&r);
		return 1;
	}
	rc = ioa_darshan_export(&r, anonymize ? &anon : NULL, &out, error, sizeof(error));
	ioa_logr_close(&r);
	if (anonymize)
		ioa_anon_clear(&anon);
	if (rc) {
		ioa_error("cannot export log '%s': %s", log, error);
		return 1;
	}
	rc = ioa_file_write(output.data, 0600, (uid_t)-1, (gid_t)-1, write_buf, &out);
	if (rc) {
		ioa_error("cannot write '%s': %s", output.data, ioa_strerror(rc));
		return 1;
	}
	ioa_buf_release(&out);
	ioa_buf_release(&output);
	ioa_buf_release(&err);
	ioa_conf_free(settings, 2);
	return 0;
}
