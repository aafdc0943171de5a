/*
 * gen-log — writes a synthetic job log of any size for the collector's
 * benchmark: RANKS ranks, each with FILES files of its own (a names region
 * and a POSIX region per rank, as the runtime writes a large job), counters
 * that vary from record to record as real ones do.  The log is valid for
 * the reader and owned by whoever runs this (its recorded uid).  With
 * "bins", each rank also gets the time-resolved view of its files, writes
 * in four bursts over the hour (as checkpoints), for the reports' benchmark.
 * With "trace3d", the log is instead a job whose ranks write their blocks
 * of a 3-D domain (RANKS split into a grid PX x PY x PZ, each block 32^3
 * doubles, one row per MPI_File_write_at with its POSIX sub-call) into one
 * shared file, FILES checkpoints with compute and a barrier between them:
 * its operation trace, as the runtime would store it, for the kernels'
 * code-size benchmark.
 *
 *	gen-log OUT RANKS FILES [SEED [bins|trace3d]]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ioa_counters.h"
#include "ioa_logfmt.h"
#include "ioa_logw.h"
#include "ioa_trace.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t start_ns; /* the job's start */

#define BINS 16

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int entry(struct ioa_buf *b, uint16_t key, const char *value)
{
	int rc = ioa_enc_u16(b, key);

	return rc ? rc : ioa_enc_bytes(b, value, strlen(value));
}

static int job_region(struct ioa_log_writer *w, long ranks)
{
	struct ioa_buf b = IOA_BUF_INIT(1 << 20);
	char text[64];
	struct timespec now;
	uint64_t ns;
	int rc;

	clock_gettime(CLOCK_REALTIME, &now);
	ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	snprintf(text, sizeof(text), "%u", (unsigned)getuid());
	rc = entry(&b, IOA_JOB_UID, text);
	rc = rc ? rc : entry(&b, IOA_JOB_USER, "bench");
	rc = rc ? rc : entry(&b, IOA_JOB_JOBID, "gen-log");
	rc = rc ? rc : entry(&b, IOA_JOB_SCHEDULER, "none");
	start_ns = ns - (uint64_t)3600000000000;
	snprintf(text, sizeof(text), "%" PRIu64, start_ns);
	rc = rc ? rc : entry(&b, IOA_JOB_START_NS, text);
	snprintf(text, sizeof(text), "%" PRIu64, ns);
	rc = rc ? rc : entry(&b, IOA_JOB_END_NS, text);
	snprintf(text, sizeof(text), "%ld", ranks);
	rc = rc ? rc : entry(&b, IOA_JOB_NPROCS, text);
	rc = rc ? rc : entry(&b, IOA_JOB_NNODES, "1");
	rc = rc ? rc : entry(&b, IOA_JOB_EXE, "/bench/app");
	rc = rc ? rc : entry(&b, IOA_JOB_VERSION, "bench");
	rc = rc ? rc : entry(&b, IOA_JOB_SETTINGS, "");
	rc = rc ? rc : ioa_logw_add(w, IOA_REGION_JOB, b.data, b.len);
	ioa_buf_release(&b);
	return rc;
}

/* The rank's bins region: each file written in bins 2, 6, 10 and 14 of 16 (225 s each). */
static int bins_region(struct ioa_log_writer *w, long rank, long files)
{
	struct ioa_buf b = IOA_BUF_INIT((size_t)1 << 31);
	long f;
	int k, rc = ioa_enc_u32(&b, BINS);

	rc = rc ? rc : ioa_enc_u64(&b, ioa_f64_bits(3600.0 / BINS));
	rc = rc ? rc : ioa_enc_u64(&b, start_ns);
	rc = rc ? rc : ioa_enc_u32(&b, (uint32_t)rank);
	rc = rc ? rc : ioa_enc_u32(&b, (uint32_t)files);
	for (f = 0; f < files && !rc; f++) {
		rc = ioa_enc_u64(&b, ((uint64_t)rank << 32) | (uint64_t)f);
		rc = rc ? rc : ioa_enc_u16(&b, IOA_MOD_POSIX);
		for (k = 0; k < BINS && !rc; k++) {
			uint64_t bytes = k % 4 == 2 ? (uint64_t)(1 + rank % 7) << 20 : 0;

			rc = ioa_enc_u64(&b, 0);
			rc = rc ? rc : ioa_enc_u64(&b, bytes);
			rc = rc ? rc : ioa_enc_u32(&b, 0);
			rc = rc ? rc : ioa_enc_u32(&b, bytes ? 16 : 0);
		}
	}
	rc = rc ? rc : ioa_logw_add(w, IOA_REGION_BINS, b.data, b.len);
	ioa_buf_release(&b);
	return rc;
}

static int rank_regions(struct ioa_log_writer *w, long rank, long files)
{
	const struct ioa_module_desc *mod = &ioa_modules[IOA_MOD_POSIX];
	struct ioa_buf b = IOA_BUF_INIT((size_t)1 << 31);
	int64_t counters[IOA_MAX_COUNTERS];
	double fcounters[IOA_MAX_FCOUNTERS];
	char name[128];
	long f;
	unsigned k;
	/* As the runtime writes a rank: its module regions, then their names. */
	int rc = ioa_enc_module_header(&b, IOA_MOD_POSIX, (uint32_t)files);

	for (f = 0; f < files && !rc; f++) {
		for (k = 0; k < mod->counter_count; k++)
			counters[k] = (int64_t)(next() % (k % 4 == 0 ? 1000000 : 64));
		for (k = 0; k < mod->fcounter_count; k++)
			fcounters[k] = (double)(next() % 100000) / 1000.0;
		rc = ioa_enc_module_record(&b, IOA_MOD_POSIX, ((uint64_t)rank << 32) | (uint64_t)f,
					   (int32_t)rank, 0, counters, fcounters);
	}
	rc = rc ? rc : ioa_logw_add(w, mod->region_type, b.data, b.len);
	ioa_buf_reset(&b);
	rc = rc ? rc : ioa_enc_u32(&b, (uint32_t)files);
	for (f = 0; f < files && !rc; f++) {
		snprintf(name, sizeof(name), "/lustre/project/run/rank-%06ld/field-%06ld.dat", rank,
			 f);
		rc = ioa_enc_u64(&b, ((uint64_t)rank << 32) | (uint64_t)f);
		rc = rc ? rc : ioa_enc_bytes(&b, name, strlen(name));
	}
	rc = rc ? rc : ioa_logw_add(w, IOA_REGION_NAMES, b.data, b.len);
	ioa_buf_release(&b);
	return rc;
}

/* ------------------------------------------------------------ trace3d */

#define BLOCK 32 /* cells per block edge */

enum { S_INIT, S_OPEN, S_PWRITE, S_WRITE_AT, S_BARRIER, S_CLOSE, NSIGS };

static int hist(struct ioa_buf *b, uint64_t ticks, uint64_t count)
{
	int rc = ioa_enc_uvar(b, 1);

	rc = rc ? rc : ioa_enc_uvar(b, ioa_trace_bin(ticks));
	return rc ? rc : ioa_enc_uvar(b, count);
}

/* A call node of the shape: its signature and its numbers, all affine. */
static int shape_call(struct ioa_buf *b, unsigned sig, unsigned loops)
{
	int rc = ioa_enc_uvar(b, 0);
	unsigned k;

	rc = rc ? rc : ioa_enc_uvar(b, sig);
	for (k = 0; k < IOA_TRACE_NVALUES && !rc; k++) {
		rc = ioa_enc_uvar(b, 0);
		rc = rc ? rc : ioa_enc_uvar(b, loops);
	}
	return rc;
}

/*
 * The shape every rank shares: Init; File_open; checkpoints x { planes x
 * { rows x { pwrite (sub-call), File_write_at } }, Barrier }; File_close.
 */
static int trace3d_shape(struct ioa_buf *b, long checkpoints)
{
	static const struct {
		const char *name;
		unsigned module, flags;
	} sigs[NSIGS] = {
		{"Init", IOA_TRACE_MPI, 0},
		{"File_open", IOA_MOD_MPIIO, IOA_TR_ID},
		{"pwrite", IOA_MOD_POSIX, IOA_TR_SUB | IOA_TR_WRITE},
		{"File_write_at", IOA_MOD_MPIIO, IOA_TR_ID | IOA_TR_WRITE},
		{"Barrier", IOA_TRACE_MPI, 0},
		{"File_close", IOA_MOD_MPIIO, IOA_TR_ID},
	};
	unsigned i;
	int rc = ioa_enc_uvar(b, NSIGS);

	for (i = 0; i < NSIGS && !rc; i++) {
		rc = ioa_enc_uvar(b, strlen(sigs[i].name));
		rc = rc ? rc : ioa_buf_add(b, sigs[i].name, strlen(sigs[i].name));
	}
	rc = rc ? rc : ioa_enc_uvar(b, NSIGS);
	for (i = 0; i < NSIGS && !rc; i++) {
		rc = ioa_enc_uvar(b, i);
		rc = rc ? rc : ioa_enc_uvar(b, sigs[i].module);
		rc = rc ? rc : ioa_enc_uvar(b, sigs[i].flags);
		rc = rc ? rc : ioa_enc_svar(b, 0);
	}
	rc = rc ? rc : ioa_enc_uvar(b, 1); /* files */
	rc = rc ? rc : ioa_enc_uvar(b, 1); /* communicators */
	rc = rc ? rc : ioa_enc_uvar(b, 4); /* top-level nodes */
	rc = rc ? rc : shape_call(b, S_INIT, 0);
	rc = rc ? rc : shape_call(b, S_OPEN, 0);
	rc = rc ? rc : ioa_enc_uvar(b, 1);
	rc = rc ? rc : ioa_enc_uvar(b, (uint64_t)checkpoints);
	rc = rc ? rc : ioa_enc_uvar(b, 2);
	rc = rc ? rc : ioa_enc_uvar(b, 1);
	rc = rc ? rc : ioa_enc_uvar(b, BLOCK);
	rc = rc ? rc : ioa_enc_uvar(b, 1);
	rc = rc ? rc : ioa_enc_uvar(b, 1);
	rc = rc ? rc : ioa_enc_uvar(b, BLOCK);
	rc = rc ? rc : ioa_enc_uvar(b, 2);
	rc = rc ? rc : shape_call(b, S_PWRITE, 3);
	rc = rc ? rc : shape_call(b, S_WRITE_AT, 3);
	rc = rc ? rc : shape_call(b, S_BARRIER, 1);
	rc = rc ? rc : shape_call(b, S_CLOSE, 0);
	return rc ? rc : ioa_enc_uvar(b, 0); /* no summary */
}

/* The times every rank shares: per call node, durations and the gaps before. */
static int trace3d_times(struct ioa_buf *b, long checkpoints)
{
	uint64_t rows = (uint64_t)checkpoints * BLOCK * BLOCK;
	int rc = ioa_enc_uvar(b, 6);

	rc = rc ? rc : hist(b, 150000000, 1); /* Init */
	rc = rc ? rc : hist(b, 0, 1);
	rc = rc ? rc : hist(b, 40000000, 1); /* File_open */
	rc = rc ? rc : hist(b, 2000000, 1);
	rc = rc ? rc : hist(b, 2500, rows); /* pwrite: the compute before each checkpoint */
	rc = rc ? rc : ioa_enc_uvar(b, 2);
	rc = rc ? rc : ioa_enc_uvar(b, ioa_trace_bin(600));
	rc = rc ? rc : ioa_enc_uvar(b, rows - (uint64_t)checkpoints);
	rc = rc ? rc : ioa_enc_uvar(b, ioa_trace_bin(2000000000) - ioa_trace_bin(600));
	rc = rc ? rc : ioa_enc_uvar(b, (uint64_t)checkpoints);
	rc = rc ? rc : hist(b, 3200, rows); /* File_write_at */
	rc = rc ? rc : hist(b, 0, rows);
	rc = rc ? rc : hist(b, 30000000, (uint64_t)checkpoints); /* Barrier */
	rc = rc ? rc : hist(b, 800, (uint64_t)checkpoints);
	rc = rc ? rc : hist(b, 8000000, 1); /* File_close */
	rc = rc ? rc : hist(b, 1000, 1);
	rc = rc ? rc : ioa_enc_uvar(b, 0);   /* no rank of its own */
	return rc ? rc : ioa_enc_uvar(b, 0); /* no order of gaps */
}

/* Appends a value to a rank's list. */
#define VAL(x) (v[n++] = (int64_t)(x))

/* Rank r's numbers, in the order of its shape's nodes. */
static size_t trace3d_values(int64_t *v, long r, const long p[3], long checkpoints)
{
	const int64_t row = (int64_t)p[0] * BLOCK * 8, plane = row * p[1] * BLOCK;
	const int64_t ckpt = plane * p[2] * BLOCK, x = r % p[0], y = r / p[0] % p[1],
		      z = r / (p[0] * p[1]);
	const int64_t base = z * BLOCK * plane + y * BLOCK * row + x * BLOCK * 8;
	const int64_t rows = (int64_t)checkpoints * BLOCK * BLOCK;
	size_t n = 0;
	int k;

	VAL(2 * rows + checkpoints + 3); /* header: calls seen and traced */
	VAL(2 * rows + checkpoints + 3);
	VAL(150000000 + r % 97 * 1000);
	VAL(0);
	VAL(checkpoints * 2000000000ll + r % 13 * 100000);
	VAL(checkpoints * 30000000ll + r % 31 * 10000);
	VAL(rows * 5700 + r % 7 * 1000);
	VAL(1);			 /* the record id of file 0 */
	VAL(p[0] * p[1] * p[2]); /* communicator 0: its size, this rank's rank, its leader */
	VAL(r);
	VAL(0);
	VAL(-1); /* Init: peer, length, aux, communicator */
	VAL(0);
	VAL(0);
	VAL(0);
	VAL(5); /* File_open: amode, length, id, file */
	VAL(0);
	VAL(0);
	VAL(0);
	for (k = 0; k < 2; k++) { /* pwrite (parent id), File_write_at (its id) */
		VAL(base);
		VAL(row);
		VAL(plane);
		VAL(ckpt);
		VAL(BLOCK * 8);
		VAL(0);
		VAL(0);
		VAL(0);
		VAL(1);
		VAL(1);
		VAL(BLOCK);
		VAL(BLOCK * BLOCK);
		VAL(0);
		VAL(0);
		VAL(0);
		VAL(0);
	}
	VAL(-1); /* Barrier */
	VAL(0);
	VAL(0);
	VAL(0);
	VAL(0);
	VAL(0);
	VAL(0);
	VAL(0);
	VAL(0); /* File_close */
	VAL(0);
	VAL(rows + 1);
	VAL(0);
	return n;
}

/* The ranks split into a grid px >= py >= pz as even as the rank count allows. */
static void grid(long ranks, long p[3])
{
	long a, b, c;

	p[0] = ranks, p[1] = p[2] = 1;
	for (a = 1; a <= ranks; a++) {
		if (ranks % a)
			continue;
		for (b = 1; b <= a && b <= ranks / a; b++) {
			c = ranks / a / b;
			if ((ranks / a) % b || c > b)
				continue;
			if (a - c < p[0] - p[2])
				p[0] = a, p[1] = b, p[2] = c;
		}
	}
}

static int trace3d(struct ioa_log_writer *w, long ranks, long checkpoints)
{
	struct ioa_trace t = {0};
	struct ioa_buf shape = IOA_BUF_INIT((size_t)1 << 20), times = IOA_BUF_INIT((size_t)1 << 20);
	struct ioa_buf b = IOA_BUF_INIT((size_t)1 << 30);
	const char *name = "/lustre/project/run/domain.dat";
	long p[3], r;
	int rc;

	grid(ranks, p);
	rc = trace3d_shape(&shape, checkpoints);
	rc = rc ? rc : trace3d_times(&times, checkpoints);
	t.groups = calloc((size_t)ranks, sizeof(*t.groups));
	rc = rc ? rc : t.groups ? 0 : -ENOMEM;
	for (r = 0; r < ranks && !rc; r++) {
		struct ioa_trace_group *g = &t.groups[t.ngroups++];
		int64_t v[128];
		size_t k;

		g->nranks = 1;
		g->ranks = malloc(sizeof(*g->ranks));
		g->ns_per_tick = 1.0;
		g->shape = malloc(shape.len);
		g->shape_len = shape.len;
		g->times = malloc(times.len);
		g->times_len = times.len;
		g->nvalues = trace3d_values(v, r, p, checkpoints);
		g->kind = calloc(g->nvalues, 1);
		g->a = calloc(g->nvalues, sizeof(*g->a));
		g->b = malloc(g->nvalues * sizeof(*g->b));
		if (!g->ranks || !g->shape || !g->times || !g->kind || !g->a || !g->b) {
			rc = -ENOMEM;
			break;
		}
		g->ranks[0] = (uint32_t)r;
		memcpy(g->shape, shape.data, shape.len);
		memcpy(g->times, times.data, times.len);
		for (k = 0; k < g->nvalues; k++)
			g->b[k] = v[k];
	}
	rc = rc ? rc : ioa_trace_regroup(&t);
	rc = rc ? rc : ioa_trace_encode(&t, &b);
	rc = rc ? rc : ioa_logw_add(w, IOA_REGION_TRACE, b.data, b.len);
	ioa_buf_reset(&b);
	rc = rc ? rc : ioa_enc_u32(&b, 1);
	rc = rc ? rc : ioa_enc_u64(&b, 1);
	rc = rc ? rc : ioa_enc_bytes(&b, name, strlen(name));
	rc = rc ? rc : ioa_logw_add(w, IOA_REGION_NAMES, b.data, b.len);
	ioa_trace_free(&t);
	ioa_buf_release(&shape);
	ioa_buf_release(&times);
	ioa_buf_release(&b);
	return rc;
}

int main(int argc, char **argv)
{
	struct ioa_log_writer w;
	long ranks, files, r;
	int rc, bins = argc > 5 && !strcmp(argv[5], "bins");
	int traced = argc > 5 && !strcmp(argv[5], "trace3d");

	if (argc < 4 || (ranks = strtol(argv[2], NULL, 10)) <= 0 ||
	    (files = strtol(argv[3], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: gen-log OUT RANKS FILES [SEED [bins|trace3d]]\n");
		return 2;
	}
	if (argc > 4)
		rng ^= strtoull(argv[4], NULL, 10) * 0x9e3779b97f4a7c15ull;
	ioa_logw_init(&w, (size_t)1 << 40);
	rc = job_region(&w, ranks);
	if (traced)
		rc = rc ? rc : trace3d(&w, ranks, files);
	for (r = 0; r < ranks && !rc && !traced; r++) {
		rc = rank_regions(&w, r, files);
		if (!rc && bins)
			rc = bins_region(&w, r, files);
	}
	rc = rc ? rc : ioa_logw_write_file(&w, argv[1], 0440, 0);
	ioa_logw_release(&w);
	if (rc) {
		fprintf(stderr, "gen-log: cannot write '%s': error %d\n", argv[1], rc);
		return 1;
	}
	return 0;
}
