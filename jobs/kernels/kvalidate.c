/*
 * kvalidate — a kernel against its job (see kvalidate.h): built, run under
 * the runtime with the job's rank count, and its log compared with the
 * job's, file by file and counter by counter.
 */
#define _GNU_SOURCE
#include "kvalidate.h"

#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ioa_counters.h"
#include "ioa_log.h"
#include "ioa_logfmt.h"
#include "ioa_logr.h"
#include "kgen.h"

#define REGION_CAP ((size_t)1 << 30)

/* The counters that must match, per module: counts, bytes, sizes, order and offsets. */
static const int posix_counters[] = {POSIX_OPENS,
				     POSIX_READS,
				     POSIX_WRITES,
				     POSIX_SEEKS,
				     POSIX_STATS,
				     POSIX_FSYNCS,
				     POSIX_FDSYNCS,
				     POSIX_UNLINKS,
				     POSIX_MKDIRS,
				     POSIX_RMDIRS,
				     POSIX_BYTES_READ,
				     POSIX_BYTES_WRITTEN,
				     POSIX_MAX_BYTE_READ,
				     POSIX_MAX_BYTE_WRITTEN,
				     POSIX_CONSEC_READS,
				     POSIX_CONSEC_WRITES,
				     POSIX_SEQ_READS,
				     POSIX_SEQ_WRITES,
				     POSIX_RW_SWITCHES,
				     POSIX_OVERWRITES,
				     POSIX_ACCESS1_ACCESS,
				     POSIX_ACCESS1_COUNT,
				     POSIX_ACCESS2_ACCESS,
				     POSIX_ACCESS2_COUNT,
				     POSIX_SIZE_READ_0_100,
				     POSIX_SIZE_READ_1G_PLUS,
				     POSIX_SIZE_WRITE_0_100,
				     POSIX_SIZE_WRITE_1G_PLUS,
				     -1};
static const int stdio_counters[] = {STDIO_OPENS,
				     STDIO_READS,
				     STDIO_WRITES,
				     STDIO_SEEKS,
				     STDIO_FLUSHES,
				     STDIO_BYTES_READ,
				     STDIO_BYTES_WRITTEN,
				     STDIO_MAX_BYTE_READ,
				     STDIO_MAX_BYTE_WRITTEN,
				     -1};
static const int h5f_counters[] = {H5F_OPENS, H5F_FLUSHES, H5F_USE_MPIIO, -1};
static const int h5d_counters[] = {H5D_OPENS,
				   H5D_READS,
				   H5D_WRITES,
				   H5D_FLUSHES,
				   H5D_BYTES_READ,
				   H5D_BYTES_WRITTEN,
				   H5D_REGULAR_HYPERSLAB_SELECTS,
				   H5D_IRREGULAR_HYPERSLAB_SELECTS,
				   H5D_POINT_SELECTS,
				   H5D_MAX_READ_TIME_SIZE,
				   H5D_MAX_WRITE_TIME_SIZE,
				   H5D_ACCESS1_ACCESS,
				   H5D_ACCESS1_COUNT,
				   H5D_DATASPACE_NDIMS,
				   H5D_DATASPACE_NPOINTS,
				   H5D_DATATYPE_SIZE,
				   H5D_CHUNK_SIZE_D1,
				   H5D_CHUNK_SIZE_D2,
				   H5D_USE_MPIIO_COLLECTIVE,
				   -1};
static const int mpiio_counters[] = {MPIIO_INDEP_OPENS,	  MPIIO_COLL_OPENS,
				     MPIIO_INDEP_READS,	  MPIIO_INDEP_WRITES,
				     MPIIO_COLL_READS,	  MPIIO_COLL_WRITES,
				     MPIIO_SYNCS,	  MPIIO_BYTES_READ,
				     MPIIO_BYTES_WRITTEN, -1};

/* A record of either log, keyed by (module, rank, kernel file). */
struct rec {
	int module, rank, file;
	int64_t c[IOA_MAX_COUNTERS];
};

struct side {
	struct rec *r;
	size_t n, cap;
	const uint64_t *ids; /* kernel file of each of the job's record ids */
	size_t nids;
	int kernel;   /* the kernel's log: files by the names of kernel.c's table */
	char **table; /* that table: file i's name (f<i>, or the job's with --keep-names) */
	size_t ntable;
	uint64_t *name_id; /* the kernel's log: record id -> file */
	int *name_file;
	size_t nnames;
	/*
	 * The job's side: file i's name in the job's log (nids of them, NULL
	 * where it names none); the kernel's: the job's side's, to find the files
	 * the MPI library names after a file of the job ("abi.dat.locktest.0").
	 */
	char **path;
	double seconds;
	uint64_t start_ns, end_ns;
};

static int file_of(const struct side *s, uint64_t id)
{
	size_t i;

	if (!s->kernel) {
		for (i = 0; i < s->nids; i++)
			if (s->ids[i] == id)
				return (int)i;
		return -1;
	}
	for (i = 0; i < s->nnames; i++)
		if (s->name_id[i] == id)
			return s->name_file[i];
	/* The standard streams are the job's own, under the same names (and ids). */
	for (i = 0; i < s->nids; i++)
		if (s->ids[i] == id)
			return (int)i;
	return -1;
}

/*
 * A file of the kernel's log named after a file of the table and a suffix
 * ("f2.locktest.0": Open MPI's MPI-IO tests locking on "FILE.locktest.RANK"
 * within MPI_File_open), as the job's file named the same way after the
 * job's (its whole name: files of one basename in different folders have
 * such files of one basename too): its number, or ntable.
 */
static size_t derived_file(const struct side *s, const char *tail)
{
	size_t k, best = s->ntable, best_len = 0, m, len;
	char *want;

	for (k = 0; k < s->ntable; k++) {
		size_t n = strlen(s->table[k]);

		if (n > best_len && n < strlen(tail) && !strncmp(tail, s->table[k], n)) {
			best = k;
			best_len = n;
		}
	}
	if (best == s->ntable || best >= s->nids || !s->path || !s->path[best])
		return s->ntable;
	len = strlen(s->path[best]) + strlen(tail + best_len) + 1;
	if (!(want = malloc(len)))
		return s->ntable;
	snprintf(want, len, "%s%s", s->path[best], tail + best_len);
	for (m = 0; m < s->nids && m < s->ntable; m++)
		if (s->path[m] && !strcmp(s->path[m], want))
			break;
	free(want);
	return m < s->nids && m < s->ntable ? m : s->ntable;
}

static int on_name(uint64_t id, const unsigned char *name, uint32_t len, void *arg)
{
	struct side *s = arg;
	const unsigned char *base = name + len;
	size_t num;
	char tail[256];
	int *files;
	uint64_t *ids;

	while (base > name && base[-1] != '/')
		base--;
	if ((size_t)(name + len - base) >= sizeof(tail) ||
	    memchr(base, '\0', (size_t)(name + len - base)))
		return 0;
	memcpy(tail, base, (size_t)(name + len - base));
	tail[name + len - base] = '\0';
	/* The job's side: each of its files' name. */
	if (!s->kernel) {
		for (num = 0; num < s->nids; num++)
			if (s->ids[num] == id && !s->path[num] &&
			    !(s->path[num] = strndup((const char *)name, len)))
				return -ENOMEM;
		return 0;
	}
	for (num = 0; num < s->ntable && strcmp(s->table[num], tail); num++)
		;
	if (num == s->ntable)
		num = derived_file(s, tail);
	if (num == s->ntable)
		return 0;
	if (!(ids = realloc(s->name_id, (s->nnames + 1) * sizeof(*ids))))
		return -ENOMEM;
	s->name_id = ids;
	if (!(files = realloc(s->name_file, (s->nnames + 1) * sizeof(*files))))
		return -ENOMEM;
	s->name_file = files;
	s->name_id[s->nnames] = id;
	s->name_file[s->nnames++] = (int)num;
	return 0;
}

static int table_add(size_t index, const struct ioa_buf *name, size_t line_off, size_t line_len,
		     void *arg)
{
	struct side *s = arg;
	char **more = realloc(s->table, (index + 1) * sizeof(*more));

	(void)line_off;
	(void)line_len;
	if (!more)
		return -ENOMEM;
	s->table = more;
	/* A name holding a NUL names no file the kernel can make: it matches nothing. */
	s->table[index] =
		memchr(name->data, '\0', name->len) ? strdup("") : strdup(ioa_buf_str(name));
	s->ntable = index + 1;
	return s->table[index] ? 0 : -ENOMEM;
}

/* The names table of the kernel.c in dir: which file of the job each name stands for. */
static int read_table(const char *dir, struct side *s, struct ioa_buf *err)
{
	struct ioa_buf src = IOA_BUF_INIT((size_t)256 << 20);
	char path[PATH_MAX + 16], chunk[65536];
	FILE *f;
	size_t n;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/kernel.c", dir);
	f = fopen(path, "r");
	if (!f) {
		ioa_buf_addf(err, "%s: %s", path, strerror(errno));
		return -errno;
	}
	while (!rc && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		rc = ioa_buf_add(&src, chunk, n);
	fclose(f);
	rc = rc ? rc : kgen_each_name(src.data, src.len, table_add, s);
	if (rc == -EINVAL)
		ioa_buf_addf(err, "%s: no table of file names as ioatlas kernel gen writes it",
			     path);
	else if (rc)
		ioa_buf_addf(err, "%s: %s", path, strerror(-rc));
	ioa_buf_release(&src);
	return rc;
}

static int on_record(const struct ioa_log_record *rec, void *arg)
{
	struct side *s = arg;
	int f = file_of(s, rec->id);

	if (f < 0)
		return 0; /* a file the kernel does not make (a standard stream, the runtime's) */
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct rec *more = realloc(s->r, cap * sizeof(*more));

		if (!more)
			return -ENOMEM;
		s->r = more;
		s->cap = cap;
	}
	s->r[s->n].module = rec->module;
	s->r[s->n].rank = rec->rank;
	s->r[s->n].file = f;
	memcpy(s->r[s->n].c, rec->counters, sizeof(rec->counters));
	s->n++;
	return 0;
}

static int on_job(uint16_t key, const unsigned char *v, uint32_t len, void *arg)
{
	struct side *s = arg;
	char digits[32];

	if ((key != IOA_JOB_START_NS && key != IOA_JOB_END_NS) || !len || len >= sizeof(digits))
		return 0;
	memcpy(digits, v, len);
	digits[len] = '\0';
	*(key == IOA_JOB_START_NS ? &s->start_ns : &s->end_ns) = strtoull(digits, NULL, 10);
	return 0;
}

static int read_side(const char *path, struct side *s, struct ioa_buf *err)
{
	struct ioa_log_reader r = {.fd = -1};
	struct ioa_buf raw = IOA_BUF_INIT(REGION_CAP);
	uint32_t i, pass;
	int rc = ioa_logr_open(&r, path);

	/* The names first (the kernel's files are known by them), then the records. */
	for (pass = 0; pass < 2 && !rc; pass++)
		for (i = 0; i < r.region_count && !rc; i++) {
			uint32_t type = r.regions[i].type;

			if (pass == 0 && type != IOA_REGION_NAMES && type != IOA_REGION_JOB)
				continue;
			if (pass == 1 && (type < 16 || type >= 32))
				continue;
			rc = ioa_logr_read_region(&r, i, &raw);
			if (!rc && type == IOA_REGION_JOB)
				rc = ioa_logr_each_job_entry(&r, &raw, on_job, s);
			else if (!rc && type == IOA_REGION_NAMES)
				rc = ioa_logr_each_name(&r, &raw, on_name, s);
			else if (!rc && pass == 1)
				rc = ioa_logr_each_record(&r, i, &raw, on_record, s);
		}
	if (rc)
		ioa_buf_addf(err, "%s: %s", path, r.error[0] ? r.error : strerror(-rc));
	s->seconds = s->end_ns > s->start_ns ? (double)(s->end_ns - s->start_ns) * 1e-9 : 0;
	ioa_logr_close(&r);
	ioa_buf_release(&raw);
	return rc;
}

/* A signal that ends validate while it waits for a run (0: none). */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static const int stops[] = {SIGTERM, SIGINT, SIGHUP};
#define NSTOPS (sizeof(stops) / sizeof(stops[0]))

static void stops_restore(const struct sigaction *old)
{
	size_t i;

	for (i = 0; i < NSTOPS; i++)
		sigaction(stops[i], &old[i], NULL);
}

/*
 * Runs argv (environment: env added) and waits, killing it after timeout
 * seconds.  expect: the seconds it should take (0: unknown), counted on
 * the progress line (common/ioa_log.h) meanwhile.  Ended meanwhile by
 * SIGTERM, SIGINT or SIGHUP (a batch system's time limit, a test's
 * timeout, ^C), validate kills the run's process group first (the
 * kernel's ranks), then ends by the signal.
 */
static int run(char *const argv[], char *const env[], int timeout, double expect, FILE *report)
{
	struct sigaction sa = {.sa_handler = on_stop}, old[NSTOPS];
	pid_t pid, w;
	int status = 0, err;
	struct timespec t0, t;
	double elapsed = 0;
	size_t i;

	sigemptyset(&sa.sa_mask);
	stop_signal = 0;
	for (i = 0; i < NSTOPS; i++)
		sigaction(stops[i], &sa, &old[i]);
	fflush(report);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		err = errno;
		stops_restore(old);
		return -err;
	}
	if (!pid) {
		stops_restore(old);
		for (i = 0; env && env[i]; i++)
			putenv(env[i]);
		setpgid(0, 0);
		execvp(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (expect > 0) {
		ioa_progress_begin("kernel run, seconds of the job's",
				   (unsigned long long)ceil(expect));
		ioa_progress_step(0);
	}
	while ((w = waitpid(pid, &status, WNOHANG)) == 0 && elapsed < timeout && !stop_signal) {
		struct timespec ts = {0, 100000000};

		nanosleep(&ts, NULL);
		clock_gettime(CLOCK_MONOTONIC, &t);
		elapsed = (double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) * 1e-9;
		if (expect > 0)
			ioa_progress_step((unsigned long long)elapsed);
	}
	if (expect > 0)
		ioa_progress_end();
	if (w == 0) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	stops_restore(old);
	if (stop_signal)
		raise(stop_signal);
	if (w == 0) {
		fprintf(report, "%s: no end after %d s: killed\n", argv[0], timeout);
		return -ETIMEDOUT;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ECHILD;
}

static char found_log[PATH_MAX];

static int find_log(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	size_t n = strlen(path);

	(void)st;
	(void)ftw;
	if (type == FTW_F && n > 4 && !strcmp(path + n - 4, ".ioa")) {
		snprintf(found_log, sizeof(found_log), "%s", path);
		return 1;
	}
	return 0;
}

/* A program in PATH, or NULL. */
static const char *in_path(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH"), *p = path;

	while (p && *p) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);

		snprintf(buf, len, "%.*s/%s", (int)n, p, name);
		if (!access(buf, X_OK))
			return buf;
		p = colon ? colon + 1 : NULL;
	}
	return NULL;
}

/*
 * The MPI the kernel is built and run with: MPICC and o->mpiexec, else
 * MPICH's (mpicc.mpich, mpiexec.mpich); Open MPI's when the launcher is
 * (its name, or what it links to, says openmpi, orterun or prterun).
 */
struct mpi_tools {
	char mpicc[PATH_MAX], mpiexec[PATH_MAX];
	int openmpi;
};

static void mpi_tools(const struct kvalidate_options *o, struct mpi_tools *t)
{
	char buf[PATH_MAX], real[PATH_MAX];
	const char *base;

	snprintf(t->mpiexec, sizeof(t->mpiexec), "%s",
		 o->mpiexec				      ? o->mpiexec
		 : in_path("mpiexec.mpich", buf, sizeof(buf)) ? buf
							      : "mpiexec");
	if (!strchr(t->mpiexec, '/') && in_path(t->mpiexec, buf, sizeof(buf)))
		snprintf(real, sizeof(real), "%s", buf);
	else
		snprintf(real, sizeof(real), "%s", t->mpiexec);
	t->openmpi = strstr(t->mpiexec, "openmpi") != NULL;
	if (realpath(real, buf)) {
		base = strrchr(buf, '/') ? strrchr(buf, '/') + 1 : buf;
		t->openmpi |= strstr(base, "openmpi") || strstr(base, "orterun") ||
			      strstr(base, "prterun");
	}
	snprintf(t->mpicc, sizeof(t->mpicc), "%s",
		 getenv("MPICC") ? getenv("MPICC")
		 : in_path(t->openmpi ? "mpicc.openmpi" : "mpicc.mpich", buf, sizeof(buf))
			 ? buf
			 : "mpicc");
}

/*
 * The launch of ranks processes into argv (room for 12), with LD_PRELOAD
 * and IOATLAS_LOGDIR set in them when preload is given: MPICH's -genv, or
 * Open MPI's -x (with --oversubscribe, and --allow-run-as-root for root).
 * Returns the arguments used.
 */
static int launch(char **argv, const struct mpi_tools *t, char *ranks, char *preload,
		  char *preload_env, char *logs, char *logs_env)
{
	int n = 0;

	argv[n++] = (char *)t->mpiexec;
	if (t->openmpi) {
		argv[n++] = "--oversubscribe";
		if (!geteuid())
			argv[n++] = "--allow-run-as-root";
	}
	argv[n++] = "-n";
	argv[n++] = ranks;
	if (preload && t->openmpi) {
		argv[n++] = "-x";
		argv[n++] = preload_env;
		argv[n++] = "-x";
		argv[n++] = logs_env;
	} else if (preload) {
		argv[n++] = "-genv";
		argv[n++] = "LD_PRELOAD";
		argv[n++] = preload;
		argv[n++] = "-genv";
		argv[n++] = "IOATLAS_LOGDIR";
		argv[n++] = logs;
	}
	return n;
}

/* Under --bytes-scale: a counter compared exactly (0), as bytes (1), or not (2). */
static int scaled_kind(int module, int k)
{
	switch (module) {
	case IOA_MOD_POSIX:
		return k == POSIX_BYTES_READ || k == POSIX_BYTES_WRITTEN ||
				       k == POSIX_MAX_BYTE_READ || k == POSIX_MAX_BYTE_WRITTEN
			       ? 1
		       : k == POSIX_CONSEC_READS || k == POSIX_CONSEC_WRITES ||
				       k == POSIX_SEQ_READS || k == POSIX_SEQ_WRITES ||
				       k == POSIX_OVERWRITES || k == POSIX_ACCESS1_ACCESS ||
				       k == POSIX_ACCESS1_COUNT || k == POSIX_ACCESS2_ACCESS ||
				       k == POSIX_ACCESS2_COUNT ||
				       (k >= POSIX_SIZE_READ_0_100 && k <= POSIX_SIZE_WRITE_1G_PLUS)
			       ? 2
			       : 0;
	case IOA_MOD_STDIO:
		return k == STDIO_BYTES_READ || k == STDIO_BYTES_WRITTEN ||
		       k == STDIO_MAX_BYTE_READ || k == STDIO_MAX_BYTE_WRITTEN;
	case IOA_MOD_MPIIO:
		return k == MPIIO_BYTES_READ || k == MPIIO_BYTES_WRITTEN;
	default:
		return 0;
	}
}

/* A record's reads and writes: each may round a byte under --bytes-scale. */
static int64_t rw_calls(const struct rec *x)
{
	return x->module == IOA_MOD_POSIX ? x->c[POSIX_READS] + x->c[POSIX_WRITES]
	       : x->module == IOA_MOD_STDIO
		       ? x->c[STDIO_READS] + x->c[STDIO_WRITES]
		       : x->c[MPIIO_INDEP_READS] + x->c[MPIIO_INDEP_WRITES] +
				 x->c[MPIIO_COLL_READS] + x->c[MPIIO_COLL_WRITES];
}

/*
 * Whether the kernel's value y of counter k matches the job's x: the same,
 * or under --bytes-scale (scale != 1) what scaled_kind() says.
 */
static int counter_matches(const struct rec *x, int k, int64_t y, double scale)
{
	int kind = scale != 1 ? scaled_kind(x->module, k) : 0;
	double want = (double)x->c[k] * scale;

	return kind == 2 ||
	       (kind == 1 ? fabs((double)y - want) <= (double)rw_calls(x) + 2 : x->c[k] == y);
}

/* hdf5: the kernel calls HDF5, whose records are compared too. */
static int compare(const struct side *a, const struct side *b, int hdf5, double scale, FILE *report,
		   unsigned *checked)
{
	size_t i, j;
	int differ = 0;

	*checked = 0;
	for (i = 0; i < a->n; i++) {
		const struct rec *x = &a->r[i];
		const struct rec *y = NULL;
		const int *list = x->module == IOA_MOD_POSIX	     ? posix_counters
				  : x->module == IOA_MOD_STDIO	     ? stdio_counters
				  : x->module == IOA_MOD_MPIIO	     ? mpiio_counters
				  : hdf5 && x->module == IOA_MOD_H5F ? h5f_counters
				  : hdf5 && x->module == IOA_MOD_H5D ? h5d_counters
								     : NULL;
		const struct ioa_module_desc *mod = &ioa_modules[x->module];

		/* A layer the kernel does not call (PnetCDF; HDF5 below its level). */
		if (!list)
			continue;
		for (j = 0; j < b->n && !y; j++)
			if (b->r[j].module == x->module && b->r[j].rank == x->rank &&
			    b->r[j].file == x->file)
				y = &b->r[j];
		if (!y) {
			fprintf(report, "f%d %s rank %d: no record in the kernel's log\n", x->file,
				mod->name, x->rank);
			differ = 1;
			continue;
		}
		for (j = 0; list[j] >= 0; j++) {
			int k = list[j];

			/* The size bins go from the first to the last named. */
			if ((k == POSIX_SIZE_READ_0_100 || k == POSIX_SIZE_WRITE_0_100) &&
			    x->module == IOA_MOD_POSIX) {
				int last = list[j + 1], b2;

				for (b2 = k; b2 <= last && scale == 1; b2++, (*checked)++)
					if (x->c[b2] != y->c[b2]) {
						fprintf(report,
							"f%d %s rank %d %s: job %" PRId64
							", kernel %" PRId64 "\n",
							x->file, mod->name, x->rank,
							mod->counter_names[b2], x->c[b2], y->c[b2]);
						differ = 1;
					}
				j++;
				continue;
			}
			if (scale != 1 && scaled_kind(x->module, k) == 2)
				continue;
			(*checked)++;
			if (!counter_matches(x, k, y->c[k], scale)) {
				fprintf(report,
					"f%d %s rank %d %s: job %" PRId64 "%s, kernel %" PRId64
					"\n",
					x->file, mod->name, x->rank, mod->counter_names[k], x->c[k],
					scale != 1 && scaled_kind(x->module, k) ? " (scaled)" : "",
					y->c[k]);
				differ = 1;
			}
		}
	}
	return differ;
}

/*
 * Per layer the kernel replays, the reads and writes and their bytes, the
 * job's beside the kernel's: what a differing counter amounts to.
 */
static void layer_totals(const struct side *a, const struct side *b, int hdf5, FILE *report)
{
	static const struct {
		int module, ops[8], bytes[2];
	} layers[] = {
		{IOA_MOD_POSIX,
		 {POSIX_READS, POSIX_WRITES, -1},
		 {POSIX_BYTES_READ, POSIX_BYTES_WRITTEN}},
		{IOA_MOD_STDIO,
		 {STDIO_READS, STDIO_WRITES, -1},
		 {STDIO_BYTES_READ, STDIO_BYTES_WRITTEN}},
		{IOA_MOD_MPIIO,
		 {MPIIO_INDEP_READS, MPIIO_COLL_READS, MPIIO_SPLIT_READS, MPIIO_NB_READS,
		  MPIIO_INDEP_WRITES, MPIIO_COLL_WRITES, MPIIO_SPLIT_WRITES, MPIIO_NB_WRITES},
		 {MPIIO_BYTES_READ, MPIIO_BYTES_WRITTEN}},
		{IOA_MOD_H5D, {H5D_READS, H5D_WRITES, -1}, {H5D_BYTES_READ, H5D_BYTES_WRITTEN}},
	};
	size_t l, i, j;
	int header = 0;

	for (l = 0; l < sizeof(layers) / sizeof(layers[0]); l++) {
		int64_t ops[2] = {0, 0}, bytes[2] = {0, 0};
		const struct side *s[2] = {a, b};
		int w;

		if (layers[l].module == IOA_MOD_H5D && !hdf5)
			continue;
		for (w = 0; w < 2; w++)
			for (i = 0; i < s[w]->n; i++) {
				const struct rec *r = &s[w]->r[i];

				if (r->module != layers[l].module)
					continue;
				for (j = 0; j < 8 && layers[l].ops[j] >= 0; j++)
					ops[w] += r->c[layers[l].ops[j]];
				bytes[w] += r->c[layers[l].bytes[0]] + r->c[layers[l].bytes[1]];
			}
		if (!ops[0] && !ops[1] && !bytes[0] && !bytes[1])
			continue;
		if (!header++)
			fprintf(report, "%-8s %12s %12s %14s %14s\n", "layer", "job r+w",
				"kernel r+w", "job bytes", "kernel bytes");
		fprintf(report, "%-8s %12" PRId64 " %12" PRId64 " %14" PRId64 " %14" PRId64 "\n",
			ioa_modules[layers[l].module].name, ops[0], ops[1], bytes[0], bytes[1]);
	}
}

/* The calls the kernel leaves out, each said. */
static void not_replayed(const struct kgen_summary *sum, FILE *report)
{
	struct ioa_buf name = IOA_BUF_INIT(256);
	unsigned i;

	for (i = 0; i < sum->nskips; i++) {
		/* A name from the log, in display form. */
		ioa_buf_reset(&name);
		if (ioa_buf_add_escaped(&name, sum->skips[i].name, strlen(sum->skips[i].name)))
			break;
		fprintf(report, "not replayed: %s %s, in %u place%s of the kernel\n",
			sum->skips[i].layer, ioa_buf_str(&name), sum->skips[i].places,
			sum->skips[i].places == 1 ? "" : "s");
	}
	ioa_buf_release(&name);
}

/*
 * How gen made the kernel.c in dir, from its first lines: at HDF5's level
 * (it includes HDF5's header), compact in how many epochs.
 */
static void kernel_made(const char *dir, struct kgen_options *go)
{
	char path[PATH_MAX + 16], line[256];
	FILE *f;
	int epochs;

	go->level = KGEN_MPIIO;
	snprintf(path, sizeof(path), "%s/kernel.c", dir);
	if (!(f = fopen(path, "r")))
		return;
	while (fgets(line, sizeof(line), f) && strncmp(line, "#define NPROCS", 14)) {
		if (!strcmp(line, "#include <hdf5.h>\n"))
			go->level = KGEN_HDF5;
		if (!strncmp(line, KGEN_EPOCHS_LINE, strlen(KGEN_EPOCHS_LINE)) &&
		    (epochs = atoi(line + strlen(KGEN_EPOCHS_LINE))) > 0 &&
		    epochs <= KGEN_EPOCHS_MAX)
			go->epochs = (unsigned)epochs;
	}
	fclose(f);
}

int kvalidate(const char *dir, const char *log, const struct kvalidate_options *o, FILE *report,
	      struct kvalidate_result *res, struct ioa_buf *err)
{
	struct kgen_options go = {0};
	struct kgen_summary sum;
	struct side job = {0}, kern = {.kernel = 1};
	struct mpi_tools t;
	char run_dir[PATH_MAX + 16], data[PATH_MAX + 16], logs[PATH_MAX + 16],
		kernel[PATH_MAX + 16], ranks[16], make_arg[PATH_MAX + 8], preload[PATH_MAX + 16],
		logdir[PATH_MAX + 48], abs_dir[PATH_MAX];
	FILE *null = fopen("/dev/null", "w");
	double scale = o->bytes_scale > 0 ? o->bytes_scale : 1;
	char scale_arg[32];
	int rc;

	memset(res, 0, sizeof(*res));
	snprintf(scale_arg, sizeof(scale_arg), "%.9g", scale);
	/* Absolute: the runtime wants its log folder so, and the kernel runs elsewhere. */
	if (!realpath(dir, abs_dir)) {
		ioa_buf_addf(err, "%s: %s", dir, strerror(errno));
		return -errno;
	}
	dir = abs_dir;
	/* The kernel's file numbering, as gen made it, at the level it was made at. */
	kernel_made(dir, &go);
	rc = null ? kgen_log(log, &go, null, &sum, err) : -errno;
	if (null)
		fclose(null);
	if (rc) {
		if (null)
			kgen_summary_release(&sum);
		return rc;
	}
	if (sum.epochs)
		fprintf(report,
			"compact kernel: %u epochs; %" PRIu64 " stream calls made as %" PRIu64
			" totals, %" PRIu64 " MPI calls as the time they took\n",
			sum.epochs, sum.stdio_summed, sum.stdio_totals, sum.mpi_as_time);
	if (sum.calls_exact < sum.calls_total)
		fprintf(report,
			"the trace kept %" PRIu64 " of the job's %" PRIu64
			" calls exactly: the kernel replays those only, and its counters fall "
			"short of the job's by the rest\n",
			sum.calls_exact, sum.calls_total);
	job.ids = kern.ids = sum.file_ids;
	job.nids = kern.nids = sum.files;
	job.path = kern.path = calloc(sum.files + 1, sizeof(*job.path));
	rc = job.path ? read_table(dir, &kern, err) : -ENOMEM;
	rc = rc ? rc : read_side(log, &job, err);
	mpi_tools(o, &t);
	snprintf(make_arg, sizeof(make_arg), "MPICC=%s", t.mpicc);
	snprintf(run_dir, sizeof(run_dir), "%s/run", dir);
	snprintf(data, sizeof(data), "%s/run/data", dir);
	snprintf(logs, sizeof(logs), "%s/run/logs", dir);
	snprintf(kernel, sizeof(kernel), "%s/kernel", dir);
	snprintf(ranks, sizeof(ranks), "%u", sum.ranks);
	snprintf(preload, sizeof(preload), "LD_PRELOAD=%s", o->runtime);
	snprintf(logdir, sizeof(logdir), "IOATLAS_LOGDIR=%s", logs);
	if (!rc) {
		/* Always made afresh: a kernel built before with another MPI would run as
		 * singletons. */
		char *make[] = {"make", "-s", "-B", "-C", (char *)dir, make_arg, NULL};
		char *rm[] = {"rm", "-rf", run_dir, NULL};

		fprintf(report, "building %s/kernel.c with %s\n", dir, t.mpicc);
		rc = run(make, NULL, o->timeout, 0, report);
		if (rc)
			ioa_buf_addf(err, "the kernel does not build (make -C %s)", dir);
		rc = rc ? rc : run(rm, NULL, 60, 0, report);
		if (!rc && (mkdir(run_dir, 0755) || mkdir(data, 0755) || mkdir(logs, 0755)))
			rc = -errno;
	}
	if (!rc) {
		char *prep[24];
		int n = launch(prep, &t, ranks, NULL, NULL, NULL, NULL);

		prep[n++] = kernel;
		prep[n++] = "--prepare";
		prep[n++] = "--data-dir";
		prep[n++] = data;
		prep[n++] = "--bytes-scale";
		prep[n++] = scale_arg;
		prep[n] = NULL;
		rc = run(prep, NULL, o->timeout, 0, report);
		if (rc)
			ioa_buf_addf(err, "the kernel's --prepare failed");
	}
	if (!rc) {
		char *k[32];
		int n = launch(k, &t, ranks, (char *)o->runtime, preload, logs, logdir);
		char *env[] = {logdir, NULL};

		k[n++] = kernel;
		k[n++] = "--data-dir";
		k[n++] = data;
		k[n++] = "--mode";
		k[n++] = (char *)(o->mode ? o->mode : "causal");
		k[n++] = "--bytes-scale";
		k[n++] = scale_arg;
		k[n] = NULL;

		fprintf(report, "running it on %s ranks under %s%s%s\n", ranks, o->runtime,
			scale != 1 ? ", its bytes scaled by " : "", scale != 1 ? scale_arg : "");
		rc = run(k, env, o->timeout, o->progress ? job.seconds : 0, report);
		if (rc)
			ioa_buf_addf(err, "the kernel failed under the runtime");
	}
	found_log[0] = '\0';
	if (!rc && (nftw(logs, find_log, 16, FTW_PHYS) != 1 || !found_log[0])) {
		ioa_buf_addf(err, "the kernel left no log in %s", logs);
		rc = -ENOENT;
	}
	rc = rc ? rc : read_side(found_log, &kern, err);
	if (!rc) {
		size_t i;

		res->differ = compare(&job, &kern, sum.hdf5, scale, report, &res->counters);
		layer_totals(&job, &kern, sum.hdf5, report);
		not_replayed(&sum, report);
		res->skipped = sum.skipped;

		res->records = (unsigned)job.n;
		res->ranks = sum.ranks;
		res->files = sum.files;
		for (i = 0; i < job.n; i++)
			if (job.r[i].module == IOA_MOD_POSIX) {
				res->bytes_read += job.r[i].c[POSIX_BYTES_READ];
				res->bytes_written += job.r[i].c[POSIX_BYTES_WRITTEN];
			} else if (job.r[i].module == IOA_MOD_STDIO) {
				res->bytes_read += job.r[i].c[STDIO_BYTES_READ];
				res->bytes_written += job.r[i].c[STDIO_BYTES_WRITTEN];
			}
		res->job_seconds = job.seconds;
		res->kernel_seconds = kern.seconds;
		res->time_error = job.seconds > 0 ? (job.seconds - kern.seconds) / job.seconds : 0;
	}
	kgen_summary_release(&sum);
	free(job.r);
	free(kern.r);
	free(kern.name_id);
	free(kern.name_file);
	for (size_t i = 0; job.path && i < job.nids; i++)
		free(job.path[i]);
	free(job.path);
	for (size_t i = 0; i < kern.ntable; i++)
		free(kern.table[i]);
	free(kern.table);
	return rc;
}

/* The kernel's rank count, from its NPROCS; 0 when kernel.c has none. */
static unsigned kernel_nprocs(const char *dir)
{
	char path[PATH_MAX + 16], line[256];
	unsigned n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/kernel.c", dir);
	if (!(f = fopen(path, "r")))
		return 0;
	while (!n && fgets(line, sizeof(line), f))
		if (sscanf(line, "#define NPROCS %u", &n) != 1)
			n = 0;
	fclose(f);
	return n;
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
	double s[KVALIDATE_WHATIF_RUNS];

	memcpy(s, v, (size_t)n * sizeof(*s));
	qsort(s, (size_t)n, sizeof(*s), by_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* One timed run in a fresh data folder: prepared, run, its seconds in *t. */
static int whatif_run(const char *dir, const struct mpi_tools *tools, char *ranks,
		      const struct kvalidate_options *o, char *const *change, FILE *report,
		      double *t, struct ioa_buf *err)
{
	char data[PATH_MAX + 16], kernel[PATH_MAX + 16], tfile[PATH_MAX + 16], *argv[48];
	char *rm[] = {"rm", "-rf", data, NULL};
	int n, rc;
	FILE *f;

	snprintf(data, sizeof(data), "%s/whatif/data", dir);
	snprintf(kernel, sizeof(kernel), "%s/kernel", dir);
	snprintf(tfile, sizeof(tfile), "%s/whatif/seconds", dir);
	rc = run(rm, NULL, 60, 0, report);
	if (!rc && mkdir(data, 0755))
		rc = -errno;
	n = launch(argv, tools, ranks, NULL, NULL, NULL, NULL);
	argv[n++] = kernel;
	argv[n++] = "--data-dir";
	argv[n++] = data;
	argv[n++] = "--prepare";
	argv[n] = NULL;
	rc = rc ? rc : run(argv, NULL, o->timeout, 0, report);
	n--; /* the run: --prepare off, the mode, the time, the change */
	argv[n++] = "--mode";
	argv[n++] = (char *)(o->mode ? o->mode : "causal");
	argv[n++] = "--time-file";
	argv[n++] = tfile;
	for (int i = 0; change && change[i] && n < 47; i++)
		argv[n++] = change[i];
	argv[n] = NULL;
	unlink(tfile);
	rc = rc ? rc : run(argv, NULL, o->timeout, 0, report);
	if (rc) {
		ioa_buf_addf(err, "the kernel's run failed%s", change ? " with the change" : "");
		return rc;
	}
	if (!(f = fopen(tfile, "r")) || fscanf(f, "%lf", t) != 1 || !(*t >= 0)) {
		ioa_buf_addf(err, "the kernel wrote no time in %s", tfile);
		rc = -EPROTO;
	}
	if (f)
		fclose(f);
	return rc;
}

int kvalidate_whatif(const char *dir, const struct kvalidate_options *o,
		     const struct kvalidate_whatif *w, FILE *report,
		     struct kvalidate_whatif_result *res, struct ioa_buf *err)
{
	struct mpi_tools t;
	char make_arg[PATH_MAX + 8], ranks[16], wdir[PATH_MAX + 16], abs_dir[PATH_MAX];
	unsigned nprocs;
	int rc, i;

	memset(res, 0, sizeof(*res));
	if (!realpath(dir, abs_dir)) {
		ioa_buf_addf(err, "%s: %s", dir, strerror(errno));
		return -errno;
	}
	dir = abs_dir;
	if (!(nprocs = kernel_nprocs(dir))) {
		ioa_buf_addf(err, "%s/kernel.c: not a kernel (no NPROCS)", dir);
		return -EINVAL;
	}
	if (w->runs < 1 || w->runs > KVALIDATE_WHATIF_RUNS) {
		ioa_buf_addf(err, "runs: 1 to %d", KVALIDATE_WHATIF_RUNS);
		return -EINVAL;
	}
	snprintf(ranks, sizeof(ranks), "%u", nprocs);
	mpi_tools(o, &t);
	snprintf(make_arg, sizeof(make_arg), "MPICC=%s", t.mpicc);
	snprintf(wdir, sizeof(wdir), "%s/whatif", dir);
	{
		char *make[] = {"make", "-s", "-B", "-C", (char *)dir, make_arg, NULL};

		fprintf(report, "building %s/kernel.c with %s\n", dir, t.mpicc);
		rc = run(make, NULL, o->timeout, 0, report);
		if (rc) {
			ioa_buf_addf(err, "the kernel does not build (make -C %s)", dir);
			return rc;
		}
	}
	if (mkdir(wdir, 0755) && errno != EEXIST) {
		ioa_buf_addf(err, "%s: %s", wdir, strerror(errno));
		return -errno;
	}
	/* Alternating, so that the machine's drift falls on both alike. */
	for (i = 0, rc = 0; i < w->runs && !rc; i++) {
		rc = whatif_run(dir, &t, ranks, o, NULL, report, &res->base[i], err);
		rc = rc ? rc
			: whatif_run(dir, &t, ranks, o, w->change, report, &res->changed[i], err);
		res->runs = rc ? i : i + 1;
	}
	if (rc)
		return rc;
	res->base_median = median(res->base, res->runs);
	res->changed_median = median(res->changed, res->runs);
	return 0;
}
