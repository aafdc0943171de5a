/*
 * rt_posix — the POSIX module: what each kind of intercepted POSIX call
 * does to the records (Darshan's POSIX counters plus failures, creates,
 * removals and in-place rewrites), and the table from file descriptors to
 * open file descriptions (shared by dup'ed descriptors, as in the kernel,
 * so that offsets stay right).
 *
 * Handlers are called by the wrappers in rt_wrappers.c after the real call,
 * with the runtime lock held, the result, the errno it left (err, 0 on
 * success), and start and end times from rt_now().
 */
#ifndef RT_POSIX_H
#define RT_POSIX_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "ioa_counters.h"
#include "rt_calls.h"

#define RT_AT_CURRENT ((int64_t)-1)

/* The descriptor table and the queue, in the arena: 0, or -1 without memory. */
int rt_posix_init(void);
/* Forgets the descriptor table (a forked child of a tree, before rt_posix_init()). */
void rt_posix_forget(void);

/* created: this call created the file (learned by the wrapper, rt_wrappers.c). */
void rt_posix_open(const char *op, int dirfd, const char *path, int flags, mode_t mode, int created,
		   int fd, int err, double t0, double t1);
/*
 * Closing is two steps: the descriptor is forgotten (under the lock) before
 * the real close, since another thread may get the same number back the
 * moment it is closed; the time goes to its record afterwards.
 */
struct rt_record *rt_posix_close_begin(int fd);
void rt_posix_close(const char *op, struct rt_record *rec, int ret, int err, double t0, double t1);
/*
 * Reads, writes and seeks (op an enum rt_posix_op) are queued, and applied
 * to the records and the trace later, in order (rt_apply_queued(), rt_core.h).
 */
void rt_posix_io(int op, int is_write, int fd, int64_t offset, int64_t ret, int err,
		 int mem_aligned, double t0, double t1);
void rt_posix_seek(int op, int fd, int64_t ret, int err, double t0, double t1);
/* Takes the descriptor table and the queue from rt_live (a spill mapped to be recovered). */
void rt_posix_adopt(void);
void rt_posix_fd_meta(const char *op, int fd, int counter, int failed, int err, double t0,
		      double t1);
void rt_posix_path_meta(const char *op, int dirfd, const char *path, int counter, int failed,
			int err, double t0, double t1);
/* ftruncate and truncate: what was written at length and beyond no longer counts. */
void rt_posix_ftruncate(const char *op, int fd, int64_t length, int failed, int err, double t0,
			double t1);
void rt_posix_truncate(const char *op, const char *path, int64_t length, int failed, int err,
		       double t0, double t1);
/*
 * mkstemp and its kin made path (the filled-in template) and opened it
 * with flags besides O_RDWR | O_CREAT | O_EXCL: fd, or -1 and err.
 */
void rt_posix_mktemp(const char *op, const char *path, int flags, int fd, int err, double t0,
		     double t1);
/* mkdtemp made the folder path, or failed (path NULL) with err. */
void rt_posix_mkdtemp(const char *op, const char *path, int err, double t0, double t1);
/* fileno(stream) returned fd: fd now refers to the stream's file (name may be NULL). */
void rt_posix_fileno(const char *op, const char *name, int fd, double t0, double t1);
void rt_posix_dup(const char *op, int oldfd, int newfd, int err, double t0, double t1);
/*
 * fcntl(fd, F_SETFL, flags) succeeded: fd's description appends or not, as
 * flags say; traced with offset F_SETFL and length 1 when it appends.
 */
void rt_posix_setfl(const char *op, int fd, int flags, double t0, double t1);
/* exchange: both names stay, each now on the other's file (RENAME_EXCHANGE). */
void rt_posix_rename(const char *op, int olddirfd, const char *old, int newdirfd, const char *new,
		     int exchange, int ret, int err, double t0, double t1);

/* Buffer alignment checks used by the call table's IO lines. */
static inline int rt_mem_aligned(const void *buf)
{
	return ((uintptr_t)buf & 7) == 0;
}

int rt_iov_aligned(const struct iovec *iov, int iovcnt);

/*
 * Makes an absolute, lexically clean path of (dirfd, path) in out (size
 * out_len).  Returns its length, or 0 when it cannot (too long, unknown
 * directory descriptor).
 */
size_t rt_abs_path(int dirfd, const char *path, char *out, size_t out_len);

/*
 * The same for a file name given to MPI-IO or to a library above it (HDF5,
 * PnetCDF), without the "driver:" prefix ROMIO accepts ("ufs:/path");
 * errno kept.
 */
size_t rt_mpi_file_path(const char *given, char *out, size_t out_len);

/*
 * The name of the file fd is open on, from /proc/self/fd, in out (size
 * out_len), without the " (deleted)" the kernel adds once it has no name:
 * "/tmp/#1234" for an O_TMPFILE file of /tmp.  Returns its length, or 0.
 */
size_t rt_fd_path(int fd, char *out, size_t out_len);

/*
 * The record of a file without a name, called name (length len, in a
 * buffer of name_size bytes: rt_fd_path's), or name~2, name~3 ... when a
 * record of that name exists (the kernel gave an earlier one the same
 * number); NULL when the name is excluded.  Under the lock.
 */
struct rt_record *rt_unnamed_record(enum ioa_module module, char *name, size_t len,
				    size_t name_size);

/* Whether path is known to be missing (ENOENT); keeps errno.  Asks, never opens. */
int rt_path_missing(const char *path);

/* Whether path is a folder (not following a last symbolic link); keeps errno. */
int rt_path_is_dir(const char *path);

/* The record an open descriptor refers to, or NULL. */
struct rt_record *rt_posix_fd_record(int fd);

/*
 * Forgets descriptor fd: closed where the POSIX layer does not see it (a
 * stream's fclose closes the descriptor fileno or fdopen made known), or
 * handed out anew for a file not recorded.  A descriptor number is reused:
 * what the program does with the next one is not the old file's.  Takes
 * the runtime's lock.
 */
void rt_posix_fd_gone(int fd);

#endif
