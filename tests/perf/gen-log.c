/*
 * gen-log — writes a synthetic job log of any size for the collector's
 * benchmark: RANKS ranks, each with FILES files of its own (a names region
 * and a POSIX region per rank, as the runtime writes a large job), counters
 * that vary from record to record as real ones do.  The log is valid for
 * the reader and owned by whoever runs this (its recorded uid).  With
 * "bins", each rank also gets the time-resolved view of its files, writes
 * in four bursts over the hour (as checkpoints), for the reports' benchmark.
 *
 *	gen-log OUT RANKS FILES [SEED [bins]]
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ioa_counters.h"
#include "ioa_logfmt.h"
#include "ioa_logw.h"

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

int main(int argc, char **argv)
{
	struct ioa_log_writer w;
	long ranks, files, r;
	int rc, bins = argc > 5 && !strcmp(argv[5], "bins");

	if (argc < 4 || (ranks = strtol(argv[2], NULL, 10)) <= 0 ||
	    (files = strtol(argv[3], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: gen-log OUT RANKS FILES [SEED [bins]]\n");
		return 2;
	}
	if (argc > 4)
		rng ^= strtoull(argv[4], NULL, 10) * 0x9e3779b97f4a7c15ull;
	ioa_logw_init(&w, (size_t)1 << 40);
	rc = job_region(&w, ranks);
	for (r = 0; r < ranks && !rc; r++) {
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
