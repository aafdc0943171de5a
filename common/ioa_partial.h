/*
 * ioa_partial — what a partial log says of its job's end: the value of job
 * key IOA_JOB_PARTIAL (common/ioa_logfmt.h), present only in a log
 * recovered from a job's leftovers, parsed into checked fields, and the
 * plain words that tell a reader what the log lacks (`ioatlas parse`, the
 * collector's `jobs.partial_*` columns, the reports).
 *
 * The value is untrusted text.  ioa_partial_parse() keeps a field only
 * when it is well formed and drops it otherwise (counted in `dropped`):
 * a how it does not know, a number that is not one or is out of range
 * (2^70, a signal 0 or above 127, a time outside 2000-2200), a rank list
 * that is not "N[-M][,...]" or is longer than IOA_PARTIAL_LIST_MAX; a
 * reason is kept in display form (ioa_buf_add_escaped(): one line of
 * valid UTF-8), cut to IOA_PARTIAL_REASON_MAX bytes.  Unknown names are
 * skipped (a newer runtime's), and of a name given twice the first is
 * kept.  A malformed value never makes the log unreadable.
 *
 * Nothing here is thread-unsafe; a struct is the caller's to guard.
 */
#ifndef IOA_PARTIAL_H
#define IOA_PARTIAL_H

#include <stddef.h>
#include <stdint.h>

#include "ioa_buf.h"

/* How the job's processes ended (how=...). */
enum ioa_partial_how {
	IOA_PARTIAL_HOW_UNKNOWN = 0, /* not said, or not a word we know */
	IOA_PARTIAL_SIGNAL,	     /* a signal the runtime saw (signal=) */
	IOA_PARTIAL_KILLED,	     /* killed without a word: SIGKILL, the OOM killer, a crash */
	IOA_PARTIAL_EXIT,	     /* exit() without MPI_Finalize */
	IOA_PARTIAL_ABORT,	     /* MPI_Abort (abort_code=) */
};

#define IOA_PARTIAL_REASON_MAX 256		 /* bytes of reason= kept */
#define IOA_PARTIAL_LIST_MAX   ((size_t)1 << 16) /* a longer rank list is dropped */
#define IOA_PARTIAL_SIGNAL_MAX 127

struct ioa_partial {
	enum ioa_partial_how how;
	int signal; /* 1 to IOA_PARTIAL_SIGNAL_MAX; 0: not known */
	int has_abort_code;
	int abort_code;
	char *reason;		 /* the scheduler's word (TIMEOUT ...), display form; or NULL */
	char *ranks, *missing;	 /* rank lists as "0-3,5", checked; or NULL */
	uint64_t until_first_ns; /* ns since the epoch; 0: not known */
	uint64_t until_last_ns;
	unsigned dropped; /* fields dropped as malformed */
};

#define IOA_PARTIAL_INIT \
	{                \
		0        \
	}

/* Frees the texts and leaves p as IOA_PARTIAL_INIT. */
void ioa_partial_release(struct ioa_partial *p);

/*
 * Parses the key's value (len bytes, any bytes) into p, which must be
 * released or fresh; what is malformed is dropped (see above).  0, or
 * -ENOMEM (p then holds what was parsed before).
 */
int ioa_partial_parse(struct ioa_partial *p, const void *value, size_t len);

/*
 * Sets one field from its text, as ioa_partial_parse() would from a
 * "name=value" line (a reader of the warehouse's columns uses it too):
 * 1 when kept, 0 when dropped or unknown, -ENOMEM.
 */
int ioa_partial_set(struct ioa_partial *p, const char *name, const void *value, size_t len);

/* "signal", "killed", "exit", "abort", or NULL (unknown). */
const char *ioa_partial_how_name(enum ioa_partial_how how);

/* Whether text (len bytes) is a rank list: "N" or "N-M" (N <= M < 2^31), comma-separated. */
int ioa_partial_list_ok(const char *text, size_t len);

/* The ranks a checked list names, saturated at UINT64_MAX. */
uint64_t ioa_partial_list_count(const char *list);

/* "SIGTERM" for 15, as this host numbers signals; NULL when it has no name for it. */
const char *ioa_signal_name(int signal);

enum ioa_partial_style {
	/*
	 * One line for `ioatlas parse`, plain ASCII apart from the reason:
	 * "killed by signal 15 (SIGTERM), scheduler says TIMEOUT; ranks 0-3
	 * recorded until 2026-11-28T10:00:01Z; ranks 4-7 left nothing"
	 */
	IOA_PARTIAL_LINE,
	/*
	 * A sentence for a report, with the run time and times after the
	 * start: "Partial log: the job was killed by signal 15 (SIGTERM) —
	 * the scheduler says TIMEOUT — after 3 h 59 m; ranks 0–127 recorded
	 * until 2026-11-28 10:00:01 UTC (3 h 58 m after the start); ranks
	 * 128–255 left nothing."  Long rank lists are cut, with their count.
	 */
	IOA_PARTIAL_SENTENCE,
};

/*
 * Appends p's description to out.  start_ns and end_ns are the job's
 * start and end (ns since the epoch; 0: not known), used by the sentence
 * only.  0, or ioa_buf's error (-ENOMEM, or -ENOBUFS at out's cap).
 */
int ioa_partial_describe(const struct ioa_partial *p, enum ioa_partial_style style,
			 uint64_t start_ns, uint64_t end_ns, struct ioa_buf *out);

#endif
