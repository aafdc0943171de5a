/*
 * rt_log — turns this process's records into log regions (ioa_logw) and
 * names the log file.  Called at shutdown only, with recording off.
 */
#ifndef RT_LOG_H
#define RT_LOG_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ioa_logw.h"

/*
 * Packs this rank's module records, names and failures into w.  Records
 * whose IOA_REC_SHARED flag is set are written with rank -1.
 */
int rt_log_pack_records(struct ioa_log_writer *w);

/*
 * The seconds per tick the records' float counters were turned into
 * seconds with (rt_records_to_seconds()): the log stores those counters as
 * whole ticks.  0 (not said): as their 8 bytes.
 */
extern double rt_log_tick_s;

struct rt_record;

/* Fills a record's derived counters (the most common sizes and strides). */
void rt_log_finish_record(struct rt_record *rec);

/*
 * The MPI ranks whose records a log holds, as text ("0-2,5"), written in
 * the job region when set (MPI shutdown); NULL: not said.
 */
extern const char *rt_log_ranks;

/*
 * The process tree a log belongs to (job key "tree") and, for a tree's log,
 * one line per process, "<rank> <pid> <start_ns> <end_ns> <exe>" (job key
 * "procs"); NULL: not said.  rt_shutdown sets them.
 */
extern const char *rt_log_tree;
extern const char *rt_log_procs;

/*
 * The job step's identity, safe for a file name: the batch system's job
 * id, then what tells apart the steps and array tasks that share it
 * (Slurm's step and array task, LSF's array index), "<job>[.<step>][.a<task>]".
 */
void rt_log_job_token(char *out, size_t len);

/*
 * What a recovered log says in place of asking this process (ioatlas
 * recover packs another process's job region): its arguments (NULL: read
 * /proc/self/cmdline), its end (0: now), and the job key "partial"
 * (NULL: not a recovered log).
 */
extern const char *rt_log_args;
extern size_t rt_log_args_len;
extern uint64_t rt_log_end_ns;
extern const char *rt_log_partial;

/*
 * The job's clock (rt_clock.h): the job's start and this process's start
 * on it, ns since the epoch (0: this process's own start, as its wall
 * clock says), and the job key "clock" (NULL: not said).  rt_mpilog,
 * rt_shutdown and ioatlas recover set them once the times are moved.
 */
extern uint64_t rt_log_job_start_ns;
extern uint64_t rt_log_rank_start_ns;
extern const char *rt_log_clock;

/*
 * Moves this process's record timestamps and trace (in seconds,
 * rt_log_tick_s set) from its start to the job's: by rank_start_ns -
 * job_start_ns (rank_start_ns >= job_start_ns, this process's start on the
 * job's clock), and sets rt_log_job_start_ns and rt_log_rank_start_ns.
 */
void rt_log_on_job_clock(uint64_t job_start_ns, uint64_t rank_start_ns);

/*
 * A process tree's processes and a recovered job's ranks have no one to
 * measure their clocks against: each process's wall clock at its start
 * puts it on the job's clock (base=wall): rt_log_on_job_clock() from its
 * wall clock's start, and rt_log_clock.
 */
void rt_log_on_wall_clock(uint64_t job_start_ns);

/*
 * The job's user in a log recovered by another account (the collector's):
 * the uid that owns the spills, never what they say; (uid_t)-1: this
 * process's own.
 */
extern uid_t rt_log_uid;

/*
 * The job's environment as the log reads it (the batch system's
 * variables): NULL, this process's; else rt_log_env_len bytes of
 * NUL-terminated "K=V" (a spill's, NUL-terminated at its end).
 */
extern const char *rt_log_env;
extern size_t rt_log_env_len;
const char *rt_log_getenv(const char *name);

/* The host's name up to its first dot, safe for a file name. */
void rt_log_host(char *out, size_t len);

/*
 * The log tree's day folder (LOGDIR/YYYY/MM/DD, UTC) of the instant
 * start_real_ns in out, made as setup-logdir makes it when missing.  0 or
 * a negative errno.
 */
int rt_log_day_dir(char *out, size_t out_len, uint64_t start_real_ns);

/* Writes the header and w's regions to fd.  0 or a negative errno. */
int rt_log_write_fd(struct ioa_log_writer *w, int fd);

/* Packs the job region (end time now) and the mount table into w. */
int rt_log_pack_job(struct ioa_log_writer *w, const char *hostnames, size_t hostnames_len,
		    const uint32_t *rank_nodes, uint32_t nnodes);

/*
 * Makes the log's final path in out, creating the date folders when
 * missing:
 *	LOGDIR/YYYY/MM/DD/<user>_<exe>_<job>_<start>-<host>-<pid>[-<n>].ioa
 * <job> is the batch job id with the step and array task where the
 * scheduler gives them (Slurm 1234.0.a7, LSF 88.a2), <host> the short host
 * name, <n> (from 2) the first number for which neither the log nor its
 * .part exists yet.  0 or a negative errno (-EEXIST: 64 names taken).
 */
int rt_log_path(char *out, size_t out_len);

/*
 * The name rt_log_path() tries first, taken or not: a recovered log's,
 * which tells a second recovery of the same spills that the first made it.
 */
int rt_log_first_path(char *out, size_t out_len);

/*
 * Names the complete file part path (of rt_log_path()) without ever
 * replacing a file: when path is taken meanwhile, the next free name
 * (<stem>-<n>.ioa), written back into path (path_len bytes).  0 or a
 * negative errno; part is left in place on failure.
 */
int rt_log_publish(const char *part, char *path, size_t path_len);

/*
 * Writes a complete log of w's regions (mode 0440, the site's log group)
 * to a part made with O_EXCL and names it with rt_log_publish(): processes
 * that compute the same name each keep a log.  0 or a negative errno.
 */
int rt_log_write(struct ioa_log_writer *w);

/*
 * Appends the regions of the log part at path (a tree's child, a recovered
 * rank) to w, all or none, but its job region, whose entries go to
 * job_entry (NULL: none), and its mount table.  Regions are taken as
 * stored, checksum checked, never inflated and compressed again.  A part
 * larger than RT_LOG_PART_CAP is refused.  0 or a negative errno.
 */
#define RT_LOG_PART_CAP ((size_t)1 << 30)
int rt_log_take_part(struct ioa_log_writer *w, const char *path,
		     int (*job_entry)(uint16_t key, const unsigned char *value, uint32_t len,
				      void *arg),
		     void *arg);

/* Header flags for what was lost (folded records). */
uint32_t rt_log_flags(void);

#endif
