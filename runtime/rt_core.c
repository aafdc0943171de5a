/*
 * rt_core — start-up and process-wide state of the runtime (see rt_core.h).
 * The constructor reads the settings, maps the arena and builds the record
 * tables; only when all of that worked does recording start.  A failure at
 * any point leaves the runtime off and the program untouched.
 */
#define _GNU_SOURCE
#include "rt_core.h"
#include "rt_spill.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<sys/single_threaded.h>) /* glibc 2.32 and later */
#include <sys/single_threaded.h>
#define RT_SINGLE_THREADED 1
#endif
#endif

#include "rt_libs.h"
#include "rt_mpiio.h"
#include "rt_posix.h"
#include "rt_records.h"
#include "rt_stdio.h"
#include "rt_trace.h"

struct rt_state rt __attribute__((aligned(4096))) = {.nprocs = 1};
_Thread_local struct rt_thread rt_thread_tls __attribute__((tls_model("initial-exec")));
struct rt_handles *rt_hdf5_handles, *rt_pnetcdf_handles;

void rt_mpi_library_call(unsigned layer, const char *op, int failed, int err)
{
	rt_live->mpi_library.calls++;
	/* A formatted read at the end of its input returns EOF and sets no errno. */
	if (!failed || !err)
		return;
	rt_live->mpi_library.failed++;
	rt_record_failure(NULL, layer == RT_IN_POSIX ? IOA_MOD_POSIX : IOA_MOD_STDIO, op, err);
}

/* The slow path of rt_lock(): another thread holds the lock. */
void rt_lock_wait(void)
{
	unsigned spins = 0;

	do {
		while (__atomic_load_n(&rt.lock_word, __ATOMIC_RELAXED)) {
			if (++spins < 128) {
#if defined(__x86_64__) || defined(__i386__)
				__builtin_ia32_pause();
#endif
			} else {
				sched_yield();
			}
		}
	} while (__atomic_exchange_n(&rt.lock_word, 1, __ATOMIC_ACQUIRE));
}

int rt_process_running(pid_t pid)
{
	char path[64], line[512], *paren;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return !(kill(pid, 0) && errno == ESRCH);
	n = read(fd, line, sizeof(line) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	line[n] = '\0';
	paren = strrchr(line, ')');
	return paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
}

int rt_begin_after_vfork(unsigned layer)
{
	if ((rt_self()->inside & (layer | RT_IN_RUNTIME | RT_IN_LOCK)) || getpid() != rt.pid)
		return 0;
	/* The parent, its child gone (exec'd or exited): record again. */
	rt_self()->inside = (rt_self()->inside & ~RT_IN_VFORK) | layer;
	return 1;
}

void rt_disable(const char *why)
{
	rt.enabled = 0;
	if (!rt.disabled_reason)
		rt.disabled_reason = why;
	if (rt.config.debug)
		fprintf(stderr, "ioatlas: runtime switched off: %s\n", why);
}

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double rt_seconds_per_tick(void)
{
	uint64_t ticks = rt_ticks() - rt.start_ticks;
	uint64_t ns = clock_ns(CLOCK_MONOTONIC) - rt.start_mono_ns;

	return ticks ? (double)ns * 1e-9 / (double)ticks : 1e-9;
}

/* The arena and the tables in it, at start-up or afresh in a forked child. */
static const char *start_tables(void)
{
	if (rt_arena_init(&rt.arena, (size_t)rt.config.memory_bytes))
		return "cannot map the memory budget";
	if (rt_live_init())
		return "memory budget too small for the record tables";
	if (rt_trace_init(rt.config.trace_bytes < rt.config.memory_bytes / 2
				  ? rt.config.trace_bytes
				  : rt.config.memory_bytes / 2) ||
	    rt_records_init() || rt_posix_init() || rt_stdio_init() || rt_mpiio_init())
		return "memory budget too small for the record tables";
	return NULL;
}

/*
 * A forked child of a non-MPI process tree (rt.tree set) records as a
 * process of its own: every record, table and the trace are forgotten and
 * made again in a new arena, and the clock restarts.  The parent's arena
 * stays mapped (copy-on-write, shared until written): the MPI-IO handle
 * table (rt_mpiio.c) may still point into it; the HDF5 one is forgotten.  Only system calls and
 * memory writes: fork handlers run where only async-signal-safe calls
 * may be made.  0, or -1 when the child cannot record.
 */
static int restart_in_child(void)
{
	const char *why;

	if (!rt.tree[0] || !rt.started || rt.mpi_initialized)
		return -1;
	rt.start_ticks = rt_ticks();
	rt.start_mono_ns = clock_ns(CLOCK_MONOTONIC);
	rt.start_real_ns = clock_ns(CLOCK_REALTIME);
	rt.pid = getpid();
	rt.tree_root = false;
	rt.rank = 0;
	rt.nprocs = 1;
	/*
	 * Nothing of the parent's arena is written: it may be the parent's
	 * spill, a shared mapping (the fresh arena's rt_live starts at zero).
	 */
	rt_live = NULL;
	rt_posix_forget();
	rt_stdio_forget();
	rt_self()->mpiio_current = NULL;
	rt_self()->trace_parent = 0;
	rt_self()->above = (struct rt_above){NULL, NULL, NULL};
	rt_hdf5_handles = rt_pnetcdf_handles = NULL;
	why = start_tables();
	if (why) {
		rt.disabled_reason = why;
		return -1;
	}
	return 0;
}

/* Around fork: the child must not inherit a lock held by another thread. */
static void before_fork(void)
{
	rt_lock();
}

static void after_fork_parent(void)
{
	rt_unlock();
}

/*
 * The child of a fork starts with a copy of the parent's records; counting
 * on in it would report the parent's I/O twice, so the child runs untraced,
 * unless it is a process of a non-MPI tree: then it starts afresh.
 */
static void after_fork_child(void)
{
	int saved_errno = errno;

	rt.lock_word = 0;
	rt_self()->inside &= ~RT_IN_LOCK;
	if (rt.enabled && !restart_in_child()) {
		/* fork() returns 0 in the child with the errno it had. */
		errno = saved_errno;
		return;
	}
	errno = saved_errno;
	rt.enabled = 0;
	rt.disabled_reason = "forked child";
	rt.log_written = true;
}

void rt_self_start(void)
{
#ifdef RT_SINGLE_THREADED
	rt.alone = &__libc_single_threaded;
#endif
#ifdef RT_SELF_FS
	uintptr_t tp; /* the thread pointer: the TCB's first word holds it */

	__asm__("mov %%fs:0, %0" : "=r"(tp));

	rt.self_at = (intptr_t)((uintptr_t)&rt_thread_tls - tp);
	rt.errno_at = (intptr_t)((uintptr_t)&errno - tp);
#endif
}

void rt_init(void)
{
	static int initialised;
	int saved_errno = errno;
	ssize_t n;

	if (initialised)
		return;
	initialised = 1;
	rt_self_start();
	rt.start_ticks = rt_ticks();
	rt.start_mono_ns = clock_ns(CLOCK_MONOTONIC);
	rt.start_real_ns = clock_ns(CLOCK_REALTIME);
	rt.pid = getpid();
	rt_self()->inside |= RT_IN_RUNTIME;
	rt_config_load(&rt.config);
	n = readlink("/proc/self/exe", rt.exe, sizeof(rt.exe) - 1);
	rt.exe[n > 0 ? n : 0] = '\0';

	if (rt.config.disable)
		rt.disabled_reason = "disabled by settings";
	else if (rt_config_exe_listed(&rt.config.exclude_exes, rt.exe))
		rt.disabled_reason = "executable excluded by settings";
	else if ((rt.disabled_reason = rt_other_profiler()))
		;
	else if ((rt.disabled_reason = start_tables()))
		;
	else if (pthread_atfork(before_fork, after_fork_parent, after_fork_child))
		rt.disabled_reason = "cannot register fork handlers";
	else
		rt.started = true;
	if (rt.started) {
		rt_tree_join();
		rt.enabled = 1;
		/* A process of a tree owes a log from its start; an MPI rank from MPI_Init. */
		if (rt.tree[0])
			rt_spill_start();
	} else {
		/* What a failed start-up mapped is given back. */
		rt_arena_release(&rt.arena);
		if (rt.config.debug)
			fprintf(stderr, "ioatlas: runtime off: %s\n", rt.disabled_reason);
	}
	rt_self()->inside &= ~RT_IN_RUNTIME;
	/* The program starts with the errno it would have had without us. */
	errno = saved_errno;
}

#ifndef RT_RECOVER
__attribute__((constructor)) static void rt_constructor(void)
{
	rt_init();
}

__attribute__((destructor)) static void rt_destructor(void)
{
	rt_shutdown_at_exit();
}
#endif
