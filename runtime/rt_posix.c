/*
 * rt_posix — POSIX module handlers (see rt_posix.h).  The counter logic
 * follows Darshan's definitions so that the numbers mean the same thing:
 * a read or write is "consecutive" when it starts at the byte after the
 * previous one of its kind ended, "sequential" when it starts beyond it;
 * strides are the gaps between accesses; times do not double-count
 * overlapping calls from several threads.
 */
#define _GNU_SOURCE
#include "rt_posix.h"
#include "rt_spill.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_core.h"
#include "rt_records.h"
#include "rt_trace.h"

/* Descriptors above this are not tracked (counted in rt_live->posix_untracked_fds). */
#define RT_MAX_FDS 4096

/* An open file description: what dup'ed descriptors share. */
struct rt_desc {
	struct rt_record *rec;
	int64_t offset;
	int append; /* opened O_APPEND: writes land at the end, wherever offset was */
	int refs;
	struct rt_desc *next_free;
};

static struct rt_desc **fds;
static struct rt_desc *free_descs;

/*
 * Reads, writes and seeks are recorded in two steps.  The wrapper only
 * queues the call (its descriptor, result, errno and times); the queue is
 * applied to the records and the trace, in order, when it is full and
 * whenever anything else takes the lock (rt_lock()), so that under the lock
 * every record is current.  Where the kernel isolates its page tables
 * without PCID, the system call between two calls flushes the TLB, and each
 * page a wrapper touches after it costs a page walk: a queued call touches
 * the queue's page (which also says which descriptors' calls may wait)
 * instead of the dozen pages of its descriptor, its record, the trace and
 * their tables, which the queue's calls then walk once
 * (docs/performance.md, "Calls recorded in batches").  The queue is in the
 * arena: a job killed with calls waiting has them applied by
 * `ioatlas recover`.  Calls that cannot wait are applied at once, after the
 * queue: inside an MPI-IO or HDF5 call (tied to it by thread-local state),
 * and writes to a file opened O_APPEND (whose offset is asked of the kernel
 * at the call).  A run of alike calls in the queue moves the counters once
 * (io_apply_run()).
 */
#define RT_QUEUE_CALLS 64

enum { CALL_READ, CALL_WRITE, CALL_SEEK };

struct rt_posix_call {
	int64_t offset; /* RT_AT_CURRENT: the description's position */
	int64_t ret;	/* bytes, or a seek's new offset; -1 failed */
	double t0, t1;
	int32_t fd, err;
	uint16_t op; /* enum rt_posix_op */
	uint8_t kind, mem_aligned;
};

/* One page of the arena. */
struct rt_posix_queue {
	uint32_t n;    /* calls queued (first: rt.queued points here) */
	uint32_t done; /* of them, applied (a process killed while applying them) */
	/* Descriptors whose calls may wait: tracked, and not opened O_APPEND. */
	uint64_t may_wait[RT_MAX_FDS / 64];
	struct rt_posix_call call[RT_QUEUE_CALLS];
};
_Static_assert(sizeof(struct rt_posix_queue) <= 4096, "the queue is one page");

/* The queue, through rt.queued: on the page every call reads. */
static inline struct rt_posix_queue *queue_of(void)
{
	return (struct rt_posix_queue *)(void *)rt.queued;
}

/* The calls' names, for the records and the trace. */
#define RT_POSIX_NAME(ret, name, ...) #name,
static const char *const op_names[RT_POSIX_NOPS] = {RT_POSIX_CALLS(RT_POSIX_NAME)};
#undef RT_POSIX_NAME

void rt_posix_forget(void)
{
	fds = NULL;
	free_descs = NULL;
	rt.queued = NULL;
}

int rt_posix_init(void)
{
	struct rt_posix_queue *queue;

	fds = rt_arena_alloc(&rt.arena, RT_MAX_FDS * sizeof(*fds));
	queue = rt_arena_alloc_aligned(&rt.arena, sizeof(*queue), 4096);
	if (!fds || !queue)
		return -1;
	rt_live->posix_fds = fds;
	rt_live->posix_queue = queue;
	rt.queued = &queue->n;
	return 0;
}

void rt_posix_adopt(void)
{
	struct rt_posix_queue *queue = rt_live->posix_queue;

	fds = rt_live->posix_fds;
	rt.queued = queue ? &queue->n : NULL;
}

/* Whether fd's calls may wait in the queue, as its description says. */
static void may_wait(int fd, int yes)
{
	uint64_t bit = (uint64_t)1 << (fd & 63);

	if (yes)
		queue_of()->may_wait[fd >> 6] |= bit;
	else
		queue_of()->may_wait[fd >> 6] &= ~bit;
}

int rt_iov_aligned(const struct iovec *iov, int iovcnt)
{
	int i;

	for (i = 0; i < iovcnt; i++)
		if (!rt_mem_aligned(iov[i].iov_base))
			return 0;
	return 1;
}

/* Removes "." and empty components and resolves ".." lexically, in place. */
static size_t clean_path(char *path, size_t len)
{
	size_t in = 0, out = 0;

	while (in < len) {
		size_t start, n;

		while (in < len && path[in] == '/')
			in++;
		start = in;
		while (in < len && path[in] != '/')
			in++;
		n = in - start;
		if (n == 0 || (n == 1 && path[start] == '.'))
			continue;
		if (n == 2 && path[start] == '.' && path[start + 1] == '.') {
			while (out > 0 && path[out - 1] != '/')
				out--;
			if (out > 0)
				out--;
			continue;
		}
		path[out++] = '/';
		memmove(path + out, path + start, n);
		out += n;
	}
	if (out == 0)
		path[out++] = '/';
	path[out] = '\0';
	return out;
}

size_t rt_mpi_file_path(const char *given, char *out, size_t out_len)
{
	int saved_errno = errno; /* getcwd may set it */
	size_t len;

	if (given && strchr(given, ':') && strchr(given, ':') < strchr(given, '/'))
		given = strchr(given, ':') + 1;
	len = rt_abs_path(AT_FDCWD, given, out, out_len);
	errno = saved_errno;
	return len;
}

size_t rt_abs_path(int dirfd, const char *path, char *out, size_t out_len)
{
	size_t base_len = 0, path_len;

	if (!path || !*path)
		return 0;
	path_len = strlen(path);
	if (path[0] != '/') {
		if (dirfd == AT_FDCWD) {
			if (!getcwd(out, out_len))
				return 0;
			base_len = strlen(out);
		} else {
			char link[64];
			ssize_t n;

			snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd);
			n = readlink(link, out, out_len - 1);
			if (n <= 0)
				return 0;
			base_len = (size_t)n;
		}
		if (base_len + 1 >= out_len)
			return 0;
		out[base_len++] = '/';
	}
	if (base_len + path_len >= out_len)
		return 0;
	memcpy(out + base_len, path, path_len + 1);
	return clean_path(out, base_len + path_len);
}

/* The record for a path, or NULL when the path is excluded or unusable. */
static struct rt_record *path_record(int dirfd, const char *path)
{
	char abs[PATH_MAX];
	size_t len = rt_abs_path(dirfd, path, abs, sizeof(abs));

	if (!len || !rt_config_path_recorded(&rt.config, abs))
		return NULL;
	return rt_record_get(IOA_MOD_POSIX, abs, len);
}

size_t rt_fd_path(int fd, char *out, size_t out_len)
{
	static const char deleted[] = " (deleted)";
	size_t tail = sizeof(deleted) - 1;
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, out, out_len - 1);
	if (n <= 0 || out[0] != '/')
		return 0;
	if ((size_t)n > tail && !memcmp(out + n - tail, deleted, tail))
		n -= (ssize_t)tail;
	out[n] = '\0';
	return (size_t)n;
}

int rt_path_missing(const char *path)
{
	int saved = errno;
	int missing = path && syscall(SYS_faccessat, AT_FDCWD, path, F_OK) < 0 && errno == ENOENT;

	errno = saved;
	return missing;
}

int rt_path_is_dir(const char *path)
{
	struct stat st;
	int saved = errno;
	int dir = path && syscall(SYS_newfstatat, AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		  S_ISDIR(st.st_mode);

	errno = saved;
	return dir;
}

struct rt_record *rt_unnamed_record(enum ioa_module module, char *name, size_t len,
				    size_t name_size)
{
	size_t base = len, k;

	if (!len || !rt_config_path_recorded(&rt.config, name))
		return NULL;
	/* No one reopens a file without a name: a record with its name was another file. */
	for (k = 2; k < 1000 && rt_record_find(module, rt_record_id(name, len)); k++) {
		int n = snprintf(name + base, name_size - base, "~%zu", k);

		if (n < 0 || (size_t)n >= name_size - base) {
			name[base] = '\0';
			len = base;
			break;
		}
		len = base + (size_t)n;
	}
	return rt_record_get(module, name, len);
}

/* The record of the file an unnamed descriptor is open on (O_TMPFILE), or NULL. */
static struct rt_record *fd_path_record(int fd)
{
	char name[PATH_MAX];
	size_t len = rt_fd_path(fd, name, sizeof(name));

	return rt_unnamed_record(IOA_MOD_POSIX, name, len, sizeof(name));
}

/*
 * The file at rec's path is gone (unlink, rmdir, remove, renamed away or
 * over): so is what counted as written, for POSIX and STDIO alike.
 */
static void file_removed(struct rt_record *rec)
{
	struct rt_record *stdio = rt_record_find(IOA_MOD_STDIO, rec->id);

	rec->flags |= IOA_REC_REMOVED;
	rt_extents_cut(&rec->written, 0);
	if (stdio)
		stdio->flags |= IOA_REC_REMOVED;
}

static struct rt_desc *desc_of(int fd)
{
	return fd >= 0 && fd < RT_MAX_FDS && fds ? fds[fd] : NULL;
}

struct rt_record *rt_posix_fd_record(int fd)
{
	struct rt_desc *d = desc_of(fd);

	return d ? d->rec : NULL;
}

static void desc_unref(int fd)
{
	struct rt_desc *d = desc_of(fd);

	if (!d)
		return;
	fds[fd] = NULL;
	may_wait(fd, 0);
	if (--d->refs == 0) {
		d->next_free = free_descs;
		free_descs = d;
	}
}

/* A new open file description, recycled when one is free. */
static struct rt_desc *desc_new(struct rt_record *rec)
{
	struct rt_desc *d = free_descs;

	if (d)
		free_descs = d->next_free;
	else
		d = rt_arena_alloc(&rt.arena, sizeof(*d));
	if (!d) {
		rt_live->posix_untracked_fds++;
		return NULL;
	}
	memset(d, 0, sizeof(*d));
	d->rec = rec;
	return d;
}

static void desc_attach(int fd, struct rt_desc *d)
{
	if (fd < 0 || fd >= RT_MAX_FDS) {
		rt_live->posix_untracked_fds++;
		return;
	}
	desc_unref(fd); /* a descriptor reused without our seeing its close */
	fds[fd] = d;
	may_wait(fd, !d->append);
	d->refs++;
}

void rt_posix_open(const char *op, int dirfd, const char *path, int flags, mode_t mode, int created,
		   int fd, int err, double t0, double t1)
{
	/* An O_TMPFILE file has no name: it is known by the one /proc gives it. */
	int unnamed = (flags & O_TMPFILE) == O_TMPFILE && fd >= 0;
	struct rt_record *rec = unnamed ? fd_path_record(fd) : path_record(dirfd, path);
	struct rt_desc *d;

	if (!rec) {
		/* The number may still name a file recorded before, closed unseen. */
		desc_unref(fd);
		return;
	}
	created |= unnamed;
	if (fd < 0) {
		rt_record_failure(rec, IOA_MOD_POSIX, op, err);
		rt_trace_io(op, IOA_MOD_POSIX, rec, IOA_TR_FAILED, 0, 0, 0, err, t0, t1);
		return;
	}
	/* aux: 1 for a file opened to append, | 2 emptied (O_TRUNC: kernels replay it). */
	rt_trace_io(op, IOA_MOD_POSIX, rec, created ? IOA_TR_CREATE : 0, 0, 0,
		    ((flags & O_APPEND) ? 1 : 0) | ((flags & O_TRUNC) ? 2 : 0), 0, t0, t1);
	/* The file system's preferred block size is the file's alignment (as Darshan's). */
	if (!rec->counters[POSIX_OPENS]) {
		struct stat st;

		if (syscall(SYS_fstat, fd, &st) == 0 && st.st_blksize > 0)
			rec->counters[POSIX_FILE_ALIGNMENT] = st.st_blksize;
	}
	rec->counters[POSIX_OPENS]++;
	/*
	 * As Darshan: an open (not a dup or fileno) starts the file's sequence
	 * anew, so the first access after it is sequential and has no stride.
	 */
	rec->last_byte_read = 0;
	rec->last_byte_written = 0;
	/* As Darshan: the mode of the last open that gave one (an open without O_CREAT keeps it).
	 */
	if (flags & O_CREAT)
		rec->counters[POSIX_MODE] = mode;
	rt_set_first(&rec->fcounters[POSIX_F_OPEN_START_TIMESTAMP], t0);
	rt_set_last(&rec->fcounters[POSIX_F_OPEN_END_TIMESTAMP], t1);
	rt_add_time(&rec->fcounters[POSIX_F_META_TIME], &rec->meta_end, t0, t1);
	rec->flags &= ~IOA_REC_REMOVED;
	/* A new or emptied file: nothing in it counts as written before. */
	if (created || (flags & O_TRUNC))
		rt_extents_cut(&rec->written, 0);
	if (created) {
		rec->counters[POSIX_CREATES]++;
		rec->flags |= IOA_REC_CREATED;
	}
	if (unnamed)
		rec->flags |= IOA_REC_REMOVED;

	d = desc_new(rec);
	if (d) {
		d->append = (flags & O_APPEND) != 0;
		desc_attach(fd, d);
	}
}

void rt_posix_fd_gone(int fd)
{
	rt_lock();
	desc_unref(fd);
	rt_unlock();
}

struct rt_record *rt_posix_close_begin(int fd)
{
	struct rt_desc *d;
	struct rt_record *rec;

	rt_lock();
	d = desc_of(fd);
	rec = d ? d->rec : NULL;
	/* Even a failed close releases the descriptor on Linux. */
	desc_unref(fd);
	rt_unlock();
	return rec;
}

void rt_posix_close(const char *op, struct rt_record *rec, int ret, int err, double t0, double t1)
{
	if (!rec)
		return;
	rt_trace_io(op, IOA_MOD_POSIX, rec, ret < 0 ? IOA_TR_FAILED : 0, 0, 0, 0, ret < 0 ? err : 0,
		    t0, t1);
	if (ret < 0)
		rt_record_failure(rec, IOA_MOD_POSIX, op, err);
	rt_set_first(&rec->fcounters[POSIX_F_CLOSE_START_TIMESTAMP], t0);
	rt_set_last(&rec->fcounters[POSIX_F_CLOSE_END_TIMESTAMP], t1);
	rt_add_time(&rec->fcounters[POSIX_F_META_TIME], &rec->meta_end, t0, t1);
}

/* Whether an access at offset starts off the file's alignment (Darshan's test). */
static inline int file_not_aligned(const int64_t *c, int64_t offset)
{
	/* Block sizes are powers of two but for odd file systems: mask when we can. */
	return (c[POSIX_FILE_ALIGNMENT] & (c[POSIX_FILE_ALIGNMENT] - 1)
			? offset % c[POSIX_FILE_ALIGNMENT]
			: offset & (c[POSIX_FILE_ALIGNMENT] - 1)) != 0;
}

/* A read or write, on its description d. */
static void io_apply(struct rt_desc *d, const struct rt_posix_call *call)
{
	const char *op = op_names[call->op];
	struct rt_record *rec = d->rec;
	int64_t *c = rec->counters, this_offset, *last, stride;
	int64_t offset = call->offset, ret = call->ret;
	int is_write = call->kind == CALL_WRITE, err = call->err;
	double t0 = call->t0, t1 = call->t1, elapsed = t1 - t0;

	if (offset == RT_AT_CURRENT && is_write && d->append && ret > 0) {
		/* Appended at the end of the file, wherever the position was: ask it. */
		int saved = errno;
		long pos = syscall(SYS_lseek, call->fd, 0L, SEEK_CUR);

		errno = saved;
		if (pos >= ret)
			d->offset = pos - ret;
	}
	this_offset = offset == RT_AT_CURRENT ? d->offset : offset;
	if (ret < 0) {
		rt_record_failure(rec, IOA_MOD_POSIX, op, err);
		rt_trace_io(op, IOA_MOD_POSIX, rec,
			    IOA_TR_FAILED | (is_write ? IOA_TR_WRITE : IOA_TR_READ), this_offset, 0,
			    0, err, t0, t1);
		return;
	}
	rt_trace_io(op, IOA_MOD_POSIX, rec, is_write ? IOA_TR_WRITE : IOA_TR_READ, this_offset, ret,
		    0, 0, t0, t1);
	if (offset == RT_AT_CURRENT)
		d->offset += ret;
	last = is_write ? &rec->last_byte_written : &rec->last_byte_read;

	if (this_offset > *last)
		c[is_write ? POSIX_SEQ_WRITES : POSIX_SEQ_READS]++;
	if (this_offset == *last + 1)
		c[is_write ? POSIX_CONSEC_WRITES : POSIX_CONSEC_READS]++;
	/* As Darshan: the first access (last byte still 0) has no stride. */
	stride = this_offset > 0 && this_offset > *last && *last != 0 ? this_offset - *last - 1 : 0;
	*last = this_offset + ret - 1;

	if (c[is_write ? POSIX_MAX_BYTE_WRITTEN : POSIX_MAX_BYTE_READ] < this_offset + ret - 1)
		c[is_write ? POSIX_MAX_BYTE_WRITTEN : POSIX_MAX_BYTE_READ] = this_offset + ret - 1;
	c[is_write ? POSIX_BYTES_WRITTEN : POSIX_BYTES_READ] += ret;
	c[is_write ? POSIX_WRITES : POSIX_READS]++;
	rt_size_bin(c, is_write ? POSIX_SIZE_WRITE_0_100 : POSIX_SIZE_READ_0_100, ret);
	rt_values_add(&rec->access_sizes, ret);
	rt_bins_add(rec, t0, is_write, ret);
	/* As Darshan: stride 0 (no gap, or none yet) is counted among the values, never shown. */
	rt_values_add(&rec->strides, stride);
	if (!call->mem_aligned)
		c[POSIX_MEM_NOT_ALIGNED]++;
	c[POSIX_FILE_NOT_ALIGNED] += file_not_aligned(c, this_offset);
	if (rec->last_io == (is_write ? 1 : 2))
		c[POSIX_RW_SWITCHES]++;
	rec->last_io = is_write ? 2 : 1;

	if (is_write) {
		int64_t rewritten = 0;

		/* The overflow record holds many files: their ranges cannot be compared. */
		if (rec->flags & IOA_REC_FOLDED)
			c[POSIX_OVERWRITE_UNTRACKED_BYTES] += ret;
		else
			rewritten = rt_extents_add(&rec->written, this_offset, this_offset + ret,
						   &c[POSIX_OVERWRITE_UNTRACKED_BYTES]);

		if (rewritten) {
			c[POSIX_OVERWRITES]++;
			c[POSIX_OVERWRITE_BYTES] += rewritten;
			if (c[POSIX_OVERWRITE_FIRST_OFFSET] < 0)
				c[POSIX_OVERWRITE_FIRST_OFFSET] = this_offset;
		}
		rt_set_first(&rec->fcounters[POSIX_F_WRITE_START_TIMESTAMP], t0);
		rt_set_last(&rec->fcounters[POSIX_F_WRITE_END_TIMESTAMP], t1);
		rt_add_time(&rec->fcounters[POSIX_F_WRITE_TIME], &rec->write_end, t0, t1);
		if (rec->fcounters[POSIX_F_MAX_WRITE_TIME] < elapsed) {
			rec->fcounters[POSIX_F_MAX_WRITE_TIME] = elapsed;
			c[POSIX_MAX_WRITE_TIME_SIZE] = ret;
		}
	} else {
		rt_set_first(&rec->fcounters[POSIX_F_READ_START_TIMESTAMP], t0);
		rt_set_last(&rec->fcounters[POSIX_F_READ_END_TIMESTAMP], t1);
		rt_add_time(&rec->fcounters[POSIX_F_READ_TIME], &rec->read_end, t0, t1);
		if (rec->fcounters[POSIX_F_MAX_READ_TIME] < elapsed) {
			rec->fcounters[POSIX_F_MAX_READ_TIME] = elapsed;
			c[POSIX_MAX_READ_TIME_SIZE] = ret;
		}
	}
}

/*
 * How many of the queue's calls after call i continue it: the same read or
 * write on the same descriptor, of the same size, each where the one before
 * ended (a file read or written in order: most of what a queue holds).
 */
static uint32_t run_after(const struct rt_posix_queue *q, uint32_t i)
{
	const struct rt_posix_call *c = &q->call[i];
	uint32_t j;

	if (c->kind == CALL_SEEK || c->ret <= 0 || c->ret > (INT64_MAX >> 8))
		return 0;
	for (j = i + 1; j < q->n; j++) {
		const struct rt_posix_call *x = &q->call[j];

		if (x->fd != c->fd || x->kind != c->kind || x->op != c->op || x->ret != c->ret ||
		    x->mem_aligned != c->mem_aligned ||
		    (c->offset == RT_AT_CURRENT ? x->offset != RT_AT_CURRENT
						: x->offset != x[-1].offset + c->ret))
			break;
	}
	return j - i - 1;
}

/*
 * The n calls that continue the one just applied on d (run_after()): as n
 * io_apply() calls, but what they all do to the counters is done once.
 * Each starts where the one before ended: sequential, consecutive, of
 * stride 0.  A write rewrites nothing when the file's written ranges end
 * where the run starts (else each call is applied alone).  Their times,
 * alignment and trace go call by call, their time bins too when they span
 * more than one.
 */
static void io_apply_run(struct rt_desc *d, const struct rt_posix_call *call, uint32_t n)
{
	struct rt_record *rec = d->rec;
	struct rt_extents *e = &rec->written;
	int64_t *c = rec->counters, ret = call->ret, start, end;
	int is_write = call->kind == CALL_WRITE;
	double *first_ts, *last_ts, *total, *total_end, *max, t_lo, t_hi;
	uint32_t i;

	start = call->offset == RT_AT_CURRENT ? d->offset : call->offset;
	if (is_write && !(rec->flags & IOA_REC_FOLDED) &&
	    !(e->used && e->x[e->used - 1].end == start)) {
		for (i = 0; i < n; i++)
			io_apply(d, &call[i]);
		return;
	}
	end = start + (int64_t)n * ret;
	first_ts = &rec->fcounters[is_write ? POSIX_F_WRITE_START_TIMESTAMP
					    : POSIX_F_READ_START_TIMESTAMP];
	last_ts = &rec->fcounters[is_write ? POSIX_F_WRITE_END_TIMESTAMP
					   : POSIX_F_READ_END_TIMESTAMP];
	total = &rec->fcounters[is_write ? POSIX_F_WRITE_TIME : POSIX_F_READ_TIME];
	total_end = is_write ? &rec->write_end : &rec->read_end;
	max = &rec->fcounters[is_write ? POSIX_F_MAX_WRITE_TIME : POSIX_F_MAX_READ_TIME];
	t_lo = t_hi = call[0].t0;
	rt_trace_run(op_names[call->op], rec, is_write ? IOA_TR_WRITE : IOA_TR_READ, start, ret, n,
		     &call->t0, &call->t1, sizeof(*call));
	for (i = 0; i < n; i++) {
		int64_t offset = start + (int64_t)i * ret;
		double t0 = call[i].t0, t1 = call[i].t1;

		t_lo = t0 < t_lo ? t0 : t_lo;
		t_hi = t0 > t_hi ? t0 : t_hi;
		c[POSIX_FILE_NOT_ALIGNED] += file_not_aligned(c, offset);
		rt_set_first(first_ts, t0);
		rt_set_last(last_ts, t1);
		rt_add_time(total, total_end, t0, t1);
		if (*max < t1 - t0) {
			*max = t1 - t0;
			c[is_write ? POSIX_MAX_WRITE_TIME_SIZE : POSIX_MAX_READ_TIME_SIZE] = ret;
		}
	}
	if (!rt_bins_add_n(rec, t_lo, t_hi, is_write, ret, n))
		for (i = 0; i < n; i++)
			rt_bins_add(rec, call[i].t0, is_write, ret);
	if (call->offset == RT_AT_CURRENT)
		d->offset = end;
	c[is_write ? POSIX_SEQ_WRITES : POSIX_SEQ_READS] += n;
	c[is_write ? POSIX_CONSEC_WRITES : POSIX_CONSEC_READS] += n;
	*(is_write ? &rec->last_byte_written : &rec->last_byte_read) = end - 1;
	if (c[is_write ? POSIX_MAX_BYTE_WRITTEN : POSIX_MAX_BYTE_READ] < end - 1)
		c[is_write ? POSIX_MAX_BYTE_WRITTEN : POSIX_MAX_BYTE_READ] = end - 1;
	c[is_write ? POSIX_BYTES_WRITTEN : POSIX_BYTES_READ] += end - start;
	c[is_write ? POSIX_WRITES : POSIX_READS] += n;
	rt_size_bin_n(c, is_write ? POSIX_SIZE_WRITE_0_100 : POSIX_SIZE_READ_0_100, ret, n);
	rt_values_add_n(&rec->access_sizes, ret, n);
	rt_values_add_n(&rec->strides, 0, n);
	if (!call->mem_aligned)
		c[POSIX_MEM_NOT_ALIGNED] += n;
	if (is_write && (rec->flags & IOA_REC_FOLDED))
		c[POSIX_OVERWRITE_UNTRACKED_BYTES] += end - start;
	else if (is_write)
		e->x[e->used - 1].end = end;
}

/* A seek, on its description d. */
static void seek_apply(struct rt_desc *d, const struct rt_posix_call *call)
{
	const char *op = op_names[call->op];
	double t0 = call->t0, t1 = call->t1;

	if (call->ret < 0) {
		rt_record_failure(d->rec, IOA_MOD_POSIX, op, call->err);
		rt_trace_io(op, IOA_MOD_POSIX, d->rec, IOA_TR_FAILED, d->offset, 0, 0, call->err,
			    t0, t1);
		return;
	}
	rt_trace_io(op, IOA_MOD_POSIX, d->rec, 0, call->ret, 0, 0, 0, t0, t1);
	d->offset = call->ret;
	d->rec->counters[POSIX_SEEKS]++;
	rt_add_time(&d->rec->fcounters[POSIX_F_META_TIME], &d->rec->meta_end, t0, t1);
}

static void call_apply(const struct rt_posix_call *call)
{
	struct rt_desc *d = desc_of(call->fd);

	if (!d)
		return;
	if (call->kind == CALL_SEEK)
		seek_apply(d, call);
	else
		io_apply(d, call);
}

/*
 * Applies the queue.  Its calls were made outside any MPI-IO or HDF5 call,
 * whatever the thread applying them is inside of now.
 */
void rt_apply_queued(void)
{
	struct rt_posix_queue *queue = queue_of();
	uint64_t parent = rt_self()->trace_parent;
	unsigned under = rt_self()->trace_under;

	rt_self()->trace_parent = 0;
	rt_self()->trace_under = 0;
	while (queue->done < queue->n) {
		uint32_t i = queue->done, n;
		const struct rt_posix_call *c = &queue->call[i];
		struct rt_desc *d;

		call_apply(c);
		queue->done = i + 1;
		/* A call that starts no run (a seek after a read) leaves at the first test. */
		if (i + 1 < queue->n && c[1].kind == c->kind && c[1].fd == c->fd &&
		    (n = run_after(queue, i)) != 0) {
			if ((d = desc_of(c->fd)))
				io_apply_run(d, c + 1, n);
			queue->done = i + 1 + n;
		}
	}
	queue->n = queue->done = 0;
	rt_self()->trace_parent = parent;
	rt_self()->trace_under = under;
}

/*
 * Where a call on fd goes: the queue's next slot when it may wait, else
 * (inside an MPI-IO or HDF5 call, or a descriptor that may not wait) the
 * caller's own, made in place either way.
 */
RT_HOT static inline struct rt_posix_call *call_slot(struct rt_posix_queue *q, int fd,
						     struct rt_posix_call *own)
{
	if (__builtin_expect(fd >= 0 && fd < RT_MAX_FDS &&
				     (q->may_wait[fd >> 6] >> (fd & 63) & 1) &&
				     !rt_self()->trace_parent && !rt_self()->trace_under,
			     1))
		return &q->call[q->n];
	return own;
}

/*
 * The call made in its slot: queued, or, when it could not wait, applied
 * after the queue (a descriptor not tracked: nothing).
 */
RT_HOT static inline void call_made(struct rt_posix_queue *q, const struct rt_posix_call *call,
				    const struct rt_posix_call *own)
{
	if (__builtin_expect(call != own, 1)) {
		if (++q->n == RT_QUEUE_CALLS)
			rt_apply_queued();
		return;
	}
	if (!desc_of(call->fd))
		return;
	if (q->n)
		rt_apply_queued();
	call_apply(call);
}

/* Aligned to a page: the hot code starts here (rt_calls.h). */
RT_HOT __attribute__((aligned(4096))) void rt_posix_io(int op, int is_write, int fd, int64_t offset,
						       int64_t ret, int err, int mem_aligned,
						       double t0, double t1)
{
	struct rt_posix_queue *q = queue_of();
	struct rt_posix_call own, *call = call_slot(q, fd, &own);

	*call = (struct rt_posix_call){offset,
				       ret,
				       t0,
				       t1,
				       fd,
				       ret < 0 ? err : 0,
				       (uint16_t)op,
				       (uint8_t)(is_write ? CALL_WRITE : CALL_READ),
				       (uint8_t)(mem_aligned != 0)};
	call_made(q, call, &own);
}

RT_HOT void rt_posix_seek(int op, int fd, int64_t ret, int err, double t0, double t1)
{
	struct rt_posix_queue *q = queue_of();
	struct rt_posix_call own, *call = call_slot(q, fd, &own);

	*call = (struct rt_posix_call){0,	  ret, t0, t1, fd, ret < 0 ? err : 0, (uint16_t)op,
				       CALL_SEEK, 1};
	call_made(q, call, &own);
}

/*
 * The record a successful call on fd counted on, or NULL.  length: the
 * trace's (a truncate's new size; 0 for the other calls).
 */
static struct rt_record *fd_meta(const char *op, int fd, int counter, int64_t length, int failed,
				 int err, double t0, double t1)
{
	struct rt_desc *d = desc_of(fd);

	if (!d)
		return NULL;
	rt_trace_io(op, IOA_MOD_POSIX, d->rec, failed ? IOA_TR_FAILED : 0, 0, length, 0,
		    failed ? err : 0, t0, t1);
	if (failed) {
		rt_record_failure(d->rec, IOA_MOD_POSIX, op, err);
		return NULL;
	}
	d->rec->counters[counter]++;
	/* A sync waits for written data to reach storage: write time, as Darshan counts it. */
	if (counter == POSIX_FSYNCS || counter == POSIX_FDSYNCS)
		rt_add_time(&d->rec->fcounters[POSIX_F_WRITE_TIME], &d->rec->write_end, t0, t1);
	else
		rt_add_time(&d->rec->fcounters[POSIX_F_META_TIME], &d->rec->meta_end, t0, t1);
	return d->rec;
}

void rt_posix_fd_meta(const char *op, int fd, int counter, int failed, int err, double t0,
		      double t1)
{
	fd_meta(op, fd, counter, 0, failed, err, t0, t1);
}

/* The record a successful call on path counted on, or NULL. */
static struct rt_record *path_meta(const char *op, int dirfd, const char *path, int counter,
				   int64_t length, int failed, int err, double t0, double t1)
{
	struct rt_record *rec = path_record(dirfd, path);

	if (!rec)
		return NULL;
	if (failed) {
		rt_record_failure(rec, IOA_MOD_POSIX, op, err);
		rt_trace_io(op, IOA_MOD_POSIX, rec, IOA_TR_FAILED, 0, 0, 0, err, t0, t1);
		return NULL;
	}
	rt_trace_io(op, IOA_MOD_POSIX, rec,
		    counter == POSIX_UNLINKS || counter == POSIX_RMDIRS ? IOA_TR_REMOVE
		    : counter == POSIX_MKDIRS				? IOA_TR_CREATE
									: 0,
		    0, length, 0, 0, t0, t1);
	rec->counters[counter]++;
	rt_add_time(&rec->fcounters[POSIX_F_META_TIME], &rec->meta_end, t0, t1);
	if (counter == POSIX_UNLINKS || counter == POSIX_RMDIRS)
		file_removed(rec);
	else if (counter == POSIX_MKDIRS)
		rec->flags |= IOA_REC_CREATED;
	return rec;
}

void rt_posix_path_meta(const char *op, int dirfd, const char *path, int counter, int failed,
			int err, double t0, double t1)
{
	path_meta(op, dirfd, path, counter, 0, failed, err, t0, t1);
}

void rt_posix_ftruncate(const char *op, int fd, int64_t length, int failed, int err, double t0,
			double t1)
{
	struct rt_record *rec = fd_meta(op, fd, POSIX_TRUNCATES, length, failed, err, t0, t1);

	if (rec)
		rt_extents_cut(&rec->written, length);
}

void rt_posix_truncate(const char *op, const char *path, int64_t length, int failed, int err,
		       double t0, double t1)
{
	struct rt_record *rec =
		path_meta(op, AT_FDCWD, path, POSIX_TRUNCATES, length, failed, err, t0, t1);

	if (rec)
		rt_extents_cut(&rec->written, length);
}

void rt_posix_mktemp(const char *op, const char *path, int flags, int fd, int err, double t0,
		     double t1)
{
	if (fd < 0) {
		rt_record_failure(NULL, IOA_MOD_POSIX, op, err);
		return;
	}
	rt_posix_open(op, AT_FDCWD, path, O_RDWR | O_CREAT | O_EXCL | flags, S_IRUSR | S_IWUSR, 1,
		      fd, 0, t0, t1);
}

void rt_posix_mkdtemp(const char *op, const char *path, int err, double t0, double t1)
{
	if (!path) {
		rt_record_failure(NULL, IOA_MOD_POSIX, op, err);
		return;
	}
	path_meta(op, AT_FDCWD, path, POSIX_MKDIRS, 0, 0, 0, t0, t1);
}

void rt_posix_fileno(const char *op, const char *name, int fd, double t0, double t1)
{
	struct rt_desc *d = desc_of(fd);
	struct rt_record *rec;

	if (fd < 0)
		return;
	/* A descriptor already known (the stream was fdopen'ed) keeps its record. */
	if (d) {
		rec = d->rec;
	} else {
		/* Standard streams have no file name here. */
		if (!name || name[0] != '/')
			return;
		rec = path_record(AT_FDCWD, name);
		d = rec ? desc_new(rec) : NULL;
		if (!d)
			return;
		desc_attach(fd, d);
	}
	rt_trace_io(op, IOA_MOD_POSIX, rec, 0, 0, 0, 0, 0, t0, t1);
	rec->counters[POSIX_FILENOS]++;
	rec->counters[POSIX_OPENS]++;
	rt_add_time(&rec->fcounters[POSIX_F_META_TIME], &rec->meta_end, t0, t1);
}

void rt_posix_dup(const char *op, int oldfd, int newfd, int err, double t0, double t1)
{
	struct rt_desc *d = desc_of(oldfd);

	if (!d) {
		/* dup2 onto a recorded descriptor closes it, for a file not recorded. */
		if (newfd != oldfd)
			desc_unref(newfd);
		return;
	}
	if (newfd < 0) {
		rt_record_failure(d->rec, IOA_MOD_POSIX, op, err);
		rt_trace_io(op, IOA_MOD_POSIX, d->rec, IOA_TR_FAILED, 0, 0, 0, err, t0, t1);
		return;
	}
	if (newfd == oldfd)
		return;
	rt_trace_io(op, IOA_MOD_POSIX, d->rec, 0, 0, 0, 0, 0, t0, t1);
	d->rec->counters[POSIX_DUPS]++;
	d->rec->counters[POSIX_OPENS]++;
	rt_add_time(&d->rec->fcounters[POSIX_F_META_TIME], &d->rec->meta_end, t0, t1);
	desc_attach(newfd, d);
}

void rt_posix_setfl(const char *op, int fd, int flags, double t0, double t1)
{
	struct rt_desc *d = desc_of(fd);
	int append = (flags & O_APPEND) != 0, i;

	if (!d)
		return;
	/* A kernel sets the flag again (docs/log-format.md): the later calls land as the job's did.
	 */
	rt_trace_io(op, IOA_MOD_POSIX, d->rec, 0, F_SETFL, append, 0, 0, t0, t1);
	if (d->append == append)
		return;
	/* The calls queued before were made in the old mode: they were applied under the lock. */
	d->append = append;
	for (i = 0; i < RT_MAX_FDS; i++)
		if (fds[i] == d)
			may_wait(i, !d->append);
}

void rt_posix_rename(const char *op, int olddirfd, const char *old, int newdirfd, const char *new,
		     int exchange, int ret, int err, double t0, double t1)
{
	struct rt_record *from = path_record(olddirfd, old);
	struct rt_record *to = path_record(newdirfd, new);

	if (ret < 0) {
		rt_record_failure(from, IOA_MOD_POSIX, op, err);
		rt_trace_io(op, IOA_MOD_POSIX, from, IOA_TR_FAILED, 0, 0, 0, err, t0, t1);
		return;
	}
	rt_trace_io(op, IOA_MOD_POSIX, from, exchange ? 0 : IOA_TR_REMOVE, 0, 0, 0, 0, t0, t1);
	rt_trace_io(op, IOA_MOD_POSIX, to, exchange ? 0 : IOA_TR_CREATE, 0, 0, 0, 0, t0, t1);
	if (from) {
		from->counters[POSIX_RENAME_SOURCES]++;
		/* Exchanged (renameat2's RENAME_EXCHANGE): the name holds the other file. */
		if (exchange)
			rt_extents_cut(&from->written, 0);
		else
			file_removed(from);
		rt_add_time(&from->fcounters[POSIX_F_META_TIME], &from->meta_end, t0, t1);
	}
	if (to) {
		to->counters[POSIX_RENAME_TARGETS]++;
		/* Another file under this name now: its writes were counted on from. */
		rt_extents_cut(&to->written, 0);
		to->flags &= ~IOA_REC_REMOVED;
		if (from)
			to->counters[POSIX_RENAMED_FROM] = (int64_t)from->id;
	}
}
