/*
 * rt_spill — what a process has recorded outlives it: the arena, with the
 * runtime's whole recording state in it, is a shared mapping of a file in
 * a private per-job folder of the log tree while the process runs, so that
 * a job killed by SIGKILL, the OOM killer or its walltime leaves a record
 * that `ioatlas recover` turns into a log marked partial (docs/recovery.md).
 *
 * The state every log region is packed from lives in one struct, rt_live,
 * the arena's first allocation; module code reaches it through the
 * pointer rt_live (records, failures, folded files, the MPI library's
 * counts, the trace's state).  Nothing in it points outside the arena but
 * call names, which are string literals used as keys only: what is
 * written of a name is a copy in the arena (a failure's, a trace
 * signature's).  So the arena, mapped at its address in another process
 * built from the same sources (RT_SPILL_LAYOUT says which), is the state.
 *
 * Keeping it current costs nothing per call: the mapping is the arena
 * (the kernel's page cache keeps every store).  Starting it costs one
 * folder, one file of the budget's size (fallocate'd, so that a full disk
 * never turns into SIGBUS later: without the blocks there is no spill)
 * and a copy of what the arena held, at MPI_Init or when a process tree
 * starts recording.  A clean end removes the file.
 *
 * SIGTERM (walltime, scancel) is marked in the header by a handler that
 * only stores and then does what the program asked for: its own handler,
 * ignoring, or the default (re-raised).  The program sees and sets only
 * its own disposition (the sigaction and signal wrappers).
 */
#ifndef RT_SPILL_H
#define RT_SPILL_H

#include <signal.h>
#include <stdint.h>

#include "rt_core.h"
#include "rt_records.h"

#define RT_SPILL_MAGIC "IOALIVE1"

/* How the process ended, as far as it could say (rt_live.end). */
enum rt_spill_end {
	RT_END_RUNNING = 0, /* nothing said: killed without a word, if gone */
	RT_END_SIGNAL = 1,  /* a signal the runtime saw (end_signal) */
	RT_END_EXIT = 2,    /* exit() after MPI_Init, without MPI_Finalize */
	RT_END_ABORT = 3,   /* MPI_Abort (end_code) */
	RT_END_CLEAN = 4,   /* the log was written: nothing to recover */
	RT_END_HANDED = 5,  /* MPI_Finalize: its records went to the rank writing the log */
};

#define RT_SPILL_ENV_MAX  4096
#define RT_SPILL_ARGS_MAX 8192

/* What the process was, for its job region: made when the spill starts. */
struct rt_spill_info {
	char version[32];
	char host[64];
	char env[RT_SPILL_ENV_MAX]; /* the batch system's variables, "K=V\0" */
	uint32_t env_len, args_len;
	char args[RT_SPILL_ARGS_MAX]; /* /proc/self/cmdline, NUL-separated */
	struct rt_state state;	      /* rt as of the start and MPI_Init */
};

struct rt_live {
	/* The header: what recover checks before it trusts the rest. */
	char magic[8];
	uint32_t layout; /* RT_SPILL_LAYOUT of the build that wrote it */
	uint32_t uid;
	uint64_t base, size; /* the arena's address and size */
	volatile int32_t end;
	int32_t end_signal, end_code;
	uint64_t end_ticks;
	/* Two readings of the clocks, for ticks into wall-clock time. */
	uint64_t cal_ticks, cal_mono_ns;
	struct rt_spill_info *info; /* NULL until the spill starts */
	size_t trace_bytes;	    /* what the trace's state takes of the arena */

	/* The recording state. */
	struct rt_module_records modules[IOA_MOD_COUNT];
	struct rt_folded folded;
	struct rt_mpi_library mpi_library;
	uint64_t posix_untracked_fds, stdio_untracked_streams;
	uint64_t failures_dropped;
	size_t failure_count;
	struct rt_failure *failures;
	struct rt_record **buckets;
	size_t bucket_mask;
	struct rt_extent *extents_free[RT_EXTENT_SIZES];
	size_t extents_bytes;
	double bin_width, bin_per_tick; /* ticks per time bin, and its inverse */
	double seconds_per_tick;	/* set once the records' times are seconds */
	void *trace;			/* rt_trace's state */
	void *posix_fds, *posix_queue;	/* rt_posix's descriptor table and queued calls */
};

extern struct rt_live *rt_live;

/*
 * The order of the fields of what is spilled (rt_live, the records, the
 * trace's state), which sizes alone do not tell: one more whenever a
 * change moves fields without resizing their structure.
 */
#define RT_SPILL_REVISION 2

/* Identifies the layout of rt_live and what it points to, per build. */
uint32_t rt_spill_layout(void);

/*
 * Allocates rt_live as the arena's first object and fills its header
 * (start-up, and a forked child's fresh arena).  0 or -ENOMEM.
 */
int rt_live_init(void);

/*
 * Moves the arena into a spill file of the job's folder
 * (LOGDIR/YYYY/MM/DD/.live-<job>/<rank>.<host>.<pid>) and catches SIGTERM.
 * At MPI_Init, once the rank is known, or when a process tree starts
 * recording; under RT_IN_RUNTIME.  Failing leaves the arena as it was.
 */
void rt_spill_start(void);

/* Copies rt into the header again (its rank, size and MPI note changed). */
void rt_spill_note_state(void);

/*
 * Says how the process ends (RT_END_*).  RT_END_CLEAN also removes the
 * file, and in an MPI job every spill of its folder (its ranks handed
 * their records to this one, which wrote the log).
 */
void rt_spill_end(enum rt_spill_end how, int code);

/* Takes a clock reading for the wall-clock conversion (cheap; under the lock). */
void rt_spill_calibrate(void);

/*
 * The program's view of SIGTERM: rt_sigaction's answer and change when the
 * runtime holds the signal (1), else 0 and the caller makes the real call.
 */
int rt_spill_sigaction(int sig, const struct sigaction *act, struct sigaction *old);

#endif
