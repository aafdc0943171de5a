/*
 * rt_recover — a dead process's spill into log regions (see rt_recover.h).
 * Built into ioatlas-recover only (RT_RECOVER: no constructor, no
 * wrappers), from the same sources as the library whose spills it reads.
 */
#define _GNU_SOURCE
#include "rt_recover.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ioa_logw.h"
#include "rt_log.h"
#include "rt_posix.h"
#include "rt_trace.h"

#define RECOVER_CPU_S	 20
#define RECOVER_HEAP_MAX ((rlim_t)4 << 30)

static void cut(char *s, size_t len)
{
	s[len - 1] = '\0';
}

/* A settings list as rt_config makes them: counts in range, items cut, lengths true. */
static void clean_list(struct rt_list *l)
{
	unsigned k;

	if (l->count > RT_CONFIG_LIST_MAX)
		l->count = RT_CONFIG_LIST_MAX;
	for (k = 0; k < RT_CONFIG_LIST_MAX; k++) {
		cut(l->items[k], sizeof(l->items[k]));
		l->lengths[k] = (unsigned short)strlen(l->items[k]);
		if (l->literal[k] > l->lengths[k])
			l->literal[k] = l->lengths[k];
	}
}

/* Everything of a spill's rt_state the parent reads, made as rt_config would make it. */
static void clean_state(struct rt_state *s)
{
	struct rt_config *c = &s->config;

	cut(s->exe, sizeof(s->exe));
	cut(s->tree, sizeof(s->tree));
	cut(s->mpi_note, sizeof(s->mpi_note));
	cut(c->logdir, sizeof(c->logdir));
	cut(c->log_group, sizeof(c->log_group));
	clean_list(&c->nonmpi_exes);
	clean_list(&c->exclude_exes);
	clean_list(&c->exclude_paths);
	clean_list(&c->include_paths);
	c->disable = !!c->disable;
	c->nonmpi = !!c->nonmpi;
	c->record_args = !!c->record_args;
	c->spill = !!c->spill;
	c->debug = 0;
	s->mpi_initialized = !!s->mpi_initialized;
	s->started = !!s->started;
	s->log_written = !!s->log_written;
	s->tree_root = !!s->tree_root;
	s->mpi_unsupported = !!s->mpi_unsupported;
	s->disabled_reason = NULL;
	memset(&s->arena, 0, offsetof(struct rt_arena, refused));
}

int rt_recover_head(int fd, struct rt_live *head, struct rt_spill_info *info)
{
	uint64_t at;
	struct stat st;
	long page = sysconf(_SC_PAGESIZE);

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size < sizeof(*head) ||
	    pread(fd, head, sizeof(*head), 0) != (ssize_t)sizeof(*head))
		return -EINVAL;
	if (memcmp(head->magic, RT_SPILL_MAGIC, sizeof(head->magic)))
		return -EINVAL;
	if (head->layout != rt_spill_layout())
		return -EPROTO;
	if (head->size != (uint64_t)st.st_size || head->size < sizeof(*head) || !head->base ||
	    head->base % (uint64_t)page || head->base + head->size < head->base ||
	    head->base + head->size > ((uint64_t)1 << 47) || head->trace_bytes > head->size)
		return -EINVAL;
	if (!head->info)
		return -ENODATA;
	at = (uint64_t)(uintptr_t)head->info - head->base;
	if ((uint64_t)(uintptr_t)head->info < head->base || at > head->size - sizeof(*info) ||
	    pread(fd, info, sizeof(*info), (off_t)at) != (ssize_t)sizeof(*info) ||
	    info->env_len > sizeof(info->env) || info->args_len > sizeof(info->args))
		return -EINVAL;
	cut(info->version, sizeof(info->version));
	cut(info->host, sizeof(info->host));
	clean_state(&info->state);
	if (info->env_len)
		info->env[info->env_len - 1] = '\0';
	if (info->state.nprocs < 1 || info->state.rank < 0 ||
	    info->state.rank >= info->state.nprocs)
		return -EINVAL;
	return 0;
}

double rt_recover_tick_s(const struct rt_live *head, const struct rt_spill_info *info)
{
	uint64_t ticks = head->cal_ticks - info->state.start_ticks;
	uint64_t ns = head->cal_mono_ns - info->state.start_mono_ns;

	if (head->cal_ticks <= info->state.start_ticks ||
	    head->cal_mono_ns <= info->state.start_mono_ns)
		return 1e-9;
	return (double)ns * 1e-9 / (double)ticks;
}

/* Read, write, memory and the way out: every other call fails with EPERM. */
static int shut_in(void)
{
#if defined(__x86_64__)
#define RECOVER_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define RECOVER_ARCH AUDIT_ARCH_AARCH64
#endif
#ifdef RECOVER_ARCH
#define ALLOW(nr)                                        \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, RECOVER_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		ALLOW(SYS_read),
		ALLOW(SYS_write),
		ALLOW(SYS_lseek),
		ALLOW(SYS_fstat),
		ALLOW(SYS_newfstatat),
		ALLOW(SYS_brk),
		ALLOW(SYS_mmap),
		ALLOW(SYS_munmap),
		ALLOW(SYS_mremap),
		ALLOW(SYS_madvise),
		ALLOW(SYS_futex),
		ALLOW(SYS_clock_gettime),
		ALLOW(SYS_getpid),
		ALLOW(SYS_exit),
		ALLOW(SYS_exit_group),
		ALLOW(SYS_rt_sigreturn),
		/* Its own signal stack and mask (the sanitizers' runtimes ask for them). */
		ALLOW(SYS_sigaltstack),
		ALLOW(SYS_rt_sigprocmask),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
	};
	struct sock_fprog prog = {(unsigned short)(sizeof(filter) / sizeof(filter[0])), filter};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) ? -errno : 0;
#else
	return -ENOSYS;
#endif
}

/* The latest time (ticks since start) any record or the trace was updated. */
static uint64_t recorded_until(void)
{
	double until = 0;
	int m;

	for (m = 0; m < IOA_MOD_COUNT; m++) {
		const struct rt_record *rec = rt_live->modules[m].first;
		size_t n = 0, most = rt.arena.size / sizeof(*rec);

		/* A loop in a damaged list ends at the most records the arena holds. */
		for (; rec && n < most; rec = rec->next_in_module, n++) {
			until = rec->meta_end > until ? rec->meta_end : until;
			until = rec->read_end > until ? rec->read_end : until;
			until = rec->write_end > until ? rec->write_end : until;
		}
	}
	if (until < 0 || until > 1e19)
		until = 0;
	if (rt_live->end != RT_END_RUNNING && rt_live->end_ticks > rt.start_ticks &&
	    (double)(rt_live->end_ticks - rt.start_ticks) > until)
		until = (double)(rt_live->end_ticks - rt.start_ticks);
	return (uint64_t)until;
}

/*
 * A process killed inside MPI_Finalize had begun to combine shared files:
 * its combined records are in its heap, gone, and its own records marked
 * as going into another rank's log.  A recovered log holds each rank's
 * records as they were, none combined.
 */
static void forget_shutdown(void)
{
	size_t most = rt.arena.size / sizeof(struct rt_record);
	int m;

	for (m = 0; m < IOA_MOD_COUNT; m++) {
		struct rt_record *rec = rt_live->modules[m].first;
		size_t n = 0;

		rt_live->modules[m].combined = NULL;
		for (; rec && n < most; rec = rec->next_in_module, n++)
			rec->flags &= ~(RT_REC_ELSEWHERE | IOA_REC_SHARED);
	}
}

static __attribute__((noreturn)) void fail(const char *what, int rc)
{
	fprintf(stderr, "ioatlas recover: %s: %s\n", what, strerror(-rc));
	_exit(1);
}

void rt_recover_child(int fd, const struct rt_live *head, const struct rt_spill_info *info,
		      int out_fd, int until_fd, uint64_t job_start_ns)
{
	struct rlimit cpu = {RECOVER_CPU_S, RECOVER_CPU_S}, as;
	struct ioa_log_writer w;
	uint64_t until;
	double tick_s;
	void *p;
	int rc, null;

	p = mmap((void *)(uintptr_t)head->base, head->size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_FIXED_NOREPLACE, fd, 0);
	if (p == MAP_FAILED)
		fail("cannot map the spill at its address", -errno);
	if (p != (void *)(uintptr_t)head->base)
		fail("cannot map the spill at its address", -EADDRINUSE);
	close(fd);
	setrlimit(RLIMIT_CPU, &cpu);
#ifndef __SANITIZE_ADDRESS__
	/* (AddressSanitizer's shadow alone is terabytes of address space.) */
	as.rlim_cur = as.rlim_max = RECOVER_HEAP_MAX + head->size;
	setrlimit(RLIMIT_AS, &as);
#else
	(void)as;
#endif
	/*
	 * It keeps its two outputs and nothing else: no other descriptor of
	 * the parent, and its messages (the epilog's syslog) go nowhere.
	 */
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	/* Above every descriptor it keeps, so that none is overwritten on the way. */
	null = null < 0 ? -1 : fcntl(null, F_DUPFD_CLOEXEC, 10);
	out_fd = fcntl(out_fd, F_DUPFD_CLOEXEC, 10);
	until_fd = fcntl(until_fd, F_DUPFD_CLOEXEC, 10);
	if (null < 0 || out_fd < 0 || until_fd < 0 || dup2(out_fd, 3) < 0 ||
	    dup2(until_fd, 4) < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0 ||
	    syscall(SYS_close_range, 5, ~0u, 0))
		fail("cannot set its descriptors", -errno);
	out_fd = 3;
	until_fd = 4;
	if (shut_in())
		_exit(1);

	/* The process's state, as it was: its own copy of rt and the arena's root. */
	rt = info->state;
	rt_self_start(); /* the dead process's addresses are not ours */
	rt.enabled = 0;
	rt.lock_word = 0;
	rt.arena.base = p;
	rt.arena.size = head->size;
	rt.arena.used = head->size; /* packing allocates nothing from it */
	rt_live = p;
	rt_trace_adopt();
	/* Calls the process had queued: their records and trace as they would have been. */
	rt_posix_adopt();
	if (rt.queued && *rt.queued)
		rt_apply_queued();
	forget_shutdown();
	until = recorded_until();
	/* A shutdown that turned the times into seconds and then failed to write. */
	tick_s = rt_live->seconds_per_tick > 0 ? rt_live->seconds_per_tick
					       : rt_recover_tick_s(head, info);
	rt_log_tick_s = tick_s;
	if (!(rt_live->seconds_per_tick > 0)) {
		rt_records_to_seconds(tick_s);
		rt_log_on_wall_clock(job_start_ns);
	}
	ioa_logw_init(&w, RT_LOG_PART_CAP);
	rc = rt_log_pack_records(&w);
	/* A trace that cannot be packed is left out; the records go on without it. */
	if (!rc && rt_trace_pack(&w, tick_s * 1e9))
		fprintf(stderr, "ioatlas recover: rank %d: the trace is left out\n", rt.rank);
	if (!rc)
		rc = rt_log_write_fd(&w, out_fd);
	if (rc)
		fail("cannot pack the records", rc);
	if (write(until_fd, &until, sizeof(until)) != (ssize_t)sizeof(until))
		fail("cannot report the time recorded", -EIO);
	_exit(0);
}
