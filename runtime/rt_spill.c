/*
 * rt_spill — the arena in a file while the process runs (see rt_spill.h).
 *
 * The move: the file is made and given its blocks, mapped somewhere, the
 * arena copied into it under the lock, and the mapping moved onto the
 * arena's address with mremap(MREMAP_FIXED), which replaces the anonymous
 * pages in one step: no pointer changes, and a failure at any point before
 * leaves the anonymous arena in place.  The folder is the job's
 * (.live-<job>-<launch> in the day folder of the process's start), made
 * 0700 — 0750 when the day folder hands down the site's log group (the
 * collector's), as the logs themselves are readable by it — and checked to
 * be the user's own before anything is made in it.
 */
#define _GNU_SOURCE
#include "rt_spill.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "rt_log.h"
#include "rt_trace.h"

struct rt_live *rt_live;

/* The spill: its folder and file, for the clean end's removal. */
static char spill_dir[PATH_MAX], spill_file[PATH_MAX];
static pid_t spill_pid;	  /* the process whose spill it is (not a forked child) */
static mode_t spill_mode; /* the folder's: 0700, or 0750 for the log group */

/* SIGTERM: held by the runtime while term_held; the program's own disposition. */
static volatile sig_atomic_t term_held;

uint32_t rt_spill_layout(void)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;
	const uint64_t sizes[] = {
		sizeof(struct rt_live),
		sizeof(struct rt_record),
		sizeof(struct rt_failure),
		sizeof(struct rt_state),
		sizeof(struct rt_config),
		sizeof(struct rt_bin),
		sizeof(struct rt_values),
		IOA_MOD_COUNT,
		RT_BINS,
		RT_SPILL_REVISION,
	};
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		h = (h ^ sizes[i]) * 0x100000001b3ull;
	for (i = 0; i < IOA_MOD_COUNT; i++)
		h = (h ^ (uint64_t)ioa_modules[i].counter_count << 16 ^
		     ioa_modules[i].fcounter_count) *
		    0x100000001b3ull;
	for (i = 0; IOATLAS_VERSION[i]; i++)
		h = (h ^ (unsigned char)IOATLAS_VERSION[i]) * 0x100000001b3ull;
	return (uint32_t)(h ^ h >> 32);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int rt_live_init(void)
{
	rt_live = rt_arena_alloc(&rt.arena, sizeof(*rt_live));
	if (!rt_live)
		return -ENOMEM;
	memcpy(rt_live->magic, RT_SPILL_MAGIC, sizeof(rt_live->magic));
	rt_live->layout = rt_spill_layout();
	rt_live->base = (uint64_t)(uintptr_t)rt.arena.base;
	rt_live->size = rt.arena.size;
	return 0;
}

void rt_spill_calibrate(void)
{
	if (!rt_live)
		return;
	rt_live->cal_mono_ns = mono_ns();
	rt_live->cal_ticks = rt_ticks();
}

void rt_spill_note_state(void)
{
	if (rt_live && rt_live->info && spill_pid == getpid())
		rt_live->info->state = rt;
}

/* ------------------------------------------------------------ SIGTERM */

#ifndef RT_STATIC
/*
 * The next definition of a C library function (the runtime's own
 * interposes the program's), found once into *slot; NULL, with errno
 * ENOSYS, when there is none.
 */
static void *real_fn(const char *name, void **slot)
{
	if (!*slot)
		*slot = dlsym(RTLD_NEXT, name);
	if (!*slot)
		errno = ENOSYS;
	return *slot;
}
#endif

static int real_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	int (*real)(int, const struct sigaction *, struct sigaction *);
#ifdef RT_STATIC
	real = sigaction;
#else
	static void *slot;
	void *sym = real_fn("sigaction", &slot);

	if (!sym)
		return -1;
	memcpy(&real, &sym, sizeof(sym));
#endif
	return real(sig, act, old);
}

/*
 * The program's SIGTERM action, in two slots: a change writes the slot not
 * in use and then switches to it, so that the handler, on any thread,
 * reads a whole action, never one half written.
 */
static struct sigaction prog_slot[2];
static volatile sig_atomic_t prog_current;

static const struct sigaction *prog_term(void)
{
	return &prog_slot[__atomic_load_n(&prog_current, __ATOMIC_ACQUIRE)];
}

static void prog_term_set(const struct sigaction *act)
{
	int next = !prog_current;

	prog_slot[next] = *act;
	__atomic_store_n(&prog_current, next, __ATOMIC_RELEASE);
}

static void on_term(int sig, siginfo_t *info, void *context)
{
	int saved_errno = errno;
	struct sigaction prog = *prog_term();
	/* A vfork child shares this memory: it changes nothing of the parent's. */
	int own = getpid() == spill_pid;

	if (rt_live && own && rt_live->end == RT_END_RUNNING) {
		rt_live->end_ticks = rt_ticks();
		rt_live->end_signal = sig;
		rt_spill_calibrate();
		__atomic_store_n(&rt_live->end, RT_END_SIGNAL, __ATOMIC_RELEASE);
	}
	errno = saved_errno;
	if (prog.sa_handler == SIG_IGN)
		return;
	if (prog.sa_handler == SIG_DFL) {
		/* Blocked while this runs: it ends the process on return, as without us. */
		struct sigaction dfl = {.sa_handler = SIG_DFL};

		if (own)
			term_held = 0;
		real_sigaction(sig, &dfl, NULL);
		raise(sig);
		errno = saved_errno;
		return;
	}
	if (prog.sa_flags & SA_RESETHAND) {
		/* Once, as the kernel would have done for the program. */
		struct sigaction dfl = {.sa_handler = SIG_DFL};

		if (own) {
			prog_term_set(&dfl);
			term_held = 0;
		}
		real_sigaction(sig, &dfl, NULL);
	}
	if (prog.sa_flags & SA_SIGINFO)
		prog.sa_sigaction(sig, info, context);
	else
		prog.sa_handler(sig);
}

/* Our handler with the program's mask and flags (SA_RESTART, SA_NODEFER ...). */
static int hold_term(void)
{
	struct sigaction ours = *prog_term();

	ours.sa_sigaction = on_term;
	ours.sa_flags = (ours.sa_flags | SA_SIGINFO) & ~SA_RESETHAND;
	return real_sigaction(SIGTERM, &ours, NULL);
}

int rt_spill_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	sigset_t term, was;

	if (sig != SIGTERM || !term_held)
		return 0;
	/* An action with a bad handler is refused by the real call, as without us. */
	if (act && act->sa_handler == SIG_ERR)
		return 0;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &term, &was);
	if (old)
		*old = *prog_term();
	if (act) {
		prog_term_set(act);
		/* Ignored is inherited across exec, a handler is not: the real thing. */
		if (act->sa_handler == SIG_IGN) {
			term_held = 0;
			real_sigaction(SIGTERM, act, NULL);
		} else {
			hold_term();
		}
	}
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	return 1;
}

/*
 * The program's calls that set signal actions, in the shared library (a
 * static link does not wrap them: there a program's own SIGTERM action
 * replaces the runtime's).  Only SIGTERM, and only while the runtime holds
 * it, is answered here; every other call is the C library's own.
 */
#if !defined(RT_RECOVER) && !defined(RT_STATIC)
__attribute__((visibility("default"))) int sigaction(int sig, const struct sigaction *act,
						     struct sigaction *old)
{
	if (rt_spill_sigaction(sig, act, old))
		return 0;
	return real_sigaction(sig, act, old);
}

/*
 * signal() and bsd_signal() (name): on SIGTERM while held, glibc's BSD
 * semantics through the program's view; otherwise the C library's own.
 */
static sighandler_t signal_call(const char *name, void **slot, int sig, sighandler_t handler)
{
	struct sigaction act = {.sa_handler = handler, .sa_flags = SA_RESTART}, old;
	sighandler_t (*real)(int, sighandler_t);
	void *sym;

	if (sig == SIGTERM && term_held && handler != SIG_ERR) {
		sigemptyset(&act.sa_mask);
		sigaddset(&act.sa_mask, sig);
		if (rt_spill_sigaction(sig, &act, &old))
			return old.sa_handler;
	}
	sym = real_fn(name, slot);
	if (!sym)
		return SIG_ERR;
	memcpy(&real, &sym, sizeof(sym));
	return real(sig, handler);
}

__attribute__((visibility("default"))) sighandler_t signal(int sig, sighandler_t handler)
{
	static void *slot;

	return signal_call("signal", &slot, sig, handler);
}

__attribute__((visibility("default"))) sighandler_t bsd_signal(int sig, sighandler_t handler)
{
	static void *slot;

	return signal_call("bsd_signal", &slot, sig, handler);
}
#endif

/* ------------------------------------------------------------ the move */

/*
 * The launch that tells apart jobs of one job token: none under Slurm
 * (the job step is the token: every node's ranks share one folder),
 * else Open MPI's namespace, a process tree's id, or the launcher (mpiexec
 * without a batch system; one folder per node when it spans several).
 */
static pid_t launcher(void)
{
	pid_t pid = getppid();
	int depth;

	/*
	 * MPICH's ranks are children of hydra_pmi_proxy, or grandchildren when
	 * a wrapper (strace, valgrind, a shell) runs each: the proxy is theirs
	 * in common.  Else the parent.
	 */
	for (depth = 0; depth < 8 && pid > 1; depth++) {
		char path[64], line[512], *name, *end;
		ssize_t n;
		int fd;

		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			break;
		n = read(fd, line, sizeof(line) - 1);
		close(fd);
		if (n <= 0)
			break;
		line[n] = '\0';
		name = strchr(line, '(');
		end = strrchr(line, ')');
		if (!name || !end || end < name || end[1] != ' ')
			break;
		if (!strncmp(name + 1, "hydra_pmi_prox", 14))
			return pid;
		pid = (pid_t)strtol(end + 4, NULL, 10); /* ") S <ppid>" */
	}
	return getppid();
}

static void launch_id(char *out, size_t len)
{
	const char *ns = getenv("PMIX_NAMESPACE"), *step = getenv("SLURM_STEP_ID");

	if (step && *step && !rt.tree[0])
		snprintf(out, len, "slurm");
	else if (rt.tree[0])
		snprintf(out, len, "t%.80s", rt.tree);
	else if (ns && *ns)
		snprintf(out, len, "n%.60s", ns);
	else
		snprintf(out, len, "p%d", (int)launcher());
	for (; *out; out++)
		if (!((*out >= 'a' && *out <= 'z') || (*out >= 'A' && *out <= 'Z') ||
		      (*out >= '0' && *out <= '9') || *out == '.' || *out == '-'))
			*out = '_';
}

/* The job's folder, made or found, the user's own: its descriptor, or -errno. */
static int open_job_dir(void)
{
	char day[PATH_MAX], job[192], launch[96];
	struct stat day_st, st;
	struct statfs fs;
	int rc = rt_log_day_dir(day, sizeof(day), rt.start_real_ns), dfd;
	mode_t mode;

	if (rc)
		return rc;
	if (stat(day, &day_st))
		return -errno;
	/*
	 * Where fallocate does not hold the blocks for later writes (copy on
	 * write: btrfs, ZFS), a full disk would be a SIGBUS in the program.
	 */
	if (statfs(day, &fs) == 0 && (fs.f_type == (__fsword_t)0x9123683E /* btrfs */ ||
				      fs.f_type == (__fsword_t)0x2FC12FC1 /* zfs */))
		return -EOPNOTSUPP;
	rt_log_job_token(job, sizeof(job));
	launch_id(launch, sizeof(launch));
	if ((size_t)snprintf(spill_dir, sizeof(spill_dir), "%s/.live-%s-%s", day, job, launch) >=
	    sizeof(spill_dir))
		return -ENAMETOOLONG;
	/* The site's group, handed down by a set-group-ID day folder, may read it; nobody else. */
	mode = (day_st.st_mode & S_ISGID) && day_st.st_gid != getegid() ? 0750 : 0700;
	spill_mode = mode;
	if (mkdir(spill_dir, mode) && errno != EEXIST)
		return -errno;
	dfd = open(spill_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	if (fstat(dfd, &st) || st.st_uid != geteuid() || (st.st_mode & 0027)) {
		close(dfd);
		return -EPERM;
	}
	return dfd;
}

/* The batch system's variables that the job region reads, "K=V\0" each. */
static void keep_env(void)
{
	static const char *const prefixes[] = {"SLURM_", "PBS_", "LSB_", "FLUX_", "COBALT_"};
	extern char **environ;
	char **e;
	size_t i, n = 0;

	for (e = environ; e && *e; e++) {
		size_t len = strlen(*e) + 1;

		for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
			if (!strncmp(*e, prefixes[i], strlen(prefixes[i])))
				break;
		if (i == sizeof(prefixes) / sizeof(prefixes[0]) || n + len > RT_SPILL_ENV_MAX)
			continue;
		memcpy(rt_live->info->env + n, *e, len);
		n += len;
	}
	rt_live->info->env_len = (uint32_t)n;
}

static void keep_args(void)
{
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, rt_live->info->args, sizeof(rt_live->info->args)) : 0;

	if (fd >= 0)
		close(fd);
	rt_live->info->args_len = n > 0 ? (uint32_t)n : 0;
}

/* Moves the arena into fd (of the arena's size, with its blocks).  0 or -errno. */
static int move_arena(int fd)
{
	void *p = (void *)syscall(SYS_mmap, NULL, rt.arena.size, PROT_READ | PROT_WRITE, MAP_SHARED,
				  fd, 0);
	void *q;

	if (p == MAP_FAILED)
		return -errno;
	rt_lock();
	memcpy(p, rt.arena.base, rt.arena.used);
	q = (void *)syscall(SYS_mremap, p, rt.arena.size, rt.arena.size,
			    MREMAP_MAYMOVE | MREMAP_FIXED, rt.arena.base);
	rt_unlock();
	if (q != (void *)rt.arena.base) {
		int err = errno;

		syscall(SYS_munmap, p, rt.arena.size);
		return -err;
	}
	return 0;
}

void rt_spill_start(void)
{
	static int tried;
	char host[64], name[160];
	struct sigaction now;
	int dfd, fd, rc, saved_errno = errno;

	if (tried || !rt.enabled || !rt_live || !rt.config.spill)
		return;
	tried = 1;
	rt_lock();
	rt_live->info = rt_arena_alloc(&rt.arena, sizeof(*rt_live->info));
	rt_unlock();
	if (!rt_live->info) {
		rc = -ENOMEM;
		goto out;
	}
	dfd = open_job_dir();
	if (dfd < 0) {
		rc = dfd;
		goto out;
	}
	rt_log_host(host, sizeof(host));
	snprintf(name, sizeof(name), "%d.%s.%d", rt.rank, host, (int)rt.pid);
	/* Readable by the folder's group (the collector's) when the folder is. */
	fd = openat(dfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    spill_mode == 0750 ? 0640 : 0600);
	close(dfd);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	if ((size_t)snprintf(spill_file, sizeof(spill_file), "%.3900s/%s", spill_dir, name) >=
	    sizeof(spill_file)) {
		close(fd);
		rc = -ENAMETOOLONG;
		goto out;
	}
	/* Without its blocks, a full disk would be SIGBUS in the program later. */
	rc = posix_fallocate(fd, 0, (off_t)rt.arena.size);
	rc = rc ? -rc : move_arena(fd);
	close(fd);
	if (rc) {
		unlink(spill_file);
		rmdir(spill_dir);
		spill_file[0] = '\0';
		rt_live->info = NULL;
		goto out;
	}
	spill_pid = getpid();
	rt_live->uid = (uint32_t)getuid();
	snprintf(rt_live->info->version, sizeof(rt_live->info->version), "%s", IOATLAS_VERSION);
	snprintf(rt_live->info->host, sizeof(rt_live->info->host), "%s", host);
	keep_env();
	keep_args();
	rt_spill_note_state();
	rt_spill_calibrate();
	/* A SIGTERM ignored from the start (nohup) stays ignored, by the kernel. */
	if (real_sigaction(SIGTERM, NULL, &now) == 0 && now.sa_handler != SIG_IGN) {
		prog_term_set(&now);
		term_held = 1;
		if (hold_term())
			term_held = 0;
	}
out:
	if (rc && rt.config.debug)
		fprintf(stderr, "ioatlas: no spill, a killed job leaves no record: %s\n",
			strerror(-rc));
	/* The program returns from MPI_Init with the errno it had. */
	errno = saved_errno;
}

/*
 * The log is written: the spills of the folder's other ranks, which handed
 * their records over, go (all of this launch's: the folder is the job
 * step's).  Their processes are past recording; nothing is written to
 * their mappings any more but how they end.
 */
static void remove_handed(void)
{
	DIR *d = opendir(spill_dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
}

void rt_spill_end(enum rt_spill_end how, int code)
{
	int expected = RT_END_RUNNING;

	if (!rt_live || !spill_file[0] || getpid() != spill_pid)
		return;
	if (how == RT_END_CLEAN) {
		rt_live->end = RT_END_CLEAN;
		unlink(spill_file);
		if (rt.mpi_initialized)
			remove_handed();
		rmdir(spill_dir); /* the job's last process removes the folder */
		spill_file[0] = '\0';
		return;
	}
	rt_live->end_ticks = rt_ticks();
	rt_live->end_code = code;
	rt_spill_calibrate();
	__atomic_compare_exchange_n(&rt_live->end, &expected, (int32_t)how, 0, __ATOMIC_RELEASE,
				    __ATOMIC_RELAXED);
}
