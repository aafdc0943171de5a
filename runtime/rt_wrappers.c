/*
 * rt_wrappers — expands the call table (rt_calls.h) into wrappers.
 *
 * Built twice: into libioatlas.so, where each wrapper carries the call's own
 * name and finds the real function with dlsym(RTLD_NEXT) (so tools preloaded
 * after us still see the call), and into libioatlas.a with RT_STATIC, where
 * each is __wrap_<name> and the linker's -Wl,--wrap provides __real_<name>.
 *
 * Every wrapper has the same shape (RT_WRAP): call through untouched when
 * the runtime is off or this thread is already inside it; otherwise time the
 * real call, keep the errno it left, update the records under the lock, and
 * return the real result with that errno.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "ioa_counters.h"
#include "rt_calls.h"
#include "rt_core.h"
#include "rt_mpiio.h"
#include "rt_posix.h"
#include "rt_stdio.h"

/*
 * Each wrapper is a C function rt_wrapper_NAME bound by an asm label to the
 * symbol NAME (or __wrap_NAME), so that headers which rename a function
 * (fscanf becomes __isoc99_fscanf in C99 modes) or no longer declare it
 * (__xstat, since glibc 2.33) cannot get in the way.
 */
#ifdef RT_STATIC
#define RT_SYM(name)			"__wrap_" #name
#define RT_REAL_DECL(ret, name, params) extern ret __real_##name params;
#define RT_RESOLVED(name)		1
#define RT_REAL(name)			__real_##name
#else
#define RT_SYM(name)			#name
/*
 * Where a call's real function is kept, by the table it is in (RT_TABLE): a
 * POSIX call's in rt.posix_real (rt_core.h: on the page every call reads),
 * a stream call's in a pointer of its own (RT_REAL_DECL).
 */
#define RT_CAT_(a, b)			a##b
#define RT_CAT(a, b)			RT_CAT_(a, b)
#define RT_REAL_DECL(ret, name, params) RT_CAT(RT_REAL_DECL_, RT_TABLE)(ret, name, params)
#define RT_REAL_DECL_POSIX(ret, name, params)
#define RT_REAL_DECL_STDIO(ret, name, params) \
	__attribute__((unused)) static ret(*rt_real_##name) params;
#define RT_REAL_SLOT(name)	 RT_CAT(RT_REAL_SLOT_, RT_TABLE)(name)
#define RT_REAL_SLOT_POSIX(name) rt.posix_real[RT_OP_##name]
#define RT_REAL_SLOT_STDIO(name) rt_real_##name
#define RT_RESOLVED(name)	 (RT_REAL_SLOT(name) || rt_resolve(#name, (void *)&RT_REAL_SLOT(name)))
#define RT_REAL(name)		 ((__typeof__(&rt_wrapper_##name))RT_REAL_SLOT(name))

/* Finds the next definition of name; 1 when found. */
static int rt_resolve(const char *name, void *slot)
{
	int saved_errno = errno;
	void *sym = dlsym(RTLD_NEXT, name);

	memcpy(slot, &sym, sizeof(sym));
	errno = saved_errno;
	return sym != NULL;
}
#endif

/*
 * A POSIX call made inside an MPI-IO call counts on the MPI-IO record too,
 * and inside an HDF5 call on the HDF5 record (multi-layer attribution); the
 * rest of the runtime sees it as any call.
 */
#define RT_NOTE_SUBCALL()                                                           \
	do {                                                                        \
		if (RT_LAYER == RT_IN_POSIX && rt_self()->mpiio_current)            \
			rt_self()->mpiio_current->counters[MPIIO_POSIX_SUBCALLS]++; \
		if (RT_LAYER == RT_IN_POSIX && rt_self()->above.posix_subcalls)     \
			++*rt_self()->above.posix_subcalls;                         \
	} while (0)

/* The library hides everything but the wrappers. */
#define RT_EXPORT __attribute__((visibility("default")))

/* Whether a result means failure: MAP_FAILED for mmap, negative otherwise. */
#define RT_FAILED(r) \
	_Generic((r), void * : (void *)(intptr_t)(r) == MAP_FAILED, default : (intptr_t)(r) < 0)

/* Whether a call of the MPI library failed, by its result: -1, EOF, NULL or MAP_FAILED. */
#define RT_LIB_FAILED(r) \
	_Generic((r), FILE * : (void *)(intptr_t)(r) == NULL, default : RT_FAILED(r))

/* A call the MPI library made (rt_core.h, RT_IN_MPI): only counted, as the library's. */
#define RT_LIB_CALL(name) rt_mpi_library_call(RT_LAYER, #name, RT_LIB_FAILED(r), err)

/* The value a wrapper returns when the real function cannot be found. */
#define RT_NOSYS(r) _Generic((r), void * : MAP_FAILED, default : -1)

/*
 * The shape of every wrapper.  begin decides whether the call is recorded
 * (rt_begin(), or rt_begin_own() for calls that change the descriptor or
 * stream tables); pre runs before the real call and post after it, both
 * outside the lock, where they may call into stdio (ftello, ferror): the
 * runtime never waits for a stream's lock while it holds its own, since the
 * thread holding that stream's lock (flockfile) may be waiting for ours.
 * Only the handler runs under the lock, and not for a call the MPI library
 * makes (rt_core.h, RT_IN_MPI): that one is only counted as the library's.
 * Whatever pre does to errno is
 * undone before the real call, whatever post does after it: the program
 * sees the errno of its own call, or the one it had.  lock is rt_lock(), or
 * rt_lock_only() for the calls that are queued.
 */
#define RT_WRAP_LOCK(ret, name, args, begin, pre, call, post, lock, handler) \
	ret r;                                                               \
	double t0, t1;                                                       \
	int err;                                                             \
	if (!RT_RESOLVED(name)) {                                            \
		errno = ENOSYS;                                              \
		return (ret)RT_NOSYS(r);                                     \
	}                                                                    \
	if (!(begin))                                                        \
		return RT_REAL(name) args;                                   \
	pre;                                                                 \
	t0 = rt_now();                                                       \
	call;                                                                \
	err = *rt_errno();                                                   \
	t1 = rt_now();                                                       \
	post;                                                                \
	lock();                                                              \
	if (rt_self()->inside & RT_IN_MPI) {                                 \
		RT_LIB_CALL(name);                                           \
	} else {                                                             \
		RT_NOTE_SUBCALL();                                           \
		handler;                                                     \
	}                                                                    \
	rt_unlock();                                                         \
	rt_end(RT_LAYER);                                                    \
	*rt_errno() = err;                                                   \
	return r;

#define RT_WRAP_FULL(ret, name, args, begin, pre, call, post, handler) \
	RT_WRAP_LOCK(ret, name, args, begin, pre, call, post, rt_lock, handler)

/* Runs stmt and gives errno back its value from before. */
#define RT_KEEP_ERRNO(stmt)                 \
	do {                                \
		int rt_saved_errno = errno; \
		stmt;                       \
		errno = rt_saved_errno;     \
	} while (0)

#define RT_WRAP(ret, name, args, handler)                                                  \
	RT_WRAP_FULL(ret, name, args, rt_begin(RT_LAYER), (void)0, r = RT_REAL(name) args, \
		     (void)0, handler)

/* pre runs inside the guard, just before the real call, and keeps errno. */
#define RT_WRAP_PRE(ret, name, args, pre, handler)                            \
	RT_WRAP_FULL(ret, name, args, rt_begin(RT_LAYER), RT_KEEP_ERRNO(pre), \
		     r = RT_REAL(name) args, (void)0, handler)

/* As RT_WRAP_PRE for calls that change the descriptor or stream tables. */
#define RT_WRAP_OWN(ret, name, args, pre, handler)                                \
	RT_WRAP_FULL(ret, name, args, rt_begin_own(RT_LAYER), RT_KEEP_ERRNO(pre), \
		     r = RT_REAL(name) args, (void)0, handler)

/* post runs after the real call, outside the lock (errno is restored after it). */
#define RT_WRAP_POST(ret, name, args, post, handler)                                             \
	RT_WRAP_FULL(ret, name, args, rt_begin(RT_LAYER), (void)0, r = RT_REAL(name) args, post, \
		     handler)

#define RT_NEEDS_MODE(flags) (((flags)&O_CREAT) || ((flags)&O_TMPFILE) == O_TMPFILE)

/*
 * Whether an open created its file, learned without opening it twice: an
 * open with O_CREAT but not O_EXCL is first made with O_EXCL added (through
 * the same function, or through openat64 for creat).  When that succeeds,
 * the call created the file and its result is the call's: an exclusive
 * create of a missing file is the very same operation.  When it fails for
 * any reason (the file is there, mostly), the program's own call is made as
 * it was, with the errno it had before, and its result and errno are what
 * the program gets; it did not create the file unless another process
 * removed it in between (counted as not created), or the path is a
 * dangling symbolic link (O_EXCL refuses it; the call creates its target,
 * counted as not created).  The program's own O_EXCL needs no attempt.
 */
#define RT_OPEN_CALL(attempt, call, flags_e)                                                     \
	if (((flags_e) & (O_CREAT | O_EXCL)) == O_CREAT && ((flags_e)&O_TMPFILE) != O_TMPFILE) { \
		int rt_before = errno;                                                           \
		r = attempt;                                                                     \
		created = r >= 0;                                                                \
		if (r < 0) {                                                                     \
			errno = rt_before;                                                       \
			r = call;                                                                \
		}                                                                                \
	} else {                                                                                 \
		r = call;                                                                        \
		created = ((flags_e)&O_CREAT) && ((flags_e)&O_EXCL) && r >= 0;                   \
	}

#define RT_BODY_OPEN_VA(ret, name, args, dirfd_e, path_e, flags_e)                                \
	mode_t mode = 0;                                                                          \
	int created = 0;                                                                          \
	if (RT_NEEDS_MODE(flags)) {                                                               \
		va_list ap;                                                                       \
		va_start(ap, flags);                                                              \
		mode = (mode_t)va_arg(ap, int);                                                   \
		va_end(ap);                                                                       \
	}                                                                                         \
	RT_WRAP_FULL(ret, name, args, rt_begin_own(RT_LAYER), (void)0,                            \
		     RT_OPEN_CALL((flags |= O_EXCL, r = RT_REAL(name) args, flags &= ~O_EXCL, r), \
				  RT_REAL(name) args, flags_e),                                   \
		     (void)0,                                                                     \
		     rt_posix_open(#name, dirfd_e, path_e, flags_e, mode, created, r,             \
				   r < 0 ? err : 0, t0, t1))

#define RT_BODY_OPEN(ret, name, args, dirfd_e, path_e, flags_e, mode_e)                        \
	int created = 0;                                                                       \
	RT_WRAP_FULL(ret, name, args, rt_begin_own(RT_LAYER), (void)0, r = RT_REAL(name) args; \
		     created = ((flags_e)&O_CREAT) && ((flags_e)&O_EXCL) && r >= 0, (void)0,   \
		     rt_posix_open(#name, dirfd_e, path_e, flags_e, mode_e, created, r,        \
				   r < 0 ? err : 0, t0, t1))

/* creat: the exclusive attempt goes through openat64, which takes flags. */
#define RT_BODY_CREAT(ret, name, args, path_e, mode_e)                                          \
	int created = 0;                                                                        \
	RT_WRAP_FULL(ret, name, args, rt_begin_own(RT_LAYER), (void)0,                          \
		     RT_OPEN_CALL(RT_RESOLVED(openat64)                                         \
					  ? RT_REAL(openat64)(AT_FDCWD, path_e,                 \
							      RT_CREAT_FLAGS | O_EXCL, mode_e)  \
					  : -1,                                                 \
				  RT_REAL(name) args, RT_CREAT_FLAGS),                          \
		     (void)0,                                                                   \
		     rt_posix_open(#name, AT_FDCWD, path_e, RT_CREAT_FLAGS, mode_e, created, r, \
				   r < 0 ? err : 0, t0, t1))

#define RT_BODY_CLOSE(ret, name, args, fd_e)                               \
	struct rt_record *closing = NULL;                                  \
	RT_WRAP_OWN(ret, name, args, closing = rt_posix_close_begin(fd_e), \
		    rt_posix_close(#name, closing, r, err, t0, t1))

/* Reads, writes and seeks queue their calls (rt_posix.c): the lock alone. */
#define RT_WRAP_QUEUED(ret, name, args, handler)                                           \
	RT_WRAP_LOCK(ret, name, args, rt_begin(RT_LAYER), (void)0, r = RT_REAL(name) args, \
		     (void)0, rt_lock_only, handler)

#define RT_BODY_IO(ret, name, args, is_write, fd_e, offset_e, aligned_e)                    \
	RT_WRAP_QUEUED(ret, name, args,                                                     \
		       rt_posix_io(RT_OP_##name, is_write, fd_e, offset_e, (int64_t)r, err, \
				   aligned_e, t0, t1))

#define RT_BODY_SEEK(ret, name, args, fd_e) \
	RT_WRAP_QUEUED(ret, name, args, rt_posix_seek(RT_OP_##name, fd_e, (int64_t)r, err, t0, t1))

#define RT_BODY_FD_META(ret, name, args, fd_e, counter) \
	RT_WRAP(ret, name, args, rt_posix_fd_meta(#name, fd_e, counter, RT_FAILED(r), err, t0, t1))

#define RT_BODY_FTRUNCATE(ret, name, args, fd_e, length_e) \
	RT_WRAP(ret, name, args,                           \
		rt_posix_ftruncate(#name, fd_e, length_e, RT_FAILED(r), err, t0, t1))

#define RT_BODY_TRUNCATE(ret, name, args, path_e, length_e) \
	RT_WRAP(ret, name, args,                            \
		rt_posix_truncate(#name, path_e, length_e, RT_FAILED(r), err, t0, t1))

/* remove unlinks a file and removes an empty folder: which one, asked before. */
#define RT_BODY_REMOVE(ret, name, args, path_e)                                                  \
	int is_dir = 0;                                                                          \
	RT_WRAP_PRE(ret, name, args, is_dir = rt_path_is_dir(path_e),                            \
		    rt_posix_path_meta(#name, AT_FDCWD, path_e,                                  \
				       is_dir ? POSIX_RMDIRS : POSIX_UNLINKS, RT_FAILED(r), err, \
				       t0, t1))

/* The file is named once made: the template holds its name after the call. */
#define RT_BODY_MKSTEMP(ret, name, args, template_e, flags_e) \
	RT_WRAP_OWN(ret, name, args, (void)0,                 \
		    rt_posix_mktemp(#name, template_e, flags_e, r, r < 0 ? err : 0, t0, t1))

#define RT_BODY_MKDTEMP(ret, name, args, template_e) \
	RT_WRAP(ret, name, args, rt_posix_mkdtemp(#name, r, r ? 0 : err, t0, t1))

#define RT_BODY_PATH_META(ret, name, args, dirfd_e, path_e, counter) \
	RT_WRAP(ret, name, args,                                     \
		rt_posix_path_meta(#name, dirfd_e, path_e, counter, RT_FAILED(r), err, t0, t1))

#define RT_BODY_DUP(ret, name, args, fd_e) \
	RT_WRAP_OWN(ret, name, args, (void)0, rt_posix_dup(#name, fd_e, r, err, t0, t1))

#define RT_BODY_RENAME(ret, name, args, olddir_e, old_e, newdir_e, new_e, exchange_e)            \
	RT_WRAP(ret, name, args,                                                                 \
		rt_posix_rename(#name, olddir_e, old_e, newdir_e, new_e, exchange_e, r, err, t0, \
				t1))

/*
 * fcntl passes its optional argument on as glibc does: one pointer-sized
 * word.  A dup makes a descriptor; F_SETFL may set or clear O_APPEND.
 */
#define RT_BODY_FCNTL_VA(ret, name, args, fd_e, cmd_e)                                      \
	void *arg;                                                                          \
	va_list ap;                                                                         \
	va_start(ap, cmd);                                                                  \
	arg = va_arg(ap, void *);                                                           \
	va_end(ap);                                                                         \
	int is_dup = (cmd_e) == F_DUPFD || (cmd_e) == F_DUPFD_CLOEXEC;                      \
	RT_WRAP_FULL(ret, name, args, is_dup ? rt_begin_own(RT_LAYER) : rt_begin(RT_LAYER), \
		     (void)0, r = RT_REAL(name) args, (void)0,                              \
		     if (is_dup) rt_posix_dup(#name, fd_e, r, err, t0, t1);                 \
		     else if ((cmd_e) == F_SETFL && r == 0)                                 \
			     rt_posix_setfl(#name, fd_e, (int)(intptr_t)arg, t0, t1))

/* A stream opened to append starts at the end: its position, asked once. */
#define RT_OPEN_POSITION(stream, mode_e) \
	int64_t position = (stream) && (mode_e) && (mode_e)[0] == 'a' ? (int64_t)ftello(stream) : 0

/* A stream opened anew has a descriptor anew: the number's past is forgotten. */
#define RT_NEW_STREAM(stream) rt_posix_fd_gone((stream) ? fileno(stream) : -1)

/*
 * Whether fopen created its file, learned as open's is (RT_OPEN_CALL): a
 * mode that may create ("w", "a") is first tried with "x" added, through
 * the same function, which creates the file exactly as the program's mode
 * would (same flags but O_EXCL, mode 0666 less the umask) or fails with no
 * effect; then the program's own call is made as it was, with the errno it
 * had.  A mode that cannot take an "x" (rt_stdio_create_mode) is opened as
 * given, and the file's absence asked just before (rt_path_missing).
 */
#define RT_FMODE_LEN 32
#define RT_FOPEN_CALL(attempt, call, path_e)                                      \
	if (how == RT_FMODE_CREATES && excl[0]) {                                 \
		int rt_before = errno;                                            \
		r = attempt;                                                      \
		created = r != NULL;                                              \
		if (!r) {                                                         \
			errno = rt_before;                                        \
			r = call;                                                 \
		}                                                                 \
	} else {                                                                  \
		int missing = how == RT_FMODE_CREATES && rt_path_missing(path_e); \
		r = call;                                                         \
		created = r && (how == RT_FMODE_EXCL || missing);                 \
	}

#define RT_BODY_FOPEN(ret, name, args, path_e, mode_e)                                       \
	char excl[RT_FMODE_LEN];                                                             \
	int how = RT_FMODE_KEEPS, created = 0;                                               \
	RT_WRAP_FULL(ret, name, args, rt_begin_own(RT_LAYER),                                \
		     how = rt_stdio_create_mode(mode_e, excl, sizeof(excl)),                 \
		     RT_FOPEN_CALL(RT_REAL(name)(path_e, excl), RT_REAL(name) args, path_e), \
		     RT_OPEN_POSITION(r, mode_e);                                            \
		     RT_NEW_STREAM(r),                                                       \
		     rt_stdio_open(#name, path_e, mode_e, created, r, position, err, t0, t1))

/*
 * freopen closes its stream before it opens, and a failed open loses the
 * stream and its descriptor number: no second try.  Whether it created its
 * file is asked just before (rt_path_missing: a look, no open), so another
 * process creating the file in between is the one way to count wrongly.
 */
#define RT_BODY_FREOPEN(ret, name, args, path_e, mode_e, stream_e)                                \
	struct rt_record *closing = NULL;                                                         \
	int how = RT_FMODE_KEEPS, missing = 0;                                                    \
	RT_WRAP_FULL(ret, name, args, rt_begin_own(RT_LAYER),                                     \
		     RT_KEEP_ERRNO(closing = rt_stdio_close_begin(stream_e);                      \
				   how = rt_stdio_create_mode(mode_e, NULL, 0);                   \
				   missing = how == RT_FMODE_CREATES && rt_path_missing(path_e)), \
		     r = RT_REAL(name) args, RT_OPEN_POSITION(r, mode_e);                         \
		     RT_NEW_STREAM(r), rt_stdio_close(#name, closing, 0, 0, t0, t0);              \
		     rt_stdio_open(#name, path_e, mode_e, r && (how == RT_FMODE_EXCL || missing), \
				   r, position, err, t0, t1))

/* tmpfile's file has no name (or lost it at once): the one /proc gives it. */
#define RT_BODY_TMPFILE(ret, name, args, stream_e)                                               \
	char tmp_name[PATH_MAX];                                                                 \
	RT_WRAP_FULL(ret, name, args, rt_begin_own(RT_LAYER), (void)0, r = RT_REAL(name) args,   \
		     RT_NEW_STREAM(stream_e);                                                    \
		     size_t tmp_len =                                                            \
			     stream_e ? rt_fd_path(fileno(stream_e), tmp_name, sizeof(tmp_name)) \
				      : 0,                                                       \
		     rt_stdio_tmpfile(#name, tmp_len ? tmp_name : NULL, sizeof(tmp_name),        \
				      stream_e, err, t0, t1))

#define RT_BODY_FDOPEN(ret, name, args, fd_e, mode_e)                                          \
	RT_WRAP_FULL(ret, name, args, rt_begin_own(RT_LAYER), (void)0, r = RT_REAL(name) args, \
		     RT_OPEN_POSITION(r, mode_e),                                              \
		     rt_stdio_fdopen(#name, fd_e, r, position, err, t0, t1))

#define RT_BODY_FCLOSE(ret, name, args, stream_e)                              \
	struct rt_record *closing = NULL;                                      \
	RT_WRAP_OWN(ret, name, args, closing = rt_stdio_close_begin(stream_e), \
		    rt_stdio_close(#name, closing, r == EOF, err, t0, t1))

/* bytes and failed (ferror takes the stream's lock) are known before the lock. */
#define RT_BODY_SIO(ret, name, args, is_write, stream_e, bytes_e, failed_e) \
	RT_WRAP_POST(ret, name, args, int64_t bytes = bytes_e;              \
		     int failed = failed_e,                                 \
		     rt_stdio_io(#name, is_write, stream_e, bytes, failed, err, t0, t1))

/* The position after a seek, asked before the lock. */
#define RT_BODY_SSEEK(ret, name, args, stream_e, failed_e, moves)                \
	RT_WRAP_POST(ret, name, args, int failed = failed_e;                     \
		     int64_t position = failed ? -1 : (int64_t)ftello(stream_e), \
		     rt_stdio_seek(#name, stream_e, moves, failed, position, err, t0, t1))

#define RT_BODY_SFLUSH(ret, name, args, stream_e) \
	RT_WRAP(ret, name, args, rt_stdio_flush(#name, stream_e, r == EOF, err, t0, t1))

/* fileno hands out the stream's descriptor: POSIX calls on it count on the file. */
#define RT_BODY_FILENO(ret, name, args, stream_e)                                              \
	RT_WRAP_FULL(ret, name, args, rt_begin_own(RT_LAYER), (void)0, r = RT_REAL(name) args, \
		     (void)0, rt_posix_fileno(#name, rt_stdio_name(stream_e), r, t0, t1))

/* rewind returns nothing: time it and count it as a seek. */
#define RT_BODY_SREWIND(ret, name, args, stream_e)          \
	double t0, t1;                                      \
	int err;                                            \
	if (!RT_RESOLVED(name))                             \
		return;                                     \
	if (!rt_begin(RT_LAYER)) {                          \
		RT_REAL(name) args;                         \
		return;                                     \
	}                                                   \
	t0 = rt_now();                                      \
	RT_REAL(name) args;                                 \
	err = errno;                                        \
	t1 = rt_now();                                      \
	rt_lock();                                          \
	rt_stdio_seek(#name, stream_e, 1, 0, 0, 0, t0, t1); \
	rt_unlock();                                        \
	rt_end(RT_LAYER);                                   \
	errno = err;

/*
 * Variadic calls forward to their v-form's wrapper, which records them: a
 * program calling either form is counted once, and so is one whose call
 * reaches the v-form through another interposer (a sanitizer's fscanf
 * calls vfscanf).
 */
#define RT_BODY_VA_FORWARD(ret, name, args, vfunc) \
	va_list ap;                                \
	ret r;                                     \
	va_start(ap, fmt);                         \
	r = rt_wrapper_##vfunc args;               \
	va_end(ap);                                \
	return r;

/* Formatted reads: the bytes read are how far the stream's position moved. */
#define RT_BODY_VSCANF(ret, name, args, stream_e)                                                 \
	off_t before = -1;                                                                        \
	RT_WRAP_FULL(ret, name, args, rt_begin(RT_LAYER),                                         \
		     RT_KEEP_ERRNO(before = ftello(stream_e)), r = RT_REAL(name) args,            \
		     off_t after = ftello(stream_e);                                              \
		     int failed = r == EOF && ferror(stream_e),                                   \
		     rt_stdio_io(#name, 0, stream_e,                                              \
				 before >= 0 && after > before ? after - before : 0, failed, err, \
				 t0, t1))

/*
 * The wrappers of the system calls a program makes most, reads, writes and
 * seeks (kinds IO and SEEK), are RT_HOT: RT_HOT_KIND(kind) is RT_HOT for
 * them, nothing for the others (RT_HOT_PROBE_<kind> names the hot kinds).
 * A stream's reads and writes (SIO) seldom make a system call: the pages
 * they touch stay in the TLB.
 */
#define RT_HOT_PROBE_IO	     ~, RT_HOT
#define RT_HOT_PROBE_SEEK    ~, RT_HOT
#define RT_SECOND(a, b, ...) b
#define RT_HOT_PICK(...)     RT_SECOND(__VA_ARGS__)
#define RT_HOT_KIND(kind)    RT_HOT_PICK(RT_HOT_PROBE_##kind, , )

#define RT_DEFINE(ret, name, params, args, kind, ...)                 \
	RT_REAL_DECL(ret, name, params)                               \
	RT_EXPORT ret rt_wrapper_##name params __asm__(RT_SYM(name)); \
	RT_EXPORT RT_HOT_KIND(kind)                                   \
	ret rt_wrapper_##name params                                  \
	{                                                             \
		RT_BODY_##kind(ret, name, args, __VA_ARGS__)          \
	}

#define RT_LAYER RT_IN_POSIX
#define RT_TABLE POSIX
RT_POSIX_CALLS(RT_DEFINE)
#undef RT_TABLE
#undef RT_LAYER
#define RT_LAYER RT_IN_STDIO
#define RT_TABLE STDIO
RT_STDIO_CALLS(RT_DEFINE)
#undef RT_TABLE
#undef RT_LAYER

/*
 * vfork() returns twice in one stack frame, so its wrapper cannot be a C
 * function that calls the real one and returns: it is a few instructions
 * that mark the calling thread (rt_vfork_prepare()) and jump to the real
 * vfork, leaving no frame behind.  On other architectures, and in static
 * links (where --wrap=vfork would be one more flag for every link), vfork
 * is not wrapped, and rt_begin_own() alone keeps the child off the tables.
 */
#ifdef RT_WRAPS_VFORK
#define RT_VFORK_SYM "vfork"

/* Called by the vfork wrapper: marks the thread; the real vfork, or NULL. */
__attribute__((used)) void *rt_vfork_prepare(void)
{
	static void *real;

	if (!real) {
		int saved_errno = errno;

		real = dlsym(RTLD_NEXT, "vfork");
		errno = saved_errno;
	}
	if (rt.enabled && real)
		rt_self()->inside |= RT_IN_VFORK;
	return real;
}

/* The real vfork cannot be found: fail as the wrappers do. */
__attribute__((used)) pid_t rt_vfork_missing(void)
{
	errno = ENOSYS;
	return -1;
}

#if defined(__x86_64__)
#ifdef __CET__
#define RT_ENDBR "endbr64\n\t"
#else
#define RT_ENDBR ""
#endif
__asm__(".text\n\t"
	".globl " RT_VFORK_SYM "\n\t"
	".type " RT_VFORK_SYM ", @function\n" RT_VFORK_SYM ":\n\t" RT_ENDBR "subq $8, %rsp\n\t"
	"call rt_vfork_prepare\n\t"
	"addq $8, %rsp\n\t"
	"testq %rax, %rax\n\t"
	"jz 1f\n\t"
	"jmp *%rax\n"
	"1:\n\t"
	"jmp rt_vfork_missing\n\t"
	".size " RT_VFORK_SYM ", .-" RT_VFORK_SYM "\n\t");
#else
#ifdef __ARM_FEATURE_BTI_DEFAULT
#define RT_BTI "bti c\n\t"
#else
#define RT_BTI ""
#endif
__asm__(".text\n\t"
	".globl " RT_VFORK_SYM "\n\t"
	".type " RT_VFORK_SYM ", %function\n" RT_VFORK_SYM ":\n\t" RT_BTI
	"stp x29, x30, [sp, #-16]!\n\t"
	"mov x29, sp\n\t"
	"bl rt_vfork_prepare\n\t"
	"ldp x29, x30, [sp], #16\n\t"
	"cbz x0, 1f\n\t"
	"mov x16, x0\n\t"
	"br x16\n"
	"1:\n\t"
	"b rt_vfork_missing\n\t"
	".size " RT_VFORK_SYM ", .-" RT_VFORK_SYM "\n\t");
#endif
#endif /* RT_WRAPS_VFORK */

/*
 * _exit() and _Exit() skip exit handlers and destructors, yet programs of
 * process trees end that way: dash (sh) after its children, Python's
 * os._exit.  A process of a non-MPI tree (rt.tree set: opted in) writes
 * its log or part here first; every other process goes straight through.
 * Not from inside a wrapper or the runtime (a signal handler that
 * interrupted one), nor in a vfork child (RT_IN_VFORK).  Shared library
 * only: a static link would need one more --wrap flag in every link.
 */
#ifndef RT_STATIC
#include <sys/syscall.h>

RT_EXPORT __attribute__((noreturn)) void rt_wrapper__exit(int status) __asm__("_exit");
RT_EXPORT __attribute__((noreturn)) void rt_wrapper__Exit(int status) __asm__("_Exit");

/* The next _exit (another tool's, or libc's), found once at load time: never in _exit. */
static void (*rt_real__exit)(int);

__attribute__((constructor)) static void rt_find_exit(void)
{
	int saved_errno = errno;
	void *sym = dlsym(RTLD_NEXT, "_exit");

	memcpy(&rt_real__exit, &sym, sizeof(sym));
	errno = saved_errno;
}

RT_EXPORT void rt_wrapper__exit(int status)
{
	if (rt.tree[0] && !rt.log_written && !rt_self()->inside)
		rt_shutdown_at_exit();
	if (rt_real__exit)
		rt_real__exit(status);
	for (;;)
		syscall(SYS_exit_group, status);
}

RT_EXPORT void rt_wrapper__Exit(int status)
{
	rt_wrapper__exit(status);
}
#endif
