/*
 * rt_core — the runtime's process-wide state: whether it is on, its lock,
 * its settings and memory, the clock, and the per-thread reentrancy guard.
 *
 * Every wrapper starts with rt_begin(layer): it fails (and the wrapper just
 * calls through) when the runtime is off, when this thread is already inside
 * a wrapper of the same layer, or inside the runtime's own work.  Calls the
 * runtime makes itself are thus never counted, while POSIX calls that an
 * MPI-IO call makes underneath are counted and tied to it (multi-layer
 * attribution).  Record
 * updates happen under rt_lock().  When anything inside fails, rt_disable()
 * turns recording off for the rest of the process; the application carries
 * on untouched.
 */
#ifndef RT_CORE_H
#define RT_CORE_H

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "rt_arena.h"
#include "rt_calls.h"
#include "rt_config.h"

struct rt_state {
	/* What every call reads first, on one page: the settings come last. */
	volatile int enabled; /* recording; cleared for good by rt_disable() */
	uint64_t start_ticks; /* rt_ticks() at start-up */
	/* Where rt_self() and rt_errno() are from the thread pointer (rt_self_start()). */
	intptr_t self_at, errno_at;
	/* Calls waiting to be applied (rt_posix.c's queue), NULL before its tables. */
	uint32_t *queued;
	/*
	 * rt_lock()'s word.  (Not aligned to a cache line of its own: rt is
	 * copied into the spill's header, which holds nothing so aligned.)
	 */
	int lock_word;
	/*
	 * Non-zero while the process has a single thread (glibc's
	 * __libc_single_threaded, reached from here rather than through the
	 * library's GOT; set by rt_self_start(), NULL before it and without
	 * it): then no other
	 * thread can take the lock, and rt_lock_only() need not write it.
	 */
	const volatile char *alone;
	/*
	 * The POSIX layer's real functions (rt_wrappers.c, found at their
	 * first call), on the page of what every call reads: rt is aligned to
	 * a page, and the settings come last.
	 */
	void (*posix_real[RT_POSIX_NOPS])(void);
	struct rt_arena arena;
	uint64_t start_mono_ns; /* CLOCK_MONOTONIC at start-up */
	uint64_t start_real_ns; /* CLOCK_REALTIME at start-up */
	pid_t pid;		/* the process's, to tell a vfork child (rt_begin_own()) */
	int rank;		/* MPI rank, 0 without MPI */
	int nprocs;		/* MPI size, 1 without MPI */
	bool mpi_initialized;	/* MPI_Init seen: the log is written at MPI_Finalize */
	bool started;		/* recording began: the process owes a log */
	bool log_written;
	const char *disabled_reason;
	char exe[PATH_MAX];
	/*
	 * The process tree (rt_shutdown.c): its id, from IOATLAS_TREE or made
	 * here by its root; empty when the process owes no non-MPI log.
	 */
	char tree[128];
	uint64_t tree_start_ns; /* the root's start, which names the staging folder's day */
	bool tree_root;		/* this process made the id and merges the tree's log */
	/*
	 * What binding MPI found (rt_mpi_bind.c), for the log's "mpi" key: ""
	 * before any MPI call, else "<family>: <version>", "off: <why>" or
	 * "unsupported: <version>"; an MPI the runtime does not know leaves
	 * the process a log of its own (mpi_unsupported).
	 */
	char mpi_note[256];
	bool mpi_unsupported;
	struct rt_config config;
};

extern struct rt_state rt;
_Static_assert(offsetof(struct rt_state, arena) <= 4096,
	       "rt's first page holds what every call reads");
/* Layers a thread can be inside of (bits of rt_self()->inside). */
#define RT_IN_POSIX   0x1u
#define RT_IN_STDIO   0x2u
#define RT_IN_MPIIO   0x4u
#define RT_IN_MPI     0x8u  /* MPI_Init, MPI_Finalize, communication: the MPI library's I/O */
#define RT_IN_RUNTIME 0x10u /* the runtime's own work: start-up, shutdown */
#define RT_IN_LOCK    0x20u /* holding the record lock: a signal handler's I/O passes */
#define RT_IN_VFORK   0x40u /* called vfork(): in its child until getpid() says otherwise */
#define RT_IN_HDF5    0x80u
#define RT_IN_PNETCDF 0x100u

/*
 * The layer above MPI-IO this thread is inside (an HDF5 call, rt_hdf5.c, or
 * a PnetCDF call, rt_pnetcdf.c), as the calls it issues underneath see it:
 * the counters of its record that count them (MPI-IO and POSIX sub-calls)
 * and the file's "went through MPI-IO" flag (NULL for PnetCDF, which always
 * does); NULLs outside.  Updated by those calls under the lock.
 */
struct rt_above {
	int64_t *mpiio_subcalls, *posix_subcalls, *use_mpiio;
};

struct rt_record;

/* What the runtime keeps per thread (rt_self()). */
struct rt_thread {
	unsigned inside; /* the layers it is inside: RT_IN_* bits */
	/*
	 * IOA_TR_UNDER while it is inside a layer's call that is traced
	 * (HDF5), or inside H5Pset_fapl_mpio (whose copy of the communicator
	 * the files the list opens are then opened on): the calls it makes
	 * underneath are marked so, for kernels at either level to tell them
	 * from the program's own.  Needs no lock.
	 */
	unsigned trace_under;
	/*
	 * The MPI-IO call it is inside, 1-based (0: none): POSIX calls traced
	 * while it is set are tied to it (IOA_TR_SUB).  Set by the MPI-IO
	 * wrappers from rt_trace_next_id(), which needs no lock.
	 */
	uint64_t trace_parent;
	struct rt_record *mpiio_current; /* the record of that MPI-IO call, or NULL */
	struct rt_above above;
};
extern _Thread_local struct rt_thread rt_thread_tls __attribute__((tls_model("initial-exec")));

/*
 * This thread's struct rt_thread, and its errno.  A shared library finds a
 * thread-local variable through an entry of its global offset table, and
 * libc's errno through a call (__errno_location()) that reads libc's: two
 * pages more for every call to touch, each a page walk where the kernel
 * flushes the TLB at every system call (page-table isolation without
 * PCID).  On x86-64 both are at a fixed distance from the thread pointer
 * in every thread (the initial-exec model's static TLS): rt_self_start()
 * keeps the distances in rt's first line, which every call reads anyway,
 * and the accesses go through %fs.  rt_self_start() also points rt.alone
 * at this process's libc.  Only reached once rt_self_start() has
 * run: at start-up, before rt.enabled is set, and in `ioatlas recover`
 * (the wrappers of MPI_Init and H5Pset_fapl_mpio, which a library's
 * constructor may call before the runtime's, start the runtime first).
 */
void rt_self_start(void);

/* (Not under AddressSanitizer, which GCC 12 has check %fs accesses as ordinary ones.) */
#if defined(__x86_64__) && defined(__SEG_FS) && !defined(__SANITIZE_ADDRESS__)
#define RT_SELF_FS 1
#endif

#ifdef RT_SELF_FS
static inline struct rt_thread __seg_fs *rt_self(void)
{
	return (struct rt_thread __seg_fs *)(uintptr_t)rt.self_at;
}

static inline int __seg_fs *rt_errno(void)
{
	return (int __seg_fs *)(uintptr_t)rt.errno_at;
}
#else
static inline struct rt_thread *rt_self(void)
{
	return &rt_thread_tls;
}

static inline int *rt_errno(void)
{
	return &errno;
}
#endif

/*
 * The tables of open handles of the layers above MPI-IO (rt_handles.h),
 * rt_hdf5.c's and rt_pnetcdf.c's, from the arena at their first use (NULL
 * before): here so that a forked child, which starts a new arena, forgets
 * the parent's.
 */
struct rt_handles;
extern struct rt_handles *rt_hdf5_handles, *rt_pnetcdf_handles;

/*
 * The MPI library's own I/O.  A POSIX or STDIO call that a thread makes
 * while it is inside MPI_Init, MPI_Init_thread, MPI_Finalize or a
 * communication call (RT_IN_MPI) is the MPI library's (its shared-memory
 * segments, session folders, hardware probes), not the application's: the
 * wrapper makes it as usual and, instead of the records and the trace,
 * hands it to rt_mpi_library_call(), which counts it (and its failure, by
 * operation and errno, in the failure table marked as the library's).
 * Failed POSIX and STDIO calls made inside an MPI-IO call (RT_IN_MPIIO:
 * ROMIO's probes) are the library's too (rt_record_failure()); its
 * successful ones count on their files as the MPI-IO call's sub-calls.
 * Threads MPI starts are not marked: what they touch lies in places the
 * default exclude_paths name (rt_config.h).  Counts are per process, under
 * the lock; the log carries them in its MPI library region.
 */
struct rt_mpi_library {
	uint64_t calls;	       /* POSIX and STDIO calls made inside MPI (RT_IN_MPI) */
	uint64_t failed;       /* those of them that failed */
	uint64_t failed_mpiio; /* POSIX and STDIO calls that failed inside MPI-IO calls */
};

/*
 * Counts a call the MPI library made (layer RT_IN_POSIX or RT_IN_STDIO; op a
 * string literal; failed: its result was -1, EOF, NULL or MAP_FAILED; err
 * the errno it left, which a failure sets).  Under the lock.
 */
void rt_mpi_library_call(unsigned layer, const char *op, int failed, int err);

/*
 * What runs on every read, write and seek: the wrappers of those calls and
 * the queueing of their records (rt_posix.c; the records and the trace are
 * updated later, a queue at a time).  GCC gathers such functions in one
 * part of the text (.text.hot), so a call runs on a page or two of code
 * rather than on pages spread over the library: each page is one more TLB
 * miss per call where the kernel flushes the TLB at every system call
 * (page-table isolation without PCID).
 */
#define RT_HOT __attribute__((hot))

/* The slow path of rt_begin(): after a vfork(), the child or the parent? */
int rt_begin_after_vfork(unsigned layer);

static inline int rt_begin(unsigned layer)
{
	if (!rt.enabled || (rt_self()->inside & (layer | RT_IN_RUNTIME | RT_IN_LOCK | RT_IN_VFORK)))
		return rt.enabled && (rt_self()->inside & RT_IN_VFORK) ? rt_begin_after_vfork(layer)
								       : 0;
	rt_self()->inside |= layer;
	return 1;
}

static inline void rt_end(unsigned layer)
{
	rt_self()->inside &= ~layer;
}

/*
 * A vfork child runs in the parent's memory (its records are the parent's)
 * with a descriptor table of its own, on the thread-local state of the
 * thread that called vfork(): nothing it does is recorded.  The runtime's
 * vfork() (rt_wrappers.c) marks that thread RT_IN_VFORK before the real
 * vfork, so the child's calls pass straight through; the parent's next
 * call asks getpid() once and clears the mark (RT_WRAPS_VFORK: x86-64 and
 * AArch64).  Static links do not wrap vfork (that would be one more --wrap
 * flag in every link), nor do other architectures: there the calls that
 * change the descriptor or stream tables (open, close, dup, fopen, fclose
 * ...) compare getpid() with the process's pid (rt_begin_own()), a system
 * call each (about 1 us on the reference machine).
 */
#if !defined(RT_STATIC) && defined(__ELF__) && (defined(__x86_64__) || defined(__aarch64__))
#define RT_WRAPS_VFORK 1
#endif

static inline int rt_begin_own(unsigned layer)
{
#ifdef RT_WRAPS_VFORK
	return rt_begin(layer);
#else
	if (!rt_begin(layer))
		return 0;
	if (__builtin_expect(getpid() == rt.pid, 1))
		return 1;
	rt_end(layer);
	return 0;
#endif
}

/*
 * The runtime's clock: the CPU's constant-rate counter where there is one
 * (x86 TSC, Arm generic timer), read in a few nanoseconds; the monotonic
 * clock elsewhere.  Times are kept in ticks while the program runs and
 * turned into seconds once, at shutdown (rt_ticks_to_seconds()), from the
 * ticks and monotonic nanoseconds that elapsed over the whole run: nothing
 * is calibrated at start-up.
 */
static inline uint64_t rt_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __rdtsc();
#elif defined(__aarch64__)
	uint64_t v;

	__asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
	return v;
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/* Ticks since start-up, as a double for the records. */
static inline double rt_now(void)
{
	return (double)(int64_t)(rt_ticks() - rt.start_ticks);
}

/* Seconds per tick over the run so far (at shutdown). */
double rt_seconds_per_tick(void);

/*
 * The runtime's lock guards a few dozen instructions of record updates, so
 * it spins (politely) rather than sleeping; a holder preempted mid-update
 * makes waiters yield the CPU instead of burning it.  The thread is marked
 * inside the runtime first: a signal arriving while it holds the lock must
 * not wait for it.
 */
void rt_lock_wait(void);

/*
 * Applies the calls whose records wait in a queue (rt.queued; rt_posix.c:
 * reads, writes, seeks) to the records and the trace, in order.  Under the
 * lock.
 */
void rt_apply_queued(void);

/*
 * The lock alone, for the wrappers that queue their calls.  A process of
 * one thread skips the atomic exchange (6 ns of a call's cost here): a
 * second thread only starts from pthread_create(), which clears rt.alone
 * for good before that thread runs, and which nothing under the lock
 * calls (the runtime's own code and libc's; MPI and HDF5 are asked
 * outside it); a signal handler's calls pass (RT_IN_LOCK).
 */
static inline void rt_lock_only(void)
{
	rt_self()->inside |= RT_IN_LOCK;
	if (rt.alone && *rt.alone)
		return;
	if (__atomic_exchange_n(&rt.lock_word, 1, __ATOMIC_ACQUIRE))
		rt_lock_wait();
}

/* The lock, and every record current under it: the queued calls applied. */
static inline void rt_lock(void)
{
	rt_lock_only();
	if (rt.queued && *rt.queued)
		rt_apply_queued();
}

static inline void rt_unlock(void)
{
	__atomic_store_n(&rt.lock_word, 0, __ATOMIC_RELEASE);
	rt_self()->inside &= ~RT_IN_LOCK;
}

/* Stops recording for the rest of the process; why is a string literal. */
void rt_disable(const char *why);

/* Starts the runtime (idempotent; the library constructor calls it). */
void rt_init(void);

/*
 * Joins the process tree of IOATLAS_TREE, or, in an opted-in process
 * without it, makes a tree with this process as its root and exports the
 * variable for its children (at start-up, under RT_IN_RUNTIME).
 */
void rt_tree_join(void);

/* Writes the log if this process owes one (non-MPI programs, at exit). */
void rt_shutdown_at_exit(void);

/* Stops recording and waits for calls in flight to finish their updates. */
void rt_stop_recording(void);

/*
 * Whether process pid of this host runs: not gone, not a zombie (exited,
 * not yet reaped).  A pid reused since reads as running.
 */
int rt_process_running(pid_t pid);

/* Gives a new log the site's log group, when one is configured. */
void rt_give_log_group(const char *path);

#endif
