/*
 * ingest — one log into the warehouse, exactly once (see ingest.h).
 */
#define _GNU_SOURCE
#include "ingest.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <openssl/evp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ioa_counters.h"
#include "ioa_db.h"
#include "ioa_fault.h"
#include "ioa_log.h"
#include "ioa_logfmt.h"
#include "ioa_darshan.h"
#include "ioa_logr.h"
#include "ioa_parse.h"
#include "ioa_partial.h"
#include "ioa_source.h"

#define READER_VERSION "ioatlasd " IOATLAS_VERSION
#define COPY_FLUSH     (1u << 20) /* COPY data is sent in pieces of about this size */

/*
 * Why a load stopped: the log is bad (quarantine it), or it could not be
 * read now (an I/O error: try it again later, INGEST_UNREADABLE); any
 * other error is the database's or ours (retry).
 */
#define LOAD_BAD	(-EBADMSG)
#define LOAD_UNREADABLE (-EREMOTEIO)

/* Slots of the set of record ids already named (8 MiB): up to half are used. */
#define NAMES_SEEN_MAX ((size_t)1 << 20)

struct mount {
	unsigned char *path;
	uint32_t len;
	char *type;
	int32_t fs; /* file_systems.id, once known (0: not yet) */
};

/*
 * The file systems the warehouse has rows for: mount point and type -> id.
 * Rows are never removed, so what was learnt stays true on the same
 * warehouse; ingest_prepare() (a new connection) starts it afresh.
 */
#define FS_CACHE_MAX 1024
static struct {
	unsigned char *path;
	uint32_t len;
	char *type;
	int32_t id;
} fs_cache[FS_CACHE_MAX];
/* Entries from fs_committed on were learnt in the transaction in progress. */
static size_t fs_cached, fs_committed;

/* The batch system's job keys, cut to what the runtime writes at most. */
#define SCHED_KEYS	(IOA_JOB_NODELIST - IOA_JOB_STEP + 1)
#define SCHED_VALUE_MAX 65536

struct job_info {
	int have[64]; /* per job key */
	uint64_t uid, start_ns, end_ns, nprocs, nnodes, folded;
	struct ioa_buf user, jobid, scheduler, exe, args, version, settings;
	struct ioa_buf hostnames, rank_nodes; /* as the log has them */
	unsigned io_libs;		      /* IOA_JOB_LIBRARIES: IOA_LIB_* bits */
	struct ioa_clock clock;		      /* IOA_JOB_CLOCK, when well formed */
	char build[IOA_BUILD_ID_MAX + 1];     /* IOA_JOB_BUILD, when well formed; else "" */
	/* Job keys IOA_JOB_STEP to IOA_JOB_NODELIST (the batch system's), display form. */
	struct ioa_buf sched[SCHED_KEYS];
	/* IOA_JOB_PARTIAL, a log recovered from a killed job: its well-formed fields. */
	struct ioa_partial partial;
	/* IOA_JOB_SOURCE, a log imported from another tool's: its fields (jobs.source). */
	struct ioa_source source;
};

/* A name as records refer to it: the log's record id, its SHA-256 and file system. */
struct named {
	uint64_t id;
	int32_t fs; /* 0: none */
	unsigned char sha[32];
};

struct load {
	PGconn *conn;  /* the log's transaction */
	PGconn *names; /* file_names, loaded beside it (see ingest.h) */
	const struct ingest_settings *set;
	struct ioa_log_reader r;
	struct stat st;
	int fd;
	int dirfd;	  /* the log's folder, reached without a symbolic link (open_log_dir()) */
	const char *name; /* the log's name in it */
	struct ioa_buf raw, copy, err, text;
	struct ioa_buf names_raw, names_copy; /* the names region mapped; names' COPY data */
	int names_pending;		      /* their insert is running */
	struct named *map;		      /* that region's names, by id */
	size_t nmap, map_cap;
	int64_t map_region; /* the names region mapped (-1: none) */
	uint64_t unnamed;   /* records the log names no file for */
	struct job_info job;
	char job_id[24], start[48];
	int64_t job_num; /* job_id as a number */
	uint64_t *seen;	 /* record ids whose names were sent (open addressing) */
	size_t nseen;
	int names_overflow; /* too many to remember: duplicates left to the database */
	struct mount *mounts;
	size_t nmounts;
	uint64_t records, bytes_read, bytes_written;
	int byte_counter[IOA_MOD_COUNT][2]; /* index of BYTES_READ, BYTES_WRITTEN; -1: none */
	char *reason;			    /* stats->reason */
};

/* ------------------------------------------------------------ small helpers */

static int bad(struct load *l, const char *fmt, ...) IOA_PRINTF(2, 3);
static int bad(struct load *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->reason, sizeof(((struct ingest_stats *)0)->reason), fmt, ap);
	va_end(ap);
	return LOAD_BAD;
}

/*
 * Whether a failure to open or read a log may pass (permissions fixed
 * later, a file server that recovers) rather than being the log's fault.
 */
static int transient(int err)
{
	return err == EACCES || err == EPERM || err == EIO || err == EAGAIN || err == EBUSY ||
	       err == ESTALE || err == ETXTBSY || err == ENOMEM || err == ENFILE || err == EMFILE;
}

/* The log could not be read now (rc, a transient errno): said in the reason, tried again later. */
static int unreadable(struct load *l, int rc, const char *what)
{
	snprintf(l->reason, sizeof(((struct ingest_stats *)0)->reason), "%s: %s", what,
		 l->r.error[0] ? l->r.error : ioa_strerror(rc));
	return LOAD_UNREADABLE;
}

/* A reader's failure to read (not to decode) that may pass. */
static int read_failed(int rc)
{
	return rc && rc != -ENOMEM && transient(-rc);
}

/* A database failure: its message becomes the reason; data errors are the log's fault. */
static int db_failed(struct load *l, int rc, const char *sqlstate)
{
	snprintf(l->reason, sizeof(((struct ingest_stats *)0)->reason), "%s", ioa_buf_str(&l->err));
	/*
	 * A value the schema cannot hold (out of range, a bad encoding, a check)
	 * is the log's fault; anything else (a lost connection, a full disk, a
	 * race with another collector on the same content) is tried again.
	 */
	if (sqlstate && (!strncmp(sqlstate, "22", 2) || !strcmp(sqlstate, "23514")))
		return LOAD_BAD;
	return rc ? rc : -EIO;
}

static int query1_on(struct load *l, PGconn *conn, const char *sql, int n,
		     const char *const *params, char *out, size_t out_len)
{
	char state[6];
	int rc;
	PGresult *res = ioa_db_query_prepared(conn, sql, n, params, &l->err, &rc, state);

	if (!res)
		return db_failed(l, rc, state);
	if (out) {
		if (PQntuples(res) < 1 || PQnfields(res) < 1)
			out[0] = '\0';
		else
			snprintf(out, out_len, "%s", PQgetvalue(res, 0, 0));
	}
	PQclear(res);
	return 0;
}

static int query1(struct load *l, const char *sql, int n, const char *const *params, char *out,
		  size_t out_len)
{
	return query1_on(l, l->conn, sql, n, params, out, out_len);
}

static int exec(struct load *l, const char *sql, int n, const char *const *params)
{
	return query1(l, sql, n, params, NULL, 0);
}

static void rollback(PGconn *conn)
{
	struct ioa_buf ignore = IOA_BUF_INIT(1024);

	if (PQtransactionStatus(conn) == PQTRANS_IDLE)
		return;
	ioa_db_exec(conn, "ROLLBACK", 0, NULL, &ignore);
	ioa_buf_release(&ignore);
}

/* bytes as a bytea parameter (in b, reset first), or NULL when out of memory. */
static const char *bytea_param(struct ioa_buf *b, const void *bytes, size_t len)
{
	ioa_buf_reset(b);
	return ioa_bytea_text(b, bytes, len) ? NULL : b->data;
}

/* ns since the epoch as a timestamptz literal, microseconds kept. */
static void time_text(uint64_t ns, char *out, size_t len)
{
	time_t s = (time_t)(ns / 1000000000u);
	struct tm tm;

	gmtime_r(&s, &tm);
	snprintf(out, len, "%04d-%02d-%02d %02d:%02d:%02d.%06u+00", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (unsigned)(ns % 1000000000u / 1000u));
}

static int sha256_fd(int fd, unsigned char out[32])
{
	EVP_MD_CTX *ctx = IOA_FAULT("col-alloc") ? NULL : EVP_MD_CTX_new();
	unsigned char buf[1 << 16];
	off_t at = 0;
	ssize_t n;
	int rc = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1 ? 0 : -ENOMEM;

	while (!rc && (n = IOA_FAULT("logr-read") ? (errno = EIO, -1)
						  : pread(fd, buf, sizeof(buf), at)) != 0) {
		if (n < 0) {
			if (errno != EINTR)
				rc = -errno;
			continue;
		}
		at += n;
		if (EVP_DigestUpdate(ctx, buf, (size_t)n) != 1)
			rc = -EIO;
	}
	if (!rc && EVP_DigestFinal_ex(ctx, out, NULL) != 1)
		rc = -EIO;
	EVP_MD_CTX_free(ctx);
	return rc;
}

/* ------------------------------------------------------------ COPY */

/* COPY data in b goes to conn once there is enough of it (or now, with force). */
static int copy_flush_on(struct load *l, PGconn *conn, struct ioa_buf *b, int force)
{
	int rc = 0;

	if (b->len && (force || b->len >= COPY_FLUSH)) {
		rc = ioa_db_copy_put(conn, b, &l->err);
		ioa_buf_reset(b);
	}
	return rc ? db_failed(l, rc, NULL) : 0;
}

static int copy_flush(struct load *l, int force)
{
	return copy_flush_on(l, l->conn, &l->copy, force);
}

static int copy_begin_on(struct load *l, PGconn *conn, struct ioa_buf *b, const char *sql)
{
	int rc = ioa_db_copy_begin(conn, sql, &l->err);

	ioa_buf_reset(b);
	return rc ? db_failed(l, rc, NULL) : 0;
}

static int copy_begin(struct load *l, const char *sql)
{
	return copy_begin_on(l, l->conn, &l->copy, sql);
}

/* Ends a COPY; a row the server refuses (a value out of range) is the log's fault. */
static int copy_end_on(struct load *l, PGconn *conn, struct ioa_buf *b, int rc)
{
	char state[6];
	int end;

	if (!rc)
		rc = copy_flush_on(l, conn, b, 1);
	if (rc) {
		PGresult *res;

		PQputCopyEnd(conn, "the log could not be read");
		while ((res = PQgetResult(conn)))
			PQclear(res);
		return rc;
	}
	end = ioa_db_copy_end(conn, &l->err, state);
	return end ? db_failed(l, end, state) : 0;
}

static int copy_end(struct load *l, int rc)
{
	return copy_end_on(l, l->conn, &l->copy, rc);
}

/* The prefix every per-job row starts with: job id and the job's start time. */
static int row_start(struct load *l)
{
	return ioa_buf_addf(&l->copy, "%s\t%s\t", l->job_id, l->start);
}

/* ------------------------------------------------------------ the job */

static int on_job(uint16_t key, const unsigned char *value, uint32_t len, void *arg)
{
	struct job_info *j = arg;
	struct ioa_buf *text = NULL;
	uint64_t *num = NULL;
	char digits[32];

	switch (key) {
	case IOA_JOB_UID:
		num = &j->uid;
		break;
	case IOA_JOB_START_NS:
		num = &j->start_ns;
		break;
	case IOA_JOB_END_NS:
		num = &j->end_ns;
		break;
	case IOA_JOB_NPROCS:
		num = &j->nprocs;
		break;
	case IOA_JOB_NNODES:
		num = &j->nnodes;
		break;
	case IOA_JOB_FOLDED:
		num = &j->folded;
		break;
	case IOA_JOB_USER:
		text = &j->user;
		break;
	case IOA_JOB_JOBID:
		text = &j->jobid;
		break;
	case IOA_JOB_SCHEDULER:
		text = &j->scheduler;
		break;
	case IOA_JOB_EXE:
		text = &j->exe;
		break;
	case IOA_JOB_ARGS:
		text = &j->args;
		break;
	case IOA_JOB_VERSION:
		text = &j->version;
		break;
	case IOA_JOB_SETTINGS:
		text = &j->settings;
		break;
	case IOA_JOB_HOSTNAMES:
		text = &j->hostnames;
		break;
	case IOA_JOB_RANK_NODES:
		text = &j->rank_nodes;
		break;
	case IOA_JOB_PARTIAL:
		/*
		 * Untrusted text: a malformed field is dropped, never the log
		 * (common/ioa_partial.h).  Of two such keys the last counts.
		 */
		j->have[key] = 1;
		ioa_partial_release(&j->partial);
		return ioa_partial_parse(&j->partial, value, len);
	case IOA_JOB_CLOCK:
		/* Untrusted text: a malformed key is no clock (NULL columns), never the log. */
		j->have[key] = !ioa_parse_clock((const char *)value, len, &j->clock);
		return 0;
	case IOA_JOB_LIBRARIES:
		/* Untrusted text: only the names common/ioa_logfmt.h knows count. */
		j->have[key] = 1;
		j->io_libs = ioa_parse_io_libraries((const char *)value, len);
		return 0;
	case IOA_JOB_BUILD:
		/* Untrusted text: lowercase hex digits, an even number of them, or no build. */
		j->build[0] = '\0';
		if (len < 2 || len > IOA_BUILD_ID_MAX || len % 2 ||
		    strspn((const char *)value, "0123456789abcdef") < len)
			return 0;
		memcpy(j->build, value, len);
		j->build[len] = '\0';
		return 0;
	case IOA_JOB_SOURCE:
		/* Untrusted text too: its known fields in display form (common/ioa_source.h). */
		j->have[key] = 1;
		return ioa_source_parse(&j->source, value, len);
	default:
		if (key < IOA_JOB_STEP || key > IOA_JOB_NODELIST)
			return 0; /* kept in the log, not in the warehouse */
		text = &j->sched[key - IOA_JOB_STEP];
		ioa_buf_reset(text);
		return ioa_buf_add_escaped(text, value,
					   len < SCHED_VALUE_MAX ? len : SCHED_VALUE_MAX);
	}
	if (key < sizeof(j->have) / sizeof(j->have[0]))
		j->have[key] = 1;
	if (num) {
		if (len == 0 || len >= sizeof(digits))
			return -EINVAL;
		memcpy(digits, value, len);
		digits[len] = '\0';
		return ioa_parse_u64(digits, num) ? -EINVAL : 0;
	}
	ioa_buf_reset(text);
	return ioa_buf_add(text, value, len);
}
/* Whether the log's owner may own other users' logs (read_job's check). */
static int owner_trusted(const struct load *l)
{
	if (l->st.st_uid == l->set->trusted_uid)
		return 1;
	return l->st.st_uid == l->set->recover_uid && l->job.have[IOA_JOB_PARTIAL];
}

static int read_job(struct load *l)
{
	static const int required[] = {IOA_JOB_UID,    IOA_JOB_USER,   IOA_JOB_START_NS,
				       IOA_JOB_END_NS, IOA_JOB_NPROCS, IOA_JOB_EXE};
	static const char *const required_names[] = {"uid",	 "user",       "start time",
						     "end time", "rank count", "executable"};
	uint32_t i, found = 0;
	size_t k;
	int rc;

	for (i = 0; i < l->r.region_count; i++) {
		if (l->r.regions[i].type != IOA_REGION_JOB)
			continue;
		if (found++)
			return bad(l, "more than one job region");
		rc = ioa_logr_read_region(&l->r, i, &l->raw);
		if (read_failed(rc))
			return unreadable(l, rc, "job region");
		rc = rc ? rc : ioa_logr_each_job_entry(&l->r, &l->raw, on_job, &l->job);
		if (rc == -ENOMEM)
			return rc;
		if (rc)
			return bad(l, "job region: %s",
				   l->r.error[0] ? l->r.error : "a value is not a number");
	}
	if (!found)
		return bad(l, "no job region");
	for (k = 0; k < sizeof(required) / sizeof(required[0]); k++)
		if (!l->job.have[required[k]])
			return bad(l, "the job region lacks the %s", required_names[k]);
	if (l->job.start_ns < (uint64_t)946684800 * 1000000000u ||
	    l->job.start_ns > (uint64_t)7258118400 * 1000000000u)
		return bad(l, "start time out of range (%" PRIu64 " ns)", l->job.start_ns);
	if (l->job.end_ns < l->job.start_ns)
		return bad(l, "the job ends before it starts");
	if (l->job.nprocs == 0 || l->job.nprocs > INT32_MAX || l->job.nnodes > INT32_MAX)
		return bad(l, "rank or node count out of range");
	if (l->job.uid > UINT32_MAX)
		return bad(l, "uid out of range");
	/*
	 * The runtime writes a log as the user who ran the job: anyone else
	 * forged it, root included (an admin's copy is chowned to its user).
	 * Only the trusted service account may own other users' logs, and the
	 * collector's own account the logs it recovered.
	 */
	if ((uid_t)l->job.uid != l->st.st_uid && !owner_trusted(l))
		return bad(l,
			   "forged: the file belongs to uid %u but records uid %" PRIu64
			   " (a job is its log owner's: chown the log to uid %" PRIu64
			   " if it is theirs, or name the account that copies logs in "
			   "collector.trusted_user)",
			   (unsigned)l->st.st_uid, l->job.uid, l->job.uid);
	return 0;
}

/*
 * The name this host gives uid (at most len - 1 bytes), or "uid:N" when it
 * has none (':' is in no Unix user name, so no user's role matches it).
 * 0, or a negative errno when the lookup itself failed (a directory service
 * away: worth another try, not the log's fault).
 */
static int owner_name(uid_t uid, char *out, size_t len)
{
	struct passwd pw, *found = NULL;
	size_t cap = 4096;
	char *buf = NULL;
	int rc;

	for (;;) {
		char *grown = IOA_FAULT("col-alloc") ? NULL : realloc(buf, cap);

		if (!grown) {
			rc = ENOMEM;
			break;
		}
		buf = grown;
		rc = getpwuid_r(uid, &pw, buf, cap, &found);
		if (rc != ERANGE || cap >= ((size_t)1 << 20))
			break;
		cap *= 2;
	}
	/* Not found is 0 with no entry, or one of these, depending on the C library. */
	if (rc == ENOENT || rc == ESRCH || rc == EBADF || rc == EPERM)
		rc = 0;
	if (!rc && found)
		snprintf(out, len, "%s", found->pw_name);
	else if (!rc)
		snprintf(out, len, "uid:%u", (unsigned)uid);
	free(buf);
	return -rc;
}

/* The job's row, through ingest_job() (warehouse): its partitions, user and program with it. */
static int insert_job(struct load *l)
{
	char uid[24], nprocs[24], nnodes[24], end[48], flags[24], owner[256];
	/* Whose job it is: the file's owner, or what a trusted account's copy records. */
	uid_t attributed = l->st.st_uid == (uid_t)l->job.uid || !owner_trusted(l)
				   ? l->st.st_uid
				   : (uid_t)l->job.uid;
	struct ioa_buf exe = IOA_BUF_INIT(1 << 20), exe_display = IOA_BUF_INIT(1 << 20),
		       args = IOA_BUF_INIT(1 << 24), args_display = IOA_BUF_INIT(1 << 24);
	size_t i;
	int rc = 0;

	rc = owner_name(attributed, owner, sizeof(owner));
	if (rc) {
		snprintf(l->reason, sizeof(((struct ingest_stats *)0)->reason),
			 "cannot look up uid %u on this host: %s", (unsigned)attributed,
			 ioa_strerror(rc));
		return rc == -ENOMEM ? rc : -EAGAIN;
	}
	snprintf(uid, sizeof(uid), "%u", (unsigned)attributed);
	snprintf(nprocs, sizeof(nprocs), "%" PRIu64, l->job.nprocs);
	snprintf(nnodes, sizeof(nnodes), "%" PRIu64, l->job.nnodes);
	snprintf(flags, sizeof(flags), "%u", l->r.flags);
	time_text(l->job.start_ns, l->start, sizeof(l->start));
	time_text(l->job.end_ns, end, sizeof(end));
	if (!bytea_param(&exe, l->job.exe.data, l->job.exe.len) ||
	    ioa_buf_add_escaped(&exe_display, l->job.exe.data, l->job.exe.len))
		rc = -ENOMEM;
	/* Arguments are NUL-separated: shown separated by spaces. */
	for (i = 0; i < l->job.args.len && !rc; i++)
		rc = l->job.args.data[i]
			     ? ioa_buf_add_escaped(&args_display, l->job.args.data + i, 1)
			     : (i + 1 < l->job.args.len ? ioa_buf_addstr(&args_display, " ") : 0);
	if (!rc && l->job.args.len && !bytea_param(&args, l->job.args.data, l->job.args.len))
		rc = -ENOMEM;
	{
		const char *p[] = {l->start,
				   end,
				   uid,
				   owner,
				   exe.data,
				   ioa_buf_str(&exe_display),
				   ioa_buf_str(&l->job.scheduler),
				   ioa_buf_str(&l->job.jobid),
				   l->job.args.len ? args.data : NULL,
				   l->job.args.len ? ioa_buf_str(&args_display) : NULL,
				   nprocs,
				   nnodes,
				   ioa_buf_str(&l->job.version),
				   ioa_buf_str(&l->job.settings),
				   flags,
				   l->job.folded ? "t" : "f",
				   ioa_buf_str(&l->job.user)};

		rc = rc ? rc
			: query1(l,
				 "SELECT ingest_job($1, $2, $3, $4, $5::bytea, $6, $7, $8, "
				 "$9::bytea, "
				 "$10, $11, $12, $13, $14, $15, $16, $17)",
				 17, p, l->job_id, sizeof(l->job_id));
	}
	if (!rc && ioa_parse_i64(l->job_id, &l->job_num))
		rc = bad(l, "the warehouse returned no job id");
	ioa_buf_release(&exe);
	ioa_buf_release(&exe_display);
	ioa_buf_release(&args);
	ioa_buf_release(&args_display);
	return rc;
}

/* ------------------------------------------------------------ names and mounts */

static int on_mount(const unsigned char *path, uint32_t path_len, const unsigned char *type,
		    uint32_t type_len, void *arg)
{
	struct load *l = arg;
	struct mount *m;

	if (!(l->nmounts & (l->nmounts - 1)) || !l->nmounts) {
		size_t cap = l->nmounts ? l->nmounts * 2 : 16;
		struct mount *mounts =
			IOA_FAULT("col-alloc") ? NULL : realloc(l->mounts, cap * sizeof(*mounts));

		if (!mounts)
			return -ENOMEM;
		l->mounts = mounts;
	}
	m = &l->mounts[l->nmounts];
	m->path = IOA_FAULT("col-alloc") ? NULL : malloc(path_len + 1);
	m->type = IOA_FAULT("col-alloc") ? NULL : strndup((const char *)type, type_len);
	if (!m->path || !m->type) {
		free(m->path);
		free(m->type);
		return -ENOMEM;
	}
	memcpy(m->path, path, path_len);
	m->len = path_len;
	m->fs = 0;
	l->nmounts++;
	return 0;
}

/* The mount holding a name: the longest mount point that is a prefix at a '/'. */
static const struct mount *mount_of(const struct load *l, const unsigned char *name, uint32_t len)
{
	const struct mount *best = NULL;
	size_t i;

	for (i = 0; i < l->nmounts; i++) {
		const struct mount *m = &l->mounts[i];

		if (!ioa_mount_holds(m->path, m->len, name, len) || (best && best->len >= m->len))
			continue;
		best = m;
	}
	return best;
}

/*
 * Whether a record id was seen already in this log (a file several ranks
 * name).  The set is bounded; past it, duplicates are left to the database.
 */
static int seen_before(struct load *l, uint64_t id)
{
	size_t i;

	if (l->nseen >= NAMES_SEEN_MAX / 2) {
		l->names_overflow = 1;
		return 0;
	}
	if (!l->seen &&
	    !(l->seen = IOA_FAULT("col-alloc") ? NULL : calloc(NAMES_SEEN_MAX, sizeof(*l->seen)))) {
		l->names_overflow = 1;
		return 0;
	}
	/* 0 marks a free slot: id 0 is stored as 1, which only costs a rare false repeat check. */
	id = id ? id : 1;
	for (i = (size_t)(id * 0x9e3779b97f4a7c15ull >> 40) & (NAMES_SEEN_MAX - 1); l->seen[i];
	     i = (i + 1) & (NAMES_SEEN_MAX - 1))
		if (l->seen[i] == id)
			return 1;
	l->seen[i] = id;
	l->nseen++;
	return 0;
}

/* A name row of tmp_names (binary): SHA-256, bytes, display. */
static int on_name(uint64_t id, const unsigned char *name, uint32_t len, void *arg)
{
	struct load *l = arg;
	unsigned char digest[32];
	int rc;

	if (seen_before(l, id))
		return 0;
	if (EVP_Digest(name, len, digest, NULL, EVP_sha256(), NULL) != 1)
		return -ENOMEM;
	ioa_buf_reset(&l->text);
	rc = ioa_buf_add_escaped(&l->text, name, len);
	rc = rc ? rc : ioa_copyb_row(&l->names_copy, 3);
	rc = rc ? rc : ioa_copyb_bytes(&l->names_copy, digest, sizeof(digest));
	rc = rc ? rc : ioa_copyb_bytes(&l->names_copy, name, len);
	rc = rc ? rc : ioa_copyb_bytes(&l->names_copy, l->text.data, l->text.len);
	return rc ? rc : copy_flush_on(l, l->names, &l->names_copy, 0);
}

/* Reads region i into raw; a region the reader refuses makes the log bad. */
static int read_region(struct load *l, uint32_t i, const char *what, struct ioa_buf *raw)
{
	int rc = ioa_logr_read_region(&l->r, i, raw);

	if (read_failed(rc))
		return unreadable(l, rc, what);
	if (rc == -EFBIG)
		return bad(l, "%s region %u is larger than the collector reads (%" PRIu64 " bytes)",
			   what, i, l->r.regions[i].raw_size);
	if (rc && rc != -ENOMEM)
		return bad(l, "%s region %u: %s", what, i, ioa_logr_error(&l->r));
	return rc;
}

/* Reads every region of a type with fn; a region that does not decode makes the log bad. */
static int each_region(struct load *l, uint32_t type, const char *what,
		       int (*fn)(struct load *l, uint32_t i))
{
	uint32_t i;
	int rc = 0;

	for (i = 0; i < l->r.region_count && !rc; i++)
		if (l->r.regions[i].type == type) {
			rc = read_region(l, i, what, &l->raw);
			rc = rc ? rc : fn(l, i);
		}
	return rc;
}

/* A decoder's failure: the log's fault unless it was ours (memory) or the database's. */
static int decoded(struct load *l, int rc, const char *what, uint32_t i)
{
	if (!rc || rc == -ENOMEM || rc == -ECONNRESET || rc == -EIO || rc == LOAD_BAD)
		return rc;
	return bad(l, "%s region %u: %s", what, i, l->r.error[0] ? l->r.error : ioa_strerror(rc));
}

static int load_mounts(struct load *l, uint32_t i)
{
	return decoded(l, ioa_logr_each_mount(&l->r, &l->raw, on_mount, l), "mount", i);
}

static int load_names(struct load *l, uint32_t i)
{
	return decoded(l, ioa_logr_each_name(&l->r, &l->raw, on_name, l), "name", i);
}

/* Whether the log has a region of this type. */
static int has_region(const struct load *l, uint32_t type)
{
	uint32_t i;

	for (i = 0; i < l->r.region_count; i++)
		if (l->r.regions[i].type == type)
			return 1;
	return 0;
}

/*
 * The job's file systems not yet known: added if new, and each mount's id
 * (by its position in the job's table) returned.
 */
static const char sql_mounts[] =
	"WITH ins AS (INSERT INTO file_systems (mount_point, display, fs_type) "
	"SELECT DISTINCT ON (sha256(mount), fs_type) mount, display, fs_type FROM tmp_mounts "
	"ON CONFLICT (sha256(mount_point), fs_type) DO NOTHING RETURNING id, mount_point, fs_type) "
	"SELECT t.ord, f.id FROM tmp_mounts t JOIN (SELECT id, mount_point, fs_type FROM ins "
	"UNION ALL SELECT id, mount_point, fs_type FROM file_systems) f "
	"ON f.mount_point = t.mount AND f.fs_type = t.fs_type";
static const char sql_job_mounts[] =
	"INSERT INTO job_mounts (job, start_time, fs) "
	"SELECT DISTINCT $1::bigint, $2::timestamptz, unnest($3::integer[])";

/*
 * The job's names not yet known, added and committed on the names
 * connection.  In key order, so that collectors adding the same names wait
 * for each other instead of deadlocking.
 */
static const char sql_names[] =
	"INSERT INTO file_names (sha256, name, display) "
	"SELECT DISTINCT ON (sha256) sha256, name, display FROM tmp_names ORDER BY sha256 "
	"ON CONFLICT (sha256) DO NOTHING; "
	"COMMIT";

static void fs_cache_find(struct mount *m)
{
	size_t i;

	for (i = 0; i < fs_cached; i++)
		if (fs_cache[i].len == m->len && !memcmp(fs_cache[i].path, m->path, m->len) &&
		    !strcmp(fs_cache[i].type, m->type)) {
			m->fs = fs_cache[i].id;
			return;
		}
}

static void fs_cache_add(const struct mount *m)
{
	if (fs_cached == FS_CACHE_MAX || !m->fs)
		return;
	fs_cache[fs_cached].path = IOA_FAULT("col-alloc") ? NULL : malloc(m->len + 1);
	fs_cache[fs_cached].type = IOA_FAULT("col-alloc") ? NULL : strdup(m->type);
	if (!fs_cache[fs_cached].path || !fs_cache[fs_cached].type) {
		free(fs_cache[fs_cached].path);
		free(fs_cache[fs_cached].type);
		return;
	}
	memcpy(fs_cache[fs_cached].path, m->path, m->len);
	fs_cache[fs_cached].len = m->len;
	fs_cache[fs_cached].id = m->fs;
	fs_cached++;
}

/* Forgets what was learnt since `keep` entries (a rollback undid those rows). */
static void fs_cache_truncate(size_t keep)
{
	while (fs_cached > keep) {
		fs_cached--;
		free(fs_cache[fs_cached].path);
		free(fs_cache[fs_cached].type);
	}
	fs_committed = fs_cached;
}

static void fs_cache_clear(void)
{
	fs_cache_truncate(0);
}

/* Mounts whose file system the cache does not know: added to the warehouse, ids learnt. */
static int learn_mounts(struct load *l)
{
	size_t i;
	int rc = copy_begin(l, "COPY tmp_mounts FROM STDIN");
	PGresult *res;
	char state[6];

	for (i = 0; i < l->nmounts && !rc; i++) {
		const struct mount *m = &l->mounts[i];

		if (m->fs)
			continue;
		ioa_buf_reset(&l->text);
		rc = ioa_buf_addf(&l->copy, "%zu\t", i);
		rc = rc ? rc : ioa_copy_bytea(&l->copy, m->path, m->len);
		rc = rc ? rc : ioa_buf_addstr(&l->copy, "\t");
		rc = rc ? rc : ioa_buf_add_escaped(&l->text, m->path, m->len);
		rc = rc ? rc : ioa_copy_text(&l->copy, l->text.data, l->text.len);
		rc = rc ? rc : ioa_buf_addstr(&l->copy, "\t");
		rc = rc ? rc : ioa_copy_text(&l->copy, m->type, strlen(m->type));
		rc = rc ? rc : ioa_buf_addstr(&l->copy, "\n");
	}
	rc = copy_end(l, rc);
	if (rc)
		return rc;
	res = ioa_db_query_prepared(l->conn, sql_mounts, 0, NULL, &l->err, &rc, state);
	if (!res)
		return db_failed(l, rc, state);
	for (i = 0; i < (size_t)PQntuples(res); i++) {
		int ord = atoi(PQgetvalue(res, (int)i, 0));

		if (ord >= 0 && (size_t)ord < l->nmounts) {
			l->mounts[ord].fs = atoi(PQgetvalue(res, (int)i, 1));
			fs_cache_add(&l->mounts[ord]);
		}
	}
	PQclear(res);
	return 0;
}

static int mounts(struct load *l)
{
	const char *p[] = {l->job_id, l->start, NULL};
	struct ioa_buf ids = IOA_BUF_INIT((size_t)1 << 20);
	size_t i, unknown = 0;
	int rc = each_region(l, IOA_REGION_MOUNTS, "mount", load_mounts);

	for (i = 0; i < l->nmounts && !rc; i++) {
		fs_cache_find(&l->mounts[i]);
		unknown += !l->mounts[i].fs;
	}
	if (!rc && unknown)
		rc = learn_mounts(l);
	if (!rc && l->nmounts) {
		rc = ioa_buf_addstr(&ids, "{");
		for (i = 0; i < l->nmounts && !rc; i++)
			if (l->mounts[i].fs)
				rc = ioa_buf_addf(&ids, "%s%d", ids.len > 1 ? "," : "",
						  (int)l->mounts[i].fs);
		rc = rc ? rc : ioa_buf_addstr(&ids, "}");
		p[2] = ids.data;
		rc = rc ? rc : exec(l, sql_job_mounts, 3, p);
	}
	ioa_buf_release(&ids);
	return rc;
}

/*
 * The log's names go to file_names on the names connection, in a
 * transaction of their own that runs while this one loads the records; the
 * log's transaction waits for it before it commits (names_wait()).  Names
 * are a dictionary: a name committed for a log that then rolls back is
 * found there by its next try.
 */
static int names_send(struct load *l)
{
	int rc;

	if (!has_region(l, IOA_REGION_NAMES))
		return 0;
	rc = query1_on(l, l->names, "BEGIN", 0, NULL, NULL, 0);
	rc = rc ? rc
		: copy_begin_on(l, l->names, &l->names_copy,
				"COPY tmp_names FROM STDIN (FORMAT binary)");
	rc = rc ? rc : ioa_copyb_header(&l->names_copy);
	rc = rc ? rc : each_region(l, IOA_REGION_NAMES, "name", load_names);
	rc = copy_end_on(l, l->names, &l->names_copy, rc ? rc : ioa_copyb_trailer(&l->names_copy));
	if (rc)
		return rc;
	rc = ioa_db_send(l->names, sql_names, &l->err);
	if (rc)
		return db_failed(l, rc, NULL);
	l->names_pending = 1;
	return 0;
}

/*
 * Waits for the names' transaction: 0 once it committed; on failure its
 * error (the log's fault for a value the schema refuses).  Either way the
 * names connection is left idle.
 */
static int names_wait(struct load *l)
{
	char state[6];
	int rc;

	if (!l->names_pending)
		return 0;
	l->names_pending = 0;
	rc = ioa_db_wait(l->names, &l->err, state);
	if (!rc)
		return 0;
	rollback(l->names);
	return db_failed(l, rc, state);
}

/* ------------------------------------------------------------ records */

/* The binary prefix of a per-job row: its field count, the job and the job's start time. */
static int row_start_binary(struct load *l, uint16_t fields)
{
	int rc = ioa_copyb_row(&l->copy, fields);

	rc = rc ? rc : ioa_copyb_i64(&l->copy, l->job_num);
	return rc ? rc : ioa_copyb_time(&l->copy, l->job.start_ns);
}

static int on_map_name(uint64_t id, const unsigned char *name, uint32_t len, void *arg)
{
	struct load *l = arg;
	const struct mount *m = mount_of(l, name, len);
	struct named *n;

	if (l->nmap == l->map_cap) {
		size_t cap = l->map_cap ? l->map_cap * 2 : 1024;
		struct named *map =
			IOA_FAULT("col-alloc") ? NULL : realloc(l->map, cap * sizeof(*map));

		if (!map)
			return -ENOMEM;
		l->map = map;
		l->map_cap = cap;
	}
	n = &l->map[l->nmap++];
	n->id = id;
	n->fs = m ? m->fs : 0;
	return EVP_Digest(name, len, n->sha, NULL, EVP_sha256(), NULL) == 1 ? 0 : -ENOMEM;
}

static int named_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct named *)a)->id, y = ((const struct named *)b)->id;

	return (x > y) - (x < y);
}

/*
 * The names of module region i's records: a rank's names region follows
 * its module regions (the runtime writes them so), so the first names
 * region after i, or else the last one before it.  Kept while the regions
 * after i use it too.
 */
static int names_for(struct load *l, uint32_t i)
{
	int64_t j = -1;
	uint32_t k;
	int rc;

	for (k = i + 1; k < l->r.region_count && j < 0; k++)
		if (l->r.regions[k].type == IOA_REGION_NAMES)
			j = k;
	for (k = i; k-- > 0 && j < 0;)
		if (l->r.regions[k].type == IOA_REGION_NAMES)
			j = k;
	if (j == l->map_region)
		return 0;
	l->nmap = 0;
	l->map_region = j;
	if (j < 0)
		return 0;
	rc = read_region(l, (uint32_t)j, "name", &l->names_raw);
	rc = rc ? rc
		: decoded(l, ioa_logr_each_name(&l->r, &l->names_raw, on_map_name, l), "name",
			  (uint32_t)j);
	if (!rc)
		qsort(l->map, l->nmap, sizeof(*l->map), named_cmp);
	return rc;
}

static const struct named *named(const struct load *l, uint64_t id)
{
	const struct named key = {.id = id};

	return l->nmap ? bsearch(&key, l->map, l->nmap, sizeof(*l->map), named_cmp) : NULL;
}

static int on_record(const struct ioa_log_record *rec, void *arg)
{
	struct load *l = arg;
	const struct ioa_module_desc *mod = &ioa_modules[rec->module];
	const struct named *file = named(l, rec->id);
	int rd = l->byte_counter[rec->module][0], wr = l->byte_counter[rec->module][1];
	/* Bytes not recorded (-1, in an imported log) count as none in sums. */
	int64_t bytes_read = rd >= 0 && rec->counters[rd] > 0 ? rec->counters[rd] : 0;
	int64_t bytes_written = wr >= 0 && rec->counters[wr] > 0 ? rec->counters[wr] : 0;
	int rc = row_start_binary(l, 12);

	rc = rc ? rc : ioa_copyb_i16(&l->copy, (int16_t)rec->module);
	rc = rc ? rc : ioa_copyb_i32(&l->copy, rec->rank);
	rc = rc ? rc : ioa_copyb_i64(&l->copy, (int64_t)rec->id);
	rc = rc	    ? rc
	     : file ? ioa_copyb_bytes(&l->copy, file->sha, sizeof(file->sha))
		    : ioa_copyb_null(&l->copy);
	rc = rc			? rc
	     : file && file->fs ? ioa_copyb_i32(&l->copy, file->fs)
				: ioa_copyb_null(&l->copy);
	rc = rc ? rc : ioa_copyb_i32(&l->copy, (int32_t)rec->flags);
	rc = rc ? rc : ioa_copyb_i64(&l->copy, bytes_read);
	rc = rc ? rc : ioa_copyb_i64(&l->copy, bytes_written);
	rc = rc ? rc : ioa_copyb_i64_array(&l->copy, rec->counters, mod->counter_count);
	rc = rc ? rc : ioa_copyb_f64_array(&l->copy, rec->fcounters, mod->fcounter_count);
	l->records++;
	l->unnamed += !file && !(rec->flags & IOA_REC_FOLDED);
	/* MPI-IO bytes are also in the POSIX calls beneath them: the job's totals skip them. */
	/* A job's bytes are its POSIX and STDIO bytes: the layers above count them again. */
	if ((rec->module == IOA_MOD_POSIX || rec->module == IOA_MOD_STDIO) && bytes_read > 0)
		l->bytes_read += (uint64_t)bytes_read;
	if ((rec->module == IOA_MOD_POSIX || rec->module == IOA_MOD_STDIO) && bytes_written > 0)
		l->bytes_written += (uint64_t)bytes_written;
	return rc ? rc : copy_flush(l, 0);
}

static int load_records(struct load *l, uint32_t i)
{
	return decoded(l, ioa_logr_each_record(&l->r, i, &l->raw, on_record, l), "record", i);
}

/* The module regions in the log's order, each with its rank's names at hand. */
static int records(struct load *l)
{
	uint32_t i;
	unsigned m;
	int rc = copy_begin(l, "COPY records (job, start_time, module, rank, record_id, file, fs, "
			       "flags, bytes_read, bytes_written, counters, fcounters) FROM STDIN "
			       "(FORMAT binary)");

	rc = rc ? rc : ioa_copyb_header(&l->copy);
	for (i = 0; i < l->r.region_count && !rc; i++)
		for (m = 0; m < IOA_MOD_COUNT && !rc; m++)
			if (l->r.regions[i].type == ioa_modules[m].region_type) {
				rc = names_for(l, i);
				rc = rc ? rc : read_region(l, i, ioa_modules[m].name, &l->raw);
				rc = rc ? rc : load_records(l, i);
			}
	rc = rc ? rc : ioa_copyb_trailer(&l->copy);
	return copy_end(l, rc);
}

/* ------------------------------------------------------------ bins, failures, hints */

static int on_bins(const struct ioa_log_bins *b, void *arg)
{
	struct load *l = arg;
	int rc = row_start_binary(l, 11);

	rc = rc ? rc : ioa_copyb_i16(&l->copy, (int16_t)b->module);
	rc = rc ? rc : ioa_copyb_i32(&l->copy, b->rank);
	rc = rc ? rc : ioa_copyb_i64(&l->copy, (int64_t)b->record_id);
	rc = rc ? rc : ioa_copyb_time(&l->copy, b->start_ns);
	rc = rc ? rc : ioa_copyb_f64(&l->copy, b->width_s);
	rc = rc ? rc : ioa_copyb_i64_array(&l->copy, (const int64_t *)b->read_bytes, b->nbins);
	rc = rc ? rc : ioa_copyb_i64_array(&l->copy, (const int64_t *)b->write_bytes, b->nbins);
	rc = rc ? rc : ioa_copyb_u32_array(&l->copy, b->read_ops, b->nbins);
	rc = rc ? rc : ioa_copyb_u32_array(&l->copy, b->write_ops, b->nbins);
	return rc ? rc : copy_flush(l, 0);
}

static int load_bins(struct load *l, uint32_t i)
{
	return decoded(l, ioa_logr_each_bins(&l->r, &l->raw, on_bins, l), "time bins", i);
}

static int on_failure(const struct ioa_log_failure *f, void *arg)
{
	struct load *l = arg;
	int rc = row_start(l);

	ioa_buf_reset(&l->text);
	rc = rc ? rc
		: ioa_buf_addf(&l->copy, "%d\t%" PRId32 "\t%" PRId64 "\t", (int)f->module, f->rank,
			       (int64_t)f->record_id);
	rc = rc ? rc : ioa_buf_add_escaped(&l->text, f->op, f->op_len);
	rc = rc ? rc : ioa_copy_text(&l->copy, l->text.data, l->text.len);
	rc = rc ? rc
		: ioa_buf_addf(&l->copy, "\t%" PRId32 "\t%" PRId64 "\n", f->err, (int64_t)f->count);
	return rc ? rc : copy_flush(l, 0);
}

static int load_failures(struct load *l, uint32_t i)
{
	return decoded(l, ioa_logr_each_failure(&l->r, &l->raw, on_failure, l), "errors", i);
}

static int on_hints(uint64_t id, int32_t rank, const unsigned char *text, uint32_t len, void *arg)
{
	struct load *l = arg;
	int rc = row_start(l);

	ioa_buf_reset(&l->text);
	rc = rc ? rc : ioa_buf_addf(&l->copy, "%" PRId32 "\t%" PRId64 "\t", rank, (int64_t)id);
	rc = rc ? rc : ioa_buf_add_escaped(&l->text, text, len);
	rc = rc ? rc : ioa_copy_text(&l->copy, l->text.data, l->text.len);
	rc = rc ? rc : ioa_buf_addstr(&l->copy, "\n");
	return rc ? rc : copy_flush(l, 0);
}

static int load_hints(struct load *l, uint32_t i)
{
	return decoded(l, ioa_logr_each_hints(&l->r, &l->raw, on_hints, l), "hints", i);
}

/* A trace region as stored (compressed); read once to check it, then its stored bytes. */
static int load_trace(struct load *l, uint32_t i)
{
	const struct ioa_log_region *reg = &l->r.regions[i];
	struct ioa_buf stored = IOA_BUF_INIT((size_t)1 << 31);
	char seq[16], compression[16], raw_size[24];
	ssize_t n = -1;
	int rc = ioa_buf_grow(&stored, (size_t)reg->stored_size);

	if (!rc)
		n = IOA_FAULT("logr-read") ? (errno = EIO, -1)
					   : pread(l->fd, stored.data, (size_t)reg->stored_size,
						   (off_t)reg->offset);
	if (!rc && n < 0 && transient(errno)) {
		l->r.error[0] = '\0'; /* the reader did not fail: the message is errno's */
		rc = unreadable(l, -errno, "trace region");
	} else if (!rc && n < 0)
		rc = bad(l, "trace region %u: %s", i, strerror(errno));
	else if (!rc && n != (ssize_t)reg->stored_size)
		rc = bad(l, "trace region %u: short read", i);
	if (!rc) {
		struct ioa_buf param = IOA_BUF_INIT((size_t)1 << 31);
		const char *p[] = {l->job_id, l->start,
				   seq,	      compression,
				   raw_size,  bytea_param(&param, stored.data, (size_t)n)};

		snprintf(seq, sizeof(seq), "%u", i);
		snprintf(compression, sizeof(compression), "%u", reg->compression);
		snprintf(raw_size, sizeof(raw_size), "%" PRIu64, reg->raw_size);
		rc = p[5] ? exec(l,
				 "INSERT INTO traces (job, start_time, seq, compression, raw_size, "
				 "data) VALUES ($1, $2, $3, $4, $5, $6::bytea)",
				 6, p)
			  : -ENOMEM;
		ioa_buf_release(&param);
	}
	ioa_buf_release(&stored);
	return rc;
}

static int the_rest(struct load *l)
{
	int rc = 0;

	if (has_region(l, IOA_REGION_BINS)) {
		rc = copy_begin(l, "COPY time_bins FROM STDIN (FORMAT binary)");
		rc = rc ? rc : ioa_copyb_header(&l->copy);
		rc = rc ? rc : each_region(l, IOA_REGION_BINS, "time bins", load_bins);
		rc = copy_end(l, rc ? rc : ioa_copyb_trailer(&l->copy));
	}
	if (!rc && has_region(l, IOA_REGION_ERRORS)) {
		rc = copy_begin(l, "COPY failures FROM STDIN");
		rc = copy_end(l,
			      rc ? rc : each_region(l, IOA_REGION_ERRORS, "errors", load_failures));
	}
	if (!rc && has_region(l, IOA_REGION_HINTS)) {
		rc = copy_begin(l, "COPY hints FROM STDIN");
		rc = copy_end(l, rc ? rc : each_region(l, IOA_REGION_HINTS, "hints", load_hints));
	}
	return rc ? rc : each_region(l, IOA_REGION_TRACE, "trace", load_trace);
}

/* ------------------------------------------------------------ the ledger */

/*
 * The folder holding the log at path, opened from the log tree's root
 * without following a symbolic link below it (a user who may make a folder
 * there could point it at another user's files: they are neither read nor
 * moved); *name gets the log's name in it.  A path outside the log tree
 * (`ioatlas ingest LOG`) is taken as named.  The descriptor, or a negative
 * errno: -ELOOP for a symbolic link (or anything not a folder) on the way.
 */
static int open_log_dir(const struct ingest_settings *set, const char *path, const char **name)
{
	const char *slash = strrchr(path, '/'), *rel;
	size_t n = set->logdir ? strlen(set->logdir) : 0;
	char dir[PATH_MAX], *comp, *save = NULL;
	int fd, next;

	*name = slash ? slash + 1 : path;
	while (n > 1 && set->logdir[n - 1] == '/')
		n--;
	if (!slash || !n || strncmp(path, set->logdir, n) || path[n] != '/') {
		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + 1 : 1,
			 slash ? path : ".");
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	snprintf(dir, sizeof(dir), "%.*s", (int)n, set->logdir);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rel = path + n + 1;
	if (slash <= rel)
		return fd;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - rel), rel);
	for (comp = strtok_r(dir, "/", &save); comp; comp = strtok_r(NULL, "/", &save)) {
		next = strcmp(comp, "..")
			       ? openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
			       : (errno = ELOOP, -1);
		close(fd);
		if (next < 0)
			return errno == ENOTDIR ? -ELOOP : -errno;
		fd = next;
	}
	return fd;
}

/*
 * Where a quarantined log goes: the quarantine folder (qfd), its name kept
 * (a suffix if taken); name gets the name in the folder, out the full path.
 */
static int quarantine_path(const struct load *l, int qfd, const char *path, char *name,
			   size_t name_len, char *out, size_t len)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct stat st;
	int k;

	for (k = 0; k < 1000; k++) {
		if (k)
			snprintf(name, name_len, "%s.%d", base, k);
		else
			snprintf(name, name_len, "%s", base);
		snprintf(out, len, "%s/%s", l->set->quarantine, name);
		/* free, or unreachable: the move will say so */
		if (qfd < 0 || fstatat(qfd, name, &st, AT_SYMLINK_NOFOLLOW))
			return 0;
	}
	return -EEXIST;
}

int ingest_quarantine_open(const char *dir, const char *logdir, struct ioa_buf *err)
{
	struct stat st, tree;
	uid_t me = geteuid(), service;
	int fd, rc;

	if (mkdir(dir, 0750) && errno != EEXIST) {
		rc = -errno;
		ioa_buf_addf(err, "cannot make the quarantine folder '%s': %s", dir,
			     strerror(errno));
		return rc;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		if ((errno == ELOOP || errno == ENOTDIR) && !lstat(dir, &st) && S_ISLNK(st.st_mode))
			ioa_buf_addf(
				err,
				"the quarantine folder '%s' is a symbolic link: remove it (the "
				"collector makes the folder) or set collector.quarantine to a "
				"real folder",
				dir);
		else if (rc == -ENOTDIR || rc == -ELOOP)
			ioa_buf_addf(
				err,
				"the quarantine folder '%s' is not a folder: move it away (the "
				"collector makes the folder) or set collector.quarantine",
				dir);
		else
			ioa_buf_addf(err, "cannot open the quarantine folder '%s': %s", dir,
				     ioa_strerror(rc));
		return rc;
	}
	service = logdir && !stat(logdir, &tree) ? tree.st_uid : me;
	if (fstat(fd, &st)) {
		rc = -errno;
		ioa_buf_addf(err, "cannot open the quarantine folder '%s': %s", dir,
			     strerror(errno));
		close(fd);
		return rc;
	}
	if (st.st_uid != me && st.st_uid != 0 && st.st_uid != service) {
		ioa_buf_addf(
			err,
			"the quarantine folder '%s' belongs to uid %u, not to the collector "
			"(uid %u), root or the log tree's owner (uid %u): someone may have made "
			"it to read or redirect quarantined logs; look at what it holds, then "
			"remove it (the collector makes it) or chown %u '%s'",
			dir, (unsigned)st.st_uid, (unsigned)me, (unsigned)service, (unsigned)me,
			dir);
		close(fd);
		return -EPERM;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		ioa_buf_addf(
			err,
			"the quarantine folder '%s' is writable by %s (mode %04o): look at what "
			"it holds, then chmod go-w '%s' (0750 is usual)",
			dir, st.st_mode & S_IWOTH ? "others" : "its group",
			(unsigned)(st.st_mode & 07777), dir);
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* The quarantine folder, checked: the settings' descriptor, or one opened now (*opened). */
static int quarantine_fd(const struct ingest_settings *set, int *opened)
{
	struct ioa_buf err = IOA_BUF_INIT(1024);
	int fd = set->quarantine_fd;

	*opened = -1;
	if (fd < 0) {
		fd = *opened = ingest_quarantine_open(set->quarantine, set->logdir, &err);
		if (fd < 0)
			ioa_warning("%s", ioa_buf_str(&err));
	}
	ioa_buf_release(&err);
	return fd;
}

/*
 * Moves the log at path into the quarantine folder qfd as name.  Never
 * replaces what is there (a user's symbolic link included); with was (the
 * log as it was read), only that file moves, not something put in its place.
 */
static int move_to_quarantine(int qfd, int dirfd, const char *log, const char *name,
			      const struct stat *was)
{
	struct stat now;

	if (qfd < 0 || dirfd < 0)
		return -ENOTDIR;
	if (was && (fstatat(dirfd, log, &now, AT_SYMLINK_NOFOLLOW) || now.st_dev != was->st_dev ||
		    now.st_ino != was->st_ino))
		return -ESTALE;
	if (IOA_FAULT("col-rename"))
		return -EIO;
	if (!renameat2(dirfd, log, qfd, name, RENAME_NOREPLACE))
		return 0;
	/* A file system without RENAME_NOREPLACE: the name was free a moment ago. */
	if (errno == EINVAL && !fstatat(qfd, name, &now, AT_SYMLINK_NOFOLLOW))
		return -EEXIST;
	if (errno == EINVAL && !renameat(dirfd, log, qfd, name))
		return 0;
	return -errno;
}

/*
 * Where the ranks ran, as parameters: the node names in display form one
 * per line (the display form has no raw newline), and an integer array
 * literal of each rank's node.
 */
static int node_params(const struct job_info *j, struct ioa_buf *hosts, struct ioa_buf *nodes)
{
	size_t i, start = 0;
	int rc = 0;

	for (i = 0; i <= j->hostnames.len && !rc; i++)
		if (i == j->hostnames.len || !j->hostnames.data[i]) {
			if (i > start) {
				rc = hosts->len ? ioa_buf_addstr(hosts, "\n") : 0;
				rc = rc ? rc
					: ioa_buf_add_escaped(hosts, j->hostnames.data + start,
							      i - start);
			}
			start = i + 1;
		}
	for (i = 0; i + 4 <= j->rank_nodes.len && !rc; i += 4)
		rc = ioa_buf_addf(nodes, "%s%" PRIu32, i ? "," : "{",
				  ioa_get_u32((const unsigned char *)j->rank_nodes.data + i));
	return rc || !nodes->len ? rc : ioa_buf_addstr(nodes, "}");
}

/*
 * The log's ledger row.  For an ingested log the same statement completes
 * the job's row: its ledger id and byte totals.
 */
static int ledger(struct load *l, const char *status, const char *path, const char *hash,
		  const char *error, const char *qpath, const char *dup_of, const char *started)
{
	static const char insert[] =
		"INSERT INTO ingest_ledger (path, size, mtime, content_hash, status, error, "
		"quarantine_path, reader_version, collector, started_at, job, duplicate_of) "
		"VALUES ($1, $2, $3, $4::bytea, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id";
	static const char insert_and_complete[] =
		"WITH entry AS (INSERT INTO ingest_ledger (path, size, mtime, content_hash, "
		"status, "
		"error, quarantine_path, reader_version, collector, started_at, job, duplicate_of) "
		"VALUES ($1, $2, $3, $4::bytea, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id) "
		"UPDATE jobs SET ledger = (SELECT id FROM entry), bytes_read = $13, "
		"bytes_written = $14, hostnames = string_to_array($16, chr(10)), "
		"rank_nodes = $17::integer[], job_step = $18, array_job_id = $19, "
		"array_task_id = $20, job_partition = $21, job_account = $22, job_name = $23, "
		"node_list = $24, partial = $25::boolean, partial_how = $26, "
		"partial_signal = $27::integer, partial_abort_code = $28::integer, "
		"partial_reason = $29, partial_ranks = $30, partial_missing = $31, "
		"partial_until_first = $32::timestamptz, partial_until_last = $33::timestamptz, "
		"source = $34, io_libraries = string_to_array($35, ' '), clock_base = $36, "
		"clock_uncertainty_ns = $37::bigint, clock_drift_ns = $38::bigint, build_id = $39, "
		"app_id = job_application(user_id, exe_id, args_display, $39, $34::text IS NOT "
		"NULL) "
		"WHERE id = $11::bigint AND start_time = $15::timestamptz";
	char size[24], mtime[48], hostpid[300], host[256] = "", rd[24], wr[24];
	char signal_text[16], abort_code[16], until_first[48], until_last[48], libs[64];
	char unc[24], drift[24];
	const struct ioa_partial *partial = &l->job.partial;
	int ingested = !strcmp(status, "ingested");
	const char *p[] = {path,
			   size,
			   mtime,
			   hash,
			   status,
			   error,
			   qpath,
			   READER_VERSION,
			   hostpid,
			   started,
			   ingested ? l->job_id : NULL,
			   dup_of,
			   rd,
			   wr,
			   l->start,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL,
			   NULL};
	struct ioa_buf hosts = IOA_BUF_INIT((size_t)1 << 26), nodes = IOA_BUF_INIT((size_t)1 << 26);
	struct ioa_buf source = IOA_BUF_INIT(16 * IOA_SOURCE_VALUE_MAX);
	size_t k;
	int rc;

	gethostname(host, sizeof(host) - 1);
	snprintf(hostpid, sizeof(hostpid), "%s:%ld", host, (long)getpid());
	snprintf(size, sizeof(size), "%lld", (long long)l->st.st_size);
	snprintf(rd, sizeof(rd), "%" PRIu64, l->bytes_read);
	snprintf(wr, sizeof(wr), "%" PRIu64, l->bytes_written);
	time_text((uint64_t)l->st.st_mtim.tv_sec * 1000000000u + (uint64_t)l->st.st_mtim.tv_nsec,
		  mtime, sizeof(mtime));
	if (!ingested)
		return exec(l, insert, 12, p);
	rc = node_params(&l->job, &hosts, &nodes);
	p[15] = hosts.len ? hosts.data : NULL;
	p[16] = nodes.len ? nodes.data : NULL;
	for (k = 0; k < SCHED_KEYS; k++)
		p[17 + k] = l->job.sched[k].len ? l->job.sched[k].data : NULL;
	/* The partial key's fields: each checked by ioa_partial, NULL when absent or malformed. */
	snprintf(signal_text, sizeof(signal_text), "%d", partial->signal);
	snprintf(abort_code, sizeof(abort_code), "%d", partial->abort_code);
	time_text(partial->until_first_ns, until_first, sizeof(until_first));
	time_text(partial->until_last_ns, until_last, sizeof(until_last));
	p[24] = l->job.have[IOA_JOB_PARTIAL] ? "t" : "f";
	p[25] = ioa_partial_how_name(partial->how);
	p[26] = partial->signal ? signal_text : NULL;
	p[27] = partial->has_abort_code ? abort_code : NULL;
	p[28] = partial->reason;
	p[29] = partial->ranks;
	p[30] = partial->missing;
	p[31] = partial->until_first_ns ? until_first : NULL;
	p[32] = partial->until_last_ns ? until_last : NULL;
	if (!rc && l->job.have[IOA_JOB_SOURCE])
		rc = ioa_source_format(&l->job.source, &source);
	p[33] = l->job.have[IOA_JOB_SOURCE] ? ioa_buf_str(&source) : NULL;
	ioa_format_io_libraries(l->job.io_libs, libs, sizeof(libs));
	p[34] = libs[0] ? libs : NULL;
	if (l->job.have[IOA_JOB_CLOCK] && l->job.clock.uncertainty_ns <= INT64_MAX &&
	    l->job.clock.drift_ns <= INT64_MAX) {
		snprintf(unc, sizeof(unc), "%" PRIu64, l->job.clock.uncertainty_ns);
		snprintf(drift, sizeof(drift), "%" PRIu64, l->job.clock.drift_ns);
		p[35] = ioa_clock_base_name(l->job.clock.base);
		p[36] = l->job.clock.base == IOA_CLOCK_RANK0 ? unc : NULL;
		p[37] = l->job.clock.base == IOA_CLOCK_RANK0 ? drift : NULL;
	}
	p[38] = l->job.build[0] ? l->job.build : NULL;
	rc = rc ? rc : exec(l, insert_and_complete, 39, p);
	ioa_buf_release(&hosts);
	ioa_buf_release(&nodes);
	ioa_buf_release(&source);
	return rc;
}

/*
 * A quarantined log still where it was found (its move failed, or the
 * collector died between recording and moving it): moved now into the
 * quarantine folder as recorded, unless something already holds its place
 * there, or the folder is no longer the one recorded (then it is left for
 * an admin, and said).
 */
static void finish_move(const struct ingest_settings *set, const char *path, const char *dest)
{
	size_t dir_len = strlen(set->quarantine);
	int opened, qfd, rc, dirfd;
	const char *log;
	struct stat st;

	dirfd = open_log_dir(set, path, &log);
	if (dirfd < 0)
		return;
	if (fstatat(dirfd, log, &st, AT_SYMLINK_NOFOLLOW)) {
		close(dirfd);
		return;
	}
	if (strncmp(dest, set->quarantine, dir_len) || dest[dir_len] != '/' ||
	    strchr(dest + dir_len + 1, '/')) {
		ioa_warning("'%s' was quarantined to '%s', outside the quarantine folder '%s' now: "
			    "move it by hand",
			    path, dest, set->quarantine);
		close(dirfd);
		return;
	}
	qfd = quarantine_fd(set, &opened);
	rc = move_to_quarantine(qfd, dirfd, log, dest + dir_len + 1, NULL);
	if (rc && rc != -EEXIST)
		ioa_warning("cannot move '%s' to the quarantine folder: %s", path,
			    ioa_strerror(rc));
	else if (!rc)
		ioa_info("moved '%s' to the quarantine folder, as recorded", path);
	if (opened >= 0)
		close(opened);
	close(dirfd);
}

/*
 * Begins the log's transaction, takes its lock and reads the ledger about
 * it in one statement: 0 (dup, if given, gets the ledger id of an ingested
 * log with the same content, or ""), or 1 with KNOWN, BUSY or RETRY.
 */
static int claim(struct load *l, const char *path, const char *hash, enum ingest_result *result,
		 char *dup, size_t dup_len)
{
	static const char sql[] =
		"SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)), "
		"EXISTS (SELECT 1 FROM ingest_ledger WHERE path = $1), "
		"(SELECT min(id) FROM ingest_ledger WHERE content_hash = $2::bytea AND "
		"status = 'ingested'), "
		"(SELECT quarantine_path FROM ingest_ledger WHERE path = $1 AND "
		"status = 'quarantined')";
	char state[6];
	int rc = exec(l, "BEGIN", 0, NULL);
	PGresult *res = NULL;

	if (!rc)
		res = ioa_db_query_prepared(l->conn, sql, 2, (const char *const[]){path, hash},
					    &l->err, &rc, state);
	if (!res) {
		db_failed(l, rc ? rc : -EIO, state);
		*result = INGEST_RETRY;
		return 1;
	}
	*result = strcmp(PQgetvalue(res, 0, 0), "t")	? INGEST_BUSY
		  : !strcmp(PQgetvalue(res, 0, 1), "t") ? INGEST_KNOWN
							: INGEST_RETRY;
	if (dup)
		snprintf(dup, dup_len, "%s", PQgetvalue(res, 0, 2));
	if (*result == INGEST_KNOWN && !PQgetisnull(res, 0, 3))
		finish_move(l->set, path, PQgetvalue(res, 0, 3));
	PQclear(res);
	return *result != INGEST_RETRY;
}

static enum ingest_result quarantine(struct load *l, const char *path, const char *hash,
				     const char *started)
{
	enum ingest_result result = INGEST_QUARANTINED;
	char dest[PATH_MAX], name[NAME_MAX + 1], reason[sizeof(((struct ingest_stats *)0)->reason)];
	int rc, opened, qfd;

	snprintf(reason, sizeof(reason), "%s", l->reason);
	rollback(l->conn);
	if (claim(l, path, NULL, &result, NULL, 0)) {
		rollback(l->conn);
		return result;
	}
	result = INGEST_QUARANTINED;
	/* Behind a symbolic link: recorded as left where it is (no quarantine path), never moved.
	 */
	qfd = l->dirfd < 0 ? (opened = -1) : quarantine_fd(l->set, &opened);
	rc = l->dirfd < 0 ? 0
			  : quarantine_path(l, qfd, path, name, sizeof(name), dest, sizeof(dest));
	rc = rc ? rc
		: ledger(l, "quarantined", path, hash, reason, l->dirfd < 0 ? NULL : dest, NULL,
			 started);
	rc = rc ? rc : exec(l, "COMMIT", 0, NULL);
	snprintf(l->reason, sizeof(reason), "%s", reason);
	if (rc) {
		rollback(l->conn);
		result = INGEST_RETRY;
		goto out;
	}
	/* Recorded first, moved after: a crash in between leaves the log in place, known. */
	rc = l->dirfd < 0 ? 0
			  : move_to_quarantine(qfd, l->dirfd, l->name, name,
					       l->st.st_ino ? &l->st : NULL);
	if (rc)
		ioa_warning("cannot move '%s' to the quarantine folder: %s", path,
			    rc == -ESTALE ? "it changed since it was read" : ioa_strerror(rc));
out:
	if (opened >= 0)
		close(opened);
	return result;
}

static void load_free(struct load *l)
{
	size_t i;

	ioa_logr_close(&l->r);
	for (i = 0; i < l->nmounts; i++) {
		free(l->mounts[i].path);
		free(l->mounts[i].type);
	}
	free(l->mounts);
	free(l->seen);
	free(l->map);
	ioa_buf_release(&l->raw);
	ioa_buf_release(&l->names_raw);
	ioa_buf_release(&l->names_copy);
	ioa_buf_release(&l->copy);
	ioa_buf_release(&l->err);
	ioa_buf_release(&l->text);
	ioa_buf_release(&l->job.user);
	ioa_buf_release(&l->job.jobid);
	ioa_buf_release(&l->job.scheduler);
	ioa_buf_release(&l->job.exe);
	ioa_buf_release(&l->job.args);
	ioa_buf_release(&l->job.version);
	ioa_buf_release(&l->job.settings);
	ioa_buf_release(&l->job.hostnames);
	ioa_buf_release(&l->job.rank_nodes);
	for (i = 0; i < SCHED_KEYS; i++)
		ioa_buf_release(&l->job.sched[i]);
	ioa_partial_release(&l->job.partial);
	ioa_source_release(&l->job.source);
	if (l->fd >= 0)
		close(l->fd);
	if (l->dirfd >= 0)
		close(l->dirfd);
}

static void find_byte_counters(struct load *l)
{
	unsigned m, k;

	for (m = 0; m < IOA_MOD_COUNT; m++) {
		const struct ioa_module_desc *mod = &ioa_modules[m];

		l->byte_counter[m][0] = l->byte_counter[m][1] = -1;
		for (k = 0; k < mod->counter_count; k++) {
			const char *name = mod->counter_names[k];
			size_t len = strlen(name);

			/* The module's own: PNETCDF_FILE_BYTES_READ, not a byte bin. */
			if (len > 11 && !strcmp(name + len - 11, "_BYTES_READ"))
				l->byte_counter[m][0] = (int)k;
			if (len > 14 && !strcmp(name + len - 14, "_BYTES_WRITTEN"))
				l->byte_counter[m][1] = (int)k;
		}
	}
}

double ingest_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* tries > 0: the last try of an unreadable log (ingest_log_last_try()). */
static enum ingest_result ingest(struct ingest_db *db, const struct ingest_settings *set,
				 const char *path, unsigned tries, double waited,
				 struct ingest_stats *stats)
{
	struct load l = {.conn = db->conn,
			 .names = db->names,
			 .set = set,
			 .fd = -1,
			 .dirfd = -1,
			 .r = {.fd = -1},
			 .map_region = -1};
	enum ingest_result result = INGEST_RETRY;
	unsigned char digest[32];
	char hash[80], started[48], proc[64], dup[24];
	struct timespec wall;
	double t0 = ingest_now();
	size_t k;
	int rc;

	memset(stats, 0, sizeof(*stats));
	l.reason = stats->reason;
	ioa_buf_init(&l.raw, (size_t)set->region_cap);
	ioa_buf_init(&l.copy, (size_t)1 << 30);
	ioa_buf_init(&l.names_raw, (size_t)set->region_cap);
	ioa_buf_init(&l.names_copy, (size_t)1 << 30);
	ioa_buf_init(&l.err, 1024);
	ioa_buf_init(&l.text, (size_t)1 << 24);
	ioa_buf_init(&l.job.user, 4096);
	ioa_buf_init(&l.job.jobid, 4096);
	ioa_buf_init(&l.job.scheduler, 4096);
	ioa_buf_init(&l.job.exe, (size_t)1 << 20);
	ioa_buf_init(&l.job.args, (size_t)1 << 24);
	ioa_buf_init(&l.job.version, 4096);
	ioa_buf_init(&l.job.settings, (size_t)1 << 20);
	ioa_buf_init(&l.job.hostnames, (size_t)1 << 26);
	ioa_buf_init(&l.job.rank_nodes, (size_t)1 << 26);
	for (k = 0; k < SCHED_KEYS; k++)
		ioa_buf_init(&l.job.sched[k], 4 * SCHED_VALUE_MAX);
	find_byte_counters(&l);
	clock_gettime(CLOCK_REALTIME, &wall);
	time_text((uint64_t)wall.tv_sec * 1000000000u + (uint64_t)wall.tv_nsec, started,
		  sizeof(started));

	l.dirfd = open_log_dir(set, path, &l.name);
	if (l.dirfd == -ELOOP) {
		bad(&l, "not read: a symbolic link (or a file) in its path below the log tree, "
			"where a folder should be; left where it is");
		result = quarantine(&l, path, NULL, started);
		goto out;
	}
	errno = -l.dirfd;
	l.fd = l.dirfd < 0
		       ? -1
		       : openat(l.dirfd, l.name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (l.fd < 0 && errno == ENOENT) {
		result = INGEST_GONE;
		goto out;
	}
	if (l.fd < 0 || fstat(l.fd, &l.st)) {
		int err = errno;

		if (err == ELOOP)
			bad(&l, "cannot open: a symbolic link");
		else if (transient(err) && !tries) {
			snprintf(stats->reason, sizeof(stats->reason), "cannot open: %s",
				 strerror(err));
			result = INGEST_UNREADABLE;
			goto out;
		} else if (transient(err))
			bad(&l, "unreadable after %u tries over %.0f s: cannot open: %s", tries + 1,
			    waited, strerror(err));
		else
			bad(&l, "cannot open: %s", strerror(err));
		if (l.dirfd < 0 || fstatat(l.dirfd, l.name, &l.st, AT_SYMLINK_NOFOLLOW))
			memset(&l.st, 0, sizeof(l.st));
		result = quarantine(&l, path, NULL, started);
		goto out;
	}
	stats->bytes = (uint64_t)l.st.st_size;
	if (!S_ISREG(l.st.st_mode)) {
		bad(&l, "not a regular file");
		result = quarantine(&l, path, NULL, started);
		goto out;
	}
	rc = sha256_fd(l.fd, digest);
	if (rc && transient(-rc) && !tries) {
		snprintf(stats->reason, sizeof(stats->reason), "cannot read: %s", ioa_strerror(rc));
		result = INGEST_UNREADABLE;
		goto out;
	}
	if (rc) {
		if (tries)
			bad(&l, "unreadable after %u tries over %.0f s: cannot read: %s", tries + 1,
			    waited, ioa_strerror(rc));
		else
			bad(&l, "cannot read: %s", ioa_strerror(rc));
		result = quarantine(&l, path, NULL, started);
		goto out;
	}
	bytea_param(&l.text, digest, sizeof(digest));
	snprintf(hash, sizeof(hash), "%s", ioa_buf_str(&l.text));

	if (claim(&l, path, hash, &result, dup, sizeof(dup)))
		goto out_rollback;
	/* The same content under another name: recorded as a duplicate, loaded once. */
	if (!rc && dup[0]) {
		rc = ledger(&l, "duplicate", path, hash, NULL, NULL, dup, started);
		rc = rc ? rc : exec(&l, "COMMIT", 0, NULL);
		result = rc ? INGEST_RETRY : INGEST_DUPLICATE;
		if (rc)
			goto out_rollback;
		goto out;
	}

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", l.fd);
	if (!rc && (rc = ioa_logr_open_any(&l.r, proc)))
		rc = rc == -ENOMEM     ? rc
		     : read_failed(rc) ? unreadable(&l, rc, "log")
				       : bad(&l, "%s", ioa_logr_error(&l.r));
	rc = rc ? rc : read_job(&l);
	rc = rc ? rc : insert_job(&l);
	rc = rc ? rc : mounts(&l);
	rc = rc ? rc : names_send(&l);
	rc = rc ? rc : records(&l);
	rc = rc ? rc : the_rest(&l);
	rc = rc ? rc : names_wait(&l);
	rc = rc ? rc : ledger(&l, "ingested", path, hash, NULL, NULL, NULL, started);
	rc = rc ? rc
		: exec(&l, "SELECT job_history_add($1::bigint, $2::timestamptz)", 2,
		       (const char *const[]){l.job_id, l.start});
	rc = rc ? rc : exec(&l, "COMMIT", 0, NULL);
	if (!rc) {
		result = INGEST_DONE;
		ioa_parse_i64(l.job_id, &stats->job);
		stats->records = l.records;
		if (l.unnamed)
			ioa_warning("'%s': %" PRIu64 " records have no name in their rank's names "
				    "region: loaded without their file",
				    path, l.unnamed);
		goto out;
	}
	/* The names' transaction ends (committed, or rolled back if cut short) before anything
	 * else. */
	names_wait(&l);
	rollback(l.names);
	/* Not readable now: later (the ledger untouched), or quarantined at its last try. */
	if (rc == LOAD_UNREADABLE && !tries) {
		result = INGEST_UNREADABLE;
		goto out_rollback;
	}
	if (rc == LOAD_UNREADABLE) {
		char why[sizeof(stats->reason)];

		snprintf(why, sizeof(why), "%s", stats->reason);
		bad(&l, "unreadable after %u tries over %.0f s: %s", tries + 1, waited, why);
		rc = LOAD_BAD;
	}
	if (rc == LOAD_BAD) {
		result = quarantine(&l, path, hash, started);
		goto out;
	}
	if (rc == -ENOMEM)
		snprintf(stats->reason, sizeof(stats->reason), "out of memory");
	result = INGEST_RETRY;
out_rollback:
	rollback(l.conn);
out:
	/* File systems learnt in a transaction that did not commit are not in the warehouse. */
	if (result == INGEST_DONE)
		fs_committed = fs_cached;
	else
		fs_cache_truncate(fs_committed);
	load_free(&l);
	stats->seconds = ingest_now() - t0;
	return result;
}

enum ingest_result ingest_log(struct ingest_db *db, const struct ingest_settings *set,
			      const char *path, struct ingest_stats *stats)
{
	return ingest(db, set, path, 0, 0, stats);
}

enum ingest_result ingest_log_last_try(struct ingest_db *db, const struct ingest_settings *set,
				       const char *path, unsigned tries, double waited,
				       struct ingest_stats *stats)
{
	return ingest(db, set, path, tries ? tries : 1, waited, stats);
}

static int check_role(PGconn *conn, struct ioa_buf *err)
{
	int rc;
	PGresult *res = ioa_db_query(conn,
				     "SELECT rolsuper OR rolbypassrls, current_user FROM pg_roles "
				     "WHERE rolname = current_user",
				     0, NULL, err, &rc, NULL);

	if (!res)
		return rc;
	if (PQntuples(res) == 1 && strcmp(PQgetvalue(res, 0, 0), "t")) {
		ioa_buf_reset(err);
		ioa_buf_addf(err,
			     "the collector's role '%s' cannot load tables under row-level "
			     "security: a superuser must run ALTER ROLE \"%s\" BYPASSRLS",
			     PQgetvalue(res, 0, 1), PQgetvalue(res, 0, 1));
		rc = -EPERM;
	}
	PQclear(res);
	return rc;
}

static int prepare(PGconn *conn, PGconn *names_conn, struct ioa_buf *err)
{
	struct ioa_buf modules = IOA_BUF_INIT(1 << 20), kinds = IOA_BUF_INIT(1 << 20),
		       positions = IOA_BUF_INIT(1 << 20), names = IOA_BUF_INIT(1 << 20);
	unsigned m, k, kind;
	/* The session's staging tables, emptied at each commit. */
	int rc = ioa_db_script(conn,
			       "CREATE TEMP TABLE IF NOT EXISTS tmp_mounts (ord integer, "
			       "mount bytea, display text, fs_type text) ON COMMIT DELETE ROWS",
			       err);

	rc = rc ? rc
		: ioa_db_script(names_conn,
				"CREATE TEMP TABLE IF NOT EXISTS tmp_names (sha256 bytea, "
				"name bytea, display text) ON COMMIT DELETE ROWS",
				err);

	fs_cache_clear();
	/* The counter layout, as four parallel arrays in one statement (names are identifiers). */
	for (m = 0; m < IOA_MOD_COUNT && !rc; m++) {
		const struct ioa_module_desc *mod = &ioa_modules[m];

		for (kind = 0; kind < 2 && !rc; kind++) {
			unsigned n = kind ? mod->fcounter_count : mod->counter_count;

			for (k = 0; k < n && !rc; k++) {
				const char *sep = modules.len ? "," : "{";

				rc = ioa_buf_addf(&modules, "%s%u", sep, m);
				rc = rc ? rc
					: ioa_buf_addf(&kinds, "%s%s", sep,
						       kind ? "fcounter" : "counter");
				rc = rc ? rc : ioa_buf_addf(&positions, "%s%u", sep, k + 1);
				rc = rc ? rc
					: ioa_buf_addf(&names, "%s\"%s\"", sep,
						       kind ? mod->fcounter_names[k]
							    : mod->counter_names[k]);
			}
		}
	}
	rc = rc ? rc : ioa_buf_addstr(&modules, "}");
	rc = rc ? rc : ioa_buf_addstr(&kinds, "}");
	rc = rc ? rc : ioa_buf_addstr(&positions, "}");
	rc = rc ? rc : ioa_buf_addstr(&names, "}");
	if (!rc) {
		const char *p[] = {modules.data, kinds.data, positions.data, names.data};

		rc = ioa_db_exec(conn,
				 "INSERT INTO counter_names (module, kind, position, name) "
				 "SELECT * FROM unnest($1::smallint[], $2::text[], $3::integer[], "
				 "$4::text[]) ON CONFLICT (module, kind, position) DO NOTHING",
				 4, p, err);
	}
	ioa_buf_release(&modules);
	ioa_buf_release(&kinds);
	ioa_buf_release(&positions);
	ioa_buf_release(&names);
	return rc;
}

int ingest_connect(struct ingest_db *db, const char *conninfo, const char *app, struct ioa_buf *err)
{
	int rc;

	ingest_disconnect(db);
	db->conn = ioa_db_connect(conninfo, app, err);
	db->names = db->conn ? ioa_db_connect(conninfo, app, err) : NULL;
	rc = db->names ? check_role(db->conn, err) : -ECONNREFUSED;
	rc = rc ? rc : prepare(db->conn, db->names, err);
	if (rc)
		ingest_disconnect(db);
	return rc;
}

int ingest_connected(const struct ingest_db *db)
{
	return db->conn && db->names && PQstatus(db->conn) == CONNECTION_OK &&
	       PQstatus(db->names) == CONNECTION_OK;
}

void ingest_disconnect(struct ingest_db *db)
{
	PQfinish(db->conn);
	PQfinish(db->names);
	db->conn = db->names = NULL;
}
