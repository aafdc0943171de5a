/*
 * ioa_log — messages from ioatlas programs to their operator.
 *
 * One grammar for every message: "<program>: <what failed> '<subject>': detail".
 * The program name defaults to "ioatlas"; a program's main() sets its own.
 * Each message is written with a single write of at most IOA_LOG_LINE_MAX
 * bytes (longer ones are cut and end in "..."), so that lines from many
 * processes sharing a terminal or a log file do not interleave.
 *
 * None of these functions changes errno.  The settings are process-wide and
 * meant to be made once in main() before threads start; the message functions
 * themselves are thread-safe.
 */
#ifndef IOA_LOG_H
#define IOA_LOG_H

#include <stdio.h>

#include "ioa_compiler.h"

#define IOA_LOG_LINE_MAX 1024

enum ioa_log_level {
	IOA_LOG_ERROR,
	IOA_LOG_WARNING,
	IOA_LOG_INFO,
	IOA_LOG_DEBUG,
};

/* The name before the colon; the string must outlive its use (a literal). */
void ioa_log_set_progname(const char *name);

/* Messages above this level are dropped; the default is IOA_LOG_WARNING. */
void ioa_log_set_level(enum ioa_log_level level);

/* Where messages go; NULL means stderr (the default). */
void ioa_log_set_stream(FILE *stream);

/*
 * Parses a level as written in configuration or IOATLAS_LOG_LEVEL: one of
 * "error", "warning", "info", "debug" (any case).  Returns 0, or -EINVAL
 * leaving *level untouched.
 */
int ioa_log_level_parse(const char *text, enum ioa_log_level *level);

void ioa_log(enum ioa_log_level level, const char *fmt, ...) IOA_PRINTF(2, 3);

#define ioa_error(...)	 ioa_log(IOA_LOG_ERROR, __VA_ARGS__)
#define ioa_warning(...) ioa_log(IOA_LOG_WARNING, __VA_ARGS__)
#define ioa_info(...)	 ioa_log(IOA_LOG_INFO, __VA_ARGS__)
#define ioa_debug(...)	 ioa_log(IOA_LOG_DEBUG, __VA_ARGS__)

/*
 * Reports an error that a call returned as a negative errno-style code:
 * prints the message followed by ": " and the code's description, and
 * returns rc unchanged, so that a caller can write
 *
 *	return ioa_error_rc(rc, "cannot open log '%s'", path);
 */
int ioa_error_rc(int rc, const char *fmt, ...) IOA_PRINTF(2, 3);

/*
 * Progress of long work (an ingest backlog, the nightly's analyses, kernel
 * validation), for an operator watching: one line on stderr,
 * "<program>: <what> N/TOTAL (P%), R/s, about T left", redrawn in place at
 * most five times a second, and only when stderr is a terminal whose TERM
 * is not "dumb".  Otherwise nothing at all: logs, pipes and the journal get
 * only the messages.  A message written meanwhile first clears the line,
 * which comes back at the next step (a program printing its results on
 * stdout calls ioa_progress_clear() first); ioa_progress_end() clears it
 * for good.
 * One at a time, from one thread; TOTAL 0 is unknown (no share, no time
 * left).  None of these changes errno.
 */
void ioa_progress_begin(const char *what, unsigned long long total);
void ioa_progress_step(unsigned long long done);
void ioa_progress_end(void);
/* Clears the line before the program prints to stdout (the same terminal); the next step redraws
 * it. */
void ioa_progress_clear(void);

/*
 * ioatlas's own codes, past errno's range, for what errno cannot say
 * (ioa_file's checks on what a tool writes over).
 */
#define IOA_ENOTREG	 (-4097) /* "not a regular file" */
#define IOA_EFOREIGNLINK (-4098) /* "a symbolic link another user owns" */
#define IOA_EFOREIGN	 (-4099) /* "owned by another user" */
#define IOA_EOPENDIR	 (-4100) /* "writable by other users" */

/*
 * The description of a negative errno-style code or one of the IOA_E codes
 * ("unknown error -N" if none).
 */
const char *ioa_strerror(int rc);

#endif
