/*
 * ioa_source — job key IOA_JOB_SOURCE parsed and said in words (see
 * ioa_source.h).
 */
#include "ioa_source.h"

#include "ioa_counters.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static char **field(struct ioa_source *s, const char *name, size_t len)
{
#define IOA_SOURCE_MATCH(f)                                  \
	if (len == sizeof(#f) - 1 && !memcmp(name, #f, len)) \
		return &s->f;
	IOA_SOURCE_FIELDS(IOA_SOURCE_MATCH)
#undef IOA_SOURCE_MATCH
	return NULL;
}

void ioa_source_release(struct ioa_source *s)
{
#define IOA_SOURCE_FREE(f) free(s->f);
	IOA_SOURCE_FIELDS(IOA_SOURCE_FREE)
#undef IOA_SOURCE_FREE
	memset(s, 0, sizeof(*s));
}

int ioa_source_parse(struct ioa_source *s, const void *value, size_t len)
{
	const char *p = value, *end = p + len;
	struct ioa_buf text = IOA_BUF_INIT(4 * IOA_SOURCE_VALUE_MAX + 16);

	ioa_source_release(s);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = nl ? nl : end;
		const char *eq = memchr(p, '=', (size_t)(line_end - p));
		char **f = eq ? field(s, p, (size_t)(eq - p)) : NULL;

		if (f && !*f) {
			size_t n = (size_t)(line_end - eq - 1);

			ioa_buf_reset(&text);
			if (ioa_buf_add_escaped(&text, eq + 1,
						n < IOA_SOURCE_VALUE_MAX ? n
									 : IOA_SOURCE_VALUE_MAX) ||
			    !(*f = strdup(ioa_buf_str(&text)))) {
				ioa_buf_release(&text);
				ioa_source_release(s);
				return -ENOMEM;
			}
		}
		p = line_end + (nl != NULL);
	}
	ioa_buf_release(&text);
	return 0;
}

int ioa_source_format(const struct ioa_source *s, struct ioa_buf *out)
{
	int rc = 0;

#define IOA_SOURCE_PUT(f) \
	if (!rc && s->f)  \
		rc = ioa_buf_addf(out, "%s=%s\n", #f, s->f);
	IOA_SOURCE_FIELDS(IOA_SOURCE_PUT)
#undef IOA_SOURCE_PUT
	return rc;
}

int ioa_source_describe(const struct ioa_source *s, struct ioa_buf *out)
{
	int darshan = s->tool && !strcmp(s->tool, "darshan");
	int rc;

	rc = ioa_buf_addf(out, "Imported from a %s log",
			  darshan   ? "Darshan"
			  : s->tool ? s->tool
				    : "foreign");
	if (!rc && (s->format || s->library))
		rc = ioa_buf_addf(out, " (%s%s%s%s%s)", s->format ? "format " : "",
				  s->format ? s->format : "", s->format && s->library ? ", " : "",
				  s->library ? (darshan ? "Darshan " : "library ") : "",
				  s->library ? s->library : "");
	if (!rc)
		rc = ioa_buf_addstr(out, ": it has no time bins, no operation trace (only the "
					 "segments of a DXT trace, when it has one) and none of "
					 "ioatlas's own counters (failed calls, files created and "
					 "removed, rewrites), so the views and findings built on "
					 "them are missing or marked unknown");
	if (!rc && s->incomplete)
		rc = ioa_buf_addf(out,
				  "; its %s records are incomplete (the module ran out of memory)",
				  s->incomplete);
	if (!rc && s->left_out)
		rc = ioa_buf_addf(out, "; not imported: %s", s->left_out);
	if (!rc && s->skipped)
		rc = ioa_buf_addf(out,
				  "; %s records left out (stdio counted in POSIX records of "
				  "Darshan 3.0)",
				  s->skipped);
	if (!rc && s->lustre_trimmed)
		rc = ioa_buf_addf(out,
				  "; %s Lustre layouts cut to their first %d components and %d "
				  "OSTs",
				  s->lustre_trimmed, IOA_LUSTRE_COMPS, IOA_LUSTRE_OSTS);
	return rc ? rc : ioa_buf_addstr(out, ".");
}
