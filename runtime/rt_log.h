/*
 * rt_log — turns this process's records into log regions (ioa_logw) and
 * names the log file.  Called at shutdown only, with recording off.
 */
#ifndef RT_LOG_H
#define RT_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "ioa_logw.h"

/*
 * Packs this rank's module records, names and failures into w.  Records
 * whose IOA_REC_SHARED flag is set are written with rank -1.
 */
int rt_log_pack_records(struct ioa_log_writer *w);

struct rt_record;

/* Fills a record's derived counters (the most common sizes and strides). */
void rt_log_finish_record(struct rt_record *rec);

/*
 * The MPI ranks whose records a log holds, as text ("0-2,5"), written in
 * the job region when set (MPI shutdown); NULL: not said.
 */
extern const char *rt_log_ranks;

/* Packs the job region (end time now) and the mount table into w. */
int rt_log_pack_job(struct ioa_log_writer *w, const char *hostnames, size_t hostnames_len,
		    const uint32_t *rank_nodes, uint32_t nnodes);

/*
 * Makes the log's final path LOGDIR/YYYY/MM/DD/<user>_<exe>_<jobid>_<start>.ioa
 * in out, creating the date folders when missing.  0 or a negative errno.
 */
int rt_log_path(char *out, size_t out_len);

/*
 * Writes a complete log of w's regions under its final path (rt_log_path),
 * mode 0440, with the site's log group.  0 or a negative errno.
 */
int rt_log_write(struct ioa_log_writer *w);

/* Header flags for what was lost (folded records). */
uint32_t rt_log_flags(void);

#endif
