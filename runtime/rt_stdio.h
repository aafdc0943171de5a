/*
 * rt_stdio — the STDIO module: Darshan's STDIO counters per stream's file,
 * with stdin, stdout and stderr recorded as <STDIN>, <STDOUT>, <STDERR>.
 * Streams are found by FILE pointer in a table of the module's own; each
 * knows its position so that the highest offsets read and written are
 * right.  Handlers run under the runtime lock, after the real call.
 */
#ifndef RT_STDIO_H
#define RT_STDIO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct rt_record;

/* Streams the module could not follow (its table was full). */

int rt_stdio_init(void);
/* Forgets the stream table (a forked child of a tree, before rt_stdio_init()). */
void rt_stdio_forget(void);

/* The name of the file a tracked stream is open on, or NULL. */
const char *rt_stdio_name(FILE *stream);

/*
 * Handlers never call into stdio: the wrappers ask a stream's position
 * (offset: where a stream opened to append starts; position: where a seek
 * left it, -1 unknown) before they take the runtime's lock.
 */
/*
 * Whether a stream opened with mode may create its file: RT_FMODE_KEEPS
 * ("r", "r+": never), RT_FMODE_EXCL (an "x" mode: when it succeeds), or
 * RT_FMODE_CREATES ("w", "a": when the file was missing).  For the last,
 * excl (size excl_len) receives the same mode with "x" added, which opens
 * exactly as mode does when the file is missing and fails when it is there
 * ("" when no such mode can be made: the mode is too long, or an "x" would
 * push one of its flags out of the characters glibc reads).  Plain string
 * work: safe anywhere.
 */
#define RT_FMODE_KEEPS	 0
#define RT_FMODE_EXCL	 1
#define RT_FMODE_CREATES 2
int rt_stdio_create_mode(const char *mode, char *excl, size_t excl_len);

/* created: the call created path (learned by the wrapper, rt_wrappers.c). */
void rt_stdio_open(const char *op, const char *path, const char *mode, int created, FILE *stream,
		   int64_t offset, int err, double t0, double t1);

/*
 * tmpfile made a file without a name (or removed it at once) and opened
 * stream on it: name is what /proc/self/fd calls it (rt_fd_path, in a
 * buffer of name_size bytes, which rt_unnamed_record may lengthen), or NULL.
 */
void rt_stdio_tmpfile(const char *op, char *name, size_t name_size, FILE *stream, int err,
		      double t0, double t1);
void rt_stdio_fdopen(const char *op, int fd, FILE *stream, int64_t offset, int err, double t0,
		     double t1);
/* As rt_posix_close_begin(): the stream is forgotten before the real fclose. */
struct rt_record *rt_stdio_close_begin(FILE *stream);
void rt_stdio_close(const char *op, struct rt_record *rec, int failed, int err, double t0,
		    double t1);
void rt_stdio_io(const char *op, int is_write, FILE *stream, int64_t bytes, int failed, int err,
		 double t0, double t1);
/* A seek (moved) or ftell (not moved, in the trace only) on stream, now at position. */
void rt_stdio_seek(const char *op, FILE *stream, int moved, int failed, int64_t position, int err,
		   double t0, double t1);
void rt_stdio_flush(const char *op, FILE *stream, int failed, int err, double t0, double t1);

#endif
