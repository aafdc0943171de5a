/*
 * ioa_log — operator messages for the ioatlas tools (collector, jobs,
 * reports).  The runtime does not print through here on its hot path; it
 * records what went wrong in its log instead.  See ioa_log.h for the grammar.
 */
#include "ioa_log.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

static const char *log_progname = "ioatlas";
/* The progress line: shown (on stderr) now, and what it counts. */
static struct {
	int on, shown;
	const char *what;
	unsigned long long total, done;
	double start, drawn;
} progress;
static enum ioa_log_level log_level = IOA_LOG_WARNING;
static FILE *log_stream;

static const char *const level_names[] = {
	[IOA_LOG_ERROR] = "error",
	[IOA_LOG_WARNING] = "warning",
	[IOA_LOG_INFO] = "info",
	[IOA_LOG_DEBUG] = "debug",
};

void ioa_log_set_progname(const char *name)
{
	log_progname = name ? name : "ioatlas";
}

void ioa_log_set_level(enum ioa_log_level level)
{
	log_level = level;
}

void ioa_log_set_stream(FILE *stream)
{
	log_stream = stream;
}

int ioa_log_level_parse(const char *text, enum ioa_log_level *level)
{
	size_t i;

	if (!text)
		return -EINVAL;
	for (i = 0; i < sizeof(level_names) / sizeof(level_names[0]); i++) {
		if (!strcasecmp(text, level_names[i])) {
			*level = (enum ioa_log_level)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* A line being formatted: appends stop at the end of the array. */
struct log_line {
	char text[IOA_LOG_LINE_MAX];
	size_t used;
};

static void line_vappend(struct log_line *line, const char *fmt, va_list ap)
{
	size_t room = sizeof(line->text) - line->used;
	int n = vsnprintf(line->text + line->used, room, fmt, ap);

	if (n > 0)
		line->used += (size_t)n < room ? (size_t)n : room - 1;
}

static void line_append(struct log_line *line, const char *fmt, ...) IOA_PRINTF(2, 3);
static void line_append(struct log_line *line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line_vappend(line, fmt, ap);
	va_end(ap);
}

/*
 * Formats "<progname>: [<level>: ]<message>[: <detail>]\n" into one bounded
 * line and writes it with one fwrite.  Errors say nothing but the message,
 * as in git; the other levels name themselves.
 */
static void log_write(enum ioa_log_level level, const char *detail, const char *fmt, va_list ap)
{
	struct log_line line = {.used = 0};
	FILE *out = log_stream ? log_stream : stderr;

	if (level == IOA_LOG_ERROR)
		line_append(&line, "%s: ", log_progname);
	else
		line_append(&line, "%s: %s: ", log_progname, level_names[level]);
	line_vappend(&line, fmt, ap);
	if (detail)
		line_append(&line, ": %s", detail);

	/* A full line was cut: say so, and keep room for the newline. */
	if (line.used >= sizeof(line.text) - 1) {
		line.used = sizeof(line.text) - 1;
		memcpy(line.text + line.used - 3, "...", 3);
	}
	line.text[line.used++] = '\n';
	if (out == stderr)
		ioa_progress_clear();
	fwrite(line.text, 1, line.used, out);
	fflush(out);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void ioa_progress_begin(const char *what, unsigned long long total)
{
	int saved_errno = errno;
	const char *term = getenv("TERM");

	progress.on = isatty(STDERR_FILENO) && term && *term && strcmp(term, "dumb");
	progress.shown = 0;
	progress.what = what;
	progress.total = total;
	progress.done = 0;
	progress.start = now_s();
	progress.drawn = 0;
	errno = saved_errno;
}

void ioa_progress_step(unsigned long long done)
{
	int saved_errno = errno;
	struct log_line line = {.used = 0};
	double now, rate;

	progress.done = done;
	if (!progress.on || ((now = now_s()) - progress.drawn < 0.2 && progress.shown))
		goto out;
	rate = now > progress.start ? (double)done / (now - progress.start) : 0;
	line_append(&line, "\r\033[K%s: %s %llu", log_progname, progress.what, done);
	if (progress.total < done)
		progress.total = 0; /* more than it knew of: no share */
	if (progress.total)
		line_append(&line, "/%llu (%.0f%%)", progress.total,
			    100.0 * (double)done / (double)progress.total);
	if (rate > 0)
		line_append(&line, ", %.1f/s", rate);
	if (progress.total && rate > 0 && done < progress.total) {
		unsigned long long left =
			(unsigned long long)((double)(progress.total - done) / rate);

		line_append(&line, ", about %llu:%02llu left", left / 60, left % 60);
	}
	fwrite(line.text, 1, line.used, stderr);
	fflush(stderr);
	progress.shown = 1;
	progress.drawn = now;
out:
	errno = saved_errno;
}

void ioa_progress_clear(void)
{
	int saved_errno = errno;

	if (progress.shown) {
		fflush(stdout);
		fputs("\r\033[K", stderr);
		fflush(stderr);
		progress.shown = 0;
	}
	errno = saved_errno;
}

void ioa_progress_end(void)
{
	ioa_progress_clear();
	progress.on = 0;
}

void ioa_log(enum ioa_log_level level, const char *fmt, ...)
{
	int saved_errno = errno;
	va_list ap;

	if (level <= log_level) {
		va_start(ap, fmt);
		log_write(level, NULL, fmt, ap);
		va_end(ap);
	}
	errno = saved_errno;
}

int ioa_error_rc(int rc, const char *fmt, ...)
{
	int saved_errno = errno;
	va_list ap;

	va_start(ap, fmt);
	log_write(IOA_LOG_ERROR, ioa_strerror(rc), fmt, ap);
	va_end(ap);
	errno = saved_errno;
	return rc;
}

const char *ioa_strerror(int rc)
{
	static _Thread_local char unknown[32];

	switch (rc) {
	case IOA_ENOTREG:
		return "not a regular file";
	case IOA_EFOREIGNLINK:
		return "a symbolic link another user owns";
	case IOA_EFOREIGN:
		return "owned by another user";
	case IOA_EOPENDIR:
		return "writable by other users";
	}
	if (rc < 0 && rc > -4096) {
		const char *text = strerror(-rc);

		if (text)
			return text;
	}
	snprintf(unknown, sizeof(unknown), "unknown error %d", rc);
	return unknown;
}
