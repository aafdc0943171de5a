/*
 * rt_calls — the table of every call the runtime intercepts.
 *
 *	X(return type, name, (parameters), (arguments), KIND, kind arguments...)
 *
 * rt_wrappers.c expands it into one wrapper per line (a symbol of the same
 * name for LD_PRELOAD, __wrap_<name> for static links), `ioatlas-config
 * --ld-flags` into the -Wl,--wrap list, and the tests into their coverage
 * check.  KIND names the body macro RT_BODY_<KIND> in rt_wrappers.c that
 * times the real call and hands the result to the module's handler; the
 * kind arguments are C expressions over the parameters (and `ret`, the
 * result, where noted).  Adding a call of an existing kind is one line here.
 *
 * The _chk and __open*_2 forms are what programs built with _FORTIFY_SOURCE
 * call instead of the plain functions.
 *
 * The wrappers are laid out in the table's order; those of reads, writes
 * and seeks are hot code (rt_core.h, RT_HOT), which starts on a page
 * (rt_posix_io()): the calls programs make most, read, write, pread,
 * pwrite and lseek, come first, so that their wrappers share that page.
 *
 * POSIX kinds:
 *	OPEN_VA dirfd, path, flags      open-style with a variadic mode
 *	OPEN dirfd, path, flags, mode   open-style with a fixed mode
 *	CREAT path, mode                creat: open(O_CREAT|O_WRONLY|O_TRUNC) of path
 *	CLOSE fd
 *	IO is_write, fd, offset, aligned   offset RT_AT_CURRENT for the file position
 *	SEEK fd
 *	FD_META fd, counter             fstat, fsync, fdatasync, mmap
 *	PATH_META dirfd, path, counter  stat, access, unlink, mkdir, rmdir
 *	FTRUNCATE fd, length
 *	TRUNCATE path, length
 *	REMOVE path                     a file (unlink) or an empty folder (rmdir)
 *	MKSTEMP template, flags         creates and opens a file named from template
 *	MKDTEMP template                creates a folder named from template
 *	DUP oldfd                       the new descriptor is the result
 *	RENAME olddirfd, old, newdirfd, new, exchange   exchange: the names swap files
 */
#ifndef RT_CALLS_H
#define RT_CALLS_H

/* The flags creat() opens with. */
#define RT_CREAT_FLAGS (O_CREAT | O_WRONLY | O_TRUNC)

#define RT_POSIX_CALLS(X)                                                                          \
	X(int, open, (const char *path, int flags, ...), (path, flags, mode), OPEN_VA, AT_FDCWD,   \
	  path, flags)                                                                             \
	X(int, open64, (const char *path, int flags, ...), (path, flags, mode), OPEN_VA, AT_FDCWD, \
	  path, flags)                                                                             \
	X(int, openat, (int dirfd, const char *path, int flags, ...), (dirfd, path, flags, mode),  \
	  OPEN_VA, dirfd, path, flags)                                                             \
	X(int, openat64, (int dirfd, const char *path, int flags, ...),                            \
	  (dirfd, path, flags, mode), OPEN_VA, dirfd, path, flags)                                 \
	X(int, __open_2, (const char *path, int flags), (path, flags), OPEN, AT_FDCWD, path,       \
	  flags, 0)                                                                                \
	X(int, __open64_2, (const char *path, int flags), (path, flags), OPEN, AT_FDCWD, path,     \
	  flags, 0)                                                                                \
	X(int, __openat_2, (int dirfd, const char *path, int flags), (dirfd, path, flags), OPEN,   \
	  dirfd, path, flags, 0)                                                                   \
	X(int, __openat64_2, (int dirfd, const char *path, int flags), (dirfd, path, flags), OPEN, \
	  dirfd, path, flags, 0)                                                                   \
	X(int, creat, (const char *path, mode_t mode), (path, mode), CREAT, path, mode)            \
	X(int, creat64, (const char *path, mode_t mode), (path, mode), CREAT, path, mode)          \
	X(int, close, (int fd), (fd), CLOSE, fd)                                                   \
	X(ssize_t, read, (int fd, void *buf, size_t count), (fd, buf, count), IO, 0, fd,           \
	  RT_AT_CURRENT, rt_mem_aligned(buf))                                                      \
	X(ssize_t, write, (int fd, const void *buf, size_t count), (fd, buf, count), IO, 1, fd,    \
	  RT_AT_CURRENT, rt_mem_aligned(buf))                                                      \
	X(ssize_t, pread, (int fd, void *buf, size_t count, off_t offset),                         \
	  (fd, buf, count, offset), IO, 0, fd, offset, rt_mem_aligned(buf))                        \
	X(ssize_t, pwrite, (int fd, const void *buf, size_t count, off_t offset),                  \
	  (fd, buf, count, offset), IO, 1, fd, offset, rt_mem_aligned(buf))                        \
	X(off_t, lseek, (int fd, off_t offset, int whence), (fd, offset, whence), SEEK, fd)        \
	X(off64_t, lseek64, (int fd, off64_t offset, int whence), (fd, offset, whence), SEEK, fd)  \
	X(ssize_t, pread64, (int fd, void *buf, size_t count, off64_t offset),                     \
	  (fd, buf, count, offset), IO, 0, fd, offset, rt_mem_aligned(buf))                        \
	X(ssize_t, __read_chk, (int fd, void *buf, size_t count, size_t buflen),                   \
	  (fd, buf, count, buflen), IO, 0, fd, RT_AT_CURRENT, rt_mem_aligned(buf))                 \
	X(ssize_t, __pread_chk, (int fd, void *buf, size_t count, off_t offset, size_t buflen),    \
	  (fd, buf, count, offset, buflen), IO, 0, fd, offset, rt_mem_aligned(buf))                \
	X(ssize_t, __pread64_chk,                                                                  \
	  (int fd, void *buf, size_t count, off64_t offset, size_t buflen),                        \
	  (fd, buf, count, offset, buflen), IO, 0, fd, offset, rt_mem_aligned(buf))                \
	X(ssize_t, pwrite64, (int fd, const void *buf, size_t count, off64_t offset),              \
	  (fd, buf, count, offset), IO, 1, fd, offset, rt_mem_aligned(buf))                        \
	X(ssize_t, readv, (int fd, const struct iovec *iov, int iovcnt), (fd, iov, iovcnt), IO, 0, \
	  fd, RT_AT_CURRENT, rt_iov_aligned(iov, iovcnt))                                          \
	X(ssize_t, writev, (int fd, const struct iovec *iov, int iovcnt), (fd, iov, iovcnt), IO,   \
	  1, fd, RT_AT_CURRENT, rt_iov_aligned(iov, iovcnt))                                       \
	X(ssize_t, preadv, (int fd, const struct iovec *iov, int iovcnt, off_t offset),            \
	  (fd, iov, iovcnt, offset), IO, 0, fd, offset, rt_iov_aligned(iov, iovcnt))               \
	X(ssize_t, pwritev, (int fd, const struct iovec *iov, int iovcnt, off_t offset),           \
	  (fd, iov, iovcnt, offset), IO, 1, fd, offset, rt_iov_aligned(iov, iovcnt))               \
	X(int, stat, (const char *path, struct stat *st), (path, st), PATH_META, AT_FDCWD, path,   \
	  POSIX_STATS)                                                                             \
	X(int, lstat, (const char *path, struct stat *st), (path, st), PATH_META, AT_FDCWD, path,  \
	  POSIX_STATS)                                                                             \
	X(int, fstat, (int fd, struct stat *st), (fd, st), FD_META, fd, POSIX_STATS)               \
	X(int, fstatat, (int dirfd, const char *path, struct stat *st, int flags),                 \
	  (dirfd, path, st, flags), PATH_META, dirfd, path, POSIX_STATS)                           \
	X(int, stat64, (const char *path, struct stat64 *st), (path, st), PATH_META, AT_FDCWD,     \
	  path, POSIX_STATS)                                                                       \
	X(int, lstat64, (const char *path, struct stat64 *st), (path, st), PATH_META, AT_FDCWD,    \
	  path, POSIX_STATS)                                                                       \
	X(int, fstat64, (int fd, struct stat64 *st), (fd, st), FD_META, fd, POSIX_STATS)           \
	X(int, statx,                                                                              \
	  (int dirfd, const char *path, int flags, unsigned int mask, struct statx *stx),          \
	  (dirfd, path, flags, mask, stx), PATH_META, dirfd, path, POSIX_STATS)                    \
	X(int, __xstat, (int ver, const char *path, struct stat *st), (ver, path, st), PATH_META,  \
	  AT_FDCWD, path, POSIX_STATS)                                                             \
	X(int, __lxstat, (int ver, const char *path, struct stat *st), (ver, path, st), PATH_META, \
	  AT_FDCWD, path, POSIX_STATS)                                                             \
	X(int, __fxstat, (int ver, int fd, struct stat *st), (ver, fd, st), FD_META, fd,           \
	  POSIX_STATS)                                                                             \
	X(int, __xstat64, (int ver, const char *path, struct stat64 *st), (ver, path, st),         \
	  PATH_META, AT_FDCWD, path, POSIX_STATS)                                                  \
	X(int, __lxstat64, (int ver, const char *path, struct stat64 *st), (ver, path, st),        \
	  PATH_META, AT_FDCWD, path, POSIX_STATS)                                                  \
	X(int, __fxstat64, (int ver, int fd, struct stat64 *st), (ver, fd, st), FD_META, fd,       \
	  POSIX_STATS)                                                                             \
	X(int, fsync, (int fd), (fd), FD_META, fd, POSIX_FSYNCS)                                   \
	X(int, fdatasync, (int fd), (fd), FD_META, fd, POSIX_FDSYNCS)                              \
	X(int, ftruncate, (int fd, off_t length), (fd, length), FTRUNCATE, fd, length)             \
	X(int, ftruncate64, (int fd, off64_t length), (fd, length), FTRUNCATE, fd, length)         \
	X(int, truncate, (const char *path, off_t length), (path, length), TRUNCATE, path, length) \
	X(int, truncate64, (const char *path, off64_t length), (path, length), TRUNCATE, path,     \
	  length)                                                                                  \
	X(void *, mmap, (void *addr, size_t len, int prot, int flags, int fd, off_t offset),       \
	  (addr, len, prot, flags, fd, offset), FD_META, fd, POSIX_MMAPS)                          \
	X(void *, mmap64, (void *addr, size_t len, int prot, int flags, int fd, off64_t offset),   \
	  (addr, len, prot, flags, fd, offset), FD_META, fd, POSIX_MMAPS)                          \
	X(int, dup, (int fd), (fd), DUP, fd)                                                       \
	X(int, dup2, (int fd, int newfd), (fd, newfd), DUP, fd)                                    \
	X(int, dup3, (int fd, int newfd, int flags), (fd, newfd, flags), DUP, fd)                  \
	X(int, fcntl, (int fd, int cmd, ...), (fd, cmd, arg), FCNTL_VA, fd, cmd)                   \
	X(int, fcntl64, (int fd, int cmd, ...), (fd, cmd, arg), FCNTL_VA, fd, cmd)                 \
	X(int, unlink, (const char *path), (path), PATH_META, AT_FDCWD, path, POSIX_UNLINKS)       \
	X(int, unlinkat, (int dirfd, const char *path, int flags), (dirfd, path, flags),           \
	  PATH_META, dirfd, path, (flags & AT_REMOVEDIR) ? POSIX_RMDIRS : POSIX_UNLINKS)           \
	X(int, remove, (const char *path), (path), REMOVE, path)                                   \
	X(int, mkstemp, (char *template), (template), MKSTEMP, template, 0)                        \
	X(int, mkstemp64, (char *template), (template), MKSTEMP, template, 0)                      \
	X(int, mkostemp, (char *template, int flags), (template, flags), MKSTEMP, template, flags) \
	X(int, mkostemp64, (char *template, int flags), (template, flags), MKSTEMP, template,      \
	  flags)                                                                                   \
	X(int, mkstemps, (char *template, int suffixlen), (template, suffixlen), MKSTEMP,          \
	  template, 0)                                                                             \
	X(int, mkstemps64, (char *template, int suffixlen), (template, suffixlen), MKSTEMP,        \
	  template, 0)                                                                             \
	X(int, mkostemps, (char *template, int suffixlen, int flags),                              \
	  (template, suffixlen, flags), MKSTEMP, template, flags)                                  \
	X(int, mkostemps64, (char *template, int suffixlen, int flags),                            \
	  (template, suffixlen, flags), MKSTEMP, template, flags)                                  \
	X(char *, mkdtemp, (char *template), (template), MKDTEMP, template)                        \
	X(int, rename, (const char *old, const char *new), (old, new), RENAME, AT_FDCWD, old,      \
	  AT_FDCWD, new, 0)                                                                        \
	X(int, renameat, (int olddirfd, const char *old, int newdirfd, const char *new),           \
	  (olddirfd, old, newdirfd, new), RENAME, olddirfd, old, newdirfd, new, 0)                 \
	X(int, renameat2,                                                                          \
	  (int olddirfd, const char *old, int newdirfd, const char *new, unsigned int flags),      \
	  (olddirfd, old, newdirfd, new, flags), RENAME, olddirfd, old, newdirfd, new,             \
	  (flags & RENAME_EXCHANGE) != 0)                                                          \
	X(int, mkdir, (const char *path, mode_t mode), (path, mode), PATH_META, AT_FDCWD, path,    \
	  POSIX_MKDIRS)                                                                            \
	X(int, rmdir, (const char *path), (path), PATH_META, AT_FDCWD, path, POSIX_RMDIRS)         \
	X(int, access, (const char *path, int mode), (path, mode), PATH_META, AT_FDCWD, path,      \
	  POSIX_ACCESS_CHECKS)

/* The POSIX calls, numbered in the table's order (a queued call keeps its number). */
#define RT_POSIX_OP(ret, name, ...) RT_OP_##name,
enum rt_posix_op { RT_POSIX_CALLS(RT_POSIX_OP) RT_POSIX_NOPS };
#undef RT_POSIX_OP

/*
 * STDIO kinds:
 *	FOPEN path, mode                the stream is the result
 *	FREOPEN path, mode, stream      closes stream, opens path on it
 *	TMPFILE stream                  stream (the result, r) is on a new file without a name
 *	FDOPEN fd, mode
 *	FCLOSE stream
 *	SIO is_write, stream, bytes, failed   bytes and failed may use `r`
 *	SSEEK stream, failed, moves     moves: 0 for ftell (in the trace, counted nowhere)
 *	SFLUSH stream
 *	FILENO stream                   the descriptor joins the stream's file (POSIX)
 *	VA_FORWARD vfunc                variadic call, forwarded to its v-form's wrapper
 *	                                (which must come earlier in the table)
 *	VSCANF stream                   formatted read; bytes from the position moved
 */
#define RT_STDIO_CALLS(X)                                                                          \
	X(FILE *, fopen, (const char *path, const char *mode), (path, mode), FOPEN, path, mode)    \
	X(FILE *, fopen64, (const char *path, const char *mode), (path, mode), FOPEN, path, mode)  \
	X(FILE *, freopen, (const char *path, const char *mode, FILE *stream),                     \
	  (path, mode, stream), FREOPEN, path, mode, stream)                                       \
	X(FILE *, freopen64, (const char *path, const char *mode, FILE *stream),                   \
	  (path, mode, stream), FREOPEN, path, mode, stream)                                       \
	X(FILE *, fdopen, (int fd, const char *mode), (fd, mode), FDOPEN, fd, mode)                \
	X(FILE *, tmpfile, (void), (), TMPFILE, r)                                                 \
	X(FILE *, tmpfile64, (void), (), TMPFILE, r)                                               \
	X(int, fclose, (FILE * stream), (stream), FCLOSE, stream)                                  \
	X(size_t, fread, (void *ptr, size_t size, size_t n, FILE *stream), (ptr, size, n, stream), \
	  SIO, 0, stream, (int64_t)(r * size), r < n && ferror(stream))                            \
	X(size_t, fwrite, (const void *ptr, size_t size, size_t n, FILE *stream),                  \
	  (ptr, size, n, stream), SIO, 1, stream, (int64_t)(r * size), r < n)                      \
	X(char *, fgets, (char *s, int size, FILE *stream), (s, size, stream), SIO, 0, stream,     \
	  r ? (int64_t)strlen(r) : 0, !r && ferror(stream))                                        \
	X(size_t, __fread_chk, (void *ptr, size_t ptrlen, size_t size, size_t n, FILE *stream),    \
	  (ptr, ptrlen, size, n, stream), SIO, 0, stream, (int64_t)(r * size),                     \
	  r < n && ferror(stream))                                                                 \
	X(char *, __fgets_chk, (char *s, size_t slen, int size, FILE *stream),                     \
	  (s, slen, size, stream), SIO, 0, stream, r ? (int64_t)strlen(r) : 0,                     \
	  !r && ferror(stream))                                                                    \
	X(int, fputs, (const char *s, FILE *stream), (s, stream), SIO, 1, stream,                  \
	  r >= 0 ? (int64_t)strlen(s) : 0, r < 0)                                                  \
	X(int, fgetc, (FILE * stream), (stream), SIO, 0, stream, r != EOF,                         \
	  r == EOF && ferror(stream))                                                              \
	X(int, getc, (FILE * stream), (stream), SIO, 0, stream, r != EOF,                          \
	  r == EOF && ferror(stream))                                                              \
	X(int, fputc, (int c, FILE *stream), (c, stream), SIO, 1, stream, r != EOF, r == EOF)      \
	X(int, putc, (int c, FILE *stream), (c, stream), SIO, 1, stream, r != EOF, r == EOF)       \
	X(int, vfprintf, (FILE * stream, const char *fmt, va_list ap), (stream, fmt, ap), SIO, 1,  \
	  stream, r > 0 ? r : 0, r < 0)                                                            \
	X(int, fprintf, (FILE * stream, const char *fmt, ...), (stream, fmt, ap), VA_FORWARD,      \
	  vfprintf)                                                                                \
	X(int, __vfprintf_chk, (FILE * stream, int flag, const char *fmt, va_list ap),             \
	  (stream, flag, fmt, ap), SIO, 1, stream, r > 0 ? r : 0, r < 0)                           \
	X(int, __fprintf_chk, (FILE * stream, int flag, const char *fmt, ...),                     \
	  (stream, flag, fmt, ap), VA_FORWARD, __vfprintf_chk)                                     \
	X(int, vprintf, (const char *fmt, va_list ap), (fmt, ap), SIO, 1, stdout, r > 0 ? r : 0,   \
	  r < 0)                                                                                   \
	X(int, printf, (const char *fmt, ...), (fmt, ap), VA_FORWARD, vprintf)                     \
	X(int, __vprintf_chk, (int flag, const char *fmt, va_list ap), (flag, fmt, ap), SIO, 1,    \
	  stdout, r > 0 ? r : 0, r < 0)                                                            \
	X(int, __printf_chk, (int flag, const char *fmt, ...), (flag, fmt, ap), VA_FORWARD,        \
	  __vprintf_chk)                                                                           \
	X(int, putw, (int w, FILE *stream), (w, stream), SIO, 1, stream,                           \
	  r == 0 ? (int64_t)sizeof(int) : 0, r != 0)                                               \
	X(int, getw, (FILE * stream), (stream), SIO, 0, stream,                                    \
	  r == EOF && ferror(stream) ? 0 : (int64_t)sizeof(int), r == EOF && ferror(stream))       \
	X(int, vfscanf, (FILE * stream, const char *fmt, va_list ap), (stream, fmt, ap), VSCANF,   \
	  stream)                                                                                  \
	X(int, fscanf, (FILE * stream, const char *fmt, ...), (stream, fmt, ap), VA_FORWARD,       \
	  vfscanf)                                                                                 \
	X(int, __isoc99_vfscanf, (FILE * stream, const char *fmt, va_list ap), (stream, fmt, ap),  \
	  VSCANF, stream)                                                                          \
	X(int, __isoc99_fscanf, (FILE * stream, const char *fmt, ...), (stream, fmt, ap),          \
	  VA_FORWARD, __isoc99_vfscanf)                                                            \
	X(int, fseek, (FILE * stream, long offset, int whence), (stream, offset, whence), SSEEK,   \
	  stream, r < 0, 1)                                                                        \
	X(int, fseeko, (FILE * stream, off_t offset, int whence), (stream, offset, whence), SSEEK, \
	  stream, r < 0, 1)                                                                        \
	X(int, fseeko64, (FILE * stream, off64_t offset, int whence), (stream, offset, whence),    \
	  SSEEK, stream, r < 0, 1)                                                                 \
	X(long, ftell, (FILE * stream), (stream), SSEEK, stream, r < 0, 0)                         \
	X(int, fsetpos, (FILE * stream, const fpos_t *pos), (stream, pos), SSEEK, stream, r != 0,  \
	  1)                                                                                       \
	X(int, fsetpos64, (FILE * stream, const fpos64_t *pos), (stream, pos), SSEEK, stream,      \
	  r != 0, 1)                                                                               \
	X(void, rewind, (FILE * stream), (stream), SREWIND, stream)                                \
	X(int, fflush, (FILE * stream), (stream), SFLUSH, stream)                                  \
	X(int, fileno, (FILE * stream), (stream), FILENO, stream)

#endif
