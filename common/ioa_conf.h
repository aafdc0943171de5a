/*
 * ioa_conf — the site settings of the tools (collector, analyses, reports),
 * from the file the runtime reads too (/etc/ioatlas/ioatlas.conf, or
 * $IOATLAS_CONF), then IOATLAS_* environment variables.
 *
 * The file holds "key = value" lines, '#' starting a comment.  A tool's
 * keys are dotted ("collector.quarantine"); plain keys ("logdir") belong to
 * the runtime and a tool may share them.  Keys of other components are left
 * alone; a key under one of the tool's own prefixes that it does not know,
 * or a value that does not parse, is an error that names the file and line:
 * tools refuse garbage configuration rather than guess.  The environment
 * variable of a key is IOATLAS_ + the key in upper case with '.' as '_'
 * (IOATLAS_COLLECTOR_QUARANTINE).
 *
 *	static char *quarantine;
 *	static const struct ioa_setting settings[] = {
 *		{"collector.quarantine", IOA_SET_TEXT, &quarantine, "/var/...", "where ..."},
 *	};
 *	rc = ioa_conf_load(settings, n, &err);   -- err: the message on failure
 *
 * Text values are malloc'd; ioa_conf_free() releases them.  Loading again
 * (SIGHUP) fills a fresh copy: a caller keeps its old settings when the new
 * ones fail.
 */
#ifndef IOA_CONF_H
#define IOA_CONF_H

#include <stddef.h>

#include "ioa_buf.h"

enum ioa_setting_type {
	IOA_SET_TEXT,	 /* char *: any text (may be empty) */
	IOA_SET_SECONDS, /* double: "30", "1.5s", "5m", "2h", "1d" */
	IOA_SET_NUMBER,	 /* double: a number >= 0 ("0.25") */
	IOA_SET_COUNT,	 /* long long: a non-negative integer */
	IOA_SET_BOOL,	 /* int: 1/0, yes/no, true/false, on/off */
	IOA_SET_SIZE,	 /* long long: bytes, "4096", "64k", "2MiB", "1G" (ioa_parse_size) */
};

struct ioa_setting {
	const char *key;
	enum ioa_setting_type type;
	void *field;
	const char *fallback;
	const char *doc;
};

/* 0, or -EINVAL with the reason in err ("/etc/ioatlas/ioatlas.conf:12: ..."). */
int ioa_conf_load(const struct ioa_setting *settings, size_t n, struct ioa_buf *err);

/* Releases the text values. */
void ioa_conf_free(const struct ioa_setting *settings, size_t n);

/* Parses one value of a type into field; 0 or -EINVAL. */
int ioa_conf_parse(enum ioa_setting_type type, const char *text, void *field);

/* s without leading and trailing blanks (cut in place); shared with the runtime's reader. */
char *ioa_conf_trim(char *s);

/* The path of the site file: $IOATLAS_CONF, else /etc/ioatlas/ioatlas.conf. */
const char *ioa_conf_path(void);

#endif
