/*
 * ioa_source — where an imported log came from: the value of job key
 * IOA_JOB_SOURCE (common/ioa_logfmt.h, docs/darshan.md), parsed into
 * fields, and the words that tell a reader what such a job's report cannot
 * show (`ioatlas parse`, the collector's jobs.source column, the reports).
 *
 * The value is untrusted text of "name=value" lines.  The fields kept are
 * tool, format, library, compression, incomplete, left_out, skipped and
 * lustre_trimmed,
 * each in display form (ioa_buf_add_escaped(): one line of valid UTF-8),
 * cut to IOA_SOURCE_VALUE_MAX bytes; of a name given twice the first is
 * kept; other names (metadata= lines) are skipped.  A malformed value
 * never makes a log unreadable.
 */
#ifndef IOA_SOURCE_H
#define IOA_SOURCE_H

#include <stdint.h>

#include "ioa_buf.h"

#define IOA_SOURCE_VALUE_MAX 256

/* The fields, in the order ioa_source_format() writes them. */
#define IOA_SOURCE_FIELDS(X) \
	X(tool)              \
	X(format)            \
	X(library)           \
	X(compression)       \
	X(incomplete)        \
	X(left_out)          \
	X(skipped)           \
	X(lustre_trimmed)

struct ioa_source {
#define IOA_SOURCE_FIELD(name) char *name;
	IOA_SOURCE_FIELDS(IOA_SOURCE_FIELD)
#undef IOA_SOURCE_FIELD
};

#define IOA_SOURCE_INIT \
	{               \
		0       \
	}

/* Parses value (len bytes) into s (released first).  0 or -ENOMEM. */
int ioa_source_parse(struct ioa_source *s, const void *value, size_t len);

/* The kept fields as "name=value\n" lines again (what the warehouse stores).  0, -ENOBUFS, -ENOMEM.
 */
int ioa_source_format(const struct ioa_source *s, struct ioa_buf *out);

/*
 * One sentence for a report: where the log came from, and what such a job
 * lacks ("Imported from a Darshan log (format 3.41, Darshan 3.5.0): no time
 * bins, operation trace or ioatlas counters ...").  0, -ENOBUFS, -ENOMEM.
 */
int ioa_source_describe(const struct ioa_source *s, struct ioa_buf *out);

void ioa_source_release(struct ioa_source *s);

#endif
