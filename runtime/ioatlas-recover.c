/*
 * ioatlas recover — turns what dead processes left in the log tree (their
 * spills, rt_spill.h) into logs marked partial (docs/recovery.md).
 *
 *	ioatlas recover [--job ID] [--reason TEXT] [--older-than S] [--days N]
 *			[--dry-run] [LOGDIR]
 *
 * Each job folder (LOGDIR/YYYY/MM/DD/.live-*) of the last N days becomes
 * one log of the ranks found in it, published in its day folder as the
 * job's own log would have been, and the folder is removed.  A folder is
 * taken when every process in it is gone: on this host, its pid is asked;
 * on another host, the batch system's word is needed (--job, from the
 * epilog) or no spill of it written for --older-than seconds.  Run as
 * root (a Slurm epilog), each folder is recovered as its owner: the log
 * is the user's, as it would have been.  Every spill is read in a child
 * of its own, shut in (rt_recover.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ioa_buf.h"
#include "ioa_log.h"
#include "ioa_opts.h"
#include "ioa_logw.h"
#include "rt_log.h"
#include "rt_recover.h"

#define MAX_RANKS  65536
#define MAX_SPILLS 65536

struct options {
	const char *job, *reason, *logdir;
	long older_than, days;
	int dry_run;
};

struct spill {
	char name[256];
	struct rt_live *head;	    /* malloc'd copies, checked */
	struct rt_spill_info *info; /* what its process was */
	time_t mtime;
	int alive;
};

static int spill_cmp(const void *a, const void *b)
{
	const struct spill *x = a, *y = b;

	return (x->info->state.rank > y->info->state.rank) -
	       (x->info->state.rank < y->info->state.rank);
}

/*
 * Whether the process of a spill may still run: on this host, its pid is
 * asked (rt_process_running()); on another, nobody here can say (-1).
 */
static int process_alive(const struct rt_spill_info *i)
{
	char host[64];

	rt_log_host(host, sizeof(host));
	return strcmp(host, i->host) ? -1 : rt_process_running(i->state.pid);
}

/*
 * Whether every line of squeue's answer is a state a job ends in (or
 * there is none: Slurm forgot the job).  Any other state — running,
 * completing, suspended, stopped, requeued, resizing, signaling — may
 * still have processes.
 */
static int job_ended(char *out)
{
	static const char *const ended[] = {
		"COMPLETED", "CANCELLED", "FAILED",	   "TIMEOUT", "NODE_FAIL",    "PREEMPTED",
		"BOOT_FAIL", "DEADLINE",  "OUT_OF_MEMORY", "REVOKED", "SPECIAL_EXIT",
	};
	char *line, *save = NULL;
	size_t k;

	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		for (k = 0; k < sizeof(ended) / sizeof(ended[0]); k++)
			if (!strcmp(line, ended[k]))
				break;
		if (k == sizeof(ended) / sizeof(ended[0]))
			return 0;
	}
	return 1;
}

/*
 * Whether Slurm still lists the spill's job as not ended (1), says it
 * ended or knows it no more (0), or cannot be asked (-1: no Slurm job,
 * no squeue, no answer within 10 s).
 */
static int slurm_job_listed(const struct rt_spill_info *i)
{
	const char *e = i->env, *end = i->env + i->env_len, *id = NULL;
	char out[256] = "", arg[64];
	int pipefd[2], status;
	ssize_t got = 0, r;
	pid_t pid;

	for (; e < end && *e; e += strlen(e) + 1)
		if (!strncmp(e, "SLURM_JOB_ID=", 13))
			id = e + 13;
	if (!id || !*id || strspn(id, "0123456789") != strlen(id) || strlen(id) > 20 ||
	    pipe2(pipefd, O_CLOEXEC))
		return -1;
	snprintf(arg, sizeof(arg), "%s", id);
	pid = fork();
	if (pid == 0) {
		sigset_t none;

		/* A caller's blocked signals would keep timeout from stopping squeue. */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		dup2(pipefd[1], STDOUT_FILENO);
		dup2(pipefd[1], STDERR_FILENO);
		execlp("timeout", "timeout", "10", "squeue", "-h", "-t", "all", "-j", arg, "-o",
		       "%T", (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	while (pid > 0 && got < (ssize_t)sizeof(out) - 1 &&
	       (r = read(pipefd[0], out + got, sizeof(out) - 1 - (size_t)got)) > 0)
		got += r;
	close(pipefd[0]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	out[got] = '\0';
	/*
	 * squeue fails on a job it no longer knows ("Invalid job id"): gone.
	 * Any other failure (no controller, no squeue) says nothing.
	 */
	if (!WIFEXITED(status))
		return -1;
	if (WEXITSTATUS(status))
		return strstr(out, "Invalid job id") ? 0 : -1;
	return !job_ended(out);
}

/* Appends ranks as "0-3,5" runs; ranks sorted. */
static void rank_list(struct ioa_buf *b, const int *ranks, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t j = i;
		char run[48];
		int len;

		while (j + 1 < n && ranks[j + 1] == ranks[j] + 1)
			j++;
		len = j > i ? snprintf(run, sizeof(run), "%s%d-%d", b->len ? "," : "", ranks[i],
				       ranks[j])
			    : snprintf(run, sizeof(run), "%s%d", b->len ? "," : "", ranks[i]);
		ioa_buf_add(b, run, (size_t)len);
		i = j + 1;
	}
}

/*
 * One spill in a shut-in child: its regions into a memory file, appended
 * to w; *until the wall-clock ns up to which it recorded.  0 or -errno.
 */
static int recover_spill(int dfd, struct spill *s, struct ioa_log_writer *w, uint64_t job_start_ns,
			 uint64_t *until)
{
	int fd = openat(dfd, s->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	int out = memfd_create("ioatlas-recover", MFD_CLOEXEC), pipefd[2] = {-1, -1}, status, rc;
	uint64_t ticks = 0;
	char path[64];
	pid_t pid;

	if (fd < 0 || out < 0 || pipe2(pipefd, O_CLOEXEC)) {
		rc = -errno;
		goto out;
	}
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		goto out;
	}
	if (pid == 0) {
		close(pipefd[0]);
		rt_recover_child(fd, s->head, s->info, out, pipefd[1], job_start_ns);
	}
	close(pipefd[1]);
	pipefd[1] = -1;
	rc = read(pipefd[0], &ticks, sizeof(ticks)) == (ssize_t)sizeof(ticks) ? 0 : -EPROTO;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		rc = -EPROTO;
	if (!rc) {
		double ns = (double)ticks * rt_recover_tick_s(s->head, s->info) * 1e9;
		uint64_t now = (uint64_t)time(NULL) * 1000000000u;

		*until = s->info->state.start_real_ns + (ns > 0 && ns < 1e18 ? (uint64_t)ns : 0);
		if (*until > now)
			*until = now;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", out);
		/* What the child wrote is a log from an untrusted hand: read as every log is. */
		rc = rt_log_take_part(w, path, NULL, NULL);
	}
out:
	if (fd >= 0)
		close(fd);
	if (out >= 0)
		close(out);
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	return rc;
}

/*
 * How the job ended, of all its ranks' ends: an MPI_Abort is the cause of
 * the rest (the launcher kills the others), a signal came from outside,
 * an exit() was the program's; a rank that said nothing was killed.
 */
static int end_rank(int end)
{
	switch (end) {
	case RT_END_ABORT:
		return 4;
	case RT_END_SIGNAL:
		return 3;
	case RT_END_EXIT:
		return 2;
	default:
		return 1;
	}
}

static const struct rt_live *job_end(const struct spill *spills, size_t n)
{
	const struct rt_live *best = spills[0].head;
	size_t i;

	for (i = 1; i < n; i++)
		if (end_rank(spills[i].head->end) > end_rank(best->end))
			best = spills[i].head;
	return best;
}

static const char *how_of(const struct rt_live *h)
{
	switch (h->end) {
	case RT_END_SIGNAL:
		return "signal";
	case RT_END_EXIT:
		return "exit";
	case RT_END_ABORT:
		return "abort";
	default:
		return "killed";
	}
}

/*
 * The job as its first rank's process was: rt, its variables and arguments
 * for the log's name and job region, and the first rank's plain numbers
 * (no pointer) for what the job region says was lost.  The log goes into
 * the tree the spill was found in.
 */
static void take_job(struct spill *first, const struct options *o)
{
	const struct rt_spill_info *i = first->info;

	rt = i->state;
	rt.enabled = 0;
	rt_live = first->head;
	snprintf(rt.config.logdir, sizeof(rt.config.logdir), "%s", o->logdir);
	/* Its variables as the log reads them: the environment of this process is left alone. */
	rt_log_env = i->env;
	rt_log_env_len = i->env_len;
	rt_log_args = i->args;
	rt_log_args_len = i->args_len;
}

/* The job region (take_job()'s), marked partial with how it ended (h), and the log published. */
static int publish(struct ioa_log_writer *w, const struct rt_live *h, const int *ranks, size_t n,
		   const char *hosts, size_t hosts_len, const uint32_t *rank_nodes, uint32_t nnodes,
		   uint64_t until_first, uint64_t until_last, const struct options *o)
{
	struct ioa_buf partial = IOA_BUF_INIT(1 << 20), list = IOA_BUF_INIT(1 << 20);
	char line[128];
	int rc, nprocs = 0, r;
	size_t k;

	for (k = 0; k < n; k++)
		nprocs = ranks[k] + 1 > nprocs ? ranks[k] + 1 : nprocs;
	if (rt.nprocs < nprocs)
		rt.nprocs = nprocs;
	rt_log_end_ns = until_last;
	snprintf(line, sizeof(line), "how=%s\n", how_of(h));
	rc = ioa_buf_add(&partial, line, strlen(line));
	if (h->end == RT_END_SIGNAL)
		snprintf(line, sizeof(line), "signal=%d\n", h->end_signal);
	else if (h->end == RT_END_ABORT)
		snprintf(line, sizeof(line), "abort_code=%d\n", h->end_code);
	else
		line[0] = '\0';
	rc = rc ? rc : ioa_buf_add(&partial, line, strlen(line));
	if (!rc && o->reason) {
		for (k = 0; o->reason[k] && k < 200; k++)
			line[k] = o->reason[k] == '\n' ? ' ' : o->reason[k];
		line[k] = '\0';
		rc = ioa_buf_addf(&partial, "reason=%s\n", line);
	}
	rank_list(&list, ranks, n);
	if (!rc)
		rc = ioa_buf_addf(&partial, "ranks=%.*s\n", (int)list.len, list.data);
	ioa_buf_reset(&list);
	{
		int *missing = calloc((size_t)rt.nprocs + 1, sizeof(*missing));
		size_t nmissing = 0, at = 0;

		for (r = 0; missing && r < rt.nprocs; r++) {
			while (at < n && ranks[at] < r)
				at++;
			if (at == n || ranks[at] != r)
				missing[nmissing++] = r;
		}
		rank_list(&list, missing, nmissing);
		free(missing);
	}
	if (!rc && list.len)
		rc = ioa_buf_addf(&partial, "missing=%.*s\n", (int)list.len, list.data);
	if (!rc)
		rc = ioa_buf_addf(&partial, "until_first_ns=%llu\nuntil_last_ns=%llu\n",
				  (unsigned long long)until_first, (unsigned long long)until_last);
	if (!rc)
		rc = ioa_buf_add(&partial, "", 1);
	ioa_buf_reset(&list);
	rank_list(&list, ranks, n);
	if (!rc)
		rc = ioa_buf_add(&list, "", 1);
	rt_log_partial = partial.data;
	rt_log_ranks = list.data;
	if (!rc && !o->dry_run)
		rc = rt_log_pack_job(w, hosts, hosts_len, rank_nodes, nnodes);
	if (!rc && !o->dry_run)
		rc = rt_log_write(w);
	if (!rc)
		printf("%s: ranks %s, %s\n", o->dry_run ? "would recover" : "recovered", list.data,
		       how_of(h));
	rt_log_partial = rt_log_ranks = NULL;
	ioa_buf_release(&partial);
	ioa_buf_release(&list);
	return rc;
}

/* The spills of a folder: its owner's files that pass rt_recover_head(). */
struct spills {
	struct spill *v;
	size_t n, left; /* spills; files left alone */
	time_t newest;	/* the latest write to any of them */
};

/* Reads the folder's spills; -E2BIG past MAX_SPILLS (nothing is taken then). */
static int read_spills(const char *dir, int dfd, uid_t owner, struct spills *sp)
{
	int copy = dup(dfd), rc = 0;
	DIR *d = copy >= 0 ? fdopendir(copy) : NULL;
	struct dirent *e;

	sp->v = calloc(MAX_SPILLS, sizeof(*sp->v));
	if (!d || !sp->v) {
		if (!d && copy >= 0)
			close(copy);
		if (d)
			closedir(d);
		return -ENOMEM;
	}
	while (!rc && (e = readdir(d))) {
		struct spill *s = &sp->v[sp->n];
		struct stat st;
		int fd, why;

		if (e->d_name[0] == '.')
			continue;
		if (sp->n == MAX_SPILLS) {
			rc = -E2BIG;
			break;
		}
		/* O_NONBLOCK: a FIFO in the folder never holds recover up. */
		fd = openat(dfd, e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		s->head = malloc(sizeof(*s->head));
		s->info = malloc(sizeof(*s->info));
		if (fstat(fd, &st) || !s->head || !s->info)
			why = -EINVAL;
		else if (st.st_uid != owner)
			why = -EPERM;
		else
			why = rt_recover_head(fd, s->head, s->info);
		close(fd);
		if (!why) {
			snprintf(s->name, sizeof(s->name), "%s", e->d_name);
			s->mtime = st.st_mtime;
			if (st.st_mtime > sp->newest)
				sp->newest = st.st_mtime;
			sp->n++;
			continue;
		}
		fprintf(stderr, "ioatlas recover: spill '%s/%s' left alone: %s\n", dir, e->d_name,
			why == -EPROTO	  ? "written by another ioatlas build"
			: why == -ENODATA ? "its process had not started it"
			: why == -EPERM	  ? "not the folder owner's"
					  : "not a spill");
		free(s->head);
		free(s->info);
		s->head = NULL;
		s->info = NULL;
		sp->left++;
	}
	closedir(d);
	return rc;
}

/*
 * Whether the folder's processes are gone: 1 still running (or not known
 * to be gone yet), 0 gone by their host's or the batch system's word, 2
 * gone by the age of their spills alone (another host, no batch system
 * to ask): recovered then, but the spills are kept, as the process may
 * yet live (a job that computes for hours without recording anything).
 */
static int folder_gone(const struct spills *sp, const struct options *o)
{
	const struct rt_spill_info *remote = NULL;
	size_t i;

	for (i = 0; i < sp->n; i++) {
		int alive;

		if (sp->v[i].head->end == RT_END_CLEAN)
			continue;
		alive = process_alive(sp->v[i].info);
		if (alive == 1)
			return 1;
		if (alive < 0 && !remote)
			remote = sp->v[i].info;
	}
	if (!remote || o->job)
		return 0;
	/* Of another host: the batch system's word where it answers (once a folder), else the age.
	 */
	switch (slurm_job_listed(remote)) {
	case 1:
		return 1;
	case 0:
		return 0;
	default:
		return time(NULL) - sp->newest < o->older_than ? 1 : 2;
	}
}

/*
 * Whether the folder holds only ranks that handed their records to the
 * rank writing the log at MPI_Finalize, that rank not among them (its
 * folder is another node's): the job's log has them.  Where the writer's
 * spill is here too, it was killed before it published: all are taken.
 */
static int handed_over(const struct spills *sp)
{
	size_t i;

	for (i = 0; i < sp->n; i++)
		if (sp->v[i].head->end != RT_END_HANDED || sp->v[i].info->state.rank == 0)
			return 0;
	return 1;
}

/*
 * A process tree's processes all said rank 0 while they ran (their ranks
 * come at the tree's end): numbered here, the root first, then by start.
 */
static int tree_cmp(const void *a, const void *b)
{
	const struct rt_state *x = &((const struct spill *)a)->info->state,
			      *y = &((const struct spill *)b)->info->state;

	if (x->tree_root != y->tree_root)
		return y->tree_root - x->tree_root;
	return (x->start_real_ns > y->start_real_ns) - (x->start_real_ns < y->start_real_ns);
}

static void number_tree(struct spills *sp)
{
	size_t i;

	qsort(sp->v, sp->n, sizeof(*sp->v), tree_cmp);
	for (i = 0; i < sp->n; i++) {
		sp->v[i].info->state.rank = (int)i;
		sp->v[i].info->state.nprocs = (int)sp->n;
	}
}

/*
 * Whether this folder's log was made already (by the collector's account,
 * which cannot remove another user's spills, or by a recovery stopped
 * before it removed them) from spills no newer than it: the log's name,
 * a regular file of the folder's owner or of this account.  A name
 * another user took in the day folder is not a log of this job.
 */
static int recovered_before(const struct spills *sp, uid_t owner, char *path, size_t len)
{
	struct stat st;

	return !rt_log_first_path(path, len) && !lstat(path, &st) && S_ISREG(st.st_mode) &&
	       (st.st_uid == owner || st.st_uid == geteuid()) && st.st_mtime >= sp->newest;
}

/* The ranks' regions into w; their ranks, nodes and times for the job region. */
struct taken {
	int *ranks;
	size_t n;
	uint32_t *rank_nodes, nnodes;
	struct ioa_buf hosts;
	uint64_t until_first, until_last;
	uint64_t job_start_ns; /* the earliest start, or the tree root's: the job's clock */
};

static int take_ranks(const char *dir, int dfd, struct spills *sp, struct ioa_log_writer *w,
		      struct taken *t, const struct options *o)
{
	size_t i;

	t->ranks = calloc(sp->n, sizeof(*t->ranks));
	t->rank_nodes =
		calloc((size_t)sp->v[sp->n - 1].info->state.rank + 1, sizeof(*t->rank_nodes));
	if (!t->ranks || !t->rank_nodes)
		return -ENOMEM;
	t->until_first = UINT64_MAX;
	for (i = 0; i < sp->n; i++) {
		const struct rt_state *st = &sp->v[i].info->state;
		uint64_t start =
			st->tree[0] && st->tree_start_ns ? st->tree_start_ns : st->start_real_ns;

		if (!t->job_start_ns || start < t->job_start_ns)
			t->job_start_ns = start;
	}
	for (i = 0; i < sp->n; i++) {
		struct spill *s = &sp->v[i];
		const char *p = t->hosts.data;
		uint64_t until = 0;
		uint32_t k;
		int rc;

		if (s->head->end == RT_END_CLEAN ||
		    (t->n && t->ranks[t->n - 1] == s->info->state.rank))
			continue;
		rc = o->dry_run ? 0 : recover_spill(dfd, s, w, t->job_start_ns, &until);
		if (rc) {
			fprintf(stderr, "ioatlas recover: rank %d of '%s' is left out: %s\n",
				s->info->state.rank, dir, strerror(-rc));
			continue;
		}
		t->ranks[t->n++] = s->info->state.rank;
		t->until_first = until < t->until_first ? until : t->until_first;
		t->until_last = until > t->until_last ? until : t->until_last;
		/* Node numbers by host, in rank order. */
		for (k = 0; k < t->nnodes; k++, p += strlen(p) + 1)
			if (!strcmp(p, s->info->host))
				break;
		if (k == t->nnodes &&
		    !ioa_buf_add(&t->hosts, s->info->host, strlen(s->info->host) + 1))
			t->nnodes++;
		t->rank_nodes[s->info->state.rank] = k < t->nnodes ? k : 0;
	}
	if (t->until_first == UINT64_MAX)
		t->until_first = t->until_last;
	return t->n ? 0 : -EPROTO;
}

/*
 * One job folder (descriptor dfd, named dir, owned by owner) into one log;
 * 1 when it is not to be taken now.  Only the owner's files are spills.
 */
static int recover_dir(const char *dir, int dfd, uid_t owner, const struct options *o)
{
	struct spills sp = {0};
	struct taken t = {.hosts = IOA_BUF_INIT(1 << 20)};
	struct ioa_log_writer w;
	char path[PATH_MAX];
	int rc, gone = 0;
	size_t i;

	ioa_logw_init(&w, (size_t)1 << 31);
	/* One recovery of a folder at a time: the epilog runs on every node of a job. */
	if (flock(dfd, LOCK_EX | LOCK_NB) && errno == EWOULDBLOCK) {
		printf("%s: being recovered elsewhere, left alone\n", dir);
		rc = 1;
		goto out;
	}
	rc = read_spills(dir, dfd, owner, &sp);
	if (rc == -E2BIG)
		fprintf(stderr, "ioatlas recover: '%s' holds more than %d files: left alone\n", dir,
			MAX_SPILLS);
	if (rc)
		goto out;
	if (!sp.n) {
		/* Nothing to take: an empty folder goes, what is there stays for a look. */
		if (!sp.left && !o->dry_run)
			unlinkat(AT_FDCWD, dir, AT_REMOVEDIR);
		goto out;
	}
	gone = folder_gone(&sp, o);
	if (gone == 1) {
		printf("%s: still running, left alone\n", dir);
		rc = 1;
		goto out;
	}
	if (handed_over(&sp)) {
		printf("%s: its ranks handed their records to the log writer at MPI_Finalize\n",
		       dir);
		goto remove;
	}
	if (sp.v[0].info->state.tree[0])
		number_tree(&sp);
	else
		qsort(sp.v, sp.n, sizeof(*sp.v), spill_cmp);
	take_job(&sp.v[0], o);
	if (recovered_before(&sp, owner, path, sizeof(path))) {
		printf("%s: recovered before, as '%s'\n", dir, path);
		goto remove;
	}
	rc = take_ranks(dir, dfd, &sp, &w, &t, o);
	rt_log_job_start_ns = t.job_start_ns;
	rt_log_clock = "base=wall";
	if (!rc)
		rc = publish(&w, job_end(sp.v, sp.n), t.ranks, t.n, t.hosts.data, t.hosts.len,
			     t.rank_nodes, t.nnodes, t.until_first, t.until_last, o);
	if (rc)
		goto out;
remove:
	/* Gone by age alone, the process may yet live: its spills stay. */
	if (!o->dry_run && gone != 2) {
		for (i = 0; i < sp.n; i++)
			unlinkat(dfd, sp.v[i].name, 0);
		/* Files left alone keep the folder, for a look. */
		if (!sp.left && unlinkat(AT_FDCWD, dir, AT_REMOVEDIR) && errno != ENOENT)
			fprintf(stderr, "ioatlas recover: cannot remove '%s': %s\n", dir,
				strerror(errno));
	}
out:
	rt_live = NULL;
	rt_log_env = NULL;
	for (i = 0; sp.v && i < sp.n; i++)
		free(sp.v[i].head), free(sp.v[i].info);
	free(sp.v);
	free(t.ranks);
	free(t.rank_nodes);
	ioa_buf_release(&t.hosts);
	ioa_logw_release(&w);
	return rc;
}

/*
 * One job folder in a process of its own, so that nothing of another
 * folder's is in its memory (which the spills' children inherit).  As
 * root it first becomes the folder's owner, so the log is theirs as their
 * own would have been; as the collector's account (another user's folder
 * it may read through the log group) it writes the log itself, for the
 * folder's owner: the files' owner, never what they say.  0 (done, or
 * left for later), or -EIO.
 */
static int recover_folder(const char *dir, int dfd, const struct stat *st, const struct options *o)
{
	struct passwd pw, *found = NULL;
	char buf[4096];
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (geteuid() == 0 && st->st_uid != 0) {
			if (getpwuid_r(st->st_uid, &pw, buf, sizeof(buf), &found) || !found)
				found = NULL;
			if ((found ? initgroups(found->pw_name, found->pw_gid)
				   : setgroups(0, NULL)) ||
			    setgid(found ? found->pw_gid : st->st_gid) || setuid(st->st_uid) ||
			    !setuid(0)) {
				fprintf(stderr,
					"ioatlas recover: cannot become the owner of '%s'\n", dir);
				_exit(2);
			}
		} else if (st->st_uid != geteuid()) {
			rt_log_uid = st->st_uid;
		}
		status = recover_dir(dir, dfd, st->st_uid, o) < 0 ? 1 : 0;
		fflush(stdout);
		fflush(stderr);
		_exit(status);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

static int job_matches(const char *name, const char *job)
{
	size_t len = strlen(job);

	/* .live-<job>[.<step>][.a<task>]-<launch> */
	return !strncmp(name + 6, job, len) && (name[6 + len] == '-' || name[6 + len] == '.');
}

/* The job folders of one day folder. */
static int recover_day(const char *day, const struct options *o, int *failed)
{
	DIR *d = opendir(day);
	struct dirent *e;
	int found = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char dir[PATH_MAX];
		struct stat st;
		int dfd, rc;

		if (strncmp(e->d_name, ".live-", 6) || (o->job && !job_matches(e->d_name, o->job)))
			continue;
		if ((size_t)snprintf(dir, sizeof(dir), "%s/%.255s", day, e->d_name) >= sizeof(dir))
			continue;
		dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (dfd < 0 || fstat(dfd, &st)) {
			if (dfd >= 0)
				close(dfd);
			continue;
		}
		found++;
		/* Another user's folder this account cannot read is theirs, or root's, to recover.
		 */
		if (st.st_uid == geteuid() || geteuid() == 0 ||
		    !faccessat(dfd, ".", R_OK | X_OK, AT_EACCESS))
			rc = recover_folder(dir, dfd, &st, o);
		else
			rc = 0;
		if (rc < 0) {
			fprintf(stderr, "ioatlas recover: cannot recover '%s': %s\n", dir,
				strerror(-rc));
			(*failed)++;
		}
		close(dfd);
	}
	closedir(d);
	return found;
}

static void usage(FILE *out)
{
	fprintf(out, "usage: ioatlas recover [--job ID] [--reason TEXT] [--older-than SECONDS]\n"
		     "                       [--days N] [--dry-run] [LOGDIR]\n"
		     "Turns what killed jobs left in the log tree into logs marked partial.\n");
}

static long number(const char *s, const char *what)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end || v < 0) {
		fprintf(stderr, "ioatlas recover: %s must be a number of 0 or more, not '%s'\n",
			what, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"job", required_argument, NULL, 'j'},
		{"reason", required_argument, NULL, 'r'},
		{"older-than", required_argument, NULL, 'o'},
		{"days", required_argument, NULL, 'd'},
		{"dry-run", no_argument, NULL, 'n'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct options o = {.older_than = 3600, .days = 14};
	struct rt_config conf;
	time_t now = time(NULL);
	int c, failed = 0;
	long day;

	ioa_log_set_progname("ioatlas recover");
	while ((c = ioa_getopt(argc, argv, "j:r:o:d:nh", longopts)) != -1) {
		switch (c) {
		case 'j':
			o.job = optarg;
			break;
		case 'r':
			o.reason = optarg;
			break;
		case 'o':
			o.older_than = number(optarg, "--older-than");
			break;
		case 'd':
			o.days = number(optarg, "--days");
			break;
		case 'n':
			o.dry_run = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind > 1) {
		usage(stderr);
		return 2;
	}
	if (o.job && (!*o.job || strchr(o.job, '/'))) {
		fprintf(stderr, "ioatlas recover: '%s' is not a job id\n", o.job);
		return 2;
	}
	rt_config_load(&conf);
	o.logdir = optind < argc ? argv[optind] : conf.logdir;
	/* Days by their names, the newest first, back to --days ago (and tomorrow's, by UTC). */
	for (day = -1; day <= o.days; day++) {
		time_t t = now - day * 86400;
		struct tm tm;
		char path[PATH_MAX];

		gmtime_r(&t, &tm);
		if ((size_t)snprintf(path, sizeof(path), "%.4000s/%04d/%02d/%02d", o.logdir,
				     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday) >= sizeof(path))
			return 2;
		recover_day(path, &o, &failed);
	}
	return failed ? 1 : 0;
}
