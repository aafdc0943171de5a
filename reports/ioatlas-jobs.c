/*
 * ioatlas jobs — the jobs of the user who runs it: id, program, when, I/O
 * time share and top finding, from the warehouse, or from the user's own
 * logs in the log tree when the warehouse is out of reach (through the
 * set-group-ID helper own-logs: users may not list the day folders).
 *
 * Who the user is comes from the system, never from an argument: the
 * warehouse knows them by the role PostgreSQL's peer authentication (or
 * gss) gives their connection, and its row-level security shows that role
 * its own jobs only; the log tree by the owner of each log file.
 * docs/reports.md, "Your jobs".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analyze.h"
#include "ioa_conf.h"
#include "ioa_db.h"
#include "ioa_file.h"
#include "ioa_log.h"
#include "ioa_opts.h"
#include "ioa_parse.h"
#include "report.h"

#ifndef IOATLAS_LOGDIR
#define IOATLAS_LOGDIR "/var/log/ioatlas"
#endif

/* One job, as listed. */
struct row {
	char *id;		  /* the warehouse's job id, or the log's path */
	char *sched;		  /* the batch system's job id ("" when none) */
	char *user;		  /* the job's owner */
	char *program;		  /* the executable's path */
	int64_t start;		  /* seconds since the epoch */
	double seconds, io_share; /* io_share < 0: not analysed */
	int64_t ranks;
	char *code, *text; /* the top finding, NULL when none */
};

struct list {
	struct row *rows;
	size_t n;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ioatlas jobs [-d DAYS] [-n COUNT] [-a | -u USER] [-l] [-j]\n"
		"\n"
		"Lists your jobs, the latest first: the id to give `ioatlas report`, the\n"
		"batch job, when it started and ran, its ranks, the share of its time in I/O,\n"
		"its program and its top finding.  You are who the system says you are: the\n"
		"warehouse shows you your own jobs only.\n"
		"  -d, --days DAYS    jobs started in the last DAYS days (default 30)\n"
		"  -n, --limit COUNT  at most COUNT jobs (default 50)\n"
		"  -a, --all          every user's jobs you may see (site staff)\n"
		"  -u, --user USER    USER's jobs (site staff)\n"
		"  -l, --logs         from your logs in the log tree, not the warehouse (also\n"
		"                     when the warehouse is out of reach); the job is the log\n"
		"  -j, --json         as JSON\n"
		"  -h, --help         this help\n"
		"\n"
		"Settings (ioatlas.conf(5)): warehouse.conninfo, logdir, analyze.*.\n");
}

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

static void row_free(struct row *r)
{
	free(r->id);
	free(r->sched);
	free(r->user);
	free(r->program);
	free(r->code);
	free(r->text);
}

static struct row *row_add(struct list *l)
{
	struct row *more = realloc(l->rows, (l->n + 1) * sizeof(*more));

	if (!more)
		return NULL;
	l->rows = more;
	memset(&more[l->n], 0, sizeof(*more));
	return &more[l->n++];
}

/* ------------------------------------------------------------ the warehouse */

static int from_warehouse(PGconn *conn, const char *days, const char *limit, const char *user,
			  struct list *l, struct ioa_buf *err)
{
	static const char sql[] =
		"SELECT j.id, coalesce(j.job_id, ''), u.name, e.display, "
		"extract(epoch FROM j.start_time)::bigint, "
		"coalesce(extract(epoch FROM j.end_time - j.start_time), 0), j.nprocs, "
		"a.result->>'io_share_of_run', a.result->'findings'->0->>'code', "
		"a.result->'findings'->0->>'text' "
		"FROM jobs j JOIN users u ON u.id = j.user_id "
		"JOIN executables e ON e.id = j.exe_id " REPORT_SQL_JOIN_INSIGHTS
		"WHERE j.start_time >= now() - make_interval(days => $1::integer) "
		"AND ($3 = '' OR u.name = $3) "
		"ORDER BY j.start_time DESC, j.id DESC LIMIT $2::integer";
	PGresult *res = ioa_db_query(conn, sql, 3, (const char *const[]){days, limit, user}, err,
				     NULL, NULL);
	int i;

	if (!res)
		return -EIO;
	for (i = 0; i < PQntuples(res); i++) {
		struct row *r = row_add(l);

		if (!r) {
			PQclear(res);
			return -ENOMEM;
		}
		r->id = strdup(PQgetvalue(res, i, 0));
		r->sched = strdup(PQgetvalue(res, i, 1));
		r->user = strdup(PQgetvalue(res, i, 2));
		r->program = strdup(PQgetvalue(res, i, 3));
		ioa_parse_i64(PQgetvalue(res, i, 4), &r->start);
		r->seconds = strtod(PQgetvalue(res, i, 5), NULL);
		ioa_parse_i64(PQgetvalue(res, i, 6), &r->ranks);
		r->io_share = PQgetisnull(res, i, 7) ? -1 : strtod(PQgetvalue(res, i, 7), NULL);
		if (!PQgetisnull(res, i, 8)) {
			r->code = strdup(PQgetvalue(res, i, 8));
			r->text = dup_or_empty(PQgetvalue(res, i, 9));
		}
	}
	PQclear(res);
	return 0;
}

/*
 * Whom the warehouse took the connection for, and whether that role may
 * see any job: its own (ioatlas_user) or everyone's (ioatlas_reader).
 */
static int check_role(PGconn *conn, struct ioa_buf *err)
{
	PGresult *res = ioa_db_query(
		conn,
		"SELECT session_user, pg_has_role(session_user, 'ioatlas_user', 'USAGE') OR "
		"pg_has_role(session_user, 'ioatlas_reader', 'USAGE')",
		0, NULL, err, NULL, NULL);
	int rc = 0;

	if (!res)
		return -EIO;
	if (strcmp(PQgetvalue(res, 0, 1), "t")) {
		ioa_buf_addf(err,
			     "the warehouse took you for role '%s', which may see no jobs: your "
			     "own role is made once your first job is in the warehouse (the "
			     "nightly's users step, or `ioatlas warehouse users`)",
			     PQgetvalue(res, 0, 0));
		rc = -EACCES;
	}
	PQclear(res);
	return rc;
}

/* ------------------------------------------------------------ the log tree */

/* The paths own-logs prints (NUL-separated), in paths[]; 0 or -errno. */
static int own_logs(const char *days, const char *logdir, char ***paths, size_t *n,
		    struct ioa_buf *err)
{
	char dir[PATH_MAX], prog[PATH_MAX + 16], *buf = NULL;
	size_t len = 0, cap = 0, i;
	int fds[2], status, rc = 0;
	pid_t pid;

	*paths = NULL;
	*n = 0;
	/* own-logs is beside this program, in libexec/ioatlas. */
	if (ioa_file_exe_dir(dir, sizeof(dir)))
		return -ENOENT;
	snprintf(prog, sizeof(prog), "%s/own-logs", dir);
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(fds[0]);
		close(fds[1]);
		return rc;
	}
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		execl(prog, "own-logs", days, logdir, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		ssize_t got;

		if (len + 4096 > cap) {
			char *more = realloc(buf, cap + 65536);

			if (!more) {
				rc = -ENOMEM;
				break;
			}
			buf = more;
			cap += 65536;
		}
		got = read(fds[0], buf + len, cap - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!rc && (!WIFEXITED(status) || WEXITSTATUS(status))) {
		ioa_buf_addf(err,
			     "cannot list your logs in '%s' (%s %d from %s; it must be "
			     "set-group-ID to the log tree's group: docs/admin.md)",
			     logdir, WIFEXITED(status) ? "status" : "signal",
			     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), prog);
		rc = -EACCES;
	}
	for (i = 0; !rc && i < len; i += strlen(buf + i) + 1) {
		char **more;

		if (memchr(buf + i, '\0', len - i) == NULL)
			break; /* cut short: the last name is not whole */
		more = realloc(*paths, (*n + 1) * sizeof(*more));
		if (!more || !(more[*n] = strdup(buf + i))) {
			*paths = more ? more : *paths;
			rc = -ENOMEM;
			break;
		}
		*paths = more;
		(*n)++;
	}
	free(buf);
	return rc;
}

struct dated {
	char *path;
	time_t mtime;
};

static int by_mtime_desc(const void *a, const void *b)
{
	const struct dated *x = a, *y = b;

	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? 1 : -1;
	return strcmp(x->path, y->path);
}

/* A log's row: the job it holds, with its insights run now. */
static int log_row(const char *path, const struct an_settings *set, struct row *r)
{
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	struct an_job job;
	json_object *res, *findings, *top, *v;
	double confidence;
	int rc = an_load_log(path, set, &job, &err);

	r->id = strdup(path);
	r->io_share = -1;
	if (rc) {
		ioa_warning("%s", ioa_buf_str(&err));
		ioa_buf_release(&err);
		r->sched = strdup("");
		r->user = strdup("");
		r->program = strdup("(unreadable log)");
		return 0;
	}
	ioa_buf_release(&err);
	r->sched = dup_or_empty(job.jobid);
	r->user = dup_or_empty(job.user);
	r->program = dup_or_empty(job.exe);
	r->start = (int64_t)(job.start_ns / 1000000000u);
	r->seconds = job.seconds;
	r->ranks = job.nprocs;
	res = json_object_new_object();
	if (res && !an_insights(&job, set, res, &confidence)) {
		if (json_object_object_get_ex(res, "io_share_of_run", &v))
			r->io_share = json_object_get_double(v);
		if (json_object_object_get_ex(res, "findings", &findings) &&
		    json_object_array_length(findings) > 0) {
			top = json_object_array_get_idx(findings, 0);
			if (json_object_object_get_ex(top, "code", &v))
				r->code = strdup(json_object_get_string(v));
			if (json_object_object_get_ex(top, "text", &v))
				r->text = strdup(json_object_get_string(v));
		}
	}
	json_object_put(res);
	an_free(&job);
	return 0;
}

static int from_logs(const char *days, long long limit, const char *logdir,
		     const struct an_settings *set, struct list *l, struct ioa_buf *err)
{
	char **paths;
	struct dated *d;
	size_t n, i, k = 0;
	int rc = own_logs(days, logdir, &paths, &n, err);

	if (rc)
		return rc;
	d = calloc(n + 1, sizeof(*d));
	for (i = 0; d && i < n; i++) {
		struct stat st;

		/* Your own: readable by you, a regular file still (the helper saw it so). */
		if (lstat(paths[i], &st) || !S_ISREG(st.st_mode) || st.st_uid != getuid()) {
			free(paths[i]);
			continue;
		}
		d[k++] = (struct dated){paths[i], st.st_mtime};
	}
	if (!d) {
		for (i = 0; i < n; i++)
			free(paths[i]);
		free(paths);
		return -ENOMEM;
	}
	free(paths);
	qsort(d, k, sizeof(*d), by_mtime_desc);
	for (i = 0; i < k && !rc; i++) {
		struct row *r = (long long)i < limit ? row_add(l) : NULL;

		if ((long long)i < limit)
			rc = r ? log_row(d[i].path, set, r) : -ENOMEM;
		free(d[i].path);
	}
	for (; i < k; i++)
		free(d[i].path);
	free(d);
	return rc;
}

/* ------------------------------------------------------------ output */

/* Text for a terminal: control bytes as '?'. */
static void put_plain(const char *s, int width)
{
	int n = 0;

	for (; *s; s++, n++)
		putchar((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
	for (; n < width; n++)
		putchar(' ');
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

static void print_table(const struct list *l, int show_user)
{
	size_t i, idw = 3;

	for (i = 0; i < l->n; i++)
		idw = strlen(l->rows[i].id) > idw ? strlen(l->rows[i].id) : idw;
	printf("%-*s  %-10s  %-16s  %9s  %5s  %4s  ", (int)idw, "JOB", "BATCH JOB", "STARTED",
	       "RAN", "RANKS", "I/O");
	if (show_user)
		printf("%-12s  ", "USER");
	printf("%-20s  %s\n", "PROGRAM", "TOP FINDING");
	for (i = 0; i < l->n; i++) {
		const struct row *r = &l->rows[i];
		char when[32] = "?", ran[32], io[16] = "-";
		time_t t = (time_t)r->start;
		struct tm tm;
		long s = (long)(r->seconds + 0.5);

		if (r->start > 0 && localtime_r(&t, &tm))
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
		snprintf(ran, sizeof(ran), "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
		if (r->io_share >= 0)
			snprintf(io, sizeof(io), "%.0f%%", 100 * r->io_share);
		put_plain(r->id, (int)idw);
		printf("  ");
		put_plain(*r->sched ? r->sched : "-", 10);
		printf("  %-16s  %9s  %5" PRId64 "  %4s  ", when, ran, r->ranks, io);
		if (show_user) {
			put_plain(r->user, 12);
			printf("  ");
		}
		put_plain(base_name(r->program), 20);
		printf("  ");
		put_plain(r->code ? r->code : r->io_share < 0 ? "(not analysed yet)" : "none", 0);
		putchar('\n');
	}
	if (!l->n)
		printf("(no jobs)\n");
}

static void print_json(const struct list *l, const char *source)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	size_t i;

	json_object_object_add(o, "source", json_object_new_string(source));
	for (i = 0; i < l->n; i++) {
		const struct row *r = &l->rows[i];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "job", json_object_new_string(r->id));
		json_object_object_add(j, "batch_job", json_object_new_string(r->sched));
		json_object_object_add(j, "user", json_object_new_string(r->user));
		json_object_object_add(j, "program", json_object_new_string(r->program));
		json_object_object_add(j, "start", json_object_new_int64(r->start));
		json_object_object_add(j, "seconds", json_object_new_double(r->seconds));
		json_object_object_add(j, "ranks", json_object_new_int64(r->ranks));
		json_object_object_add(j, "io_share",
				       r->io_share >= 0 ? json_object_new_double(r->io_share)
							: NULL);
		json_object_object_add(j, "top_finding",
				       r->code ? json_object_new_string(r->code) : NULL);
		json_object_object_add(j, "top_finding_text",
				       r->text ? json_object_new_string(r->text) : NULL);
		json_object_array_add(a, j);
	}
	json_object_object_add(o, "jobs", a);
	printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
								 JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

int main(int argc, char **argv)
{
	static char *logdir;
	static const struct ioa_setting settings[] = {
		{"logdir", IOA_SET_TEXT, &logdir, IOATLAS_LOGDIR, "root of the log tree"},
	};
	static const struct option longs[] = {
		{"days", required_argument, NULL, 'd'}, {"limit", required_argument, NULL, 'n'},
		{"all", no_argument, NULL, 'a'},	{"user", required_argument, NULL, 'u'},
		{"logs", no_argument, NULL, 'l'},	{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},	{NULL, 0, NULL, 0},
	};
	struct an_settings set = {0};
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	struct list l = {0};
	const char *user = NULL, *source = "warehouse";
	char days[16] = "30", limit[24];
	int c, all = 0, logs = 0, as_json = 0, status = IOA_EXIT_FAIL, n, rc;
	long long count = 50;
	struct passwd *pw = getpwuid(getuid());
	PGconn *conn = NULL;
	size_t i;

	ioa_log_set_progname("ioatlas jobs");
	while ((c = ioa_getopt(argc, argv, "d:n:au:ljh", longs)) != -1) {
		switch (c) {
		case 'd':
			if (ioa_parse_int(optarg, 1, 3660, &n)) {
				ioa_error("--days takes 1 to 3660, not '%s'", optarg);
				return IOA_EXIT_USAGE;
			}
			snprintf(days, sizeof(days), "%d", n);
			break;
		case 'n':
			if (ioa_parse_int(optarg, 1, 1000000, &n)) {
				ioa_error("--limit takes 1 to 1000000, not '%s'", optarg);
				return IOA_EXIT_USAGE;
			}
			count = n;
			break;
		case 'a':
			all = 1;
			break;
		case 'u':
			user = optarg;
			break;
		case 'l':
			logs = 1;
			break;
		case 'j':
			as_json = 1;
			break;
		case 'h':
			usage(stdout);
			return IOA_EXIT_OK;
		default:
			usage(stderr);
			return IOA_EXIT_USAGE;
		}
	}
	if (optind != argc) {
		ioa_error("no operand expected: '%s'", argv[optind]);
		usage(stderr);
		return IOA_EXIT_USAGE;
	}
	if ((all || user) && (logs || (all && user))) {
		ioa_error("%s", all && user ? "--all and --user cannot go together"
					    : "the log tree holds only your own jobs: no --all or "
					      "--user with --logs");
		return IOA_EXIT_USAGE;
	}
	if (!pw) {
		ioa_error("the system knows no name for your uid %u", (unsigned)getuid());
		return IOA_EXIT_FAIL;
	}
	snprintf(limit, sizeof(limit), "%lld", count);
	if (an_settings_load(&set, &err) ||
	    ioa_conf_load(settings, sizeof(settings) / sizeof(settings[0]), &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		goto out;
	}
	if (!logs) {
		conn = ioa_db_connect_read(&set.db, "ioatlas jobs", 10, &err);
		rc = conn ? check_role(conn, &err) : -EIO;
		if (!rc)
			rc = from_warehouse(conn, days, limit,
					    all	   ? ""
					    : user ? user
						   : pw->pw_name,
					    &l, &err);
		if (rc && (all || user || rc == -EACCES)) {
			ioa_error("%s", ioa_buf_str(&err));
			goto out;
		}
		if (rc) {
			ioa_warning("the warehouse is out of reach (%s): your logs in the log tree "
				    "instead",
				    ioa_buf_str(&err));
			ioa_buf_reset(&err);
			logs = 1;
		}
	}
	if (logs) {
		source = "logs";
		rc = from_logs(days, count, logdir, &set, &l, &err);
		if (rc) {
			ioa_error("%s", rc == -ENOMEM ? "out of memory" : ioa_buf_str(&err));
			goto out;
		}
	}
	if (as_json)
		print_json(&l, source);
	else
		print_table(&l, all || (user && strcmp(user, pw->pw_name)));
	status = fflush(stdout) ? IOA_EXIT_FAIL : IOA_EXIT_OK;
out:
	for (i = 0; i < l.n; i++)
		row_free(&l.rows[i]);
	free(l.rows);
	PQfinish(conn);
	an_settings_free(&set);
	ioa_conf_free(settings, sizeof(settings) / sizeof(settings[0]));
	ioa_buf_release(&err);
	return status;
}
