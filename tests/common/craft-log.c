/*
 * craft-log — writes the logs an attacker crafts to exhaust the readers,
 * through the real writer (common/ioa_logw.c) and the trace encoding, for
 * t0008-reader-bounds and the fuzzers' corpora:
 *
 *	craft-log loop-empty OUT    a trace loop of 2^62 iterations around nothing
 *	craft-log loop-calls OUT    a trace loop of 2^62 writes, claiming 2^62 calls traced
 *	craft-log nprocs OUT        a job of 2^31 - 1 ranks that holds one (a record names rank 2^31
 *- 2) craft-log counters OUT      counters whose sums overflow, negative counts, NaN times
 *	craft-log huge OUT          counts of 2^63 - 1 in two records: every sum overflows
 *	craft-log ranks OUT         a trace group claiming 2^24 ranks of 16 writes each
 *	craft-log regroup OUT       a trace region (raw bytes) whose ranks wrap around
 *	craft-log trace-loop-empty OUT, craft-log trace-loop-calls OUT
 *	                            the loops' trace regions alone (raw bytes)
 *	craft-log good OUT          the same job, honest: one rank, 16 writes in a loop
 *	craft-log counters-columns OUT, huge-columns OUT, good-columns OUT
 *	                            counters, huge and good with their records and
 *	                            names in the column encoding (log format 1.1)
 *
 * Options after OUT, for the logs of the readers' other tests:
 *	--partial FILE              job key 31 `partial` (a log recovered from a killed
 *	                            job) with FILE's bytes as its value, whatever they are
 *	--clock FILE, --libraries FILE
 *	                            job keys 33 `clock` and 34 `io_libraries`, the same way
 *	--start NS, --end NS        the job's start and end (ns since the epoch; default:
 *	                            a minute ago and now)
 *
 * Each log is otherwise valid: checksums right, one rank (0) writing one
 * file, owned by whoever runs this.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ioa_counters.h"
#include "ioa_logfmt.h"
#include "ioa_logw.h"
#include "ioa_parse.h"
#include "ioa_trace.h"

#define FILE_ID 0x1234abcdull

static int entry(struct ioa_buf *b, uint16_t key, const char *value)
{
	int rc = ioa_enc_u16(b, key);

	return rc ? rc : ioa_enc_bytes(b, value, strlen(value));
}

/* What the options change in the job region (0, NULL: the defaults). */
struct job_options {
	uint64_t start_ns, end_ns;
	const char *partial;   /* a file whose bytes are key 31's value */
	const char *clock;     /* key 33's */
	const char *libraries; /* key 34's */
};

/* Job key `key` with the bytes of file, read whole (1 MiB at most). */
static int file_entry(struct ioa_buf *b, uint16_t key, const char *file)
{
	static char value[1 << 20];
	FILE *f = fopen(file, "rb");
	size_t len = f ? fread(value, 1, sizeof(value), f) : 0;
	int rc = !f || ferror(f) ? -1 : 0;

	if (f)
		fclose(f);
	rc = rc ? rc : ioa_enc_u16(b, key);
	return rc ? rc : ioa_enc_bytes(b, value, len);
}

static int job_region(struct ioa_log_writer *w, const char *nprocs, const struct job_options *opt)
{
	struct ioa_buf b = IOA_BUF_INIT(1 << 22);
	char text[64];
	struct timespec now;
	uint64_t ns;
	int rc;

	clock_gettime(CLOCK_REALTIME, &now);
	ns = opt->end_ns ? opt->end_ns : (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	snprintf(text, sizeof(text), "%u", (unsigned)getuid());
	rc = entry(&b, IOA_JOB_UID, text);
	rc = rc ? rc : entry(&b, IOA_JOB_USER, "crafted");
	rc = rc ? rc : entry(&b, IOA_JOB_JOBID, "craft");
	rc = rc ? rc : entry(&b, IOA_JOB_SCHEDULER, "none");
	snprintf(text, sizeof(text), "%" PRIu64,
		 opt->start_ns ? opt->start_ns : ns - (uint64_t)60000000000);
	rc = rc ? rc : entry(&b, IOA_JOB_START_NS, text);
	snprintf(text, sizeof(text), "%" PRIu64, ns);
	rc = rc ? rc : entry(&b, IOA_JOB_END_NS, text);
	rc = rc ? rc : entry(&b, IOA_JOB_NPROCS, nprocs);
	rc = rc ? rc : entry(&b, IOA_JOB_NNODES, "1");
	rc = rc ? rc : entry(&b, IOA_JOB_EXE, "/crafted/app");
	rc = rc ? rc : entry(&b, IOA_JOB_VERSION, "crafted");
	rc = rc ? rc : entry(&b, IOA_JOB_SETTINGS, "");
	rc = rc ? rc : entry(&b, IOA_JOB_HOSTNAMES, "node0");
	/* The rank-to-node map: the one rank the log holds, on node 0. */
	rc = rc ? rc : ioa_enc_u16(&b, IOA_JOB_RANK_NODES);
	rc = rc ? rc : ioa_enc_u32(&b, 4);
	rc = rc ? rc : ioa_enc_u32(&b, 0);
	if (opt->partial)
		rc = rc ? rc : file_entry(&b, IOA_JOB_PARTIAL, opt->partial);
	if (opt->clock)
		rc = rc ? rc : file_entry(&b, IOA_JOB_CLOCK, opt->clock);
	if (opt->libraries)
		rc = rc ? rc : file_entry(&b, IOA_JOB_LIBRARIES, opt->libraries);
	rc = rc ? rc : ioa_logw_add(w, IOA_REGION_JOB, b.data, b.len);
	ioa_buf_release(&b);
	return rc;
}

/* The records in the column encoding, by name, with their time bins. */
static int columns(struct ioa_log_writer *w, const char *name, uint32_t count, int32_t far,
		   const int64_t *c, const double *f)
{
	struct ioa_buf b = IOA_BUF_INIT(1 << 20);
	struct ioa_log_bin bins[4] = {{0, 4096, 0, 1}, {0, 0, 0, 0}, {0, 61440, 0, 15}};
	struct ioa_rec_ref refs[2] = {
		{FILE_ID, name, strlen(name), 0, 0, IOA_MOD_POSIX, c, f, bins},
		{FILE_ID + 1, NULL, 0, far, 0, IOA_MOD_POSIX, c, f, bins},
	};
	int rc = ioa_enc_module_region(&b, IOA_MOD_POSIX, refs, count, 1e-9, NULL, NULL);

	rc = rc ? rc : ioa_logw_add(w, ioa_modules[IOA_MOD_POSIX].region_type, b.data, b.len);
	ioa_buf_reset(&b);
	rc = rc ? rc : ioa_enc_bins_region(&b, 4, 1.0, 1000000000, 0, refs, count, NULL, NULL);
	rc = rc ? rc : ioa_logw_add(w, IOA_REGION_BINS, b.data, b.len);
	ioa_buf_reset(&b);
	rc = rc ? rc : ioa_enc_names_header(&b, 1);
	rc = rc ? rc : ioa_enc_name(&b, FILE_ID, name, strlen(name));
	rc = rc ? rc : ioa_logw_add(w, IOA_REGION_NAMES, b.data, b.len);
	ioa_buf_release(&b);
	return rc;
}

/* Rank 0's POSIX record of the one file, and its name. */
static int records(struct ioa_log_writer *w, int hostile, int huge, int far, int in_columns)
{
	const char *name = "/scratch/crafted/data.bin";
	struct ioa_buf b = IOA_BUF_INIT(1 << 20);
	int64_t c[IOA_MAX_COUNTERS] = {0};
	double f[IOA_MAX_FCOUNTERS] = {0};
	int rc = ioa_enc_module_header(&b, IOA_MOD_POSIX, hostile || huge || far ? 2 : 1);
	unsigned k;

	c[POSIX_OPENS] = 1;
	c[POSIX_WRITES] = 16;
	c[POSIX_BYTES_WRITTEN] = 16 * 4096;
	f[POSIX_F_WRITE_TIME] = 0.5;
	f[POSIX_F_OPEN_START_TIMESTAMP] = 1.0;
	for (k = 0; huge && k < ioa_modules[IOA_MOD_POSIX].counter_count; k++)
		if (ioa_counter_agg(ioa_modules[IOA_MOD_POSIX].counter_names[k]) == IOA_AGG_SUM)
			c[k] = INT64_MAX;
	if (hostile) {
		/* Two records whose sums overflow 64 bits, a negative count, times not numbers. */
		c[POSIX_BYTES_WRITTEN] = INT64_MAX;
		c[POSIX_WRITES] = INT64_MAX;
		c[POSIX_READS] = -5;
		f[POSIX_F_WRITE_TIME] = NAN;
		f[POSIX_F_READ_TIME] = INFINITY;
		f[POSIX_F_META_TIME] = -INFINITY;
	}
	if (in_columns) {
		ioa_buf_release(&b);
		return rc ? rc
			  : columns(w, name, hostile || huge || far ? 2 : 1,
				    far ? INT32_MAX - 1 : 0, c, f);
	}
	rc = rc ? rc : ioa_enc_module_record(&b, IOA_MOD_POSIX, FILE_ID, 0, 0, c, f);
	if (hostile || huge || far)
		rc = rc ? rc
			: ioa_enc_module_record(&b, IOA_MOD_POSIX, FILE_ID + 1,
						far ? INT32_MAX - 1 : 0, 0, c, f);
	rc = rc ? rc : ioa_logw_add(w, ioa_modules[IOA_MOD_POSIX].region_type, b.data, b.len);
	ioa_buf_reset(&b);
	rc = rc ? rc : ioa_enc_u32(&b, 1);
	rc = rc ? rc : ioa_enc_u64(&b, FILE_ID);
	rc = rc ? rc : ioa_enc_bytes(&b, name, strlen(name));
	rc = rc ? rc : ioa_logw_add(w, IOA_REGION_NAMES, b.data, b.len);
	ioa_buf_release(&b);
	return rc;
}

static int hist(struct ioa_buf *b, unsigned bin, uint64_t count)
{
	int rc = ioa_enc_uvar(b, 1);

	rc = rc ? rc : ioa_enc_uvar(b, bin);
	return rc ? rc : ioa_enc_uvar(b, count);
}

/*
 * Rank 0's trace: one loop of count iterations around a write of 4 KiB at
 * 4 KiB x i (calls) or around nothing; the header claims traced calls.
 */
static int trace_region(struct ioa_buf *out, uint64_t count, int calls, uint64_t traced,
			uint32_t nranks)
{
	struct ioa_buf shape = IOA_BUF_INIT(1 << 20), times = IOA_BUF_INIT(1 << 20);
	int64_t header[IOA_TRH_COUNT] = {(int64_t)traced, (int64_t)traced, 0, 0, 1000, 0, 1000};
	int64_t leaf[] = {0, 4096, 4096, 0, 0, 0, 0, 0}; /* base, stride per number */
	int64_t prev = 0;
	size_t k;
	int rc;

	rc = ioa_enc_uvar(&shape, 1); /* strings */
	rc = rc ? rc : ioa_enc_uvar(&shape, 5);
	rc = rc ? rc : ioa_buf_add(&shape, "write", 5);
	rc = rc ? rc : ioa_enc_uvar(&shape, 1); /* signatures: write, POSIX, a write */
	rc = rc ? rc : ioa_enc_uvar(&shape, 0);
	rc = rc ? rc : ioa_enc_uvar(&shape, IOA_MOD_POSIX);
	rc = rc ? rc : ioa_enc_uvar(&shape, IOA_TR_WRITE);
	rc = rc ? rc : ioa_enc_svar(&shape, 0);
	rc = rc ? rc : ioa_enc_uvar(&shape, 1); /* files */
	rc = rc ? rc : ioa_enc_uvar(&shape, 0); /* communicators */
	rc = rc ? rc : ioa_enc_uvar(&shape, 1); /* top-level nodes: the loop */
	rc = rc ? rc : ioa_enc_uvar(&shape, 1);
	rc = rc ? rc : ioa_enc_uvar(&shape, count);
	rc = rc ? rc : ioa_enc_uvar(&shape, calls ? 1 : 0);
	if (calls) {
		rc = rc ? rc : ioa_enc_uvar(&shape, 0); /* a call of signature 0 */
		rc = rc ? rc : ioa_enc_uvar(&shape, 0);
		for (k = 0; k < IOA_TRACE_NVALUES && !rc; k++) {
			rc = ioa_enc_uvar(&shape, 0); /* affine, one stride */
			rc = rc ? rc : ioa_enc_uvar(&shape, 1);
		}
	}
	rc = rc ? rc : ioa_enc_uvar(&shape, 0); /* no summary */
	rc = rc ? rc : ioa_enc_uvar(&times, calls ? 1 : 0);
	if (calls) {
		rc = rc ? rc : hist(&times, 40, count); /* durations */
		rc = rc ? rc : hist(&times, 48, count); /* gaps */
	}
	rc = rc ? rc : ioa_enc_uvar(&times, 0); /* overrides */
	rc = rc ? rc : ioa_enc_uvar(&times, 0); /* orders of gaps */

	rc = rc ? rc : ioa_enc_uvar(out, IOA_TRACE_VERSION);
	rc = rc ? rc : ioa_enc_uvar(out, 1);	  /* groups */
	rc = rc ? rc : ioa_enc_uvar(out, nranks); /* ranks 0 to nranks - 1: one run */
	rc = rc ? rc : ioa_enc_uvar(out, 1);
	rc = rc ? rc : ioa_enc_uvar(out, 0);
	rc = rc ? rc : ioa_enc_uvar(out, nranks);
	rc = rc ? rc : ioa_enc_u64(out, ioa_f64_bits(1.0));
	rc = rc ? rc : ioa_enc_uvar(out, shape.len);
	rc = rc ? rc : ioa_buf_add(out, shape.data, shape.len);
	rc = rc ? rc : ioa_enc_uvar(out, IOA_TRH_COUNT + 1 + (calls ? 8 : 0));
	for (k = 0; k < IOA_TRH_COUNT + 1 + (calls ? 8u : 0u) && !rc; k++) {
		int64_t v = k < IOA_TRH_COUNT	 ? header[k]
			    : k == IOA_TRH_COUNT ? (int64_t)FILE_ID
						 : leaf[k - IOA_TRH_COUNT - 1];

		uint32_t r;

		if (k == IOA_TRH_COUNT && nranks > 1) {
			/* The file's id as a per-rank table: one byte a rank, as a real one costs.
			 */
			rc = ioa_enc_uvar(out, 1);
			for (r = 0; r < nranks && !rc; r++)
				rc = ioa_enc_svar(out,
						  r ? 0 : (int64_t)((uint64_t)v - (uint64_t)prev));
		} else {
			rc = ioa_enc_uvar(out, 0); /* a x rank + b, a = 0 */
			rc = rc ? rc : ioa_enc_svar(out, 0);
			rc = rc ? rc : ioa_enc_svar(out, (int64_t)((uint64_t)v - (uint64_t)prev));
		}
		prev = v;
	}
	rc = rc ? rc : ioa_enc_uvar(out, times.len);
	rc = rc ? rc : ioa_buf_add(out, times.data, times.len);
	ioa_buf_release(&shape);
	ioa_buf_release(&times);
	return rc;
}

/*
 * A trace region of one group whose second run of ranks starts before its
 * first (the gap wraps around 2^64): ranks 5 then 2, two per-rank values.
 * Regrouping looked rank 5 up past the end of the group's table.
 */
static int regroup_region(struct ioa_buf *out)
{
	int rc = ioa_enc_uvar(out, IOA_TRACE_VERSION);
	unsigned k;

	rc = rc ? rc : ioa_enc_uvar(out, 1);
	rc = rc ? rc : ioa_enc_uvar(out, 2); /* two ranks in two runs */
	rc = rc ? rc : ioa_enc_uvar(out, 2);
	rc = rc ? rc : ioa_enc_uvar(out, 5);
	rc = rc ? rc : ioa_enc_uvar(out, 1);
	rc = rc ? rc : ioa_enc_uvar(out, UINT64_MAX - 3); /* 6 + this wraps to 2 */
	rc = rc ? rc : ioa_enc_uvar(out, 1);
	rc = rc ? rc : ioa_enc_u64(out, ioa_f64_bits(1.0));
	rc = rc ? rc : ioa_enc_uvar(out, 0); /* no shape */
	rc = rc ? rc : ioa_enc_uvar(out, 2); /* two values, each a per-rank table */
	for (k = 0; k < 4 && !rc; k++) {
		if (k % 2 == 0)
			rc = ioa_enc_uvar(out, 1);
		rc = rc ? rc : ioa_enc_svar(out, 7);
	}
	rc = rc ? rc : ioa_enc_uvar(out, 3); /* times: no calls, overrides or orders */
	rc = rc ? rc : ioa_enc_uvar(out, 0);
	rc = rc ? rc : ioa_enc_uvar(out, 0);
	return rc ? rc : ioa_enc_uvar(out, 0);
}

/* Whether kind's first len bytes are name. */
static int is_kind(const char *kind, size_t len, const char *name)
{
	return strlen(name) == len && !strncmp(kind, name, len);
}

int main(int argc, char **argv)
{
	struct ioa_log_writer w;
	struct ioa_buf trace = IOA_BUF_INIT(1 << 26);
	const char *kind = argc >= 3 ? argv[1] : "", *suffix = strrchr(kind, '-');
	size_t kind_len = strlen(kind);
	struct job_options opt = {0, 0, NULL, NULL, NULL};
	int rc, in_columns, a;

	for (a = 3; a < argc; a += 2) {
		int bad = a + 1 >= argc;

		if (!bad && !strcmp(argv[a], "--partial"))
			opt.partial = argv[a + 1];
		else if (!bad && !strcmp(argv[a], "--clock"))
			opt.clock = argv[a + 1];
		else if (!bad && !strcmp(argv[a], "--libraries"))
			opt.libraries = argv[a + 1];
		else if (!bad && !strcmp(argv[a], "--start"))
			bad = ioa_parse_u64(argv[a + 1], &opt.start_ns) != 0;
		else if (!bad && !strcmp(argv[a], "--end"))
			bad = ioa_parse_u64(argv[a + 1], &opt.end_ns) != 0;
		else
			bad = 1;
		if (bad) {
			fprintf(stderr,
				"craft-log: bad option '%s' (--partial FILE, --clock FILE, "
				"--libraries FILE, --start NS, --end NS)\n",
				argv[a]);
			return 2;
		}
	}

	if (!strcmp(kind, "regroup") || !strncmp(kind, "trace-loop-", 11)) {
		FILE *f = fopen(argv[2], "wb");

		if (!strcmp(kind, "regroup"))
			rc = regroup_region(&trace);
		else if (!strcmp(kind, "trace-loop-empty"))
			rc = trace_region(&trace, (uint64_t)1 << 62, 0, 0, 1);
		else
			rc = trace_region(&trace, (uint64_t)1 << 62, 1, (uint64_t)1 << 62, 1);
		if (!f || rc || fwrite(trace.data, 1, trace.len, f) != trace.len || fclose(f)) {
			fprintf(stderr, "craft-log: cannot write '%s'\n", argv[2]);
			return 1;
		}
		ioa_buf_release(&trace);
		return 0;
	}
	if (suffix && !strcmp(suffix, "-columns"))
		kind_len = (size_t)(suffix - kind);
	if (!is_kind(kind, kind_len, "loop-empty") && !is_kind(kind, kind_len, "loop-calls") &&
	    !is_kind(kind, kind_len, "nprocs") && !is_kind(kind, kind_len, "counters") &&
	    !is_kind(kind, kind_len, "huge") && !is_kind(kind, kind_len, "ranks") &&
	    !is_kind(kind, kind_len, "good")) {
		fprintf(stderr,
			"usage: craft-log "
			"loop-empty|loop-calls|nprocs|counters|huge|ranks|regroup|good|"
			"trace-loop-empty|trace-loop-calls OUT [OPTIONS]\n"
			"       craft-log counters-columns|huge-columns|good-columns OUT "
			"[OPTIONS]\n"
			"options: --partial FILE, --clock FILE, --libraries FILE, --start NS, "
			"--end NS\n");
		return 2;
	}
	in_columns = kind_len != strlen(kind);
	if (in_columns && !is_kind(kind, kind_len, "counters") &&
	    !is_kind(kind, kind_len, "huge") && !is_kind(kind, kind_len, "good")) {
		fprintf(stderr, "craft-log: no column form of '%s'\n", kind);
		return 2;
	}
	ioa_logw_init(&w, (size_t)1 << 30);
	rc = job_region(&w, !strcmp(kind, "nprocs") ? "2147483647" : "1", &opt);
	rc = rc ? rc
		: records(&w, is_kind(kind, kind_len, "counters"), is_kind(kind, kind_len, "huge"),
			  !strcmp(kind, "nprocs"), in_columns);
	if (!strcmp(kind, "loop-empty"))
		rc = rc ? rc : trace_region(&trace, (uint64_t)1 << 62, 0, 0, 1);
	else if (!strcmp(kind, "loop-calls"))
		rc = rc ? rc : trace_region(&trace, (uint64_t)1 << 62, 1, (uint64_t)1 << 62, 1);
	else if (!strcmp(kind, "ranks"))
		rc = rc ? rc : trace_region(&trace, 16, 1, 16, 1u << 24);
	else
		rc = rc ? rc : trace_region(&trace, 16, 1, 16, 1);
	rc = rc ? rc : ioa_logw_add(&w, IOA_REGION_TRACE, trace.data, trace.len);
	rc = rc ? rc : ioa_logw_write_file(&w, argv[2], 0640, 0);
	ioa_logw_release(&w);
	ioa_buf_release(&trace);
	if (rc) {
		fprintf(stderr, "craft-log: cannot write '%s': error %d\n", argv[2], rc);
		return 1;
	}
	return 0;
}
