/*
 * rt_shutdown — the end of a process that is not an MPI job: when the site
 * or the user opted in (nonmpi, nonmpi_exes), the records of a whole
 * process tree become one log.  MPI jobs write their shared log at
 * MPI_Finalize instead (rt_mpi.c); a process on an MPI the runtime does not
 * know (rt_mpi_bind.c) writes a log of its own, opted in or not, whose
 * "mpi" key says why it holds no MPI-IO data.
 *
 * The tree.  The first opted-in process without IOATLAS_TREE in its
 * environment is the tree's root: it sets IOATLAS_TREE=<pid>.<start ns>.<host>
 * (rt_tree_join()), which its children inherit through fork and exec, and
 * every process that starts with the variable belongs to the tree, listed
 * in nonmpi_exes or not.  At exit:
 *
 *  - a child writes its records, as a log of its own numbered n (its
 *    "rank"), into the tree's staging folder LOGDIR/YYYY/MM/DD/.tree-<id>
 *    (the root's start day; mode 0700, made by mkdir, opened with
 *    O_NOFOLLOW and checked to be the user's own), under a shared flock of
 *    the folder: part "<n>.part", n reserved by O_EXCL;
 *  - the root takes the folder's exclusive flock (waiting at most
 *    RT_TREE_WAIT_MS for children in the middle of writing), marks the
 *    tree closed, takes every part's regions into its own log as rank n,
 *    lists the processes (job key "procs"), removes the parts and the
 *    folder, and publishes one log for the tree (rt_log_write());
 *  - a child that finds the tree closed or its root gone (a daemon that
 *    outlived it) publishes a log of its own, with the tree's id (job key
 *    "tree") so that a reader can relate it.
 *
 * A process that calls MPI_Init belongs to its MPI job's log and writes no
 * part; a root that called MPI_Init still merges its children's parts,
 * without its own records.  Forked children that do not exec are not
 * recorded (rt_core.c), and what a process recorded before it calls exec
 * is lost, as without a tree.
 *
 * Nothing here may disturb the exiting program: every wait is bounded,
 * errno is kept, signals are not touched, failures are only reported under
 * IOATLAS_DEBUG, and a process that exits from a signal handler which
 * interrupted a record update leaves no log rather than wait for a lock its
 * own thread holds.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ioa_log.h"
#include "ioa_logfmt.h"
#include "rt_core.h"
#include "rt_log.h"
#include "rt_records.h"
#include "rt_spill.h"
#include "rt_trace.h"

#define RT_TREE_VAR "IOATLAS_TREE"
/* How long the root waits for children writing their parts, and they for it. */
#define RT_TREE_WAIT_MS 2000
/* Parts per tree; children beyond publish their own logs. */
#define RT_TREE_MAX_PARTS 4096

/* Stops recording and waits for calls in flight to finish their updates. */
void rt_stop_recording(void)
{
	rt_lock();
	rt.enabled = 0;
	rt_unlock();
}

void rt_give_log_group(const char *path)
{
	struct group gr, *found = NULL;
	char buf[1024];

	if (rt.config.log_group[0] &&
	    getgrnam_r(rt.config.log_group, &gr, buf, sizeof(buf), &found) == 0 && found)
		(void)chown(path, (uid_t)-1, found->gr_gid);
}

/* ------------------------------------------------------------ the tree's id */

/* An id as the root makes it: "<pid>.<start ns>.<host>", safe as a file name. */
static int tree_id_valid(const char *id, uint64_t *start_ns)
{
	unsigned long long pid, ns;
	size_t i, len = strlen(id);
	int used = 0;

	if (!len || len >= sizeof(rt.tree) || id[0] == '.')
		return 0;
	for (i = 0; i < len; i++)
		if (!((id[i] >= 'a' && id[i] <= 'z') || (id[i] >= 'A' && id[i] <= 'Z') ||
		      (id[i] >= '0' && id[i] <= '9') || id[i] == '-' || id[i] == '.' ||
		      id[i] == '_'))
			return 0;
	if (sscanf(id, "%llu.%llu.%n", &pid, &ns, &used) != 2 || !used || !pid)
		return 0;
	*start_ns = ns;
	return 1;
}

static int tree_dir_open(char *path, size_t len, int make);

void rt_tree_join(void)
{
	const char *marker = getenv(RT_TREE_VAR);
	char host[64], dir[PATH_MAX];
	const char *dot;
	uint64_t start_ns;
	int fd;

	if (marker && tree_id_valid(marker, &start_ns)) {
		snprintf(rt.tree, sizeof(rt.tree), "%s", marker);
		rt.tree_start_ns = start_ns;
		/*
		 * The root that called exec is still the root: same pid, same
		 * host (a process of another pid namespace may have the pid).
		 */
		rt_log_host(host, sizeof(host));
		dot = strchr(strchr(marker, '.') + 1, '.');
		rt.tree_root = strtoull(marker, NULL, 10) == (unsigned long long)rt.pid &&
			       !strcmp(dot + 1, host);
		return;
	}
	if (!rt.config.nonmpi && !rt_config_exe_listed(&rt.config.nonmpi_exes, rt.exe))
		return;
	rt_log_host(host, sizeof(host));
	snprintf(rt.tree, sizeof(rt.tree), "%d.%llu.%s", (int)rt.pid,
		 (unsigned long long)rt.start_real_ns, host);
	rt.tree_start_ns = rt.start_real_ns;
	rt.tree_root = true;
	/*
	 * The staging folder exists from the start: children use it only then
	 * (a root without one, its log folder unusable, still writes its log).
	 */
	fd = tree_dir_open(dir, sizeof(dir), 1);
	if (fd >= 0)
		close(fd);
	/* The one change to the program's environment; without it, no tree. */
	(void)setenv(RT_TREE_VAR, rt.tree, 1);
}

/* ------------------------------------------------------------ the staging folder */

/*
 * The tree's staging folder, made (0700, when make) and opened; its
 * descriptor or -errno.  The root makes it at start-up; a child only
 * opens it, so that a child that outlived the root, or that writes its
 * logs elsewhere (another logdir), finds none and keeps its own log.
 */
static int tree_dir_open(char *path, size_t len, int make)
{
	struct stat st;
	size_t n;
	int fd, rc = rt_log_day_dir(path, len, rt.tree_start_ns);

	if (rc)
		return rc;
	n = strlen(path);
	if ((size_t)snprintf(path + n, len - n, "/.tree-%s", rt.tree) >= len - n)
		return -ENAMETOOLONG;
	if (make && mkdir(path, 0700) && errno != EEXIST)
		return -errno;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* Only a folder of the user's own that nobody else can enter is used. */
	if (fstat(fd, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* flock with a bound: 0, or -EWOULDBLOCK after RT_TREE_WAIT_MS. */
static int lock_bounded(int fd, int op)
{
	struct timespec pause = {0, 1000000};
	int waited;

	for (waited = 0; waited <= RT_TREE_WAIT_MS; waited++) {
		if (!flock(fd, op | LOCK_NB))
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -errno;
		nanosleep(&pause, NULL);
	}
	return -EWOULDBLOCK;
}

/* ------------------------------------------------------------ packing */

/* This process's records, trace and job region into w (recording is off). */
static int pack_process(struct ioa_log_writer *w, int with_job)
{
	char host[256] = "";
	uint32_t node = 0;
	int rc = rt_log_pack_records(w);

	/* A trace that cannot be packed is left out; the log goes on without it. */
	if (!rc && rt_trace_pack(w, rt_seconds_per_tick() * 1e9) && rt.config.debug)
		fprintf(stderr, "ioatlas: the operation trace is left out of the log\n");
	if (!rc && with_job) {
		gethostname(host, sizeof(host) - 1);
		rc = rt_log_pack_job(w, host, strlen(host), &node, 1);
	}
	return rc;
}

/* Whether the tree's root is still running (a pid reused meanwhile reads as alive). */
static int root_running(void)
{
	return rt_process_running((pid_t)strtoull(rt.tree, NULL, 10));
}

/*
 * A child of the tree: its part in the staging folder.  Failures before
 * the records are packed (*packed still 0: -ESRCH, the tree closed or its
 * root gone; no usable staging folder) leave the child to write a log of
 * its own; the records are never packed twice.
 */
static int write_part(int *packed)
{
	struct ioa_log_writer w;
	char dir[PATH_MAX], name[32];
	int dfd = tree_dir_open(dir, sizeof(dir), 0), fd = -1, n, rc;

	if (dfd < 0)
		return dfd;
	rc = lock_bounded(dfd, LOCK_SH);
	if (!rc && (!faccessat(dfd, "closed", F_OK, AT_SYMLINK_NOFOLLOW) || !root_running()))
		rc = -ESRCH;
	for (n = 1; !rc && n <= RT_TREE_MAX_PARTS; n++) {
		snprintf(name, sizeof(name), "%d.part", n);
		fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0)
			break;
		if (errno != EEXIST)
			rc = -errno;
	}
	if (!rc && fd < 0)
		rc = -ESRCH;
	if (rc) {
		close(dfd);
		return rc;
	}
	rt.rank = n;
	rt_log_tree = rt.tree;
	ioa_logw_init(&w, (size_t)1 << 30);
	*packed = 1;
	rc = pack_process(&w, 1);
	if (!rc)
		rc = rt_log_write_fd(&w, fd);
	if (close(fd) && !rc)
		rc = -errno;
	/* A part that cannot be written (a full disk) is lost, as a log would be. */
	if (rc)
		unlinkat(dfd, name, 0);
	rt_log_tree = NULL;
	ioa_logw_release(&w);
	close(dfd);
	return rc;
}

struct rt_part_job {
	unsigned long long pid, start_ns, end_ns;
	char exe[PATH_MAX];
};

static int part_job_entry(uint16_t key, const unsigned char *value, uint32_t len, void *arg)
{
	struct rt_part_job *job = arg;
	char text[32];

	if (key == IOA_JOB_EXE) {
		snprintf(job->exe, sizeof(job->exe), "%.*s", (int)len, (const char *)value);
		return 0;
	}
	if (len >= sizeof(text))
		return 0;
	memcpy(text, value, len);
	text[len] = '\0';
	if (key == IOA_JOB_PID)
		job->pid = strtoull(text, NULL, 10);
	else if (key == IOA_JOB_START_NS)
		job->start_ns = strtoull(text, NULL, 10);
	else if (key == IOA_JOB_END_NS)
		job->end_ns = strtoull(text, NULL, 10);
	return 0;
}

static int add_proc_line(struct ioa_buf *procs, int rank, const struct rt_part_job *job)
{
	char line[PATH_MAX + 96];
	int len = snprintf(line, sizeof(line), "%d %llu %llu %llu %s\n", rank, job->pid,
			   job->start_ns, job->end_ns, job->exe);

	return ioa_buf_add(procs, line, len < 0 ? 0 : (size_t)len);
}

/* The root: one child's part into w, and its job region as a line of procs. */
static int take_part(struct ioa_log_writer *w, const char *path, int rank, struct ioa_buf *procs)
{
	struct rt_part_job job = {0};
	int rc = rt_log_take_part(w, path, part_job_entry, &job);

	return rc ? rc : add_proc_line(procs, rank, &job);
}

/* Appends rank to the ranks text ("0-2,5"); ranks come in increasing order. */
static void add_rank(char *ranks, size_t len, int rank, int *last, int *run_from)
{
	size_t n = strlen(ranks);

	if (*last >= 0 && rank == *last + 1) {
		*last = rank;
		return;
	}
	if (*last >= 0 && *last != *run_from)
		n += (size_t)snprintf(ranks + n, n < len ? len - n : 0, "-%d", *last);
	if (n < len)
		snprintf(ranks + n, len - n, "%s%d", *last >= 0 ? "," : "", rank);
	*last = *run_from = rank;
}

static int rank_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/*
 * The root: its own records (unless MPI_Init made them the MPI job's) and
 * every part into one log.  Nothing to say (an MPI root without children)
 * leaves no log.
 */
static int write_tree(void)
{
	struct ioa_log_writer w;
	struct ioa_buf procs = IOA_BUF_INIT((size_t)1 << 24);
	struct rt_part_job self = {0};
	char dir[PATH_MAX], path[PATH_MAX + 64], *ranks = NULL;
	int *found = NULL, nfound = 0, own = !rt.mpi_initialized, i, last = -1, from = -1;
	int dfd = tree_dir_open(dir, sizeof(dir), 1), rc = 0, taken = 0, closed;
	size_t ranks_len;
	struct timespec now;
	DIR *d = NULL;
	struct dirent *e;

	ioa_logw_init(&w, (size_t)1 << 30);
	if (dfd >= 0) {
		/*
		 * Past the bound, a child still writing its part loses it (its
		 * file is read short, left out and removed); the root goes on.
		 */
		if (lock_bounded(dfd, LOCK_EX) && rt.config.debug)
			fprintf(stderr, "ioatlas: the tree's children are slow to write their "
					"parts; going on without waiting\n");
		closed = openat(dfd, "closed", O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (closed >= 0)
			close(closed);
		found = calloc(RT_TREE_MAX_PARTS, sizeof(*found));
		d = found ? opendir(dir) : NULL;
		while (d && (e = readdir(d)) && nfound < RT_TREE_MAX_PARTS) {
			char *end;
			long n = strtol(e->d_name, &end, 10);

			if (n > 0 && n <= RT_TREE_MAX_PARTS && !strcmp(end, ".part"))
				found[nfound++] = (int)n;
		}
		if (d)
			closedir(d);
	}
	rt.rank = 0;
	clock_gettime(CLOCK_REALTIME, &now);
	self.pid = (unsigned long long)rt.pid;
	self.start_ns = rt.start_real_ns;
	self.end_ns =
		(unsigned long long)now.tv_sec * 1000000000ull + (unsigned long long)now.tv_nsec;
	snprintf(self.exe, sizeof(self.exe), "%s", rt.exe);
	/* "a-b," takes at most 24 characters per range. */
	ranks_len = (size_t)(nfound + 1) * 24 + 1;
	ranks = calloc(1, ranks_len);
	if (!ranks)
		rc = -ENOMEM;
	if (!rc && own)
		rc = pack_process(&w, 0);
	if (!rc && own) {
		rc = add_proc_line(&procs, 0, &self);
		add_rank(ranks, ranks_len, 0, &last, &from);
	}
	if (nfound)
		qsort(found, (size_t)nfound, sizeof(*found), rank_cmp);
	for (i = 0; i < nfound && !rc; i++) {
		int part_rc;

		snprintf(path, sizeof(path), "%s/%d.part", dir, found[i]);
		part_rc = take_part(&w, path, found[i], &procs);
		if (!part_rc) {
			taken++;
			add_rank(ranks, ranks_len, found[i], &last, &from);
			rt.nprocs = found[i] + 1;
		} else if (rt.config.debug) {
			fprintf(stderr,
				"ioatlas: the tree's part '%s' is left out of its log: %s\n", path,
				strerror(-part_rc));
		}
		unlink(path);
	}
	if (last >= 0 && last != from) {
		size_t n = strlen(ranks);

		snprintf(ranks + n, ranks_len - n, "-%d", last);
	}
	if (!rc && (own || taken)) {
		char nul = '\0';

		rc = ioa_buf_add(&procs, &nul, 1);
		rt_log_tree = rt.tree;
		rt_log_ranks = ranks;
		rt_log_procs = procs.data;
		if (!rc) {
			char host[256] = "";
			uint32_t *nodes = calloc((size_t)rt.nprocs, sizeof(*nodes));

			gethostname(host, sizeof(host) - 1);
			rc = nodes ? rt_log_pack_job(&w, host, strlen(host), nodes, 1) : -ENOMEM;
			free(nodes);
		}
		if (!rc)
			rc = rt_log_write(&w);
		rt_log_tree = rt_log_ranks = rt_log_procs = NULL;
	}
	if (dfd >= 0) {
		unlinkat(dfd, "closed", 0);
		/* Fails while a part is still being written: that child's tree is closed. */
		(void)unlinkat(AT_FDCWD, dir, AT_REMOVEDIR);
		close(dfd);
	}
	free(found);
	free(ranks);
	ioa_buf_release(&procs);
	ioa_logw_release(&w);
	return rc;
}

/* A process alone (or a child the tree could not take): its own log. */
static int write_alone(void)
{
	struct ioa_log_writer w;
	int rc;

	rt.rank = 0;
	rt.nprocs = 1;
	rt_log_tree = rt.tree;
	ioa_logw_init(&w, (size_t)1 << 30);
	rc = pack_process(&w, 1);
	if (!rc)
		rc = rt_log_write(&w);
	rt_log_tree = NULL;
	ioa_logw_release(&w);
	return rc;
}

void rt_shutdown_at_exit(void)
{
	int rc, saved_errno = errno;

	/* MPI_Init without MPI_Finalize: the spill stays, for recover. */
	if (rt.mpi_initialized && !rt.log_written)
		rt_spill_end(RT_END_EXIT, 0);
	if (rt.log_written || !rt.started || (!rt.tree[0] && !rt.mpi_unsupported))
		return;
	/* A process that called MPI_Init is in its job's log; a root still merges its tree. */
	if (rt.mpi_initialized && !rt.tree_root)
		return;
	/* A vfork child that calls exit() runs our destructor in the parent's memory. */
	if (getpid() != rt.pid)
		return;
	rt.log_written = true;
	/*
	 * exit() from a signal handler that interrupted this thread while it held
	 * the runtime's lock (or waited for it): the lock would never come, and the
	 * records are halfway through an update.  No log, rather than a hang.
	 */
	if (rt_self()->inside & RT_IN_LOCK) {
		static const char why[] = "ioatlas: no log: the process exited from a signal "
					  "handler during a record update\n";

		rt.enabled = 0;
		if (rt.config.debug)
			(void)!write(STDERR_FILENO, why, sizeof(why) - 1);
		errno = saved_errno;
		return;
	}
	rt_self()->inside |= RT_IN_RUNTIME;
	/* An MPI root's records went to its job's log, turned into seconds there. */
	if (!rt.mpi_initialized) {
		rt_stop_recording();
		rt_log_tick_s = rt_seconds_per_tick();
		rt_records_to_seconds(rt_log_tick_s);
		if (rt.tree[0])
			rt_log_on_wall_clock(rt.tree_start_ns);
	}

	if (!rt.tree[0]) {
		rc = write_alone(); /* on an MPI the runtime does not know, not opted in */
	} else if (rt.tree_root) {
		rc = write_tree();
	} else {
		int packed = 0;

		rc = write_part(&packed);
		if (rc && !packed)
			rc = write_alone();
	}
	if (!rc)
		rt_spill_end(RT_END_CLEAN, 0);
	else if (rt.config.debug)
		fprintf(stderr, "ioatlas: cannot write the log under '%s': %s\n", rt.config.logdir,
			strerror(-rc));
	rt_self()->inside &= ~RT_IN_RUNTIME;
	/* Other exit handlers may still look at errno. */
	errno = saved_errno;
}
