/*
 * gen-jobs — a site's worth of varied job logs for the history benchmark
 * (run-bench-history): JOBS logs in a log tree (DIR/YYYY/MM/DD/), their
 * start times spread over the last DAYS days, from 50 users running 250
 * applications of four kinds, each application with its own habits:
 *
 *	checkpoint	MPI-IO collective writes to one shared file (and the
 *			POSIX calls beneath), 16 to 256 ranks
 *	fpp		a file per process, POSIX, 4 to 256 ranks
 *	script		python3 with a script: STDIO and small POSIX files
 *	post		a serial program reading a few inputs
 *
 * An application has its transfer size, bytes per run, ranks and files; a
 * run's times follow from its calls and bytes (a latency per call, a
 * bandwidth per rank) with 15% lognormal noise.  Applications are run as
 * popular ones are (Zipf's law).  One application in 12 has a hidden
 * change: from one of its runs on, its transfers are 32 times smaller
 * (a regression) — planted in applications expected to run 40 times or
 * more; the planted changes are written to DIR/planted.txt (tab-separated:
 * application, its user's uid, the first changed run's start in ns, its
 * run number,
 * the application's runs, and how many times slower per byte the change
 * makes its runs) for the benchmark to score the nightly's detection
 * against.  Builds change now and then (new build ids).
 * The logs record the users by name; the collector must trust their owner
 * (collector.trusted_user) to take those names.
 *
 *	gen-jobs DIR JOBS [DAYS [SEED]]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ioa_counters.h"
#include "ioa_logfmt.h"
#include "ioa_logw.h"

#define USERS 50
#define APPS  250

#define LATENCY	  20e-6 /* seconds per call, the median */
#define BANDWIDTH 1.5e9 /* bytes per second and rank, the median */

enum kind { CHECKPOINT, FPP, SCRIPT, POST };

struct app {
	enum kind kind;
	char name[32];
	int user;
	double weight;	 /* popularity */
	double transfer; /* bytes per call */
	double bytes;	 /* per run */
	int ranks, files;
	uint64_t build;
	long runs;	    /* runs so far */
	long change_at;	    /* the run the hidden change starts at, or -1 */
	uint64_t change_ns; /* its start time, once run */
};

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double uniform(void)
{
	return (double)(next() >> 11) / 9007199254740992.0;
}

static double lognormal(double sigma)
{
	double u = uniform(), v = uniform();

	return exp(sigma * sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(6.283185307179586 * v));
}

static double log_uniform(double lo, double hi)
{
	return exp(log(lo) + uniform() * (log(hi) - log(lo)));
}

static const char *const codes[] = {"vpic",    "lammps", "wrf",	 "gromacs", "cp2k",
				    "enzo",    "flash",	 "hacc", "nyx",	    "e3sm",
				    "qmcpack", "amrex",	 "milc", "nek5000", "openfoam"};

static void make_apps(struct app *apps)
{
	int a;

	for (a = 0; a < APPS; a++) {
		struct app *p = &apps[a];

		p->kind = (enum kind)(next() % 4);
		p->user = (int)(next() % USERS);
		p->weight = 1.0 / (a + 1);
		switch (p->kind) {
		case CHECKPOINT:
			snprintf(p->name, sizeof(p->name), "%s-%d", codes[a % 15], a);
			p->ranks = 16 << (next() % 5);
			p->transfer = log_uniform(1 << 20, 16 << 20);
			p->bytes = log_uniform(1e9, 5e10);
			p->files = 1 + (int)(next() % 3);
			break;
		case FPP:
			snprintf(p->name, sizeof(p->name), "%s-fpp-%d", codes[a % 15], a);
			p->ranks = 4 << (next() % 7);
			p->transfer = log_uniform(64 << 10, 4 << 20);
			p->bytes = log_uniform(1e8, 1e10);
			p->files = p->ranks;
			break;
		case SCRIPT:
			snprintf(p->name, sizeof(p->name), "analysis_%d.py", a);
			p->ranks = 1;
			p->transfer = log_uniform(4096, 1 << 20);
			p->bytes = log_uniform(1e6, 1e9);
			p->files = 5 + (int)(next() % 16);
			break;
		default:
			snprintf(p->name, sizeof(p->name), "post-%d", a);
			p->ranks = 1;
			p->transfer = log_uniform(1 << 16, 8 << 20);
			p->bytes = log_uniform(1e8, 5e9);
			p->files = 1 + (int)(next() % 10);
			break;
		}
		p->build = next();
		p->change_at = a % 12 == 5 ? 0 : -1; /* set once the runs are counted */
	}
}

static int entry(struct ioa_buf *b, uint16_t key, const char *value, size_t len)
{
	int rc = ioa_enc_u16(b, key);

	return rc ? rc : ioa_enc_bytes(b, value, len);
}

static int entry_str(struct ioa_buf *b, uint16_t key, const char *value)
{
	return entry(b, key, value, strlen(value));
}

static int job_region(struct ioa_log_writer *w, const struct app *p, long job, uint64_t start,
		      uint64_t end)
{
	struct ioa_buf b = IOA_BUF_INIT(1 << 20);
	char text[256], args[256];
	size_t alen;
	int rc;

	snprintf(text, sizeof(text), "%d", 20000 + p->user);
	rc = entry_str(&b, IOA_JOB_UID, text);
	snprintf(text, sizeof(text), "user%03d", p->user);
	rc = rc ? rc : entry_str(&b, IOA_JOB_USER, text);
	snprintf(text, sizeof(text), "%ld", 1000000 + job);
	rc = rc ? rc : entry_str(&b, IOA_JOB_JOBID, text);
	rc = rc ? rc : entry_str(&b, IOA_JOB_SCHEDULER, "slurm");
	snprintf(text, sizeof(text), "proj%02d", p->user % 10);
	rc = rc ? rc : entry_str(&b, IOA_JOB_ACCOUNT, text);
	snprintf(text, sizeof(text), "%" PRIu64, start);
	rc = rc ? rc : entry_str(&b, IOA_JOB_START_NS, text);
	snprintf(text, sizeof(text), "%" PRIu64, end);
	rc = rc ? rc : entry_str(&b, IOA_JOB_END_NS, text);
	snprintf(text, sizeof(text), "%d", p->ranks);
	rc = rc ? rc : entry_str(&b, IOA_JOB_NPROCS, text);
	snprintf(text, sizeof(text), "%d", (p->ranks + 63) / 64);
	rc = rc ? rc : entry_str(&b, IOA_JOB_NNODES, text);
	if (p->kind == SCRIPT) {
		rc = rc ? rc : entry_str(&b, IOA_JOB_EXE, "/usr/bin/python3.11");
		alen = (size_t)snprintf(args, sizeof(args),
					"python3%c/home/user%03d/%s%c--step%c%ld", 0, p->user,
					p->name, 0, 0, job % 7);
	} else {
		snprintf(text, sizeof(text), "/home/user%03d/bin/%s", p->user, p->name);
		rc = rc ? rc : entry_str(&b, IOA_JOB_EXE, text);
		alen = (size_t)snprintf(args, sizeof(args), "%s%cinput.deck", text, 0);
	}
	rc = rc ? rc : entry(&b, IOA_JOB_ARGS, args, alen);
	rc = rc ? rc : entry_str(&b, IOA_JOB_VERSION, "bench");
	rc = rc ? rc : entry_str(&b, IOA_JOB_SETTINGS, "");
	if (p->kind != SCRIPT) {
		snprintf(text, sizeof(text), "%016" PRIx64 "%016" PRIx64, p->build, ~p->build);
		rc = rc ? rc : entry_str(&b, IOA_JOB_BUILD, text);
	}
	rc = rc ? rc : ioa_logw_add(w, IOA_REGION_JOB, b.data, b.len);
	ioa_buf_release(&b);
	return rc;
}

static int size_bin(double size)
{
	static const double edges[] = {100,	1024,	  10240,     102400,	1048576,
				       4194304, 10485760, 104857600, 1073741824};
	int k;

	for (k = 0; k < 9 && size > edges[k]; k++)
		;
	return k;
}

/*
 * One file's record of a module: ops calls of size bytes each (reads or
 * writes), taking seconds summed over its ranks, and meta seconds.
 */
static int record(struct ioa_buf *b, enum ioa_module m, uint64_t id, int32_t rank, int writes,
		  double ops, double size, double seconds, double meta, double opens)
{
	int64_t c[IOA_MAX_COUNTERS] = {0};
	double f[IOA_MAX_FCOUNTERS] = {0};
	int64_t n = (int64_t)ops, bytes = (int64_t)(ops * size);

	if (m == IOA_MOD_POSIX) {
		c[POSIX_OPENS] = (int64_t)opens;
		c[writes ? POSIX_WRITES : POSIX_READS] = n;
		c[writes ? POSIX_BYTES_WRITTEN : POSIX_BYTES_READ] = bytes;
		c[writes ? POSIX_SEQ_WRITES : POSIX_SEQ_READS] = n - 1;
		c[writes ? POSIX_CONSEC_WRITES : POSIX_CONSEC_READS] = n - 1;
		c[writes ? POSIX_MAX_BYTE_WRITTEN : POSIX_MAX_BYTE_READ] = bytes - 1;
		c[(writes ? POSIX_SIZE_WRITE_0_100 : POSIX_SIZE_READ_0_100) + size_bin(size)] = n;
		c[POSIX_ACCESS1_ACCESS] = (int64_t)size;
		c[POSIX_ACCESS1_COUNT] = n;
		c[POSIX_MEM_ALIGNMENT] = 8;
		c[POSIX_FILE_ALIGNMENT] = 4096;
		f[writes ? POSIX_F_WRITE_TIME : POSIX_F_READ_TIME] = seconds;
		f[POSIX_F_META_TIME] = meta;
	} else if (m == IOA_MOD_STDIO) {
		c[STDIO_OPENS] = (int64_t)opens;
		c[writes ? STDIO_WRITES : STDIO_READS] = n;
		c[writes ? STDIO_BYTES_WRITTEN : STDIO_BYTES_READ] = bytes;
		f[writes ? STDIO_F_WRITE_TIME : STDIO_F_READ_TIME] = seconds;
		f[STDIO_F_META_TIME] = meta;
	} else {
		c[MPIIO_COLL_OPENS] = (int64_t)opens;
		c[writes ? MPIIO_COLL_WRITES : MPIIO_COLL_READS] = n;
		c[writes ? MPIIO_BYTES_WRITTEN : MPIIO_BYTES_READ] = bytes;
		c[(writes ? MPIIO_SIZE_WRITE_AGG_0_100 : MPIIO_SIZE_READ_AGG_0_100) +
		  size_bin(size)] = n;
		f[writes ? MPIIO_F_WRITE_TIME : MPIIO_F_READ_TIME] = seconds;
		f[MPIIO_F_META_TIME] = meta;
	}
	return ioa_enc_module_record(b, m, id, rank, rank < 0 ? IOA_REC_SHARED : 0, c, f);
}

/* One run of p: its records and names, as rank 0's regions; returns its run seconds. */
static int job_records(struct ioa_log_writer *w, struct app *p, double *seconds)
{
	struct ioa_buf mods[3] = {IOA_BUF_INIT(1 << 24), IOA_BUF_INIT(1 << 24),
				  IOA_BUF_INIT(1 << 24)};
	struct ioa_buf names = IOA_BUF_INIT(1 << 24);
	uint32_t count[3] = {0, 0, 0}, nnames = 0;
	double transfer = p->transfer, bytes = p->bytes * lognormal(0.2), io = 0;
	int files = p->files, i, rc = 0, writes = p->kind != POST;
	int m;

	if (p->change_at >= 0 && p->runs >= p->change_at)
		transfer /= 32;
	rc = ioa_enc_u32(&names, 0);
	for (i = 0; i < files && !rc; i++) {
		char name[160];
		uint64_t id = next();
		double fbytes = bytes / files, ops = ceil(fbytes / transfer);
		double bw = BANDWIDTH * lognormal(0.15), lat = LATENCY * lognormal(0.15);
		double secs = ops * lat + fbytes / bw, meta = 2e-4 * lognormal(0.3) * p->ranks;
		int32_t rank = p->kind == FPP ? i : -1;

		if (p->kind == FPP)
			snprintf(name, sizeof(name), "/scratch/user%03d/%s/out/rank%05d.dat",
				 p->user, p->name, i);
		else
			snprintf(name, sizeof(name), "/scratch/user%03d/%s/%s%02d.%s", p->user,
				 p->name, writes ? "out" : "in", i,
				 p->kind == SCRIPT ? "csv" : "h5");
		if (p->kind == CHECKPOINT) {
			/* The collective writes, and the POSIX calls of the aggregators beneath. */
			rc = record(&mods[IOA_MOD_MPIIO], IOA_MOD_MPIIO, id, -1, 1,
				    ops * p->ranks / 8 + 1, transfer * 8 / p->ranks + 1,
				    (secs + 0.02) * p->ranks, meta, p->ranks);
			count[IOA_MOD_MPIIO]++;
		}
		if (!rc && p->kind == SCRIPT && i % 2) {
			rc = record(&mods[IOA_MOD_STDIO], IOA_MOD_STDIO, id, 0, 1, ops, transfer,
				    secs, meta, 1);
			count[IOA_MOD_STDIO]++;
		} else if (!rc) {
			rc = record(&mods[IOA_MOD_POSIX], IOA_MOD_POSIX, id, rank, writes, ops,
				    transfer, secs * (rank < 0 ? p->ranks : 1), meta,
				    rank < 0 ? p->ranks : 1);
			count[IOA_MOD_POSIX]++;
		}
		rc = rc ? rc : ioa_enc_u64(&names, id);
		rc = rc ? rc : ioa_enc_bytes(&names, name, strlen(name));
		nnames++;
		io += secs + meta / p->ranks;
	}
	for (m = 0; m < 3 && !rc; m++) {
		struct ioa_buf h = IOA_BUF_INIT(1 << 24);

		if (!count[m])
			continue;
		rc = ioa_enc_module_header(&h, (enum ioa_module)m, count[m]);
		rc = rc ? rc : ioa_buf_add(&h, mods[m].data, mods[m].len);
		rc = rc ? rc : ioa_logw_add(w, ioa_modules[m].region_type, h.data, h.len);
		ioa_buf_release(&h);
	}
	if (!rc) {
		names.data[0] = (char)(nnames & 0xff);
		names.data[1] = (char)(nnames >> 8 & 0xff);
		names.data[2] = (char)(nnames >> 16 & 0xff);
		names.data[3] = (char)(nnames >> 24);
		rc = ioa_logw_add(w, IOA_REGION_NAMES, names.data, names.len);
	}
	for (m = 0; m < 3; m++)
		ioa_buf_release(&mods[m]);
	ioa_buf_release(&names);
	*seconds = io + 30 * lognormal(0.1); /* its I/O, and half a minute of compute */
	return rc;
}

/*
 * How much a change makes a run of p slower, in I/O time per byte, by the
 * model's medians: 32 times the calls, each with its latency, for the same
 * bytes at the same bandwidth.
 */
static double effect(const struct app *p)
{
	double per_byte = LATENCY / p->transfer + 1 / BANDWIDTH;

	return (32 * LATENCY / p->transfer + 1 / BANDWIDTH) / per_byte;
}

int main(int argc, char **argv)
{
	static struct app apps[APPS];
	double total = 0, *cum = calloc(APPS, sizeof(double));
	long jobs, j, days;
	uint64_t now_ns, span_ns;
	struct timespec now;
	FILE *planted;
	char path[4096];
	int a;

	if (argc < 3 || (jobs = strtol(argv[2], NULL, 10)) <= 0 || !cum) {
		fprintf(stderr, "usage: gen-jobs DIR JOBS [DAYS [SEED]]\n");
		return 2;
	}
	days = argc > 3 ? strtol(argv[3], NULL, 10) : 60;
	if (argc > 4)
		rng ^= strtoull(argv[4], NULL, 10) * 0x9e3779b97f4a7c15ull;
	mkdir(argv[1], 0755);
	make_apps(apps);
	for (a = 0; a < APPS; a++)
		cum[a] = total += apps[a].weight;
	/*
	 * Each application's hidden change: at 30% to 70% of its expected runs,
	 * when it is expected to run 40 times or more (a change needs runs
	 * before and after it to be seen).
	 */
	for (a = 0; a < APPS; a++) {
		double expected = (double)jobs * apps[a].weight / total;

		if (apps[a].change_at == 0)
			apps[a].change_at =
				expected >= 40 ? (long)(expected * (0.3 + 0.4 * uniform())) : -1;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	now_ns = (uint64_t)now.tv_sec * 1000000000u;
	span_ns = (uint64_t)days * 86400 * 1000000000u;
	for (j = 0; j < jobs; j++) {
		struct ioa_log_writer w;
		uint64_t start = now_ns - span_ns + span_ns / (uint64_t)jobs * (uint64_t)j;
		double pick = uniform() * total, seconds = 0;
		time_t t = (time_t)(start / 1000000000u);
		struct tm tm;
		struct app *p;
		int rc;

		for (a = 0; a < APPS - 1 && cum[a] < pick; a++)
			;
		p = &apps[a];
		if (uniform() < 0.002)
			p->build = next(); /* rebuilt */
		gmtime_r(&t, &tm);
		snprintf(path, sizeof(path), "%s/%04d/%02d/%02d", argv[1], tm.tm_year + 1900,
			 tm.tm_mon + 1, tm.tm_mday);
		{
			char *s;

			for (s = path + strlen(argv[1]) + 1; (s = strchr(s, '/')); s++) {
				*s = '\0';
				mkdir(path, 0755);
				*s = '/';
			}
			mkdir(path, 0755);
		}
		ioa_logw_init(&w, (size_t)1 << 30);
		rc = job_records(&w, p, &seconds);
		rc = rc ? rc : job_region(&w, p, j, start, start + (uint64_t)(seconds * 1e9));
		snprintf(path + strlen(path), sizeof(path) - strlen(path), "/user%03d_%s_%ld.ioa",
			 p->user, p->name, j);
		rc = rc ? rc : ioa_logw_write_file(&w, path, 0640, 0);
		ioa_logw_release(&w);
		if (rc) {
			fprintf(stderr, "gen-jobs: cannot write '%s': error %d\n", path, rc);
			return 1;
		}
		if (p->runs == p->change_at && p->change_at >= 0)
			p->change_ns = start;
		p->runs++;
	}
	snprintf(path, sizeof(path), "%s/planted.txt", argv[1]);
	planted = fopen(path, "w");
	for (a = 0; planted && a < APPS; a++)
		if (apps[a].change_at >= 0 && apps[a].change_ns)
			fprintf(planted, "%s%s\t%d\t%" PRIu64 "\t%ld\t%ld\t%.3f\n",
				apps[a].kind == SCRIPT ? "python3.11 " : "", apps[a].name,
				20000 + apps[a].user, apps[a].change_ns, apps[a].change_at,
				apps[a].runs, effect(&apps[a]));
	if (!planted || fclose(planted)) {
		fprintf(stderr, "gen-jobs: cannot write '%s'\n", path);
		return 1;
	}
	free(cum);
	return 0;
}
