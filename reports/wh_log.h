/*
 * wh_log — a warehouse job as an ioatlas log, so that what takes a log
 * takes a job id too (`ioatlas export --darshan JOB_ID`): the job's
 * entries, its file names, mounts and module records, read back from the
 * tables the collector filled (docs/warehouse.md) through the caller's
 * connection, and so with the caller's rights on them.
 *
 * What the warehouse keeps is what the log holds: uid and user, scheduler
 * job id, start and end (to the microsecond), ranks, executable and
 * arguments, runtime version, where an imported job came from, and every
 * record with its counters; counters the warehouse has no column for (a
 * later build's) read -1, "not recorded".  Time bins, the trace, failures
 * and hints stay in the warehouse.
 */
#ifndef WH_LOG_H
#define WH_LOG_H

#include <libpq-fe.h>
#include <stdint.h>

#include "ioa_buf.h"

/*
 * Writes job id's log to out_fd (a memory file, say).  0; -ENOENT when no
 * such job is visible to the connection; other -errno with err set.
 */
int wh_job_log(PGconn *conn, int64_t id, int out_fd, struct ioa_buf *err);

#endif
