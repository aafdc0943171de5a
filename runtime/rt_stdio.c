/*
 * rt_stdio — STDIO module handlers (see rt_stdio.h).  The stream table is
 * open addressing on the FILE pointer with tombstones, sized once from the
 * arena; a stream that finds no slot is not recorded (and counted).
 */
#define _GNU_SOURCE
#include "rt_stdio.h"
#include "rt_spill.h"

#include <fcntl.h>
#include <limits.h>
#include <string.h>

#include "rt_core.h"
#include "rt_posix.h"
#include "rt_records.h"
#include "rt_trace.h"

#define RT_STREAM_SLOTS 1024
#define RT_TOMBSTONE	((FILE *)1)

struct rt_stream {
	FILE *stream;
	struct rt_record *rec;
	int64_t offset;
};

static struct rt_stream *streams;

void rt_stdio_forget(void)
{
	streams = NULL;
}

int rt_stdio_init(void)
{
	streams = rt_arena_alloc(&rt.arena, RT_STREAM_SLOTS * sizeof(*streams));
	return streams ? 0 : -1;
}

static size_t slot_of(FILE *stream)
{
	return ((uintptr_t)stream >> 4) % RT_STREAM_SLOTS;
}

static struct rt_stream *stream_add(FILE *stream, struct rt_record *rec, int64_t offset)
{
	size_t i, slot = slot_of(stream);

	for (i = 0; i < RT_STREAM_SLOTS; i++) {
		struct rt_stream *s = &streams[(slot + i) % RT_STREAM_SLOTS];

		if (!s->stream || s->stream == RT_TOMBSTONE || s->stream == stream) {
			s->stream = stream;
			s->rec = rec;
			s->offset = offset;
			return s;
		}
	}
	rt_live->stdio_untracked_streams++;
	return NULL;
}

/*
 * The stream's entry; the standard streams are entered on first use, each
 * counted as opened once (as Darshan counts them, opened before the
 * program's first instruction: no open time).
 */
static struct rt_stream *stream_find(FILE *stream)
{
	size_t i, slot = slot_of(stream);
	const char *name = NULL;
	struct rt_record *rec;

	if (!streams || !stream)
		return NULL;
	for (i = 0; i < RT_STREAM_SLOTS; i++) {
		struct rt_stream *s = &streams[(slot + i) % RT_STREAM_SLOTS];

		if (s->stream == stream)
			return s;
		if (!s->stream)
			break;
	}
	if (stream == stdin)
		name = "<STDIN>";
	else if (stream == stdout)
		name = "<STDOUT>";
	else if (stream == stderr)
		name = "<STDERR>";
	if (!name)
		return NULL;
	rec = rt_record_get(IOA_MOD_STDIO, name, strlen(name));
	if (rec && !rec->counters[STDIO_OPENS])
		rec->counters[STDIO_OPENS] = 1;
	return stream_add(stream, rec, 0);
}

const char *rt_stdio_name(FILE *stream)
{
	struct rt_stream *s = stream_find(stream);

	return s && !(s->rec->flags & IOA_REC_FOLDED) ? s->rec->name : NULL;
}

static void opened(struct rt_record *rec, FILE *stream, int64_t offset, int counter, double t0,
		   double t1)
{
	rec->counters[counter]++;
	rt_set_first(&rec->fcounters[STDIO_F_OPEN_START_TIMESTAMP], t0);
	rt_set_last(&rec->fcounters[STDIO_F_OPEN_END_TIMESTAMP], t1);
	rt_add_time(&rec->fcounters[STDIO_F_META_TIME], &rec->meta_end, t0, t1);
	stream_add(stream, rec, offset > 0 ? offset : 0);
}

int rt_stdio_create_mode(const char *mode, char *excl, size_t excl_len)
{
	size_t i, len;

	if (excl_len)
		excl[0] = '\0';
	if (!mode || (mode[0] != 'w' && mode[0] != 'a'))
		return RT_FMODE_KEEPS;
	/* glibc reads the flags in the six characters after the first. */
	for (i = 1; i < 7 && mode[i]; i++)
		if (mode[i] == 'x')
			return RT_FMODE_EXCL;
	len = strlen(mode);
	/* 'x' second pushes the seventh character out of those six: not when it is a flag. */
	if (len + 2 <= excl_len && (len < 7 || !strchr("+bmce", mode[6]))) {
		excl[0] = mode[0];
		excl[1] = 'x';
		memcpy(excl + 2, mode + 1, len);
	}
	return RT_FMODE_CREATES;
}

void rt_stdio_open(const char *op, const char *path, const char *mode, int created, FILE *stream,
		   int64_t offset, int err, double t0, double t1)
{
	char abs[PATH_MAX];
	size_t len = rt_abs_path(AT_FDCWD, path, abs, sizeof(abs));
	struct rt_record *rec, *posix;
	/* The trace's aux: 0x1 to append ("a"), 0x2 emptied ("w"), 0x4 neither ("r"). */
	int64_t how = !mode ? 0 : mode[0] == 'a' ? 1 : mode[0] == 'w' ? 2 : mode[0] == 'r' ? 4 : 0;

	if (!len || !rt_config_path_recorded(&rt.config, abs))
		return;
	rec = rt_record_get(IOA_MOD_STDIO, abs, len);
	if (!stream) {
		rt_record_failure(rec, IOA_MOD_STDIO, op, err);
		rt_trace_io(op, IOA_MOD_STDIO, rec, IOA_TR_FAILED, 0, 0, how, err, t0, t1);
		return;
	}
	rt_trace_io(op, IOA_MOD_STDIO, rec, created ? IOA_TR_CREATE : 0, 0, 0, how, 0, t0, t1);
	opened(rec, stream, offset, STDIO_OPENS, t0, t1);
	rec->flags &= ~IOA_REC_REMOVED;
	if (created)
		rec->flags |= IOA_REC_CREATED;
	/* "w" empties the file: what POSIX calls wrote in it no longer counts. */
	posix = mode && mode[0] == 'w' ? rt_record_find(IOA_MOD_POSIX, rec->id) : NULL;
	if (posix)
		rt_extents_cut(&posix->written, 0);
}

void rt_stdio_tmpfile(const char *op, char *name, size_t name_size, FILE *stream, int err,
		      double t0, double t1)
{
	struct rt_record *rec;

	if (!stream) {
		rt_record_failure(NULL, IOA_MOD_STDIO, op, err);
		return;
	}
	rec = name ? rt_unnamed_record(IOA_MOD_STDIO, name, strlen(name), name_size) : NULL;
	if (!rec)
		return;
	rt_trace_io(op, IOA_MOD_STDIO, rec, IOA_TR_CREATE, 0, 0, 0, 0, t0, t1);
	opened(rec, stream, 0, STDIO_OPENS, t0, t1);
	rec->flags |= IOA_REC_CREATED | IOA_REC_REMOVED;
}

void rt_stdio_fdopen(const char *op, int fd, FILE *stream, int64_t offset, int err, double t0,
		     double t1)
{
	struct rt_record *posix = rt_posix_fd_record(fd);
	struct rt_record *rec;

	if (!posix || posix->flags & IOA_REC_FOLDED)
		return;
	rec = rt_record_get(IOA_MOD_STDIO, posix->name, strlen(posix->name));
	if (!stream) {
		rt_record_failure(rec, IOA_MOD_STDIO, op, err);
		rt_trace_io(op, IOA_MOD_STDIO, rec, IOA_TR_FAILED, 0, 0, 0, err, t0, t1);
		return;
	}
	rt_trace_io(op, IOA_MOD_STDIO, rec, 0, 0, 0, 0, 0, t0, t1);
	opened(rec, stream, offset, STDIO_FDOPENS, t0, t1);
}

struct rt_record *rt_stdio_close_begin(FILE *stream)
{
	struct rt_stream *s;
	struct rt_record *rec = NULL;

	/* The stream's descriptor goes with it, without a close the POSIX layer sees. */
	rt_posix_fd_gone(stream ? fileno(stream) : -1);
	rt_lock();
	s = stream_find(stream);
	if (s) {
		rec = s->rec;
		/* fclose releases the stream whatever it returns. */
		s->stream = RT_TOMBSTONE;
	}
	rt_unlock();
	return rec;
}

void rt_stdio_close(const char *op, struct rt_record *rec, int failed, int err, double t0,
		    double t1)
{
	if (!rec)
		return;
	rt_trace_io(op, IOA_MOD_STDIO, rec, failed ? IOA_TR_FAILED : 0, 0, 0, 0, failed ? err : 0,
		    t0, t1);
	if (failed)
		rt_record_failure(rec, IOA_MOD_STDIO, op, err);
	rt_set_first(&rec->fcounters[STDIO_F_CLOSE_START_TIMESTAMP], t0);
	rt_set_last(&rec->fcounters[STDIO_F_CLOSE_END_TIMESTAMP], t1);
	rt_add_time(&rec->fcounters[STDIO_F_META_TIME], &rec->meta_end, t0, t1);
}

void rt_stdio_io(const char *op, int is_write, FILE *stream, int64_t bytes, int failed, int err,
		 double t0, double t1)
{
	struct rt_stream *s = stream_find(stream);
	struct rt_record *rec;
	int64_t *c;

	if (!s)
		return;
	rec = s->rec;
	c = rec->counters;
	rt_trace_io(op, IOA_MOD_STDIO, rec,
		    (is_write ? IOA_TR_WRITE : IOA_TR_READ) | (failed ? IOA_TR_FAILED : 0),
		    s->offset, bytes > 0 ? bytes : 0, 0, failed ? err : 0, t0, t1);
	if (failed)
		rt_record_failure(rec, IOA_MOD_STDIO, op, err);
	/* As Darshan: a call that moved no data (fgets at end of file) is no read or write. */
	if (bytes <= 0)
		return;
	c[is_write ? STDIO_WRITES : STDIO_READS]++;
	rt_bins_add(rec, t0, is_write, bytes);
	c[is_write ? STDIO_BYTES_WRITTEN : STDIO_BYTES_READ] += bytes;
	if (c[is_write ? STDIO_MAX_BYTE_WRITTEN : STDIO_MAX_BYTE_READ] < s->offset + bytes - 1)
		c[is_write ? STDIO_MAX_BYTE_WRITTEN : STDIO_MAX_BYTE_READ] = s->offset + bytes - 1;
	s->offset += bytes;
	if (is_write) {
		rt_set_first(&rec->fcounters[STDIO_F_WRITE_START_TIMESTAMP], t0);
		rt_set_last(&rec->fcounters[STDIO_F_WRITE_END_TIMESTAMP], t1);
		rt_add_time(&rec->fcounters[STDIO_F_WRITE_TIME], &rec->write_end, t0, t1);
	} else {
		rt_set_first(&rec->fcounters[STDIO_F_READ_START_TIMESTAMP], t0);
		rt_set_last(&rec->fcounters[STDIO_F_READ_END_TIMESTAMP], t1);
		rt_add_time(&rec->fcounters[STDIO_F_READ_TIME], &rec->read_end, t0, t1);
	}
}

void rt_stdio_seek(const char *op, FILE *stream, int moved, int failed, int64_t position, int err,
		   double t0, double t1)
{
	struct rt_stream *s = stream_find(stream);

	if (!s)
		return;
	if (failed) {
		rt_record_failure(s->rec, IOA_MOD_STDIO, op, err);
		rt_trace_io(op, IOA_MOD_STDIO, s->rec, IOA_TR_FAILED, s->offset, 0, 0, err, t0, t1);
		return;
	}
	if (position >= 0)
		s->offset = position;
	rt_trace_io(op, IOA_MOD_STDIO, s->rec, 0, s->offset, 0, 0, 0, t0, t1);
	/* As Darshan: ftell, which moves nothing, is in the trace only. */
	if (!moved)
		return;
	s->rec->counters[STDIO_SEEKS]++;
	rt_add_time(&s->rec->fcounters[STDIO_F_META_TIME], &s->rec->meta_end, t0, t1);
}

void rt_stdio_flush(const char *op, FILE *stream, int failed, int err, double t0, double t1)
{
	struct rt_stream *s = stream_find(stream);

	if (!s)
		return;
	rt_trace_io(op, IOA_MOD_STDIO, s->rec, failed ? IOA_TR_FAILED : 0, 0, 0, 0,
		    failed ? err : 0, t0, t1);
	if (failed) {
		rt_record_failure(s->rec, IOA_MOD_STDIO, op, err);
		return;
	}
	/* As Darshan: a flush writes what the stream holds, its time is write time. */
	s->rec->counters[STDIO_FLUSHES]++;
	rt_set_first(&s->rec->fcounters[STDIO_F_WRITE_START_TIMESTAMP], t0);
	rt_set_last(&s->rec->fcounters[STDIO_F_WRITE_END_TIMESTAMP], t1);
	rt_add_time(&s->rec->fcounters[STDIO_F_WRITE_TIME], &s->rec->write_end, t0, t1);
}
