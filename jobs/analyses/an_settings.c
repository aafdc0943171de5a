/*
 * an_settings — the analyses' table and their site settings (analyze.*).
 */
#include <errno.h>

#include "analyze.h"
#include "ioa_conf.h"

const struct an_analysis an_analyses[] = {
	{"checkpoints", 2, "write phases that recur: period, bytes per checkpoint and rank, files",
	 an_checkpoints},
	{"amr", 4, "adaptive mesh refinement: changing checkpoint sizes, uneven ranks", an_amr},
	{"clients", 1, "ranks grouped by I/O calls and bytes; the head rank; ranks without I/O",
	 an_clients},
	{"aggregation", 2, "ranks carrying the POSIX I/O of collective MPI-IO, per node, and hints",
	 an_aggregation},
	{"tempfiles", 2,
	 "temporary files, failed calls by operation and errno or MPI error class, and their "
	 "patterns",
	 an_tempfiles},
	{"header_updates", 2,
	 "small rewrites of bytes already written: common and per-rank offsets", an_header_updates},
	{"access", 1,
	 "sequential, consecutive or random; transfer sizes; alignment; small requests", an_access},
	{"insights", 5, "severity-ranked findings, each with a recommendation", an_insights},
};
const size_t an_nanalyses = sizeof(an_analyses) / sizeof(an_analyses[0]);

#define SETTINGS_TABLE(s)                                                                          \
	{                                                                                          \
		IOA_DB_SETTINGS(&(s)->db),                                                         \
			{"analyze.max_events", IOA_SET_COUNT, &(s)->max_events, "4000000",         \
			 "trace events read per job (past it, the trace counts as partial)"},      \
			{"analyze.phase_min_gap", IOA_SET_SECONDS, &(s)->phase_min_gap, "0.1",     \
			 "quiet that can always separate two write phases"},                       \
			{"analyze.phase_min_gap_share", IOA_SET_NUMBER, &(s)->phase_min_gap_share, \
			 "0.005",                                                                  \
			 "shorter quiet separates them too, down to this share of the run (and "   \
			 "1 ms)"},                                                                 \
			{"analyze.phase_gap_ratio", IOA_SET_NUMBER, &(s)->phase_gap_ratio, "5",    \
			 "how many times longer than the gaps inside a phase that quiet must be"}, \
			{"analyze.amr_size_change", IOA_SET_NUMBER, &(s)->amr_size_change, "0.1",  \
			 "checkpoint sizes that differ by this share or more are changing"},       \
			{"analyze.amr_rank_cv", IOA_SET_NUMBER, &(s)->amr_rank_cv, "0.25",         \
			 "per-rank bytes in a checkpoint with this coefficient of variation or "   \
			 "more are uneven"},                                                       \
			{"analyze.class_tolerance", IOA_SET_NUMBER, &(s)->class_tolerance, "0.1",  \
			 "ranks within this share of calls of each other share a client class"},   \
			{"analyze.header_max_bytes", IOA_SET_COUNT, &(s)->header_max_bytes,        \
			 "4096",                                                                   \
			 "a rewrite of bytes already written this small is an in-place update"},   \
			{"analyze.small_bytes", IOA_SET_COUNT, &(s)->small_bytes, "65536",         \
			 "requests smaller than this are small"},                                  \
			{"analyze.small_share", IOA_SET_NUMBER, &(s)->small_share, "0.1",          \
			 "share of small requests worth an insight"},                              \
			{"analyze.misaligned_share", IOA_SET_NUMBER, &(s)->misaligned_share,       \
			 "0.1", "share of misaligned requests worth an insight"},                  \
			{"analyze.random_share", IOA_SET_NUMBER, &(s)->random_share, "0.2",        \
			 "share of random accesses worth an insight"},                             \
			{"analyze.imbalance", IOA_SET_NUMBER, &(s)->imbalance, "0.15",             \
			 "(slowest - fastest) / slowest rank time on a shared file worth an "      \
			 "insight"},                                                               \
			{"analyze.metadata_share", IOA_SET_NUMBER, &(s)->metadata_share, "0.3",    \
			 "share of the I/O time in metadata calls worth an insight"},              \
			{"analyze.stdio_share", IOA_SET_NUMBER, &(s)->stdio_share, "0.1",          \
			 "share of the bytes through STDIO worth an insight"},                     \
			{"analyze.amplification", IOA_SET_NUMBER, &(s)->amplification, "1.5",      \
			 "bytes written below MPI-IO, as a multiple of those written through "     \
			 "it, worth an insight"},                                                  \
			{"analyze.fpp_min_files", IOA_SET_COUNT, &(s)->fpp_min_files, "64",        \
			 "files written by one rank each, at least one per rank, for a "           \
			 "file-per-process insight"},                                              \
			{"analyze.coll_metadata_ranks", IOA_SET_COUNT, &(s)->coll_metadata_ranks,  \
			 "16",                                                                     \
			 "ranks opening one HDF5 file, without collective metadata, for an "       \
			 "insight"},                                                               \
			{"analyze.redundant_read_factor", IOA_SET_NUMBER,                          \
			 &(s)->redundant_read_factor, "2",                                         \
			 "a file read this many times over is read redundantly"},                  \
			{"analyze.min_io_seconds", IOA_SET_SECONDS, &(s)->min_io_seconds, "1",     \
			 "jobs with less I/O time than this get insights at a quarter weight"},    \
	}

int an_settings_load(struct an_settings *s, struct ioa_buf *err)
{
	const struct ioa_setting table[] = SETTINGS_TABLE(s);
	int rc = ioa_conf_load(table, sizeof(table) / sizeof(table[0]), err);

	if (!rc && s->phase_gap_ratio < 1) {
		ioa_buf_addstr(err, "analyze.phase_gap_ratio must be 1 or more");
		rc = -EINVAL;
	} else if (!rc && s->amplification <= 1) {
		ioa_buf_addstr(err, "analyze.amplification must be more than 1");
		rc = -EINVAL;
	}
	return rc;
}

void an_settings_free(struct an_settings *s)
{
	const struct ioa_setting table[] = SETTINGS_TABLE(s);

	ioa_conf_free(table, sizeof(table) / sizeof(table[0]));
}
