/*
 * hist_diff — what changed between two runs of a program (`ioatlas diff`,
 * docs/history.md): the jobs' I/O time per layer, and each difference that
 * may explain it — transfer sizes, access pattern, bytes moved, files and
 * their sizes, metadata, MPI-IO hints, file systems, ranks — ranked by its
 * share of the change in I/O time.
 *
 * The I/O time of a layer's reads (or writes) splits into two parts: the
 * time job B would have taken at job A's rate for B's bytes, less A's time
 * (the volume part: more or fewer bytes), and the rest (the rate part: the
 * same bytes, moved faster or slower).  The rate part goes to what changed
 * in how those bytes moved, in this order of evidence: the mean transfer
 * size (by a quarter or more), the share of sequential accesses (by 20
 * points or more), the MPI-IO hints (MPI-IO only), the file systems; with
 * none of them changed it stays unexplained (contention, the file system's
 * state).  Metadata time goes to the change in opens and files when there
 * is one.  Times are per rank, as in the job's history.
 */
#ifndef HIST_DIFF_H
#define HIST_DIFF_H

#include <json-c/json.h>

#include "analyze.h"

/*
 * The comparison of job a with job b, as JSON: {a, b (each: job, program,
 * ranks, seconds, io_seconds, layers {POSIX, STDIO, MPI-IO: read, write,
 * meta seconds, bytes, ops}), io_seconds_change, findings: [{what, layer,
 * a, b, impact_seconds, explains}] largest impact first, files: {only_a,
 * only_b, resized}}.  NULL when out of memory.
 */
json_object *hist_diff(const struct an_job *a, const struct an_job *b);

#endif
